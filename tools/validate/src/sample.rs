//! Which positions get checked: every index of every reachable tier (exhaustive), or
//! a reproducible random sample of a fixed number per tier, cut into batches for the
//! thread pool as they are needed.
//!
//! A sample depends only on the seed, the tier and the tier's size, never on thread
//! scheduling, so the same command checks the same positions every time. This file
//! must not call into the module.

use gamesman_plugin_api::Tier;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
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

impl Plan {
    /// How many positions of a tier of `size` the plan checks.
    pub fn count(self, size: u64) -> u64 {
        match self {
            Plan::Exhaustive => size,
            Plan::Sample { per_tier, .. } => size.min(per_tier),
        }
    }

    /// The positions of `tier` (of `size` positions) to check.
    pub fn select(self, tier: Tier, size: u64) -> Selection {
        match self {
            Plan::Sample { per_tier, seed } if size > per_tier => {
                Selection::Chosen(sample(seed, tier, size, per_tier))
            }
            _ => Selection::All(size),
        }
    }
}

/// The positions of one tier to check.
#[derive(Clone, Debug)]
pub enum Selection {
    /// Every index below the size.
    All(u64),
    /// Chosen indices, ascending.
    Chosen(Vec<u64>),
}

/// One batch of indices, checked by one task.
#[derive(Clone, Copy, Debug)]
pub enum Indices<'a> {
    /// `start..end`.
    Range(u64, u64),
    /// Chosen indices.
    List(&'a [u64]),
}

impl Indices<'_> {
    /// How many indices.
    pub fn len(&self) -> u64 {
        match self {
            Indices::Range(a, b) => b - a,
            Indices::List(v) => v.len() as u64,
        }
    }

    /// Calls `f` on every index, in order.
    pub fn for_each(&self, f: impl FnMut(u64)) {
        match self {
            Indices::Range(a, b) => (*a..*b).for_each(f),
            Indices::List(v) => v.iter().copied().for_each(f),
        }
    }
}

impl Selection {
    /// Calls `f` on batches covering the selection, in parallel. Batches are made on
    /// the fly, so even a huge tier costs no memory up front.
    pub fn par_batches(&self, f: impl Fn(Indices<'_>) + Sync) {
        match self {
            Selection::All(size) => {
                let size = *size;
                (0..size.div_ceil(BATCH)).into_par_iter().for_each(|b| {
                    let start = b * BATCH;
                    f(Indices::Range(start, size.min(start + BATCH)))
                })
            }
            Selection::Chosen(list) => list
                .par_chunks(BATCH as usize)
                .for_each(|chunk| f(Indices::List(chunk))),
        }
    }
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
    fn batches_cover_a_selection_once() {
        use std::sync::Mutex;
        for sel in [
            Selection::All(1500),
            Selection::Chosen((0..1500).step_by(3).collect()),
        ] {
            let seen = Mutex::new(Vec::new());
            sel.par_batches(|b| {
                assert!(b.len() <= BATCH);
                b.for_each(|i| seen.lock().unwrap().push(i));
            });
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            let want: Vec<u64> = match &sel {
                Selection::All(n) => (0..*n).collect(),
                Selection::Chosen(v) => v.clone(),
            };
            assert_eq!(seen, want);
        }
    }

    #[test]
    fn a_sample_of_all_but_one_is_still_distinct() {
        let a = sample(1, Tier(0), 50, 49);
        assert_eq!(a.len(), 49);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
    }
}
