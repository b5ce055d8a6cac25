//! Which positions get checked: every index of every reachable tier (exhaustive), or
//! a reproducible random sample of a fixed number per tier, cut into batches for the
//! thread pool.
//!
//! A sample depends only on the seed, the tier and the tier's size, never on thread
//! scheduling, so the same command checks the same positions every time. This file
//! must not call into the module.

use crate::tiers::TierMap;
use gamesman_plugin_api::Tier;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// Positions per batch: big enough to amortize scheduling, small enough to balance.
const BATCH: u64 = 512;

/// How positions are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Every index of every reachable tier.
    Exhaustive,
    /// `per_tier` distinct random indices of each tier (all of a smaller tier).
    Sample {
        /// Positions per tier.
        per_tier: u64,
        /// Seed of the random choice.
        seed: u64,
    },
}

/// A run of positions of one tier, checked by one task.
#[derive(Clone, Debug)]
pub struct Batch {
    /// Rank of the tier in the tier map.
    pub tier: usize,
    /// The indices to check.
    pub indices: Indices,
}

/// The indices of a batch.
#[derive(Clone, Debug)]
pub enum Indices {
    /// `start..end`.
    Range(u64, u64),
    /// Chosen indices, ascending.
    List(Vec<u64>),
}

impl Indices {
    /// How many indices.
    pub fn len(&self) -> u64 {
        match self {
            Indices::Range(a, b) => b - a,
            Indices::List(v) => v.len() as u64,
        }
    }

    /// Calls `f` on every index, in order.
    pub fn for_each(&self, mut f: impl FnMut(u64)) {
        match self {
            Indices::Range(a, b) => (*a..*b).for_each(f),
            Indices::List(v) => v.iter().for_each(|&i| f(i)),
        }
    }
}

/// The batches that cover `plan` over `tiers`, tier by tier.
pub fn batches(plan: Plan, tiers: &TierMap) -> Vec<Batch> {
    let mut out = Vec::new();
    for (rank, node) in tiers.tiers.iter().enumerate() {
        match plan {
            Plan::Sample { per_tier, seed } if node.size > per_tier => {
                let chosen = sample(seed, node.tier, node.size, per_tier);
                for chunk in chosen.chunks(BATCH as usize) {
                    out.push(Batch {
                        tier: rank,
                        indices: Indices::List(chunk.to_vec()),
                    });
                }
            }
            _ => {
                let mut start = 0;
                while start < node.size {
                    let end = node.size.min(start.saturating_add(BATCH));
                    out.push(Batch {
                        tier: rank,
                        indices: Indices::Range(start, end),
                    });
                    start = end;
                }
            }
        }
    }
    out
}

/// `n` distinct indices below `size` (`n < size`), ascending, chosen by Floyd's
/// algorithm so the cost is `n` draws whatever the ratio.
pub fn sample(seed: u64, tier: Tier, size: u64, n: u64) -> Vec<u64> {
    // Mixing the tier in keeps tiers of equal size from getting the same indices.
    let mut rng = SmallRng::seed_from_u64(seed ^ tier.0.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut chosen: HashSet<u64> = HashSet::with_capacity(n as usize);
    for j in size - n..size {
        let t = rng.gen_range(0..=j);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    let mut out: Vec<u64> = chosen.into_iter().collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_in_range_and_reproducible() {
        let a = sample(7, Tier(3), 1000, 100);
        assert_eq!(a.len(), 100);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&i| i < 1000));
        assert_eq!(a, sample(7, Tier(3), 1000, 100));
        assert_ne!(a, sample(8, Tier(3), 1000, 100));
        assert_ne!(a, sample(7, Tier(4), 1000, 100));
    }

    #[test]
    fn a_sample_of_all_but_one_is_still_distinct() {
        let a = sample(1, Tier(0), 50, 49);
        assert_eq!(a.len(), 49);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
    }
}
