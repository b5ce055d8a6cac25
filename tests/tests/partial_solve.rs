//! Partial solves through the real `host` binary and the quixo plugin (3x3): `solve
//! --endgame K` and `solve --tier NAME` solve a closed part of the tier graph, resume
//! like a whole solve, and `--force` solves only their part again; `info --db`,
//! `query` and `analyze` say what a partial database holds (a position of an unsolved
//! tier is "unsolved", never a value), and `analyze --every-position` counts every
//! board, split by the player to move.
//!
//! Quixo 3x3: a tier {a, b} (a <= b, named `..._aX_bO`) holds the boards (a, b) and
//! (b, a), both sides to move: 4 * 9!/(a! b! blanks!) positions (2 * when a = b), all
//! legal, 30 tiers; the endgame of K steps is the tiers with at most K blanks.

use e2e_tests::run::run_host;
use e2e_tests::workspace::{host_binary, plugin};
use serde_json::Value as Json;

/// Runs the host on quixo 3x3 with `args` and the database `db`.
fn quixo(db: &str, args: &[&str]) -> e2e_tests::run::RunOutput {
    let lib = plugin("quixo");
    let lib = lib.to_str().unwrap();
    let mut all = vec!["--plugin", lib, "--variant", "3x3"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--db", db]);
    run_host(&host_binary(), &all)
}

fn json(out: &e2e_tests::run::RunOutput) -> Json {
    out.assert_success();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.describe()))
}

#[test]
fn an_endgame_solve_is_partial_resumable_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    // 0 and 1 blanks: 5 tiers of 2 * 2^9 = 1,024 positions and 5 of 2 * 9 * 2^8.
    let s = json(&quixo(&db, &["solve", "--endgame", "1", "--json"]));
    assert_eq!(s["tiers"], 10);
    assert_eq!(s["tiers_solved"], 10);
    assert_eq!(s["positions_total"], 1_024 + 4_608);
    assert_eq!(s["initial"]["value"], "unsolved");
    assert_eq!(s["partial"], "the endgame of 1 steps (--endgame 1)");
    // Run again: everything is kept.
    let again = json(&quixo(&db, &["solve", "--endgame", "1", "--json"]));
    assert_eq!(again["tiers_reused"], 10);
    assert_eq!(again["tiers_solved"], 0);
    // A named tier with everything below it, forced: only those two ({4, 4} and
    // {4, 5}) are solved again, the other tiers stay.
    let t = json(&quixo(
        &db,
        &["solve", "--tier", "1Blank_4X_4O", "--force", "--json"],
    ));
    assert_eq!(t["tiers"], 2);
    assert_eq!(t["tiers_solved"], 2);
    assert_eq!(t["positions_total"], 2 * 9 * 70 + 4 * 126);
    let info = json(&quixo(&db, &["info", "--json"]));
    assert_eq!(info["database"]["tiers_stored"], 10);
    assert_eq!(info["database"]["tiers"], 30);
    let text = quixo(&db, &["info"]);
    text.assert_success();
    assert!(
        text.stdout.contains("10 of 30 tiers stored"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("partial"), "{}", text.stdout);

    // A full board is solved; a board with two blanks is not.
    let full = json(&quixo(&db, &["query", "XXO/OOX/XXO:X", "--json"]));
    assert_ne!(full["value"], "unsolved", "{full}");
    let open = quixo(&db, &["query", "XX-/OO-/XXO:X"]);
    open.assert_success();
    assert!(open.stdout.contains("unsolved"), "{}", open.stdout);

    // Every position of the stored tiers, split by the player to move; the forward
    // search does not run from the unsolved start.
    let a = json(&quixo(&db, &["analyze", "--every-position", "--json"]));
    assert_eq!(a["canonical_only"], false);
    assert_eq!(a["reachable_searched"], false);
    assert_eq!(a["legal"]["counts"]["total"], 1_024 + 4_608);
    assert_eq!(a["unsolved_tiers"].as_array().unwrap().len(), 30 - 10);
    for tier in a["tiers"].as_array().unwrap() {
        if tier["solved"] == false {
            continue;
        }
        let turns = tier["legal"]["by_turn"].as_array().unwrap();
        // Half the positions of a tier have X to move, half O, each counted under its
        // own side (with as many X as O cubes the canonical positions all have X to
        // move, and their colour swaps, O to move, used to be counted under X).
        assert_eq!(turns.len(), 2, "{tier}");
        assert_eq!(turns[0]["total"], turns[1]["total"], "{tier}");
        assert_eq!(
            turns[0]["total"].as_u64().unwrap() * 2,
            tier["size"].as_u64().unwrap(),
            "{tier}"
        );
        assert_eq!(tier["legal"]["total"], tier["size"], "{tier}");
    }
    // Without --every-position only the canonical positions are counted.
    let c = json(&quixo(&db, &["analyze", "--json"]));
    assert_eq!(c["canonical_only"], true);
    let canonical = c["legal"]["counts"]["total"].as_u64().unwrap();
    // At least a sixteenth: 8 symmetries of the square times the colour swap.
    assert!(canonical < 1_024 + 4_608 && canonical * 16 >= 1_024 + 4_608);
}

#[test]
fn an_unknown_tier_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("file:{}", dir.path().display());
    let out = quixo(&db, &["solve", "--tier", "1Blank_9X_9O"]);
    let msg = out.assert_clean_failure();
    assert!(msg.contains("no tier named '1Blank_9X_9O'"), "{msg}");
    assert!(msg.contains("1Blank_"), "{msg}");
    // --endgame and --reachable do not go together.
    let out = quixo(&db, &["solve", "--endgame", "1", "--reachable"]);
    assert!(!out.status.success());
}
