//! End-to-end: the edges of the `host` command line found by trying it as a user would.
//! A module error at the play prompt is reported and the game goes on; text in any
//! UTF-8 at chess's prompt is refused with the legal moves listed once; `--threads`
//! above the cap is a usage error; a closed stdout ends every command quietly; a
//! database that cannot be written, or that another solve is writing, is reported
//! before any work; temporary files belong to their writer; typed input echoed in an
//! error is shortened and escaped.
//!
//! Memory refusals and allocation failures are in `host_memory.rs`. This file drives
//! the built binaries only; it must not link the host library.

use e2e_tests::run::{
    assert_no_panic_noise, run, run_host, run_with_closed_stdout, run_with_input, RunOutput,
    DEFAULT_TIMEOUT,
};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn path(name: &str) -> String {
    plugin(name).to_str().expect("utf-8 path").to_string()
}

fn host(args: &[&str]) -> Command {
    let mut cmd = Command::new(host_binary());
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .env_remove("RUST_LOG")
        .env_remove("RAYON_NUM_THREADS");
    cmd
}

fn play(args: &[&str], input: &[u8]) -> RunOutput {
    run_with_input(host(args), input, DEFAULT_TIMEOUT)
}

#[test]
fn a_module_error_during_play_is_reported_and_the_game_goes_on() {
    // panicky panics in do_move at two tokens left: taking two from four reaches that
    // position, whose moves the player cannot be shown. The move is taken back and the
    // player is asked again, twice; then quits.
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    let p = path("fixture_panicky");
    let r = play(
        // --depth: the database is empty (nothing solved), which play refuses
        // unless a search stands in for it.
        &[
            "--plugin", &p, "play", "--db", &resource, "--seed", "1", "--depth", "1",
        ],
        b"2\n2\nquit\n",
    );
    let d = r.describe();
    assert!(r.status.success(), "{d}");
    assert_no_panic_noise(&r.stderr, &d);
    let error = "error: game module 'panicky' failed in do_move: panicked: deliberate failure at two tokens left";
    assert_eq!(r.stdout.matches(error).count(), 2, "{d}");
    assert_eq!(
        r.stdout
            .matches("The game cannot go on from that position: took back 1 move.")
            .count(),
        2,
        "{d}"
    );
    // The prompt came back after each error, and the last command was read.
    assert_eq!(r.stdout.matches("4 tokens left").count(), 3, "{d}");
    assert!(
        r.stdout
            .trim_end()
            .ends_with("Player 1's move (help for commands): quit"),
        "{d}"
    );
}

#[test]
fn chess_prompt_refuses_any_utf8_and_lists_the_legal_moves_once() {
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    let p = path("chess");
    // e€ (the report's keyboard slip), a piece glyph, invalid UTF-8 bytes, a terminal
    // escape sequence; then a legal move, then quit.
    let input: &[u8] = b"e\xe2\x82\xac\n\xe2\x99\x95b5\n\xff\xfe\n\x1b[2J\nKe2\nquit\n";
    let r = play(
        &[
            "--plugin",
            &p,
            "--variant",
            "KQK",
            "play",
            "--db",
            &resource,
            "--seed",
            "3",
            // The database is empty: a shallow search plays for the computer.
            "--depth",
            "1",
        ],
        input,
    );
    let d = r.describe();
    assert!(r.status.success(), "{d}");
    assert_no_panic_noise(&r.stderr, &d);
    assert!(!r.stdout.contains("panicked"), "{d}");
    assert!(!r.stdout.contains("error:"), "{d}");
    for shown in [
        "'e\u{20ac}'",
        "'\u{2655}b5'",
        "'\u{fffd}\u{fffd}'",
        "'\\u{1b}[2J'",
    ] {
        assert!(
            r.stdout.contains(&format!(
                "{shown} is not one legal move here; legal moves: e1d1 "
            )),
            "{shown}: {d}"
        );
    }
    // The module's message lists the moves: the player does not add them again.
    assert!(!r.stdout.contains("Legal moves:"), "{d}");
    assert!(
        !r.stdout.contains('\x1b'),
        "the escape reached the terminal: {d}"
    );
    // Then the game went on: Ke2 was played and the computer answered.
    assert!(r.stdout.contains("Player 2 (computer) plays"), "{d}");
}

#[test]
fn threads_above_the_cap_are_a_usage_error() {
    let p = path("mtttier");
    let started = Instant::now();
    for args in [
        vec![
            "--plugin",
            &p,
            "solve",
            "--db",
            "memory:",
            "--threads",
            "10000",
        ],
        vec!["--plugin", &p, "solve", "--db", "memory:", "--threads", "0"],
    ] {
        let r = run(host(&args), DEFAULT_TIMEOUT);
        let d = r.describe();
        assert_eq!(r.status.code(), Some(2), "a usage error: {d}");
        assert!(r.stderr.contains("worker thread"), "{d}");
        assert!(r.stdout.is_empty(), "{d}");
    }
    let r = run(
        host(&[
            "--plugin",
            &p,
            "solve",
            "--db",
            "memory:",
            "--threads",
            "10000",
        ]),
        DEFAULT_TIMEOUT,
    );
    assert!(
        r.stderr.contains("at most")
            && r.stderr
                .contains("worker threads are allowed on this machine"),
        "{}",
        r.describe()
    );
    let validate = artifact_dir().join("validate");
    let mut cmd = Command::new(&validate);
    cmd.args(["--plugin", &p, "--threads", "5000"]);
    let r = run(cmd, DEFAULT_TIMEOUT);
    assert_eq!(r.status.code(), Some(2), "{}", r.describe());
    assert!(
        r.stderr.contains("worker threads are allowed"),
        "{}",
        r.describe()
    );
    // The same cap holds for rayon's own variable.
    let mut cmd = host(&["--plugin", &p, "solve", "--db", "memory:"]);
    cmd.env("RAYON_NUM_THREADS", "100000");
    let e = run(cmd, DEFAULT_TIMEOUT).assert_clean_failure();
    assert!(e.contains("RAYON_NUM_THREADS=100000: at most"), "{e}");
    // All of it at once, not after building ten thousand threads.
    assert!(started.elapsed() < Duration::from_secs(30));
    // A count within the cap solves.
    let r = run(
        host(&["--plugin", &p, "solve", "--db", "memory:", "--threads", "7"]),
        DEFAULT_TIMEOUT,
    );
    r.assert_success();
    assert!(
        r.stdout.contains("initial position ---------: tie in 9"),
        "{}",
        r.describe()
    );
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let p = path("mtttier");
    let dir = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", dir.path().display());
    run_host(
        &host_binary(),
        &["--plugin", &p, "solve", "--db", &resource],
    )
    .assert_success();
    let commands: Vec<Vec<&str>> = vec![
        vec!["info"],
        vec!["info", "--json"],
        vec!["query", "--db", &resource],
        vec!["query", "--db", &resource, "--json"],
        vec!["query", "--db", &resource, "--depth", "2"],
        vec!["analyze", "--db", &resource],
        vec!["analyze", "--db", &resource, "--json"],
        vec!["solve", "--db", &resource],
        vec!["solve", "--db", "memory:"],
        vec!["play", "--db", &resource],
    ];
    for args in commands {
        let mut all = vec!["--plugin", p.as_str()];
        all.extend(&args);
        let r = run_with_closed_stdout(host(&all), b"1\n2\n", DEFAULT_TIMEOUT);
        let d = r.describe();
        assert_eq!(r.status.code(), Some(0), "{args:?} must end quietly: {d}");
        assert_no_panic_noise(&r.stderr, &d);
        assert!(!r.stderr.contains("error"), "{args:?}: {d}");
    }
    let mut cmd = Command::new(artifact_dir().join("validate"));
    cmd.args(["--plugin", &p]);
    let r = run_with_closed_stdout(cmd, b"", DEFAULT_TIMEOUT);
    assert_eq!(r.status.code(), Some(0), "{}", r.describe());
    assert_no_panic_noise(&r.stderr, &r.describe());
}

#[test]
fn an_unwritable_db_is_reported_before_any_work_and_once() {
    // A regular file where the directory should be: no user, root included, can
    // create a directory inside it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-directory");
    std::fs::write(&file, b"x").unwrap();
    let resource = format!("file:{}/db", file.display());
    let p = path("fixture_chain");
    let started = Instant::now();
    let r = run(
        host(&[
            "--plugin",
            &p,
            "--variant",
            "slow",
            "solve",
            "--db",
            &resource,
        ]),
        DEFAULT_TIMEOUT,
    );
    let e = r.assert_clean_failure();
    assert!(
        e.contains("creating") && e.contains("not-a-directory/db"),
        "{e}"
    );
    assert_eq!(
        e.matches("(os error").count(),
        1,
        "the OS error is said once: {e}"
    );
    // Before any work: the slow chain sleeps 150 ms a tier, and nothing was planned.
    assert!(!r.stderr.contains("positions to solve"), "{}", r.describe());
    assert!(started.elapsed() < Duration::from_secs(10));
}

fn chain_solve(db: &Path, variant: &str, extra: &[&str]) -> Command {
    let p = path("fixture_chain");
    let resource = format!("file:{}", db.display());
    let mut args = vec![
        "--plugin",
        p.as_str(),
        "--variant",
        variant,
        "solve",
        "--db",
    ];
    args.push(&resource);
    args.extend(extra);
    let mut cmd = host(&args);
    cmd.env("RUST_LOG", "info");
    cmd
}

fn tier_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |rd| {
        rd.flatten()
            .filter(|e| {
                let n = e.file_name().to_string_lossy().to_string();
                n.starts_with("tier_") && n.ends_with(".gz")
            })
            .count()
    })
}

#[test]
fn a_second_solve_waits_for_the_first_or_fails_with_no_wait() {
    let db = tempfile::tempdir().unwrap();
    let tdir = db.path().join("chain_slow_tierdb");
    // The first solve takes about 30 x 150 ms.
    let mut first = chain_solve(db.path(), "slow", &[])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while tier_files(&tdir) < 2 {
        assert!(start.elapsed() < Duration::from_secs(60), "no tier written");
        assert!(
            first.try_wait().unwrap().is_none(),
            "the first solve ended early"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let e = run(
        chain_solve(db.path(), "slow", &["--no-wait"]),
        DEFAULT_TIMEOUT,
    )
    .assert_clean_failure();
    assert!(
        e.contains("another solve is writing") && e.contains("chain_slow_tierdb"),
        "{e}"
    );
    assert!(e.contains("leave out --no-wait to wait for it"), "{e}");
    // Without --no-wait the second one waits, says so, and then finds everything
    // stored (the first one was still running when it started).
    let second = run(
        chain_solve(db.path(), "slow", &[]),
        Duration::from_secs(120),
    );
    let first_status = first.wait().unwrap();
    assert!(first_status.success());
    let d = second.describe();
    assert!(second.status.success(), "{d}");
    assert!(
        second.stderr.contains("another solve is writing")
            && second.stderr.contains("waiting for it to finish"),
        "{d}"
    );
    assert!(
        second.stdout.contains("(0 solved now, 30 already stored)"),
        "{d}"
    );
    assert_eq!(tier_files(&tdir), 30);
}

#[test]
fn temporaries_are_removed_only_when_their_writer_is_gone() {
    let db = tempfile::tempdir().unwrap();
    let tdir = db.path().join("chain_fast_tierdb");
    std::fs::create_dir_all(&tdir).unwrap();
    // A live "writer" (any running process) and a finished one.
    let mut live = Command::new("sleep").arg("60").spawn().unwrap();
    let mut gone = Command::new("true").spawn().unwrap();
    let gone_pid = gone.id();
    gone.wait().unwrap();
    let live_tmp = tdir.join(format!("tier_5.gz.{}.tmp", live.id()));
    let gone_tmp = tdir.join(format!("tier_6.gz.{gone_pid}.tmp"));
    std::fs::write(&live_tmp, b"half a tier").unwrap();
    std::fs::write(&gone_tmp, b"half a tier").unwrap();
    let r = run(chain_solve(db.path(), "fast", &[]), DEFAULT_TIMEOUT);
    r.assert_success();
    assert!(live_tmp.exists(), "a live writer's file was removed");
    assert!(!gone_tmp.exists(), "a dead writer's file was kept");
    assert!(
        r.stderr.contains("removed 1 unfinished tier files"),
        "{}",
        r.describe()
    );
    // Once its writer is gone, the next solve removes it too.
    live.kill().unwrap();
    live.wait().unwrap();
    run(chain_solve(db.path(), "fast", &[]), DEFAULT_TIMEOUT).assert_success();
    assert!(!live_tmp.exists());
    assert_eq!(tier_files(&tdir), 30);
}

#[test]
fn typed_input_in_an_error_is_shortened_and_escaped() {
    let p = path("mtttier");
    let typed = format!("\x1b[31m{}", "X".repeat(100_000));
    let r = run(
        host(&["--plugin", &p, "query", "--db", "memory:", &typed]),
        DEFAULT_TIMEOUT,
    );
    let e = r.assert_clean_failure();
    assert!(e.contains("'\\u{1b}[31mXXX"), "{e}");
    assert!(
        e.contains("… (100005 characters)' is not a position"),
        "{e}"
    );
    assert!(!e.contains('\x1b'), "{e}");
    assert!(e.len() < 1000, "{} bytes of error", e.len());
    let r = run(
        host(&["--plugin", &p, "--variant", "no\nsuch", "info"]),
        DEFAULT_TIMEOUT,
    );
    let e = r.assert_clean_failure();
    assert!(e.contains("has no variant 'no\\nsuch'"), "{e}");
}
