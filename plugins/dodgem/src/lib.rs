//! dodgem: Colin Vout's Dodgem (1972; in Berlekamp, Conway and Guy's *Winning Ways*),
//! a loopy game, as a forward-only module: it gives no undo moves, and the host finds
//! every position's parents itself by expanding positions forward.
//!
//! Rules (`rules`): on an n x n board each side has `n - 1` cars. Blue, who moves
//! first, starts on the left column and drives one car a step right, up or down; Red
//! starts on the bottom row and drives up, left or right; the bottom-left corner starts
//! empty. Cars move only onto empty cells and leave the board only by a forward step
//! from their exit edge (Blue's right edge, Red's top edge). The first side to drive
//! all its cars off wins, and a side must always leave the other a move: a side with no
//! move on its turn wins. Cars can shuffle sideways for ever, so positions repeat and
//! perfect play may never end (a draw).
//!
//! Known results: 3x3 is a first-player win (*Winning Ways*); David desJardins (1996)
//! found that 4x4 and 5x5 never end with perfect play. The tests check 3x3 (a win in
//! 19) and 4x4 (a draw) against an independent brute force; 5x5 solves to a draw too
//! (240 M positions, 7.2 GB peak), which is too big for the tests.
//!
//! Tiers count the cars on the board: tier `10 a + b` holds the positions with `a` blue
//! and `b` red cars, both sides to move. A move keeps the counts or drives a car off, so
//! each tier is loopy and its other children have one car fewer. Within a tier a
//! position's index is its board's rank (`rank`: the plugin-api `Ranker`'s order with
//! blue cars as kind 1 and red as kind 2) times two, plus one when Red is to move. A
//! move is `from * (cells + 1) + to`, with `to = cells` for driving off.
//!
//! `gui` draws it for graphical front ends (our page and GamesmanUni).
//!
//! This file maps the plugin API onto `rules`, `rank`, `text` and `gui`; it must not hold
//! rules of its own.

pub mod gui;
pub mod rank;
pub mod rules;
pub mod text;

use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, Value, VariantInfo,
};
use rank::Ranking;
use rules::{Board, Dest, Geometry, Outcome, Side};

/// The variants offered: the board sides, the default first.
const SIZES: [usize; 3] = [3, 4, 5];

/// Dodgem on one board size.
pub struct Dodgem {
    geo: Geometry,
    /// Indices of the boards within a tier.
    ranking: Ranking,
}

impl Dodgem {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of dodgem")
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The blue and red car counts of a tier, if it is one of this board's tiers.
    pub fn tier_counts(&self, tier: Tier) -> Option<(usize, usize)> {
        let (a, b) = (tier.0 / 10, tier.0 % 10);
        let cars = self.geo.cars() as u64;
        (a <= cars && b <= cars && a + b > 0).then_some((a as usize, b as usize))
    }

    /// The tier holding `a` blue and `b` red cars.
    pub fn tier_of(a: usize, b: usize) -> Tier {
        Tier((10 * a + b) as u64)
    }

    /// The board of position `p` (which must lie in one of this board's tiers).
    pub fn board(&self, p: TierPosition) -> Board {
        let (a, b) = self.tier_counts(p.tier).expect("a tier of this board");
        let (blue, red) = self.ranking.unrank(a, b, p.position / 2);
        let to_move = if p.position.is_multiple_of(2) {
            Side::Blue
        } else {
            Side::Red
        };
        Board { blue, red, to_move }
    }

    /// The position of board `b` (which has at most `n - 1` cars a side, and some car).
    pub fn position(&self, b: &Board) -> TierPosition {
        let (a, r) = (b.blue.count_ones() as usize, b.red.count_ones() as usize);
        let index = self.ranking.rank(b.blue, b.red) * 2 + (b.to_move == Side::Red) as u64;
        TierPosition::new(Self::tier_of(a, r), index)
    }

    /// The move driving the car on `from` to `dest`.
    pub fn encode_move(&self, from: usize, dest: Dest) -> Move {
        let cells = self.geo.cells();
        let to = match dest {
            Dest::Cell(c) => c,
            Dest::Off => cells,
        };
        Move((from * (cells + 1) + to) as u64)
    }

    /// The car and destination of move `m`.
    pub fn decode_move(&self, m: Move) -> (usize, Dest) {
        let cells = self.geo.cells() as u64;
        let (from, to) = ((m.0 / (cells + 1)) as usize, m.0 % (cells + 1));
        let dest = if to == cells {
            Dest::Off
        } else {
            Dest::Cell(to as usize)
        };
        (from, dest)
    }
}

impl Game for Dodgem {
    const NAME: &'static str = "dodgem";
    const AUTHORS: &'static str =
        "the gamesman-rs team, after Colin Vout's game (1972) and GamesmanClassic's mdodgem.c";
    const DESCRIPTION: &'static str = "Dodgem: on an n x n board Blue's n-1 cars start on the left column and drive right, up or down; Red's start on the bottom row and drive up, left or right. A car leaves the board by a forward step from the far edge. The first side to get all its cars off wins, and a side left without a move wins (never block your opponent in). Loopy: perfect play may shuffle for ever (a draw). Forward-only module (no undo moves); tiers count the cars on the board.";

    fn variants() -> Vec<VariantInfo> {
        SIZES
            .iter()
            .map(|&n| {
                let known = match n {
                    3 => "the first player wins (Winning Ways)",
                    _ => "a draw (desJardins 1996)",
                };
                VariantInfo::new(
                    &format!("{n}x{n}"),
                    &format!("{n}x{n} board, {} cars each; {known}", n - 1),
                )
            })
            .collect()
    }

    fn new(variant: &str) -> Result<Self, String> {
        let names: Vec<String> = SIZES.iter().map(|n| format!("{n}x{n}")).collect();
        let n = SIZES
            .iter()
            .zip(&names)
            .find(|(_, name)| name.as_str() == variant.trim())
            .map(|(&n, _)| n)
            .ok_or_else(|| {
                format!(
                    "dodgem has no variant '{variant}' (variants: {})",
                    names.join(", ")
                )
            })?;
        let geo = Geometry::new(n)?;
        let ranking = Ranking::new(geo.cells());
        Ok(Dodgem { geo, ranking })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            max_moves: self.geo.max_moves() as u32,
            max_tier_children: 3,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.position(&self.geo.start())
    }

    fn primitive(&self, p: TierPosition) -> Value {
        match self.geo.outcome(&self.board(p)) {
            Outcome::Going => Value::UNDECIDED,
            Outcome::OpponentEscaped => Value::LOSE,
            Outcome::Stuck => Value::WIN,
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let b = self.board(p);
        self.geo
            .for_each_move(&b, |from, dest| moves.push(self.encode_move(from, dest)));
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let (from, dest) = self.decode_move(m);
        self.position(&self.geo.apply(&self.board(p), from, dest))
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.position.is_multiple_of(2) {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        text::board_to_text(&self.geo, &self.board(p))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        let (from, dest) = self.decode_move(m);
        text::move_to_text(&self.geo, from, dest)
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let b = self.board(p);
        let (from, dest) = text::parse_move(&self.geo, &b, text)?;
        Ok(self.encode_move(from, dest))
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        text::position_to_text(&self.geo, &self.board(p))
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        Ok(self.position(&text::parse_position(&self.geo, text)?))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        // A tier without cars of one side holds only finished games (or positions that
        // cannot occur), so it leads nowhere.
        if let Some((a, b)) = self.tier_counts(tier) {
            if a > 0 && b > 0 {
                children.push(tier);
                children.push(Self::tier_of(a - 1, b));
                children.push(Self::tier_of(a, b - 1));
            }
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        match self.tier_counts(tier) {
            Some((a, b)) => 2 * self.ranking.size(a, b),
            None => 0,
        }
    }

    fn is_legal(&self, p: TierPosition) -> bool {
        // The game ends when a side's last car leaves, so that side is never to move.
        let b = self.board(p);
        b.cars(b.to_move) != 0
    }

    fn tier_name(&self, tier: Tier) -> String {
        match self.tier_counts(tier) {
            Some((a, b)) => format!("{a} blue {b} red"),
            None => tier.0.to_string(),
        }
    }

    fn autogui_board(&self) -> Option<gamesman_plugin_api::autogui::Board> {
        Some(gui::board(&self.geo))
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        Some(gui::position(&self.geo, &self.board(p), self.turn(p)))
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> Option<String> {
        let (from, dest) = self.decode_move(m);
        Some(gui::move_string(&self.geo, &self.board(p), from, dest))
    }

    fn image_autogui_data(&self) -> Option<String> {
        gui::image_data(&self.geo)
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        // One unrank for all moves instead of one per `do_move`.
        let b = self.board(p);
        self.geo.for_each_move(&b, |from, dest| {
            children.push(self.position(&self.geo.apply(&b, from, dest)))
        });
        true
    }
}

export_game!(Dodgem);
