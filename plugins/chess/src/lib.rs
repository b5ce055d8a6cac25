//! chess: endgame tablebases as tiers. A variant names a material set (`KQK`, `KRK`,
//! `KPK`, `KBNK`, every 3- and 4-piece set); its tiers are the material sets reachable
//! by captures and promotions, down to `KK`.
//!
//! - Tiers (`tiers.rs`): one per material set up to colours: KQK and KKQ are one tier,
//!   named by the canonical orientation (white stronger). Variants are named that way
//!   too (`KKQ` is refused with a pointer to KQK). The tier holds positions of both
//!   orientations, and the colour flip (colours swapped, ranks mirrored, the other
//!   side to move) is one of the symmetries merged by `canonical_position`, so a set
//!   and its mirror are solved once: in KQKQ, white capturing the queen leads to KQK
//!   and black capturing it to KKQ, the same tier and the same stored positions. Moves
//!   keep the real colours (a capture by black really leaves white to move), so play
//!   shows the real board and `turn` changes on every move; only the database stores
//!   a mirrored position, for the same player's game. That needs the solver to invert
//!   every child's value (no go-again, no WinBy), which holds for chess.
//! - Positions (`index.rs`): orientation, side to move and piece squares, densely;
//!   illegal placements are marked by `is_legal`. KPKP, the only set here with pawns
//!   of both colours, has 131,072 more numbers for positions where the side to move
//!   may take en passant. Board symmetry through `canonical_position`: 8-fold
//!   without pawns, left-right with pawns; each combined with the colour flip.
//! - Rules (`movegen.rs`): no castling (positions carry no rights). En passant: a
//!   double step next to an enemy pawn gives a right to take en passant on the next
//!   move only when that capture is legal; the right is part of the position (its own
//!   number, the FEN en-passant field), so the position with the right and the same
//!   placement without it are solved apart. Only KPKP has such positions (a right needs
//!   a pawn of each colour; no set here gains pawns, so no other variant reaches it).
//!   The 50-move rule and repetition are not part of tablebase values: a position
//!   nobody can force to mate is a draw, as in published tables.
//! - Text (`fen.rs`): positions as FEN; the board diagram in Unicode chess glyphs, or
//!   in FEN letters when `GAMESMAN_ASCII=1` is set; moves shown as `e7e8q`, typed as
//!   that or SAN-like (`Qb7`, `Kxd2`, `e8=Q`).
//!
//! This file wires those into the `Game` trait; it must not hold chess rules itself.

pub mod board;
pub mod fen;
pub mod index;
pub mod movegen;
pub mod tiers;

use board::*;
use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Fixed, Shape, Token};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use movegen::ChessMove;
use tiers::Material;

/// A chess endgame: the material set of the variant and every tier below it.
pub struct Chess {
    /// The variant's material (canonical orientation).
    pub root: Material,
    /// Every tier reachable from `root`, `root` first.
    pub tiers: Vec<Material>,
}

fn pack_move(m: ChessMove) -> Move {
    Move(m.from as u64 | (m.to as u64) << 6 | (m.promo as u64) << 12)
}

fn unpack_move(m: Move) -> ChessMove {
    ChessMove {
        from: (m.0 & 63) as u8,
        to: (m.0 >> 6 & 63) as u8,
        promo: (m.0 >> 12 & 7) as u8,
    }
}

/// The AutoGUI center of a square: centers run a8, b8, ..., h8, a7, ..., h1 (rank 8 on
/// top, as boards are drawn).
fn center_of(sq: u8) -> usize {
    (7 - rank(sq) as usize) * 8 + file(sq) as usize
}

/// Undo moves carry the parent itself: tier in the high bits, position number low.
const UNDO_TIER_SHIFT: u32 = 40;

impl Chess {
    /// The game for a variant, panicking on a bad name (for tests).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a chess variant")
    }

    /// The board of a position.
    pub fn board(&self, p: TierPosition) -> Board {
        index::decode(p)
    }

    /// The position of a board, in the tier of its material.
    pub fn position(&self, b: &Board) -> TierPosition {
        index::encode(b)
    }

    /// Every board that is a legal parent of `p` (or of a symmetric image of `p`) in
    /// `tier`.
    pub fn parent_boards(&self, p: TierPosition, tier: Tier) -> Vec<Board> {
        let stored = index::decode(p);
        let parent_has_pawns =
            Material::of_tier(tier.0).is_some_and(|m| m.sides.iter().flatten().any(|&k| k == PAWN));
        // Parents of a canonical position's symmetric images are images of its own
        // parents when both tiers have the same symmetries; a pawnless child of a tier
        // with pawns (a promotion, a pawn captured) has more symmetries than its
        // parents, so every image of the child must be retracted from.
        let images: &[u8] = if parent_has_pawns && !stored.has_pawns() {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        } else {
            &[0]
        };
        let mut raw = Vec::new();
        for &s in images {
            let b = stored.transform(s);
            movegen::unmoves(&b, &[QUEEN, ROOK, BISHOP, KNIGHT, PAWN], &mut raw);
        }
        raw.into_iter()
            .filter(|q| Material::of(q).canonical().tier() == tier.0 && movegen::is_legal_board(q))
            .collect()
    }
}

impl Game for Chess {
    const NAME: &'static str = "chess";
    const AUTHORS: &'static str = "the gamesman-rs team";
    const DESCRIPTION: &'static str = "Chess: endgames with up to four pieces, solved as tiers of material sets (captures and promotions lead to smaller or changed sets). No castling; en passant in KPKP; values ignore the 50-move rule, as endgame tablebases do.";

    fn variants() -> Vec<VariantInfo> {
        let mut all = tiers::all_variants();
        let first = all
            .iter()
            .position(|m| m.name() == "KQK")
            .expect("KQK is a variant");
        let kqk = all.remove(first);
        all.insert(0, kqk);
        all.iter()
            .map(|m| {
                let what = format!(
                    "white king{} against black king{}",
                    m.sides[0]
                        .iter()
                        .map(|&k| format!(" + {}", kind_letter(k)))
                        .collect::<String>(),
                    m.sides[1]
                        .iter()
                        .map(|&k| format!(" + {}", kind_letter(k)))
                        .collect::<String>()
                );
                VariantInfo::new(&m.name(), &what)
            })
            .collect()
    }

    fn new(variant: &str) -> Result<Self, String> {
        let v = if variant.is_empty() { "KQK" } else { variant };
        let root = Material::parse(v)
            .filter(|m| m.count() >= 1)
            .ok_or_else(|| {
                format!("'{v}' is not a material set of 3 or 4 pieces (e.g. KQK, KRKP)")
            })?;
        if !root.is_canonical() {
            return Err(format!(
                "'{v}' is a colour-mirrored set; use {}",
                root.flipped().name()
            ));
        }
        let tiers = root.closure();
        Ok(Chess { root, tiers })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            supports_winby: false,
            go_again: false,
            has_symmetry: true,
            has_score: true,
            max_moves: 128,
            max_undo_moves: 1024,
            max_tier_children: 32,
        }
    }

    fn initial_position(&self) -> TierPosition {
        // kings on e1/e8, white pieces on b2/g2, black pieces on b7/g7: legal for
        // every material set (nothing attacks the black king with white to move)
        let mut b = Board::empty(WHITE);
        b.push(KING, WHITE, 4);
        b.push(KING, BLACK, 60);
        for (c, squares) in [(WHITE, [9u8, 14]), (BLACK, [49, 54])] {
            for (&k, &sq) in self.root.sides[c as usize].iter().zip(&squares) {
                b.push(k, c, sq);
            }
        }
        index::encode(&b)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        let b = index::decode(p);
        if movegen::has_legal_move(&b) {
            Value::UNDECIDED
        } else if movegen::in_check(&b, b.stm) {
            Value::LOSE
        } else {
            Value::TIE
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let mut v = Vec::with_capacity(64);
        movegen::legal_moves(&index::decode(p), &mut v);
        for m in v {
            moves.push(pack_move(m));
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        index::encode(&movegen::apply(&index::decode(p), unpack_move(m)))
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.position & 1 == WHITE as u64 {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        fen::diagram(&index::decode(p), fen::Style::from_env())
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        unpack_move(m).text()
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        // coordinates (`e7e8q`) or SAN-like text (`Qb7`, `Kxd2`, `e8=Q`, `Rab1+`)
        let b = index::decode(p);
        let mut legal = Vec::new();
        movegen::legal_moves(&b, &mut legal);
        let wanted = text.trim();
        if let Some(m) = legal.iter().find(|m| m.text().eq_ignore_ascii_case(wanted)) {
            return Ok(pack_move(*m));
        }
        let san: String = wanted
            .chars()
            .filter(|c| !matches!(c, 'x' | '+' | '#' | '=' | '-'))
            .collect();
        // Every slice below cuts at a character boundary (a leading or trailing ASCII
        // letter is one byte; the split uses `char_indices`), so text with multi-byte
        // characters is refused like any other text that names no move.
        let piece_letter =
            |c: Option<char>| c.filter(char::is_ascii_uppercase).and_then(letter_kind);
        let (kind, rest) = match piece_letter(san.chars().next()) {
            Some(k) => (k, &san[1..]),
            None => (PAWN, &san[..]),
        };
        let (rest, promo) = match piece_letter(rest.chars().next_back()) {
            Some(k) if kind == PAWN => (&rest[..rest.len() - 1], k),
            _ => (rest, 0),
        };
        // The destination is the last two characters, the rest a hint at the origin.
        let split = rest.char_indices().rev().nth(1).map(|(i, _)| i);
        let found: Vec<ChessMove> = if let Some(split) = split {
            let (from_hint, to) = rest.split_at(split);
            let to = parse_square(to);
            legal
                .iter()
                .copied()
                .filter(|m| {
                    let piece = b.pieces[b.at(m.from).expect("a mover")];
                    Some(m.to) == to
                        && piece.kind == kind
                        && m.promo == promo
                        && square_name(m.from).contains(from_hint)
                })
                .collect()
        } else {
            Vec::new()
        };
        match found[..] {
            [m] => Ok(pack_move(m)),
            _ => Err(format!(
                "'{wanted}' is not one legal move here; legal moves: {}",
                legal.iter().map(|m| m.text()).collect::<Vec<_>>().join(" ")
            )),
        }
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        fen::write(&index::decode(p))
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let mut b = fen::parse(text)?;
        if !movegen::ep_is_valid(&b) {
            // FEN may name the square after any double step; the right only counts
            // when the capture is possible
            b.ep = None;
        }
        let m = Material::of(&b);
        if !self.tiers.contains(&m.clone().canonical()) {
            return Err(format!(
                "material {} is not part of variant {}",
                m.name(),
                self.root.name()
            ));
        }
        if !movegen::is_legal_board(&b) {
            return Err("illegal position (kings adjacent, side not to move in check, or a pawn on rank 1/8)".into());
        }
        Ok(index::encode(&b))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if let Some(m) = Material::of_tier(tier.0) {
            for c in m.tier_children() {
                children.push(Tier(c.tier()));
            }
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        Material::of_tier(tier.0).map_or(0, |m| index::tier_size(&m))
    }

    fn is_legal(&self, p: TierPosition) -> bool {
        // equal pieces of a side have one order (by square): the other order's number
        // is not a position of its own
        let b = index::decode(p);
        movegen::is_legal_board(&b) && index::encode(&b) == p
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        for q in self.parent_boards(p, tier) {
            let t = index::encode(&q);
            undo.push(UndoMove(t.tier.0 << UNDO_TIER_SHIFT | t.position));
        }
    }

    fn undo_move(&self, _p: TierPosition, u: UndoMove) -> TierPosition {
        TierPosition::new(
            Tier(u.0 >> UNDO_TIER_SHIFT),
            u.0 & ((1 << UNDO_TIER_SHIFT) - 1),
        )
    }

    fn tier_name(&self, tier: Tier) -> String {
        Material::of_tier(tier.0).map_or_else(|| tier.0.to_string(), |m| m.name())
    }

    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        index::canonical(&index::decode(p))
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        let mut b = AutoGuiBoard::grid(8, 8, "", "");
        for (i, f) in b.fixed.iter_mut().enumerate() {
            let light = (i / 8 + i % 8) % 2 == 0;
            f.fill = if light { "#f0d9b5" } else { "#b58863" }.into();
        }
        for i in 0..8 {
            let (x, y) = (i as f64, i as f64);
            let file = ((b'a' + i as u8) as char).to_string();
            b.fixed
                .push(Fixed::label(x + 0.72, 7.7, 0.26, 0.28, &file, "#5a3d22"));
            let rank = (8 - i).to_string();
            b.fixed
                .push(Fixed::label(0.02, y + 0.02, 0.26, 0.28, &rank, "#5a3d22"));
        }
        // Solid glyphs for both colours, white ones filled white with a dark outline.
        let glyphs = ['♚', '♛', '♜', '♝', '♞', '♟'];
        for (kind, &g) in glyphs.iter().enumerate() {
            let letter = kind_letter(kind as u8);
            let mut white = Token::glyph(letter, &g.to_string(), "#fff");
            white.stroke = "#222".into();
            white.size = 0.9;
            b.tokens.push(white);
            let mut black = Token::glyph(letter.to_ascii_lowercase(), &g.to_string(), "#111");
            black.size = 0.9;
            b.tokens.push(black);
        }
        debug_assert!(b.tokens.iter().all(|t| t.shape == Shape::NONE));
        Some(b)
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        let b = index::decode(p);
        let mut cells = ['-'; 64];
        for q in b.pieces() {
            cells[center_of(q.sq)] = fen::letter(*q);
        }
        let cells: String = cells.iter().collect();
        Some(autogui::position(self.turn(p), &cells))
    }

    fn autogui_move(&self, _p: TierPosition, m: Move) -> Option<String> {
        // A promotion is one arrow for each piece; front ends ask which.
        let m = unpack_move(m);
        Some(autogui::arrow(center_of(m.from), center_of(m.to)))
    }

    fn image_autogui_data(&self) -> Option<String> {
        // GamesmanUni's chess board and pieces (its "Wikipedia" set: K.svg for a white
        // king, kk.svg for a black one) on the board's own unit squares.
        let board = self.autogui_board()?;
        let images = "KQRBNP"
            .chars()
            .flat_map(|c| {
                let black = c.to_ascii_lowercase();
                [
                    (c, format!("chess/wikipedia/{c}.svg"), 1.0),
                    (black, format!("chess/wikipedia/{black}{black}.svg"), 1.0),
                ]
            })
            .collect();
        Some(
            autogui::ImageData {
                theme: "Wikipedia".into(),
                space: (8.0, 8.0),
                centers: board.centers,
                background: "chess/wikipedia/grid.svg".into(),
                images,
                arrow_width: 0.1,
                animation: "simpleSlides".into(),
                ..Default::default()
            }
            .to_json(),
        )
    }

    fn score(&self, p: TierPosition) -> i64 {
        // material in centipawns, white (player one) positive
        let b = index::decode(p);
        b.pieces()
            .iter()
            .map(|q| {
                let v = [0, 900, 500, 330, 320, 100][q.kind as usize];
                if q.colour == WHITE {
                    v
                } else {
                    -v
                }
            })
            .sum()
    }
}

export_game!(Chess);
