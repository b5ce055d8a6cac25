//! Check 8: which positions are reachable from the initial position, per tier, by a
//! parallel breadth-first search over `generate_moves` + `do_move`, to set against the
//! tier sizes (the density of the module's hash). It is a report, not an error.
//!
//! Positions are marked in one bitset per tier (canonical forms, with a symmetry hook,
//! since only those are solved). Moves that fail or lead outside every reachable tier
//! are skipped here: check 2 reports them. This file must not judge the module.

use crate::probe::Probe;
use crate::progress::Progress;
use gamesman_plugin_api::{TierPosition, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most positions (bits) the search will allocate for: 2^33 bits is 1 GiB.
pub const MAX_POSITIONS: u64 = 1 << 33;

/// Positions reachable from the initial position.
#[derive(Clone, Debug)]
pub struct Reach {
    /// Reachable positions per tier, by tier rank.
    pub per_tier: Vec<u64>,
    /// Their sum.
    pub total: u64,
}

struct Marks {
    bits: Vec<Vec<AtomicU64>>,
}

impl Marks {
    /// Marks `p`; true if it was not marked before.
    fn mark(&self, probe: &Probe<'_>, p: TierPosition) -> bool {
        let Some(rank) = probe.tiers.rank(p.tier) else {
            return false;
        };
        if !probe.in_range(p) {
            return false;
        }
        let bit = 1u64 << (p.position % 64);
        let word = &self.bits[rank][(p.position / 64) as usize];
        word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

/// Searches forward from the initial position; `None` when the tiers hold more than
/// `MAX_POSITIONS` positions.
pub fn search(probe: &Probe<'_>, progress: &Progress) -> Option<Reach> {
    let tiers = &probe.tiers.tiers;
    if probe.tiers.total_positions() > MAX_POSITIONS {
        return None;
    }
    let marks = Marks {
        bits: tiers
            .iter()
            .map(|n| {
                (0..n.size.div_ceil(64))
                    .map(|_| AtomicU64::new(0))
                    .collect()
            })
            .collect(),
    };
    let start = probe.canon(probe.tiers.initial);
    let mut frontier = Vec::new();
    if marks.mark(probe, start) {
        frontier.push(start);
    }
    while !frontier.is_empty() {
        let next: Vec<TierPosition> = frontier
            .par_iter()
            .flat_map_iter(|&p| expand(probe, &marks, p))
            .collect();
        progress.inc(frontier.len() as u64);
        frontier = next;
    }
    let per_tier: Vec<u64> = marks
        .bits
        .iter()
        .map(|words| {
            words
                .iter()
                .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
                .sum()
        })
        .collect();
    let total = per_tier.iter().sum();
    Some(Reach { per_tier, total })
}

/// The children of `p` that nobody had reached before.
fn expand(probe: &Probe<'_>, marks: &Marks, p: TierPosition) -> Vec<TierPosition> {
    if !probe.game.primitive(p).is_ok_and(|v| v == Value::UNDECIDED) {
        return Vec::new();
    }
    let Ok(moves) = probe.game.moves(p) else {
        return Vec::new();
    };
    moves
        .into_iter()
        .filter_map(|m| probe.do_move_raw(p, m).ok())
        .map(|c| probe.canon(c))
        .filter(|&c| marks.mark(probe, c))
        .collect()
}
