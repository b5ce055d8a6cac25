//! mtttier, in-process through the plugin adapter (`GameHandle::from_static`): for every
//! legal position of every tier, moves lead into declared child tiers and undo moves
//! lead back, in both directions, one call per position.
//!
//! Batch calls and canonical forms are checked in `mtttier_batches.rs`; this file works
//! on raw boards, which both variants share. It must not use the ranking directly.

use e2e_tests::tictactoe;
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use mtttier::MttTier;

/// Tier 9 is the empty board, tier 0 the full ones.
const TIERS: std::ops::RangeInclusive<u64> = 0..=9;

fn open(variant: &str) -> GameHandle {
    GameHandle::from_static::<MttTier>(variant).expect("mtttier opens")
}

/// The legal positions of `tier`.
fn legal_positions(g: &GameHandle, tier: Tier) -> Vec<TierPosition> {
    let size = g.tier_size(tier).expect("tier_size");
    (0..size)
        .map(|i| TierPosition::new(tier, i))
        .filter(|&p| g.is_legal(p).expect("is_legal"))
        .collect()
}

/// The number of moves between reachable boards, from the reference tic-tac-toe: every
/// blank cell of every reachable board where play goes on.
fn reference_edges() -> usize {
    tictactoe::reachable_by_pieces()
        .iter()
        .flatten()
        .filter(|b| !tictactoe::is_over(b))
        .map(|b| 9 - tictactoe::pieces(b))
        .sum()
}

/// Every child of `p`, one `do_move` per move.
fn children(g: &GameHandle, p: TierPosition) -> Vec<TierPosition> {
    g.moves(p)
        .expect("generate_moves")
        .into_iter()
        .map(|m| g.do_move(p, m).expect("do_move"))
        .collect()
}

/// Every parent of `c` in `tier`, one `undo_move` per undo move.
fn parents(g: &GameHandle, c: TierPosition, tier: Tier) -> Vec<TierPosition> {
    g.undo_moves(c, tier)
        .expect("generate_undo_moves_to_tier")
        .into_iter()
        .map(|u| g.undo_move(c, u).expect("undo_move"))
        .collect()
}

fn children_lie_in_declared_tiers_and_undo_back(variant: &str) {
    let g = open(variant);
    let (mut parents_checked, mut edges) = (0usize, 0usize);
    for t in TIERS {
        let tier = Tier(t);
        let declared = g.tier_children(tier).expect("tier_children");
        let expected: Vec<Tier> = if t > 0 { vec![Tier(t - 1)] } else { vec![] };
        assert_eq!(declared, expected, "tier_children({t})");
        for p in legal_positions(&g, tier) {
            if g.primitive(p).expect("primitive") != Value::UNDECIDED {
                continue;
            }
            parents_checked += 1;
            let kids = children(&g, p);
            assert!(
                !kids.is_empty(),
                "{variant}: non-primitive {p} has no moves"
            );
            for c in kids {
                edges += 1;
                assert!(
                    declared.contains(&c.tier),
                    "{variant}: child {c} of {p} is in an undeclared tier"
                );
                let size = g.tier_size(c.tier).expect("tier_size");
                assert!(
                    c.position < size,
                    "{variant}: child {c} of {p} is past {size}"
                );
                assert!(
                    g.is_legal(c).expect("is_legal"),
                    "{variant}: child {c} of {p} is illegal"
                );
                assert!(
                    parents(&g, c, tier).contains(&p),
                    "{variant}: undo moves from {c} to tier {t} miss its parent {p}"
                );
            }
        }
    }
    // 5478 reachable boards, 958 of them with the game over; legal boards are exactly
    // the reachable ones (checked in mtttier_reachable.rs).
    assert_eq!(parents_checked, 5478 - 958, "{variant}");
    assert_eq!(edges, reference_edges(), "{variant}");
}

fn undo_results_have_the_child_among_their_children(variant: &str) {
    let g = open(variant);
    let mut undone = 0usize;
    for t in TIERS {
        let tier = Tier(t);
        for c in legal_positions(&g, tier) {
            // Undo moves only ever lead to the tier above (one piece fewer).
            for other in TIERS.filter(|&o| o != t + 1) {
                assert!(
                    g.undo_moves(c, Tier(other)).expect("undo moves").is_empty(),
                    "{variant}: {c} has undo moves to tier {other}"
                );
            }
            if t == 9 {
                continue;
            }
            let ps = parents(&g, c, Tier(t + 1));
            // Every legal board but the empty one was reached from some parent.
            assert!(!ps.is_empty(), "{variant}: legal {c} has no parent");
            for q in ps {
                undone += 1;
                assert_eq!(q.tier, Tier(t + 1), "{variant}: parent {q} of {c}");
                assert!(q.position < g.tier_size(q.tier).expect("size"), "{variant}");
                assert!(
                    g.is_legal(q).expect("is_legal"),
                    "{variant}: parent {q} of {c}"
                );
                assert_eq!(
                    g.primitive(q).expect("primitive"),
                    Value::UNDECIDED,
                    "{variant}: parent {q} of {c} is primitive, so play never left it"
                );
                assert!(
                    children(&g, q).contains(&c),
                    "{variant}: {q} (undone from {c}) does not have {c} among its children"
                );
            }
        }
    }
    // Each move between legal boards, seen from the child's side.
    assert_eq!(undone, reference_edges(), "{variant}");
}

#[test]
fn regular_children_lie_in_declared_tiers_and_undo_back() {
    children_lie_in_declared_tiers_and_undo_back("regular");
}

#[test]
fn symmetric_children_lie_in_declared_tiers_and_undo_back() {
    children_lie_in_declared_tiers_and_undo_back("symmetric");
}

#[test]
fn regular_undo_results_have_the_child_among_their_children() {
    undo_results_have_the_child_among_their_children("regular");
}

#[test]
fn symmetric_undo_results_have_the_child_among_their_children() {
    undo_results_have_the_child_among_their_children("symmetric");
}
