//! mtttier against an independent brute-force tic-tac-toe: the positions reachable from
//! the initial position by the module's own moves are exactly the reference's reachable
//! boards, tier by tier (5478 in all; 765 symmetry classes in the symmetric variant),
//! with the same primitive values, and the module's `is_legal` picks exactly them.
//!
//! This file must not use the module to build the reference.

use e2e_tests::tictactoe::{self, Cells, REACHABLE_BY_PIECES};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use mtttier::MttTier;
use std::collections::{BTreeSet, HashSet};

/// The positions reachable from the initial position, by tier number, following
/// `children` (which stop at primitive positions).
fn explore(
    g: &GameHandle,
    children: impl Fn(TierPosition) -> Vec<TierPosition>,
) -> Vec<HashSet<TierPosition>> {
    let mut by_tier = vec![HashSet::new(); 10];
    let start = g.initial_position().expect("initial_position");
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        if !by_tier[p.tier.0 as usize].insert(p) {
            continue;
        }
        if g.primitive(p).expect("primitive") == Value::UNDECIDED {
            stack.extend(children(p));
        }
    }
    by_tier
}

#[test]
fn reference_matches_the_known_counts() {
    let sets = tictactoe::reachable_by_pieces();
    let counts: Vec<usize> = sets.iter().map(HashSet::len).collect();
    assert_eq!(counts, REACHABLE_BY_PIECES);
    assert_eq!(counts.iter().sum::<usize>(), 5478);
    let over: usize = sets
        .iter()
        .flatten()
        .filter(|b| tictactoe::is_over(b))
        .count();
    assert_eq!(over, 958);
    let classes: usize = tictactoe::reachable_classes_by_pieces()
        .iter()
        .map(BTreeSet::len)
        .sum();
    assert_eq!(classes, 765);
}

#[test]
fn regular_reachable_positions_match_the_reference() {
    let g = GameHandle::from_static::<MttTier>("regular").expect("opens");
    let game = MttTier::new_for_tests("regular");
    let module = explore(&g, |p| {
        g.moves(p)
            .expect("moves")
            .into_iter()
            .map(|m| g.do_move(p, m).expect("do_move"))
            .collect()
    });
    let reference = tictactoe::reachable_by_pieces();
    let mut total = 0;
    for (t, found) in module.iter().enumerate() {
        let pieces = 9 - t;
        let boards: HashSet<Cells> = found.iter().map(|&p| game.board(p)).collect();
        assert_eq!(found.len(), REACHABLE_BY_PIECES[pieces], "tier {t}");
        assert_eq!(boards, reference[pieces], "tier {t}: different boards");
        total += found.len();

        // Primitive values: the player to move lost if the last mover made a line,
        // tied on a full board otherwise, and play goes on elsewhere.
        for &p in found {
            let b = game.board(p);
            let expected = if tictactoe::has_line(&b, 1) || tictactoe::has_line(&b, 2) {
                Value::LOSE
            } else if pieces == 9 {
                Value::TIE
            } else {
                Value::UNDECIDED
            };
            assert_eq!(g.primitive(p).expect("primitive"), expected, "{b:?}");
        }

        // In tic-tac-toe the legal boards are exactly the reachable ones.
        let size = g.tier_size(Tier(t as u64)).expect("size");
        let legal: HashSet<TierPosition> = (0..size)
            .map(|i| TierPosition::new(Tier(t as u64), i))
            .filter(|&p| g.is_legal(p).expect("is_legal"))
            .collect();
        assert_eq!(
            &legal, found,
            "tier {t}: is_legal differs from reachability"
        );
    }
    assert_eq!(total, 5478);
}

#[test]
fn symmetric_reachable_classes_match_the_reference() {
    let g = GameHandle::from_static::<MttTier>("symmetric").expect("opens");
    let game = MttTier::new_for_tests("symmetric");
    // The solver's view: distinct canonical children, through the batch call.
    let module = explore(&g, |p| g.children(p).expect("children"));
    let reference = tictactoe::reachable_classes_by_pieces();
    let mut total = 0;
    for t in 0..=9usize {
        let classes: BTreeSet<Cells> = module[t]
            .iter()
            .map(|&p| tictactoe::class_of(&game.board(p)))
            .collect();
        assert_eq!(module[t].len(), reference[9 - t].len(), "tier {t}");
        assert_eq!(classes, reference[9 - t], "tier {t}: different classes");
        for &p in &module[t] {
            assert_eq!(
                g.canonical(p).expect("canonical"),
                p,
                "{p} is not canonical"
            );
        }
        total += module[t].len();
    }
    assert_eq!(total, 765);
}
