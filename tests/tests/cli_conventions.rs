//! End-to-end: the command line's conventions (issue 24 items 5 and 7): examples in
//! every command's help, exit codes documented and kept, shell completions and the man
//! page, `--json` on `solve` and `play`, JSON errors, one number format, and text and
//! JSON naming values alike (puzzles too; chess's start position as `info` shows it).

use e2e_tests::run::{host_command, run, run_host, RunOutput, DEFAULT_TIMEOUT};
use e2e_tests::workspace::host_binary;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const COMMANDS: [&str; 11] = [
    "info",
    "solve",
    "play",
    "query",
    "analyze",
    "export",
    "list",
    "install-plugin",
    "completions",
    "man",
    "bench",
];

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

fn json(r: &RunOutput) -> Value {
    r.assert_success();
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", r.describe()))
}

#[test]
fn every_command_has_examples_and_the_exit_codes_are_documented() {
    for c in COMMANDS {
        let r = host(&[c, "--help"]);
        r.assert_success();
        assert!(
            r.stdout.contains("Examples:\n  host "),
            "{c}:\n{}",
            r.stdout
        );
    }
    let r = host(&["--help"]);
    r.assert_success();
    for line in [
        "Exit codes:",
        "  0  success",
        "  2  usage:",
        "  3  module:",
        "  4  database:",
        "  5  solve:",
        "GAMESMAN_DB",
        "GAMESMAN_PLUGIN_PATH",
    ] {
        assert!(r.stdout.contains(line), "{line}:\n{}", r.stdout);
    }
}

#[test]
fn exit_codes_follow_the_kind_of_error() {
    // Usage: clap's own errors, a position the module rejects, a bad --db string.
    assert_eq!(
        host(&["--plugin", "mtttier", "solve", "--bogus"])
            .status
            .code(),
        Some(2)
    );
    host(&[
        "--plugin",
        "mtttier",
        "query",
        "--db",
        "memory:",
        "XXXXXXXXXX",
    ])
    .assert_failure_code(2);
    host(&["--plugin", "mtttier", "query", "--db", "memroy:"]).assert_failure_code(2);
    host(&["info"]).assert_failure_code(2);
    // Module: not found, unknown variant.
    host(&["--plugin", "nosuchgame", "info"]).assert_failure_code(3);
    host(&["--plugin", "mtttier", "--variant", "huge", "info"]).assert_failure_code(3);
    // Database: nothing solved there.
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("file:{}", tmp.path().display());
    host(&["--plugin", "mtttier", "analyze", "--db", &db]).assert_failure_code(4);
    // The same with --json: one JSON object on stdout, same codes.
    let r = host(&["--plugin", "mtttier", "solve", "--bogus", "--json"]);
    let e = r.assert_json_failure("usage", 2);
    assert!(e.contains("--bogus"), "{e}");
    let r = host(&[
        "--plugin",
        "mtttier",
        "query",
        "--json",
        "--db",
        "memory:",
        "XXXXXXXXXX",
    ]);
    let e = r.assert_json_failure("usage", 2);
    assert!(e.contains("is not a position of this game"), "{e}");
    host(&["--plugin", "nosuchgame", "info", "--json"]).assert_json_failure("module", 3);
    host(&["--plugin", "mtttier", "analyze", "--json", "--db", &db])
        .assert_json_failure("database", 4);
}

#[test]
fn completions_and_man_page() {
    let r = host(&["completions", "bash"]);
    r.assert_success();
    for sub in COMMANDS {
        assert!(r.stdout.contains(sub), "bash completion lacks {sub}");
    }
    assert!(r.stdout.contains("--plugin") && r.stdout.contains("--variant"));
    // bash parses the script and defines the completion function.
    let mut check = Command::new("bash");
    check
        .arg("-c")
        .arg("source /dev/stdin && declare -F _host && complete -p host")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = check.spawn().expect("bash");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(r.stdout.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "bash rejected the script");
    assert!(String::from_utf8_lossy(&out.stdout).contains("_host"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let r = host(&["completions", shell]);
        r.assert_success();
        assert!(r.stdout.contains("install-plugin"), "{shell}");
    }
    // clap's own usage error (several lines), exit code 2.
    assert_eq!(host(&["completions", "tcsh"]).status.code(), Some(2));
    let m = host(&["man"]);
    m.assert_success();
    assert!(
        m.stdout.starts_with(".ie") || m.stdout.starts_with(".TH"),
        "{}",
        &m.stdout[..200.min(m.stdout.len())]
    );
    assert!(m.stdout.contains(".TH host 1"));
    for sub in COMMANDS {
        assert!(
            m.stdout
                .contains(&format!(".SH \"HOST {}\"", sub.to_uppercase())),
            "man lacks {sub}"
        );
    }
    assert!(m.stdout.contains("Exit codes:"));
}

#[test]
fn solve_json_is_one_summary_object() {
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("file:{}", tmp.path().display());
    let v = json(&host(&[
        "--plugin", "mtttier", "solve", "--db", &db, "--json",
    ]));
    assert_eq!(v["game"], "mtttier");
    assert_eq!(v["variant"], "regular");
    assert_eq!(v["tiers"], 10);
    assert_eq!(v["tiers_solved"], 10);
    assert_eq!(v["tiers_reused"], 0);
    assert_eq!(v["positions_solved"], 6046);
    assert_eq!(v["positions_total"], 6046);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(
        v["initial"],
        serde_json::json!({"position": "---------", "tier": 9, "tier_name": "0X0O", "value": "tie", "remoteness": 9, "winby": null})
    );
    // Again: everything is stored already.
    let v = json(&host(&[
        "--plugin", "mtttier", "solve", "--db", &db, "--json",
    ]));
    assert_eq!(
        (v["tiers_solved"].as_u64(), v["tiers_reused"].as_u64()),
        (Some(0), Some(10))
    );
    // Text: one number format (thousands separators).
    let t = host(&["--plugin", "mtttier", "solve", "--db", &db, "--force"]);
    t.assert_success();
    assert!(
        t.stdout
            .contains("10 tiers (10 solved now, 0 already stored), 6,046 positions solved in"),
        "{}",
        t.stdout
    );
    assert!(
        t.stderr
            .contains("10 tiers, 6,046 positions; 6,046 positions to solve"),
        "{}",
        t.stderr
    );
}

/// `play --json` with `stdin` as the commands.
fn play_json(args: &[&str], stdin: &str) -> (Vec<Value>, String) {
    let mut all = vec!["--plugin", "mtttier", "play", "--db", "memory:", "--json"];
    all.extend_from_slice(args);
    let mut cmd = host_command(&host_binary(), &all);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn play_json_writes_a_line_per_move() {
    let (lines, text) = play_json(
        &["--first", "computer", "--second", "computer", "--seed", "4"],
        "",
    );
    assert_eq!(lines[0]["event"], "start");
    assert_eq!(lines[0]["position"], "---------");
    let moves: Vec<&Value> = lines.iter().filter(|l| l["event"] == "move").collect();
    // Perfect play on both sides: a tie after all nine cells, every move keeping it.
    assert_eq!(moves.len(), 9);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["player"], 1 + i % 2);
        assert_eq!(m["by"], "computer");
        assert_eq!(m["value"], "tie");
        assert_eq!(m["remoteness"], 8 - i);
    }
    let end = lines.last().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["end"], "finished");
    assert_eq!(end["over"], true);
    assert_eq!(end["winner"], Value::Null);
    assert_eq!(end["moves"], 9);
    assert_eq!(end["position"], moves[8]["position"]);
    // The board went to stderr.
    assert!(
        text.contains("Game over: the game is a tie after 9 moves."),
        "{text}"
    );
    // A human: a move, a take-back, and quitting.
    let (lines, _) = play_json(&["--seed", "1"], "5\nundo\n1\nquit\n");
    let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(
        events,
        ["start", "move", "move", "undo", "move", "move", "end"]
    );
    assert_eq!(lines[1]["by"], "human");
    assert_eq!(lines[1]["move"], "5");
    assert_eq!(lines[1]["position"], "----X----");
    assert_eq!(lines[3]["moves"], 2);
    assert_eq!(lines[3]["position"], "---------");
    assert_eq!(lines[4]["move"], "1");
    assert_eq!(lines[6]["end"], "quit");
    assert_eq!(lines[6]["over"], false);
    assert_eq!(lines[6]["moves"], 2);
}

#[test]
fn puzzles_are_named_alike_in_text_and_json() {
    let args = [
        "--plugin",
        "whirly",
        "--variant",
        "two-colours",
        "query",
        "--db",
        "memory:",
    ];
    let t = host(&args);
    t.assert_success();
    assert!(
        t.stdout.contains("Player 1 to move: solvable in 10"),
        "{}",
        t.stdout
    );
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&host(&with_json));
    assert_eq!(v["value"], "solvable");
    assert_eq!(v["remoteness"], 10);
    let names: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move_value"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"solvable"), "{names:?}");
    // Every name in the JSON appears in the text's move table.
    for n in names {
        assert!(n == "solvable" || n == "unsolvable", "{n}");
        assert!(t.stdout.contains(n), "{n}");
    }
}

#[test]
fn chess_solve_shows_the_start_position_as_info_does() {
    let info = json(&host(&[
        "--plugin",
        "chess",
        "--variant",
        "KQK",
        "info",
        "--json",
    ]));
    let start = info["initial_position"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let s = json(&host(&[
        "--plugin",
        "chess",
        "--variant",
        "KQK",
        "solve",
        "--db",
        "memory:",
        "--json",
    ]));
    assert_eq!(s["initial"]["position"], start.as_str());
    assert_eq!(s["initial"]["value"], "win");
    assert_eq!(s["initial"]["tier"], info["initial_position"]["tier"]);
}

#[test]
fn analyze_text_uses_thousands_separators() {
    let mut cmd = host_command(
        &host_binary(),
        &["--plugin", "mtttier", "analyze", "--db", "memory:"],
    );
    cmd.env("RUST_LOG", "warn");
    let r = run(cmd, DEFAULT_TIMEOUT);
    r.assert_success();
    assert!(r
        .stdout
        .contains("Reachable from the initial position: 5,478 positions"));
    // The tier and total rows (counts from the brute force in host/tests/analyze.rs).
    assert!(
        r.stdout.contains(
            "  total                       5,478         2,836         1,574         1,068"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("  4      3X2O                 1,260"),
        "{}",
        r.stdout
    );
}

/// Options given before the command mean what they mean after it (`--cache` before
/// `query ... --verify-fetch` was said to be missing), and a JSON usage error carries
/// clap's whole message, naming what is missing.
#[test]
fn global_options_and_whole_usage_errors() {
    let cache = tempfile::tempdir().unwrap();
    let cres = format!("file:{}", cache.path().display());
    for args in [
        vec![
            "--plugin",
            "mtttier",
            "--cache",
            &cres,
            "query",
            "--db",
            "http://127.0.0.1:9/db",
            "--verify-fetch",
            "X--------",
        ],
        vec![
            "--plugin",
            "mtttier",
            "query",
            "--db",
            "http://127.0.0.1:9/db",
            "--cache",
            &cres,
            "--verify-fetch",
            "X--------",
        ],
    ] {
        let r = host(&args);
        assert!(!r.stderr.contains("were not provided"), "{}", r.describe());
        // Nothing answers there: a database error, not a usage error.
        r.assert_failure_code(4);
    }
    // --verify-fetch without --cache anywhere is still a usage error naming --cache.
    let r = host(&[
        "--plugin",
        "mtttier",
        "query",
        "--db",
        "http://127.0.0.1:9/db",
        "--verify-fetch",
        "--json",
    ]);
    let e = r.assert_json_failure("usage", 2);
    assert!(e.contains("--verify-fetch needs --cache"), "{e}");
    // A missing required argument is named in the JSON error.
    let r = host(&["--plugin", "mtttier", "export", "--json"]);
    let e = r.assert_json_failure("usage", 2);
    assert!(
        e.contains("the following required arguments were not provided"),
        "{e}"
    );
    assert!(e.contains("--out <FILE>"), "{e}");
}
