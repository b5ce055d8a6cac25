//! Othello boards as two bitmasks (black discs, white discs) and the rules on them:
//! where a player may play, what a move flips, and when the game is over.
//!
//! Cells are numbered row by row from the top-left corner (`a1`), so cell
//! `row * cols + col`. This file must not know about positions, ranking, tiers or the
//! plugin API.

/// The most cells a board may have (one bit per cell in a `u32`).
pub const MAX_CELLS: usize = 32;
/// No disc.
pub const EMPTY: u8 = 0;
/// A black disc (player one, moves first).
pub const BLACK: u8 = 1;
/// A white disc (player two).
pub const WHITE: u8 = 2;

/// The eight directions as (row step, column step).
const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The other colour.
#[inline]
pub fn other(colour: u8) -> u8 {
    3 - colour
}

/// A board: the cells holding black discs and those holding white discs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    /// Bit `c` set: a black disc on cell `c`.
    pub black: u32,
    /// Bit `c` set: a white disc on cell `c`.
    pub white: u32,
}

impl Board {
    /// The cells holding discs of `colour`.
    #[inline]
    pub fn discs(&self, colour: u8) -> u32 {
        if colour == BLACK {
            self.black
        } else {
            self.white
        }
    }

    /// The cells holding a disc of either colour.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.black | self.white
    }

    /// What is on `cell`: `EMPTY`, `BLACK` or `WHITE`.
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        if self.black >> cell & 1 == 1 {
            BLACK
        } else if self.white >> cell & 1 == 1 {
            WHITE
        } else {
            EMPTY
        }
    }

    /// Puts `what` (`EMPTY`, `BLACK` or `WHITE`) on `cell`.
    #[inline]
    pub fn set(&mut self, cell: usize, what: u8) {
        let bit = 1u32 << cell;
        self.black &= !bit;
        self.white &= !bit;
        match what {
            BLACK => self.black |= bit,
            WHITE => self.white |= bit,
            _ => {}
        }
    }

    /// Turns every disc in `cells` to `colour` (the cells must hold discs).
    #[inline]
    pub fn recolour(&mut self, cells: u32, colour: u8) {
        if colour == BLACK {
            self.white &= !cells;
            self.black |= cells;
        } else {
            self.black &= !cells;
            self.white |= cells;
        }
    }

    /// Black discs minus white discs (the WinBy seed's margin, player one's view).
    #[inline]
    pub fn margin(&self) -> i64 {
        self.black.count_ones() as i64 - self.white.count_ones() as i64
    }
}

/// A board shape: its size, the rays from every cell, and the centre square.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Columns (`a`, `b`, ...).
    pub cols: usize,
    /// Rows (`1`, `2`, ...), numbered from the top.
    pub rows: usize,
    /// `rays[cell][dir]`: the cells from `cell` outward in direction `dir`, nearest
    /// first (precomputed so the hot paths do no bounds arithmetic).
    rays: Vec<[Vec<u8>; 8]>,
    /// The four cells of the starting square, always occupied.
    pub centre: [usize; 4],
}

impl Geometry {
    /// The geometry of a `cols` by `rows` board (both at least 2, at most 32 cells).
    pub fn new(cols: usize, rows: usize) -> Result<Geometry, String> {
        if cols < 2 || rows < 2 || cols > 26 || cols * rows > MAX_CELLS {
            return Err(format!(
                "a {cols}x{rows} board is not supported (2 to 26 columns, at most {MAX_CELLS} cells)"
            ));
        }
        let mut rays = Vec::with_capacity(cols * rows);
        for r in 0..rows as isize {
            for c in 0..cols as isize {
                let mut cell_rays: [Vec<u8>; 8] = Default::default();
                for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                    let (mut rr, mut cc) = (r + dr, c + dc);
                    while rr >= 0 && cc >= 0 && rr < rows as isize && cc < cols as isize {
                        cell_rays[d].push((rr as usize * cols + cc as usize) as u8);
                        rr += dr;
                        cc += dc;
                    }
                }
                rays.push(cell_rays);
            }
        }
        // The upper-left of the two middle rows/columns when a side is odd.
        let (r0, c0) = (rows / 2 - 1, cols / 2 - 1);
        let at = |r: usize, c: usize| r * cols + c;
        Ok(Geometry {
            cols,
            rows,
            rays,
            centre: [
                at(r0, c0),
                at(r0, c0 + 1),
                at(r0 + 1, c0),
                at(r0 + 1, c0 + 1),
            ],
        })
    }

    /// The number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cols * self.rows
    }

    /// The cells from `cell` outward in direction `dir` (0..8), nearest first.
    #[inline]
    pub fn ray(&self, cell: usize, dir: usize) -> &[u8] {
        &self.rays[cell][dir]
    }

    /// The starting board: the centre square with white on the top-left and
    /// bottom-right cells and black on the other two, as on the 8x8 board (d4 white).
    pub fn start(&self) -> Board {
        let mut b = Board::default();
        b.set(self.centre[0], WHITE);
        b.set(self.centre[1], BLACK);
        b.set(self.centre[2], BLACK);
        b.set(self.centre[3], WHITE);
        b
    }

    /// The opponent discs that `mover` would flip by playing on the empty `cell`
    /// (zero when the move is not legal).
    #[inline]
    pub fn flips(&self, b: &Board, mover: u8, cell: usize) -> u32 {
        let own = b.discs(mover);
        let opp = b.discs(other(mover));
        let mut all = 0u32;
        for ray in &self.rays[cell] {
            let mut line = 0u32;
            for &x in ray {
                let bit = 1u32 << x;
                if opp & bit != 0 {
                    line |= bit;
                } else {
                    // An own disc closes the line; an empty cell (or edge) spoils it.
                    if own & bit != 0 {
                        all |= line;
                    }
                    break;
                }
            }
        }
        all
    }

    /// The cells where `mover` may play (each flips at least one disc).
    pub fn legal(&self, b: &Board, mover: u8) -> u32 {
        let mut free = !b.occupied() & self.full_mask();
        let mut out = 0u32;
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            if self.flips(b, mover, cell) != 0 {
                out |= 1 << cell;
            }
        }
        out
    }

    /// Whether `mover` has a legal move (stops at the first one found).
    pub fn has_move(&self, b: &Board, mover: u8) -> bool {
        let mut free = !b.occupied() & self.full_mask();
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            if self.flips(b, mover, cell) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether the game is over: neither player can move.
    pub fn is_over(&self, b: &Board) -> bool {
        !self.has_move(b, BLACK) && !self.has_move(b, WHITE)
    }

    /// The board after `mover` plays on `cell`, flipping `flipped`.
    #[inline]
    pub fn place(&self, b: &Board, mover: u8, cell: usize, flipped: u32) -> Board {
        let mut next = *b;
        next.recolour(flipped, mover);
        next.set(cell, mover);
        next
    }

    /// A mask with one bit per cell of the board.
    #[inline]
    pub fn full_mask(&self) -> u32 {
        if self.cells() == 32 {
            u32::MAX
        } else {
            (1u32 << self.cells()) - 1
        }
    }

    /// The name of `cell`: column letter then row number (`c2`).
    pub fn cell_name(&self, cell: usize) -> String {
        let (r, c) = (cell / self.cols, cell % self.cols);
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// The cell named `text` (`c2`, case-insensitive), if it is on the board.
    pub fn parse_cell(&self, text: &str) -> Option<usize> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let col = chars.next()?;
        if !col.is_ascii_lowercase() {
            return None;
        }
        let c = (col as u8 - b'a') as usize;
        let r: usize = chars.as_str().parse().ok()?;
        if c >= self.cols || r == 0 || r > self.rows {
            return None;
        }
        Some((r - 1) * self.cols + c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_four_black_moves_on_4x4() {
        let g = Geometry::new(4, 4).unwrap();
        let b = g.start();
        assert_eq!(g.cell_name(g.centre[0]), "b2");
        assert_eq!(b.get(5), WHITE);
        assert_eq!(b.get(6), BLACK);
        let legal = g.legal(&b, BLACK);
        let names: Vec<String> = (0..16)
            .filter(|c| legal >> c & 1 == 1)
            .map(|c| g.cell_name(c))
            .collect();
        assert_eq!(names, ["b1", "a2", "d3", "c4"]);
        // b1 flips b2 (white) against b3 (black).
        assert_eq!(g.flips(&b, BLACK, 1), 1 << 5);
        assert_eq!(g.parse_cell("C2"), Some(6));
        assert_eq!(g.parse_cell("e1"), None);
        assert!(!g.is_over(&b));
    }
}
