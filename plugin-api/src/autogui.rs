//! AutoGUI: what a graphical front end needs to draw a module's boards and offer its
//! moves without per-game code or images (GamesmanUni's "AutoGUI", plus a board
//! description of our own).
//!
//! Three things, all optional for a module (`Game::autogui_board`, `autogui_position`,
//! `autogui_move`):
//! - a **board**: a drawing area, the *centers* (drawing slots: one per character of a
//!   position's board string), fixed shapes drawn under everything (squares, walls,
//!   targets, labels), and how each token character is drawn (a shape, colours, a
//!   glyph). Plain numbers and CSS colour strings, so a browser draws it as SVG;
//! - a **position string** `<turn>_<board>`: `1` or `2` for the player to move, then one
//!   character per center, `-` for an empty one (`1_X-O------`);
//! - a **move string**: `A_<token>_<center>_<sound>` places a token at a center,
//!   `M_<from>_<to>_<sound>` moves from one center to another (an arrow),
//!   `L_<p1>_<p2>_<sound>` a line between centers, `T_<text>_<center>_<sound>` a text
//!   button at a center. Centers are numbered from 0 in the order of `Board::centers`.
//!
//! GamesmanUni draws the same strings from its own images when the module also gives
//! its `imageAutoGUIData` (`ImageData`, plugin-api 0.1.4): a drawing space, the same
//! centers scaled to it, a background image and an image per token character, all
//! named by their paths under GamesmanUni's `src/models/images/svg/`. GamesmanUni
//! parses a move's token as one of `[a-zA-Z0-9-]`, a `T_` button's text as one such
//! character, and a position's board as such characters; a move whose token has an
//! image is drawn with that image's `MoveButtonSVG` element, so move tokens usually
//! name no image (a plain circle is drawn) or one made for buttons.
//!
//! This file holds the module writer's types, helpers that build the strings, and the
//! conversions to and from their boundary form (`ffi`); it must not know any game.

use crate::ffi::{FfiAutoGuiBoard, FfiAutoGuiCenter, FfiAutoGuiShape, FfiAutoGuiToken};
use crate::types::Player;

/// How a token or a fixed shape is outlined. Unknown codes draw as `NONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Shape(pub u8);

impl Shape {
    /// No shape: only the glyph or label is drawn.
    pub const NONE: Shape = Shape(0);
    /// A circle filling the given size.
    pub const CIRCLE: Shape = Shape(1);
    /// A square (a rectangle for fixed shapes) filling the given size.
    pub const SQUARE: Shape = Shape(2);
    /// A square with rounded corners.
    pub const ROUNDED: Shape = Shape(3);

    /// The shape's name in JSON (`none`, `circle`, `square`, `rounded`).
    pub fn name(self) -> &'static str {
        match self {
            Shape::CIRCLE => "circle",
            Shape::SQUARE => "square",
            Shape::ROUNDED => "rounded",
            _ => "none",
        }
    }
}

/// How one token character of a position string is drawn at its center.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The character in position strings (`X`, `@`, `k`); never `-` (empty).
    pub ch: char,
    /// The outline drawn at the center.
    pub shape: Shape,
    /// The shape's size (its diameter or side) in board units.
    pub size: f64,
    /// The shape's fill colour (CSS), empty for none.
    pub fill: String,
    /// The outline colour (CSS) of the shape and the glyph, empty for none.
    pub stroke: String,
    /// Text drawn on top (`X`, a chess glyph), empty for none.
    pub glyph: String,
    /// The glyph's colour (CSS).
    pub glyph_colour: String,
}

impl Token {
    /// A token drawn as a glyph only (tic-tac-toe's X and O).
    pub fn glyph(ch: char, glyph: &str, colour: &str) -> Token {
        Token {
            ch,
            shape: Shape::NONE,
            size: 0.8,
            fill: String::new(),
            stroke: String::new(),
            glyph: glyph.to_string(),
            glyph_colour: colour.to_string(),
        }
    }

    /// A token drawn as a filled shape without a glyph (Othello's discs).
    pub fn shape(ch: char, shape: Shape, size: f64, fill: &str, stroke: &str) -> Token {
        Token {
            ch,
            shape,
            size,
            fill: fill.to_string(),
            stroke: stroke.to_string(),
            glyph: String::new(),
            glyph_colour: String::new(),
        }
    }

    /// This token with a glyph on top.
    pub fn with_glyph(mut self, glyph: &str, colour: &str) -> Token {
        self.glyph = glyph.to_string();
        self.glyph_colour = colour.to_string();
        self
    }
}

/// A shape drawn under the tokens at a fixed place (a board square, a wall, a label).
#[derive(Clone, Debug, PartialEq)]
pub struct Fixed {
    /// Left edge in board units.
    pub x: f64,
    /// Top edge in board units.
    pub y: f64,
    /// Width in board units.
    pub w: f64,
    /// Height in board units.
    pub h: f64,
    /// The outline (`NONE` draws only the label).
    pub shape: Shape,
    /// Fill colour (CSS), empty for none.
    pub fill: String,
    /// Outline colour (CSS), empty for none.
    pub stroke: String,
    /// Text drawn in the middle (a coordinate, a target letter), empty for none.
    pub label: String,
}

impl Fixed {
    /// A filled rectangle.
    pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) -> Fixed {
        Fixed {
            x,
            y,
            w,
            h,
            shape: Shape::SQUARE,
            fill: fill.to_string(),
            stroke: stroke.to_string(),
            label: String::new(),
        }
    }

    /// A text label centred in the given box.
    pub fn label(x: f64, y: f64, w: f64, h: f64, text: &str, colour: &str) -> Fixed {
        Fixed {
            x,
            y,
            w,
            h,
            shape: Shape::NONE,
            fill: colour.to_string(),
            stroke: String::new(),
            label: text.to_string(),
        }
    }
}

/// A board a front end can draw: see the file comment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Board {
    /// Width of the drawing area in board units (a cell is usually 1).
    pub width: f64,
    /// Height of the drawing area in board units.
    pub height: f64,
    /// The background colour (CSS), empty for none.
    pub background: String,
    /// The drawing slots, numbered from 0: `(x, y)` of each, in board units.
    pub centers: Vec<(f64, f64)>,
    /// Fixed shapes, drawn in order under the tokens.
    pub fixed: Vec<Fixed>,
    /// How each token character is drawn.
    pub tokens: Vec<Token>,
}

impl Board {
    /// A `rows` x `cols` grid of unit cells: centers row by row from the top left, and
    /// one square per cell with the given colours.
    pub fn grid(rows: usize, cols: usize, fill: &str, stroke: &str) -> Board {
        let mut b = Board {
            width: cols as f64,
            height: rows as f64,
            ..Board::default()
        };
        for r in 0..rows {
            for c in 0..cols {
                b.centers.push((c as f64 + 0.5, r as f64 + 0.5));
                b.fixed
                    .push(Fixed::rect(c as f64, r as f64, 1.0, 1.0, fill, stroke));
            }
        }
        b
    }
}

/// The position string for `turn` to move and one character per center.
///
/// ```
/// use gamesman_plugin_api::{autogui, Player};
/// assert_eq!(autogui::position(Player::TWO, "X-O"), "2_X-O");
/// assert_eq!(autogui::place('x', 4), "A_x_4_x");
/// ```
pub fn position(turn: Player, board: &str) -> String {
    format!("{}_{board}", turn.0)
}

/// The move string that places `token` at `center`.
pub fn place(token: char, center: usize) -> String {
    format!("A_{token}_{center}_x")
}

/// The move string of an arrow from center `from` to center `to`.
pub fn arrow(from: usize, to: usize) -> String {
    format!("M_{from}_{to}_x")
}

/// The move string of a line between two centers.
pub fn line(p1: usize, p2: usize) -> String {
    format!("L_{p1}_{p2}_x")
}

/// The move string of a text button showing `text` at `center` (`text` must not
/// contain `_`).
pub fn button(text: &str, center: usize) -> String {
    format!("T_{text}_{center}_x")
}

/// GamesmanUni's `imageAutoGUIData` with one theme (see the file comment); numbers
/// are in the theme's own units (`space`). `to_json` gives what
/// `Game::image_autogui_data` returns.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ImageData {
    /// The theme's name (GamesmanUni shows it in its theme menu).
    pub theme: String,
    /// Width and height of the drawing space.
    pub space: (f64, f64),
    /// The centers, in the order of `Board::centers`.
    pub centers: Vec<(f64, f64)>,
    /// The background image (`ttt/3x3grid.svg`), empty for none.
    pub background: String,
    /// For a token character, its image and its size (in space units).
    pub images: Vec<(char, String, f64)>,
    /// The width of move arrows, 0 for GamesmanUni's default.
    pub arrow_width: f64,
    /// The radius of plain circle move buttons, 0 for GamesmanUni's default.
    pub circle_radius: f64,
    /// Whether pieces are drawn over the move arrows (else arrows over pieces).
    pub entities_over_arrows: bool,
    /// GamesmanUni's move animation (`entityFade`, `simpleSlides`), empty for none.
    pub animation: String,
}

impl ImageData {
    /// The JSON GamesmanUni reads: `{"defaultTheme", "themes": {NAME: {...}}}`.
    pub fn to_json(&self) -> String {
        let num = |v: f64| format!("{v}");
        let pair = |(x, y): (f64, f64)| format!("[{},{}]", num(x), num(y));
        let mut t = vec![
            format!("\"space\":{}", pair(self.space)),
            format!(
                "\"centers\":[{}]",
                self.centers
                    .iter()
                    .map(|&c| pair(c))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ];
        if !self.background.is_empty() {
            t.push(format!("\"background\":{}", json_string(&self.background)));
        }
        let images: Vec<String> = self
            .images
            .iter()
            .map(|(ch, image, scale)| {
                format!(
                    "{}:{{\"image\":{},\"scale\":{}}}",
                    json_string(&ch.to_string()),
                    json_string(image),
                    num(*scale)
                )
            })
            .collect();
        t.push(format!("\"charImages\":{{{}}}", images.join(",")));
        if self.arrow_width > 0.0 {
            t.push(format!("\"arrowWidth\":{}", num(self.arrow_width)));
        }
        if self.circle_radius > 0.0 {
            t.push(format!(
                "\"circleButtonRadius\":{}",
                num(self.circle_radius)
            ));
        }
        if self.entities_over_arrows {
            t.push("\"entitiesOverArrows\":true".into());
        }
        if !self.animation.is_empty() {
            t.push(format!(
                "\"animationType\":{}",
                json_string(&self.animation)
            ));
        }
        format!(
            "{{\"defaultTheme\":{name},\"themes\":{{{name}:{{{}}}}}}}",
            t.join(","),
            name = json_string(&self.theme)
        )
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The board's centers in boundary form.
fn to_ffi_center(&(x, y): &(f64, f64)) -> FfiAutoGuiCenter {
    FfiAutoGuiCenter { x, y }
}

impl From<&Board> for FfiAutoGuiBoard {
    fn from(b: &Board) -> Self {
        FfiAutoGuiBoard {
            width: b.width,
            height: b.height,
            background: b.background.as_str().into(),
            centers: b.centers.iter().map(to_ffi_center).collect(),
            fixed: b
                .fixed
                .iter()
                .map(|f| FfiAutoGuiShape {
                    x: f.x,
                    y: f.y,
                    w: f.w,
                    h: f.h,
                    shape: f.shape.0,
                    fill: f.fill.as_str().into(),
                    stroke: f.stroke.as_str().into(),
                    label: f.label.as_str().into(),
                })
                .collect(),
            tokens: b
                .tokens
                .iter()
                .map(|t| FfiAutoGuiToken {
                    ch: t.ch as u32,
                    shape: t.shape.0,
                    size: t.size,
                    fill: t.fill.as_str().into(),
                    stroke: t.stroke.as_str().into(),
                    glyph: t.glyph.as_str().into(),
                    glyph_colour: t.glyph_colour.as_str().into(),
                })
                .collect(),
        }
    }
}

impl From<&FfiAutoGuiBoard> for Board {
    fn from(b: &FfiAutoGuiBoard) -> Self {
        Board {
            width: b.width,
            height: b.height,
            background: b.background.to_string(),
            centers: b.centers.iter().map(|c| (c.x, c.y)).collect(),
            fixed: b
                .fixed
                .iter()
                .map(|f| Fixed {
                    x: f.x,
                    y: f.y,
                    w: f.w,
                    h: f.h,
                    shape: Shape(f.shape),
                    fill: f.fill.to_string(),
                    stroke: f.stroke.to_string(),
                    label: f.label.to_string(),
                })
                .collect(),
            tokens: b
                .tokens
                .iter()
                .map(|t| Token {
                    // An invalid scalar becomes U+FFFD, which no position uses.
                    ch: char::from_u32(t.ch).unwrap_or(char::REPLACEMENT_CHARACTER),
                    shape: Shape(t.shape),
                    size: t.size,
                    fill: t.fill.to_string(),
                    stroke: t.stroke.to_string(),
                    glyph: t.glyph.to_string(),
                    glyph_colour: t.glyph_colour.to_string(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings() {
        assert_eq!(position(Player::TWO, "X--"), "2_X--");
        assert_eq!(place('x', 4), "A_x_4_x");
        assert_eq!(arrow(7, 8), "M_7_8_x");
        assert_eq!(line(0, 2), "L_0_2_x");
        assert_eq!(button("pass", 16), "T_pass_16_x");
    }

    #[test]
    fn image_data_json() {
        let d = ImageData {
            theme: "regular".into(),
            space: (2.0, 1.5),
            centers: vec![(0.5, 0.75), (1.5, 0.75)],
            background: "ttt/3x3grid.svg".into(),
            images: vec![('X', "ttt/x.svg".into(), 1.0)],
            arrow_width: 0.1,
            ..ImageData::default()
        };
        assert_eq!(
            d.to_json(),
            r#"{"defaultTheme":"regular","themes":{"regular":{"space":[2,1.5],"centers":[[0.5,0.75],[1.5,0.75]],"background":"ttt/3x3grid.svg","charImages":{"X":{"image":"ttt/x.svg","scale":1}},"arrowWidth":0.1}}}"#
        );
        assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\u000a""#);
    }

    #[test]
    fn grid_and_round_trip() {
        let mut b = Board::grid(2, 3, "#eee", "#333");
        b.tokens.push(Token::glyph('X', "X", "#00f"));
        b.tokens
            .push(Token::shape('B', Shape::CIRCLE, 0.8, "#000", "").with_glyph("♚", "#fff"));
        assert_eq!(b.centers.len(), 6);
        assert_eq!(b.centers[4], (1.5, 1.5));
        assert_eq!(b.fixed[5].x, 2.0);
        let back = Board::from(&FfiAutoGuiBoard::from(&b));
        assert_eq!(back, b);
    }
}
