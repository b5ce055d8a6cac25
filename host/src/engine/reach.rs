//! The positions reachable from the initial position: a forward search over distinct
//! canonical children (the module's `children_batch`), tier by tier in the order of
//! the tier DAG, parents first. A tier is expanded once all its parent tiers are (so
//! its set is complete but for moves inside it, which a loopy tier follows round by
//! round), in parallel batches; its bitset then becomes compact `Marks` and is freed.
//! Only the bitsets of tiers that have been reached but not yet expanded (a frontier
//! of tiers) are in memory at once.
//!
//! This file knows nothing of values or databases.

use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::marks::Marks;
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

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
    /// A child in a tier its parent's tier does not list as a child.
    #[error("position {0} was reached from tier {1}, which does not list its tier as a child")]
    UndeclaredTier(TierPosition, Tier),
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
            words: (0..n).into_par_iter().map(|_| AtomicU64::new(0)).collect(),
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

    /// The size of the set's range (`0..len`).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of members.
    pub fn count(&self) -> u64 {
        self.words
            .par_iter()
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

    /// The set as compact marks (consumes the bitset).
    pub fn into_marks(self) -> Marks {
        let words = self.words.into_iter().map(AtomicU64::into_inner).collect();
        Marks::from_words(self.len, words)
    }
}

/// The reachable canonical positions, per tier.
pub struct Reachable {
    /// One set per tier of the graph (empty for tiers no move reaches).
    pub tiers: HashMap<Tier, Arc<Marks>>,
}

impl Reachable {
    /// The set of a tier (`None` when the tier is not in the graph).
    pub fn tier(&self, t: Tier) -> Option<&Marks> {
        self.tiers.get(&t).map(|m| m.as_ref())
    }

    /// Number of reachable positions in all tiers.
    pub fn total(&self) -> u64 {
        self.tiers.values().map(|m| m.count()).sum()
    }
}

/// Called when a tier's set is complete, with the tier and its marks.
pub type TierDone<'a> = &'a (dyn Fn(&TierNode, &Marks) + Sync);

/// Searches forward from the canonical initial position, tier by tier.
pub fn search(
    game: &GameHandle,
    graph: &TierGraph,
    done: TierDone<'_>,
) -> Result<Reachable, ReachError> {
    let start = game.canonical(game.initial_position()?)?;
    let cap = game.properties().max_moves as usize;
    mark_forward(
        graph,
        start,
        BATCH,
        || {
            (
                vec![TierPosition::default(); BATCH * cap],
                vec![0u32; BATCH],
            )
        },
        |(children, counts), tier, batch, out| {
            game.children_batch(tier, batch, children, counts)?;
            let n: u32 = counts[..batch.len()].iter().sum();
            out.extend_from_slice(&children[..n as usize]);
            Ok(())
        },
        done,
    )
}

/// The forward marking loop of both searches (this file's over canonical positions,
/// `reach_every`'s over `reach_canonical` classes): from `start`, tier by tier in the
/// graph's order, parents first; within a tier round by round (every marked position,
/// then those first marked by moves inside the tier, for loopy tiers), `chunk`
/// positions per parallel task. `expand` appends a chunk's children (with per-thread
/// state from `init`); this loop checks each against the graph and marks it.
pub(crate) fn mark_forward<S>(
    graph: &TierGraph,
    start: TierPosition,
    chunk: usize,
    init: impl Fn() -> S + Sync + Send,
    expand: impl Fn(&mut S, Tier, &[u64], &mut Vec<TierPosition>) -> Result<(), ReachError>
        + Sync
        + Send,
    done: TierDone<'_>,
) -> Result<Reachable, ReachError> {
    let first = graph
        .get(start.tier)
        .ok_or(ReachError::OutsideGraph(start))?;
    if start.position >= first.size {
        return Err(ReachError::PastTierSize(start, first.size));
    }
    // Sets of tiers reached but not yet expanded.
    let mut open: HashMap<Tier, Bitset> = HashMap::new();
    open.insert(start.tier, Bitset::new(first.size));
    open[&start.tier].insert(start.position);
    let mut tiers = HashMap::with_capacity(graph.order.len());
    // Children first in `order`, so backwards every tier comes after its parents.
    for node in graph.order.iter().rev() {
        let Some(own) = open.remove(&node.tier) else {
            let marks = Marks::empty(node.size);
            done(node, &marks);
            tiers.insert(node.tier, Arc::new(marks));
            continue;
        };
        for &c in &node.children {
            open.entry(c)
                .or_insert_with(|| Bitset::new(graph.get(c).map_or(0, |n| n.size)));
        }
        // A few tiers: a list searched in order beats hashing every child.
        let kids: Vec<(Tier, &Bitset)> = node
            .children
            .iter()
            .map(|c| (*c, &open[c]))
            .chain(std::iter::once((node.tier, &own)))
            .collect();
        let mut frontier: Vec<u64> = own.iter().collect();
        while !frontier.is_empty() {
            let fresh: Vec<Vec<u64>> = frontier
                .par_chunks(chunk)
                .map_init(
                    || (init(), Vec::new()),
                    |(state, children), batch| -> Result<Vec<u64>, ReachError> {
                        children.clear();
                        expand(state, node.tier, batch, children)?;
                        let mut fresh = Vec::new();
                        for &child in children.iter() {
                            let Some(&(_, bits)) = kids.iter().find(|k| k.0 == child.tier) else {
                                return Err(if graph.contains(child.tier) {
                                    ReachError::UndeclaredTier(child, node.tier)
                                } else {
                                    ReachError::OutsideGraph(child)
                                });
                            };
                            if child.position >= bits.len {
                                return Err(ReachError::PastTierSize(child, bits.len));
                            }
                            if bits.insert(child.position) && child.tier == node.tier {
                                fresh.push(child.position);
                            }
                        }
                        Ok(fresh)
                    },
                )
                .collect::<Result<_, _>>()?;
            frontier = fresh.concat();
        }
        drop(kids);
        let marks = own.into_marks();
        done(node, &marks);
        tiers.insert(node.tier, Arc::new(marks));
    }
    Ok(Reachable { tiers })
}
