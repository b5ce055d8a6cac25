//! The module's rules and text forms on hand-made positions: which cells can be
//! played, what typed moves and positions are refused and why, the board diagram, and
//! the primitive values and WinBy of full pyramids under each rule.

use gamesman_plugin_api::{Game, List, Move, Tier, Value};
use miceblocks::MiceBlocks;

fn moves_of(g: &MiceBlocks, text: &str) -> Vec<String> {
    let p = g.text_to_position(text).unwrap();
    let mut buf = vec![Move::default(); 8];
    let mut list = List::new(&mut buf);
    g.generate_moves(p, &mut list);
    list.as_slice()
        .iter()
        .map(|&m| g.move_to_text(p, m))
        .collect()
}

#[test]
fn blocks_go_on_the_ground_or_on_two_blocks() {
    let g = MiceBlocks::new_for_tests("base5");
    assert_eq!(
        moves_of(&g, "-----/----/---/--/-"),
        ["1", "2", "3", "4", "5"]
    );
    // With 1 and 2 filled, cell 6 (above them) opens.
    assert_eq!(moves_of(&g, "XO---/----/---/--/-"), ["3", "4", "5", "6"]);
    // A full bottom row opens the whole second row.
    assert_eq!(moves_of(&g, "XOXOX/----/---/--/-"), ["6", "7", "8", "9"]);
}

#[test]
fn typed_moves_are_checked_with_reasons() {
    let g = MiceBlocks::new_for_tests("base5");
    let p = g.text_to_position("XO---/----/---/--/-").unwrap();
    assert_eq!(g.text_to_move(p, " 6 ").unwrap(), Move(5));
    let err = |t: &str| g.text_to_move(p, t).unwrap_err();
    assert!(err("1").contains("already filled"), "{}", err("1"));
    assert!(err("7").contains("both cells below"), "{}", err("7"));
    assert!(err("16").contains("1 to 15"), "{}", err("16"));
    assert!(err("b2").contains("not a cell"), "{}", err("b2"));
}

#[test]
fn typed_positions_are_checked_with_reasons() {
    let g = MiceBlocks::new_for_tests("base4");
    let err = |t: &str| g.text_to_position(t).unwrap_err();
    assert!(err("----/---/--").contains("not a pyramid of base 4"));
    assert!(
        err("X---/-X-/--/-").contains("rest on two"),
        "{}",
        err("X---/-X-/--/-")
    );
    assert!(err("XX--/---/--/-").contains("X moves first"));
    assert!(err("XQ--/---/--/-").contains("'Q'"));
    let p = g.text_to_position("XOX-/O--/--/-").unwrap();
    assert_eq!(p.tier, Tier(4));
    assert_eq!(g.position_to_text(p), "XOX-/O--/--/-");
}

#[test]
fn the_board_shows_numbers_blocks_and_the_score() {
    let g = MiceBlocks::new_for_tests("base3");
    let p = g.text_to_position("XXX/OO/-").unwrap();
    let text = g.board_to_text(p);
    let lines: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(lines, ["      [06]", "    [OO][OO]", "  [XX][XX][XX]"]);
    assert!(text.contains("points so far: X 3  O 0"), "{text}");
    assert!(text.contains("To move: O"), "{text}");
}

#[test]
fn full_pyramids_are_scored_by_each_rule() {
    // Base 4, full: X on the bottom row and the top; O on rows 2 and 3.
    // X: a run of 4 (5 points, 2 threes, longest 4). O: a row of 3 (3 points, 1 three).
    let full = "XXXX/OOO/OO/X";
    for (variant, winby) in [
        ("base4", 2),
        ("base4-threes", 1),
        ("base4-longest", 1),
        ("base4-misere", -2),
    ] {
        let g = MiceBlocks::new_for_tests(variant);
        let p = g.text_to_position(full).unwrap();
        assert_eq!(p.tier, Tier(10));
        assert_eq!(g.win_by(p), winby, "{variant}");
        // Ten blocks placed: X is "to move" at the end; the value is from X's view.
        let value = if winby > 0 { Value::WIN } else { Value::LOSE };
        assert_eq!(g.primitive(p), value, "{variant}");
    }
}
