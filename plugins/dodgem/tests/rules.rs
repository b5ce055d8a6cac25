//! Dodgem's rules, tiers and texts through the module's `Game` functions: the start,
//! moves and their names, driving off, the two ways a game ends, and text round trips
//! over every position of the 3x3 board.

use dodgem::Dodgem;
use gamesman_plugin_api::{Game, List, Move, Player, Tier, TierPosition, Value};

fn moves(g: &Dodgem, p: TierPosition) -> Vec<Move> {
    let mut buf = vec![Move::default(); g.properties().max_moves as usize];
    let mut list = List::new(&mut buf);
    g.generate_moves(p, &mut list);
    assert!(!list.overflowed());
    list.as_slice().to_vec()
}

fn names(g: &Dodgem, p: TierPosition) -> Vec<String> {
    moves(g, p).iter().map(|&m| g.move_to_text(p, m)).collect()
}

fn tiers(g: &Dodgem, t: Tier) -> Vec<Tier> {
    let mut buf = [Tier::default(); 3];
    let mut list = List::new(&mut buf);
    g.tier_children(t, &mut list);
    list.as_slice().to_vec()
}

#[test]
fn variants_and_bad_names() {
    let names: Vec<String> = Dodgem::variants().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["3x3", "4x4", "5x5"]);
    let err = Dodgem::new("6x6").err().unwrap();
    assert!(
        err.contains("no variant '6x6'") && err.contains("3x3, 4x4, 5x5"),
        "{err}"
    );
}

#[test]
fn the_start_and_its_moves() {
    let g = Dodgem::new_for_tests("3x3");
    let p = g.initial_position();
    assert_eq!(g.position_to_text(p), "B--/B--/-RR:B");
    assert_eq!(p.tier, Tier(22));
    assert_eq!(g.tier_name(p.tier), "2 blue 2 red");
    assert_eq!(g.tier_size(p.tier), 2 * 36 * 21);
    assert_eq!(g.turn(p), Player::ONE);
    assert_eq!(g.primitive(p), Value::UNDECIDED);
    assert_eq!(names(&g, p), ["a2-b2", "a2-a1", "a3-b3"]);
    let board = g.board_to_text(p);
    assert!(board.contains("  3 | B - - |"), "{board}");
    assert!(board.contains("  1 | - R R |"), "{board}");
    assert!(board.contains("Blue to move."), "{board}");

    // Red's replies after a3-b3: b1-b2, b1-a1, c1-c2 (c1 right is off the side).
    let q = g.do_move(p, g.text_to_move(p, "a3-b3").unwrap());
    assert_eq!(g.position_to_text(q), "-B-/B--/-RR:R");
    assert_eq!(g.turn(q), Player::TWO);
    assert_eq!(names(&g, q), ["b1-b2", "b1-a1", "c1-c2"]);

    let g4 = Dodgem::new_for_tests("4x4");
    assert_eq!(
        g4.position_to_text(g4.initial_position()),
        "B---/B---/B---/-RRR:B"
    );
    assert_eq!(g4.initial_position().tier, Tier(33));
}

#[test]
fn typed_moves_are_forgiving_and_bad_ones_say_why() {
    let g = Dodgem::new_for_tests("3x3");
    let p = g.initial_position();
    let a2b2 = g.text_to_move(p, "a2-b2").unwrap();
    for typed in ["A2B2", " a2 - b2 ", "a2b2"] {
        assert_eq!(g.text_to_move(p, typed).unwrap(), a2b2, "{typed}");
    }
    let err = g.text_to_move(p, "b1-b2").unwrap_err();
    assert!(err.contains("no Blue car on b1"), "{err}");
    assert!(err.contains("legal moves: a2-b2 a2-a1 a3-b3"), "{err}");
    let err = g.text_to_move(p, "a3-a4").unwrap_err();
    assert!(err.contains("the car on a3 cannot go there"), "{err}");
    let err = g.text_to_move(p, "drive").unwrap_err();
    assert!(err.contains("like a2-b2 or c2-off"), "{err}");
}

#[test]
fn driving_off_changes_tier_and_ends_the_game_with_the_last_car() {
    let g = Dodgem::new_for_tests("3x3");
    // Blue on c2 and a3, Red on b1 and c1; Blue drives c2 off.
    let p = g.text_to_position("B--/--B/-RR:B").unwrap();
    assert_eq!(p.tier, Tier(22));
    assert!(names(&g, p).contains(&"c2-off".to_string()));
    for typed in ["c2-off", "C2 OFF", "c2off"] {
        assert!(g.text_to_move(p, typed).is_ok(), "{typed}");
    }
    let q = g.do_move(p, g.text_to_move(p, "c2 off").unwrap());
    assert_eq!(g.position_to_text(q), "B--/---/-RR:R");
    assert_eq!(q.tier, Tier(12));
    assert_eq!(tiers(&g, Tier(22)), [Tier(22), Tier(12), Tier(21)]);
    assert_eq!(tiers(&g, Tier(11)), [Tier(11), Tier(1), Tier(10)]);
    // Tiers where a side has no cars hold only finished games.
    assert!(tiers(&g, Tier(10)).is_empty());
    assert!(tiers(&g, Tier(2)).is_empty());

    // Blue's last car off: Red, to move, has lost at once.
    let last = g.text_to_position("---/--B/-RR:B").unwrap();
    let done = g.do_move(last, g.text_to_move(last, "c2-off").unwrap());
    assert_eq!(g.position_to_text(done), "---/---/-RR:R");
    assert_eq!(done.tier, Tier(2));
    assert_eq!(g.primitive(done), Value::LOSE);
    // Blue with no cars never moves: that position cannot occur.
    assert!(!g.is_legal(TierPosition::new(Tier(2), 0)));
    let err = g.text_to_position("---/---/-RR:B").unwrap_err();
    assert!(err.contains("Blue has no cars left"), "{err}");
}

#[test]
fn a_side_blocked_in_on_its_turn_wins() {
    let g = Dodgem::new_for_tests("3x3");
    // Red's only car on a1 is boxed in by Blue on a2 and b1: Red has no move and wins.
    let p = g.text_to_position("---/B--/RB-:R").unwrap();
    assert!(moves(&g, p).is_empty());
    assert_eq!(g.primitive(p), Value::WIN);
    // The same board with Blue to move goes on.
    let q = g.text_to_position("---/B--/RB-:B").unwrap();
    assert_eq!(g.primitive(q), Value::UNDECIDED);
    assert!(names(&g, q).contains(&"b1-c1".to_string()));
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let g = Dodgem::new_for_tests("3x3");
    for (text, says) in [
        ("B--/B--/-RR", "then ':' and the side to move"),
        ("B--/B--/-RR:X", "e.g. B--/B--/-RR:B"),
        ("B--/B--:B", "not a 3x3 Dodgem position"),
        ("B--/B-/--RR:B", "not a 3x3 Dodgem position"),
        ("B--/BX-/-RR:B", "'X' is not a cell"),
        ("BBB/---/-RR:B", "Blue has 3 cars; on 3x3 each side has 2"),
        ("---/---/---:R", "Red has no cars left"),
    ] {
        let err = g.text_to_position(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err}");
    }
    // Forgiving forms: lower case, dots, no slashes.
    assert_eq!(
        g.text_to_position("b../b../.rr:b").unwrap(),
        g.initial_position()
    );
    assert_eq!(
        g.text_to_position("B--B---RR:B").unwrap(),
        g.initial_position()
    );
}

/// Every index of every tier: legal positions print and parse back to themselves, and
/// the only illegal ones (the side to move has no cars) are refused by the parser.
fn round_trip_every_position(variant: &str, expected_positions: u64) {
    let g = Dodgem::new_for_tests(variant);
    let cars = g.geometry().cars();
    let mut total = 0;
    for a in 0..=cars {
        for b in 0..=cars {
            let t = Dodgem::tier_of(a, b);
            if a + b == 0 {
                assert_eq!(g.tier_size(t), 0);
                continue;
            }
            for i in 0..g.tier_size(t) {
                let p = TierPosition::new(t, i);
                let text = g.position_to_text(p);
                if g.is_legal(p) {
                    assert_eq!(g.text_to_position(&text), Ok(p), "{text}");
                    let _ = g.board_to_text(p);
                    for m in moves(&g, p) {
                        let name = g.move_to_text(p, m);
                        assert_eq!(g.text_to_move(p, &name), Ok(m), "{text} {name}");
                    }
                } else {
                    assert!(g.text_to_position(&text).is_err(), "{text}");
                }
                total += 1;
            }
        }
    }
    assert_eq!(total, expected_positions, "{variant}");
}

#[test]
fn texts_round_trip_on_every_3x3_position() {
    // Sum over a, b < 3 of 2 C(9, a) C(9 - a, b), without the empty board. (The
    // validator checks the same round trips on every 4x4 position, in tests/cli.rs.)
    round_trip_every_position("3x3", 2_844);
}
