//! Quixo's rules on a board with a side to move: who has won, the moves and the boards
//! they lead to, the undo moves and the boards they lead back to, and the text form of
//! a move.
//!
//! Everything works on bitboards through `Geometry`'s slides; the hot functions take a
//! closure per result so the caller ranks in place without a buffer. This file must not
//! rank boards, know tiers, or touch the plugin API's positions.

use crate::board::{Board, Geometry, Side};

/// The game-theoretic status of a board with `to_move` to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// The player to move has a line (the opponent completed it, or both).
    Win,
    /// Only the opponent has a line.
    Lose,
    /// Nobody has a line: play goes on.
    Open,
}

/// Who has won at `b` with `to_move` to move. A move that completes lines of both
/// symbols loses for its maker, so the player to move wins whenever they have a line.
#[inline(always)]
pub fn status(g: &Geometry, b: Board, to_move: Side) -> Status {
    if g.has_line(b.of(to_move)) {
        Status::Win
    } else if g.has_line(b.of(to_move.other())) {
        Status::Lose
    } else {
        Status::Open
    }
}

/// The board as (mover's cubes, other cubes), so that the hot loops treat O like X.
#[inline(always)]
fn split(b: Board, mover: Side) -> (u32, u32) {
    match mover {
        Side::X => (b.x, b.o),
        Side::O => (b.o, b.x),
    }
}

/// The inverse of `split`.
#[inline(always)]
fn join(mine: u32, theirs: u32, mover: Side) -> Board {
    match mover {
        Side::X => Board { x: mine, o: theirs },
        Side::O => Board { x: theirs, o: mine },
    }
}

/// Calls `f(slide index, child, took_blank)` for every move of `mover` at `b`, in the
/// order of `Geometry::slides`. `took_blank` says the cube taken was blank, so the
/// child has one blank fewer and one more cube of `mover`.
#[inline(always)]
pub fn for_each_child(g: &Geometry, b: Board, mover: Side, mut f: impl FnMut(usize, Board, bool)) {
    let (mine, theirs) = split(b, mover);
    for &(src_bit, first, end) in &g.by_source {
        if theirs & src_bit != 0 {
            continue;
        }
        let took_blank = mine & src_bit == 0;
        for i in first as usize..end as usize {
            let sl = &g.slides[i];
            let child = join(sl.push(mine) | sl.dst_bit, sl.push(theirs), mover);
            f(i, child, took_blank);
        }
    }
}

/// The board after move `slide` of `mover` (which must be legal at `b`).
#[inline]
pub fn apply(g: &Geometry, b: Board, mover: Side, slide: usize) -> Board {
    let (mine, theirs) = split(b, mover);
    let sl = &g.slides[slide];
    join(sl.push(mine) | sl.dst_bit, sl.push(theirs), mover)
}

/// Whether move `slide` is legal for `mover` at `b`: the cube taken is blank or theirs.
#[inline]
pub fn is_legal(g: &Geometry, b: Board, mover: Side, slide: usize) -> bool {
    let (_, theirs) = split(b, mover);
    theirs & g.slides[slide].src_bit == 0
}

/// Calls `f(slide index, parent)` for every parent of `b` reached by undoing a move of
/// `last` (the player who just moved), where the cube taken was blank (`from_blank`)
/// or `last`'s own. Parents where anyone has a line are left out: play stops there, so
/// they have no children.
#[inline(always)]
pub fn for_each_parent(
    g: &Geometry,
    b: Board,
    last: Side,
    from_blank: bool,
    mut f: impl FnMut(usize, Board),
) {
    let (mine, theirs) = split(b, last);
    for &(dst_bit, first, end) in &g.by_dest {
        // The cube pushed in shows the mover's symbol.
        if mine & dst_bit == 0 {
            continue;
        }
        for &i in &g.by_dest_order[first as usize..end as usize] {
            let i = i as usize;
            let sl = &g.slides[i];
            let mut pm = sl.pull(mine);
            if !from_blank {
                pm |= sl.src_bit;
            }
            let pt = sl.pull(theirs);
            if g.has_line(pm) || g.has_line(pt) {
                continue;
            }
            f(i, join(pm, pt, last));
        }
    }
}

/// The parent reached by undoing move `slide` of `last` at `b` (no checks).
#[inline]
pub fn unapply(g: &Geometry, b: Board, last: Side, slide: usize, from_blank: bool) -> Board {
    let (mine, theirs) = split(b, last);
    let sl = &g.slides[slide];
    let mut pm = sl.pull(mine);
    if !from_blank {
        pm |= sl.src_bit;
    }
    join(pm, sl.pull(theirs), last)
}

/// A move as players type it: the cell the cube is taken from and the cell it is
/// pushed in at, `a1-d1` (`>` or a space also separate them on input).
pub fn slide_text(g: &Geometry, slide: usize) -> String {
    let sl = &g.slides[slide];
    format!(
        "{}-{}",
        g.cell_name(sl.src as usize),
        g.cell_name(sl.dst as usize)
    )
}

/// Parses a move typed as two cells (`a1-d1`, `a1>d1`, `a1 d1`, `a1d1`) and checks it
/// against the rules for `mover` at `b`; the error says what is wrong.
pub fn parse_slide(g: &Geometry, b: Board, mover: Side, text: &str) -> Result<usize, String> {
    let t = text.trim();
    let usage = || {
        format!(
            "'{t}' is not a move: type the cell you take a cube from and the end of its row or column where you push it in, e.g. {}",
            slide_text(g, 0)
        )
    };
    let parts: Vec<&str> = t
        .split(|c: char| c == '-' || c == '>' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let (a, z) = match parts.as_slice() {
        [a, z] => (*a, *z),
        [one] => {
            // `a1d1`: split before the second letter.
            let at = one
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(usage)?;
            one.split_at(at)
        }
        _ => return Err(usage()),
    };
    let src = g
        .parse_cell(a)
        .ok_or_else(|| format!("'{a}' is not a cell of this board"))?;
    let dst = g
        .parse_cell(z)
        .ok_or_else(|| format!("'{z}' is not a cell of this board"))?;
    if g.border & (1 << src) == 0 {
        return Err(format!(
            "{a} is not on the border: cubes are taken from the outer ring"
        ));
    }
    let (_, theirs) = split(b, mover);
    if theirs & (1 << src) != 0 {
        return Err(format!(
            "the cube at {a} shows {}: take a blank cube or one of yours",
            mover.other().symbol()
        ));
    }
    g.slide_index(src, dst).ok_or_else(|| {
        format!("{z} is not an end of {a}'s row or column other than {a} itself, so the cube cannot be pushed in there")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board from rows of `X`, `O`, `-`, top row first.
    fn board(g: &Geometry, rows: &[&str]) -> Board {
        let mut b = Board::default();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1 << (r * g.side + c);
                match ch {
                    'X' => b.x |= bit,
                    'O' => b.o |= bit,
                    _ => {}
                }
            }
        }
        b
    }

    #[test]
    fn opponent_line_loses_even_with_own_line() {
        let g = Geometry::new(4);
        let both = board(&g, &["XXXX", "OOOO", "----", "----"]);
        // Whoever is to move has a line, so the last mover completed it for them.
        assert_eq!(status(&g, both, Side::X), Status::Win);
        assert_eq!(status(&g, both, Side::O), Status::Win);
        let x_only = board(&g, &["X---", "X-O-", "X-O-", "X-O-"]);
        assert_eq!(status(&g, x_only, Side::O), Status::Lose);
        assert_eq!(status(&g, x_only, Side::X), Status::Win);
        let none = board(&g, &["XXX-", "OOO-", "----", "---X"]);
        assert_eq!(status(&g, none, Side::O), Status::Open);
    }

    #[test]
    fn children_of_the_empty_board() {
        let g = Geometry::new(4);
        let mut n = 0;
        for_each_child(&g, Board::default(), Side::X, |_, c, blank| {
            assert!(blank);
            assert_eq!(c.o, 0);
            assert_eq!(c.x.count_ones(), 1);
            // The new X always lands on the border.
            assert_ne!(c.x & g.border, 0);
            n += 1;
        });
        assert_eq!(n, 32);
    }

    #[test]
    fn opponent_cubes_cannot_be_taken() {
        let g = Geometry::new(4);
        // O owns the four corners: X loses the 8 corner moves.
        let b = board(&g, &["O--O", "----", "----", "O--O"]);
        let mut n = 0;
        for_each_child(&g, b, Side::X, |_, _, _| n += 1);
        assert_eq!(n, 24);
        let mut own = 0;
        for_each_child(&g, b, Side::O, |_, _, blank| own += usize::from(!blank));
        assert_eq!(own, 8);
        let i = g.slide_index(0, 3).unwrap();
        assert!(!is_legal(&g, b, Side::X, i));
        assert!(is_legal(&g, b, Side::O, i));
    }

    #[test]
    fn a_push_along_a_row() {
        let g = Geometry::new(4);
        let b = board(&g, &["-XO-", "----", "----", "----"]);
        // O takes the blank a4 and pushes it in at d4: X and O slide left.
        let i = g.slide_index(0, 3).unwrap();
        assert_eq!(
            apply(&g, b, Side::O, i),
            board(&g, &["XO-O", "----", "----", "----"])
        );
        // X takes d4 and pushes it in at d1: the column slides up.
        let b = board(&g, &["---O", "---X", "---O", "---X"]);
        let i = g.slide_index(3, 15).unwrap();
        assert!(!is_legal(&g, b, Side::X, i));
        let b = board(&g, &["----", "---X", "---O", "---X"]);
        assert_eq!(
            apply(&g, b, Side::X, i),
            board(&g, &["---X", "---O", "---X", "---X"])
        );
    }

    #[test]
    fn undo_finds_exactly_the_parents() {
        let g = Geometry::new(4);
        let parent = board(&g, &["X-O-", "-OX-", "X---", "--OX"]);
        for_each_child(&g, parent, Side::O, |i, child, blank| {
            let mut found = false;
            for_each_parent(&g, child, Side::O, blank, |j, p| {
                found |= j == i && p == parent;
                // Every parent reached leads back to the child by the same move.
                assert_eq!(apply(&g, p, Side::O, j), child);
            });
            assert!(found, "move {} not undone", slide_text(&g, i));
            assert_eq!(unapply(&g, child, Side::O, i, blank), parent);
        });
    }

    #[test]
    fn move_text() {
        let g = Geometry::new(4);
        let b = board(&g, &["O---", "----", "----", "----"]);
        let i = parse_slide(&g, b, Side::X, "a1-d1").unwrap();
        assert_eq!(slide_text(&g, i), "a1-d1");
        assert_eq!(parse_slide(&g, b, Side::X, " A1>D1 ").unwrap(), i);
        assert_eq!(parse_slide(&g, b, Side::X, "a1d1").unwrap(), i);
        assert_eq!(parse_slide(&g, b, Side::X, "a1 d1").unwrap(), i);
        assert!(parse_slide(&g, b, Side::X, "a4-d4")
            .unwrap_err()
            .contains("shows O"));
        assert!(parse_slide(&g, b, Side::X, "b2-b4")
            .unwrap_err()
            .contains("not on the border"));
        assert!(parse_slide(&g, b, Side::X, "b1-c1")
            .unwrap_err()
            .contains("not an end"));
        assert!(parse_slide(&g, b, Side::X, "a1-a1").is_err());
        assert!(parse_slide(&g, b, Side::X, "z9-a1").is_err());
        assert!(parse_slide(&g, b, Side::X, "hello").is_err());
    }
}
