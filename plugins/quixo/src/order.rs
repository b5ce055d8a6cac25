//! The numbering of a tier's boards when symmetric boards are merged: the canonical
//! boards first, in rank order, then every other board, in rank order.
//!
//! With the canonical boards first, "is this index canonical?" is a comparison
//! (`index < count`), and the solver and the database need only the first `count`
//! indices of a tier (the module's `canonical_prefix`). A bitset over the ranks marks
//! the canonical boards, with a count of them before each word, so a rank becomes an
//! index with a popcount. Canonical indices go back to ranks through a table on boards
//! of up to 16 cells; on 5x5, where that table would cost 4 bytes a canonical board,
//! through the word of every 64th canonical board and a short walk of the counts. The
//! others go back through a search of the counts (only play and text need those). A
//! tier's boards are walked in rank order to build it (`for_each_in_order`).
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
    /// The ranks of the canonical boards, in order: index to rank (boards of up to
    /// 16 cells; empty on 5x5).
    ranks: Vec<u32>,
    /// 5x5: the word of `canon` holding canonical board `64 * j`, for each `j`.
    sample: Vec<u32>,
    /// Canonical boards.
    count: u64,
}

impl CanonicalFirst {
    /// Numbers the boards of `ranker`'s tier (at most 2^32 of them).
    pub fn new(t: &Tables, ranker: &TierRanker, s: &Symmetries) -> CanonicalFirst {
        let size = ranker.size();
        assert!(size <= u32::MAX as u64, "a tier of at most 2^32 boards");
        let mut canon = vec![0u64; size.div_ceil(64) as usize];
        let table = ranker.cells() <= 16;
        let mut ranks = Vec::new();
        let mut r = 0u64;
        ranker.for_each_in_order(t, |b| {
            if s.is_canonical(b) {
                canon[(r >> 6) as usize] |= 1 << (r & 63);
                if table {
                    ranks.push(r as u32);
                }
            }
            r += 1;
        });
        let mut before = Vec::with_capacity(canon.len());
        let mut sample = Vec::new();
        let mut seen = 0u32;
        for (w, word) in canon.iter().enumerate() {
            before.push(seen);
            let ones = word.count_ones();
            // Canonical boards seen..seen + ones lie in word w.
            if !table {
                while (sample.len() as u64) * 64 < (seen + ones) as u64 {
                    sample.push(w as u32);
                }
            }
            seen += ones;
        }
        CanonicalFirst {
            canon,
            before,
            ranks,
            sample,
            count: seen as u64,
        }
    }

    /// How many boards are canonical: their indices are `0..count`.
    #[inline(always)]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of canonical board `i` (below `count`) without the table: from the
    /// word of the 64th canonical board before it, forward to its word.
    #[inline(always)]
    fn canonical_rank(&self, i: u64) -> u64 {
        let mut w = self.sample[(i >> 6) as usize] as usize;
        while w + 1 < self.before.len() && self.before[w + 1] as u64 <= i {
            w += 1;
        }
        let mut word = self.canon[w];
        for _ in 0..i - self.before[w] as u64 {
            word &= word - 1;
        }
        w as u64 * 64 + word.trailing_zeros() as u64
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
        if i >= self.count {
            return self.other(i - self.count);
        }
        match self.ranks.get(i as usize) {
            Some(&r) => r as u64,
            None => self.canonical_rank(i),
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
        let s5 = Symmetries::new(5);
        let tiers = [
            (16, 0, 0),
            (16, 1, 0),
            (16, 2, 1),
            (16, 3, 3),
            (16, 5, 4),
            (16, 16, 0),
            (25, 0, 0),
            (25, 2, 1),
            (25, 3, 3),
            (25, 20, 4),
        ];
        for (cells, x, o) in tiers {
            let s = if cells == 25 { &s5 } else { &s };
            let ranker = TierRanker::new(&t, cells, x, o);
            let order = CanonicalFirst::new(&t, &ranker, s);
            assert_eq!(order.count(), s.classes(x, o), "Burnside, ({x}, {o})");
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
