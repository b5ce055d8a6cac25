//! Dense indices of Dodgem boards with `a` blue and `b` red cars, straight from the
//! bitmasks: the same order as the plugin-api `Ranker` over kinds (blue, red), without
//! building a cell array, because ranking is most of the module's time in a solve.
//!
//! Blue's cells rank as a combination of all cells (colex), red's as a combination of
//! the cells blue leaves free; the index is `blue rank * C(cells - a, b) + red rank`.
//! This file must not know the rules.

use gamesman_plugin_api::rank::{binomial, unrank_combination};

/// Ranks and unranks boards of one board size.
#[derive(Clone, Debug)]
pub struct Ranking {
    cells: usize,
}

impl Ranking {
    /// Ranking for boards of `cells` cells (at most 64).
    pub fn new(cells: usize) -> Ranking {
        assert!(cells <= 64);
        Ranking { cells }
    }

    /// The number of boards with `a` blue and `b` red cars.
    pub fn size(&self, a: usize, b: usize) -> u64 {
        binomial(self.cells, a) * binomial(self.cells - a, b)
    }

    /// The index of the board with blue cars on `blue` and red cars on `red`.
    #[inline]
    pub fn rank(&self, blue: u64, red: u64) -> u64 {
        let (a, b) = (blue.count_ones() as usize, red.count_ones() as usize);
        let mut blue_rank = 0;
        let mut m = blue;
        let mut i = 0;
        while m != 0 {
            i += 1;
            blue_rank += binomial(m.trailing_zeros() as usize, i);
            m &= m - 1;
        }
        let mut red_rank = 0;
        let mut m = red;
        let mut j = 0;
        while m != 0 {
            let cell = m.trailing_zeros();
            // The red car's place among the cells blue leaves free.
            let free_before = cell - (blue & ((1u64 << cell) - 1)).count_ones();
            j += 1;
            red_rank += binomial(free_before as usize, j);
            m &= m - 1;
        }
        blue_rank * binomial(self.cells - a, b) + red_rank
    }

    /// The blue and red cars of the board with `a` blue and `b` red cars and index
    /// `index` (below `size(a, b)`).
    #[inline]
    pub fn unrank(&self, a: usize, b: usize, index: u64) -> (u64, u64) {
        let radix = binomial(self.cells - a, b);
        let mut cells = [0usize; 64];
        unrank_combination(index / radix, self.cells, &mut cells[..a]);
        let blue = cells[..a].iter().fold(0u64, |m, &c| m | 1 << c);
        unrank_combination(index % radix, self.cells - a, &mut cells[..b]);
        // Map places among the free cells back to cells, in one pass (both ascend).
        let mut red = 0u64;
        let mut next = 0;
        let mut free_seen = 0;
        for cell in 0..self.cells {
            if next == b {
                break;
            }
            if blue >> cell & 1 == 1 {
                continue;
            }
            if cells[next] == free_seen {
                red |= 1 << cell;
                next += 1;
            }
            free_seen += 1;
        }
        (blue, red)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesman_plugin_api::rank::Ranker;

    /// Same order as the plugin-api `Ranker`, both ways, for every board of 3x3 and
    /// 4x4 with up to `n - 1` cars a side.
    #[test]
    fn agrees_with_the_plugin_api_ranker() {
        for n in [3usize, 4] {
            let cells = n * n;
            let ours = Ranking::new(cells);
            let mut board = vec![0u8; cells];
            for a in 0..n {
                for b in 0..n {
                    let theirs = Ranker::new(cells, &[a, b]).unwrap();
                    assert_eq!(ours.size(a, b), theirs.size());
                    for i in 0..theirs.size() {
                        theirs.unrank(i, &mut board);
                        let mask = |k| {
                            (0..cells)
                                .filter(|&c| board[c] == k)
                                .fold(0u64, |m, c| m | 1 << c)
                        };
                        let (blue, red) = (mask(1), mask(2));
                        assert_eq!(ours.unrank(a, b, i), (blue, red), "{n}x{n} {a} {b} {i}");
                        assert_eq!(ours.rank(blue, red), i);
                    }
                }
            }
        }
    }
}
