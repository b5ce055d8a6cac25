//! The positions reachable from the initial position: a breadth-first forward search
//! over distinct canonical children (the module's `children_batch`), in parallel
//! batches, with one bitset per tier to remember what was seen.
//!
//! Works for loopy tiers too (a position is expanded once, whenever it is first
//! reached). This file knows nothing of values or databases.

use crate::game::{GameHandle, ModuleError};
use crate::tier::TierGraph;
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Positions expanded per module call.
const BATCH: usize = 1024;

/// Why the search failed.
#[derive(Debug, thiserror::Error)]
pub enum ReachError {
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// A child in a tier the tier graph does not reach from the initial tier.
    #[error("position {0} was reached through moves but its tier is not in the tier graph")]
    OutsideGraph(TierPosition),
    /// A child past its tier's size (a module bug the adapter did not catch).
    #[error("children_batch returned position {0}, past its tier's size {1}")]
    PastTierSize(TierPosition, u64),
}

/// A fixed-size set of positions of one tier, safe to fill from many threads.
pub struct Bitset {
    words: Vec<AtomicU64>,
    len: u64,
}

impl Bitset {
    /// An empty set of positions `0..len`.
    pub fn new(len: u64) -> Bitset {
        let n = len.div_ceil(64) as usize;
        Bitset {
            words: (0..n).map(|_| AtomicU64::new(0)).collect(),
            len,
        }
    }

    /// Adds `i`; true when it was not there before.
    pub fn insert(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.words[(i / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    }

    /// Whether `i` is in the set.
    pub fn contains(&self, i: u64) -> bool {
        i < self.len && self.words[(i / 64) as usize].load(Relaxed) & (1u64 << (i % 64)) != 0
    }

    /// Number of members.
    pub fn count(&self) -> u64 {
        self.words
            .iter()
            .map(|w| w.load(Relaxed).count_ones() as u64)
            .sum()
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, w)| {
            let mut bits = w.load(Relaxed);
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as u64;
                bits &= bits - 1;
                Some(wi as u64 * 64 + b)
            })
        })
    }
}

/// The reachable canonical positions, per tier.
pub struct Reachable {
    /// One set per tier of the graph.
    pub tiers: HashMap<Tier, Bitset>,
}

impl Reachable {
    /// The set of a tier (empty when unknown).
    pub fn tier(&self, t: Tier) -> Option<&Bitset> {
        self.tiers.get(&t)
    }

    /// Number of reachable positions in all tiers.
    pub fn total(&self) -> u64 {
        self.tiers.values().map(Bitset::count).sum()
    }
}

/// Searches forward from the canonical initial position.
pub fn search(game: &GameHandle, graph: &TierGraph) -> Result<Reachable, ReachError> {
    let tiers: HashMap<Tier, Bitset> = graph
        .order
        .iter()
        .map(|n| (n.tier, Bitset::new(n.size)))
        .collect();
    let start = game.canonical(game.initial_position()?)?;
    let set = |p: TierPosition| tiers.get(&p.tier).ok_or(ReachError::OutsideGraph(p));
    set(start)?.insert(start.position);
    let cap = game.properties().max_moves as usize;
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        // Batches hold positions of one tier, as children_batch wants.
        frontier.par_sort_unstable();
        let mut runs: Vec<(Tier, &[TierPosition])> = Vec::new();
        for run in frontier.chunk_by(|a, b| a.tier == b.tier) {
            for batch in run.chunks(BATCH) {
                runs.push((run[0].tier, batch));
            }
        }
        let next: Vec<Vec<TierPosition>> = runs
            .par_iter()
            .map(|&(tier, batch)| -> Result<Vec<TierPosition>, ReachError> {
                let positions: Vec<u64> = batch.iter().map(|p| p.position).collect();
                let mut children = vec![TierPosition::default(); positions.len() * cap];
                let mut counts = vec![0u32; positions.len()];
                game.children_batch(tier, &positions, &mut children, &mut counts)?;
                let mut fresh = Vec::new();
                let mut at = 0usize;
                for &c in &counts {
                    for &child in &children[at..at + c as usize] {
                        let bits = set(child)?;
                        if child.position >= bits.len {
                            return Err(ReachError::PastTierSize(child, bits.len));
                        }
                        if bits.insert(child.position) {
                            fresh.push(child);
                        }
                    }
                    at += c as usize;
                }
                Ok(fresh)
            })
            .collect::<Result<_, _>>()?;
        frontier = next.into_iter().flatten().collect();
    }
    Ok(Reachable { tiers })
}
