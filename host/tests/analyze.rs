//! `host analyze` on mtttier: reachable and legal counts by value and by remoteness
//! against an independent brute-force enumeration of boards with their minimax
//! values (5478 boards; 765 up to symmetry), per tier and in total; the largest
//! remoteness; the plots. Against `memory:` and a `file:` database.

mod harness;

use harness::{canonical, host, reachable, solved_file_db, Board, Minimax, V};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashSet};

/// Counts by value, by (remoteness, value), and per tier by value.
#[derive(Default, Debug, PartialEq, Eq)]
struct Expected {
    total: u64,
    by_value: BTreeMap<&'static str, u64>,
    by_remoteness: BTreeMap<u32, [u64; 3]>,
    tiers: BTreeMap<u64, (u64, BTreeMap<&'static str, u64>)>,
}

fn expected(boards: &HashSet<Board>) -> Expected {
    let mut mm = Minimax::new();
    let mut e = Expected::default();
    for b in boards {
        let (v, r) = mm.solve(b);
        e.total += 1;
        *e.by_value.entry(v.name()).or_default() += 1;
        let slot = match v {
            V::Win => 0,
            V::Lose => 1,
            V::Tie => 2,
        };
        e.by_remoteness.entry(r).or_default()[slot] += 1;
        let tier = 9 - b.iter().filter(|&&c| c != 0).count() as u64;
        let t = e.tiers.entry(tier).or_default();
        t.0 += 1;
        *t.1.entry(v.name()).or_default() += 1;
    }
    e
}

fn by_value(j: &Json) -> BTreeMap<&'static str, u64> {
    ["win", "lose", "tie", "draw", "unsolved"]
        .into_iter()
        .map(|k| (k, j[k].as_u64().unwrap()))
        .filter(|&(_, n)| n > 0)
        .collect()
}

fn check_counts(counts: &Json, e: &Expected, what: &str) {
    assert_eq!(counts["total"], e.total, "{what} total");
    assert_eq!(by_value(&counts["by_value"]), e.by_value, "{what} by value");
    let rows: BTreeMap<u32, [u64; 3]> = counts["by_remoteness"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["remoteness"].as_u64().unwrap() as u32,
                [
                    r["win"].as_u64().unwrap(),
                    r["lose"].as_u64().unwrap(),
                    r["tie"].as_u64().unwrap(),
                ],
            )
        })
        .collect();
    assert_eq!(rows, e.by_remoteness, "{what} by remoteness");
}

fn check(j: &Json, boards: &HashSet<Board>) {
    let e = expected(boards);
    check_counts(&j["reachable"]["counts"], &e, "reachable");
    // Every legal tic-tac-toe board is reachable, so the stored records agree.
    check_counts(&j["legal"]["counts"], &e, "legal");
    assert_eq!(j["unsolved_tiers"].as_array().unwrap().len(), 0);
    for t in j["tiers"].as_array().unwrap() {
        let tier = t["tier"].as_u64().unwrap();
        let (n, values) = &e.tiers[&tier];
        assert_eq!(t["reachable"]["total"], *n, "tier {tier}");
        assert_eq!(
            &by_value(&t["reachable"]["by_value"]),
            values,
            "tier {tier}"
        );
        assert_eq!(t["solved"], true);
    }
    let deepest = e.by_remoteness.keys().max().copied().unwrap();
    for section in ["reachable", "legal"] {
        let m = &j[section]["max_remoteness"];
        assert_eq!(m["remoteness"], deepest, "{section}");
        // Only the empty board needs nine more moves.
        assert_eq!(m["position"], "---------", "{section}");
        assert_eq!(m["value"], "tie", "{section}");
        assert_eq!(m["tier"], 9, "{section}");
    }
}

fn analyze_json(variant: &str, db: &str) -> Json {
    let run = host(&["--variant", variant, "analyze", "--db", db, "--json"], "");
    assert!(run.success, "analyze failed: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("analyze --json prints one JSON object")
}

#[test]
fn regular_counts_in_memory() {
    let boards = reachable();
    assert_eq!(boards.len(), 5478, "the brute force itself");
    let j = analyze_json("regular", "memory:");
    assert_eq!(j["reachable"]["counts"]["total"], 5478);
    check(&j, &boards);
}

#[test]
fn regular_counts_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    check(&analyze_json("regular", &db), &reachable());
}

#[test]
fn symmetric_counts_canonical_positions() {
    let boards: HashSet<Board> = reachable().iter().map(canonical).collect();
    assert_eq!(boards.len(), 765, "the brute force itself");
    let j = analyze_json("symmetric", "memory:");
    assert_eq!(j["canonical_only"], true);
    let e = expected(&boards);
    check_counts(&j["reachable"]["counts"], &e, "reachable");
    check_counts(&j["legal"]["counts"], &e, "legal");
}

#[test]
fn unsolved_tiers_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    std::fs::remove_file(dir.path().join("mtttier_regular_tierdb/tier_0.gz")).unwrap();
    let j = analyze_json("regular", &db);
    assert_eq!(j["unsolved_tiers"], serde_json::json!([0]));
    let e = expected(&reachable());
    let full = e.tiers[&0].0;
    assert_eq!(j["reachable"]["counts"]["total"], 5478);
    assert_eq!(j["reachable"]["counts"]["by_value"]["unsolved"], full);
    assert_eq!(j["legal"]["counts"]["total"], 5478 - full);
}

#[test]
fn text_tables_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("h.svg");
    let png = dir.path().join("h.png");
    for path in [&svg, &png] {
        let p = path.to_str().unwrap();
        let run = host(&["analyze", "--db", "memory:", "--plot", p], "");
        assert!(run.success, "{}", run.stderr);
        assert!(run
            .stdout
            .contains("Reachable from the initial position: 5478 positions"));
        assert!(run
            .stdout
            .contains("All legal positions in the database: 5478 positions"));
        assert!(run
            .stdout
            .contains("largest remoteness: 9 (tie), for example --------- (tier 9)"));
    }
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(
        s.contains("<svg") && s.contains("remoteness"),
        "an SVG with labels"
    );
    let p = std::fs::read(&png).unwrap();
    assert_eq!(&p[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let run = host(&["analyze", "--db", "memory:", "--plot", "h.gif"], "");
    assert!(!run.success);
    assert!(run.stderr.contains(".svg or .png"), "{}", run.stderr);
}
