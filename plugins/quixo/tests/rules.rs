//! Quixo through the `Game` API: variants, tiers and their sizes, primitive values
//! (including the opponent-line rule), moves from known positions, and the text forms
//! of boards, moves and positions.

use gamesman_plugin_api::{Game, List, Move, Player, Tier, TierPosition, Value};
use quixo::Quixo;
use std::collections::{HashSet, VecDeque};

fn pos(g: &Quixo, text: &str) -> TierPosition {
    g.text_to_position(text).unwrap()
}

fn moves(g: &Quixo, p: TierPosition) -> Vec<Move> {
    let mut buf = vec![Move::default(); g.properties().max_moves as usize];
    let mut l = List::new(&mut buf);
    g.generate_moves(p, &mut l);
    assert!(!l.overflowed());
    l.as_slice().to_vec()
}

fn move_names(g: &Quixo, p: TierPosition) -> Vec<String> {
    let mut names: Vec<String> = moves(g, p).iter().map(|&m| g.move_to_text(p, m)).collect();
    names.sort();
    names
}

/// Every tier reachable from the initial tier, through `tier_children`.
fn reachable_tiers(g: &Quixo) -> Vec<Tier> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([g.initial_position().tier]);
    let mut buf = vec![Tier::default(); g.properties().max_tier_children as usize];
    while let Some(t) = queue.pop_front() {
        if !seen.insert(t) {
            continue;
        }
        let mut l = List::new(&mut buf);
        g.tier_children(t, &mut l);
        queue.extend(l.as_slice().iter().copied());
    }
    seen.into_iter().collect()
}

#[test]
fn variants_and_properties() {
    let names: Vec<String> = Quixo::variants().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["4x4", "3x3", "5x5"]);
    assert!(Quixo::new("6x6").err().unwrap().contains("4x4, 3x3, 5x5"));
    for (v, moves) in [("3x3", 20), ("4x4", 32), ("5x5", 44)] {
        let p = Quixo::new_for_tests(v).properties();
        assert_eq!(p.max_moves, moves);
        assert_eq!(p.max_undo_moves, moves);
        assert_eq!(p.max_tier_children, 3);
        assert!(p.is_tier_game);
        assert_eq!(p.players, 2);
    }
}

#[test]
fn tiers_and_sizes_match_gamesmanone() {
    // 4x4: GamesmanOne's 153 tiers paired by the colour swap into 81 (9 with as
    // many X as O), 2 * 3^16 = 86,093,442 positions.
    let g = Quixo::new_for_tests("4x4");
    let tiers = reachable_tiers(&g);
    assert_eq!(tiers.len(), 81);
    let total: u64 = tiers.iter().map(|&t| g.tier_size(t)).sum();
    assert_eq!(total, 86_093_442);
    let names: HashSet<String> = tiers.iter().map(|&t| g.tier_name(t)).collect();
    assert!(names.contains("0Blank_2X_14O"));
    assert!(names.contains("16Blank_0X_0O"));
    assert!(names.contains("6Blank_5X_5O"));
    let t = pos(&g, "XO--/----/----/---X:O").tier;
    assert_eq!(g.tier_name(t), "13Blank_1X_2O");
    assert_eq!(pos(&g, "OX--/----/----/---O:O").tier, t);
    // 16! / (2! 1! 13!) boards, both colour orientations, two sides to move.
    assert_eq!(g.tier_size(t), 4 * 1680);
    // As many X as O: one orientation.
    assert_eq!(g.tier_size(pos(&g, "XO--/----/----/----:O").tier), 2 * 240);
    // 3x3: 55 boards classes in 30 tiers, 2 * 3^9 positions; 5x5: 351 in 182, 2 * 3^25.
    let g = Quixo::new_for_tests("3x3");
    let tiers = reachable_tiers(&g);
    assert_eq!(tiers.len(), 30);
    assert_eq!(tiers.iter().map(|&t| g.tier_size(t)).sum::<u64>(), 39_366);
    let g = Quixo::new_for_tests("5x5");
    let tiers = reachable_tiers(&g);
    assert_eq!(tiers.len(), 182);
    assert_eq!(
        tiers.iter().map(|&t| g.tier_size(t)).sum::<u64>(),
        2 * 3u64.pow(25)
    );
}

#[test]
fn primitive_values_follow_the_opponent_line_rule() {
    let g = Quixo::new_for_tests("4x4");
    // O to move and X has a row: O has lost.
    assert_eq!(g.primitive(pos(&g, "XXXX/OO--/O---/----:O")), Value::LOSE);
    // X to move with its own row (O pushed it into place): X has won.
    assert_eq!(g.primitive(pos(&g, "XXXX/OO--/O---/----:X")), Value::WIN);
    // Both have lines: the last mover completed the opponent's, so the side to move
    // wins whichever it is.
    assert_eq!(g.primitive(pos(&g, "XXXX/OOOO/----/----:X")), Value::WIN);
    assert_eq!(g.primitive(pos(&g, "XXXX/OOOO/----/----:O")), Value::WIN);
    // Columns and both diagonals count; three of four do not.
    assert_eq!(g.primitive(pos(&g, "-O--/-O--/-O--/-O--:X")), Value::LOSE);
    assert_eq!(g.primitive(pos(&g, "X---/-X--/--X-/---X:O")), Value::LOSE);
    assert_eq!(g.primitive(pos(&g, "---O/--O-/-O--/O---:O")), Value::WIN);
    assert_eq!(
        g.primitive(pos(&g, "XXX-/OOO-/X--O/O--X:X")),
        Value::UNDECIDED
    );
    assert_eq!(g.primitive(g.initial_position()), Value::UNDECIDED);
    let g3 = Quixo::new_for_tests("3x3");
    assert_eq!(g3.primitive(pos(&g3, "--X/-X-/X--:O")), Value::LOSE);
    assert_eq!(g3.primitive(pos(&g3, "XX-/---/---:O")), Value::UNDECIDED);
}

#[test]
fn moves_from_the_empty_board_and_from_crowded_borders() {
    let g = Quixo::new_for_tests("4x4");
    let start = g.initial_position();
    assert_eq!(g.turn(start), Player::ONE);
    // 12 border cells: 4 corners with 2 moves, 8 edge cells with 3.
    let names = move_names(&g, start);
    assert_eq!(names.len(), 32);
    assert!(names.contains(&"a1-d1".to_string()));
    assert!(names.contains(&"a1-a4".to_string()));
    assert!(names.contains(&"b1-b4".to_string()));
    assert!(names.contains(&"b1-a1".to_string()));
    assert!(names.contains(&"b1-d1".to_string()));
    assert!(!names.contains(&"b1-b1".to_string()));
    assert!(!names.iter().any(|n| n.starts_with("b2")));
    // Every first move takes a blank: 32 children in the tier with one X.
    for m in moves(&g, start) {
        let c = g.do_move(start, m);
        assert_eq!(g.tier_name(c.tier), "15Blank_0X_1O");
        assert_eq!(g.turn(c), Player::TWO);
    }
    assert_eq!(
        move_names(
            &Quixo::new_for_tests("3x3"),
            Quixo::new_for_tests("3x3").initial_position()
        )
        .len(),
        20
    );
    let g5 = Quixo::new_for_tests("5x5");
    assert_eq!(moves(&g5, g5.initial_position()).len(), 44);

    // O owns a corner and an edge cell: X loses their 2 + 3 moves; O keeps all 32.
    let p = pos(&g, "O---/----/----/-O--:X");
    assert_eq!(moves(&g, p).len(), 27);
    let p = pos(&g, "O---/----/----/-O--:O");
    assert_eq!(moves(&g, p).len(), 32);
}

#[test]
fn a_move_pushes_the_line_and_shows_the_movers_symbol() {
    let g = Quixo::new_for_tests("4x4");
    let p = pos(&g, "-XO-/----/----/O---:O");
    // O takes the blank a4 and pushes it in at d4: the row slides left.
    let m = g.text_to_move(p, "a4-d4").unwrap();
    let c = g.do_move(p, m);
    assert_eq!(g.position_to_text(c), "XO-O/----/----/O---:X");
    assert_eq!(g.tier_name(c.tier), "12Blank_1X_3O");
    // O takes its own a1 and pushes it in at a4: the column slides down, same tier.
    let m = g.text_to_move(p, "a1>a4").unwrap();
    let c = g.do_move(p, m);
    assert_eq!(g.position_to_text(c), "OXO-/----/----/----:X");
    assert_eq!(c.tier, p.tier);
    // Errors say what is wrong.
    assert!(g.text_to_move(p, "b4-b1").unwrap_err().contains("shows X"));
    assert!(g.text_to_move(p, "b3-b1").unwrap_err().contains("border"));
    assert!(g
        .text_to_move(p, "a4-b4")
        .unwrap_err()
        .contains("not an end"));
}

#[test]
fn text_forms_round_trip() {
    let g = Quixo::new_for_tests("4x4");
    for text in [
        "----/----/----/----:X",
        "XO--/-X--/--O-/O--X:O",
        "XXXX/OOOO/XXXX/OOOO:X",
        "OOOO/OOOO/OOOO/OOOO:O",
    ] {
        let p = pos(&g, text);
        assert_eq!(g.position_to_text(p), text);
        assert!(p.position < g.tier_size(p.tier));
    }
    // Separators are optional and case does not matter.
    assert_eq!(
        pos(&g, "xo---x--------oo:o"),
        pos(&g, "XO--/-X--/----/--OO:O")
    );
    assert!(g.text_to_position("XO--/----:X").is_err());
    assert!(g.text_to_position("XO--/----/----/---Q:X").is_err());
    assert!(g.text_to_position("----/----/----/----").is_err());
    assert_eq!(
        g.board_to_text(pos(&g, "XO--/-X--/--O-/O--X:O")),
        "  4 | X O - -\n  3 | - X - -\n  2 | - - O -\n  1 | O - - X\n     --------\n      a b c d\n  O to move\n"
    );
    assert_eq!(
        g.position_to_text(g.initial_position()),
        "----/----/----/----:X"
    );
}

/// `text` with X and O exchanged, on the board and as the side to move.
fn colour_swap(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect()
}

#[test]
fn the_colour_swap_is_a_symmetry_inside_a_tier() {
    let g = Quixo::new_for_tests("4x4");
    for text in [
        "XO--/-X--/--O-/O--X:O",
        "XXX-/OO--/O---/----:X",
        "XXXX/OO--/O---/----:O",
        "XXOO/OOXX/XOXO/OXOX:X",
        "XO--/----/----/----:X",
    ] {
        let (p, q) = (pos(&g, text), pos(&g, &colour_swap(text)));
        // Both orientations are written and read back as they are.
        assert_eq!(g.position_to_text(p), text);
        assert_eq!(g.position_to_text(q), colour_swap(text));
        assert_eq!(p.tier, q.tier);
        assert_ne!(g.turn(p), g.turn(q));
        assert_eq!(g.primitive(p), g.primitive(q), "{text}");
        let c = g.canonical_position(p);
        assert_eq!(c, g.canonical_position(q), "{text}");
        assert_eq!(g.canonical_position(c), c);
        assert_eq!(g.is_canonical(c), Some(true));
        // A canonical position has at most as many X as O, X to move when equal.
        let ct = g.position_to_text(c);
        let (board, side) = ct.split_once(':').unwrap();
        let (x, o) = (board.matches('X').count(), board.matches('O').count());
        assert!(x < o || (x == o && side == "X"), "{ct}");
        assert_eq!(g.orbit_size(p), g.orbit_size(q));
    }
    assert_eq!(g.primitive(pos(&g, "OOOO/XX--/X---/----:X")), Value::LOSE);
}

#[test]
fn orbits_of_canonical_positions_cover_every_tier() {
    for v in ["3x3", "4x4"] {
        let g = Quixo::new_for_tests(v);
        for t in reachable_tiers(&g) {
            // Every tier of 3x3; on 4x4 the small ones.
            if g.tier_size(t) > 20_000 {
                continue;
            }
            let mut canonical = 0;
            let mut covered = 0;
            for i in 0..g.tier_size(t) {
                let p = TierPosition::new(t, i);
                let c = g.canonical_position(p);
                assert_eq!(g.is_canonical(p), Some(c == p));
                assert_eq!(g.orbit_size(c), g.orbit_size(p));
                if c == p {
                    canonical += 1;
                    covered += g.orbit_size(p);
                }
            }
            assert_eq!(covered, g.tier_size(t), "{v} {}", g.tier_name(t));
            // The canonical ones come first.
            assert_eq!(
                g.canonical_prefix(t),
                Some(canonical),
                "{v} {}",
                g.tier_name(t)
            );
        }
    }
}
