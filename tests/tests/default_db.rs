//! End-to-end: the default database (issue 24 item 1). It lives in the per-user data
//! directory (`$XDG_DATA_HOME/gamesman`), so a game solved in one directory is queried,
//! played and analyzed from any other; `GAMESMAN_DB` and `--db` override it; a command
//! that needs a database where there is none says so, exits 4, and suggests a solve
//! command that works as printed.

use e2e_tests::run::{host_command, run, RunOutput, DEFAULT_TIMEOUT};
use e2e_tests::workspace::host_binary;
use std::path::Path;
use std::process::Command;

/// Runs `host --plugin mtttier ARGS` in `cwd` with `XDG_DATA_HOME=data` and `env`.
fn mttt(cwd: &Path, data: &Path, env: &[(&str, &str)], args: &[&str]) -> RunOutput {
    let mut all = vec!["--plugin", "mtttier"];
    all.extend_from_slice(args);
    let mut cmd = host_command(&host_binary(), &all);
    cmd.current_dir(cwd).env("XDG_DATA_HOME", data);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd, DEFAULT_TIMEOUT)
}

fn tiers_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".gz"))
            .count()
    })
}

#[test]
fn solved_in_one_directory_used_from_another() {
    let tmp = tempfile::tempdir().unwrap();
    let (here, there, data) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("data"),
    );
    std::fs::create_dir_all(&here).unwrap();
    std::fs::create_dir_all(&there).unwrap();
    let r = mttt(&here, &data, &[], &["solve"]);
    r.assert_success();
    let stored = data.join("gamesman/mtttier_regular_tierdb");
    assert!(
        r.stdout
            .contains(&format!("stored in file:{}", stored.display())),
        "{}",
        r.describe()
    );
    assert_eq!(tiers_in(&stored), 10);
    // Nothing was written where the solve ran.
    assert_eq!(std::fs::read_dir(&here).unwrap().count(), 0);
    let q = mttt(&there, &data, &[], &["query", "X-O------"]);
    q.assert_success();
    assert!(
        q.stdout.contains("Player 1 to move: win in 5"),
        "{}",
        q.stdout
    );
    let a = mttt(&there, &data, &[], &["analyze"]);
    a.assert_success();
    assert!(
        a.stdout
            .contains("Reachable from the initial position: 5,478 positions"),
        "{}",
        a.stdout
    );
}

#[test]
fn gamesman_db_and_the_flag_override_the_default() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let env_db = tmp.path().join("env-db");
    let flag_db = tmp.path().join("flag-db");
    let env_s = env_db.to_str().unwrap();
    // A plain directory in GAMESMAN_DB.
    mttt(tmp.path(), &data, &[("GAMESMAN_DB", env_s)], &["solve"]).assert_success();
    assert_eq!(tiers_in(&env_db.join("mtttier_regular_tierdb")), 10);
    // --db wins over the variable.
    let flag = format!("file:{}", flag_db.display());
    mttt(
        tmp.path(),
        &data,
        &[("GAMESMAN_DB", env_s)],
        &["--variant", "symmetric", "solve", "--db", &flag],
    )
    .assert_success();
    assert_eq!(tiers_in(&flag_db.join("mtttier_symmetric_tierdb")), 10);
    assert_eq!(tiers_in(&env_db.join("mtttier_symmetric_tierdb")), 0);
    // The default directory was never touched.
    assert!(!data.exists());
    let q = mttt(
        tmp.path(),
        &data,
        &[("GAMESMAN_DB", env_s)],
        &["query", "X-O------"],
    );
    q.assert_success();
    assert!(q.stdout.contains("win in 5"));
}

#[test]
fn no_database_is_an_error_with_a_solve_command_that_works() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let db = format!("file:{}", tmp.path().join("somewhere").display());
    for args in [
        vec!["--variant", "symmetric", "query"],
        vec!["--variant", "symmetric", "play", "--seed", "1"],
        vec!["--variant", "symmetric", "analyze"],
        vec!["--variant", "symmetric", "query", "--db", &db],
    ] {
        let r = mttt(tmp.path(), &data, &[], &args);
        let e = r.assert_failure_code(4);
        assert!(
            e.contains("there is no database of mtttier (symmetric) at file:"),
            "{e}"
        );
        let with_db = if args.contains(&"--db") {
            format!(" --db {db}")
        } else {
            String::new()
        };
        let solve = format!(
            "`{} --plugin mtttier --variant symmetric solve{with_db}`",
            host_binary().display()
        );
        assert!(e.contains(&solve), "expected {solve} in: {e}");
    }
    // The suggestion runs as printed, and the query then works.
    let e = mttt(
        tmp.path(),
        &data,
        &[],
        &["--variant", "symmetric", "query", "--db", &db],
    )
    .assert_failure_code(4);
    let command = e.split('`').nth(1).unwrap();
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(command)
        .current_dir(tmp.path())
        .env("XDG_DATA_HOME", &data);
    run(sh, DEFAULT_TIMEOUT).assert_success();
    let q = mttt(
        tmp.path(),
        &data,
        &[],
        &["--variant", "symmetric", "query", "--db", &db],
    );
    q.assert_success();
    assert!(
        q.stdout.contains("Player 1 to move: tie in 9"),
        "{}",
        q.stdout
    );
    // As JSON: one object with the kind and the code.
    let j = mttt(tmp.path(), &data, &[], &["query", "--json"]);
    let e = j.assert_json_failure("database", 4);
    assert!(
        e.contains("there is no database of mtttier (regular)"),
        "{e}"
    );
}

#[test]
fn a_search_needs_no_database() {
    // With --depth, a query of a game nobody solved is still answered by the search.
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let r = mttt(
        tmp.path(),
        &data,
        &[],
        &["query", "--depth", "9", "XX-OO----"],
    );
    r.assert_success();
    assert!(
        r.stdout
            .contains("search to depth 9: best move 3, forced win in 1 plies"),
        "{}",
        r.describe()
    );
    assert!(
        r.stdout
            .contains("unsolved (its tier is not in the database)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("holds nothing of mtttier (regular)"),
        "{}",
        r.stderr
    );
}
