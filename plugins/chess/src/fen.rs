//! Text for positions: FEN (Forsyth-Edwards Notation), parsed from what a user types
//! on the command line and printed back, and the board diagram. Castling rights and
//! en-passant squares must be `-` (endgame positions here have neither); the move
//! counters are ignored.
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
    for (name, f) in ["castling", "en passant"].iter().zip(fields.by_ref()) {
        if f != "-" {
            return Err(format!(
                "{name} field '{f}' is not supported in endgames (use -)"
            ));
        }
    }
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

/// The FEN of a board (no castling, no en passant, counters `0 1`).
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
    format!("{s} {side} - - 0 1")
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
