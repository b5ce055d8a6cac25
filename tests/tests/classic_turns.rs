//! End-to-end: whose turn it is in GamesmanClassic modules built with the
//! compatibility layer (plugin-api 0.1.5's turn-free positions). An impartial module
//! whose POSITION keeps no turn (tests/c-modules/classic_impartial.c) validates, ranks
//! moves and alternates the players in `play` as Classic does; the Classic tier module
//! of tests/c-modules/classic_tier.c with a WinBy hook (-DCLASSIC_TIER_WINBY) keeps the
//! turn in its index, where the host needs it. Values are checked against the games'
//! known results (a pile of 1-or-2 takes, tic-tac-toe as mtttier counts it).

use e2e_tests::cbuild::build_classic_module;
use e2e_tests::module_cli::{analyze, host, json, query, validate};
use e2e_tests::tictactoe::reachable_by_pieces;
use e2e_tests::workspace::plugin;
use serde_json::Value as Json;

fn check_status<'a>(report: &'a Json, name: &str) -> &'a Json {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == name)
        .map(|c| &c["status"])
        .unwrap_or_else(|| panic!("no check {name}"))
}

fn reachable_boards() -> u64 {
    reachable_by_pieces().iter().map(|s| s.len() as u64).sum()
}

/// A query's moves as (move text, value for the mover), sorted by move.
fn moves(q: &Json) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = q["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().expect("move text").to_string(),
                m["move_value"].as_str().expect("move value").to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The impartial pile of tests/c-modules/classic_impartial.c: its POSITION keeps no
/// turn, as Classic's impartial modules do, so the layer declares turn-free positions
/// (plugin-api 0.1.5). Before that, `validate` reported the position reached with
/// either player to move as a turn that does not change, the move table could take a
/// child's value for the mover's own, and `play` could let one player move twice.
#[test]
fn classic_impartial_module_keeps_no_turn_and_alternates_in_play() {
    let lib = build_classic_module(
        "tests/c-modules/classic_impartial.c",
        "classic_impartial",
        &[],
    );
    let j = validate(&lib, "1");
    assert_eq!(check_status(&j, "turn"), "pass");
    assert_eq!(j["properties"]["turn_free"], true);
    assert_eq!(j["summary"]["reachable_positions"], 11);
    let info = json(&host(&lib, &["info", "--json"]));
    assert_eq!(info["properties"]["turn_free"], true);
    // Take 1 or 2, whoever cannot move loses: a multiple of 3 is lost for the mover.
    for tokens in 0..=10u64 {
        let q = query(&lib, "1", Some(&format!("#{tokens}")));
        let value = if tokens % 3 == 0 { "lose" } else { "win" };
        assert_eq!(q["value"], value, "{tokens} tokens");
        for (mv, move_value) in moves(&q) {
            let left = tokens - mv.parse::<u64>().expect("a number");
            let wins = left % 3 == 0;
            assert_eq!(
                move_value,
                if wins { "win" } else { "lose" },
                "{tokens} - {mv}"
            );
        }
    }
    let a = analyze(&lib, "1");
    assert_eq!(a["reachable"]["counts"]["total"], 11);
    let text = host(&lib, &["query", "--db", "memory:", "#8"]);
    assert!(
        text.stdout.contains("The player to move: win in 5"),
        "{}",
        text.describe()
    );
    // The players alternate from player one, whichever player the exploration
    // reached each position with first.
    let r = host(
        &lib,
        &[
            "play", "--db", "memory:", "--first", "computer", "--second", "computer", "--seed", "7",
        ],
    );
    let movers: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.ends_with(" plays 1") || l.ends_with(" plays 2"))
        .map(|l| &l[..8])
        .collect();
    assert_eq!(movers.len(), 7, "{}", r.describe());
    for (i, who) in movers.iter().enumerate() {
        assert_eq!(
            *who,
            if i % 2 == 0 { "Player 1" } else { "Player 2" },
            "{}",
            r.stdout
        );
    }
    assert!(
        r.stdout
            .contains("Game over: Player 1 (computer) wins after 7 moves."),
        "{}",
        r.describe()
    );
}

/// With a WinBy hook (seen from player one), the layer needs the turn, which
/// Classic's API cannot tell from a tier position: then, and only then, the index keeps
/// it (`2 * TIERPOSITION + turn - 1`), each board counted once per player to move, and
/// the validator's turn check applies in full.
#[test]
fn classic_tier_module_with_winby_keeps_the_turn_in_its_index() {
    let lib = build_classic_module(
        "tests/c-modules/classic_tier.c",
        "classic_tier_winby",
        &["-DCLASSIC_TIER_WINBY"],
    );
    let j = validate(&lib, "1");
    assert_eq!(check_status(&j, "turn"), "pass");
    assert_eq!(j["properties"]["turn_free"], false);
    let info = json(&host(&lib, &["info", "--json"]));
    assert_eq!(info["properties"]["winby"], true);
    assert_eq!(info["initial_position"]["text"], "#1:0:0");
    let a = analyze(&lib, "1");
    assert_eq!(a["legal"]["counts"]["total"], 2 * reachable_boards());
    let rust = analyze(&plugin("mtttier"), "regular");
    assert_eq!(
        a["reachable"]["counts"]["by_value"],
        rust["reachable"]["counts"]["by_value"]
    );
    let q = query(&lib, "1", None);
    assert_eq!(q["value"], "tie");
    assert_eq!(q["remoteness"], 9);
}
