//! The board of an endgame position: a short list of pieces with squares, and the side
//! to move, plus the geometric transforms (board symmetries, colour flip).
//!
//! This file knows nothing about move rules, tiers or position numbers.

/// Piece kinds; the numbering is also the strength order (lower is stronger) used to
/// sort material, with the king first.
pub const KING: u8 = 0;
/// A queen.
pub const QUEEN: u8 = 1;
/// A rook.
pub const ROOK: u8 = 2;
/// A bishop.
pub const BISHOP: u8 = 3;
/// A knight.
pub const KNIGHT: u8 = 4;
/// A pawn.
pub const PAWN: u8 = 5;

/// White's colour number (white moves up the board, towards rank 8).
pub const WHITE: u8 = 0;
/// Black's colour number.
pub const BLACK: u8 = 1;

/// The most pieces a supported endgame has (kings included).
pub const MAX_PIECES: usize = 4;

/// The letter of a piece kind (upper case).
pub fn kind_letter(kind: u8) -> char {
    ['K', 'Q', 'R', 'B', 'N', 'P'][kind as usize]
}

/// The kind of a piece letter (either case), if it names one.
pub fn letter_kind(c: char) -> Option<u8> {
    match c.to_ascii_uppercase() {
        'K' => Some(KING),
        'Q' => Some(QUEEN),
        'R' => Some(ROOK),
        'B' => Some(BISHOP),
        'N' => Some(KNIGHT),
        'P' => Some(PAWN),
        _ => None,
    }
}

/// One piece on the board; squares run a1 = 0, b1 = 1, ..., h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Piece {
    /// One of `KING`..`PAWN`.
    pub kind: u8,
    /// `WHITE` or `BLACK`.
    pub colour: u8,
    /// 0..64.
    pub sq: u8,
}

/// A position: up to `MAX_PIECES` pieces, the side to move, and the pawn that may be
/// taken en passant. No castling rights: endgame positions here never carry them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Board {
    /// How many entries of `pieces` are used.
    pub n: usize,
    /// The pieces, `pieces[..n]`; order is not meaningful.
    pub pieces: [Piece; MAX_PIECES],
    /// `WHITE` or `BLACK`.
    pub stm: u8,
    /// The square of the opponent's pawn that has just made a double step, when the
    /// side to move may take it en passant; `None` otherwise (the move rules decide
    /// when the right exists, see `movegen::ep_is_valid`).
    pub ep: Option<u8>,
}

/// The file (0 = a) of a square.
pub fn file(sq: u8) -> u8 {
    sq & 7
}

/// The rank (0 = rank 1) of a square.
pub fn rank(sq: u8) -> u8 {
    sq >> 3
}

/// A square's name such as `e4`.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + file(sq)) as char, rank(sq) + 1)
}

/// The square named `e4` (lower case file), if it is one.
pub fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

/// Applies one of the eight square symmetries: bit 0 mirrors files, bit 1 mirrors
/// ranks, bit 2 swaps files and ranks (applied first).
pub fn transform_square(sq: u8, sym: u8) -> u8 {
    let (mut f, mut r) = (file(sq), rank(sq));
    if sym & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    if sym & 1 != 0 {
        f = 7 - f;
    }
    if sym & 2 != 0 {
        r = 7 - r;
    }
    r * 8 + f
}

impl Board {
    /// An empty board with `stm` to move.
    pub fn empty(stm: u8) -> Self {
        Board {
            n: 0,
            pieces: [Piece::default(); MAX_PIECES],
            stm,
            ep: None,
        }
    }

    /// The used pieces.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces[..self.n]
    }

    /// Adds a piece (the caller keeps within `MAX_PIECES`).
    pub fn push(&mut self, kind: u8, colour: u8, sq: u8) {
        self.pieces[self.n] = Piece { kind, colour, sq };
        self.n += 1;
    }

    /// Removes the piece at list index `i`.
    pub fn remove(&mut self, i: usize) {
        self.pieces[i] = self.pieces[self.n - 1];
        self.n -= 1;
    }

    /// The list index of the piece on `sq`.
    pub fn at(&self, sq: u8) -> Option<usize> {
        self.pieces().iter().position(|p| p.sq == sq)
    }

    /// Squares occupied, as a bit set.
    pub fn occupied(&self) -> u64 {
        self.pieces().iter().fold(0, |o, p| o | 1 << p.sq)
    }

    /// The square of `colour`'s king.
    pub fn king(&self, colour: u8) -> u8 {
        self.pieces()
            .iter()
            .find(|p| p.kind == KING && p.colour == colour)
            .map(|p| p.sq)
            .expect("every board has both kings")
    }

    /// Whether any pawn is on the board (pawns break the up-down symmetries).
    pub fn has_pawns(&self) -> bool {
        self.pieces().iter().any(|p| p.kind == PAWN)
    }

    /// The same position with colours swapped and ranks mirrored (the side to move
    /// swaps too), so the player to move has the same game.
    pub fn flip_colours(&self) -> Self {
        let mut b = *self;
        for p in &mut b.pieces[..b.n] {
            p.colour ^= 1;
            p.sq = transform_square(p.sq, 2);
        }
        b.stm ^= 1;
        b.ep = b.ep.map(|sq| transform_square(sq, 2));
        b
    }

    /// The same position under board symmetry `sym` (see `transform_square`).
    pub fn transform(&self, sym: u8) -> Self {
        let mut b = *self;
        for p in &mut b.pieces[..b.n] {
            p.sq = transform_square(p.sq, sym);
        }
        b.ep = b.ep.map(|sq| transform_square(sq, sym));
        b
    }
}
