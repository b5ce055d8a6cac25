//! Numbering a tier's positions densely, and the boards' symmetry classes.
//!
//! A position of tier (hand, board) with `x` and `o` pieces on a board of `n` points is
//! numbered by its two point sets: the rank of X's set among the `x`-subsets of the
//! points (colex order), times the number of `o`-subsets of the other `n - x` points,
//! plus the rank of O's set among those. Where either side may be to move, O to move
//! adds the tier's board count once more (`index = turn * boards + board`).
//!
//! The canonical form of a position is the image under the board's symmetries with the
//! smallest (X mask, O mask) pair; every symmetry keeps the side to move.
//!
//! This file must not hold rules of play.

use crate::board::Geometry;
use crate::rules::{bits, Counts};
use gamesman_plugin_api::rank::{binomial, unrank_combination};

/// The rank of the set `m` among the subsets of its size, in colex order.
#[inline]
pub fn rank_set(m: u32) -> u64 {
    bits(m).enumerate().map(|(k, p)| binomial(p, k + 1)).sum()
}

/// The set of `k` points of `0..n` with rank `r`.
pub fn unrank_set(r: u64, n: usize, k: usize) -> u32 {
    let mut cells = [0usize; 32];
    unrank_combination(r, n, &mut cells[..k]);
    cells[..k].iter().fold(0, |m, &c| m | 1 << c)
}

/// `m`'s points renumbered among the points not in `taken` (a bit extract).
#[inline]
fn compress(m: u32, taken: u32) -> u32 {
    let mut out = 0;
    for p in bits(m) {
        let below = (taken & ((1u32 << p) - 1)).count_ones();
        out |= 1 << (p as u32 - below);
    }
    out
}

/// The points of `0..` not in `taken`, the `i`-th of them for each bit `i` of `m` (a
/// bit deposit).
#[inline]
fn expand(m: u32, taken: u32, n: usize) -> u32 {
    let mut out = 0;
    let mut i = 0;
    for p in 0..n {
        if taken >> p & 1 == 1 {
            continue;
        }
        if m >> i & 1 == 1 {
            out |= 1 << p;
        }
        i += 1;
    }
    out
}

/// The boards of a tier: how many, and their numbers.
#[derive(Clone, Copy, Debug)]
pub struct Boards {
    n: usize,
    x: usize,
    o: usize,
    /// O-subsets of the points X leaves.
    per_x: u64,
}

impl Boards {
    /// The boards with the pieces of `c` on `n` points.
    pub fn new(n: usize, c: Counts) -> Boards {
        let (x, o) = (c.board[0] as usize, c.board[1] as usize);
        Boards {
            n,
            x,
            o,
            per_x: binomial(n - x, o),
        }
    }

    /// How many boards.
    pub fn count(&self) -> u64 {
        binomial(self.n, self.x) * self.per_x
    }

    /// The number of a board.
    #[inline]
    pub fn rank(&self, bits: [u32; 2]) -> u64 {
        rank_set(bits[0]) * self.per_x + rank_set(compress(bits[1], bits[0]))
    }

    /// The board of a number below `count`.
    pub fn unrank(&self, r: u64) -> [u32; 2] {
        let xs = unrank_set(r / self.per_x, self.n, self.x);
        let os = unrank_set(r % self.per_x, self.n - self.x, self.o);
        [xs, expand(os, xs, self.n)]
    }
}

/// The canonical image of a board under `geo`'s symmetries, and how many distinct
/// images it has.
pub fn canonical(geo: &Geometry, b: [u32; 2]) -> ([u32; 2], u64) {
    let mut best = b;
    let mut images = [0u64; 16];
    for (s, slot) in images.iter_mut().enumerate().take(geo.symmetries()) {
        let img = [geo.map(s, b[0]), geo.map(s, b[1])];
        if (img[0], img[1]) < (best[0], best[1]) {
            best = img;
        }
        *slot = (img[0] as u64) << 32 | img[1] as u64;
    }
    let images = &mut images[..geo.symmetries()];
    images.sort_unstable();
    let distinct = 1 + images.windows(2).filter(|w| w[0] != w[1]).count();
    (best, distinct as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Kind;

    #[test]
    fn boards_number_densely_both_ways() {
        let c = Counts {
            hand: [0, 0],
            board: [3, 4],
        };
        let b = Boards::new(16, c);
        assert_eq!(b.count(), 560 * 715);
        let mut seen = std::collections::HashSet::new();
        for r in (0..b.count()).step_by(7) {
            let bits = b.unrank(r);
            assert_eq!(bits[0].count_ones(), 3);
            assert_eq!(bits[1].count_ones(), 4);
            assert_eq!(bits[0] & bits[1], 0);
            assert!(bits[0] | bits[1] < 1 << 16);
            assert!(seen.insert(bits));
            assert_eq!(b.rank(bits), r);
        }
    }

    #[test]
    fn canonical_is_an_image_and_idempotent() {
        let g = Geometry::new(Kind::TwentyFour);
        let b = [0b111, 1 << 9 | 1 << 21];
        let (c, n) = canonical(&g, b);
        assert_eq!(canonical(&g, c).0, c);
        assert!(n >= 1 && 16 % n == 0);
        // A single piece on a corner has 8 images (the outer and inner corners).
        assert_eq!(canonical(&g, [1, 0]).1, 8);
        assert_eq!(canonical(&g, [0, 0]).1, 1);
    }
}
