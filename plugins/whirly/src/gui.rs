//! Whirly's AutoGUI: the board our page draws, the position strings, and
//! GamesmanUni's images for them.
//!
//! Centers: one per floor cell (in the level's own numbering, so a move is an arrow
//! from a pusher's cell to the next), then one per target (in floor order), then one
//! per wall (row by row). A position string gives each floor cell its unit (`-`, a box's
//! upper-case colour, `1` a pusher), each target its lower-case colour and each wall
//! `0`: GamesmanUni draws those characters (Sokoban's walls and pusher, a coloured
//! circle for a box, a small one over it for a target), our page draws walls, floor and
//! targets as fixed shapes. GamesmanUni draws letters, digits and `-` only.
//!
//! This file must not parse levels or know the rules.

use crate::level::Level;
use gamesman_plugin_api::autogui::{self, Board, Fixed, ImageData, Shape, Token};
use gamesman_plugin_api::Player;

/// The pusher's character.
const PUSHER: char = '1';
/// A wall's character.
const WALL: char = '0';
/// GamesmanUni's coloured circles (`general/<colour>_circle.svg`), in `PALETTE`'s
/// order as far as it has them.
const UNI_CIRCLES: [&str; 9] = [
    "orange", "blue", "green", "purple", "red", "teal", "yellow", "brown", "pink",
];
/// Colours of boxes and targets on our board, by colour number (cycling).
const PALETTE: [&str; 8] = [
    "#e67e22", "#2980b9", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#b7950b", "#7f8c8d",
];

/// The wall cells, row by row.
fn walls(l: &Level) -> Vec<(usize, usize)> {
    (0..l.height * l.width)
        .filter(|&i| l.hid[i].is_none())
        .map(|i| (i / l.width, i % l.width))
        .collect()
}

/// The centers after the floor cells: the targets (in floor order), then the walls.
fn extra_centers(l: &Level) -> Vec<(usize, usize)> {
    let targets = (0..l.cells.len())
        .filter(|&h| l.target[h] > 0)
        .map(|h| l.cells[h]);
    targets.chain(walls(l)).collect()
}

/// The board of level `l`.
pub fn board(l: &Level) -> Board {
    let mut b = Board {
        width: l.width as f64,
        height: l.height as f64,
        background: "#3b3b3b".into(),
        ..Board::default()
    };
    for &(r, c) in l.cells.iter().chain(&extra_centers(l)) {
        b.centers.push((c as f64 + 0.5, r as f64 + 0.5));
    }
    for r in 0..l.height {
        for c in 0..l.width {
            let (x, y) = (c as f64, r as f64);
            let Some(h) = l.hid[r * l.width + c] else {
                b.fixed
                    .push(Fixed::rect(x, y, 1.0, 1.0, "#3b3b3b", "#2a2a2a"));
                continue;
            };
            b.fixed
                .push(Fixed::rect(x, y, 1.0, 1.0, "#efe8d4", "#d6ccb0"));
            if let Some(t) = l.target[h].checked_sub(1) {
                let colour = PALETTE[t as usize % PALETTE.len()];
                let mut ring = Fixed::rect(x + 0.08, y + 0.08, 0.84, 0.84, "", colour);
                ring.shape = Shape::CIRCLE;
                b.fixed.push(ring);
                b.fixed.push(Fixed::label(
                    x,
                    y,
                    1.0,
                    1.0,
                    &l.colours[t as usize].to_string(),
                    colour,
                ));
            }
        }
    }
    for (i, &k) in l.colours.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let letter = k.to_ascii_uppercase();
        b.tokens.push(
            Token::shape(letter, Shape::ROUNDED, 0.78, colour, "#222")
                .with_glyph(&letter.to_string(), "#fff"),
        );
    }
    b.tokens
        .push(Token::shape(PUSHER, Shape::CIRCLE, 0.7, "#222", "#000").with_glyph("@", "#fff"));
    // Targets and walls are drawn by the fixed shapes here.
    for &k in &l.colours {
        b.tokens.push(Token::glyph(k.to_ascii_lowercase(), "", ""));
    }
    b.tokens.push(Token::glyph(WALL, "", ""));
    b
}

/// The position string of the units `u` (one per floor cell).
pub fn position(l: &Level, u: &[u8]) -> String {
    let mut cells: String = (0..l.cells.len())
        .map(|h| match u[h] {
            0 => '-',
            x if x == l.pusher_code() => PUSHER,
            x => l.colours[x as usize - 1].to_ascii_uppercase(),
        })
        .collect();
    cells.extend(
        l.target
            .iter()
            .filter(|&&t| t > 0)
            .map(|&t| l.colours[t as usize - 1].to_ascii_lowercase()),
    );
    cells.extend(std::iter::repeat_n(WALL, walls(l).len()));
    autogui::position(Player::ONE, &cells)
}

/// GamesmanUni's `imageAutoGUIData` for level `l`.
pub fn image_data(l: &Level) -> String {
    let mut images = vec![
        (WALL, "sokoban/sokoban_wall.svg".to_string(), 1.0),
        (PUSHER, "sokoban/sokoban_player.svg".to_string(), 0.9),
    ];
    for (i, &k) in l.colours.iter().enumerate() {
        let circle = format!("general/{}_circle.svg", UNI_CIRCLES[i % UNI_CIRCLES.len()]);
        images.push((k.to_ascii_uppercase(), circle.clone(), 0.8));
        images.push((k.to_ascii_lowercase(), circle, 0.3));
    }
    ImageData {
        theme: "sokoban".into(),
        space: (l.width as f64, l.height as f64),
        centers: board(l).centers,
        images,
        arrow_width: 0.12,
        animation: "simpleSlides".into(),
        ..Default::default()
    }
    .to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_then_targets_then_walls() {
        let l = Level::parse("; c\n#####\n#@Aa#\n#####\n").unwrap();
        let mut u = vec![0u8; l.cells.len()];
        u[0] = l.pusher_code();
        u[1] = 1;
        // Floor: pusher, box A, empty; the target a; the 12 walls.
        assert_eq!(position(&l, &u), format!("1_1A-a{}", "0".repeat(12)));
        let b = board(&l);
        assert_eq!(b.centers.len(), 3 + 1 + 12);
        assert_eq!(
            b.centers[3], b.centers[2],
            "the target sits on its floor cell"
        );
        assert!(image_data(&l).contains("sokoban/sokoban_wall.svg"));
    }
}
