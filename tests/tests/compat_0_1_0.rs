//! Binary compatibility: a module built against the first released plugin-api (0.1.0,
//! kept as a frozen source copy in `tests/compat/`) loads, validates and solves in
//! today's host, through its undo moves and through the reverse graph alike.
//!
//! The module is built here, once, by a nested cargo into its own target directory
//! (`target/compat`), so it never contends for the workspace's build lock; it is the
//! one e2e test that builds something, because the point is that the module was not
//! built against the workspace's plugin-api.

use e2e_tests::run::{run, run_host};
use e2e_tests::serve::{resource, Server};
use e2e_tests::workspace::{artifact_dir, host_binary};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// Builds the 0.1.0 module (once per test binary) and returns its path.
fn old_module() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let target = artifact_dir()
                .parent()
                .expect("target/<profile> has a parent")
                .join("compat");
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args(["build", "--release", "--manifest-path"])
                .arg(root.join("compat/Cargo.toml"))
                .arg("--target-dir")
                .arg(&target);
            run(cmd, Duration::from_secs(900)).assert_success();
            let lib = target.join("release/libcompat_subtraction.so");
            assert!(lib.is_file(), "{} was not built", lib.display());
            lib
        })
        .clone()
}

#[test]
fn a_module_built_against_plugin_api_0_1_0_loads_and_reports_its_version() {
    let lib = old_module();
    let r = run_host(&host_binary(), &["--plugin", lib.to_str().unwrap(), "info"]);
    r.assert_success();
    assert!(
        r.stdout.contains("plugin-api: 0.1.0 (host "),
        "{}",
        r.describe()
    );
    assert!(r.stdout.contains("compat_subtraction"), "{}", r.describe());
}

#[test]
fn a_0_1_0_module_solves_with_its_undo_moves_and_with_the_reverse_graph() {
    let lib = old_module();
    let lib = lib.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (name, parents) in [("undo", "undo-moves"), ("graph", "forward")] {
        let db = format!("file:{}", dir.path().join(name).display());
        let r = run_host(
            &host_binary(),
            &["--plugin", lib, "solve", "--db", &db, "--parents", parents],
        );
        r.assert_success();
        // 21 is not a multiple of 4: the first player wins in 2 * 5 + 1 plies.
        assert!(
            r.stdout.contains("initial position 21/1: win in 11"),
            "{}",
            r.describe()
        );
        files.push(tier_files(&dir.path().join(name)));
    }
    assert_eq!(files[0].len(), 22, "one tier file per heap size 0..=21");
    assert_eq!(files[0], files[1], "both ways store the same bytes");

    // Every heap: a multiple of 4 loses in 2 * (n / 4) plies, any other wins in one more.
    for n in 0..=21u64 {
        let db = format!("file:{}", dir.path().join("undo").display());
        let who = if n % 2 == 1 { 1 } else { 2 };
        let r = run_host(
            &host_binary(),
            &[
                "--plugin",
                lib,
                "query",
                "--db",
                &db,
                "--json",
                &format!("{n}/{who}"),
            ],
        );
        r.assert_success();
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("query --json");
        let (value, remoteness) = if n % 4 == 0 {
            ("lose", 2 * (n / 4))
        } else {
            ("win", 2 * (n / 4) + 1)
        };
        assert_eq!(v["value"], value, "heap {n}");
        assert_eq!(v["remoteness"], remoteness, "heap {n}");
    }
}

#[test]
fn a_0_1_0_module_passes_the_validator_with_its_undo_moves_checked() {
    let lib = old_module();
    let validate = artifact_dir().join("validate");
    let mut cmd = Command::new(validate);
    cmd.args(["--plugin", lib.to_str().unwrap(), "--json"]);
    let r = run(cmd, Duration::from_secs(60));
    r.assert_success();
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("validate --json");
    assert_eq!(v["summary"]["ok"], true, "{}", r.stdout);
    assert_eq!(v["properties"]["undo_moves"], true, "{}", r.stdout);
    let undo = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "undo-moves")
        .expect("an undo-moves check");
    assert_eq!(undo["status"], "pass", "{}", r.stdout);
}

/// The tier files of a `file:` database directory, by name, with their bytes.
fn tier_files(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    for game_dir in std::fs::read_dir(dir).unwrap() {
        let game_dir = game_dir.unwrap().path();
        for f in std::fs::read_dir(&game_dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "gz") {
                out.insert(
                    f.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&f).unwrap(),
                );
            }
        }
    }
    out
}

/// A module from before the AutoGUI hooks (appended in 0.1.2) is served with its text
/// forms standing in: no board, and the position and move texts as AutoGUI strings.
#[test]
fn a_module_built_before_autogui_is_served_without_it() {
    let lib = old_module().display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let db = resource(&dir);
    run_host(&host_binary(), &["--plugin", &lib, "solve", "--db", &db]).assert_success();
    let server = Server::start(&host_binary(), &[&lib, "mtttier"], &db);
    let list = server.get("/api/").json();
    assert_eq!(list[0]["id"], "compat_subtraction");
    // GamesmanUni's "Standard GUIs": the position as text and a list of moves.
    assert_eq!(list[0]["gui"], "v1");
    assert_eq!(list[1]["gui"], "v3");
    let v = server.get("/api/compat_subtraction/21/").json();
    assert_eq!(v["board"], serde_json::Value::Null);
    assert_eq!(v["imageAutoGUIData"], serde_json::Value::Null);
    assert_eq!(v["autoguiStartPosition"], "21/1", "the text form stands in");
    let a = server.get("/api/compat_subtraction/21/positions/").json();
    // A heap of 21, take 1-3: the player to move wins by leaving a multiple of four,
    // in 2 * (21 / 4) + 1 = 11 moves.
    assert_eq!(
        (a["positionValue"].clone(), a["remoteness"].clone()),
        (serde_json::json!("win"), serde_json::json!(11))
    );
    assert_eq!(a["moves"][0]["move"], "1");
    assert_eq!(a["moves"][0]["autoguiMove"], "1");
    assert_eq!(a["moves"][0]["position"], "20/2");
}
