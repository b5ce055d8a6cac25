//! The Mills boards for graphical front ends: our AutoGUI board (the points on a
//! square grid, the board's horizontal and vertical lines as thin bars; Morabaraba's
//! diagonals are not drawn there, only said in the variant's description), position and move strings,
//! and GamesmanUni's image data on its own Morris boards (`369mm/board6mm.svg` for
//! the 16-point board, `369mm/board.svg` for the 24-point one; the 17-point and
//! diagonal boards have no image there, so GamesmanUni lists their moves).
//!
//! Centers are the board's points in point order. Pieces are `W` (X, the first player)
//! and `B` (O); a placement is `A_p_<point>`, a slide or flight an arrow. A move that
//! removes a piece has no AutoGUI string (front ends list it by its text).
//!
//! This file must not hold rules: it only maps points to centers.

use crate::board::{Geometry, Kind};
use crate::rules::{MoveParts, State};
use gamesman_plugin_api::autogui::{self, Board, Fixed, ImageData, Shape, Token};
use gamesman_plugin_api::Player;

/// The center of point `p` in board units (a unit per grid step).
fn center(g: &Geometry, p: usize) -> (f64, f64) {
    let (x, y) = g.coords[p];
    (x as f64 + 0.5, (g.side - 1 - y) as f64 + 0.5)
}

/// Our board: lines as bars, points as dots, round pieces.
pub fn board(g: &Geometry) -> Board {
    let side = g.side as f64;
    let mut b = Board {
        width: side,
        height: side,
        background: "#f3e2b3".into(),
        ..Board::default()
    };
    b.centers = (0..g.n).map(|p| center(g, p)).collect();
    let bar = 0.06;
    for path in &g.paths {
        for pair in path.windows(2) {
            let ((x0, y0), (x1, y1)) = (center(g, pair[0]), center(g, pair[1]));
            if x0 == x1 || y0 == y1 {
                let (lx, ly) = (x0.min(x1), y0.min(y1));
                let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
                b.fixed.push(Fixed::rect(
                    lx - bar / 2.0,
                    ly - bar / 2.0,
                    w + bar,
                    h + bar,
                    "#3b2a14",
                    "",
                ));
            }
        }
    }
    for p in 0..g.n {
        let (x, y) = center(g, p);
        let mut dot = Fixed::rect(x - 0.12, y - 0.12, 0.24, 0.24, "#3b2a14", "");
        dot.shape = Shape::CIRCLE;
        b.fixed.push(dot);
    }
    b.tokens
        .push(Token::shape('W', Shape::CIRCLE, 0.7, "#f8f8f0", "#333"));
    b.tokens
        .push(Token::shape('B', Shape::CIRCLE, 0.7, "#222", "#000"));
    b
}

/// The position string of `s`.
pub fn position(g: &Geometry, s: &State) -> String {
    let cells: String = (0..g.n)
        .map(|p| {
            if s.bits[0] >> p & 1 == 1 {
                'W'
            } else if s.bits[1] >> p & 1 == 1 {
                'B'
            } else {
                '-'
            }
        })
        .collect();
    autogui::position(Player(s.turn as u8 + 1), &cells)
}

/// The move string of `m`, if it has one.
pub fn move_string(m: MoveParts) -> Option<String> {
    match (m.src, m.remove) {
        (_, Some(_)) => None,
        (None, None) => Some(autogui::place('p', m.dest)),
        (Some(src), None) => Some(autogui::arrow(src, m.dest)),
    }
}

/// GamesmanUni's image data, where it has a picture of this board.
pub fn image_data(g: &Geometry) -> Option<String> {
    // The boards' pictures: points 40 units apart from (x0, y0) at the top left, in
    // a square space of `space` units.
    let (background, space, x0, y0) = match g.kind {
        Kind::Sixteen => ("369mm/board6mm.svg", 220.0, 29.5, 20.5),
        Kind::TwentyFour => ("369mm/board.svg", 300.0, 39.5, 20.5),
        Kind::Seventeen | Kind::TwentyFourDiagonals => return None,
    };
    let centers = (0..g.n)
        .map(|p| {
            let (x, y) = g.coords[p];
            (x0 + 40.0 * x as f64, y0 + 40.0 * (g.side - 1 - y) as f64)
        })
        .collect();
    Some(
        ImageData {
            theme: "regular".into(),
            space: (space, space),
            centers,
            background: background.into(),
            images: vec![
                ('W', "general/whitepiece.svg".into(), 30.0),
                ('B', "general/blackpiece.svg".into(), 30.0),
            ],
            arrow_width: 4.0,
            circle_radius: 8.0,
            animation: "simpleSlides".into(),
            ..ImageData::default()
        }
        .to_json(),
    )
}
