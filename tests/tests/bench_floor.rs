//! End-to-end: `host bench floor` counts what any solver must ask the module, and its
//! counts agree with an independent brute force and with the solve of the same tiers.
//! Tic-tac-toe (mtttier's regular variant) is checked against every board counted here
//! by hand; Quixo 3x3 (symmetric, undo moves) and dodgem (no undo moves) against the
//! legal positions `analyze` counts in their solved databases. No timing is asserted: the floor's figures are for benchmarks.
//!
//! This file drives the built binaries only; it must not link the host library.

use e2e_tests::run::{run, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::Value;
use std::process::Command;

fn host(module: &str, variant: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(host_binary());
    cmd.arg("--plugin")
        .arg(plugin(module))
        .args(["--variant", variant])
        .args(args)
        .env("RUST_LOG", "warn");
    cmd
}

fn floor_json(module: &str, variant: &str, extra: &[&str]) -> Value {
    let mut args = vec!["bench", "floor", "--json", "--threads", "2"];
    args.extend_from_slice(extra);
    let out = run(host(module, variant, &args), DEFAULT_TIMEOUT);
    out.assert_success();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.describe()))
}

fn u(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// Every legal tic-tac-toe board (X moves first: as many X as O or one more, and a
/// line only for the player who moved last), with how many of them go on (no line, a
/// blank left) and their moves in all.
fn tictactoe_by_hand() -> (u64, u64, u64) {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let (mut boards, mut going, mut moves) = (0, 0, 0);
    for code in 0..3u32.pow(9) {
        let mut b = [0u8; 9];
        let mut c = code;
        for cell in &mut b {
            *cell = (c % 3) as u8;
            c /= 3;
        }
        let count = |p: u8| b.iter().filter(|&&x| x == p).count();
        let (x, o, blank) = (count(1), count(2), count(0));
        let line = |p: u8| LINES.iter().any(|l| l.iter().all(|&i| b[i] == p));
        let legal = match (line(1), line(2)) {
            (false, false) => x == o || x == o + 1,
            (true, false) => x == o + 1,
            (false, true) => x == o,
            (true, true) => false,
        };
        if !legal {
            continue;
        }
        boards += 1;
        if !line(1) && !line(2) && blank > 0 {
            going += 1;
            moves += blank as u64;
        }
    }
    (boards, going, moves)
}

/// Solves `module` into a scratch database and returns `analyze --json`'s count of
/// legal positions (canonical ones, for a game with symmetry).
fn legal_by_analyze(module: &str, variant: &str) -> u64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("file:{}", dir.path().display());
    run(
        host(module, variant, &["solve", "--db", &db]),
        DEFAULT_TIMEOUT,
    )
    .assert_success();
    let out = run(
        host(module, variant, &["analyze", "--json", "--db", &db]),
        DEFAULT_TIMEOUT,
    );
    out.assert_success();
    let v: Value = serde_json::from_str(&out.stdout).expect("analyze JSON");
    u(&v["legal"]["counts"], "total")
}

#[test]
fn tictactoe_floor_counts_every_board_and_move() {
    let (boards, going, moves) = tictactoe_by_hand();
    assert_eq!((boards, going, moves), (5478, 4520, 16167));
    let v = floor_json("mtttier", "regular", &["--solve"]);
    assert_eq!(u(&v, "canonical"), boards, "{v}");
    assert_eq!(u(&v, "expanded"), going, "{v}");
    assert_eq!(u(&v, "children"), moves, "{v}");
    assert_eq!(
        v["tiers"].as_array().map(Vec::len),
        Some(10),
        "one tier a piece count"
    );
    // The solve of the same tiers went over every index of them.
    assert_eq!(u(&v["solve"], "positions_solved"), 6046, "{v}");
    let floor = v["floor_cpu_s"].as_f64().expect("floor_cpu_s");
    let solve = v["solve_cpu_s"].as_f64().expect("solve_cpu_s");
    let ratio = v["ratio"].as_f64().expect("ratio");
    assert!(floor > 0.0 && solve > 0.0, "{v}");
    assert!(
        (ratio - solve / floor).abs() <= 1e-6 * ratio.max(1.0),
        "{v}"
    );
    // Each tier's floor is its cheapest complete way.
    for t in v["tiers"].as_array().unwrap() {
        let scan = t["scan_cpu_s"].as_f64().unwrap();
        let kids = t["children_cpu_s"].as_f64().unwrap();
        let mut best = scan + kids;
        if let Some(f) = t["fused_cpu_s"].as_f64() {
            best = best.min(f);
        }
        if let Some(p) = t["parents_cpu_s"].as_f64() {
            best = best.min(scan + p);
        }
        assert!(
            (t["floor_cpu_s"].as_f64().unwrap() - best).abs() < 1e-12,
            "{t}"
        );
        assert_eq!(u(t, "canonical"), u(t, "expanded") + u(t, "decided"), "{t}");
    }
}

#[test]
fn symmetric_and_forward_only_floors_match_their_solves() {
    // Quixo 3x3: symmetric, with undo moves (parents are counted too).
    let v = floor_json("quixo", "3x3", &[]);
    assert_eq!(u(&v, "canonical"), legal_by_analyze("quixo", "3x3"), "{v}");
    assert_eq!(u(&v, "canonical"), 2862, "{v}");
    let parents: u64 = v["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["parents"].as_u64().expect("quixo gives undo moves"))
        .sum();
    assert!(parents > 0, "{v}");
    // Dodgem: no undo moves, so no parents pass.
    let v = floor_json("dodgem", "3x3", &[]);
    assert_eq!(u(&v, "canonical"), legal_by_analyze("dodgem", "3x3"), "{v}");
    assert!(v["tiers"][0]["parents"].is_null(), "{v}");
}

#[test]
fn endgame_floor_covers_only_the_endgame_tiers() {
    let whole = floor_json("mtttier", "regular", &[]);
    let end = floor_json("mtttier", "regular", &["--endgame", "2"]);
    // Tiers by pieces: the endgame of 2 steps is the tiers of 9, 8 and 7 pieces, the
    // first three of the whole floor (children first).
    let names: Vec<&str> = end["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{end}");
    let first3 = |key: &str| -> u64 {
        whole["tiers"].as_array().unwrap()[..3]
            .iter()
            .map(|t| u(t, key))
            .sum()
    };
    assert_eq!(u(&end, "canonical"), first3("canonical"), "{end}");
    // 9 pieces: 126 boards; 8: 630; 7: 1260 (C(9,k) placings of the X and O counts),
    // of which 78, 390 and 1,140 are legal.
    assert_eq!(first3("indices"), 126 + 630 + 1260, "{whole}");
    assert_eq!(first3("canonical"), 78 + 390 + 1140, "{whole}");
    assert!(end["solve"].is_null() && end["ratio"].is_null(), "{end}");
}

#[test]
fn a_wrong_tier_or_scope_is_a_usage_error() {
    let out = run(
        host(
            "mtttier",
            "regular",
            &["bench", "floor", "--tier", "nonsense"],
        ),
        DEFAULT_TIMEOUT,
    );
    let message = out.assert_clean_failure();
    assert!(message.contains("nonsense"), "{message}");
    let out = run(
        host(
            "mtttier",
            "regular",
            &["bench", "floor", "--tier", "x", "--endgame", "1"],
        ),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(out.status.code(), Some(2), "{}", out.describe());
    let out = run(
        host("mtttier", "regular", &["bench", "floor", "--threads", "0"]),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(out.status.code(), Some(2), "{}", out.describe());
}
