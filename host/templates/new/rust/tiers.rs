//! A tiered game module written by `host new --tiers`: Treblecross, complete and
//! solvable as it stands, with undo moves and a symmetry. Replace the rules with your
//! game's, keeping `validate` happy at every step (see README.md beside this crate).
//!
//! The game: a row of 7 (or 6, or 9) empty cells; the players take turns putting an X
//! on an empty cell (both play X); whoever completes three X in a row wins. Tier `t`
//! holds the boards with `t` X on them (tier 0 is the empty row): every move goes from
//! tier `t` to tier `t + 1`, so the solver solves the fullest tier first and needs
//! only a tier and its child in memory. Within a tier, `Ranker` numbers the boards
//! densely (the cells of the `t` X as a combination). Whose turn it is follows from
//! the tier: player one moves at even tiers. A board and its mirror image have the
//! same value, so only one of them is stored.

use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Token};
use gamesman_plugin_api::rank::Ranker;
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};

// ANCHOR: state
/// The most cells a variant has.
const MAX_CELLS: usize = 9;
/// A board, cell by cell from the left: `BLANK` or `X` (only the first `cells` are
/// used).
type Board = [u8; MAX_CELLS];
const BLANK: u8 = 0;
const X: u8 = 1;

/// One variant: the row's length and a ranker per tier.
pub struct Treblecross {
    cells: usize,
    /// `rankers[t]` numbers the boards of tier `t`, those with `t` X.
    rankers: Vec<Ranker>,
}

impl Treblecross {
    /// The board of position `p`.
    fn board(&self, p: TierPosition) -> Board {
        let mut b = [BLANK; MAX_CELLS];
        self.rankers[p.tier.0 as usize].unrank(p.position, &mut b[..self.cells]);
        b
    }

    /// The position of board `b`, in `tier` (its number of X).
    fn position(&self, tier: Tier, b: &Board) -> TierPosition {
        TierPosition::new(tier, self.rankers[tier.0 as usize].rank(&b[..self.cells]))
    }

    fn three_in_a_row(&self, b: &Board) -> bool {
        b[..self.cells].windows(3).any(|w| w == [X, X, X])
    }
}
// ANCHOR_END: state

impl Game for Treblecross {
    // ANCHOR: metadata
    // The module's name is the crate's name: `host` keeps its databases under it.
    const NAME: &'static str = env!("CARGO_PKG_NAME");
    const AUTHORS: &'static str = "you";
    const DESCRIPTION: &'static str = "Treblecross: the players take turns putting an X on an empty cell of a row; whoever completes three X in a row wins.";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("7", "a row of 7 cells"),
            VariantInfo::new("6", "a row of 6 cells"),
            VariantInfo::new("9", "a row of 9 cells"),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let cells = match variant {
            "6" => 6,
            "7" => 7,
            "9" => 9,
            other => return Err(format!("no variant '{other}' (variants: 7, 6, 9)")),
        };
        let rankers = (0..=cells)
            .map(|t| Ranker::new(cells, &[t]).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        Ok(Treblecross { cells, rankers })
    }

    fn properties(&self) -> Properties {
        Properties {
            is_tier_game: true,
            has_symmetry: true,
            max_moves: self.cells as u32,
            max_undo_moves: self.cells as u32,
            max_tier_children: 1,
            ..Properties::default()
        }
    }
    // ANCHOR_END: metadata

    // ANCHOR: rules
    fn initial_position(&self) -> TierPosition {
        TierPosition::new(Tier(0), 0)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        // The player who just moved completed three in a row.
        if self.three_in_a_row(&self.board(p)) {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let b = self.board(p);
        for cell in 0..self.cells {
            if b[cell] == BLANK {
                moves.push(Move(cell as u64));
            }
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let mut b = self.board(p);
        b[m.0 as usize] = X;
        self.position(Tier(p.tier.0 + 1), &b)
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.tier.0 % 2 == 0 {
            Player::ONE
        } else {
            Player::TWO
        }
    }
    // ANCHOR_END: rules

    // ANCHOR: tiers
    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if (tier.0 as usize) < self.cells {
            children.push(Tier(tier.0 + 1));
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        self.rankers.get(tier.0 as usize).map_or(0, Ranker::size)
    }

    fn tier_name(&self, tier: Tier) -> String {
        format!("{}x", tier.0)
    }

    /// Whether a game can reach the board: play stops at three in a row, so a board
    /// with one must have one X (the last) whose removal leaves none.
    fn is_legal(&self, p: TierPosition) -> bool {
        let b = self.board(p);
        !self.three_in_a_row(&b)
            || (0..self.cells).any(|cell| {
                let mut before = b;
                before[cell] = BLANK;
                b[cell] == X && !self.three_in_a_row(&before)
            })
    }
    // ANCHOR_END: tiers

    // ANCHOR: undo
    /// Taking back an X, when that gives a position play could have gone on from (no
    /// three in a row: the game stops there).
    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        if tier.0 + 1 != p.tier.0 {
            return;
        }
        let b = self.board(p);
        for cell in 0..self.cells {
            let mut parent = b;
            parent[cell] = BLANK;
            if b[cell] == X && !self.three_in_a_row(&parent) {
                undo.push(UndoMove(cell as u64));
            }
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let mut b = self.board(p);
        b[u.0 as usize] = BLANK;
        self.position(Tier(p.tier.0 - 1), &b)
    }
    // ANCHOR_END: undo

    // ANCHOR: symmetry
    /// A board and its mirror image: the one with the smaller number stands for both.
    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        let b = self.board(p);
        let mut mirror = [BLANK; MAX_CELLS];
        for cell in 0..self.cells {
            mirror[self.cells - 1 - cell] = b[cell];
        }
        self.position(p.tier, &mirror).min(p)
    }
    // ANCHOR_END: symmetry

    // ANCHOR: text
    fn board_to_text(&self, p: TierPosition) -> String {
        let b = self.board(p);
        let cells: Vec<String> = b[..self.cells]
            .iter()
            .map(|&c| symbol(c).to_string())
            .collect();
        let keys: Vec<String> = (1..=self.cells).map(|k| k.to_string()).collect();
        format!("  {}    ( {} )\n", cells.join(" "), keys.join(" "))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        (m.0 + 1).to_string()
    }

    /// One character per cell, `X` or `-`: `---X---`.
    fn position_to_text(&self, p: TierPosition) -> String {
        self.board(p)[..self.cells]
            .iter()
            .map(|&c| symbol(c))
            .collect()
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let text = text.trim();
        if text.chars().count() != self.cells {
            return Err(format!(
                "'{text}' is not a board: give {} cells, each X or -",
                self.cells
            ));
        }
        let mut b = [BLANK; MAX_CELLS];
        for (cell, ch) in b.iter_mut().zip(text.chars()) {
            *cell = match ch {
                'X' | 'x' => X,
                '-' => BLANK,
                other => return Err(format!("'{other}' is not a cell: use X or -")),
            };
        }
        let tier = Tier(b.iter().filter(|&&c| c == X).count() as u64);
        Ok(self.position(tier, &b))
    }
    // ANCHOR_END: text

    // ANCHOR: autogui
    // A board for graphical front ends (`host serve`, GamesmanUni): one row of cells;
    // a move puts an X on a cell.
    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        let mut board = AutoGuiBoard::grid(1, self.cells, "#f7f3e8", "#444");
        board.tokens.push(Token::glyph('X', "X", "#1f5fbf"));
        Some(board)
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        Some(autogui::position(self.turn(p), &self.position_to_text(p)))
    }

    fn autogui_move(&self, _p: TierPosition, m: Move) -> Option<String> {
        Some(autogui::place('x', m.0 as usize))
    }
    // ANCHOR_END: autogui
}

fn symbol(c: u8) -> char {
    if c == X {
        'X'
    } else {
        '-'
    }
}

export_game!(Treblecross);

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(g: &Treblecross, p: TierPosition) -> Vec<Move> {
        let mut buf = [Move::default(); MAX_CELLS];
        let mut list = List::new(&mut buf);
        g.generate_moves(p, &mut list);
        list.as_slice().to_vec()
    }

    fn undo_moves(g: &Treblecross, p: TierPosition, tier: Tier) -> Vec<UndoMove> {
        let mut buf = [UndoMove::default(); MAX_CELLS];
        let mut list = List::new(&mut buf);
        g.generate_undo_moves_to_tier(p, tier, &mut list);
        list.as_slice().to_vec()
    }

    #[test]
    fn the_start_is_the_empty_row_with_player_one_to_move() {
        let g = Treblecross::new("7").unwrap();
        let start = g.initial_position();
        assert_eq!(g.position_to_text(start), "-------");
        assert_eq!(g.turn(start), Player::ONE);
        assert_eq!(moves(&g, start).len(), 7);
    }

    #[test]
    fn three_in_a_row_ends_the_game() {
        let g = Treblecross::new("7").unwrap();
        let p = g.text_to_position("-XXX---").unwrap();
        assert_eq!(g.turn(p), Player::TWO);
        assert_eq!(g.primitive(p), Value::LOSE);
        assert!(g.is_legal(p));
        // Two separate rows of three: play would have stopped at the first.
        assert!(!g.is_legal(g.text_to_position("XXX-XXX").unwrap()));
    }

    /// Every move of every legal, non-primitive position is undone by an undo move
    /// back to it: what `validate` checks for the whole game.
    #[test]
    fn every_move_is_undone() {
        let g = Treblecross::new("6").unwrap();
        for t in 0..6 {
            let tier = Tier(t);
            for index in 0..g.tier_size(tier) {
                let p = TierPosition::new(tier, index);
                if !g.is_legal(p) || g.primitive(p) != Value::UNDECIDED {
                    continue;
                }
                for m in moves(&g, p) {
                    let child = g.do_move(p, m);
                    let back: Vec<_> = undo_moves(&g, child, tier)
                        .into_iter()
                        .map(|u| g.undo_move(child, u))
                        .collect();
                    assert!(back.contains(&p), "{}", g.position_to_text(child));
                }
            }
        }
    }

    #[test]
    fn a_board_and_its_mirror_are_one_position() {
        let g = Treblecross::new("7").unwrap();
        let a = g.text_to_position("X---X--").unwrap();
        let b = g.text_to_position("--X---X").unwrap();
        assert_ne!(a, b);
        assert_eq!(g.canonical_position(a), g.canonical_position(b));
    }

    #[test]
    fn bad_boards_are_refused_with_a_reason() {
        let g = Treblecross::new("6").unwrap();
        assert!(g
            .text_to_position("X-?---")
            .unwrap_err()
            .contains("not a cell"));
        assert!(g.text_to_position("X---").unwrap_err().contains("6 cells"));
    }
}
