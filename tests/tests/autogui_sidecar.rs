//! The AutoGUI sidecar of a C module (`libNAME.so.autogui.json`, the ABI reference):
//! GamesmanClassic's tic-tac-toe (`plugins/c/mttt`, built with the Classic layer) with
//! a good sidecar is served on GamesmanUni's board (`imageAutoGUIData`, `gui` v3, its
//! AutoGUI strings checked against the sidecar's board); with a hostile one (an image
//! missing for a character, a center off the board, a huge file, a symbolic link out
//! of the folder, a FIFO, another module's sidecar) it starts at once, says which file
//! and entry are wrong, and serves the game as text. `validate` reports the same.
//! Needs no `../shared`: the module is the project's own.

use e2e_tests::cbuild::build_classic_module;
use e2e_tests::module_cli::validate;
use e2e_tests::run::run_host;
use e2e_tests::serve::Server;
use e2e_tests::workspace::{artifact_dir, host_binary};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A sidecar for Classic's mttt (variant `1`): a 3x3 grid with x and o.
fn good() -> Value {
    let centers: Vec<Value> = (0..9)
        .map(|i| json!([(i % 3) as f64 + 0.5, (i / 3) as f64 + 0.5]))
        .collect();
    json!({"format": 1, "module": "mttt", "variants": {"1": {"defaultTheme": "t", "themes": {"t": {
        "space": [3, 3], "centers": centers, "background": "ttt/3x3grid.svg",
        "charImages": {"x": {"image": "ttt/x.svg", "scale": 1}, "o": {"image": "ttt/o.svg", "scale": 1}}
    }}}}})
}

/// A copy of the module in a folder of its own.
fn module(dir: &Path) -> PathBuf {
    let lib = dir.join("libmttt.so");
    std::fs::copy(
        build_classic_module("plugins/c/mttt/mttt.c", "mttt", &[]),
        &lib,
    )
    .unwrap();
    lib
}

/// Serves the module; gives the variant's answer and the server's stderr.
fn serve(lib: &Path, variant: &str, db: &str) -> (Value, Value, String) {
    let started = Instant::now();
    let mut server = Server::start_with(&host_binary(), &[lib.to_str().unwrap()], &["--db", db]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "host serve took long to start"
    );
    let v = server.get(&format!("/api/mttt/{variant}/")).json();
    let start = server
        .get(&format!(
            "/api/mttt/{variant}/positions/?p={}",
            server_safe(&v)
        ))
        .json();
    let (_, err) = server.stop();
    (v, start, err)
}

fn server_safe(v: &Value) -> String {
    e2e_tests::serve::encode(v["startPosition"].as_str().unwrap())
}

#[test]
fn a_good_sidecar_draws_the_board_and_hostile_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lib = module(dir.path());
    // Classic mttt's first option (the sidecar's variant).
    let variant = "1".to_string();
    let db = tempfile::tempdir().unwrap();
    let db = format!("file:{}", db.path().display());
    let l = lib.to_str().unwrap();
    run_host(&host_binary(), &["--plugin", l, "solve", "--db", &db]).assert_success();
    let side = PathBuf::from(format!("{l}.autogui.json"));

    // Good: GamesmanUni gets the images, the strings are Classic's own.
    std::fs::write(&side, good().to_string()).unwrap();
    let (v, start, err) = serve(&lib, &variant, &db);
    assert_eq!(v["gui"], "v2", "{v}");
    assert_eq!(
        v["imageAutoGUIData"]["themes"]["t"]["charImages"]["x"]["image"],
        "ttt/x.svg"
    );
    assert_eq!(v["autoguiStartPosition"], "1_---------");
    let keys: Vec<&str> = start["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["autoguiMove"].as_str().unwrap())
        .collect();
    assert_eq!(keys.len(), 9);
    assert!(keys.contains(&"A_-_4_x"), "{keys:?}");
    assert!(!err.contains("AutoGUI sidecar"), "{err}");
    let report = validate(&lib, &variant);
    assert_eq!(report["summary"]["errors"], 0);

    // Hostile: each refused with the file and the entry named; served as text.
    let mut missing = good();
    missing["variants"]["1"]["themes"]["t"]["charImages"]
        .as_object_mut()
        .unwrap()
        .remove("o");
    let mut off = good();
    off["variants"]["1"]["themes"]["t"]["centers"][8] = json!([3.5, 2.5]);
    let mut other = good();
    other["module"] = json!("quixo");
    let outside = tempfile::tempdir().unwrap();
    let far = outside.path().join("x.json");
    std::fs::write(&far, good().to_string()).unwrap();
    type Make = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Make, &str)> = vec![
        (
            "missing image",
            Box::new(move |p| std::fs::write(p, missing.to_string()).unwrap()),
            "has 'o', which has no image",
        ),
        (
            "center off the board",
            Box::new(move |p| std::fs::write(p, off.to_string()).unwrap()),
            "centers[8]: (3.5, 2.5) is outside the board's space 3 x 3",
        ),
        (
            "another module's",
            Box::new(move |p| std::fs::write(p, other.to_string()).unwrap()),
            "at module:",
        ),
        (
            "huge",
            Box::new(|p| std::fs::File::create(p).unwrap().set_len(64 << 20).unwrap()),
            "larger than",
        ),
        (
            "link out",
            Box::new(move |p| std::os::unix::fs::symlink(&far, p).unwrap()),
            "symbolic link out of the library's folder",
        ),
        (
            "FIFO",
            Box::new(|p| {
                let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
                assert_eq!(unsafe { libc_mkfifo(c.as_ptr(), 0o600) }, 0);
            }),
            "FIFO",
        ),
    ];
    for (what, make, says) in cases {
        let _ = std::fs::remove_file(&side);
        make(&side);
        let (v, start, err) = serve(&lib, &variant, &db);
        assert!(
            v["imageAutoGUIData"].is_null() && v["gui"] == "v1",
            "{what}: {v}"
        );
        assert_eq!(
            v["autoguiStartPosition"], v["startPosition"],
            "{what}: text"
        );
        assert_eq!(
            start["moves"].as_array().unwrap().len(),
            9,
            "{what}: still served"
        );
        assert!(
            err.contains("AutoGUI sidecar")
                && err.contains(side.to_str().unwrap())
                && err.contains(says),
            "{what}: the warning should name the file and say '{says}':\n{err}"
        );
        if what != "FIFO" {
            let out = run_host(&artifact_dir().join("validate"), &["--plugin", l, "--json"]);
            let text = format!("{}{}", out.stdout, out.stderr);
            assert!(
                !out.status.success()
                    && text.contains("AutoGUI sidecar")
                    && text.contains(side.to_str().unwrap()),
                "{what}: validate should report it:\n{text}"
            );
        }
    }
}

extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}
