//! mothello: Othello on small boards, solved with WinBy (black discs minus white discs).
//!
//! Rules: black (player one) moves first from the centre square (white on the
//! top-left and bottom-right centre cells). A move puts a disc of the mover's colour on
//! an empty cell so that at least one straight line of opponent discs lies between it
//! and another of the mover's discs; every such line flips. A player with no such cell
//! passes; the game ends when neither player can move, and more discs wins.
//!
//! Tiers are the number of discs on the board: a move goes from tier `d` to `d + 1`, a
//! pass stays in tier `d` (so tiers are loopy, though no position repeats). Positions
//! are ranked densely within a tier (`rank`). Moves are written as cells (`c2`: column
//! letter, row number from the top), or `pass`. Positions are written as the rows from
//! the top separated by `/` (`B` black, `W` white, `-` empty), then `:` and the side to
//! move, e.g. `----/-WB-/-BW-/----:B`.
//!
//! Result and sizes (every board with the centre occupied, times two sides to move):
//! - 4x4: 13 tiers, 17,006,112 positions (62,789 reachable from the start), largest
//!   tier 4,055,040. Black loses by 8 in 12 plies: white, the second player, wins,
//!   as published for 4x4 Othello. Solved in 16.5 s on two threads, 27.1 s on one,
//!   198 MB peak, 15.2 MB on disk.
//! - 4x5: 17 tiers, 1,377,495,072 positions, largest tier 286,261,248 (its child tier
//!   238,551,040). Black wins by 16 in 16 plies (opening d3; c4 wins by 14, b1 and a2
//!   lose by 16), the same margins as a memoized minimax over the 4,990,592 positions
//!   reachable from the start, run by hand. Solved in 23.3 min on two threads and
//!   43.6 min on one (byte-identical databases), 10.6 GB peak, 1.2 GB on disk. No
//!   published 4x5 result was found to compare with. `solve --reachable` solves only
//!   those 4,990,592 positions, with the same result: 15 s of CPU (72 s wall on two
//!   cores shared with a load of 16), 126 MB peak, 9.6 MB on disk.
//! - 4x6 (111,577,100,832 positions) and 5x5 (334,731,302,496, and no centred start on
//!   an odd board) do not fit and are not offered.
//!
//! This file only maps the plugin API onto `board` (rules), `moves` (moves and undo
//! moves) and `rank` (indices); it must not hold rules of its own.

pub mod board;
pub mod moves;
pub mod rank;

use board::{other, Board, Geometry, BLACK, WHITE};
use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Shape, Token};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use moves::{Options, PASS, UNDO_PASS};
use rank::Ranking;

/// The variants offered: name, columns, rows, description.
const VARIANTS: [(&str, usize, usize, &str); 2] = [
    (
        "4x4",
        4,
        4,
        "4 columns (a-d) by 4 rows (1-4); 17,006,112 positions",
    ),
    (
        "4x5",
        4,
        5,
        "4 columns (a-d) by 5 rows (1-5), centre on rows 2-3; 1,377,495,072 positions",
    ),
];

/// Othello on one board size.
pub struct Mothello {
    geo: Geometry,
    ranking: Ranking,
    /// The centre cells as a mask (never emptied, so never undone).
    fixed: u32,
    max_undo: u32,
}

impl Mothello {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of mothello")
    }

    /// The board shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The board and side to move (`BLACK` or `WHITE`) of `p`.
    pub fn board(&self, p: TierPosition) -> (Board, u8) {
        self.ranking.unrank(p.tier.0 as usize, p.position)
    }

    /// The position of `b` with `side` to move (its tier is its disc count).
    pub fn position(&self, b: &Board, side: u8) -> TierPosition {
        let d = b.occupied().count_ones() as u64;
        TierPosition::new(Tier(d), self.ranking.rank(b, side))
    }
}

impl Game for Mothello {
    const NAME: &'static str = "mothello";
    const AUTHORS: &'static str = "the gamesman-rs team, after GamesmanClassic's mothello.c";
    const DESCRIPTION: &'static str = "Othello: on small boards, black and white place discs that flip every straight line of opponent discs they close off (at least one); a player who cannot move passes, and when neither can, more discs wins. Solved with WinBy (black discs minus white discs). Tiers count the discs on the board.";

    fn variants() -> Vec<VariantInfo> {
        VARIANTS
            .iter()
            .map(|(name, _, _, d)| VariantInfo::new(name, d))
            .collect()
    }

    fn new(variant: &str) -> Result<Self, String> {
        let (_, cols, rows, _) = VARIANTS
            .iter()
            .find(|v| v.0 == variant)
            .ok_or_else(|| format!("mothello has no variant '{variant}' (variants: 4x4, 4x5)"))?;
        let geo = Geometry::new(*cols, *rows)?;
        let ranking = Ranking::new(&geo);
        let fixed = geo.centre.iter().fold(0u32, |m, &c| m | 1 << c);
        let max_undo = moves::max_undo_moves(&geo);
        Ok(Mothello {
            geo,
            ranking,
            fixed,
            max_undo,
        })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            supports_winby: true,
            max_moves: (self.geo.cells() - 4) as u32,
            max_undo_moves: self.max_undo,
            max_tier_children: 2,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.position(&self.geo.start(), BLACK)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        let (b, side) = self.board(p);
        if !self.geo.is_over(&b) {
            return Value::UNDECIDED;
        }
        let mine = b.discs(side).count_ones();
        let theirs = b.discs(other(side)).count_ones();
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Value::WIN,
            std::cmp::Ordering::Less => Value::LOSE,
            std::cmp::Ordering::Equal => Value::TIE,
        }
    }

    fn generate_moves(&self, p: TierPosition, out: &mut List<'_, Move>) {
        let (b, side) = self.board(p);
        match moves::options(&self.geo, &b, side) {
            Options::Cells(mut cells) => {
                while cells != 0 {
                    out.push(Move(cells.trailing_zeros() as u64));
                    cells &= cells - 1;
                }
            }
            Options::Pass => out.push(Move(PASS)),
            Options::Over => {}
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let (b, side) = self.board(p);
        let (child, next) = moves::apply(&self.geo, &b, side, m.0);
        self.position(&child, next)
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.position & 1 == 0 {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let (b, side) = self.board(p);
        let mut s = String::from("    ");
        for c in 0..self.geo.cols {
            s.push((b'a' + c as u8) as char);
            s.push(' ');
        }
        s.push('\n');
        for r in 0..self.geo.rows {
            s.push_str(&format!("  {} ", r + 1));
            for c in 0..self.geo.cols {
                s.push(match b.get(r * self.geo.cols + c) {
                    BLACK => 'B',
                    WHITE => 'W',
                    _ => '-',
                });
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "  Black (B): {}  White (W): {}  To move: {}\n",
            b.black.count_ones(),
            b.white.count_ones(),
            if side == BLACK { "Black" } else { "White" }
        ));
        s
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        if m.0 == PASS {
            "pass".into()
        } else {
            self.geo.cell_name(m.0 as usize)
        }
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let (b, side) = self.board(p);
        let t = text.trim();
        match moves::options(&self.geo, &b, side) {
            Options::Over => Err("the game is over".into()),
            Options::Pass if t.eq_ignore_ascii_case("pass") => Ok(Move(PASS)),
            Options::Pass => Err(format!("'{t}' is not legal: there is no move, type pass")),
            Options::Cells(cells) => {
                if t.eq_ignore_ascii_case("pass") {
                    return Err("you may pass only when you have no move".into());
                }
                let cell = self.geo.parse_cell(t).ok_or_else(|| {
                    format!("'{t}' is not a cell: type a column letter and a row number, like c2")
                })?;
                if cells >> cell & 1 == 0 {
                    return Err(format!("{t} does not flip any disc: not a legal move"));
                }
                Ok(Move(cell as u64))
            }
        }
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        let (b, side) = self.board(p);
        let rows: Vec<String> = (0..self.geo.rows)
            .map(|r| {
                (0..self.geo.cols)
                    .map(|c| match b.get(r * self.geo.cols + c) {
                        BLACK => 'B',
                        WHITE => 'W',
                        _ => '-',
                    })
                    .collect()
            })
            .collect();
        format!(
            "{}:{}",
            rows.join("/"),
            if side == BLACK { 'B' } else { 'W' }
        )
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let t = text.trim();
        let (cells, side) = t
            .rsplit_once(':')
            .ok_or_else(|| format!("'{t}' is not a position: rows/rows...:B or :W"))?;
        let side = match side.trim() {
            "B" | "b" => BLACK,
            "W" | "w" => WHITE,
            other => return Err(format!("'{other}' is not a side to move: use B or W")),
        };
        let rows: Vec<&str> = cells.split('/').collect();
        if rows.len() != self.geo.rows || rows.iter().any(|r| r.chars().count() != self.geo.cols) {
            return Err(format!(
                "'{t}' is not a board: give {} rows of {} cells separated by /",
                self.geo.rows, self.geo.cols
            ));
        }
        let mut b = Board::default();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let what = match ch {
                    'B' | 'b' | 'X' | 'x' => BLACK,
                    'W' | 'w' | 'O' | 'o' => WHITE,
                    '-' | '.' | '_' => 0,
                    other => return Err(format!("'{other}' is not a cell: use B, W or -")),
                };
                b.set(r * self.geo.cols + c, what);
            }
        }
        if b.occupied() & self.fixed != self.fixed {
            return Err("the four centre cells are never empty in Othello".into());
        }
        Ok(self.position(&b, side))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        // A full board has no moves; otherwise a pass stays and a move adds a disc.
        if (tier.0 as usize) < self.geo.cells() {
            children.push(tier);
            children.push(Tier(tier.0 + 1));
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        self.ranking.tier_size(tier.0 as usize)
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let (b, side) = self.board(p);
        if tier == p.tier {
            if moves::has_pass_parent(&self.geo, &b, side) {
                undo.push(UndoMove(UNDO_PASS));
            }
        } else if tier.0 + 1 == p.tier.0 && tier.0 >= 4 {
            moves::for_each_placement_parent(&self.geo, &b, side, self.fixed, |u, _| {
                undo.push(UndoMove(u))
            });
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let (b, side) = self.board(p);
        let (parent, prev) = moves::unapply(&b, side, u.0);
        self.position(&parent, prev)
    }

    fn tier_name(&self, tier: Tier) -> String {
        format!("{} discs", tier.0)
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        // One unrank for all moves instead of one per `do_move`.
        let (b, side) = self.board(p);
        moves::for_each_child(&self.geo, &b, side, |_, child, next| {
            children.push(self.position(&child, next))
        });
        true
    }

    fn parents(&self, p: TierPosition, tier: Tier, parents: &mut List<'_, TierPosition>) -> bool {
        let (b, side) = self.board(p);
        if tier == p.tier {
            if moves::has_pass_parent(&self.geo, &b, side) {
                parents.push(self.position(&b, other(side)));
            }
        } else if tier.0 + 1 == p.tier.0 && tier.0 >= 4 {
            moves::for_each_placement_parent(&self.geo, &b, side, self.fixed, |_, parent| {
                parents.push(self.position(&parent, other(side)))
            });
        }
        true
    }

    /// No symmetry, and both fast paths give each position once: two placements never
    /// give one board (each leaves its own cell taken and the other's still empty in
    /// the parent), and undoing one (cell, flips) pair gives its own parent. So the
    /// host need not sort what they give.
    fn fast_paths_canonical(&self) -> bool {
        true
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        // The cells row by row from the top, then one center below the board for the
        // pass button.
        let (rows, cols) = (self.geo.rows, self.geo.cols);
        let mut b = AutoGuiBoard::grid(rows, cols, "#2e8b57", "#0d3d22");
        b.height = rows as f64 + 1.0;
        b.centers.push((cols as f64 / 2.0, rows as f64 + 0.5));
        b.tokens
            .push(Token::shape('B', Shape::CIRCLE, 0.8, "#111", "#000"));
        b.tokens
            .push(Token::shape('W', Shape::CIRCLE, 0.8, "#f4f4f4", "#000"));
        Some(b)
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        let (b, _) = self.board(p);
        let mut cells: String = (0..self.geo.cells())
            .map(|i| match b.get(i) {
                BLACK => 'B',
                WHITE => 'W',
                _ => '-',
            })
            .collect();
        cells.push('-');
        Some(autogui::position(self.turn(p), &cells))
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> Option<String> {
        if m.0 == PASS {
            return Some(autogui::button("pass", self.geo.cells()));
        }
        // GamesmanUni's Othello hit box (a plain dot), whoever places the disc.
        let _ = p;
        Some(autogui::place('h', m.0 as usize))
    }

    fn image_autogui_data(&self) -> Option<String> {
        // GamesmanUni's Othello board is 4x4 with a strip below (where the pass
        // button sits); other sizes get no images, so GamesmanUni lists their moves.
        if (self.geo.rows, self.geo.cols) != (4, 4) {
            return None;
        }
        let board = self.autogui_board()?;
        // Its grid is drawn 0.006 cells in from the space's corner.
        let nudge = |(x, y): (f64, f64)| (x + 0.006, y + 0.006);
        Some(
            autogui::ImageData {
                theme: "regular".into(),
                space: (4.012, 5.0),
                centers: board.centers.into_iter().map(nudge).collect(),
                background: "othello/grid.svg".into(),
                images: vec![
                    ('B', "general/blackpiece.svg".into(), 0.9),
                    ('W', "general/whitepiece.svg".into(), 0.9),
                    ('h', "general/basichitbox.svg".into(), 1.0),
                ],
                animation: "entityFade".into(),
                ..Default::default()
            }
            .to_json(),
        )
    }

    fn win_by(&self, p: TierPosition) -> i64 {
        self.board(p).0.margin()
    }
}

export_game!(Mothello);
