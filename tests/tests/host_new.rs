//! `host new`: every kind of project it writes (Rust and C, one tier and tiered) builds
//! with its one documented command, passes its own unit tests (Rust), `validate
//! --exhaustive`, and is solved into a file database and queried, with the values of
//! the template games known independently: the subtraction game in closed form,
//! Treblecross by a brute-force search written here. Also the hostile
//! inputs of the new output path: an existing directory, a symbolic link at the
//! target (to a directory, dangling), and bad names, none of which may write anything.
//!
//! The Rust projects build offline against this checkout's plugin-api (the path
//! dependency `host new` writes) into one shared target directory under the
//! workspace's `target/`, with the workspace's Cargo.lock, so their dependencies
//! (abi_stable) compile once for all of them.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::module_cli;
use e2e_tests::run::{host_command, run, RunOutput};
use e2e_tests::workspace::{host_binary, projects_target_dir};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The first build of a Rust project compiles abi_stable and its dependencies.
const RUST_BUILD_TIMEOUT: Duration = Duration::from_secs(900);

/// `host ARGS` run in `cwd`.
fn host_in(cwd: &Path, args: &[&str]) -> RunOutput {
    let mut cmd = host_command(&host_binary(), args);
    cmd.current_dir(cwd);
    run(cmd, Duration::from_secs(60))
}

/// Writes a project with `host new NAME FLAGS --dir DIR` and returns its directory.
fn generate(parent: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let dir = parent.join(name);
    let mut args = vec!["new", name, "--dir", dir.to_str().expect("utf-8 path")];
    args.extend_from_slice(flags);
    let r = host_in(parent, &args);
    r.assert_success();
    assert!(r.stdout.contains(&format!("`{name}`")), "{}", r.describe());
    dir
}

/// Builds a Rust project as its README says (`cargo build --release`), offline, into
/// the shared target directory; runs its unit tests; returns the library.
fn build_rust(project: &Path, name: &str) -> PathBuf {
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap();
    let plugin_api = workspace_root().join("plugin-api").canonicalize().unwrap();
    assert!(
        manifest.contains(&format!("path = \"{}\"", plugin_api.display())),
        "the project must depend on this checkout's plugin-api by path:\n{manifest}"
    );
    assert!(manifest.contains(&format!(
        "version = \"{}\"",
        e2e_tests::workspace::plugin_api_version()
    )));
    // The workspace's lock: the same dependency versions, found in cargo's cache.
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        project.join("Cargo.lock"),
    )
    .unwrap();
    let target = projects_target_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    for sub in ["build", "test"] {
        let started = Instant::now();
        let mut cmd = Command::new(&cargo);
        cmd.args([sub, "--release", "--offline", "--quiet"])
            .current_dir(project)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS");
        let r = run(cmd, RUST_BUILD_TIMEOUT);
        assert!(
            r.status.success(),
            "cargo {sub} of {name}:\n{}",
            r.describe()
        );
        eprintln!(
            "cargo {sub} --release of {name}: {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let lib = target.join(format!("release/lib{name}.so"));
    assert!(lib.is_file(), "{} missing", lib.display());
    lib
}

/// Builds a C project as its README says (`make`); returns the library.
fn build_c(project: &Path, name: &str) -> PathBuf {
    let mut cmd = Command::new("make");
    cmd.current_dir(project);
    let r = run(cmd, Duration::from_secs(120));
    assert!(r.status.success(), "make of {name}:\n{}", r.describe());
    assert!(
        !r.stderr.contains("warning"),
        "the C template must compile without warnings:\n{}",
        r.describe()
    );
    let lib = project.join(format!("lib{name}.so"));
    assert!(lib.is_file());
    lib
}

/// Solves the default variant into a file database, then queries `positions` there.
fn solve_and_query(lib: &Path, db: &Path, positions: &[Option<&str>]) -> Vec<Json> {
    let db = format!("file:{}", db.display());
    module_cli::host(lib, &["solve", "--db", &db]);
    positions
        .iter()
        .map(|p| {
            let mut args = vec!["query", "--db", &db, "--json"];
            args.extend(p.iter());
            module_cli::json(&module_cli::host(lib, &args))
        })
        .collect()
}

fn assert_value(j: &Json, value: &str, remoteness: u64) {
    assert_eq!(j["value"], value, "{j}");
    assert_eq!(j["remoteness"], remoteness, "{j}");
}

/// The subtraction template: a pile of 21, take 1 to 3, last stone wins. A pile of 4k
/// is lost in 2k moves; 4k + r is won in 2k + 1.
fn check_subtraction(lib: &Path, scratch: &Path) {
    let report = module_cli::validate(lib, "21");
    assert_eq!(report["summary"]["tiers"], 1, "{report}");
    module_cli::validate(lib, "10");
    let got = solve_and_query(lib, &scratch.join("db"), &[None, Some("20/2"), Some("7/1")]);
    assert_value(&got[0], "win", 11);
    assert_value(&got[1], "lose", 10);
    assert_value(&got[2], "win", 3);
}

/// Treblecross on a row of cells, solved by brute force: (value, remoteness) of
/// `board` (`b'X'`, `b'-'`) for the player to move, with the solver's rules: a win
/// takes the fastest losing child, a loss the slowest child.
fn treblecross_reference(
    board: &mut Vec<u8>,
    memo: &mut HashMap<Vec<u8>, (&'static str, u64)>,
) -> (&'static str, u64) {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let result = if board.windows(3).any(|w| w == b"XXX") {
        ("lose", 0)
    } else {
        let mut children = Vec::new();
        for cell in 0..board.len() {
            if board[cell] == b'-' {
                board[cell] = b'X';
                children.push(treblecross_reference(board, memo));
                board[cell] = b'-';
            }
        }
        // A row of 3 or more cells always ends in three in a row: no ties.
        match children.iter().filter(|c| c.0 == "lose").map(|c| c.1).min() {
            Some(r) => ("win", r + 1),
            None => (
                "lose",
                children.iter().map(|c| c.1).max().expect("a move") + 1,
            ),
        }
    };
    memo.insert(board.clone(), result);
    result
}

/// The tiered template: Treblecross on 7 cells (the default variant), checked at
/// positions of several tiers against the brute-force search.
fn check_treblecross(lib: &Path, scratch: &Path) {
    let report = module_cli::validate(lib, "7");
    assert_eq!(report["summary"]["tiers"], 8, "{report}");
    module_cli::validate(lib, "6");
    let positions = [
        "-------", "---X---", "X-----X", "X-X----", "-X--X--", "--X--X-", "-XXX---",
    ];
    let queries: Vec<Option<&str>> = positions.iter().map(|p| Some(*p)).collect();
    let got = solve_and_query(lib, &scratch.join("db"), &queries);
    let mut memo = HashMap::new();
    for (p, j) in positions.iter().zip(&got) {
        let (v, r) = treblecross_reference(&mut p.as_bytes().to_vec(), &mut memo);
        assert_value(j, v, r);
    }
    // What the reference says, so a change to the template shows here: the first
    // player wins 7 cells in 5 moves; 6 cells are lost.
    assert_eq!(
        treblecross_reference(&mut b"-------".to_vec(), &mut memo),
        ("win", 5)
    );
    assert_eq!(
        treblecross_reference(&mut b"------".to_vec(), &mut memo),
        ("lose", 4)
    );
    // A board and its mirror image (stored once) answer alike.
    assert_eq!(got[4]["value"], got[5]["value"]);
    assert_eq!(got[4]["remoteness"], got[5]["remoteness"]);
}

#[test]
fn a_rust_project_builds_validates_and_solves() {
    let scratch = tempfile::tempdir().unwrap();
    let project = generate(scratch.path(), "newsub", &[]);
    for f in ["Cargo.toml", "src/lib.rs", "README.md", ".gitignore"] {
        assert!(project.join(f).is_file(), "{f} missing");
    }
    let lib = build_rust(&project, "newsub");
    check_subtraction(&lib, scratch.path());
}

#[test]
fn a_tiered_rust_project_builds_validates_and_solves() {
    let scratch = tempfile::tempdir().unwrap();
    let project = generate(scratch.path(), "newtreble", &["--tiers"]);
    let lib = build_rust(&project, "newtreble");
    check_treblecross(&lib, scratch.path());
}

#[test]
fn a_c_project_builds_validates_and_solves() {
    let scratch = tempfile::tempdir().unwrap();
    let project = generate(scratch.path(), "newcsub", &["--lang", "c"]);
    for f in ["newcsub.c", "gamesman_plugin.h", "Makefile", "README.md"] {
        assert!(project.join(f).is_file(), "{f} missing");
    }
    let lib = build_c(&project, "newcsub");
    check_subtraction(&lib, scratch.path());
}

#[test]
fn a_tiered_c_project_builds_validates_and_solves() {
    let scratch = tempfile::tempdir().unwrap();
    let project = generate(scratch.path(), "newctreble", &["--lang", "c", "--tiers"]);
    let lib = build_c(&project, "newctreble");
    check_treblecross(&lib, scratch.path());
}

#[test]
fn the_default_directory_is_the_name() {
    let scratch = tempfile::tempdir().unwrap();
    let r = host_in(scratch.path(), &["new", "plain"]);
    r.assert_success();
    assert!(scratch.path().join("plain/src/lib.rs").is_file());
}

/// Every entry below `dir`, as relative paths with their contents (symlinks as their
/// targets), to show that a refused command changed nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let path = e.path();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            let t = e.file_type().unwrap();
            if t.is_symlink() {
                out.push((
                    rel,
                    format!("-> {}", std::fs::read_link(&path).unwrap().display()),
                ));
            } else if t.is_dir() {
                out.push((rel, "dir".into()));
                stack.push(path);
            } else {
                out.push((rel, std::fs::read_to_string(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn an_existing_directory_is_never_written_into() {
    let scratch = tempfile::tempdir().unwrap();
    let existing = scratch.path().join("mygame");
    std::fs::create_dir(&existing).unwrap();
    std::fs::write(existing.join("Cargo.toml"), "mine\n").unwrap();
    let before = snapshot(scratch.path());
    for args in [
        vec!["new", "mygame"],
        vec!["new", "mygame", "--lang", "c"],
        vec!["new", "other", "--dir", "mygame"],
    ] {
        let r = host_in(scratch.path(), &args);
        let message = r.assert_failure_code(2);
        assert!(message.contains("already exists"), "{}", r.describe());
        assert_eq!(snapshot(scratch.path()), before, "{args:?} changed files");
    }
    // A file where the directory would go is refused too.
    std::fs::write(scratch.path().join("afile"), "x").unwrap();
    let r = host_in(scratch.path(), &["new", "afile"]);
    assert!(r.assert_failure_code(2).contains("already exists"));
}

#[test]
fn a_symlink_at_the_target_is_not_followed() {
    let scratch = tempfile::tempdir().unwrap();
    let elsewhere = scratch.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, scratch.path().join("linked")).unwrap();
    std::os::unix::fs::symlink(
        scratch.path().join("nowhere"),
        scratch.path().join("dangling"),
    )
    .unwrap();
    let before = snapshot(scratch.path());
    for name in ["linked", "dangling"] {
        let r = host_in(scratch.path(), &["new", name]);
        let message = r.assert_failure_code(2);
        assert!(
            message.contains("already exists") && message.contains("symbolic link"),
            "{}",
            r.describe()
        );
        assert_eq!(snapshot(scratch.path()), before, "{name} changed files");
    }
    assert!(!scratch.path().join("nowhere").exists());
}

#[test]
fn bad_names_are_refused_before_anything_is_written() {
    let scratch = tempfile::tempdir().unwrap();
    for (name, says) in [
        ("../evil", "lower-case letter"),
        ("My Game", "lower-case letter"),
        ("my-game", "'-'"),
        ("a/b", "'/'"),
        ("fn", "keyword"),
        ("std", "standard crate"),
        ("", "empty"),
    ] {
        let r = host_in(scratch.path(), &["new", name]);
        let message = r.assert_failure_code(2);
        assert!(message.contains(says), "{name:?}: {}", r.describe());
        assert!(
            snapshot(scratch.path()).is_empty(),
            "{name:?} wrote something"
        );
    }
    assert!(!scratch.path().parent().unwrap().join("evil").exists());
    // A --dir whose parent does not exist is refused, not created.
    let r = host_in(scratch.path(), &["new", "ok", "--dir", "no/such/parent/ok"]);
    assert!(r.assert_failure_code(2).contains("not a directory"));
    assert!(snapshot(scratch.path()).is_empty());
}

#[test]
fn new_hints_a_shared_target_directory() {
    let scratch = tempfile::tempdir().unwrap();
    let run_new = |name: &str, target: Option<&str>| {
        let dir = scratch.path().join(name);
        let mut cmd = host_command(
            &host_binary(),
            &["new", name, "--dir", dir.to_str().unwrap()],
        );
        cmd.current_dir(scratch.path());
        match target {
            Some(t) => cmd.env("CARGO_TARGET_DIR", t),
            None => cmd.env_remove("CARGO_TARGET_DIR"),
        };
        let r = run(cmd, Duration::from_secs(60));
        r.assert_success();
        (r, dir)
    };
    let (r, dir) = run_new("alone", None);
    assert!(
        r.stdout.contains("export CARGO_TARGET_DIR="),
        "{}",
        r.describe()
    );
    assert!(r
        .stdout
        .contains("validate --plugin target/release/libalone.so"));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("export CARGO_TARGET_DIR="), "{readme}");
    assert!(
        readme.contains("$CARGO_TARGET_DIR/release/libalone.so"),
        "{readme}"
    );
    // With one set, the next steps name the library where cargo will put it.
    let (r, _) = run_new("shared", Some("/tmp/shared-target"));
    assert!(
        r.stdout
            .contains("validate --plugin /tmp/shared-target/release/libshared.so"),
        "{}",
        r.describe()
    );
    assert!(
        !r.stdout.contains("export CARGO_TARGET_DIR="),
        "{}",
        r.describe()
    );
}

/// `host new --help` lists only what `new` takes: the global options (module, variant,
/// remote database) mean nothing to it. Every other command still lists them, and
/// `new` still accepts them where given (before or after it), as it always has.
#[test]
fn new_help_lists_only_its_own_options() {
    let help = run(
        host_command(&host_binary(), &["new", "--help"]),
        Duration::from_secs(30),
    );
    help.assert_success();
    for own in ["--lang", "--tiers", "--dir", "<NAME>"] {
        assert!(help.stdout.contains(own), "{own}:\n{}", help.stdout);
    }
    let globals = [
        "--plugin",
        "--variant",
        "--cache",
        "--trust",
        "--verify-fetch",
        "--fetch-deadline",
    ];
    for global in globals {
        assert!(!help.stdout.contains(global), "{global}:\n{}", help.stdout);
    }
    let solve = run(
        host_command(&host_binary(), &["solve", "--help"]),
        Duration::from_secs(30),
    );
    solve.assert_success();
    for global in globals {
        assert!(solve.stdout.contains(global), "{global}:\n{}", solve.stdout);
    }
    // Still accepted: the name is what is checked, not the ignored option.
    let scratch = tempfile::tempdir().unwrap();
    let r = host_in(scratch.path(), &["--plugin", "mtttier", "new", "Bad"]);
    assert_eq!(r.status.code(), Some(2), "{}", r.describe());
    assert!(r.stderr.contains("lower-case"), "{}", r.describe());
    assert!(std::fs::read_dir(scratch.path()).unwrap().next().is_none());
}
