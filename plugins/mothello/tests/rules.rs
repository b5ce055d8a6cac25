//! The module's rules, ranking and undo moves through the `Game` API: ranking round
//! trips, text forms, moves against undo moves both ways on every position of several
//! 4x4 tiers (and a sample of the large ones and of 4x5), and primitive values.

use gamesman_plugin_api::{Game, List, Move, Tier, TierPosition, UndoMove, Value};
use mothello::Mothello;
use std::collections::HashSet;

fn moves_of(g: &Mothello, p: TierPosition) -> Vec<Move> {
    let mut buf = vec![Move::default(); g.properties().max_moves as usize];
    let mut l = List::new(&mut buf);
    g.generate_moves(p, &mut l);
    assert!(!l.overflowed());
    l.as_slice().to_vec()
}

fn undo_parents(g: &Mothello, p: TierPosition, tier: Tier) -> Vec<TierPosition> {
    let mut buf = vec![UndoMove::default(); g.properties().max_undo_moves as usize];
    let mut l = List::new(&mut buf);
    g.generate_undo_moves_to_tier(p, tier, &mut l);
    assert!(!l.overflowed());
    l.as_slice().iter().map(|&u| g.undo_move(p, u)).collect()
}

/// Checks, at `p`: every child lists `p` among its parents, and every parent of `p`
/// is non-primitive and lists `p` among its children. Returns the number of parents.
fn check_both_ways(g: &Mothello, p: TierPosition) -> usize {
    if g.primitive(p) == Value::UNDECIDED {
        for m in moves_of(g, p) {
            let c = g.do_move(p, m);
            assert!(c.tier == p.tier || c.tier.0 == p.tier.0 + 1);
            assert!(
                undo_parents(g, c, p.tier).contains(&p),
                "{} -> {}: the child does not undo back",
                g.position_to_text(p),
                g.position_to_text(c)
            );
        }
    }
    let mut n = 0;
    for tier in [p.tier, Tier(p.tier.0.wrapping_sub(1))] {
        let parents = undo_parents(g, p, tier);
        let unique: HashSet<_> = parents.iter().collect();
        assert_eq!(unique.len(), parents.len(), "duplicate parents");
        for q in parents {
            assert_eq!(q.tier, tier);
            assert_eq!(g.primitive(q), Value::UNDECIDED, "a primitive parent");
            let kids: Vec<TierPosition> = moves_of(g, q).iter().map(|&m| g.do_move(q, m)).collect();
            assert!(
                kids.contains(&p),
                "{} is not a child of its parent {}",
                g.position_to_text(p),
                g.position_to_text(q)
            );
            n += 1;
        }
    }
    n
}

#[test]
fn ranking_round_trips() {
    let g = Mothello::new_for_tests("4x4");
    // Tier sizes: 32 * C(12, d - 4) * 2^(d - 4).
    assert_eq!(g.tier_size(Tier(3)), 0);
    assert_eq!(g.tier_size(Tier(4)), 32);
    assert_eq!(g.tier_size(Tier(5)), 768);
    assert_eq!(g.tier_size(Tier(16)), 32 * 4096);
    let total: u64 = (0..=16).map(|d| g.tier_size(Tier(d))).sum();
    assert_eq!(total, 17_006_112);
    for d in 4..=16u64 {
        let size = g.tier_size(Tier(d));
        let step = (size / 20_000).max(1);
        for i in (0..size).step_by(step as usize) {
            let p = TierPosition::new(Tier(d), i);
            let (b, side) = g.board(p);
            assert_eq!(b.occupied().count_ones() as u64, d);
            assert_eq!(b.black & b.white, 0);
            assert_eq!(g.position(&b, side), p);
            let t = g.position_to_text(p);
            assert_eq!(g.text_to_position(&t).unwrap(), p, "{t}");
        }
    }
    let g5 = Mothello::new_for_tests("4x5");
    let total: u64 = (0..=20).map(|d| g5.tier_size(Tier(d))).sum();
    assert_eq!(total, 1_377_495_072);
    for d in 4..=20u64 {
        let size = g5.tier_size(Tier(d));
        for i in (0..size).step_by((size / 2_000).max(1) as usize) {
            let p = TierPosition::new(Tier(d), i);
            let (b, side) = g5.board(p);
            assert_eq!(g5.position(&b, side), p);
        }
    }
}

#[test]
fn text_forms_and_first_moves() {
    let g = Mothello::new_for_tests("4x4");
    let p0 = g.initial_position();
    assert_eq!(p0.tier, Tier(4));
    assert_eq!(g.position_to_text(p0), "----/-WB-/-BW-/----:B");
    assert!(g
        .board_to_text(p0)
        .contains("Black (B): 2  White (W): 2  To move: Black"));
    let names: Vec<String> = moves_of(&g, p0)
        .iter()
        .map(|&m| g.move_to_text(p0, m))
        .collect();
    assert_eq!(names, ["b1", "a2", "d3", "c4"]);
    let m = g.text_to_move(p0, "B1").unwrap();
    let c = g.do_move(p0, m);
    assert_eq!(g.position_to_text(c), "-B--/-BB-/-BW-/----:W");
    assert!(g.text_to_move(p0, "a1").is_err());
    assert!(g.text_to_move(p0, "pass").is_err());
    assert!(g.text_to_position("----/----/-BW-/----:B").is_err());
}

#[test]
fn passes_and_game_end() {
    let g = Mothello::new_for_tests("4x4");
    // White cannot move (its only disc is next to the empty d4), black can (d4 flips c3
    // against b2): white passes.
    let p = g.text_to_position("BBBB/BBBB/BBWB/BBB-:W").unwrap();
    assert_eq!(g.primitive(p), Value::UNDECIDED);
    let ms = moves_of(&g, p);
    assert_eq!(ms.len(), 1);
    assert_eq!(g.move_to_text(p, ms[0]), "pass");
    assert_eq!(g.text_to_move(p, "pass").unwrap(), ms[0]);
    let after = g.do_move(p, ms[0]);
    assert_eq!(g.position_to_text(after), "BBBB/BBBB/BBWB/BBB-:B");
    // The pass is undone within the tier.
    assert_eq!(undo_parents(&g, after, after.tier), vec![p]);
    // A full board: over; 14 - 2 with black to move is a win for black by 12.
    let full = g.text_to_position("BBBB/BBBB/BBBB/BBWW:B").unwrap();
    assert_eq!(g.primitive(full), Value::WIN);
    assert_eq!(g.win_by(full), 12);
    let full_w = g.text_to_position("BBBB/BBBB/BBBB/BBWW:W").unwrap();
    assert_eq!(g.primitive(full_w), Value::LOSE);
    // A full board at 8 - 8: a tie.
    let tie = g.text_to_position("BBBB/BBBB/WWWW/WWWW:W").unwrap();
    assert_eq!(g.primitive(tie), Value::TIE);
    assert_eq!(g.win_by(tie), 0);
    // Empties left but no white disc: nobody can move, white (to move) lost by 4.
    let wiped = g.text_to_position("----/-BB-/-BB-/----:W").unwrap();
    assert_eq!(g.primitive(wiped), Value::LOSE);
    assert_eq!(g.win_by(wiped), 4);
    assert!(moves_of(&g, wiped).is_empty());
}

#[test]
fn moves_and_undo_moves_agree_on_every_position_of_small_tiers() {
    let g = Mothello::new_for_tests("4x4");
    let mut parents = 0;
    for d in [4u64, 5, 6, 7] {
        for i in 0..g.tier_size(Tier(d)) {
            parents += check_both_ways(&g, TierPosition::new(Tier(d), i));
        }
    }
    // Every position of tiers 4-7 was checked, and parents were found.
    assert!(parents > 10_000, "{parents}");
}

#[test]
fn moves_and_undo_moves_agree_on_samples_of_large_tiers() {
    let g = Mothello::new_for_tests("4x4");
    for d in [10u64, 13, 15, 16] {
        let size = g.tier_size(Tier(d));
        for i in (0..size).step_by((size / 30_000) as usize) {
            check_both_ways(&g, TierPosition::new(Tier(d), i));
        }
    }
    let g5 = Mothello::new_for_tests("4x5");
    assert_eq!(
        g5.position_to_text(g5.initial_position()),
        "----/-WB-/-BW-/----/----:B"
    );
    for d in [5u64, 9, 14, 19] {
        let size = g5.tier_size(Tier(d));
        for i in (0..size).step_by((size / 5_000).max(1) as usize) {
            check_both_ways(&g5, TierPosition::new(Tier(d), i));
        }
    }
}
