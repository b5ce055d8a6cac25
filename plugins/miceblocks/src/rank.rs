//! Dense indices within a tier: a tier is the number of blocks placed, and a position
//! is a stable shape (which cells are filled) and which of its blocks are X's.
//!
//! X moves first, so after `n` placements X owns `ceil(n / 2)` blocks and the side to
//! move follows from `n`. The index is `shape * C(n, x) + colex rank of X's blocks
//! among the shape's cells`. Shapes are the stable sets of `n` cells (every block rests
//! on two blocks or the ground), found once per variant and kept sorted for binary
//! search. This file knows the pyramid's shape but no rules of play.

use crate::pyramid::Pyramid;
use gamesman_plugin_api::rank::{binomial, rank_combination, unrank_combination};

/// X's blocks after `n` placements.
pub fn x_count(n: usize) -> usize {
    n.div_ceil(2)
}

/// The stable shapes of every size, and the sizes of the tiers they give.
#[derive(Clone, Debug)]
pub struct Ranking {
    /// `shapes[n]`: every stable set of `n` cells as a mask, increasing.
    shapes: Vec<Vec<u32>>,
}

impl Ranking {
    /// The shapes of `pyramid`, grown one block at a time from the empty board.
    pub fn new(pyramid: &Pyramid) -> Ranking {
        let mut shapes = vec![vec![0u32]];
        for _ in 0..pyramid.cells {
            let mut next = Vec::new();
            for &s in shapes.last().unwrap() {
                let mut free = pyramid.placeable(s);
                while free != 0 {
                    next.push(s | 1 << free.trailing_zeros());
                    free &= free - 1;
                }
            }
            next.sort_unstable();
            next.dedup();
            shapes.push(next);
        }
        Ranking { shapes }
    }

    /// The number of positions with `n` blocks placed (0 past a full pyramid).
    pub fn tier_size(&self, n: usize) -> u64 {
        self.shapes
            .get(n)
            .map_or(0, |s| s.len() as u64 * binomial(n, x_count(n)))
    }

    /// The stable shapes with `n` blocks.
    pub fn shapes(&self, n: usize) -> &[u32] {
        &self.shapes[n]
    }

    /// The index of the board with X on `x` and O on `o` (a stable board with the
    /// right counts: `x` has `ceil(n / 2)` of its `n` blocks).
    pub fn rank(&self, x: u32, o: u32) -> u64 {
        let occupied = x | o;
        let n = occupied.count_ones() as usize;
        let shape = self.shapes[n]
            .binary_search(&occupied)
            .expect("a stable board");
        // X's blocks as positions among the occupied cells, in cell order.
        let mut mine = [0usize; 32];
        let mut len = 0;
        let mut rest = occupied;
        let mut i = 0;
        while rest != 0 {
            let k = rest.trailing_zeros();
            rest &= rest - 1;
            if x >> k & 1 == 1 {
                mine[len] = i;
                len += 1;
            }
            i += 1;
        }
        shape as u64 * binomial(n, x_count(n)) + rank_combination(&mine[..len])
    }

    /// The board `(x, o)` at `index` of tier `n` (the index must be below `tier_size`).
    pub fn unrank(&self, n: usize, index: u64) -> (u32, u32) {
        let per_shape = binomial(n, x_count(n));
        let occupied = self.shapes[n][(index / per_shape) as usize];
        let mut mine = [0usize; 32];
        let k = x_count(n);
        unrank_combination(index % per_shape, n, &mut mine[..k]);
        // The occupied cells in order; X holds the ones at the positions in `mine`.
        let mut x = 0u32;
        let mut rest = occupied;
        let mut i = 0;
        let mut next = 0;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            if next < k && mine[next] == i {
                x |= 1 << cell;
                next += 1;
            }
            i += 1;
        }
        (x, occupied & !x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_the_stable_sets() {
        for base in 2..=5 {
            let p = Pyramid::new(base).unwrap();
            let r = Ranking::new(&p);
            // Brute force over every subset of cells.
            let mut counts = vec![0usize; p.cells + 1];
            for m in 0..=p.full() {
                if p.is_stable(m) {
                    counts[m.count_ones() as usize] += 1;
                }
            }
            let ours: Vec<usize> = (0..=p.cells).map(|n| r.shapes(n).len()).collect();
            assert_eq!(ours, counts, "base {base}");
        }
    }

    #[test]
    fn rank_and_unrank_are_inverse_on_every_position_of_base_four() {
        let p = Pyramid::new(4).unwrap();
        let r = Ranking::new(&p);
        for n in 0..=p.cells {
            for i in 0..r.tier_size(n) {
                let (x, o) = r.unrank(n, i);
                assert_eq!(x & o, 0);
                assert_eq!((x | o).count_ones() as usize, n);
                assert_eq!(x.count_ones() as usize, x_count(n));
                assert!(p.is_stable(x | o));
                assert_eq!(r.rank(x, o), i, "tier {n}");
            }
        }
    }
}
