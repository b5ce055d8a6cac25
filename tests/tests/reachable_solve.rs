//! Reachable-only solving of the bundled games, loaded as plugins: every position a
//! `solve --reachable` holds has exactly the record of a full solve (quixo 3x3,
//! mothello 4x4, miceblocks), and the command line says what a reachable-only database
//! is: `solve --reachable`, `query` of a position that cannot occur (text and JSON),
//! `analyze`, `info --db`, and the refusals when full and reachable-only solves meet.

use e2e_tests::run::{run, run_host, RunOutput, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::db::{self, Coverage, GameKey};
use gamesman_host::engine::solver::reachable::solve_reachable;
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::{engine::load::loader, GameHandle};
use gamesman_plugin_api::{TierPosition, Value};
use serde_json::Value as Json;

fn open(name: &str, variant: &str) -> GameHandle {
    let module = loader::load_path(&plugin(name)).expect("the plugin loads");
    module.open(Some(variant)).expect("the variant opens")
}

fn key(game: &GameHandle) -> GameKey {
    GameKey::of(game)
}

/// Solves `game` fully and reachable-only, in memory; compares every record the
/// reachable-only solve holds with the full solve's. Returns the reachable count and
/// the initial position's record.
fn compare(name: &str, variant: &str) -> (u64, gamesman_host::engine::record::Record) {
    let game = open(name, variant);
    let whole = db::open("memory:", &key(&game)).unwrap();
    solver::solve(&game, whole.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    let part = db::open("memory:", &key(&game)).unwrap();
    let r = solve_reachable(&game, part.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    assert_eq!(
        db::coverage(part.as_ref()).unwrap(),
        Some(Coverage::ReachableOnly)
    );
    let graph = TierGraph::discover(&game).unwrap();
    let mut compared = 0u64;
    for node in &graph.order {
        let t = part
            .load_reachable_tier(&solver::full_meta_of(node))
            .unwrap();
        let full = whole.load_tier(&solver::meta_of(node)).unwrap();
        for (k, p) in t.marks.iter().enumerate() {
            let got = t.records.get(k as u64);
            assert_eq!(
                got,
                full.get(p),
                "{name} {variant}: {}",
                game.position_to_text(TierPosition::new(node.tier, p))
                    .unwrap()
            );
            assert!(got.is_solved());
            compared += 1;
        }
    }
    assert_eq!(compared, r.reachable);
    assert_eq!(r.solve.initial_record, {
        let init = game.canonical(game.initial_position().unwrap()).unwrap();
        whole.lookup(init).unwrap().unwrap()
    });
    (compared, r.solve.initial_record)
}

#[test]
fn quixo_3x3_reachable_records_equal_the_full_solve() {
    let (reachable, init) = compare("quixo", "3x3");
    assert!(reachable > 1000, "{reachable}");
    assert!(init.is_solved());
}

#[test]
fn mothello_4x4_reachable_records_equal_the_full_solve() {
    let (reachable, init) = compare("mothello", "4x4");
    // The module's documented count; white wins by 8 in 12 plies.
    assert_eq!(reachable, 62_789);
    assert_eq!(
        (init.value, init.remoteness, init.winby),
        (Value::LOSE, 12, Some(-8))
    );
}

#[test]
fn miceblocks_reachable_records_equal_the_full_solve() {
    for variant in ["base4", "base5", "base4-threes-misere"] {
        let (reachable, init) = compare("miceblocks", variant);
        assert!(reachable > 100, "{variant}: {reachable}");
        assert!(init.is_solved(), "{variant}");
    }
}

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

/// The host with warnings and errors only on stderr (no progress lines).
fn host_quiet(args: &[&str]) -> RunOutput {
    let mut cmd = std::process::Command::new(host_binary());
    cmd.args(args).env("RUST_LOG", "warn");
    run(cmd, DEFAULT_TIMEOUT)
}

#[test]
fn the_command_line_solves_queries_and_analyzes_reachable_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    let m = ["--plugin", "mothello", "--variant", "4x4"];
    let with = |rest: &[&str]| {
        let mut all = m.to_vec();
        all.extend_from_slice(rest);
        host(&all)
    };
    let r = with(&["solve", "--reachable", "--db", &db]);
    r.assert_success();
    assert!(
        r.stdout
            .contains("62,789 positions reachable from the start of 17,006,112"),
        "{}",
        r.describe()
    );
    assert!(r.stdout.contains("lose by 8 in 12"), "{}", r.describe());

    // Black to move with five discs: only a pass could give that, and none can occur.
    let never = "B---/-WB-/-BW-/----:B";
    let r = with(&["query", "--db", &db, never]);
    r.assert_success();
    assert!(
        r.stdout.contains("cannot occur from the start"),
        "{}",
        r.describe()
    );
    let r = with(&["query", "--json", "--db", &db, never]);
    r.assert_success();
    let v: Json = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["reachable"], false);
    assert_eq!(v["value"], "unsolved");
    let r = with(&["query", "--json", "--db", &db]);
    r.assert_success();
    let v: Json = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["reachable"], true);
    assert_eq!(
        (v["value"].as_str(), v["winby"].as_i64()),
        (Some("lose"), Some(-8))
    );

    let r = with(&["analyze", "--db", &db]);
    r.assert_success();
    assert!(r.stdout.contains("(reachable-only)"), "{}", r.describe());
    assert!(r
        .stdout
        .contains("Reachable from the initial position: 62,789 positions"));
    assert!(r.stdout.contains("All legal positions: not stored"));
    let r = with(&["analyze", "--json", "--db", &db]);
    let v: Json = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["reachable_only"], true);
    assert_eq!(v["reachable"]["counts"]["total"], 62789);

    let r = with(&["info", "--db", &db]);
    r.assert_success();
    assert!(
        r.stdout.contains(
            "reachable-only (solve --reachable), 13 of 13 tiers stored, 62,789 positions"
        ),
        "{}",
        r.describe()
    );
    let r = with(&["info", "--json", "--db", &db]);
    let v: Json = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["database"]["coverage"], "reachable-only");
    assert_eq!(v["database"]["positions_held"], 62789);

    // Solving again keeps every tier; a full solve refuses the reachable-only tiers.
    let r = with(&["solve", "--reachable", "--db", &db]);
    r.assert_success();
    assert!(
        r.stdout.contains("(0 solved now, 13 already stored)"),
        "{}",
        r.describe()
    );
    let mut all = m.to_vec();
    all.extend_from_slice(&["solve", "--db", &db]);
    let err = host_quiet(&all).assert_clean_failure();
    assert!(
        err.contains("reachable-only") && err.contains("--force"),
        "{err}"
    );
}

#[test]
fn a_reachable_solve_refuses_a_full_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    host(&["--plugin", "mtttier", "solve", "--db", &db]).assert_success();
    let err = host_quiet(&["--plugin", "mtttier", "solve", "--reachable", "--db", &db])
        .assert_clean_failure();
    assert!(
        err.contains("holds a full solve") && err.contains("--force"),
        "{err}"
    );
    let r = host(&["--plugin", "mtttier", "info", "--db", &db]);
    assert!(
        r.stdout.contains("full solve, 10 of 10 tiers stored"),
        "{}",
        r.describe()
    );
    // With --force the full solve is replaced.
    let r = host(&[
        "--plugin",
        "mtttier",
        "solve",
        "--reachable",
        "--force",
        "--db",
        &db,
    ]);
    r.assert_success();
    assert!(
        r.stdout.contains("5,478 positions reachable"),
        "{}",
        r.describe()
    );
}
