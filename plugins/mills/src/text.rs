//! Text forms: the board drawn for people, positions on one line, and moves typed as
//! `a1` (place), `a1xb6` (place, then remove the piece on b6), `a1-a4` (slide or fly)
//! and `a1-a4xb6`, with point names as in `board` (column letter, row from the bottom).
//!
//! A position is `TURN:BOARD:XHAND:OHAND`: `x` or `o` to move, one character per point
//! in point order (`x`, `o` or `-`), then the pieces each side still has in hand
//! (`x:----------------:5:5` is five men's morris's start).
//!
//! Parsing reports what is wrong with typed text (an unknown point, a removal the rules
//! do not allow, a flight when the side may not fly) and never panics. This file must
//! not hold rules: it asks `Rules`.

use crate::rules::{bits, Counts, MoveParts, Rules, State};

/// `s` drawn on several lines, with the point names around it and the hands below.
pub fn board_text(r: &Rules, s: &State) -> String {
    let g = &r.geo;
    let side = g.side;
    let (w, h) = (4 * (side - 1) + 1, 2 * (side - 1) + 1);
    let mut canvas = vec![vec![' '; w]; h];
    let at = |p: usize| {
        let (x, y) = g.coords[p];
        (2 * (side - 1 - y), 4 * x)
    };
    for path in &g.paths {
        for pair in path.windows(2) {
            let ((r0, c0), (r1, c1)) = (at(pair[0]), at(pair[1]));
            let (dr, dc) = (r1 as i64 - r0 as i64, c1 as i64 - c0 as i64);
            let steps = dr.abs().max(dc.abs());
            for k in 1..steps {
                let rr = (r0 as i64 + dr * k / steps) as usize;
                let cc = (c0 as i64 + dc * k / steps) as usize;
                let ch = if dr == 0 {
                    '-'
                } else if dc == 0 {
                    '|'
                } else if (dr > 0) == (dc > 0) {
                    '\\'
                } else {
                    '/'
                };
                if dr == 0 || dc == 0 || (dr * k) % steps == 0 {
                    canvas[rr][cc] = ch;
                }
            }
        }
    }
    for p in 0..g.n {
        let (rr, cc) = at(p);
        canvas[rr][cc] = if s.bits[0] >> p & 1 == 1 {
            'X'
        } else if s.bits[1] >> p & 1 == 1 {
            'O'
        } else {
            '.'
        };
    }
    let mut out = String::new();
    for (i, row) in canvas.iter().enumerate() {
        let label = if i % 2 == 0 {
            format!("{}", side - i / 2)
        } else {
            " ".into()
        };
        let line: String = row.iter().collect();
        out.push_str(&format!("  {label}  {}\n", line.trim_end()));
    }
    let letters: Vec<String> = (0..side)
        .map(|x| ((b'a' + x as u8) as char).to_string())
        .collect();
    out.push_str(&format!("     {}\n", letters.join("   ")));
    let c = s.counts;
    out.push_str(&format!(
        "  X: {} in hand, {} on the board; O: {} in hand, {} on the board; {} to move",
        c.hand[0],
        c.board[0],
        c.hand[1],
        c.board[1],
        if s.turn == 0 { "X" } else { "O" }
    ));
    out
}

/// The one-line form of `s` (see the file comment).
pub fn position_text(r: &Rules, s: &State) -> String {
    let board: String = (0..r.geo.n)
        .map(|p| {
            if s.bits[0] >> p & 1 == 1 {
                'x'
            } else if s.bits[1] >> p & 1 == 1 {
                'o'
            } else {
                '-'
            }
        })
        .collect();
    format!(
        "{}:{board}:{}:{}",
        if s.turn == 0 { 'x' } else { 'o' },
        s.counts.hand[0],
        s.counts.hand[1]
    )
}

/// Parses the one-line form; the tier must be one of the variant's (`known`).
pub fn parse_position(
    r: &Rules,
    text: &str,
    known: impl Fn(Counts) -> bool,
) -> Result<State, String> {
    let t = text.trim();
    let n = r.geo.n;
    let usage = format!(
        "give TURN:BOARD:XHAND:OHAND, e.g. x:{}:{p}:{p} (x or o to move, {n} points x, o or -, then the pieces each side has in hand)",
        "-".repeat(n),
        p = r.pieces
    );
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() != 4 {
        return Err(format!("'{t}' is not a position: {usage}"));
    }
    let turn = match parts[0] {
        "x" | "X" => 0,
        "o" | "O" => 1,
        other => return Err(format!("'{other}' is not a side to move: use x or o")),
    };
    let chars: Vec<char> = parts[1].chars().collect();
    if chars.len() != n {
        return Err(format!(
            "the board has {n} points, but '{}' gives {}: {usage}",
            parts[1],
            chars.len()
        ));
    }
    let mut b = [0u32; 2];
    for (p, ch) in chars.iter().enumerate() {
        match ch {
            'x' | 'X' => b[0] |= 1 << p,
            'o' | 'O' => b[1] |= 1 << p,
            '-' | '.' => {}
            other => {
                return Err(format!(
                    "'{other}' at point {} is not a piece: use x, o or -",
                    r.geo.name(p)
                ))
            }
        }
    }
    let hand = |s: &str, who: &str| -> Result<u8, String> {
        match s.parse::<u8>() {
            Ok(v) if v <= r.pieces => Ok(v),
            _ => Err(format!(
                "'{s}' is not a number of pieces in {who}'s hand (0 to {})",
                r.pieces
            )),
        }
    };
    let counts = Counts {
        hand: [hand(parts[2], "X")?, hand(parts[3], "O")?],
        board: [b[0].count_ones() as u8, b[1].count_ones() as u8],
    };
    if !r.plausible(counts) || !known(counts) {
        return Err(format!(
            "X with {} in hand and {} on the board and O with {} and {} cannot occur in this variant (each side has {} pieces; a side with 2 left has lost)",
            counts.hand[0], counts.board[0], counts.hand[1], counts.board[1], r.pieces
        ));
    }
    if let Some(fixed) = r.fixed_turn(counts) {
        if fixed != turn {
            return Err(format!(
                "with these pieces it is {}'s turn, not {}'s",
                ["X", "O"][fixed],
                ["X", "O"][turn]
            ));
        }
    }
    Ok(State {
        counts,
        bits: b,
        turn,
    })
}

/// The typed form of move `m`.
pub fn move_text(r: &Rules, m: MoveParts) -> String {
    let g = &r.geo;
    let mut s = match m.src {
        Some(src) => format!("{}-{}", g.name(src), g.name(m.dest)),
        None => g.name(m.dest),
    };
    if let Some(x) = m.remove {
        s.push('x');
        s.push_str(&g.name(x));
    }
    s
}

/// Parses a typed move at `s`, saying why one is not legal.
pub fn parse_move(r: &Rules, s: &State, text: &str) -> Result<MoveParts, String> {
    let g = &r.geo;
    let t = text.trim().to_ascii_lowercase();
    let usage = "type a1 to place, a1-a4 to move, and add xb6 to remove the piece on b6 when the move closes a mill";
    let point = |name: &str| -> Result<usize, String> {
        g.point(name).ok_or_else(|| {
            format!(
                "'{name}' is not a point of this board (points: {})",
                (0..g.n).map(|p| g.name(p)).collect::<Vec<_>>().join(" ")
            )
        })
    };
    if t.is_empty() {
        return Err(format!("no move given: {usage}"));
    }
    let (main, remove) = match t.split_once('x') {
        Some((a, b)) => (a, Some(point(b)?)),
        None => (t.as_str(), None),
    };
    let (src, dest) = match main.split_once('-') {
        Some((a, b)) => (Some(point(a)?), point(b)?),
        None => (None, point(main)?),
    };
    let me = s.turn;
    let name = |p: usize| g.name(p);
    if (s.bits[0] | s.bits[1]) >> dest & 1 == 1 {
        return Err(format!("{} is taken", name(dest)));
    }
    match src {
        None if s.counts.hand[me] == 0 => {
            return Err(format!(
                "you have no pieces left in hand: move one instead ({usage})"
            ))
        }
        Some(_) if !r.lasker && s.counts.hand[me] > 0 => {
            return Err(format!(
                "you still have {} pieces in hand: place one first (type a point, e.g. {})",
                s.counts.hand[me],
                name(bits(!(s.bits[0] | s.bits[1]) & g.all).next().unwrap_or(0))
            ))
        }
        Some(a) if s.bits[me] >> a & 1 == 0 => {
            return Err(format!("you have no piece on {}", name(a)));
        }
        Some(a) if !r.flies(s.counts, me) && g.adjacent[a] >> dest & 1 == 0 => {
            let when = if r.fly == 0 {
                "pieces never fly in this variant".to_string()
            } else {
                format!("you may fly only with {} pieces left", r.fly)
            };
            return Err(format!(
                "{} and {} are not neighbours, and {when}",
                name(a),
                name(dest)
            ));
        }
        _ => {}
    }
    let m = MoveParts { src, dest, remove };
    if r.is_legal_move(s, m) {
        return Ok(m);
    }
    let plain = MoveParts { remove: None, ..m };
    let closes = !r.is_legal_move(s, plain);
    match remove {
        None => Err(format!(
            "{} closes a mill: say which piece to remove, e.g. {}x{}",
            move_text(r, plain),
            move_text(r, plain),
            name(bits(r.removable(s.bits[1 - me])).next().unwrap_or(0))
        )),
        Some(_) if !closes => Err(format!(
            "{} closes no mill, so it removes nothing (type {})",
            move_text(r, plain),
            move_text(r, plain)
        )),
        Some(x) if s.bits[1 - me] >> x & 1 == 0 => Err(format!(
            "there is no opposing piece on {} to remove",
            name(x)
        )),
        Some(x) => Err(format!(
            "the piece on {} is in a mill and other pieces are not: remove one of {}",
            name(x),
            bits(r.removable(s.bits[1 - me]))
                .map(name)
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Kind};

    fn rules(kind: Kind, pieces: u8, fly: u8) -> Rules {
        Rules {
            geo: Geometry::new(kind),
            pieces,
            fly,
            lasker: false,
            full_board_ties: false,
        }
    }

    fn state(r: &Rules, text: &str) -> State {
        parse_position(r, text, |_| true).expect("a position")
    }

    #[test]
    fn moves_print_and_parse_back() {
        let r = rules(Kind::TwentyFour, 9, 3);
        let s = state(&r, "x:xx-x-------------o-ooo--:0:0");
        let mut n = 0;
        r.for_each_move(&s, |m| {
            assert_eq!(parse_move(&r, &s, &move_text(&r, m)), Ok(m));
            n += 1;
        });
        assert!(n > 0);
        assert_eq!(position_text(&r, &s), "x:xx-x-------------o-ooo--:0:0");
    }

    #[test]
    fn hostile_moves_get_reasons() {
        // Five men's morris, moving phase: X on a5, c5, b4, O on a1, e1, c1.
        let r = rules(Kind::Sixteen, 5, 0);
        let s = state(&r, "x:xx-x---------ooo:0:0");
        let err = |t: &str| parse_move(&r, &s, t).unwrap_err();
        assert!(err("a5-e3").contains("not neighbours, and pieces never fly"));
        assert!(err("e3").contains("no pieces left in hand"));
        assert!(err("a1").contains("a1 is taken"));
        assert!(err("e5-e3").contains("no piece on e5"));
        assert!(err("a5-a3xa1").contains("closes no mill"));
        assert!(err("").contains("no move given"));
        assert!(err("a5-a3-a1").contains("not a point"));
        assert!(err("ü").contains("not a point"));
        // c5 slides to the empty e5 and closes nothing.
        assert_eq!(
            parse_move(&r, &s, "c5-e5"),
            Ok(MoveParts {
                src: Some(1),
                dest: 2,
                remove: None
            })
        );
        // Nine men's morris: X (a7, d7, g1) with 3 on the board flies to g7, closing
        // a mill; O (e3, d2, f2) has no mill, so any of its pieces may be removed.
        let r = rules(Kind::TwentyFour, 9, 3);
        let s = state(&r, "x:xx---------------o-oo--x:0:0");
        assert!(parse_move(&r, &s, "g1-g7").is_err());
        assert_eq!(
            parse_move(&r, &s, "g1-g7xd2").map(|m| m.remove),
            Ok(Some(19))
        );
        // O's b2, d2, f2 are a mill and e3 is not: d2 may not be removed.
        let s2 = state(&r, "x:xx---------------oooo--x:0:0");
        let e = parse_move(&r, &s2, "g1-g7xd2").unwrap_err();
        assert!(e.contains("in a mill and other pieces are not"), "{e}");
        let s3 = state(&r, "x:xx-x-------------o-ooo-x:0:0");
        assert!(parse_move(&r, &s3, "b6-e4")
            .unwrap_err()
            .contains("may fly only with 3"));
    }
}
