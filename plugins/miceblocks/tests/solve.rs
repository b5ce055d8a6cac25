//! Ice Blocks solved by the real solver (through the same adapter a plugin uses) and
//! checked against an independent brute force written here from the rules alone: its
//! own pyramid of `(row, column)` cells, lines found by stepping in the three
//! directions, and a memoized minimax over boards with no tiers, ranking or undo moves.
//!
//! Results (no published figures exist for this GamesmanClassic-only game, so the brute
//! force is the check): base 5 with points is a win for X, the first player, by 6
//! points, and only the middle bottom cell (3) wins; every other first move ties.

use gamesman_host::engine::db::{self, GameKey};
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, List, Move, Value};
use miceblocks::MiceBlocks;
use std::collections::HashMap;

/// The brute force's own board: `cells[r][c]` is 0 empty, 1 X, 2 O.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Board {
    base: usize,
    cells: Vec<Vec<u8>>,
}

#[derive(Clone, Copy, PartialEq)]
enum Scoring {
    Points,
    Longest,
    Threes,
}

impl Board {
    fn empty(base: usize) -> Board {
        Board {
            base,
            cells: (0..base).map(|r| vec![0; base - r]).collect(),
        }
    }

    fn get(&self, r: isize, c: isize) -> Option<u8> {
        if r < 0 || c < 0 {
            return None;
        }
        self.cells.get(r as usize)?.get(c as usize).copied()
    }

    fn filled(&self) -> usize {
        self.cells.iter().flatten().filter(|&&v| v != 0).count()
    }

    /// Every empty cell on the ground or on two filled cells.
    fn free_cells(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.base {
            for c in 0..self.base - r {
                let held = r == 0 || (self.cells[r - 1][c] != 0 && self.cells[r - 1][c + 1] != 0);
                if self.cells[r][c] == 0 && held {
                    out.push((r, c));
                }
            }
        }
        out
    }

    /// `who`'s score: runs found by walking each direction from every cell that starts
    /// a run (its predecessor in that direction is not `who`'s).
    fn score(&self, who: u8, scoring: Scoring) -> i64 {
        let (mut points, mut longest, mut threes) = (0i64, 0i64, 0i64);
        for r in 0..self.base as isize {
            for c in 0..(self.base as isize - r) {
                if self.get(r, c) != Some(who) {
                    continue;
                }
                for (dr, dc) in [(0isize, 1isize), (1, 0), (1, -1)] {
                    if self.get(r - dr, c - dc) == Some(who) {
                        continue;
                    }
                    let mut n = 0;
                    while self.get(r + n * dr, c + n * dc) == Some(who) {
                        n += 1;
                    }
                    longest = longest.max(n as i64);
                    if n >= 3 {
                        points += 3 + 2 * (n as i64 - 3);
                        threes += n as i64 - 2;
                    }
                }
            }
        }
        match scoring {
            Scoring::Points => points,
            Scoring::Longest => longest,
            Scoring::Threes => threes,
        }
    }
}

/// The perfect-play margin for X of `b` (X maximizes, O minimizes; X moves on an even
/// count), with `sign` -1 for misère.
fn best(b: &Board, scoring: Scoring, sign: i64, memo: &mut HashMap<Board, i64>) -> i64 {
    if let Some(&m) = memo.get(b) {
        return m;
    }
    let free = b.free_cells();
    let m = if free.is_empty() {
        sign * (b.score(1, scoring) - b.score(2, scoring))
    } else {
        let who = if b.filled().is_multiple_of(2) { 1 } else { 2 };
        let values = free.iter().map(|&(r, c)| {
            let mut next = b.clone();
            next.cells[r][c] = who;
            best(&next, scoring, sign, memo)
        });
        if who == 1 {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    };
    memo.insert(b.clone(), m);
    m
}

fn text(b: &Board) -> String {
    let rows: Vec<String> = b
        .cells
        .iter()
        .map(|row| row.iter().map(|&v| ['-', 'X', 'O'][v as usize]).collect())
        .collect();
    rows.join("/")
}

/// Solves `variant` in memory, checks the start, every child of the start, and every
/// board the brute force visits against the brute force, and returns the start's WinBy.
fn check_variant(variant: &str, base: usize, scoring: Scoring, sign: i64) -> i64 {
    let game = GameHandle::from_static::<MiceBlocks>(variant).unwrap();
    let key = GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: true,
        numbering: 0,
    };
    let database = db::open("memory:", &key).unwrap();
    let report =
        solver::solve(&game, database.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    let cells = base * (base + 1) / 2;
    assert_eq!(report.tiers as usize, cells + 1);

    let mut memo = HashMap::new();
    let start = Board::empty(base);
    let expected = best(&start, scoring, sign, &mut memo);
    let init = report.initial_record;
    // Every game fills the pyramid, so the start is decided in exactly `cells` moves.
    assert_eq!(init.remoteness as usize, cells, "{variant}");
    assert_eq!(init.winby, Some(expected), "{variant}");
    let value = match expected.signum() {
        1 => Value::WIN,
        -1 => Value::LOSE,
        _ => Value::TIE,
    };
    assert_eq!(init.value, value, "{variant}");

    let module = MiceBlocks::new_for_tests(variant);
    let p0 = module.initial_position();
    let mut buf = vec![Move::default(); base];
    let mut moves = List::new(&mut buf);
    module.generate_moves(p0, &mut moves);
    assert_eq!(moves.len(), base, "one first move per bottom cell");
    for &m in moves.as_slice() {
        let child = module.do_move(p0, m);
        let rec = database.lookup(child).unwrap().expect("solved");
        let (r, c) = (0, m.0 as usize);
        let mut kid = start.clone();
        kid.cells[r][c] = 1;
        assert_eq!(module.text_to_position(&text(&kid)).unwrap(), child);
        let margin = best(&kid, scoring, sign, &mut memo);
        assert_eq!(
            rec.winby,
            Some(margin),
            "{variant} after {}",
            module.move_to_text(p0, m)
        );
        assert_eq!(rec.remoteness as usize, cells - 1);
    }

    // Every board the brute force searched: its margin is the WinBy, its sign the
    // value for the player to move, and the cells left the remoteness.
    // Every board reachable from the empty pyramid (the search prunes nothing).
    let reachable = if base == 4 { 579 } else { 14_927 };
    assert_eq!(memo.len(), reachable, "{variant}: boards searched");
    for (b, &m) in &memo {
        let t = text(b);
        let p = game
            .text_to_position(&t)
            .unwrap()
            .unwrap_or_else(|e| panic!("{variant} {t}: {e}"));
        let rec = database
            .lookup(game.canonical(p).unwrap())
            .unwrap()
            .expect("solved");
        let mover_margin = if b.filled() % 2 == 0 { m } else { -m };
        let value = match mover_margin.signum() {
            1 => Value::WIN,
            -1 => Value::LOSE,
            _ => Value::TIE,
        };
        assert_eq!(
            (rec.value, rec.remoteness as usize, rec.winby),
            (value, cells - b.filled(), Some(m)),
            "{variant} {t}"
        );
    }
    expected
}

#[test]
fn the_brute_force_scores_as_the_rules_say() {
    let mut b = Board::empty(5);
    // Bottom row X X X X O: one run of four = 5 points, 2 threes, longest 4.
    b.cells[0] = vec![1, 1, 1, 1, 2];
    assert_eq!(b.score(1, Scoring::Points), 5);
    assert_eq!(b.score(1, Scoring::Threes), 2);
    assert_eq!(b.score(1, Scoring::Longest), 4);
    assert_eq!(b.score(2, Scoring::Longest), 1);
    // The right edge (0,4) (1,3) (2,2) for O: three in a row leaning left.
    b.cells[1][3] = 2;
    b.cells[2][2] = 2;
    assert_eq!(b.score(2, Scoring::Points), 3);
    assert_eq!(
        b.free_cells().len(),
        3,
        "cells 1, 2 and 3 of row 2 can be placed"
    );
}

#[test]
fn base5_points_x_wins_by_6_and_only_the_middle_opening_wins() {
    assert_eq!(check_variant("base5", 5, Scoring::Points, 1), 6);
    // Which openings win, from the solver's stored records.
    let module = MiceBlocks::new_for_tests("base5");
    let mut memo = HashMap::new();
    let margins: Vec<i64> = (0..5)
        .map(|c| {
            let mut kid = Board::empty(5);
            kid.cells[0][c] = 1;
            best(&kid, Scoring::Points, 1, &mut memo)
        })
        .collect();
    assert_eq!(margins, [0, 0, 6, 0, 0]);
    assert_eq!(
        module.primitive(module.initial_position()),
        Value::UNDECIDED
    );
}

#[test]
fn other_rules_and_misere_agree_with_the_brute_force() {
    assert_eq!(check_variant("base4", 4, Scoring::Points, 1), 0);
    let results = [
        check_variant("base4-threes-misere", 4, Scoring::Threes, -1),
        check_variant("base5-longest", 5, Scoring::Longest, 1),
        check_variant("base5-threes", 5, Scoring::Threes, 1),
        check_variant("base5-misere", 5, Scoring::Points, -1),
    ];
    // O wins base 4 misère threes by one; X wins the others by 1, 2 and 2.
    assert_eq!(results, [-1, 1, 2, 2]);
}
