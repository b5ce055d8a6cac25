//! The bundled reference module must pass: mtttier, both variants, exhaustively, with
//! the real numbers in the JSON summary (computed here independently of the module),
//! the text report ending with the summary, and the DOT file of its tier chain.

mod common;

use common::{check, mtttier, validate_plugin};
use std::collections::HashSet;

/// `n` choose `k`.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Size of tier `t` (pieces left to place): boards with ceil(p/2) X and floor(p/2) O
/// among 9 cells, p = 9 - t pieces placed.
fn tier_size(t: u64) -> u64 {
    let placed = 9 - t;
    let (x, o) = (placed.div_ceil(2), placed / 2);
    choose(9, x) * choose(9 - x, o)
}

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

/// Boards reachable in real play from the empty board (play stops at a line or a full
/// board), optionally reduced by the square's eight symmetries.
fn reachable_boards(reduce: bool) -> usize {
    let rotate =
        |b: &[u8; 9]| -> [u8; 9] { std::array::from_fn(|i| b[[6, 3, 0, 7, 4, 1, 8, 5, 2][i]]) };
    let mirror =
        |b: &[u8; 9]| -> [u8; 9] { std::array::from_fn(|i| b[[2, 1, 0, 5, 4, 3, 8, 7, 6][i]]) };
    let canon = |b: [u8; 9]| -> [u8; 9] {
        if !reduce {
            return b;
        }
        let mut best = b;
        let mut cur = b;
        for _ in 0..4 {
            cur = rotate(&cur);
            best = best.min(cur).min(mirror(&cur));
        }
        best
    };
    let mut seen = HashSet::new();
    let mut stack = vec![canon([0u8; 9])];
    seen.insert(stack[0]);
    while let Some(b) = stack.pop() {
        let over = LINES
            .iter()
            .any(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]);
        let placed = b.iter().filter(|&&c| c != 0).count();
        if over || placed == 9 {
            continue;
        }
        let piece = if placed % 2 == 0 { 1 } else { 2 };
        for cell in 0..9 {
            if b[cell] == 0 {
                let mut c = b;
                c[cell] = piece;
                let c = canon(c);
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
    }
    seen.len()
}

fn assert_passes(variant: &str, reachable: usize) {
    let run = validate_plugin(
        &mtttier(),
        &["--variant", variant, "--exhaustive", "--json"],
    );
    assert_eq!(
        run.code, 0,
        "mtttier {variant} must pass:\n{}\n{}",
        run.stdout, run.stderr
    );
    let json = run.json();
    let s = &json["summary"];
    assert_eq!(s["ok"], true);
    assert_eq!(s["errors"], 0);
    assert_eq!(s["tiers"], 10);
    let total: u64 = (0..=9).map(tier_size).sum();
    assert_eq!(s["positions"], total);
    assert_eq!(s["checked_positions"], total);
    assert_eq!(s["reachable_positions"], reachable as u64);
    assert_eq!(s["loopy_tiers"], 0);
    assert_eq!(
        s["level_widths"],
        serde_json::json!([1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    );
    assert_eq!(json["mode"]["kind"], "exhaustive");
    for tier in json["tiers"].as_array().expect("tiers") {
        let t = tier["tier"].as_u64().expect("a tier number");
        assert_eq!(tier["size"], tier_size(t), "size of tier {t}");
        assert_eq!(tier["loopy"], false);
        assert_eq!(tier["level"], t);
    }
    for name in [
        "tier-graph",
        "children",
        "undo-moves",
        "primitive",
        "text-round-trip",
        "turn",
    ] {
        assert_eq!(check(&json, name)["status"], "pass", "check {name}");
    }
    assert_eq!(check(&json, "sizes")["status"], "report");
}

#[test]
fn mtttier_regular_passes_exhaustive_with_its_real_numbers() {
    let reachable = reachable_boards(false);
    assert_eq!(reachable, 5478, "the test's own count of reachable boards");
    assert_passes("regular", reachable);
}

#[test]
fn mtttier_symmetric_passes_exhaustive_and_checks_its_symmetry_hook() {
    let reachable = reachable_boards(true);
    assert_eq!(
        reachable, 765,
        "the test's own count of reachable symmetry classes"
    );
    assert_passes("symmetric", reachable);
    let run = validate_plugin(&mtttier(), &["--variant", "symmetric", "--json"]);
    assert_eq!(check(&run.json(), "symmetry")["status"], "pass");
}

#[test]
fn mtttier_is_exhaustive_by_default_and_the_text_report_ends_with_the_summary() {
    let run = validate_plugin(&mtttier(), &[]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("mode: exhaustive"), "{}", run.stdout);
    let summary = run
        .stdout
        .split("\nSummary:\n")
        .nth(1)
        .expect("a summary section at the end");
    for wanted in [
        "tiers:        10",
        "positions:    6,046",
        "reachable:    5,478",
        "loopy tiers:  0",
        "DAG levels:   10; tiers per level (level 0, solved first, on the left): 1 1 1 1 1 1 1 1 1 1",
        "up to 1 tier solvable",
        "result:       OK, no errors",
    ] {
        assert!(summary.contains(wanted), "summary lacks {wanted:?}:\n{summary}");
    }
    assert!(
        summary.trim_end().ends_with("result:       OK, no errors"),
        "{summary}"
    );
}

#[test]
fn dot_file_shows_the_tier_chain_with_names_sizes_and_loopiness() {
    let dir = std::env::temp_dir().join(format!("validate-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join("mtttier.dot");
    let run = validate_plugin(&mtttier(), &["--dot", path.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dot = std::fs::read_to_string(&path).expect("the DOT file was written");
    std::fs::remove_dir_all(&dir).ok();
    assert!(dot.starts_with("digraph tiers {"), "{dot}");
    assert!(dot.trim_end().ends_with('}'), "{dot}");
    assert!(
        dot.contains("t9 [label=\"tier 9: 0X0O\\n1 positions\\n1 reachable\\nnot loopy\"]"),
        "{dot}"
    );
    assert!(
        dot.contains("t3 [label=\"tier 3: 3X3O\\n1680 positions"),
        "{dot}"
    );
    for t in 1..=9 {
        assert!(
            dot.contains(&format!("t{t} -> t{};", t - 1)),
            "edge {t}: {dot}"
        );
    }
    assert_eq!(dot.matches(" -> ").count(), 9, "{dot}");
}

#[test]
fn a_sample_is_reproducible_and_skips_the_reachability_report() {
    let args = ["--sample", "50", "--seed", "7", "--json"];
    let a = validate_plugin(&mtttier(), &args);
    let b = validate_plugin(&mtttier(), &args);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(
        a.stdout, b.stdout,
        "the same seed must check the same positions"
    );
    let json = a.json();
    assert_eq!(json["mode"]["kind"], "sample");
    assert_eq!(json["mode"]["seed"], 7);
    assert_eq!(
        json["summary"]["reachable_positions"],
        serde_json::Value::Null
    );
    assert_eq!(check(&json, "sizes")["status"], "skipped");
    for tier in json["tiers"].as_array().expect("tiers") {
        let size = tier["size"].as_u64().expect("a size");
        assert_eq!(tier["checked"], size.min(50), "{tier}");
    }
    let other = validate_plugin(&mtttier(), &["--sample", "50", "--seed", "8", "--json"]);
    assert_ne!(
        a.json()["tiers"],
        other.json()["tiers"],
        "another seed should pick other positions (legal counts differ)"
    );
}
