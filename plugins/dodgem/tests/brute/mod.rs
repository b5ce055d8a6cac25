//! An independent Dodgem solver, written from the rules alone for checking the module
//! and the host: its own board (a grid of letters, row 0 at the top), its own move
//! generator, an explicit graph of every position reachable from the start, and a
//! plain retrograde analysis over it (win, lose or draw, with remoteness). It shares
//! no code with the module.

use std::collections::{HashMap, VecDeque};

/// A position: `grid[row][col]` is `b'B'`, `b'R'` or `b'-'`, row 0 the top row;
/// `turn` is `b'B'` or `b'R'`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct State {
    pub grid: Vec<Vec<u8>>,
    pub turn: u8,
}

/// A solved value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Val {
    Win,
    Lose,
    Draw,
}

impl State {
    /// The start: Blue's n-1 cars on the left column above the bottom-left corner,
    /// Red's n-1 cars on the bottom row right of it, Blue to move.
    pub fn start(n: usize) -> State {
        let mut grid = vec![vec![b'-'; n]; n];
        for row in grid.iter_mut().take(n - 1) {
            row[0] = b'B';
        }
        for cell in grid[n - 1].iter_mut().skip(1) {
            *cell = b'R';
        }
        State { grid, turn: b'B' }
    }

    fn n(&self) -> usize {
        self.grid.len()
    }

    pub fn count(&self, who: u8) -> usize {
        self.grid.iter().flatten().filter(|&&c| c == who).count()
    }

    /// The one-line text the module accepts: rows from the top, `:`, side to move.
    pub fn text(&self) -> String {
        let rows: Vec<String> = self
            .grid
            .iter()
            .map(|r| String::from_utf8(r.clone()).unwrap())
            .collect();
        format!("{}:{}", rows.join("/"), self.turn as char)
    }

    /// Every position one move away. Blue steps right (forward), up or down; Red steps
    /// up (forward), left or right; only onto empty cells; off the board only forwards.
    pub fn moves(&self) -> Vec<State> {
        let n = self.n() as isize;
        let me = self.turn;
        let (forward, sideways): ((isize, isize), [(isize, isize); 2]) = if me == b'B' {
            ((0, 1), [(-1, 0), (1, 0)])
        } else {
            ((-1, 0), [(0, -1), (0, 1)])
        };
        let mut out = Vec::new();
        for r in 0..n {
            for c in 0..n {
                if self.grid[r as usize][c as usize] != me {
                    continue;
                }
                for (k, &(dr, dc)) in std::iter::once(&forward).chain(&sideways).enumerate() {
                    let (tr, tc) = (r + dr, c + dc);
                    let inside = (0..n).contains(&tr) && (0..n).contains(&tc);
                    let mut next = self.clone();
                    next.grid[r as usize][c as usize] = b'-';
                    next.turn = if me == b'B' { b'R' } else { b'B' };
                    if inside {
                        if self.grid[tr as usize][tc as usize] != b'-' {
                            continue;
                        }
                        next.grid[tr as usize][tc as usize] = me;
                    } else if k != 0 {
                        continue; // sideways off the board is not a move
                    }
                    out.push(next);
                }
            }
        }
        out
    }

    /// The value of a finished game for the player to move: the opponent (who just
    /// moved) has no cars left, so they got all off first; or the player to move has
    /// no move, and whoever leaves the other no move loses. `None` while play goes on.
    pub fn terminal(&self) -> Option<Val> {
        let other = if self.turn == b'B' { b'R' } else { b'B' };
        if self.count(other) == 0 {
            Some(Val::Lose)
        } else if self.moves().is_empty() {
            Some(Val::Win)
        } else {
            None
        }
    }
}

/// The solved graph of every position reachable from the start.
pub struct Solved {
    pub states: Vec<State>,
    pub index: HashMap<State, usize>,
    pub children: Vec<Vec<usize>>,
    pub value: Vec<Val>,
    /// Moves to the end with perfect play (shortest win, longest loss); 0 for draws.
    pub remoteness: Vec<u32>,
}

impl Solved {
    /// The record of a state.
    pub fn get(&self, s: &State) -> (Val, u32) {
        let i = self.index[s];
        (self.value[i], self.remoteness[i])
    }

    /// How many reachable positions are wins, losses and draws.
    pub fn counts(&self) -> (usize, usize, usize) {
        let c = |v| self.value.iter().filter(|&&x| x == v).count();
        (c(Val::Win), c(Val::Lose), c(Val::Draw))
    }
}

/// Builds the reachable graph by breadth-first search and solves it backwards from the
/// finished games, one remoteness level at a time.
pub fn solve(n: usize) -> Solved {
    let start = State::start(n);
    let mut states = vec![start.clone()];
    let mut index = HashMap::from([(start, 0usize)]);
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut value = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        let t = s.terminal();
        value.push(t);
        let mut kids = Vec::new();
        if t.is_none() {
            for k in s.moves() {
                let next = states.len();
                let id = *index.entry(k.clone()).or_insert(next);
                if id == next {
                    states.push(k);
                }
                kids.push(id);
            }
        }
        children.push(kids);
        i += 1;
    }

    let total = states.len();
    let mut parents = vec![Vec::new(); total];
    for (p, kids) in children.iter().enumerate() {
        for &k in kids {
            parents[k].push(p);
        }
    }
    let mut left: Vec<usize> = children.iter().map(Vec::len).collect();
    let mut remoteness = vec![0u32; total];
    let mut queue: VecDeque<usize> = (0..total).filter(|&s| value[s].is_some()).collect();
    // FIFO order visits positions by nondecreasing remoteness, so a parent's first
    // losing child is its nearest and a losing parent's last child is its farthest.
    while let Some(c) = queue.pop_front() {
        let (v, r) = (value[c].unwrap(), remoteness[c]);
        for &p in &parents[c] {
            if value[p].is_some() {
                continue;
            }
            if v == Val::Lose {
                value[p] = Some(Val::Win);
                remoteness[p] = r + 1;
                queue.push_back(p);
            } else {
                left[p] -= 1;
                if left[p] == 0 {
                    value[p] = Some(Val::Lose);
                    remoteness[p] = r + 1;
                    queue.push_back(p);
                }
            }
        }
    }
    let value = value.into_iter().map(|v| v.unwrap_or(Val::Draw)).collect();
    Solved {
        states,
        index,
        children,
        value,
        remoteness,
    }
}
