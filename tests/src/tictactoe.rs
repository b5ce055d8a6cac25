//! An independent reference tic-tac-toe: every board reachable from the empty board by
//! legal play, found by brute force, and the boards' symmetry classes.
//!
//! It exists to check mtttier against, so it must not use mtttier, the plugin-api
//! ranking, or anything else it is meant to check; it is written for obviousness, not
//! speed.

use std::collections::{BTreeSet, HashSet};

/// A board: nine cells row by row, `0` blank, `1` X, `2` O.
pub type Cells = [u8; 9];

/// The known number of reachable boards by pieces on the board (0..=9), 5478 in all.
pub const REACHABLE_BY_PIECES: [usize; 10] = [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78];

/// The eight ways to make three in a row.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Number of pieces on `b`.
pub fn pieces(b: &Cells) -> usize {
    b.iter().filter(|&&c| c != 0).count()
}

/// Whether `piece` has three in a row on `b`.
pub fn has_line(b: &Cells, piece: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == piece))
}

/// Whether play stops at `b`: someone has three in a row or the board is full.
pub fn is_over(b: &Cells) -> bool {
    has_line(b, 1) || has_line(b, 2) || pieces(b) == 9
}

/// The boards reachable from the empty board (play stops once the game is over),
/// grouped by the number of pieces on them.
pub fn reachable_by_pieces() -> Vec<HashSet<Cells>> {
    let mut out = vec![HashSet::new(); 10];
    let mut stack = vec![[0u8; 9]];
    while let Some(b) = stack.pop() {
        let n = pieces(&b);
        if !out[n].insert(b) || is_over(&b) {
            continue;
        }
        let mover = if n.is_multiple_of(2) { 1 } else { 2 };
        for cell in 0..9 {
            if b[cell] == 0 {
                let mut c = b;
                c[cell] = mover;
                stack.push(c);
            }
        }
    }
    out
}

/// `b` under the symmetry that sends cell `(r, c)` to `(c, 2 - r)` (a quarter turn).
fn rotate(b: &Cells) -> Cells {
    let mut out = [0u8; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[c * 3 + (2 - r)] = b[r * 3 + c];
        }
    }
    out
}

/// `b` mirrored left to right.
fn mirror(b: &Cells) -> Cells {
    let mut out = [0u8; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + (2 - c)] = b[r * 3 + c];
        }
    }
    out
}

/// The eight boards symmetric to `b` (rotations and reflections), `b` included.
pub fn symmetric_images(b: &Cells) -> Vec<Cells> {
    let mut out = Vec::with_capacity(8);
    let mut r = *b;
    for _ in 0..4 {
        out.push(r);
        out.push(mirror(&r));
        r = rotate(&r);
    }
    out
}

/// The representative of `b`'s symmetry class: the smallest image, cell by cell.
pub fn class_of(b: &Cells) -> Cells {
    symmetric_images(b).into_iter().min().expect("eight images")
}

/// The symmetry classes of the reachable boards, grouped by pieces on the board.
pub fn reachable_classes_by_pieces() -> Vec<BTreeSet<Cells>> {
    reachable_by_pieces()
        .iter()
        .map(|set| set.iter().map(class_of).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_the_eight_symmetries() {
        let b: Cells = [1, 2, 0, 0, 0, 0, 0, 0, 0];
        let images: BTreeSet<Cells> = symmetric_images(&b).into_iter().collect();
        // X in a corner and O beside it: 4 corners x 2 sides, all distinct.
        assert_eq!(images.len(), 8);
        assert!(images.contains(&[0, 0, 0, 0, 0, 0, 0, 2, 1]));
        assert_eq!(symmetric_images(&[0, 0, 0, 0, 1, 0, 0, 0, 0]).len(), 8);
        assert_eq!(
            class_of(&[0, 0, 1, 0, 0, 0, 0, 0, 0]),
            [0, 0, 0, 0, 0, 0, 0, 0, 1]
        );
    }

    #[test]
    fn game_over_detection() {
        assert!(is_over(&[1, 1, 1, 2, 2, 0, 0, 0, 0]));
        assert!(is_over(&[2, 1, 1, 2, 1, 0, 2, 0, 0]));
        assert!(!is_over(&[1, 2, 1, 0, 0, 0, 0, 0, 0]));
        assert!(is_over(&[1, 2, 1, 1, 2, 2, 2, 1, 1]));
    }
}
