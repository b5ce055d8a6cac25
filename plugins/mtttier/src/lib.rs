//! mtttier: tic-tac-toe with tiers, exactly as the Tier Gamesman seed draws it.
//!
//! Tier `t` holds the boards with `t` pieces left to place (X has five, O four), so
//! tier 9 is the empty board and tier 0 the full boards; every move goes from tier `t`
//! to tier `t - 1`. Within a tier the board is ranked densely with the plugin-api
//! `Ranker` (the counts of X and O follow from the tier). The `symmetric` variant also
//! reduces the board's eight symmetries through the symmetry hook.
//!
//! This is the example module for module writers: it implements every function of the
//! API, including undo moves. It must stay simple enough to read in one sitting.

use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Token};
use gamesman_plugin_api::rank::Ranker;
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};

/// A board: 9 cells, row by row, `0` blank, `1` X, `2` O.
pub type Board = [u8; 9];

const BLANK: u8 = 0;
const X: u8 = 1;
const O: u8 = 2;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The eight symmetries of the square, as cell permutations: `sym[i]` is where cell `i`
/// goes.
const SYMMETRIES: [[usize; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// Tic-tac-toe with tiers by pieces left to place.
pub struct MttTier {
    /// `rankers[t]` ranks the boards of tier `t`.
    rankers: Vec<Ranker>,
    symmetric: bool,
}

/// Pieces on the board in tier `t`.
fn placed(t: Tier) -> usize {
    9 - t.0 as usize
}

fn has_line(b: &Board, piece: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&c| b[c] == piece))
}

fn count(b: &Board, piece: u8) -> usize {
    b.iter().filter(|&&c| c == piece).count()
}

/// The images of `b` under the eight symmetries (some equal when `b` has symmetry).
fn images(b: Board) -> impl Iterator<Item = Board> {
    SYMMETRIES.iter().map(move |sym| {
        let mut t = [BLANK; 9];
        for i in 0..9 {
            t[sym[i]] = b[i];
        }
        t
    })
}

impl MttTier {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of mtttier")
    }

    /// The board of position `p`.
    pub fn board(&self, p: TierPosition) -> Board {
        let mut b = [BLANK; 9];
        self.rankers[p.tier.0 as usize].unrank(p.position, &mut b);
        b
    }

    /// The position of board `b` (its tier follows from the number of pieces).
    pub fn position(&self, b: &Board) -> TierPosition {
        let t = 9 - b.iter().filter(|&&c| c != BLANK).count();
        TierPosition::new(Tier(t as u64), self.rankers[t].rank(b))
    }

    /// The piece of the player to move (X moves first).
    fn to_move(t: Tier) -> u8 {
        if placed(t).is_multiple_of(2) {
            X
        } else {
            O
        }
    }

    fn legal_board(b: &Board) -> bool {
        let (xs, os) = (count(b, X), count(b, O));
        if xs != os && xs != os + 1 {
            return false;
        }
        match (has_line(b, X), has_line(b, O)) {
            (true, true) => false,
            (true, false) => xs == os + 1,
            (false, true) => xs == os,
            (false, false) => true,
        }
    }

    fn primitive_board(b: &Board, to_move: u8) -> Value {
        let last = if to_move == X { O } else { X };
        if has_line(b, last) {
            Value::LOSE
        } else if b.iter().all(|&c| c != BLANK) {
            Value::TIE
        } else {
            Value::UNDECIDED
        }
    }
}

impl Game for MttTier {
    const NAME: &'static str = "mtttier";
    const AUTHORS: &'static str = "the gamesman-rs team, after Max Delgadillo's mtttier.c";
    const DESCRIPTION: &'static str = "Tic-Tac-Toe: X and O take turns placing a piece on a 3x3 board; three in a row wins, a full board without one is a tie. Tiers count the pieces left to place (tier 9 is the empty board).";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("regular", "every board is its own position"),
            VariantInfo::new(
                "symmetric",
                "boards equal under rotation and reflection are one position (symmetry hook)",
            ),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let symmetric = match variant {
            "regular" => false,
            "symmetric" => true,
            other => {
                return Err(format!(
                    "mtttier has no variant '{other}' (variants: regular, symmetric)"
                ))
            }
        };
        let rankers = (0..=9u64)
            .map(|t| {
                let n = placed(Tier(t));
                Ranker::new(9, &[n.div_ceil(2), n / 2]).expect("3x3 boards always rank")
            })
            .collect();
        Ok(MttTier { rankers, symmetric })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            has_symmetry: self.symmetric,
            max_moves: 9,
            max_undo_moves: 5,
            max_tier_children: 1,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        TierPosition::new(Tier(9), 0)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        Self::primitive_board(&self.board(p), Self::to_move(p.tier))
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let b = self.board(p);
        for (cell, &c) in b.iter().enumerate() {
            if c == BLANK {
                moves.push(Move(cell as u64));
            }
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let mut b = self.board(p);
        b[m.0 as usize] = Self::to_move(p.tier);
        let t = Tier(p.tier.0 - 1);
        TierPosition::new(t, self.rankers[t.0 as usize].rank(&b))
    }

    fn turn(&self, p: TierPosition) -> Player {
        if Self::to_move(p.tier) == X {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let b = self.board(p);
        let sym = |c: u8| match c {
            X => 'X',
            O => 'O',
            _ => '-',
        };
        let mut s = String::new();
        for r in 0..3 {
            let row: Vec<String> = (0..3).map(|c| sym(b[r * 3 + c]).to_string()).collect();
            let keys: Vec<String> = (0..3).map(|c| (r * 3 + c + 1).to_string()).collect();
            s.push_str(&format!("  {}    ( {} )\n", row.join(" "), keys.join(" ")));
        }
        s
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        (m.0 + 1).to_string()
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let cell: u64 = match text.trim().parse() {
            Ok(n @ 1..=9) => n - 1,
            _ => {
                return Err(format!(
                    "'{}' is not a move: type a cell number 1-9",
                    text.trim()
                ))
            }
        };
        if self.board(p)[cell as usize] != BLANK {
            return Err(format!("cell {} is already taken", cell + 1));
        }
        Ok(Move(cell))
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        self.board(p)
            .iter()
            .map(|&c| match c {
                X => 'X',
                O => 'O',
                _ => '-',
            })
            .collect()
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let t = text.trim();
        if t.chars().count() != 9 {
            return Err(format!(
                "'{t}' is not a board: give 9 cells row by row, each X, O or -"
            ));
        }
        let mut b = [BLANK; 9];
        for (cell, ch) in b.iter_mut().zip(t.chars()) {
            *cell = match ch {
                'X' | 'x' => X,
                'O' | 'o' => O,
                '-' | '.' | '_' => BLANK,
                other => return Err(format!("'{other}' is not a cell: use X, O or -")),
            };
        }
        let (xs, os) = (count(&b, X), count(&b, O));
        if xs != os && xs != os + 1 {
            return Err(format!(
                "{xs} X and {os} O cannot occur: X moves first, so X has as many as O or one more"
            ));
        }
        Ok(self.position(&b))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if tier.0 > 0 {
            children.push(Tier(tier.0 - 1));
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        self.rankers.get(tier.0 as usize).map_or(0, Ranker::size)
    }

    fn is_legal(&self, p: TierPosition) -> bool {
        Self::legal_board(&self.board(p))
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        if tier.0 != p.tier.0 + 1 || tier.0 > 9 {
            return;
        }
        let b = self.board(p);
        // The last mover's pieces are the ones that can be taken back.
        let last = if Self::to_move(p.tier) == X { O } else { X };
        for cell in 0..9 {
            if b[cell] != last {
                continue;
            }
            let mut parent = b;
            parent[cell] = BLANK;
            // A game stops at a primitive position, so it is never a parent.
            if Self::legal_board(&parent)
                && Self::primitive_board(&parent, last) == Value::UNDECIDED
            {
                undo.push(UndoMove(cell as u64));
            }
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let mut b = self.board(p);
        b[u.0 as usize] = BLANK;
        let t = Tier(p.tier.0 + 1);
        TierPosition::new(t, self.rankers[t.0 as usize].rank(&b))
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        // One unrank for all moves instead of one per `do_move`.
        let mut b = self.board(p);
        let piece = Self::to_move(p.tier);
        let t = Tier(p.tier.0 - 1);
        for cell in 0..9 {
            if b[cell] == BLANK {
                b[cell] = piece;
                children.push(TierPosition::new(t, self.rankers[t.0 as usize].rank(&b)));
                b[cell] = BLANK;
            }
        }
        true
    }

    fn parents(&self, p: TierPosition, tier: Tier, parents: &mut List<'_, TierPosition>) -> bool {
        if tier.0 != p.tier.0 + 1 || tier.0 > 9 {
            return true;
        }
        let mut b = self.board(p);
        let last = if Self::to_move(p.tier) == X { O } else { X };
        for cell in 0..9 {
            if b[cell] != last {
                continue;
            }
            b[cell] = BLANK;
            if Self::legal_board(&b) && Self::primitive_board(&b, last) == Value::UNDECIDED {
                parents.push(TierPosition::new(
                    tier,
                    self.rankers[tier.0 as usize].rank(&b),
                ));
            }
            b[cell] = last;
        }
        true
    }

    fn tier_name(&self, tier: Tier) -> String {
        let n = placed(tier);
        format!("{}X{}O", n.div_ceil(2), n / 2)
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        let mut b = AutoGuiBoard::grid(3, 3, "#f7f3e8", "#444");
        b.tokens.push(Token::glyph('X', "X", "#1f5fbf"));
        b.tokens.push(Token::glyph('O', "O", "#c0392b"));
        Some(b)
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        Some(autogui::position(self.turn(p), &self.position_to_text(p)))
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> Option<String> {
        // Lower-case tokens, as GamesmanUni's tic-tac-toe: its image board then draws
        // a plain button (an upper-case one would be drawn with the piece's image).
        let token = if Self::to_move(p.tier) == X { 'x' } else { 'o' };
        Some(autogui::place(token, m.0 as usize))
    }

    fn image_autogui_data(&self) -> Option<String> {
        // GamesmanUni's tic-tac-toe images on the board's own unit cells.
        let board = self.autogui_board()?;
        Some(
            autogui::ImageData {
                theme: "regular".into(),
                space: (3.0, 3.0),
                centers: board.centers,
                background: "ttt/3x3grid.svg".into(),
                images: vec![
                    ('X', "ttt/x.svg".into(), 1.0),
                    ('O', "ttt/o.svg".into(), 1.0),
                ],
                circle_radius: 0.15,
                animation: "entityFade".into(),
                ..Default::default()
            }
            .to_json(),
        )
    }

    /// The number of distinct images of `p`'s board under the eight symmetries (for
    /// `analyze --every-position`).
    fn orbit_size(&self, p: TierPosition) -> u64 {
        let mut distinct: Vec<Board> = images(self.board(p)).collect();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() as u64
    }

    /// Every image keeps the pieces, so the player to move: the whole orbit is `p`'s.
    fn orbit_by_turn(&self, p: TierPosition) -> Option<[u64; 2]> {
        let n = self.orbit_size(p);
        Some(match self.turn(p) {
            Player::ONE => [n, 0],
            _ => [0, n],
        })
    }

    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        let best = images(self.board(p))
            .map(|t| self.rankers[p.tier.0 as usize].rank(&t))
            .min()
            .expect("eight symmetries");
        TierPosition::new(p.tier, best)
    }
}

export_game!(MttTier);
