//! Every deliberately broken fixture module is caught by the right check, with the
//! right message, naming tier, position and move, and the validator exits 1; the
//! fixtures' correct control passes. Each fixture is the take-away game of
//! `tests/fixtures/broken_base` with one mistake, so the checks that fail must be
//! exactly the ones that mistake explains.

mod common;

use common::{check, failing_checks, fixture, validate_plugin};
use serde_json::Value;

/// Runs the validator on fixture `name` (exhaustive, JSON) and on its text report, and
/// checks that exactly `failing` fail, exit code 1, and that check `name_of_check` has
/// a finding whose problem contains `key`. Returns that finding.
fn caught(name: &str, failing: &[&str], name_of_check: &str, key: &str) -> Value {
    caught_in(name, "regular", failing, name_of_check, key)
}

/// `caught` for a variant of the fixture.
fn caught_in(name: &str, variant: &str, failing: &[&str], name_of_check: &str, key: &str) -> Value {
    let plugin = fixture(name);
    let run = validate_plugin(&plugin, &["--variant", variant, "--exhaustive", "--json"]);
    assert_eq!(
        run.code, 1,
        "fixture {name} must fail with exit code 1:\n{}\n{}",
        run.stdout, run.stderr
    );
    let json = run.json();
    assert_eq!(json["summary"]["ok"], false);
    assert_eq!(failing_checks(&json), failing, "failing checks of {name}");
    let c = check(&json, name_of_check);
    assert!(c["errors"].as_u64().expect("a count") > 0);
    let finding = c["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["problem"].as_str().is_some_and(|p| p.contains(key)))
        .unwrap_or_else(|| panic!("no {name_of_check} finding of {name} mentions {key:?}: {c:#}"))
        .clone();
    assert_eq!(finding["check"], name_of_check);
    assert_eq!(finding["severity"], "error");
    assert!(!finding["expected"].as_str().expect("expected").is_empty());

    // The text report says the same, and ends with a failing result line.
    let text = validate_plugin(&plugin, &["--variant", variant, "--exhaustive"]);
    assert_eq!(text.code, 1);
    let header = format!(
        "{} {:<16} FAIL",
        c["number"].as_u64().expect("a number"),
        name_of_check
    );
    assert!(
        text.stdout.contains(&header),
        "no {header:?} in:\n{}",
        text.stdout
    );
    assert!(text.stdout.contains(key), "{}", text.stdout);
    let last = text.stdout.trim_end().lines().last().expect("a last line");
    assert!(
        last.contains("result:") && last.contains(name_of_check),
        "{last}"
    );
    finding
}

fn assert_place(f: &Value, tier: u64, tier_name: &str, index: u64, text: &str, mv: Option<&str>) {
    assert_eq!(f["tier"]["number"], tier, "{f:#}");
    assert_eq!(f["tier"]["name"], tier_name, "{f:#}");
    assert_eq!(f["position"]["index"], index, "{f:#}");
    assert_eq!(f["position"]["text"], text, "{f:#}");
    match mv {
        Some(m) => assert_eq!(f["move"]["text"], m, "{f:#}"),
        None => assert_eq!(f["move"], Value::Null, "{f:#}"),
    }
}

#[test]
fn the_control_without_a_mistake_passes() {
    let run = validate_plugin(&fixture("none"), &["--exhaustive", "--json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["module"], "takeaway");
    assert_eq!(json["summary"]["tiers"], 8);
    assert_eq!(json["summary"]["positions"], 16);
    // 7a, 6b, then both players at 5..0 stones.
    assert_eq!(json["summary"]["reachable_positions"], 14);
    assert_eq!(json["summary"]["warnings"], 0);
}

#[test]
fn the_loopy_control_passes_with_its_loopy_tiers_drawn() {
    let dir = std::env::temp_dir().join(format!("validate-loopy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let dot = dir.join("loopy.dot");
    let run = validate_plugin(
        &fixture("none"),
        &[
            "--variant",
            "loopy",
            "--json",
            "--dot",
            dot.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let s = &run.json()["summary"];
    assert_eq!(s["loopy_tiers"], 7);
    assert_eq!(s["reachable_positions"], 16);
    assert_eq!(
        s["level_widths"],
        serde_json::json!([1, 1, 1, 1, 1, 1, 1, 1])
    );
    let dot = std::fs::read_to_string(&dot).expect("the DOT file");
    std::fs::remove_dir_all(&dir).ok();
    assert!(dot.contains("t5 -> t5;"), "{dot}");
    assert!(
        dot.contains("t0 [label=\"tier 0: 0 stones\\n2 positions\\n2 reachable\\nnot loopy\"]"),
        "{dot}"
    );
    assert!(
        dot.contains("\\nloopy\", style=bold, peripheries=2]"),
        "{dot}"
    );
}

#[test]
fn a_dead_end_is_only_a_warning() {
    let run = validate_plugin(&fixture("dead_end"), &["--json"]);
    assert_eq!(
        run.code, 0,
        "warnings must not fail:\n{}\n{}",
        run.stdout, run.stderr
    );
    let json = run.json();
    let c = check(&json, "primitive");
    assert_eq!(c["status"], "warn");
    assert_eq!(c["warnings"], 2);
    let f = &c["findings"][0];
    assert_eq!(f["severity"], "warning");
    assert!(
        f["problem"]
            .as_str()
            .expect("text")
            .contains("not primitive but has no moves"),
        "{f:#}"
    );
    assert_place(f, 0, "0 stones", 0, "0a", None);
    let text = validate_plugin(&fixture("dead_end"), &[]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout.contains("4 primitive        warn 2 warnings"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .trim_end()
            .ends_with("OK, no errors (2 warnings)"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_loopy_tier_not_declared_loopy() {
    // Undo moves towards the tier itself then look extra too: the tier is not loopy.
    let f = caught_in(
        "undeclared_loop",
        "loopy",
        &["children", "undo-moves"],
        "children",
        "the child 7:1 lies in the position's own tier, but tier_children(7) does not list it",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", Some("pass"));
}

#[test]
fn a_child_in_an_undeclared_tier() {
    let f = caught(
        "undeclared_tier",
        &["children"],
        "children",
        "the child 5:1 lies in tier 5 (5 stones), which tier_children(7) does not declare",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", Some("take2"));
    assert!(
        f["expected"].as_str().expect("text").contains("[6]"),
        "{f:#}"
    );
}

#[test]
fn a_missing_undo_move() {
    let f = caught(
        "missing_undo",
        &["undo-moves"],
        "undo-moves",
        "missing undo move: the undo moves of the child 5:1 \"5b\" towards tier 7 lead to []",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", Some("take2"));
}

#[test]
fn an_extra_undo_move_to_a_parent_without_the_child() {
    let f = caught(
        "extra_undo",
        &["undo-moves"],
        "undo-moves",
        "leads to 5:0 \"5a\", which does not have this position among its children",
    );
    assert_place(&f, 4, "4 stones", 0, "4a", None);
    assert!(f["problem"]
        .as_str()
        .expect("text")
        .contains("undo move #11 towards tier 5"));
}

#[test]
fn a_tier_cycle_is_shown_as_its_list_of_tiers() {
    let f = caught(
        "tier_cycle",
        &["tier-graph"],
        "tier-graph",
        "the tier graph has a cycle: 2 (2 stones) -> 1 (1 stone) -> 2 (2 stones)",
    );
    assert_eq!(f["tier"]["number"], 2);
    let run = validate_plugin(&fixture("tier_cycle"), &["--json"]);
    let s = &run.json()["summary"];
    assert_eq!(s["cycle"], serde_json::json!([2, 1]));
    assert_eq!(s["level_widths"], Value::Null);
    // The positions are still checked although the tiers have no solve order.
    assert_eq!(s["checked_positions"], 16);
}

#[test]
fn a_child_index_out_of_range() {
    let f = caught(
        "index_out_of_range",
        &["children"],
        "children",
        "the child's index 1 is out of range: tier 0 (0 stones) has size 1",
    );
    assert_place(&f, 2, "2 stones", 0, "2a", Some("take2"));
    assert_eq!(f["expected"], "an index below 1");
}

#[test]
fn a_position_text_that_does_not_round_trip() {
    let f = caught(
        "position_text",
        &["text-round-trip"],
        "text-round-trip",
        "the position text \"6b\" parses back to 6:0 \"6a\"",
    );
    assert_place(&f, 6, "6 stones", 1, "6b", None);
}

#[test]
fn a_move_text_that_does_not_round_trip() {
    let f = caught(
        "move_text",
        &["text-round-trip"],
        "text-round-trip",
        "the move text \"take2\" parses back to a different move, #1 (\"take1\")",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", Some("take2"));
}

#[test]
fn a_turn_that_never_changes() {
    // With the turn wrong, WinBy's sign (player one's view) is judged wrong too.
    let f = caught(
        "turn_unchanged",
        &["primitive", "turn"],
        "turn",
        "Player 1 is still to move after the move (at the child 6:1 \"6b\")",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", Some("take1"));
    assert!(f["expected"].as_str().expect("text").contains("go_again"));
}

#[test]
fn turn_free_positions_in_a_game_with_winby() {
    // Turn-free positions (plugin-api 0.1.5) relax the turn check, but only where
    // nothing needs the turn: WinBy counts from player one's view, so the declaration
    // itself is the finding, made once, at the initial position.
    let f = caught(
        "turn_free_winby",
        &["turn"],
        "turn",
        "the module declares turn-free positions (turn_free) and also WinBy, which need whose turn it is",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", None);
    let json = validate_plugin(&fixture("turn_free_winby"), &["--exhaustive", "--json"]).json();
    assert_eq!(check(&json, "turn")["errors"], 1);
    assert_eq!(json["properties"]["turn_free"], true);
}

#[test]
fn a_winby_with_the_wrong_sign() {
    let f = caught(
        "winby_sign",
        &["primitive"],
        "primitive",
        "win_by is -1, but the position is a lose for Player 2 (the player to move), so a win for player one",
    );
    assert_place(&f, 0, "0 stones", 1, "0b", None);
    assert!(f["expected"]
        .as_str()
        .expect("text")
        .starts_with("a positive margin"));
}

#[test]
fn an_illegal_child_of_a_legal_position() {
    let f = caught(
        "illegal_child",
        &["children"],
        "children",
        "the child 3:1 \"3b\" is illegal",
    );
    assert_place(&f, 5, "5 stones", 0, "5a", Some("take2"));
}

#[test]
fn a_symmetry_hook_that_leaves_the_tier() {
    let f = caught(
        "symmetry_tier",
        &["symmetry"],
        "symmetry",
        // The adapter refuses the canonical form itself (issue 22 item 3).
        "canonical_position failed: canonical_position of position 3:0 (3a) returned 2:0, outside tier 3 (size 2)",
    );
    assert_place(&f, 3, "3 stones", 0, "3a", None);
}

#[test]
fn a_panic_inside_the_module_is_a_finding_with_its_message() {
    let f = caught(
        "do_move_panics",
        &["children"],
        "children",
        "do_move failed: panicked: take-away bookkeeping went wrong at 4b",
    );
    assert_place(&f, 4, "4 stones", 1, "4b", Some("take2"));
}

#[test]
fn a_children_fast_path_that_disagrees_with_the_moves() {
    let f = caught(
        "fast_children",
        &["children"],
        "children",
        "the solver's children of this position (the children fast path) are [6:1 \"6b\"], but generate_moves + do_move give [5:1 \"5b\", 6:1 \"6b\"]",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", None);
}

#[test]
fn a_scan_fast_path_that_miscounts_the_children() {
    // The solver would take 7a's count (one) as its number of children and decide it
    // as soon as one child is known: the validator sees the count beside the moves.
    let f = caught(
        "scan_count",
        &["children"],
        "children",
        "the solver's scan counts 1 distinct children of this position (scan_position), but generate_moves + do_move give 2",
    );
    assert_place(&f, 7, "7 stones", 0, "7a", None);
}

#[test]
fn a_parents_fast_path_that_disagrees_with_the_undo_moves() {
    let f = caught(
        "fast_parents",
        &["undo-moves"],
        "undo-moves",
        "the solver's parents of this position in tier 7 (7 stones) (the parents fast path) are [], but its undo moves give [7:0 \"7a\"]",
    );
    assert_place(&f, 5, "5 stones", 1, "5b", None);
}

#[test]
fn fast_paths_declared_distinct_that_repeat_a_position() {
    // The module declares fast_paths_canonical, so the solver would take both lists as
    // they are: the repeated child fails the children call, the repeated parent shows.
    let f = caught(
        "fast_duplicates",
        &["children", "undo-moves"],
        "children",
        "children at position 2:0 (2a) gave 1:1 twice, but the module declares its fast paths free of duplicates",
    );
    assert_place(&f, 2, "2 stones", 0, "2a", None);
    let f = caught(
        "fast_duplicates",
        &["children", "undo-moves"],
        "undo-moves",
        "the solver's parents of this position in tier 7 (7 stones) (the parents fast path) are [7:0 \"7a\", 7:0 \"7a\"], but its undo moves give [7:0 \"7a\"]",
    );
    assert_place(&f, 5, "5 stones", 1, "5b", None);
}

#[test]
fn findings_are_capped_per_check_and_the_rest_counted() {
    let run = validate_plugin(&fixture("extra_undo"), &["--json", "--max-findings", "2"]);
    assert_eq!(run.code, 1);
    let json = run.json();
    let c = check(&json, "undo-moves");
    let errors = c["errors"].as_u64().expect("a count");
    assert!(errors > 2, "{c:#}");
    assert_eq!(c["findings"].as_array().expect("findings").len(), 2);
    assert_eq!(c["omitted"], errors - 2);
    let text = validate_plugin(&fixture("extra_undo"), &["--max-findings", "2"]);
    assert!(
        text.stdout
            .contains(&format!("... and {} more", errors - 2)),
        "{}",
        text.stdout
    );
}
