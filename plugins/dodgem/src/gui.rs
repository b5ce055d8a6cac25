//! Dodgem's AutoGUI: the board a graphical front end draws, its position and move
//! strings, and GamesmanUni's images for it.
//!
//! The drawing is an `(n + 1) x (n + 1)` grid of centers numbered row by row from the
//! top: the board's cells fill the lower-left `n x n`, the top row above them is Red's
//! exit (where a red car goes when it leaves the board), and the right column beside
//! them Blue's exit. This is the layout of GamesmanUni's Dodgem (its `dodgem/grid.svg`
//! is the 3x3 board), whose blue piece is `o` and red piece `x`. A move is an arrow
//! from a car to the cell (or exit) it drives to.
//!
//! This file must not hold rules: it only maps cells to centers.

use crate::rules::{Board, Dest, Geometry};
use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Fixed, ImageData, Shape, Token};
use gamesman_plugin_api::Player;

/// The center of board cell `cell` (row 0 is the bottom row).
fn center_of_cell(geo: &Geometry, cell: usize) -> usize {
    let n = geo.size();
    let (row, col) = (cell / n, cell % n);
    (n - row) * (n + 1) + col
}

/// The board for our page: grey cells, the exits in their side's colour, round cars.
pub fn board(geo: &Geometry) -> AutoGuiBoard {
    let n = geo.size();
    let side = (n + 1) as f64;
    let mut b = AutoGuiBoard {
        width: side,
        height: side,
        ..AutoGuiBoard::default()
    };
    for r in 0..=n {
        for c in 0..=n {
            b.centers.push((c as f64 + 0.5, r as f64 + 0.5));
        }
    }
    let nf = n as f64;
    b.fixed.push(Fixed::rect(0.0, 0.0, nf, 0.95, "#f6b0b0", ""));
    b.fixed
        .push(Fixed::rect(nf + 0.05, 1.0, 0.95, nf, "#b8b8f6", ""));
    for r in 1..=n {
        for c in 0..n {
            b.fixed.push(Fixed::rect(
                c as f64, r as f64, 1.0, 1.0, "#bbbbbb", "#dddddd",
            ));
        }
    }
    b.tokens
        .push(Token::shape('o', Shape::CIRCLE, 0.8, "#3a5fd9", "#1b2f73"));
    b.tokens
        .push(Token::shape('x', Shape::CIRCLE, 0.8, "#d93a3a", "#731b1b"));
    b
}

/// The position string: `o` for a blue car, `x` for a red one, every center.
pub fn position(geo: &Geometry, b: &Board, turn: Player) -> String {
    let n = geo.size();
    let mut cells = vec!['-'; (n + 1) * (n + 1)];
    for cell in 0..geo.cells() {
        if b.blue >> cell & 1 == 1 {
            cells[center_of_cell(geo, cell)] = 'o';
        } else if b.red >> cell & 1 == 1 {
            cells[center_of_cell(geo, cell)] = 'x';
        }
    }
    autogui::position(turn, &cells.into_iter().collect::<String>())
}

/// The move string of `b`'s side to move driving the car on `from` to `dest`.
pub fn move_string(geo: &Geometry, b: &Board, from: usize, dest: Dest) -> String {
    let to = match dest {
        Dest::Cell(c) => center_of_cell(geo, c),
        // Red leaves off the top edge, into the exit row above its column.
        Dest::Off if b.red >> from & 1 == 1 => from % geo.size(),
        // Blue leaves off the right edge, into the exit column beside its row.
        Dest::Off => center_of_cell(geo, from) + 1,
    };
    autogui::arrow(center_of_cell(geo, from), to)
}

/// GamesmanUni's images: its Dodgem board for 3x3 (other sizes have none, and
/// GamesmanUni lists their moves). Arrows are drawn over the cars, so that all of an
/// arrow can be clicked.
pub fn image_data(geo: &Geometry) -> Option<String> {
    if geo.size() != 3 {
        return None;
    }
    Some(
        ImageData {
            theme: "regular".into(),
            space: (4.0, 4.0),
            centers: board(geo).centers,
            background: "dodgem/grid.svg".into(),
            images: vec![
                ('o', "general/bluepiece.svg".into(), 1.0),
                ('x', "general/redpiece.svg".into(), 1.0),
            ],
            animation: "simpleSlides".into(),
            ..ImageData::default()
        }
        .to_json(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_of_3x3() {
        let geo = Geometry::new(3).unwrap();
        let start = geo.start();
        // Blue on a2 and a3, Red on b1 and c1; the top row and right column are exits.
        assert_eq!(position(&geo, &start, Player::ONE), "1_----o---o----xx-");
        // a3 (top-left cell, center 4) driving right to b3 (center 5).
        assert_eq!(move_string(&geo, &start, 6, Dest::Cell(7)), "M_4_5_x");
        // A blue car on c3 leaves to the right exit, a red one on c3 to the top exit.
        let blue = Board {
            blue: 1 << 8,
            red: 0,
            ..start
        };
        let red = Board {
            blue: 0,
            red: 1 << 8,
            ..start
        };
        assert_eq!(move_string(&geo, &blue, 8, Dest::Off), "M_6_7_x");
        assert_eq!(move_string(&geo, &red, 8, Dest::Off), "M_6_2_x");
        assert_eq!(board(&geo).centers.len(), 16);
    }
}
