//! Moves and undo moves of Othello on (board, side to move) pairs, and their encodings.
//!
//! A move is a cell (`Move(cell)`) or the pass (`Move(PASS)`), allowed only when the
//! player to move has no cell but the opponent does. An undo move names the cell whose
//! disc is taken back and the discs that flip back (`UndoMove(cell | flipped << 8)`),
//! or the undone pass (`UndoMove(UNDO_PASS)`).
//!
//! This file must not rank positions or know about tiers; it works on boards only.

use crate::board::{other, Board, Geometry};

/// The pass move's code (no cell has it).
pub const PASS: u64 = 255;
/// The undone pass's code.
pub const UNDO_PASS: u64 = 1 << 63;

/// What the player to move can do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Options {
    /// Play on one of these cells (a mask, never empty).
    Cells(u32),
    /// Pass: no cell, but the opponent has one.
    Pass,
    /// Nothing: neither player can move, the game is over.
    Over,
}

/// What `mover` can do on `b`.
pub fn options(geo: &Geometry, b: &Board, mover: u8) -> Options {
    let legal = geo.legal(b, mover);
    if legal != 0 {
        Options::Cells(legal)
    } else if geo.has_move(b, other(mover)) {
        Options::Pass
    } else {
        Options::Over
    }
}

/// Calls `out(move code, child board, child side)` for every move of `mover` on `b`.
pub fn for_each_child(geo: &Geometry, b: &Board, mover: u8, mut out: impl FnMut(u64, Board, u8)) {
    match options(geo, b, mover) {
        Options::Cells(mut cells) => {
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let flipped = geo.flips(b, mover, cell);
                out(
                    cell as u64,
                    geo.place(b, mover, cell, flipped),
                    other(mover),
                );
            }
        }
        Options::Pass => out(PASS, *b, other(mover)),
        Options::Over => {}
    }
}

/// The child of move `m` of `mover` on `b`: (board, side to move).
pub fn apply(geo: &Geometry, b: &Board, mover: u8, m: u64) -> (Board, u8) {
    if m == PASS {
        return (*b, other(mover));
    }
    let cell = m as usize;
    let flipped = geo.flips(b, mover, cell);
    (geo.place(b, mover, cell, flipped), other(mover))
}

/// Calls `out(undo code, parent board)` for every placement that leads to `b` with
/// `to_move` to move: the last mover (the other colour) put a disc on a non-`fixed`
/// cell and flipped some discs. The parent has the last mover to move, and is never
/// primitive (the last mover had a move there).
pub fn for_each_placement_parent(
    geo: &Geometry,
    b: &Board,
    to_move: u8,
    fixed: u32,
    mut out: impl FnMut(u64, Board),
) {
    let last = other(to_move);
    let own = b.discs(last);
    let mut cells = own & !fixed;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        // In each direction the flipped discs are a prefix of the run of the last
        // mover's discs next to the cell, ending before a disc of that run (the anchor),
        // so the prefix is 0..run-1 long.
        let mut choices = [1usize; 8];
        for (dir, choice) in choices.iter_mut().enumerate() {
            let run = geo
                .ray(cell, dir)
                .iter()
                .take_while(|&&x| own >> x & 1 == 1)
                .count();
            *choice = run.max(1);
        }
        let mut lens = [0usize; 8];
        'combos: loop {
            // Next combination (mixed radix); the all-zero one (no flip) is skipped.
            let mut dir = 0;
            loop {
                if dir == 8 {
                    break 'combos;
                }
                lens[dir] += 1;
                if lens[dir] < choices[dir] {
                    break;
                }
                lens[dir] = 0;
                dir += 1;
            }
            let mut flipped = 0u32;
            for (d, &len) in lens.iter().enumerate() {
                for &x in &geo.ray(cell, d)[..len] {
                    flipped |= 1 << x;
                }
            }
            let mut parent = *b;
            parent.set(cell, 0);
            parent.recolour(flipped, to_move);
            // A direction left unflipped must not flip in the parent either (the
            // child would differ), so the move is replayed and compared.
            if geo.flips(&parent, last, cell) == flipped {
                out(cell as u64 | (flipped as u64) << 8, parent);
            }
        }
    }
}

/// Whether `b` with the last mover to move is a parent of `b` with `to_move` to move
/// through a pass: the last mover had no cell, and `to_move` has one.
pub fn has_pass_parent(geo: &Geometry, b: &Board, to_move: u8) -> bool {
    !geo.has_move(b, other(to_move)) && geo.has_move(b, to_move)
}

/// The parent reached by undo move `u` from `b` with `to_move` to move:
/// (board, side to move).
pub fn unapply(b: &Board, to_move: u8, u: u64) -> (Board, u8) {
    if u == UNDO_PASS {
        return (*b, other(to_move));
    }
    let cell = (u & 0xff) as usize;
    let flipped = (u >> 8) as u32;
    let mut parent = *b;
    parent.set(cell, 0);
    parent.recolour(flipped, to_move);
    (parent, other(to_move))
}

/// An upper bound on the undo moves of any position of `geo` (for the solver's
/// buffers): one pass plus, per cell, the product of the prefix choices of its rays.
pub fn max_undo_moves(geo: &Geometry) -> u32 {
    let mut total = 1u64;
    for cell in 0..geo.cells() {
        let mut p = 1u64;
        for dir in 0..8 {
            p *= geo.ray(cell, dir).len().max(1) as u64;
        }
        total += p;
    }
    total.min(u32::MAX as u64) as u32
}
