//! Whether a tier that lists itself in `tier_children` really has positions that can
//! return to themselves (exhaustive runs only): a one-tier game lists its one tier by
//! default, loopy or not, and the report should not call Nim loopy.
//!
//! Kahn's algorithm over the tier's legal (canonical) positions and the moves that
//! stay in the tier: positions without a parent inside the tier are peeled off one by
//! one; whatever is left lies on a cycle or below one. This file reports; it must not
//! judge the module (a tier without cycles may list itself: it is only slower to solve).

use crate::probe::Probe;
use crate::tiers::TierInfo;
use gamesman_plugin_api::TierPosition;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// The largest tier searched for cycles (4 bytes a position, and two expansions).
pub const MAX_TIER: u64 = 1 << 24;

/// For each tier, by rank: `Some(true)` when it lists itself and a cycle of positions
/// was found in it, `Some(false)` when it lists itself and has none, `None` when it
/// does not list itself or is larger than `MAX_TIER`.
pub fn search(probe: &Probe<'_>) -> Vec<Option<bool>> {
    probe
        .tiers
        .tiers
        .iter()
        .map(|n| (n.loopy && n.size <= MAX_TIER).then(|| has_cycle(probe, n)))
        .collect()
}

/// The position's distinct canonical children inside its own tier, or `None` for a
/// position that is not itself solved (illegal, or not canonical).
fn inner_children(probe: &Probe<'_>, p: TierPosition) -> Option<Vec<TierPosition>> {
    if !probe.game.is_legal(p).unwrap_or(false) || probe.canon(p) != p {
        return None;
    }
    let mut kids = probe.child_set(p).unwrap_or_default();
    kids.retain(|c| c.tier == p.tier);
    Some(kids)
}

fn has_cycle(probe: &Probe<'_>, n: &TierInfo) -> bool {
    let at = |i: u64| TierPosition::new(n.tier, i);
    let parents: Vec<AtomicU32> = (0..n.size).map(|_| AtomicU32::new(0)).collect();
    let nodes: u64 = (0..n.size)
        .into_par_iter()
        .map(|i| match inner_children(probe, at(i)) {
            Some(kids) => {
                for c in kids.iter().filter(|c| c.position < n.size) {
                    parents[c.position as usize].fetch_add(1, Ordering::Relaxed);
                }
                1
            }
            None => 0,
        })
        .sum();
    let mut ready: Vec<u64> = (0..n.size)
        .filter(|&i| parents[i as usize].load(Ordering::Relaxed) == 0)
        .collect();
    let mut peeled = 0u64;
    while let Some(i) = ready.pop() {
        let Some(kids) = inner_children(probe, at(i)) else {
            continue;
        };
        peeled += 1;
        for c in kids.iter().filter(|c| c.position < n.size) {
            if parents[c.position as usize].fetch_sub(1, Ordering::Relaxed) == 1 {
                ready.push(c.position);
            }
        }
    }
    peeled < nodes
}
