//! Where a position lies in its tier: a tier {a, b} (a <= b) with `n` boards (a, b)
//! holds, for a < b, the boards (a, b) at `2 * i + side` and their colour swaps at
//! `2 * n + 2 * i + side` (`i` the board's number in the tier's numbering, side 0 if X
//! is to move, 1 if O); for a = b, `side * n + i`. So a tier's canonical positions
//! (boards (a, b) in canonical-first numbering, X to move when a = b) come first.
//!
//! This file must not rank boards or know the rules.

use crate::board::{Board, Side};

/// The side to move stored in the low bit of a position's index.
#[inline(always)]
pub fn side_of(index: u64) -> Side {
    if index & 1 == 0 {
        Side::X
    } else {
        Side::O
    }
}

/// The low bit of a position's index for `side` to move.
#[inline(always)]
pub fn side_bit(side: Side) -> u64 {
    match side {
        Side::X => 0,
        Side::O => 1,
    }
}

/// A position of a tier with `n` boards (a, b), `same` when a = b: the number `i` of
/// its board (of the colour swap of its board when `swapped`) and the side to move.
#[inline(always)]
pub fn split_index(position: u64, same: bool, n: u64) -> (u64, Side, bool) {
    if same {
        if position < n {
            (position, Side::X, false)
        } else {
            (position - n, Side::O, false)
        }
    } else if position < 2 * n {
        (position >> 1, side_of(position), false)
    } else {
        let q = position - 2 * n;
        (q >> 1, side_of(q), true)
    }
}

/// The inverse of `split_index`.
#[inline(always)]
pub fn join_index(i: u64, side: Side, swapped: bool, same: bool, n: u64) -> u64 {
    if same {
        side_bit(side) * n + i
    } else {
        (swapped as u64) * 2 * n + i * 2 + side_bit(side)
    }
}

/// `b` and `side` in the orientation a tier keeps first: at most as many X cubes as
/// O, X to move when they are equal (the colour swap otherwise).
#[inline(always)]
pub fn oriented(b: Board, side: Side) -> (Board, Side) {
    oriented_counted(b, side, b.x.count_ones(), b.o.count_ones())
}

/// `oriented` for a board known to have `x` X and `o` O cubes (a batch of children or
/// parents shares its counts, which need not be counted per board).
#[inline(always)]
pub fn oriented_counted(b: Board, side: Side, x: u32, o: u32) -> (Board, Side) {
    if x > o || (x == o && side == Side::O) {
        (b.swapped(), side.other())
    } else {
        (b, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_and_keep_canonical_positions_first() {
        for (same, n) in [(true, 7u64), (false, 7)] {
            let size = if same { 2 * n } else { 4 * n };
            for position in 0..size {
                let (i, side, swapped) = split_index(position, same, n);
                assert!(i < n && !(same && swapped));
                assert_eq!(join_index(i, side, swapped, same, n), position);
            }
        }
        // Boards 0..3 canonical: positions 0..6 (a < b), 0..3 (a = b, X to move).
        assert_eq!(join_index(2, Side::O, false, false, 7), 5);
        assert_eq!(join_index(2, Side::X, false, true, 7), 2);
        assert_eq!(join_index(2, Side::O, false, true, 7), 9);
        let b = Board {
            x: 0b111,
            o: 0b1000,
        };
        assert_eq!(oriented(b, Side::X), (b.swapped(), Side::O));
        let even = Board { x: 0b1, o: 0b10 };
        assert_eq!(oriented(even, Side::O), (even.swapped(), Side::X));
        assert_eq!(oriented(even, Side::X), (even, Side::X));
    }
}
