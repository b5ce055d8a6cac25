//! Dodgem's rules on a board held as two bitmasks: where the cars start, where they may
//! drive, and when the game is over.
//!
//! Cells are numbered row by row from the bottom: cell `row * n + column`, row 0 the
//! bottom row, column 0 the left column. Blue (the first player) starts on the left
//! column, drives right, up or down, and leaves off the right edge; Red starts on the
//! bottom row, drives up, left or right, and leaves off the top edge.
//!
//! This file must not know about tiers, ranking or text.

/// The smallest board side offered.
pub const MIN_SIZE: usize = 3;
/// The largest board side the bitmasks and move lists are built for.
pub const MAX_SIZE: usize = 8;

/// A player's colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The first player: drives right (forward), up or down.
    Blue,
    /// The second player: drives up (forward), left or right.
    Red,
}

impl Side {
    /// The opponent.
    pub const fn other(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }

    /// The letter the board texts use for this side's cars.
    pub const fn letter(self) -> char {
        match self {
            Side::Blue => 'B',
            Side::Red => 'R',
        }
    }

    /// The side's name.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Blue => "Blue",
            Side::Red => "Red",
        }
    }
}

/// Where a car goes: a cell, or off the board (its forward step from the exit edge).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dest {
    /// Onto this cell (which must be empty).
    Cell(usize),
    /// Off the board, out of the game.
    Off,
}

/// A position: both sides' cars and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Blue's cars, one bit per cell.
    pub blue: u64,
    /// Red's cars, one bit per cell.
    pub red: u64,
    /// Whose turn it is.
    pub to_move: Side,
}

impl Board {
    /// The cars of `side`.
    pub const fn cars(&self, side: Side) -> u64 {
        match side {
            Side::Blue => self.blue,
            Side::Red => self.red,
        }
    }

    /// Every occupied cell.
    pub const fn occupied(&self) -> u64 {
        self.blue | self.red
    }
}

/// How a position stands for the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The game goes on.
    Going,
    /// The opponent drove their last car off: the player to move has lost.
    OpponentEscaped,
    /// The player to move has no legal move: the opponent blocked them in, and a
    /// player who leaves the other no move loses, so the player to move has won.
    Stuck,
}

/// The board of one size, with each cell's steps for both sides worked out once.
#[derive(Clone, Debug)]
pub struct Geometry {
    n: usize,
    /// `steps[side][cell]`: where a car of that side on that cell may go, at most
    /// three places (forward first, then the two sideways steps).
    steps: [Vec<Vec<Dest>>; 2],
}

impl Geometry {
    /// The board of side `n` (`MIN_SIZE..=MAX_SIZE`).
    pub fn new(n: usize) -> Result<Geometry, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(format!(
                "a Dodgem board has a side of {MIN_SIZE} to {MAX_SIZE}, not {n}"
            ));
        }
        let cells = n * n;
        let (row, col) = (|cell: usize| cell / n, |cell: usize| cell % n);
        // Blue: right (forward, off the right edge), up, down.
        let blue = (0..cells).map(|cell| {
            let mut to = vec![if col(cell) + 1 < n {
                Dest::Cell(cell + 1)
            } else {
                Dest::Off
            }];
            if row(cell) + 1 < n {
                to.push(Dest::Cell(cell + n));
            }
            if row(cell) > 0 {
                to.push(Dest::Cell(cell - n));
            }
            to
        });
        // Red: up (forward, off the top edge), left, right.
        let red = (0..cells).map(|cell| {
            let mut to = vec![if row(cell) + 1 < n {
                Dest::Cell(cell + n)
            } else {
                Dest::Off
            }];
            if col(cell) > 0 {
                to.push(Dest::Cell(cell - 1));
            }
            if col(cell) + 1 < n {
                to.push(Dest::Cell(cell + 1));
            }
            to
        });
        let steps = [blue.collect(), red.collect()];
        Ok(Geometry { n, steps })
    }

    /// The side of the board.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.n * self.n
    }

    /// Cars per side at the start (`n - 1`).
    pub fn cars(&self) -> usize {
        self.n - 1
    }

    /// The most moves a position can have: three steps for each of `n - 1` cars.
    pub fn max_moves(&self) -> usize {
        3 * self.cars()
    }

    /// The starting position: Blue on the left column and Red on the bottom row, the
    /// bottom-left corner empty, Blue to move.
    pub fn start(&self) -> Board {
        let n = self.n;
        let blue = (1..n).fold(0u64, |m, row| m | 1 << (row * n));
        let red = (1..n).fold(0u64, |m, col| m | 1 << col);
        Board {
            blue,
            red,
            to_move: Side::Blue,
        }
    }

    /// Calls `f(from, dest)` for every legal move of the side to move: a car steps onto
    /// an adjacent empty cell in one of its three directions, or leaves the board by a
    /// forward step from its exit edge.
    #[inline]
    pub fn for_each_move(&self, b: &Board, mut f: impl FnMut(usize, Dest)) {
        let side = b.to_move as usize;
        let occupied = b.occupied();
        let mut cars = b.cars(b.to_move);
        while cars != 0 {
            let from = cars.trailing_zeros() as usize;
            cars &= cars - 1;
            for &dest in &self.steps[side][from] {
                match dest {
                    Dest::Cell(to) if occupied >> to & 1 == 1 => {}
                    _ => f(from, dest),
                }
            }
        }
    }

    /// Whether `from -> dest` is a legal move at `b`.
    pub fn is_move(&self, b: &Board, from: usize, dest: Dest) -> bool {
        let mut found = false;
        self.for_each_move(b, |f, d| found |= f == from && d == dest);
        found
    }

    /// The position after the side to move drives its car on `from` to `dest`.
    #[inline]
    pub fn apply(&self, b: &Board, from: usize, dest: Dest) -> Board {
        let add = match dest {
            Dest::Cell(to) => 1u64 << to,
            Dest::Off => 0,
        };
        let moved = b.cars(b.to_move) & !(1u64 << from) | add;
        let (blue, red) = match b.to_move {
            Side::Blue => (moved, b.red),
            Side::Red => (b.blue, moved),
        };
        Board {
            blue,
            red,
            to_move: b.to_move.other(),
        }
    }

    /// Whether the game is over at `b`, and how. The first side to drive all its cars
    /// off wins at once; a side left without a move on its turn wins too (whoever
    /// blocks the other in completely loses).
    pub fn outcome(&self, b: &Board) -> Outcome {
        if b.cars(b.to_move.other()) == 0 {
            return Outcome::OpponentEscaped;
        }
        let mut any = false;
        self.for_each_move(b, |_, _| any = true);
        if any {
            Outcome::Going
        } else {
            Outcome::Stuck
        }
    }

    /// The letter of a column (`a` is the left column).
    pub fn column_letter(col: usize) -> char {
        (b'a' + col as u8) as char
    }

    /// A cell's name: its column letter and row number from the bottom (`a1` is the
    /// bottom-left corner).
    pub fn cell_name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            Self::column_letter(cell % self.n),
            cell / self.n + 1
        )
    }

    /// The cell named `name` (`a1` ... ), case-insensitive.
    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        let mut chars = name.chars();
        let col = chars.next()?.to_ascii_lowercase();
        let row: usize = chars.as_str().parse().ok()?;
        let col = (col as usize).checked_sub('a' as usize)?;
        (col < self.n && (1..=self.n).contains(&row)).then(|| (row - 1) * self.n + col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_first_moves_on_3x3() {
        let g = Geometry::new(3).unwrap();
        let b = g.start();
        // Blue on a2 (cell 3) and a3 (cell 6); Red on b1 (1) and c1 (2).
        assert_eq!(b.blue, 1 << 3 | 1 << 6);
        assert_eq!(b.red, 1 << 1 | 1 << 2);
        let mut moves = Vec::new();
        g.for_each_move(&b, |f, d| moves.push((g.cell_name(f), d)));
        // a2 right to b2 or down to a1; a3 right to b3 (up is off the side edge).
        assert_eq!(
            moves,
            [
                ("a2".to_string(), Dest::Cell(4)),
                ("a2".to_string(), Dest::Cell(0)),
                ("a3".to_string(), Dest::Cell(7)),
            ]
        );
        assert_eq!(g.parse_cell("C3"), Some(8));
        assert_eq!(g.parse_cell("d1"), None);
        assert_eq!(g.parse_cell("a0"), None);
    }
}
