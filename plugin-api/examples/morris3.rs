//! A game with cycles in one file: Three Men's Morris, the book's example of a loopy
//! tier (docs/book/src/tutorial/cycles.md). Each player places three men on the
//! points of a 3x3 board, X first; once all six are down, a move slides one of your
//! men to an empty point next to it, across or up and down (not diagonally). Three in
//! a row, column or diagonal wins; a player who cannot move loses.
//!
//! Tier `t` (0..=6) holds the boards with `t` men down. Placing moves from tier `t`
//! to `t + 1`; sliding keeps all six down, so tier 6 is its own child: it is loopy
//! and lists itself in `tier_children`. In tiers 0-5 the number of men says whose
//! turn it is; in tier 6 it does not, so the turn is part of the index there
//! (`2 * board + 1` when O is to move). Undo moves are asked once per parent tier: a
//! tier-6 position answers towards tier 6 (a slide taken back) and towards tier 5
//! (O's last man lifted, when X is to move). The 8 symmetries of the board come
//! from `symmetry::Symmetries`. Build it with `cargo build --release --examples`.

// `x % 2 == 0` stays: `is_multiple_of` needs Rust 1.87, and the book promises 1.80.
#![allow(unknown_lints, clippy::manual_is_multiple_of)]

use gamesman_plugin_api::rank::Ranker;
use gamesman_plugin_api::symmetry::Symmetries;
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};

/// The last tier: every man down, moves slide.
const FULL: u64 = 6;
/// A board: 0 empty, 1 X, 2 O, cells row by row.
type Board = [u8; 9];
/// The rows, columns and diagonals.
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
/// A move's code for placing on `to`: `to`; for sliding `from` to `to`: `9 + 9 * from + to`.
const SLIDE: u64 = 9;

/// Three Men's Morris.
pub struct Morris3 {
    /// Boards of tier `t` with `(t + 1) / 2` X and `t / 2` O.
    rankers: Vec<Ranker>,
    sym: Symmetries,
    /// The book's mistakes, each a variant that `validate` refuses: the loopy tier
    /// not listing itself, undo moves towards the tier below only, undo moves to
    /// parents where the game was already over.
    mistake: Mistake,
}

/// A mistake made on purpose (the variants `mistake-...`), for the book and its tests.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mistake {
    None,
    NoSelfLoop,
    UndoOneTier,
    PrimitiveParents,
}

/// The points next to `cell` across or up and down.
fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / 3, cell % 3);
    [(0, 1), (2, 1), (1, 0), (1, 2)]
        .into_iter()
        .map(move |(dr, dc)| (r + dr, c + dc))
        .filter(|&(r, c)| (1..=3).contains(&r) && (1..=3).contains(&c))
        .map(|(r, c)| (r - 1) * 3 + (c - 1))
}

/// Whether `who` (1 or 2) has three in a line.
fn has_line(b: &Board, who: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == who))
}

/// The player to move: X (1) on an even number of men down before the last tier.
fn piece_of(p: Player) -> u8 {
    if p == Player::ONE {
        1
    } else {
        2
    }
}

impl Morris3 {
    // ANCHOR: index
    /// The board and the player to move at `p`.
    fn board(&self, p: TierPosition) -> (Board, Player) {
        let mut b = [0u8; 9];
        let (rank, turn) = if p.tier.0 == FULL {
            let two = p.position % 2 == 1;
            (p.position / 2, if two { Player::TWO } else { Player::ONE })
        } else if p.tier.0 % 2 == 0 {
            (p.position, Player::ONE)
        } else {
            (p.position, Player::TWO)
        };
        self.rankers[p.tier.0 as usize].unrank(rank, &mut b);
        (b, turn)
    }

    /// The position of board `b` with `turn` to move.
    fn position(&self, b: &Board, turn: Player) -> TierPosition {
        let tier = b.iter().filter(|&&c| c != 0).count() as u64;
        let rank = self.rankers[tier as usize].rank(b);
        let index = if tier == FULL {
            2 * rank + u64::from(turn == Player::TWO)
        } else {
            rank
        };
        TierPosition::new(Tier(tier), index)
    }
}
// ANCHOR_END: index

impl Game for Morris3 {
    const NAME: &'static str = "morris3";
    const AUTHORS: &'static str = "the gamesman-rs team (the plugin-api example)";
    const DESCRIPTION: &'static str =
        "Three Men's Morris: place three men each, then slide them; three in a line wins.";
    const DISPLAY_NAME: &'static str = "Three Men's Morris";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("regular", "3x3 board, slides across and up and down"),
            VariantInfo::new(
                "mistake-no-self-loop",
                "wrong on purpose: the sliding tier does not list itself",
            ),
            VariantInfo::new(
                "mistake-undo-one-tier",
                "wrong on purpose: undo moves towards the tier below only",
            ),
            VariantInfo::new(
                "mistake-primitive-parents",
                "wrong on purpose: undo moves to parents with three in a row",
            ),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let mistake = match variant {
            "regular" => Mistake::None,
            "mistake-no-self-loop" => Mistake::NoSelfLoop,
            "mistake-undo-one-tier" => Mistake::UndoOneTier,
            "mistake-primitive-parents" => Mistake::PrimitiveParents,
            _ => return Err(format!("unknown variant '{variant}' (there is 'regular')")),
        };
        let rankers = (0..=FULL as usize)
            .map(|t| Ranker::new(9, &[t.div_ceil(2), t / 2]).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        Ok(Morris3 {
            rankers,
            sym: Symmetries::square(3),
            mistake,
        })
    }

    fn properties(&self) -> Properties {
        Properties {
            is_tier_game: true,
            has_symmetry: true,
            max_moves: 12,
            // At most 3 slides back per man of the last mover, or 3 men lifted.
            max_undo_moves: 12,
            max_tier_children: 1,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        TierPosition::new(Tier(0), 0)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        let (b, turn) = self.board(p);
        // The player who just moved made a line: the player to move has lost.
        if has_line(&b, piece_of(turn.other())) {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let (b, turn) = self.board(p);
        for from in 0..9 {
            if p.tier.0 < FULL && b[from] == 0 {
                moves.push(Move(from as u64));
            } else if p.tier.0 == FULL && b[from] == piece_of(turn) {
                for to in neighbours(from).filter(|&to| b[to] == 0) {
                    moves.push(Move(SLIDE + 9 * from as u64 + to as u64));
                }
            }
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let (mut b, turn) = self.board(p);
        if m.0 < SLIDE {
            b[m.0 as usize] = piece_of(turn);
        } else {
            let (from, to) = (((m.0 - SLIDE) / 9) as usize, ((m.0 - SLIDE) % 9) as usize);
            b[to] = b[from];
            b[from] = 0;
        }
        self.position(&b, turn.other())
    }

    fn turn(&self, p: TierPosition) -> Player {
        self.board(p).1
    }

    fn is_legal(&self, p: TierPosition) -> bool {
        // The player to move never has a line: it would have ended the game before.
        let (b, turn) = self.board(p);
        !has_line(&b, piece_of(turn))
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let (b, _) = self.board(p);
        b.chunks(3)
            .map(|row| row.iter().map(|&c| ['.', 'X', 'O'][c as usize]).collect())
            .collect::<Vec<String>>()
            .join("\n")
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        let name = |cell: u64| format!("{}{}", ['a', 'b', 'c'][(cell % 3) as usize], cell / 3 + 1);
        if m.0 < SLIDE {
            name(m.0)
        } else {
            format!("{}-{}", name((m.0 - SLIDE) / 9), name((m.0 - SLIDE) % 9))
        }
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        let (b, turn) = self.board(p);
        let board: String = b.iter().map(|&c| ['.', 'X', 'O'][c as usize]).collect();
        format!("{board}:{}", if turn == Player::ONE { 'X' } else { 'O' })
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let bad = || format!("'{text}' is not a position: nine of . X O, ':', and X or O to move");
        let (board, turn) = text.trim().split_once(':').ok_or_else(bad)?;
        let mut b = [0u8; 9];
        if board.chars().count() != 9 {
            return Err(bad());
        }
        for (cell, ch) in b.iter_mut().zip(board.chars()) {
            *cell = match ch {
                '.' => 0,
                'X' | 'x' => 1,
                'O' | 'o' => 2,
                _ => return Err(bad()),
            };
        }
        let turn = match turn {
            "X" | "x" => Player::ONE,
            "O" | "o" => Player::TWO,
            _ => return Err(bad()),
        };
        let (x, o) = (
            b.iter().filter(|&&c| c == 1).count(),
            b.iter().filter(|&&c| c == 2).count(),
        );
        let men = x + o;
        if x > 3 || o > 3 || x != men.div_ceil(2) || o != men / 2 {
            return Err(format!(
                "'{text}': X places first, so X has as many men as O or one more, three at most"
            ));
        }
        if men < FULL as usize && (turn == Player::ONE) != (men % 2 == 0) {
            return Err(format!(
                "'{text}': while placing, X is to move exactly when X and O have as many men"
            ));
        }
        Ok(self.position(&b, turn))
    }

    // ---- the tier API: tier 6 lists itself ----------------------------------------

    // ANCHOR: tier_children
    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if tier.0 < FULL {
            // Placing leads to the next tier.
            children.push(Tier(tier.0 + 1));
        } else if self.mistake != Mistake::NoSelfLoop {
            // Sliding stays in the last tier: it is its own child (a loopy tier).
            children.push(tier);
        }
    }
    // ANCHOR_END: tier_children

    fn tier_size(&self, tier: Tier) -> u64 {
        let boards = self.rankers[tier.0 as usize].size();
        if tier.0 == FULL {
            2 * boards
        } else {
            boards
        }
    }

    fn tier_name(&self, tier: Tier) -> String {
        if tier.0 == FULL {
            "sliding".to_string()
        } else {
            format!("{} men down", tier.0)
        }
    }

    // ANCHOR: undo
    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let (b, turn) = self.board(p);
        let last = piece_of(turn.other());
        // A parent is legal and not primitive exactly when it has no line at all.
        let parent_ok = |parent: &Board| {
            !has_line(parent, 1) && !has_line(parent, 2)
                || self.mistake == Mistake::PrimitiveParents
        };
        if tier.0 == p.tier.0 && tier.0 == FULL && self.mistake != Mistake::UndoOneTier {
            // Towards its own tier: a slide of the last mover taken back.
            for to in (0..9).filter(|&c| b[c] == last) {
                for from in neighbours(to).filter(|&c| b[c] == 0) {
                    let mut parent = b;
                    parent[from] = last;
                    parent[to] = 0;
                    if parent_ok(&parent) {
                        undo.push(UndoMove(SLIDE + 9 * from as u64 + to as u64));
                    }
                }
            }
        } else if tier.0 + 1 == p.tier.0 && (p.tier.0 < FULL || turn == Player::ONE) {
            // Towards the tier below: the last man placed lifted again. Only O places
            // the sixth man, so a tier-6 position with O to move has no parent there.
            for at in (0..9).filter(|&c| b[c] == last) {
                let mut parent = b;
                parent[at] = 0;
                if parent_ok(&parent) {
                    undo.push(UndoMove(at as u64));
                }
            }
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let (mut b, turn) = self.board(p);
        if u.0 < SLIDE {
            b[u.0 as usize] = 0;
        } else {
            let (from, to) = (((u.0 - SLIDE) / 9) as usize, ((u.0 - SLIDE) % 9) as usize);
            b[from] = b[to];
            b[to] = 0;
        }
        self.position(&b, turn.other())
    }
    // ANCHOR_END: undo

    fn undo_move_to_text(&self, p: TierPosition, u: UndoMove) -> Option<String> {
        // The move it takes back, as `move_to_text` writes it.
        Some(format!("{} taken back", self.move_to_text(p, Move(u.0))))
    }

    // ---- symmetry: the board's 8, from the plugin-api helper -----------------------

    // ANCHOR: symmetry
    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        let (b, turn) = self.board(p);
        let mut canon = [0u8; 9];
        self.sym.canonical(&b, &mut canon);
        self.position(&canon, turn)
    }

    fn is_canonical(&self, p: TierPosition) -> Option<bool> {
        Some(self.sym.is_canonical(&self.board(p).0))
    }

    fn orbit_size(&self, p: TierPosition) -> u64 {
        self.sym.orbit_size(&self.board(p).0)
    }
    // ANCHOR_END: symmetry
}

export_game!(Morris3);
