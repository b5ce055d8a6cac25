//! Text for positions: FEN (Forsyth-Edwards Notation), parsed from what a user types
//! on the command line and printed back, and the board diagram. Castling rights must
//! be `-` (endgame positions here have none); the en-passant field is `-` or the
//! square a pawn has just passed with a double step (written only when the capture is
//! possible, as the position's number records it); the move counters are ignored.
//!
//! The diagram uses the Unicode chess glyphs (white ♔♕♖♗♘♙, black ♚♛♜♝♞♟, `·` for an
//! empty square) unless the environment variable `GAMESMAN_ASCII` is set to anything
//! but `0` or the empty string; then it uses FEN letters (upper case white) and `.`,
//! for terminals and fonts without the glyphs.
//!
//! This file must not check chess legality beyond the syntax (the caller does).

use crate::board::*;

/// Parses a FEN string (the fields after the side to move may be left out).
pub fn parse(text: &str) -> Result<Board, String> {
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or("empty FEN")?;
    let stm = match fields.next().unwrap_or("w") {
        "w" => WHITE,
        "b" => BLACK,
        s => return Err(format!("side to move '{s}' is not w or b")),
    };
    if let Some(f) = fields.next().filter(|&f| f != "-") {
        return Err(format!(
            "castling field '{f}' is not supported in endgames (use -)"
        ));
    }
    let ep_field = fields.next().unwrap_or("-");
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("'{placement}' does not have 8 ranks"));
    }
    let mut b = Board::empty(stm);
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i as u8;
        let mut f = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as u8;
            } else {
                let kind = letter_kind(c).ok_or_else(|| format!("'{c}' is not a piece"))?;
                if f >= 8 {
                    return Err(format!("rank {} is too long", r + 1));
                }
                if b.n == MAX_PIECES {
                    return Err(format!("more than {MAX_PIECES} pieces"));
                }
                let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                b.push(kind, colour, r * 8 + f);
                f += 1;
            }
        }
        if f != 8 {
            return Err(format!("rank {} does not have 8 files", r + 1));
        }
    }
    if ep_field != "-" {
        // the square passed: rank 3 after a white double step (black to move), rank 6
        // after a black one; the pawn stands one square further on
        let target = parse_square(ep_field)
            .ok_or_else(|| format!("en-passant field '{ep_field}' is not a square"))?;
        let pawn_sq = match (stm, rank(target)) {
            (BLACK, 2) => target + 8,
            (WHITE, 5) => target - 8,
            _ => {
                return Err(format!(
                    "en-passant square {ep_field} does not fit the side to move"
                ))
            }
        };
        match b.at(pawn_sq).map(|i| b.pieces[i]) {
            Some(p) if p.kind == PAWN && p.colour != stm => b.ep = Some(pawn_sq),
            _ => {
                return Err(format!(
                    "en-passant square {ep_field}: no pawn has just passed it"
                ))
            }
        }
    }
    for c in [WHITE, BLACK] {
        let kings = b
            .pieces()
            .iter()
            .filter(|p| p.kind == KING && p.colour == c)
            .count();
        if kings != 1 {
            return Err("each side needs exactly one king".into());
        }
    }
    Ok(b)
}

/// The FEN of a board (no castling, counters `0 1`).
pub fn write(b: &Board) -> String {
    let mut s = String::new();
    for r in (0..8u8).rev() {
        let mut empty = 0;
        for f in 0..8u8 {
            match b.at(r * 8 + f) {
                Some(i) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(letter(b.pieces[i]));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    let side = if b.stm == WHITE { 'w' } else { 'b' };
    // the square the pawn on `b.ep` passed
    let ep = b.ep.map_or("-".to_string(), |e| {
        square_name(if b.stm == BLACK { e - 8 } else { e + 8 })
    });
    format!("{s} {side} - {ep} 0 1")
}

/// A piece's FEN letter (upper case white, lower case black).
pub fn letter(p: Piece) -> char {
    let c = kind_letter(p.kind);
    if p.colour == WHITE {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// The Unicode chess glyph of a piece (white ♔♕♖♗♘♙, black ♚♛♜♝♞♟).
pub fn glyph(p: Piece) -> char {
    let white = ['♔', '♕', '♖', '♗', '♘', '♙'];
    let black = ['♚', '♛', '♜', '♝', '♞', '♟'];
    if p.colour == WHITE {
        white[p.kind as usize]
    } else {
        black[p.kind as usize]
    }
}

/// How a diagram draws pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unicode chess glyphs, `·` for empty squares.
    Unicode,
    /// FEN letters (upper case white), `.` for empty squares.
    Ascii,
}

impl Style {
    /// `Ascii` when the environment variable `GAMESMAN_ASCII` is set to anything but
    /// `0` or the empty string, otherwise `Unicode`.
    pub fn from_env() -> Self {
        match std::env::var_os("GAMESMAN_ASCII") {
            Some(v) if !v.is_empty() && v != "0" => Style::Ascii,
            _ => Style::Unicode,
        }
    }
}

/// The board as 8 ranks (rank 8 first, rank numbers on the left, files below) and a
/// line naming the side to move and the material.
pub fn diagram(b: &Board, style: Style) -> String {
    let mut s = String::new();
    for r in (0..8u8).rev() {
        s.push_str(&format!("{} ", r + 1));
        for f in 0..8u8 {
            let c = match (b.at(r * 8 + f), style) {
                (Some(i), Style::Unicode) => glyph(b.pieces[i]),
                (Some(i), Style::Ascii) => letter(b.pieces[i]),
                (None, Style::Unicode) => '·',
                (None, Style::Ascii) => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("  a b c d e f g h\n");
    let side = if b.stm == WHITE { "White" } else { "Black" };
    let legend = match style {
        Style::Unicode => "",
        Style::Ascii => " (upper case = White)",
    };
    s.push_str(&format!(
        "{side}{legend} to move; material {}",
        crate::tiers::Material::of(b).name()
    ));
    s
}
