//! mtttier, in-process through the plugin adapter: the batch calls the solver uses
//! (`scan_batch`, `children_batch`, `parents_batch`) agree with the single-position
//! calls, in canonical form, for every legal position of every tier of both variants.
//!
//! The single-position calls themselves are checked in `mtttier_moves.rs`; this file
//! must only compare the two paths and the parent/child relation between canonical
//! positions.

use e2e_tests::tictactoe;
use gamesman_host::GameHandle;
use gamesman_plugin_api::ffi::ScanRecord;
use gamesman_plugin_api::{Tier, TierPosition, Value};
use mtttier::MttTier;

fn open(variant: &str) -> GameHandle {
    GameHandle::from_static::<MttTier>(variant).expect("mtttier opens")
}

/// Sorted, deduplicated canonical forms: what the batch calls return per position.
fn canonical_set(g: &GameHandle, ps: impl IntoIterator<Item = TierPosition>) -> Vec<TierPosition> {
    let mut out: Vec<TierPosition> = ps
        .into_iter()
        .map(|p| g.canonical(p).expect("canonical_position"))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One batch of `positions` of `tier` through `children_batch`, split per position.
fn children_batch(g: &GameHandle, tier: Tier, positions: &[u64]) -> Vec<Vec<TierPosition>> {
    let cap = g.properties().max_moves as usize;
    let mut kids = vec![TierPosition::default(); positions.len() * cap];
    let mut counts = vec![0u32; positions.len()];
    g.children_batch(tier, positions, &mut kids, &mut counts)
        .expect("children_batch");
    split(&kids, &counts)
}

/// One batch of `children` of `tier` through `parents_batch` towards `tier + 1`.
fn parents_batch(g: &GameHandle, tier: Tier, children: &[u64]) -> Vec<Vec<u64>> {
    let cap = g.properties().max_undo_moves as usize;
    let mut parents = vec![0u64; children.len() * cap];
    let mut counts = vec![0u32; children.len()];
    g.parents_batch(tier, children, Tier(tier.0 + 1), &mut parents, &mut counts)
        .expect("parents_batch");
    split(&parents, &counts)
}

/// Items written one list after another, cut at `counts`.
fn split<T: Copy>(items: &[T], counts: &[u32]) -> Vec<Vec<T>> {
    let mut at = 0;
    counts
        .iter()
        .map(|&n| {
            let list = items[at..at + n as usize].to_vec();
            at += n as usize;
            list
        })
        .collect()
}

fn batches_agree_with_single_calls(variant: &str) {
    let g = open(variant);
    let mut canonical_nonprimitive = 0usize;
    for t in (0..=9u64).rev() {
        let tier = Tier(t);
        let size = g.tier_size(tier).expect("tier_size");
        let all: Vec<u64> = (0..size).collect();

        let mut scan = vec![ScanRecord::default(); size as usize];
        g.scan_batch(tier, 0, &mut scan).expect("scan_batch");
        let batch = children_batch(&g, tier, &all);

        for (i, rec) in scan.iter().enumerate() {
            let p = TierPosition::new(tier, i as u64);
            let legal = g.is_legal(p).expect("is_legal");
            let canonical = g.canonical(p).expect("canonical") == p;
            if !legal || !canonical {
                assert_eq!(rec.value, ScanRecord::SKIP, "{variant} {p}");
                continue;
            }
            let prim = g.primitive(p).expect("primitive");
            assert_eq!(rec.value, prim.0, "{variant} {p}");
            assert_eq!(rec.turn, g.turn(p).expect("turn").0, "{variant} {p}");

            let single = if prim == Value::UNDECIDED {
                let moves = g.moves(p).expect("moves");
                canonical_set(
                    &g,
                    moves.into_iter().map(|m| g.do_move(p, m).expect("do_move")),
                )
            } else {
                Vec::new()
            };
            assert_eq!(batch[i], single, "{variant}: children_batch of {p}");
            assert_eq!(
                rec.children as usize,
                single.len(),
                "{variant}: scan of {p}"
            );
            if prim == Value::UNDECIDED {
                canonical_nonprimitive += 1;
            }

            // The relation the solver relies on: each canonical child lists this
            // canonical position among its canonical parents.
            for c in &single {
                let ps = parents_batch(&g, c.tier, &[c.position]);
                assert!(
                    ps[0].contains(&p.position),
                    "{variant}: parents_batch of {c} misses its parent {p}: {:?}",
                    ps[0]
                );
            }
        }

        // parents_batch over the whole tier equals single undo calls, canonicalized.
        if t < 9 {
            let legal: Vec<u64> = all
                .iter()
                .copied()
                .filter(|&i| g.is_legal(TierPosition::new(tier, i)).expect("is_legal"))
                .collect();
            let batch = parents_batch(&g, tier, &legal);
            for (&i, got) in legal.iter().zip(&batch) {
                let c = TierPosition::new(tier, i);
                let undo = g.undo_moves(c, Tier(t + 1)).expect("undo moves");
                let single: Vec<u64> = canonical_set(
                    &g,
                    undo.into_iter()
                        .map(|u| g.undo_move(c, u).expect("undo_move")),
                )
                .into_iter()
                .map(|q| q.position)
                .collect();
                assert_eq!(got, &single, "{variant}: parents_batch of {c}");
            }
        }
    }
    // Reachable boards where play goes on (legal = reachable in tic-tac-toe), counted
    // as boards or as symmetry classes by the reference.
    let going_on = tictactoe::reachable_by_pieces()
        .into_iter()
        .flatten()
        .filter(|b| !tictactoe::is_over(b));
    let expected = if variant == "symmetric" {
        going_on
            .map(|b| tictactoe::class_of(&b))
            .collect::<std::collections::HashSet<_>>()
            .len()
    } else {
        going_on.count()
    };
    assert_eq!(canonical_nonprimitive, expected, "{variant}");
}

#[test]
fn regular_batches_agree_with_single_calls() {
    batches_agree_with_single_calls("regular");
}

#[test]
fn symmetric_batches_agree_with_single_calls() {
    batches_agree_with_single_calls("symmetric");
}

#[test]
fn batch_buffers_too_small_are_refused() {
    let g = open("regular");
    let mut kids = vec![TierPosition::default(); 8]; // one short of max_moves
    let mut counts = vec![0u32; 1];
    let e = g
        .children_batch(Tier(9), &[0], &mut kids, &mut counts)
        .expect_err("a buffer below max_moves per position must be refused");
    assert_eq!(e.function, "children_batch");
    assert_eq!(e.kind, gamesman_plugin_api::ffi::CallErrorKind::BAD_INPUT);
}
