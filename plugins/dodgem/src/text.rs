//! Dodgem's texts: the board a player sees, positions on one line (`B--/B--/-RR:B`,
//! rows from the top, then the side to move), and moves (`a2-b2`, `c2-off`).
//!
//! Parsing checks everything a typed position or move can get wrong and says what; it
//! must not decide rules itself (it asks `rules`).

use crate::rules::{Board, Dest, Geometry, Side};

/// The character of cell `cell` on `b`: `B`, `R` or `-`.
fn cell_char(b: &Board, cell: usize) -> char {
    if b.blue >> cell & 1 == 1 {
        'B'
    } else if b.red >> cell & 1 == 1 {
        'R'
    } else {
        '-'
    }
}

/// The board for display: the exits marked, rows from the top with their numbers, the
/// column letters, and a line on each side's cars and whose turn it is.
pub fn board_to_text(geo: &Geometry, b: &Board) -> String {
    let n = geo.size();
    // Red leaves off the top edge, Blue off the right edge.
    let mut s = String::from("     ");
    for _ in 0..n {
        s.push_str(" ^");
    }
    s.push('\n');
    for row in (0..n).rev() {
        s.push_str(&format!("  {} |", row + 1));
        for col in 0..n {
            s.push(' ');
            s.push(cell_char(b, row * n + col));
        }
        s.push_str(" | ->\n");
    }
    s.push_str("     ");
    for col in 0..n {
        s.push(' ');
        s.push(Geometry::column_letter(col));
    }
    s.push('\n');
    let cars = geo.cars();
    s.push_str(&format!(
        "  Blue (B) drives right, up or down, off the right edge: {} of {cars} cars off.\n",
        cars - b.blue.count_ones() as usize
    ));
    s.push_str(&format!(
        "  Red (R) drives up, left or right, off the top edge: {} of {cars} cars off.\n",
        cars - b.red.count_ones() as usize
    ));
    s.push_str(&format!("  {} to move.\n", b.to_move.name()));
    s
}

/// The move driving the car on `from` to `dest`: `a2-b2`, or `c2-off`.
pub fn move_to_text(geo: &Geometry, from: usize, dest: Dest) -> String {
    let to = match dest {
        Dest::Cell(c) => geo.cell_name(c),
        Dest::Off => "off".to_string(),
    };
    format!("{}-{to}", geo.cell_name(from))
}

/// A move text without case, spaces or dashes, for comparing what was typed.
fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Parses a typed move (`a2-b2`, `a2b2`, `c2-off`, `c2 off`; case-insensitive) that
/// must be legal at `b`.
pub fn parse_move(geo: &Geometry, b: &Board, text: &str) -> Result<(usize, Dest), String> {
    let wanted = squash(text);
    let mut legal = Vec::new();
    geo.for_each_move(b, |from, dest| legal.push((from, dest)));
    if let Some(&m) = legal
        .iter()
        .find(|&&(from, dest)| squash(&move_to_text(geo, from, dest)) == wanted)
    {
        return Ok(m);
    }
    let names: Vec<String> = legal
        .iter()
        .map(|&(from, dest)| move_to_text(geo, from, dest))
        .collect();
    let list = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(" ")
    };
    // Say what is wrong with the car, when the text names one.
    let car = (2..=wanted.len())
        .filter_map(|k| wanted.get(..k))
        .find_map(|head| geo.parse_cell(head));
    let why = match car {
        Some(cell) if b.cars(b.to_move) >> cell & 1 == 0 => format!(
            "there is no {} car on {}",
            b.to_move.name(),
            geo.cell_name(cell)
        ),
        Some(cell) => format!("the car on {} cannot go there", geo.cell_name(cell)),
        None => "a move is a car's cell and where it goes, like a2-b2 or c2-off".to_string(),
    };
    Err(format!(
        "'{}' is not a legal move here: {why}; legal moves: {list}",
        text.trim()
    ))
}

/// The position on one line: the rows from the top separated by `/` (`B`, `R`, `-`),
/// then `:` and the side to move (`B` or `R`).
pub fn position_to_text(geo: &Geometry, b: &Board) -> String {
    let n = geo.size();
    let rows: Vec<String> = (0..n)
        .rev()
        .map(|row| (0..n).map(|col| cell_char(b, row * n + col)).collect())
        .collect();
    format!("{}:{}", rows.join("/"), b.to_move.letter())
}

/// Parses a position written as `position_to_text` writes it (case-insensitive; `.`
/// for an empty cell; the `/` between rows may be left out).
pub fn parse_position(geo: &Geometry, text: &str) -> Result<Board, String> {
    let n = geo.size();
    let example = position_to_text(geo, &geo.start());
    let usage = || {
        format!(
            "'{}' is not a {n}x{n} Dodgem position: give the rows from the top (B, R or -) separated by /, then ':' and the side to move (B or R), e.g. {example}",
            text.trim()
        )
    };
    let (cells_text, side_text) = text.trim().split_once(':').ok_or_else(usage)?;
    let to_move = match side_text.trim() {
        "B" | "b" => Side::Blue,
        "R" | "r" => Side::Red,
        _ => return Err(usage()),
    };
    let rows: Vec<&str> = cells_text.trim().split('/').collect();
    let rows_ok = rows.len() == 1 || (rows.len() == n && rows.iter().all(|r| r.len() == n));
    let chars: Vec<char> = rows.concat().chars().collect();
    if !rows_ok || chars.len() != n * n {
        return Err(usage());
    }
    let (mut blue, mut red) = (0u64, 0u64);
    for (i, ch) in chars.iter().enumerate() {
        // The text runs from the top row; cells are numbered from the bottom row.
        let cell = (n - 1 - i / n) * n + i % n;
        match ch {
            'B' | 'b' => blue |= 1 << cell,
            'R' | 'r' => red |= 1 << cell,
            '-' | '.' => {}
            other => {
                return Err(format!(
                    "'{other}' is not a cell: use B (Blue), R (Red) or - (empty)"
                ))
            }
        }
    }
    let cars = geo.cars() as u32;
    for (side, mask) in [(Side::Blue, blue), (Side::Red, red)] {
        if mask.count_ones() > cars {
            return Err(format!(
                "{} has {} cars; on {n}x{n} each side has {cars}",
                side.name(),
                mask.count_ones()
            ));
        }
    }
    let b = Board { blue, red, to_move };
    if b.cars(to_move) == 0 {
        return Err(format!(
            "{} has no cars left, so the game ended when its last car left: {} is never to move",
            to_move.name(),
            to_move.name()
        ));
    }
    Ok(b)
}
