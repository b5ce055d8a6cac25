//! The pyramid: its cells, which cells hold up which, its straight lines, and the
//! scores of a finished (or partial) board under the three scoring rules.
//!
//! Cells are numbered row by row from the bottom, left to right: on a base of 5 the
//! bottom row is 0-4, the next 5-8, then 9-11, 12-13 and the top 14 (players see these
//! plus one, as GamesmanClassic shows them). Row `r` has `base - r` cells; cell `(r, c)`
//! for `r > 0` rests on `(r - 1, c)` and `(r - 1, c + 1)`. This file knows no ranking
//! and no plugin API.

/// The largest base offered (21 cells, so a board fits a `u32` mask per colour).
pub const MAX_BASE: usize = 6;
/// The smallest base offered.
pub const MIN_BASE: usize = 2;

/// How a finished pyramid is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Each maximal run of `n >= 3` own blocks on a line scores `3 + 2 (n - 3)` points.
    Points,
    /// The length of the longest run of own blocks on any line.
    Longest,
    /// Each run of `n >= 3` counts as `n - 2` threes in a row.
    Threes,
}

impl Rule {
    /// The word used in variant names and on the board (`points`, `longest`, `threes`).
    pub fn word(self) -> &'static str {
        match self {
            Rule::Points => "points",
            Rule::Longest => "longest",
            Rule::Threes => "threes",
        }
    }
}

/// One side's tally of runs on a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Points: `3 + 2 (n - 3)` for each maximal run of `n >= 3`.
    pub points: i64,
    /// The longest run on any line (0 without blocks).
    pub longest: i64,
    /// `n - 2` for each maximal run of `n >= 3`.
    pub threes: i64,
}

impl Tally {
    /// The number the rule compares.
    pub fn measure(&self, rule: Rule) -> i64 {
        match rule {
            Rule::Points => self.points,
            Rule::Longest => self.longest,
            Rule::Threes => self.threes,
        }
    }
}

/// The shape of a pyramid with a given base.
#[derive(Clone, Debug)]
pub struct Pyramid {
    /// Cells on the bottom row.
    pub base: usize,
    /// All cells, `base (base + 1) / 2`.
    pub cells: usize,
    /// `(row, column)` of each cell.
    pub coords: Vec<(usize, usize)>,
    /// For each cell, the mask of the two cells it rests on (0 on the bottom row).
    pub below: Vec<u32>,
    /// For each cell, the mask of the cells resting on it.
    pub above: Vec<u32>,
    /// Every straight line of the pyramid (rows and both diagonals), as cells in order.
    pub lines: Vec<Vec<usize>>,
}

impl Pyramid {
    /// The pyramid with `base` cells on the bottom row (`MIN_BASE..=MAX_BASE`).
    pub fn new(base: usize) -> Result<Pyramid, String> {
        if !(MIN_BASE..=MAX_BASE).contains(&base) {
            return Err(format!(
                "a base of {base} is not offered: use {MIN_BASE} to {MAX_BASE}"
            ));
        }
        let mut coords = Vec::new();
        for r in 0..base {
            for c in 0..base - r {
                coords.push((r, c));
            }
        }
        let cells = coords.len();
        let index = |r: usize, c: usize| -> usize { r * base - r * (r.saturating_sub(1)) / 2 + c };
        let mut below = vec![0u32; cells];
        let mut above = vec![0u32; cells];
        for (k, &(r, c)) in coords.iter().enumerate() {
            debug_assert_eq!(index(r, c), k);
            if r > 0 {
                for s in [index(r - 1, c), index(r - 1, c + 1)] {
                    below[k] |= 1 << s;
                    above[s] |= 1 << k;
                }
            }
        }
        let mut lines = Vec::new();
        // Rows.
        for r in 0..base {
            lines.push((0..base - r).map(|c| index(r, c)).collect());
        }
        // Diagonals leaning right (row up, same column) and left (row up, column - 1):
        // every such line starts on the bottom row.
        for c in 0..base {
            lines.push((0..base - c).map(|r| index(r, c)).collect());
            lines.push((0..=c).map(|r| index(r, c - r)).collect());
        }
        Ok(Pyramid {
            base,
            cells,
            coords,
            below,
            above,
            lines,
        })
    }

    /// The mask of every cell.
    pub fn full(&self) -> u32 {
        (1u32 << self.cells) - 1
    }

    /// The empty cells a block can go on: the bottom row, or on two filled cells.
    pub fn placeable(&self, occupied: u32) -> u32 {
        let mut out = 0;
        for k in 0..self.cells {
            if occupied >> k & 1 == 0 && self.below[k] & occupied == self.below[k] {
                out |= 1 << k;
            }
        }
        out
    }

    /// The blocks of `mine` that nothing rests on (the ones a last move could have put).
    pub fn uncovered(&self, mine: u32, occupied: u32) -> u32 {
        let mut out = 0;
        let mut m = mine;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.above[k] & occupied == 0 {
                out |= 1 << k;
            }
        }
        out
    }

    /// Whether every block of `occupied` rests on two blocks (or the ground).
    pub fn is_stable(&self, occupied: u32) -> bool {
        (0..self.cells).all(|k| occupied >> k & 1 == 0 || self.below[k] & occupied == self.below[k])
    }

    /// The runs of the blocks in `mine`, tallied.
    pub fn tally(&self, mine: u32) -> Tally {
        let mut t = Tally::default();
        for line in &self.lines {
            let mut run = 0i64;
            // A sentinel empty cell after the line closes the last run.
            for bit in line.iter().map(|&k| mine >> k & 1).chain([0]) {
                if bit == 1 {
                    run += 1;
                    continue;
                }
                t.longest = t.longest.max(run);
                if run >= 3 {
                    t.points += 2 * run - 3;
                    t.threes += run - 2;
                }
                run = 0;
            }
        }
        t
    }

    /// The cell's number as players type it (1-based).
    pub fn cell_name(&self, k: usize) -> String {
        (k + 1).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_five_shape() {
        let p = Pyramid::new(5).unwrap();
        assert_eq!(p.cells, 15);
        assert_eq!(p.lines.len(), 15);
        // Cell 5 (row 1, column 0) rests on 0 and 1; the top rests on 12 and 13.
        assert_eq!(p.below[5], 0b11);
        assert_eq!(p.below[14], 1 << 12 | 1 << 13);
        assert_eq!(p.placeable(0), 0b11111);
        assert_eq!(p.placeable(0b11), 0b11100 | 1 << 5);
        // The left edge runs 0, 5, 9, 12, 14; the right edge 4, 8, 11, 13, 14.
        assert!(p.lines.contains(&vec![0, 5, 9, 12, 14]));
        assert!(p.lines.contains(&vec![4, 8, 11, 13, 14]));
    }

    #[test]
    fn runs_score_as_the_rules_say() {
        let p = Pyramid::new(5).unwrap();
        // Bottom row of five: one run of 5 = 7 points, three threes, longest 5.
        let t = p.tally(0b11111);
        assert_eq!((t.points, t.longest, t.threes), (7, 5, 3));
        // Three in a row plus a separate pair: 3 points.
        let t = p.tally(0b10111);
        assert_eq!((t.points, t.longest, t.threes), (3, 3, 1));
        // A left-leaning diagonal 4, 8, 11 (3 blocks): 3 points.
        let t = p.tally(1 << 4 | 1 << 8 | 1 << 11);
        assert_eq!((t.points, t.longest, t.threes), (3, 3, 1));
        assert_eq!(p.tally(0).longest, 0);
    }

    #[test]
    fn bases_out_of_range_are_refused() {
        assert!(Pyramid::new(1).is_err());
        assert!(Pyramid::new(7).is_err());
    }
}
