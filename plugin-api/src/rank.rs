//! Dense hashing of boards with fixed piece counts, for module writers.
//!
//! This plays the part of GamesmanClassic's generic hash and of the Whirly seed's
//! "ordered hids": a board of `cells` cells holding `counts[k]` pieces of kind `k + 1`
//! (the rest blank) ranks onto `0..size` with no gaps, so a tier whose positions are
//! such boards gets a dense hash. Kinds are ranked one after the other as combinations
//! of the cells the earlier kinds left free (colex order), which keeps both directions
//! at O(cells * kinds) with a table of binomials and no allocation.
//!
//! This file must not know about any game.

use std::fmt;

/// The most cells a board may have.
pub const MAX_CELLS: usize = 64;

/// `binomial(n, k)` for `n, k <= MAX_CELLS`, saturating at `u64::MAX`.
pub fn binomial(n: usize, k: usize) -> u64 {
    BINOMIALS.get(n, k)
}

struct Binomials([[u64; MAX_CELLS + 1]; MAX_CELLS + 1]);

impl Binomials {
    const fn build() -> Self {
        let mut t = [[0u64; MAX_CELLS + 1]; MAX_CELLS + 1];
        let mut n = 0;
        while n <= MAX_CELLS {
            t[n][0] = 1;
            let mut k = 1;
            while k <= n {
                t[n][k] = t[n - 1][k - 1].saturating_add(if k < n { t[n - 1][k] } else { 0 });
                k += 1;
            }
            n += 1;
        }
        Binomials(t)
    }

    #[inline]
    fn get(&self, n: usize, k: usize) -> u64 {
        if k > n || n > MAX_CELLS {
            0
        } else {
            self.0[n][k]
        }
    }
}

static BINOMIALS: Binomials = Binomials::build();

/// The rank of a `k`-subset given as strictly increasing `cells`, among all `k`-subsets
/// of `0..n`, in colex order: `sum C(cells[i], i + 1)`. Dense over `0..C(n, k)`.
#[inline]
pub fn rank_combination(cells: &[usize]) -> u64 {
    cells
        .iter()
        .enumerate()
        .map(|(i, &c)| binomial(c, i + 1))
        .sum()
}

/// Inverse of `rank_combination`: writes the `out.len()` increasing cells of the subset
/// with rank `index` (which must be below `C(n, out.len())` for the board size `n`).
#[inline]
pub fn unrank_combination(mut index: u64, n: usize, out: &mut [usize]) {
    let mut hi = n;
    for i in (0..out.len()).rev() {
        // The largest c < hi with C(c, i + 1) <= index.
        let mut c = hi - 1;
        while binomial(c, i + 1) > index {
            c -= 1;
        }
        out[i] = c;
        index -= binomial(c, i + 1);
        hi = c;
    }
}

/// Why a `Ranker` cannot be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RankError {
    /// More than `MAX_CELLS` cells.
    TooManyCells(usize),
    /// The pieces do not fit on the board.
    TooManyPieces {
        /// Pieces asked for.
        pieces: usize,
        /// Cells available.
        cells: usize,
    },
    /// The number of boards does not fit in 64 bits.
    TooLarge,
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankError::TooManyCells(n) => write!(
                f,
                "{n} cells is more than the {MAX_CELLS} a ranker supports"
            ),
            RankError::TooManyPieces { pieces, cells } => {
                write!(f, "{pieces} pieces do not fit on {cells} cells")
            }
            RankError::TooLarge => write!(f, "the number of boards does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for RankError {}

/// Ranks boards of `cells` cells with fixed numbers of pieces of each kind.
///
/// A board is a slice of kind codes: `0` blank, `1..=counts.len()` the piece kinds.
///
/// Tic-tac-toe boards with two X (kind 1) and one O (kind 2) are numbered `0..252`,
/// one number per board, both ways:
///
/// ```
/// use gamesman_plugin_api::rank::Ranker;
/// let ranker = Ranker::new(9, &[2, 1]).unwrap();
/// assert_eq!(ranker.size(), 36 * 7);
/// let board = [1, 0, 2, 0, 1, 0, 0, 0, 0];
/// let index = ranker.rank(&board);
/// let mut back = [0u8; 9];
/// ranker.unrank(index, &mut back);
/// assert_eq!(back, board);
/// assert!(Ranker::new(3, &[2, 2]).is_err()); // four pieces do not fit on three cells
/// ```
#[derive(Clone, Debug)]
pub struct Ranker {
    cells: usize,
    counts: Vec<usize>,
    /// `radix[k]`: the number of placements of kinds `k + 1..` on what kinds `..=k`
    /// leave free; the weight of kind `k`'s combination rank.
    radix: Vec<u64>,
    /// `free[k]`: cells left free for kind `k` by the kinds before it.
    free: Vec<usize>,
    size: u64,
}

impl Ranker {
    /// A ranker for `cells` cells holding `counts[k]` pieces of kind `k + 1`.
    pub fn new(cells: usize, counts: &[usize]) -> Result<Ranker, RankError> {
        if cells > MAX_CELLS {
            return Err(RankError::TooManyCells(cells));
        }
        let pieces: usize = counts.iter().sum();
        if pieces > cells {
            return Err(RankError::TooManyPieces { pieces, cells });
        }
        let mut free = Vec::with_capacity(counts.len());
        let mut left = cells;
        for &c in counts {
            free.push(left);
            left -= c;
        }
        let mut radix = vec![1u64; counts.len()];
        let mut size: u128 = 1;
        for k in (0..counts.len()).rev() {
            radix[k] = u64::try_from(size).map_err(|_| RankError::TooLarge)?;
            size *= binomial(free[k], counts[k]) as u128;
            if size > u64::MAX as u128 {
                return Err(RankError::TooLarge);
            }
        }
        Ok(Ranker {
            cells,
            counts: counts.to_vec(),
            radix,
            free,
            size: size as u64,
        })
    }

    /// The number of distinct boards: the ranks are exactly `0..size`.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The piece counts per kind.
    pub fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// The rank of `board`, whose piece counts must match this ranker's (checked in
    /// debug builds).
    pub fn rank(&self, board: &[u8]) -> u64 {
        debug_assert_eq!(board.len(), self.cells);
        let mut rank = 0u64;
        let mut seen = [0usize; 16];
        let kinds = self.counts.len();
        debug_assert!(kinds <= 16);
        // For each kind, its cells' positions among the cells not taken by earlier
        // kinds, ranked as a combination. `compact[k]` counts, while scanning, how many
        // cells are still free for kind k before the current cell.
        let mut compact = [0usize; 16];
        for &b in board.iter() {
            let b = b as usize;
            for k in 0..kinds {
                if b == k + 1 {
                    seen[k] += 1;
                    rank += binomial(compact[k], seen[k]) * self.radix[k];
                    compact[k] += 1;
                    break;
                }
                // Cells of later kinds and blanks are free for kind k.
                compact[k] += 1;
            }
        }
        debug_assert!(seen[..kinds].iter().zip(&self.counts).all(|(a, b)| a == b));
        rank
    }

    /// Writes the board of rank `index` (below `size`) into `board`.
    pub fn unrank(&self, mut index: u64, board: &mut [u8]) {
        debug_assert!(index < self.size);
        debug_assert_eq!(board.len(), self.cells);
        board.fill(0);
        let mut cells = [0usize; MAX_CELLS];
        for k in 0..self.counts.len() {
            let r = index / self.radix[k];
            index %= self.radix[k];
            let c = self.counts[k];
            unrank_combination(r, self.free[k], &mut cells[..c]);
            // Map positions among the free cells back to board cells.
            let mut free_seen = 0usize;
            let mut next = 0usize;
            for slot in board.iter_mut() {
                if *slot != 0 {
                    continue;
                }
                if next < c && cells[next] == free_seen {
                    *slot = (k + 1) as u8;
                    next += 1;
                }
                free_seen += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(9, 4), 126);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn combinations_round_trip_densely() {
        let n = 10;
        for k in 0..=n {
            let total = binomial(n, k);
            let mut out = vec![0usize; k];
            for r in 0..total {
                unrank_combination(r, n, &mut out);
                assert!(out.windows(2).all(|w| w[0] < w[1]));
                assert!(out.iter().all(|&c| c < n));
                assert_eq!(rank_combination(&out), r);
            }
        }
    }

    #[test]
    fn boards_round_trip_densely() {
        // 3x3 boards with 3 X and 2 O: 9!/(3!2!4!) = 1260.
        let r = Ranker::new(9, &[3, 2]).unwrap();
        assert_eq!(r.size(), 1260);
        let mut seen = std::collections::HashSet::new();
        let mut b = [0u8; 9];
        for i in 0..r.size() {
            r.unrank(i, &mut b);
            assert_eq!(b.iter().filter(|&&x| x == 1).count(), 3);
            assert_eq!(b.iter().filter(|&&x| x == 2).count(), 2);
            assert!(seen.insert(b));
            assert_eq!(r.rank(&b), i);
        }
    }

    #[test]
    fn three_kinds_and_limits() {
        let r = Ranker::new(12, &[2, 3, 1]).unwrap();
        // 12!/(2!3!1!6!) = 55440
        assert_eq!(r.size(), 55440);
        let mut b = [0u8; 12];
        for i in (0..r.size()).step_by(7) {
            r.unrank(i, &mut b);
            assert_eq!(r.rank(&b), i);
        }
        assert_eq!(
            Ranker::new(3, &[2, 2]).unwrap_err(),
            RankError::TooManyPieces {
                pieces: 4,
                cells: 3
            }
        );
        assert!(matches!(
            Ranker::new(65, &[1]),
            Err(RankError::TooManyCells(65))
        ));
        assert!(Ranker::new(64, &[21, 21, 21]).is_err());
        assert_eq!(Ranker::new(5, &[]).unwrap().size(), 1);
    }
}
