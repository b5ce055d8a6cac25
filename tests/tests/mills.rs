//! The bundled Mills module (`plugins/mills`, issue 51) against GamesmanOne's own
//! binary: five men's morris solved here has GamesmanOne's start value, and every
//! position reachable from the start, counted by `analyze --every-position`, has the
//! value and remoteness GamesmanOne's `analyze` gives it (its first table, "Summary of
//! all positions": 17,844,721 positions). Also: typed positions and moves that are
//! not legal get a clear error in `query` and `play`.
//!
//! Needs GamesmanOne's pull-request-27 build, `../shared/anchors/gamesmanone-pr27-mills`
//! (GPL, run at test time, never copied here): without it the comparison says so and
//! passes, except under `CI`, where it fails. GamesmanOne (one thread) and our solve
//! (one thread) run side by side. This file must not hold GamesmanOne's results: they
//! come from its binary.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::run::{host_command, run, run_with_input};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin, shared_input};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// GamesmanOne's pull request 27 build, or `None` (with a note) where it is missing
/// outside CI.
fn anchor() -> Option<PathBuf> {
    let anchors = workspace_root()
        .parent()
        .expect("the workspace has a parent")
        .join("shared/anchors");
    shared_input(
        anchors,
        "gamesmanone-pr27-mills",
        "the Mills comparison with GamesmanOne",
    )
    .map(|dir| dir.join("gamesmanone-pr27-mills"))
}

/// A fresh scratch directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = artifact_dir().join("mills-e2e").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// `host --plugin mills ARGS`, run in `dir`.
fn host(dir: &Path, args: &[&str]) -> Command {
    let lib = plugin("mills");
    let mut all = vec!["--plugin", lib.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    let mut c = host_command(&host_binary(), &all);
    c.current_dir(dir);
    c
}

/// GamesmanOne's counts of every position, from its `analyze` text: the "Totals" row
/// of the first table ([win, lose, tie, draw, total]) and its rows by remoteness
/// (remoteness, win, lose, tie), non-zero ones only.
fn gamesmanone_table(text: &str) -> ([u64; 5], Vec<[u64; 4]>) {
    let start = text
        .find("Summary of all positions")
        .unwrap_or_else(|| panic!("no first table in GamesmanOne's analyze:\n{text}"));
    let mut rows = Vec::new();
    for line in text[start..].lines().skip(2) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let nums = |s: &[&str]| -> Vec<u64> {
            s.iter()
                .map(|v| v.parse().unwrap_or_else(|_| panic!("'{line}'")))
                .collect()
        };
        if f.first() == Some(&"Totals") {
            let t = nums(&f[1..6]);
            rows.retain(|r: &[u64; 4]| r[1] + r[2] + r[3] > 0);
            rows.sort_unstable();
            return ([t[0], t[1], t[2], t[3], t[4]], rows);
        }
        if f.len() == 6 && f[0].parse::<u64>().is_ok() {
            let v = nums(&f);
            rows.push([v[0], v[1], v[2], v[3]]);
        }
    }
    panic!("GamesmanOne's first table has no Totals row:\n{text}");
}

/// Our counts of every reachable position, as `gamesmanone_table` gives GamesmanOne's.
fn our_table(analyze: &Json) -> ([u64; 5], Vec<[u64; 4]>) {
    let c = &analyze["reachable"]["counts"];
    let v = |k: &str| c["by_value"][k].as_u64().expect("a count");
    let totals = [
        v("win"),
        v("lose"),
        v("tie"),
        v("draw"),
        c["total"].as_u64().expect("a total"),
    ];
    let mut rows: Vec<[u64; 4]> = c["by_remoteness"]
        .as_array()
        .expect("rows by remoteness")
        .iter()
        .map(|r| ["remoteness", "win", "lose", "tie"].map(|k| r[k].as_u64().expect("a count")))
        .filter(|r| r[1] + r[2] + r[3] > 0)
        .collect();
    rows.sort_unstable();
    (totals, rows)
}

#[test]
fn five_mens_morris_equals_gamesmanone() {
    let Some(bin) = anchor() else { return };
    let dir = scratch("5mm");
    let started = std::time::Instant::now();
    // GamesmanOne solves and analyzes variant 0 on one thread while we do the same.
    let theirs = std::thread::spawn({
        let dir = dir.clone();
        move || {
            let g1 = |args: &[&str]| {
                let mut c = Command::new(&bin);
                c.arg("--data-path=g")
                    .args(args)
                    .env("OMP_NUM_THREADS", "1")
                    .current_dir(&dir);
                let r = run(c, Duration::from_secs(300));
                r.assert_success();
                r.stdout
            };
            g1(&["solve", "mills", "0"]);
            let start = g1(&["query", "mills", "0", "1_----------------55"]);
            (start, g1(&["analyze", "mills", "0"]))
        }
    });
    let db = format!("file:{}", dir.join("db").display());
    let solve = run(
        host(
            &dir,
            &[
                "--variant",
                "5mm",
                "solve",
                "--db",
                &db,
                "--threads",
                "1",
                "--json",
            ],
        ),
        Duration::from_secs(300),
    );
    solve.assert_success();
    let solve: Json = serde_json::from_str(&solve.stdout).expect("solve --json");
    // The plan counts what the solve stores, tier by tier, and turns a rate into CPU.
    let rate = solve["positions_stored"].as_f64().unwrap() / solve["cpu_seconds"].as_f64().unwrap();
    let plan = run(
        host(
            &dir,
            &[
                "--variant",
                "5mm",
                "solve",
                "--plan",
                "--json",
                "--rate",
                &format!("{rate}"),
            ],
        ),
        Duration::from_secs(60),
    );
    plan.assert_success();
    let plan: Json = serde_json::from_str(&plan.stdout).expect("solve --plan --json");
    assert_eq!(plan["positions"], solve["positions_stored"]);
    assert_eq!(plan["positions"], 1_825_493, "5mm's canonical numbers");
    let tiers = plan["tiers"].as_array().expect("tiers");
    assert_eq!(tiers.len() as u64, solve["tiers"].as_u64().unwrap());
    let sum: u64 = tiers.iter().map(|t| t["positions"].as_u64().unwrap()).sum();
    assert_eq!(sum, 1_825_493);
    let estimate = plan["estimated_cpu_s"].as_f64().expect("estimated_cpu_s");
    let cpu = solve["cpu_seconds"].as_f64().unwrap();
    assert!(
        (estimate - cpu).abs() <= cpu * 1e-9,
        "{estimate} against {cpu}"
    );
    let analyze = run(
        host(
            &dir,
            &[
                "--variant",
                "5mm",
                "analyze",
                "--db",
                &db,
                "--every-position",
                "--json",
            ],
        ),
        Duration::from_secs(300),
    );
    analyze.assert_success();
    let analyze: Json = serde_json::from_str(&analyze.stdout).expect("analyze --json");
    let (start, text) = theirs.join().expect("GamesmanOne's run");
    let start: Json = serde_json::from_str(&start).expect("GamesmanOne's query is JSON");
    assert_eq!(
        solve["initial"]["value"], start["positionValue"],
        "the start's value here and in GamesmanOne"
    );
    assert_eq!(solve["initial"]["value"], "draw");
    let (g_totals, g_rows) = gamesmanone_table(&text);
    let (totals, rows) = our_table(&analyze);
    assert_eq!(
        totals, g_totals,
        "reachable positions [win, lose, tie, draw, total] here and in GamesmanOne"
    );
    assert!(
        g_rows.len() > 50,
        "GamesmanOne's table has {} rows",
        g_rows.len()
    );
    assert_eq!(
        rows, g_rows,
        "reachable positions by remoteness [remoteness, win, lose, tie]"
    );
    eprintln!(
        "five men's morris: {} reachable positions equal GamesmanOne's, in {:.1} s",
        totals[4],
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn typed_positions_that_cannot_occur_get_a_clear_error() {
    let dir = scratch("query");
    for (text, says) in [
        ("q:----------------:5:5", "'q' is not a side to move"),
        ("x:---:5:5", "the board has 16 points"),
        ("o:----------------:5:5", "it is X's turn, not O's"),
        ("x:xxxxxxx---------:5:5", "cannot occur in this variant"),
        ("x:xz--------------:4:5", "'z' at point c5 is not a piece"),
        ("x:----------------:9:5", "'9' is not a number of pieces"),
        ("x:xx-xx-----------:3:3", "cannot occur"),
    ] {
        let r = run(
            host(
                &dir,
                &["--variant", "5mm", "query", "--db", "memory:", "--", text],
            ),
            Duration::from_secs(60),
        );
        let msg = r.assert_clean_failure();
        assert!(msg.contains(says), "{text}: {msg}");
    }
}

#[test]
fn typed_moves_that_are_not_legal_get_a_clear_error_in_play() {
    let dir = scratch("play");
    // Five men's morris (solved in memory first, a few seconds): X places a5, c5 and
    // e5, closing the mill a5-c5-e5 while O places b4 and b2; wrong forms, a move while
    // pieces are in hand, and wrong removals come first.
    let script = "z9\na1-a3\nb5\na5\nb4\nc5\nb2\ne5\ne5xz1\ne5xa1\ne5xb4\nquit\n";
    let r = run_with_input(
        host(
            &dir,
            &[
                "--variant",
                "5mm",
                "play",
                "--db",
                "memory:",
                "--first",
                "human",
                "--second",
                "human",
            ],
        ),
        script.as_bytes(),
        Duration::from_secs(300),
    );
    r.assert_success();
    for says in [
        "'z9' is not a point of this board",
        "you still have 5 pieces in hand: place one first",
        "'b5' is not a point of this board",
        "e5 closes a mill: say which piece to remove",
        "'z1' is not a point",
        "there is no opposing piece on a1 to remove",
        "X: 2 in hand, 3 on the board; O: 3 in hand, 1 on the board; O to move",
    ] {
        assert!(
            r.stdout.contains(says),
            "play does not say '{says}':\n{}",
            r.stdout
        );
    }
}

#[test]
fn typed_positions_that_cannot_occur_get_a_clear_error_over_http() {
    use e2e_tests::serve::{encode, Server};
    let dir = scratch("serve");
    let lib = plugin("mills");
    let resource = format!("file:{}", dir.display());
    let server = Server::start(
        &host_binary(),
        &[lib.to_str().expect("a UTF-8 path")],
        &resource,
    );
    let ok = server.get(&format!(
        "/api/mills/5mm/positions?p={}",
        encode("x:----------------:5:5")
    ));
    assert_eq!(ok.status, 200, "{}", ok.text());
    for (text, says) in [
        ("o:----------------:5:5", "it is X's turn, not O's"),
        ("x:x-x-x-x-x-x-x-x-:0:0", "cannot occur"),
        ("x:----------------:5", "TURN:BOARD:XHAND:OHAND"),
        ("x:\u{1F600}---------------:5:5", "is not a piece"),
    ] {
        let r = server.get(&format!("/api/mills/5mm/positions?p={}", encode(text)));
        assert!(
            (400..500).contains(&r.status) && r.text().contains(says),
            "{text}: {} {}",
            r.status,
            r.text()
        );
    }
}
