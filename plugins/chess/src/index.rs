//! Position numbers within a tier: side to move and the square of every piece, densely
//! (`stm + 2 * (sq0 + 64 sq1 + ...)` with pieces in the tier's order: white king,
//! black king, white pieces, black pieces, each side strongest first). Placements that
//! break the rules are numbers the module marks illegal. Also the board symmetries'
//! canonical form.
//!
//! This file must not generate moves (it only calls the legality test).

use crate::board::*;
use crate::tiers::Material;
use gamesman_plugin_api::{Tier, TierPosition};

/// Positions in a tier of `pieces` pieces (kings included).
pub fn tier_size_for(pieces: usize) -> u64 {
    2 * 64u64.pow(pieces as u32)
}

/// The board of a position number (any number below the tier size decodes).
pub fn decode(p: TierPosition) -> Board {
    let m = Material::from_tier(p.tier.0).expect("a valid tier");
    let mut b = Board::empty((p.position & 1) as u8);
    let mut rest = p.position >> 1;
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

/// The position of a board, in the tier of its material. Equal pieces of a side are
/// ordered by square, so each placement has one number.
pub fn encode(b: &Board) -> TierPosition {
    let m = Material::of(b);
    let mut order: Vec<Piece> = b.pieces().to_vec();
    // kings first (white, black), then white pieces, then black, each by kind and square
    order.sort_by_key(|p| (p.kind != KING, p.colour, p.kind, p.sq));
    let mut idx = 0u64;
    for p in order.iter().rev() {
        idx = idx * 64 + p.sq as u64;
    }
    TierPosition::new(Tier(m.tier()), idx * 2 + b.stm as u64)
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

/// The smallest position number among a board's symmetric images.
pub fn canonical(b: &Board) -> TierPosition {
    symmetries(b)
        .iter()
        .map(|&s| encode(&b.transform(s)))
        .min_by_key(|p| p.position)
        .expect("identity is a symmetry")
}
