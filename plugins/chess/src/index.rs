//! Position numbers within a tier: side to move and the square of every piece, densely
//! (`stm + 2 * (sq0 + 64 sq1 + ...)` with pieces in the material's order: white king,
//! black king, white pieces, black pieces, each side strongest first). Placements that
//! break the rules are numbers the module marks illegal. Also the canonical form under
//! the board symmetries and the colour flip.
//!
//! A tier is a material set up to colours (`tiers.rs`), so it holds both orientations:
//! KQK and KKQ are one tier. When the two orientations differ, the numbers of the
//! canonical orientation (white stronger) come first and those of the mirrored one
//! (black stronger) follow, `orientation * base + number`; a set that is its own
//! mirror (KQKQ, KPKP) needs no such split.
//!
//! A tier with one pawn of each colour (KPKP, the only such set of up to four men)
//! has `EP_POSITIONS` more numbers after the plain ones, for the positions with a right
//! to take en passant: `stm + 2 * (bk + 64 (wk + 64 (side + 2 file)))`, where `file` is
//! the file of the pawn that has just made a double step (its rank follows from the
//! side to move), and `side` says whether the pawn that may take it stands on the file
//! to its left (0) or right (1).
//!
//! This file must not generate moves (it only calls the legality test).

use crate::board::*;
use crate::tiers::Material;
use gamesman_plugin_api::{Tier, TierPosition};

/// Positions with a right to take en passant, in a tier that has them.
pub const EP_POSITIONS: u64 = 2 * 64 * 64 * 2 * 8;

/// Numbers of positions without a right to take en passant in a tier of `pieces` men
/// (kings included).
fn plain_size(pieces: usize) -> u64 {
    2 * 64u64.pow(pieces as u32)
}

/// Whether a tier's positions may carry a right to take en passant: one pawn each.
pub fn has_ep_positions(m: &Material) -> bool {
    m.sides[0] == [PAWN] && m.sides[1] == [PAWN]
}

/// Numbers of one orientation of material `m` (plain placements, plus the positions
/// with a right to take en passant where the set has them).
pub fn orientation_size(m: &Material) -> u64 {
    let plain = plain_size(m.count() + 2);
    if has_ep_positions(m) {
        plain + EP_POSITIONS
    } else {
        plain
    }
}

/// Positions in the tier of the material class `m` (given in its canonical
/// orientation): both orientations unless the set is its own colour mirror.
pub fn tier_size(m: &Material) -> u64 {
    if m.self_twin() {
        orientation_size(m)
    } else {
        2 * orientation_size(m)
    }
}

/// The board of a position number (any number below the tier size decodes).
pub fn decode(p: TierPosition) -> Board {
    let class = Material::from_tier(p.tier.0).expect("a valid tier");
    let base = orientation_size(&class);
    let (m, n) = if p.position >= base && !class.self_twin() {
        (class.flipped(), p.position - base)
    } else {
        (class, p.position)
    };
    let plain = plain_size(m.count() + 2);
    if n >= plain {
        return decode_ep(n - plain);
    }
    let mut b = Board::empty((n & 1) as u8);
    let mut rest = n >> 1;
    let mut next = || {
        let s = (rest % 64) as u8;
        rest /= 64;
        s
    };
    b.push(KING, WHITE, next());
    b.push(KING, BLACK, next());
    for c in [WHITE, BLACK] {
        for &k in &m.sides[c as usize] {
            let sq = next();
            b.push(k, c, sq);
        }
    }
    b
}

/// A KPKP board with a right to take en passant from its number after the plain ones.
/// Numbers that name no such board decode to a board with two men on one square.
fn decode_ep(n: u64) -> Board {
    let stm = (n & 1) as u8;
    let rest = n >> 1;
    let (bk, wk) = ((rest % 64) as u8, (rest / 64 % 64) as u8);
    let (side, f) = ((rest / 4096 % 2) as u8, (rest / 8192) as u8);
    let them = stm ^ 1;
    let e = if them == WHITE { 24 + f } else { 32 + f };
    // the taker beside the pawn; off the board it lands on the pawn's own square
    let taker = match (side, f) {
        (0, 1..) => e - 1,
        (1, ..=6) => e + 1,
        _ => e,
    };
    let (white_pawn, black_pawn) = if them == WHITE {
        (e, taker)
    } else {
        (taker, e)
    };
    let mut b = Board::empty(stm);
    b.push(KING, WHITE, wk);
    b.push(KING, BLACK, bk);
    b.push(PAWN, WHITE, white_pawn);
    b.push(PAWN, BLACK, black_pawn);
    b.ep = Some(e);
    b
}

/// The position of a board, in the tier of its material class. Equal pieces of a side
/// are ordered by square, so each placement has one number. A right to take en passant
/// is kept only in a tier that has such positions, with the taker beside the pawn.
pub fn encode(b: &Board) -> TierPosition {
    let m = Material::of(b);
    let flipped = !m.is_canonical();
    let n = encode_in_orientation(b, &m);
    let class = m.canonical();
    let position = if flipped {
        orientation_size(&class) + n
    } else {
        n
    };
    TierPosition::new(Tier(class.tier()), position)
}

/// The number of a board among the placements of its own material `m` (one
/// orientation).
fn encode_in_orientation(b: &Board, m: &Material) -> u64 {
    if let Some(e) = b.ep.filter(|_| has_ep_positions(m)) {
        let taker = b
            .pieces()
            .iter()
            .find(|p| p.kind == PAWN && p.colour == b.stm)
            .map(|p| p.sq);
        if let Some(t) = taker.filter(|&t| rank(t) == rank(e) && file(t).abs_diff(file(e)) == 1) {
            let side = (file(t) > file(e)) as u64;
            let n = ((file(e) as u64 * 2 + side) * 64 + b.king(WHITE) as u64) * 64
                + b.king(BLACK) as u64;
            return plain_size(m.count() + 2) + 2 * n + b.stm as u64;
        }
    }
    // kings first (white, black), then white pieces, then black, each by kind and
    // square; sorted in a copy of the fixed array, as this runs for every image of
    // every position the solver canonicalises
    let mut pieces = b.pieces;
    let order = &mut pieces[..b.n];
    order.sort_unstable_by_key(|p| (p.kind != KING, p.colour, p.kind, p.sq));
    let mut idx = 0u64;
    for p in order.iter().rev() {
        idx = idx * 64 + p.sq as u64;
    }
    idx * 2 + b.stm as u64
}

/// The board symmetries that keep the rules: all eight without pawns, only the
/// left-right mirror with pawns (pawns move up or down the board).
pub fn symmetries(b: &Board) -> &'static [u8] {
    if b.has_pawns() {
        &[0, 1]
    } else {
        &[0, 1, 2, 3, 4, 5, 6, 7]
    }
}

/// The canonical position of a board: the smallest number among its images under the
/// board symmetries and the colour flip (colours swapped, ranks mirrored, the other
/// side to move: the player to move has the same game). The smallest is always an
/// image in the canonical orientation, so a set that is not its own mirror compares
/// the images of that orientation only, and none of them needs the orientation offset.
pub fn canonical(b: &Board) -> TierPosition {
    let m = Material::of(b);
    let (class, source) = if m.is_canonical() {
        (m, *b)
    } else {
        (m.flipped(), b.flip_colours())
    };
    let mirror = class.self_twin().then(|| source.flip_colours());
    let mut best = u64::MAX;
    for &s in symmetries(b) {
        best = best.min(encode_in_orientation(&source.transform(s), &class));
        if let Some(f) = &mirror {
            best = best.min(encode_in_orientation(&f.transform(s), &class));
        }
    }
    TierPosition::new(Tier(class.tier()), best)
}
