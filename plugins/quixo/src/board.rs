//! The Quixo board as two bitboards, and its geometry: cells, border, winning lines and
//! the slides that moves make, all as precomputed bit masks.
//!
//! A cell is `row * side + column`, row 0 at the top, and is bit `cell` of a `u32`;
//! 5x5 (25 cells) is the largest board. This file knows the board and its rules of
//! movement only: it must not know about tiers, ranking, turns or the plugin API.

/// The smallest side the module offers.
pub const MIN_SIDE: usize = 3;
/// The largest side the module offers (25 cells still fit a `u32`).
pub const MAX_SIDE: usize = 5;

/// Marks a (source, destination) pair that is not a move.
const NO_SLIDE: u16 = u16::MAX;

/// A board: the cells showing X and the cells showing O (disjoint bit sets).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Board {
    /// Cells showing X.
    pub x: u32,
    /// Cells showing O.
    pub o: u32,
}

impl Board {
    /// The cubes of `side` (`X` or `O`).
    #[inline(always)]
    pub fn of(self, side: Side) -> u32 {
        match side {
            Side::X => self.x,
            Side::O => self.o,
        }
    }

    /// The board with the two symbols swapped (used to treat O like X).
    #[inline(always)]
    pub fn swapped(self) -> Board {
        Board {
            x: self.o,
            o: self.x,
        }
    }
}

/// A player's symbol. X moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Side {
    /// The other symbol.
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }

    /// The character shown on the board.
    pub fn symbol(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }
}

/// What one move does: take the cube at `src`, push the cubes between `src` and `dst`
/// one step towards `src`, and put the mover's cube at `dst`. Its inverse (the undo
/// move) pushes them back and restores `src`.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    /// The cell the cube is taken from (on the border).
    pub src: u8,
    /// The end of the line it is pushed back in at (`!= src`).
    pub dst: u8,
    /// Bit of `src`.
    pub src_bit: u32,
    /// Bit of `dst`.
    pub dst_bit: u32,
    /// Cells outside the segment `src..=dst`, which the move leaves alone.
    keep: u32,
    /// Shift that moves a cube one step towards `src` (right shift, then left shift:
    /// one of the two is zero, so both directions need no branch).
    fwd_right: u32,
    fwd_left: u32,
    /// Cells that receive a pushed cube: the segment without `dst`.
    fwd_mask: u32,
    /// The inverse shift, one step towards `dst`.
    back_right: u32,
    back_left: u32,
    /// Cells that receive a cube pushed back: the segment without `src`.
    back_mask: u32,
}

impl Slide {
    /// The cells of one symbol after the move, before the mover's cube lands at `dst`.
    #[inline(always)]
    pub fn push(&self, bits: u32) -> u32 {
        (bits & self.keep) | (((bits >> self.fwd_right) << self.fwd_left) & self.fwd_mask)
    }

    /// The cells of one symbol before the move, without the cube taken from `src`.
    #[inline(always)]
    pub fn pull(&self, bits: u32) -> u32 {
        (bits & self.keep) | (((bits >> self.back_right) << self.back_left) & self.back_mask)
    }
}

/// A side length's cells, lines and moves.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Cells per row and column.
    pub side: usize,
    /// `side * side`.
    pub cells: usize,
    /// Every cell.
    pub full: u32,
    /// The border cells, where cubes may be taken.
    pub border: u32,
    /// Every move, grouped by source cell in increasing order.
    pub slides: Vec<Slide>,
    /// `(source bit, first, end)`: the moves from one border cell are `slides[first..end]`.
    pub by_source: Vec<(u32, u16, u16)>,
    /// Indices into `slides`, grouped by destination cell.
    pub by_dest_order: Vec<u16>,
    /// `(destination bit, first, end)`: the moves ending at one cell are
    /// `by_dest_order[first..end]`.
    pub by_dest: Vec<(u32, u16, u16)>,
    /// `slide_at[src * cells + dst]`: the index of that move in `slides`, or `NO_SLIDE`.
    slide_at: Vec<u16>,
    /// The first column: a row is full when a cell here and the `side - 1` to its right are.
    first_column: u32,
    /// The top row: a column is full when a cell here and the `side - 1` below it are.
    first_row: u32,
    /// The two long diagonals.
    diagonals: [u32; 2],
    /// For boards of at most 16 cells, one bit per set of cells saying whether it holds a
    /// line: one L1-resident load instead of about twenty shifts and masks, in the
    /// hottest check of the solve (every undo move tests its parent twice).
    line_bits: Vec<u64>,
}

impl Geometry {
    /// The geometry of a `side` x `side` board (`MIN_SIDE..=MAX_SIDE`).
    pub fn new(side: usize) -> Geometry {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&side), "side {side}");
        let n = side;
        let cells = n * n;
        let bit = |r: usize, c: usize| 1u32 << (r * n + c);
        let full = if cells == 32 {
            u32::MAX
        } else {
            (1u32 << cells) - 1
        };
        let mut border = 0;
        let mut first_column = 0;
        let mut first_row = 0;
        let mut diagonals = [0u32; 2];
        for i in 0..n {
            border |= bit(0, i) | bit(n - 1, i) | bit(i, 0) | bit(i, n - 1);
            first_column |= bit(i, 0);
            first_row |= bit(0, i);
            diagonals[0] |= bit(i, i);
            diagonals[1] |= bit(i, n - 1 - i);
        }
        let mut slides = Vec::new();
        let mut by_source = Vec::new();
        for s in 0..cells {
            if border & (1 << s) == 0 {
                continue;
            }
            let first = slides.len() as u16;
            let (r, c) = (s / n, s % n);
            // The row through `s` (step 1) and its column (step n), each with two ends.
            for (step, ends) in [(1usize, [r * n, r * n + n - 1]), (n, [c, (n - 1) * n + c])] {
                for e in ends {
                    if e != s {
                        slides.push(make_slide(s, e, step));
                    }
                }
            }
            by_source.push((1u32 << s, first, slides.len() as u16));
        }
        let mut by_dest_order = Vec::new();
        let mut by_dest = Vec::new();
        for e in 0..cells {
            let first = by_dest_order.len() as u16;
            for (i, sl) in slides.iter().enumerate() {
                if sl.dst as usize == e {
                    by_dest_order.push(i as u16);
                }
            }
            if by_dest_order.len() as u16 > first {
                by_dest.push((1u32 << e, first, by_dest_order.len() as u16));
            }
        }
        let mut g = Geometry {
            side,
            cells,
            full,
            border,
            slides: Vec::new(),
            by_source: Vec::new(),
            by_dest_order: Vec::new(),
            by_dest: Vec::new(),
            slide_at: Vec::new(),
            first_column,
            first_row,
            diagonals,
            line_bits: Vec::new(),
        };
        if cells <= 16 {
            let mut bits = vec![0u64; (1usize << cells).div_ceil(64)];
            for set in 0..1u32 << cells {
                if g.has_line_by_shifts(set) {
                    bits[(set >> 6) as usize] |= 1 << (set & 63);
                }
            }
            g.line_bits = bits;
        }
        let mut slide_at = vec![NO_SLIDE; cells * cells];
        for (i, sl) in slides.iter().enumerate() {
            slide_at[sl.src as usize * cells + sl.dst as usize] = i as u16;
        }
        g.slides = slides;
        g.by_source = by_source;
        g.by_dest_order = by_dest_order;
        g.by_dest = by_dest;
        g.slide_at = slide_at;
        g
    }

    /// Whether `bits` hold a whole row, column or long diagonal.
    #[inline(always)]
    pub fn has_line(&self, bits: u32) -> bool {
        match self.line_bits.get((bits >> 6) as usize) {
            Some(&word) => word >> (bits & 63) & 1 == 1,
            _ => self.has_line_by_shifts(bits),
        }
    }

    /// `has_line` computed from the bits: rows and columns by ANDing shifted copies.
    #[inline(always)]
    fn has_line_by_shifts(&self, bits: u32) -> bool {
        let mut rows = bits;
        let mut cols = bits;
        for k in 1..self.side {
            rows &= bits >> k;
            cols &= bits >> (k * self.side);
        }
        (rows & self.first_column) != 0
            || (cols & self.first_row) != 0
            || (bits & self.diagonals[0]) == self.diagonals[0]
            || (bits & self.diagonals[1]) == self.diagonals[1]
    }

    /// Whether the cells of `d` lie on at most two lines of slides together (rows,
    /// columns, or one of each): the cells that two moves can change.
    #[inline]
    pub fn within_two_lines(&self, d: u32) -> bool {
        let n = self.side;
        if d.count_ones() as usize > 2 * n {
            return false;
        }
        // The columns holding cells of `bits`, as `n` bits.
        let columns = |bits: u32| {
            (0..n).fold(0u32, |m, c| {
                m | (((bits & self.first_column << c) != 0) as u32) << c
            })
        };
        let rows = (0..n).fold(0u32, |m, r| {
            m | (((d & self.first_row << (n * r)) != 0) as u32) << r
        });
        if rows.count_ones() <= 2 || columns(d).count_ones() <= 2 {
            return true;
        }
        // A row and a column: without some row, the cells lie in one column.
        (0..n).any(|r| columns(d & !(self.first_row << (n * r))).count_ones() <= 1)
    }

    /// The number of moves the side to move has at most (every border cell free).
    pub fn max_moves(&self) -> usize {
        self.slides.len()
    }

    /// The name of `cell`: a column letter and a row number, `a1` at the bottom left.
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = (cell / self.side, cell % self.side);
        format!("{}{}", (b'a' + c as u8) as char, self.side - r)
    }

    /// The cell a name such as `b3` stands for (case-insensitive).
    pub fn parse_cell(&self, text: &str) -> Option<usize> {
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        let col = chars.next()?;
        let row: usize = chars.as_str().parse().ok()?;
        let c = (col as usize).checked_sub('a' as usize)?;
        if c >= self.side || row == 0 || row > self.side {
            return None;
        }
        Some((self.side - row) * self.side + c)
    }

    /// The move from `src` to `dst`, if there is one (an index into `slides`).
    #[inline]
    pub fn slide_index(&self, src: usize, dst: usize) -> Option<usize> {
        if src >= self.cells || dst >= self.cells {
            return None;
        }
        match self.slide_at[src * self.cells + dst] {
            NO_SLIDE => None,
            i => Some(i as usize),
        }
    }
}

/// The slide taking the cube at `s` and pushing it in at `e`, along a line of `step`.
fn make_slide(s: usize, e: usize, step: usize) -> Slide {
    let (lo, hi) = (s.min(e), s.max(e));
    let mut segment = 0u32;
    let mut c = lo;
    while c <= hi {
        segment |= 1 << c;
        c += step;
    }
    let (sb, eb) = (1u32 << s, 1u32 << e);
    let step = step as u32;
    // Cubes move one step towards `s`: down in index when `e` is above `s`.
    let (fwd_right, fwd_left, back_right, back_left) = if e > s {
        (step, 0, 0, step)
    } else {
        (0, step, step, 0)
    };
    Slide {
        src: s as u8,
        dst: e as u8,
        src_bit: sb,
        dst_bit: eb,
        keep: !segment,
        fwd_right,
        fwd_left,
        fwd_mask: segment & !eb,
        back_right,
        back_left,
        back_mask: segment & !sb,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds bits from a picture: rows from the top, `#` for a set cell.
    fn bits(g: &Geometry, rows: &[&str]) -> u32 {
        let mut b = 0;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    b |= 1 << (r * g.side + c);
                }
            }
        }
        b
    }

    #[test]
    fn move_counts_per_side() {
        // Corners give 2 moves, other border cells 3.
        assert_eq!(Geometry::new(3).slides.len(), 4 * 2 + 4 * 3);
        assert_eq!(Geometry::new(4).slides.len(), 4 * 2 + 8 * 3);
        assert_eq!(Geometry::new(5).slides.len(), 4 * 2 + 12 * 3);
        let g = Geometry::new(4);
        assert_eq!(g.border.count_ones(), 12);
        assert_eq!(g.by_source.len(), 12);
        assert_eq!(g.by_dest_order.len(), 32);
        // A corner ends a row and a column, each with 3 other cells to take; another
        // border cell ends only its perpendicular line, whose one other border cell is
        // its far end.
        let corner = g.by_dest.iter().find(|d| d.0 == 1).unwrap();
        assert_eq!(corner.2 - corner.1, 6);
        let edge = g.by_dest.iter().find(|d| d.0 == 2).unwrap();
        assert_eq!(edge.2 - edge.1, 1);
        assert_eq!(g.by_dest.len(), 12);
    }

    #[test]
    fn lines_are_rows_columns_and_long_diagonals() {
        let g = Geometry::new(4);
        assert!(g.has_line(bits(&g, &["....", "####", "....", "...."])));
        assert!(g.has_line(bits(&g, &["..#.", "..#.", "..#.", "..#."])));
        assert!(g.has_line(bits(&g, &["#...", ".#..", "..#.", "...#"])));
        assert!(g.has_line(bits(&g, &["...#", "..#.", ".#..", "#..."])));
        // Three in a row is not a line on 4x4; nor is a row wrapping into the next.
        assert!(!g.has_line(bits(&g, &["###.", "....", "....", "...."])));
        assert!(!g.has_line(bits(&g, &["..##", "##..", "....", "...."])));
        assert!(!g.has_line(bits(&g, &["#..#", "#..#", "#...", ".###"])));
        let g3 = Geometry::new(3);
        assert!(g3.has_line(bits(&g3, &["..#", ".#.", "#.."])));
        assert!(!g3.has_line(bits(&g3, &["##.", "..#", "#.."])));
        let g5 = Geometry::new(5);
        assert!(g5.has_line(bits(&g5, &[".....", ".....", ".....", ".....", "#####"])));
        assert!(!g5.has_line(bits(&g5, &["####.", "#....", "#....", "#....", "....."])));
    }

    #[test]
    fn slides_push_towards_the_source() {
        let g = Geometry::new(4);
        // Take a4 (top-left) and push in at d4: b4 c4 d4 move one step left.
        let i = g.slide_index(0, 3).unwrap();
        let sl = g.slides[i];
        let before = bits(&g, &[".#.#", "#...", "....", "...."]);
        let after = sl.push(before);
        assert_eq!(after, bits(&g, &["#.#.", "#...", "....", "...."]));
        // Pulling back restores everything but the taken cube.
        assert_eq!(sl.pull(after), before & !sl.src_bit);
        // Take d1 (bottom-right) and push in at d4: the column moves down.
        let i = g.slide_index(15, 3).unwrap();
        let sl = g.slides[i];
        let before = bits(&g, &["...#", "....", "...#", "...."]);
        assert_eq!(sl.push(before), bits(&g, &["....", "...#", "....", "...#"]));
        assert_eq!(g.parse_cell("a4"), Some(0));
        assert_eq!(g.parse_cell("D1"), Some(15));
        assert_eq!(g.parse_cell("e1"), None);
        assert_eq!(g.cell_name(6), "c3");
    }
}
