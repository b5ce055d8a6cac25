//! The numbering of a tier's boards when symmetric boards are merged: the canonical
//! boards first, in rank order, then every other board, in rank order.
//!
//! The solver asks for every index of a tier whether it is canonical, and the database
//! stores a record for every index. With the canonical boards first, the answer is a
//! comparison (`index < count`), and the records of the skipped boards form one run of
//! zeros at the end of the tier, which costs next to nothing on disk. A bitset over the
//! ranks marks the canonical boards, with a count of them before each word, so a rank
//! becomes an index with a popcount; canonical indices go back to ranks through a
//! table, the others through a search of the counts (only play and text need those).
//!
//! This file must not know moves, tiers or the plugin API's positions.

use crate::rank::{Tables, TierRanker};
use crate::symmetry::Symmetries;

/// The canonical-first numbering of one tier's boards.
#[derive(Debug)]
pub struct CanonicalFirst {
    /// Bit `r` set: the board of rank `r` is canonical.
    canon: Vec<u64>,
    /// Canonical boards in the words before each word of `canon`.
    before: Vec<u32>,
    /// The ranks of the canonical boards, in order: index to rank.
    ranks: Vec<u32>,
}

impl CanonicalFirst {
    /// Numbers the boards of `ranker`'s tier (at most 2^32 of them).
    pub fn new(t: &Tables, ranker: &TierRanker, s: &Symmetries) -> CanonicalFirst {
        let size = ranker.size();
        assert!(size <= u32::MAX as u64, "a tier of at most 2^32 boards");
        let mut canon = vec![0u64; size.div_ceil(64) as usize];
        let mut ranks = Vec::new();
        for r in 0..size {
            if s.is_canonical(ranker.unrank(t, r)) {
                canon[(r >> 6) as usize] |= 1 << (r & 63);
                ranks.push(r as u32);
            }
        }
        let mut before = Vec::with_capacity(canon.len());
        let mut seen = 0u32;
        for w in &canon {
            before.push(seen);
            seen += w.count_ones();
        }
        CanonicalFirst {
            canon,
            before,
            ranks,
        }
    }

    /// How many boards are canonical: their indices are `0..count`.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        self.ranks.len() as u64
    }

    /// Canonical boards of rank below `r`.
    #[inline(always)]
    fn canonical_below(&self, r: u64) -> u64 {
        let w = (r >> 6) as usize;
        let low = self.canon[w] & ((1u64 << (r & 63)) - 1);
        self.before[w] as u64 + low.count_ones() as u64
    }

    /// The index of the board of rank `r`, which is canonical or not as `canonical`
    /// says.
    #[inline(always)]
    pub fn index(&self, r: u64, canonical: bool) -> u64 {
        let below = self.canonical_below(r);
        if canonical {
            below
        } else {
            self.count() + r - below
        }
    }

    /// The rank of the board of index `i` (below the tier's size).
    #[inline(always)]
    pub fn rank(&self, i: u64) -> u64 {
        match self.ranks.get(i as usize) {
            Some(&r) => r as u64,
            None => self.other(i - self.count()),
        }
    }

    /// The rank of the `k`-th board that is not canonical.
    #[inline(never)]
    fn other(&self, k: u64) -> u64 {
        let others_before = |w: usize| (w as u64) * 64 - self.before[w] as u64;
        // The last word with at most k others before it holds the k-th.
        let (mut lo, mut hi) = (0usize, self.before.len());
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if others_before(mid) <= k {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let mut rest = k - others_before(lo);
        let mut zeros = !self.canon[lo];
        loop {
            let bit = zeros.trailing_zeros() as u64;
            if rest == 0 {
                return lo as u64 * 64 + bit;
            }
            zeros &= zeros - 1;
            rest -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_a_permutation_with_canonical_boards_first() {
        let t = Tables::new();
        let s = Symmetries::new(4);
        for (x, o) in [(0, 0), (1, 0), (2, 1), (3, 3), (5, 4), (16, 0)] {
            let ranker = TierRanker::new(&t, 16, x, o);
            let order = CanonicalFirst::new(&t, &ranker, &s);
            let mut seen = vec![false; ranker.size() as usize];
            for r in 0..ranker.size() {
                let canonical = s.is_canonical(ranker.unrank(&t, r));
                let i = order.index(r, canonical);
                assert_eq!(i < order.count(), canonical, "rank {r} of ({x}, {o})");
                assert!(!seen[i as usize]);
                seen[i as usize] = true;
                assert_eq!(order.rank(i), r);
            }
            // Classes of boards: every canonical board stands for a class, and the
            // classes cover the tier.
            let classes: u64 = (0..order.count())
                .map(|i| {
                    let b = ranker.unrank(&t, order.rank(i));
                    let mut images: Vec<_> = (0..8).map(|k| s.image(b, k)).collect();
                    images.sort();
                    images.dedup();
                    images.len() as u64
                })
                .sum();
            assert_eq!(classes, ranker.size());
        }
    }
}
