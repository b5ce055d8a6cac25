//! quixo: Quixo on 3x3, 4x4 (the default, the solver's benchmark) and 5x5 boards.
//!
//! Rules: X moves first on a board of blank cubes. On a turn a player takes a cube from
//! the border that is blank or shows their own symbol, and pushes it back in, showing
//! their symbol, at an end of the row or column it was taken from (not where it came
//! from). A row, column or long diagonal of one symbol wins; a move that completes a
//! line of the opponent's symbol loses for its maker even if it completes their own.
//!
//! Swapping the colours of every cube and the side to move is a symmetry of the game
//! (the value, for the player to move, is the same), so a tier is an unordered pair of
//! cube counts {a, b} (`tiers`, a <= b, named as GamesmanOne names the boards (a X,
//! b O)) and holds the boards (a, b) and (b, a), both sides to move (`layout`): 4x4
//! has 81 tiers (GamesmanOne's 153 classes of boards, paired) and 2 * 3^16 =
//! 86,093,442 positions. Moves are written `a1-d1`: the cell the cube is taken from,
//! then the end where it is pushed in. Positions are written as the cells row by row
//! from the top, rows separated by `/`, then `:` and the side to move, e.g.
//! `X---/-O--/----/----:X`.
//!
//! Positions equal under the square's eight symmetries and the colour swap (16
//! operations) are merged (`symmetry`): on 4x4 the eight symmetries cut the solve from
//! 72.6 s to about 17 s of CPU, the colour swap from 10.3 s to 6.2 s. A canonical
//! position has at most as many X cubes as O (X to move when they are equal) and the
//! canonical board of its eight images: so a tier's canonical positions are its
//! canonical boards (a, b), both sides to move (X only when a = b). `children` and
//! `parents` return canonical positions, each once (`distinct`), and say so
//! (`fast_paths_canonical`), so the host takes them as they are. A tier's boards are
//! numbered canonical ones first (`order` on 3x3 and 4x4, `pattern` by blank patterns
//! on 5x5, built in under a second for any tier and kept within a budget, `cache`), so
//! the solver's question "is this index canonical?" is a comparison and the solver
//! and the database need only a tier's first `canonical_prefix` indices; that is the
//! module's `index_version` 2. `orbit_size` says how many positions a canonical one
//! stands for (`analyze --every-position`): twice its board's images.
//!
//! This file only maps the plugin API onto `board`, `moves`, `positions`, `rank`, `symmetry` and
//! `tiers`; the rules live in `moves`, and nothing here may allocate in the solver's
//! hot paths (`primitive`, `canonical_position`, `children`, `parents`).

pub mod board;
mod cache;
mod distinct;
mod layout;
pub mod moves;
pub mod order;
pub mod pattern;
mod positions;
pub mod rank;
pub mod symmetry;
pub mod tiers;
pub mod wide;

use board::{Board, Geometry, Side};
use cache::Cache;
use distinct::Distinct;
use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Token};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use layout::{join_index, oriented_counted, side_bit};
use moves::Status;
use order::CanonicalFirst;
use pattern::PatternOrder;
use rank::Tables;
use std::sync::OnceLock;

/// The AutoGUI centers after the cells: offsets of each cell's right, left, lower and
/// upper edge from its middle.
const QUIXO_EDGES: [(f64, f64); 4] = [(0.5, 0.0), (-0.5, 0.0), (0.0, 0.5), (0.0, -0.5)];
use symmetry::Symmetries;
use tiers::Tiers;

/// Whether positions equal under the square's symmetries are solved once (measured on
/// 4x4 with one thread: 72.6 s of CPU without, about 17 s with).
const SYMMETRY: bool = true;

/// Quixo on one board size.
pub struct Quixo {
    geo: Geometry,
    tables: Tables,
    tiers: Tiers,
    symmetries: Symmetries,
    symmetric: bool,
    /// 3x3 and 4x4: per tier number, its canonical-first numbering (`order`), built on
    /// first use; empty on 5x5 and when boards are numbered by rank (no symmetry).
    orders: Vec<OnceLock<CanonicalFirst>>,
    /// 5x5: the tiers' numberings by blank patterns (`pattern`), built on first use
    /// and kept within `PATTERN_BUDGET` bytes (`cache`); `None` on smaller boards and
    /// without symmetry.
    patterns: Option<Cache>,
}

/// The bytes of 5x5 numberings kept besides the few each thread holds: the largest
/// with 3 blanks takes 5 MB, the middle tiers' up to 46 MB (a tier, its children and
/// parents fit, as a sampled `validate` and the solver touch them).
const PATTERN_BUDGET: usize = 512 << 20;

/// The least the 5x5 numberings keep whatever the host's budget: a tier's numbering
/// with its children's and a parent's up to 3 blanks (5 MB each at most; a middle
/// tier's, up to 46 MB, is rebuilt as needed under a smaller budget, in well under a
/// second).
const PATTERN_FLOOR: usize = 16 << 20;

/// A board as one number, for `Distinct`.
#[inline(always)]
fn key(b: Board) -> u64 {
    b.x as u64 | (b.o as u64) << 32
}

/// The cube counts of a child of a board with `x` X and `o` O cubes: the mover's grows
/// by one where the cube taken was blank.
#[inline(always)]
fn child_counts(mover: Side, (x, o): (u32, u32), took_blank: bool) -> (u32, u32) {
    match (mover, took_blank) {
        (Side::X, true) => (x + 1, o),
        (Side::O, true) => (x, o + 1),
        _ => (x, o),
    }
}

/// An undo move: the move undone, and whether the cube it took was blank.
fn undo_code(slide: usize, from_blank: bool) -> UndoMove {
    UndoMove(slide as u64 | (from_blank as u64) << 16)
}

impl Quixo {
    /// The distinct canonical parents of `b` by undoing a move of `last` (putting back
    /// a blank where `from_blank`; the parents have `counts` X and O cubes), in `tier`
    /// (`same` when it holds as many X as O cubes, `n` boards): each parent's canonical
    /// form found among its eight images, numbered by `number`.
    #[inline(always)]
    fn parents_by_images(
        &self,
        (b, last, from_blank, (px, po)): (Board, Side, bool, (u32, u32)),
        (tier, same, n): (Tier, bool, u64),
        out: &mut List<'_, TierPosition>,
        number: impl Fn(Board) -> u64,
    ) {
        let mut seen = Distinct::new();
        moves::for_each_parent(&self.geo, b, last, from_blank, |_, parent| {
            debug_assert_eq!((parent.x.count_ones(), parent.o.count_ones()), (px, po));
            let (parent, s) = self.canonical_counted(parent, last, px, po);
            if seen.insert(key(parent) ^ side_bit(s) << 63) {
                let i = join_index(number(parent), s, false, same, n);
                out.push(TierPosition::new(tier, i));
            }
        });
    }
}

impl Game for Quixo {
    const NAME: &'static str = "quixo";
    const AUTHORS: &'static str = "the gamesman-rs team";
    const DESCRIPTION: &'static str = "Quixo: on a turn take a blank cube or one of yours from the border and push it back in, showing your symbol, at an end of its row or column; a full row, column or long diagonal of your symbol wins, but completing one of your opponent's loses. Tiers count blanks, X and O cubes. Moves are typed as two cells, e.g. a1-d1 (take a1, push it in at d1).";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new(
                "4x4",
                "4x4 board: 153 tiers, 86,093,442 positions (the benchmark)",
            ),
            VariantInfo::new("3x3", "3x3 board: 55 tiers, 39,366 positions"),
            VariantInfo::new(
                "5x5",
                "the standard 5x5 board: 351 tiers, 2 * 3^25 positions (its endgame solves here: solve --endgame K, K blanks at most)",
            ),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let side = match variant {
            "3x3" => 3,
            "4x4" => 4,
            "5x5" => 5,
            other => {
                return Err(format!(
                    "quixo has no variant '{other}' (variants: 4x4, 3x3, 5x5)"
                ))
            }
        };
        let geo = Geometry::new(side);
        assert!(geo.max_moves() <= distinct::CAPACITY);
        let tables = Tables::new();
        let tiers = Tiers::new(&tables, geo.cells);
        // Canonical-first numbering on every size: 5.6 bytes a board at most on 3x3
        // and 4x4, 0.19 on 5x5 (no index-to-rank table there), built for a tier when
        // it is first used.
        let n = if SYMMETRY {
            (geo.cells + 1) * (geo.cells + 1)
        } else {
            0
        };
        let (small, wide) = if geo.cells <= 16 { (n, 0) } else { (0, n) };
        let orders = (0..small).map(|_| OnceLock::new()).collect();
        let patterns = (wide > 0).then(|| Cache::new(PATTERN_BUDGET));
        Ok(Quixo {
            symmetries: Symmetries::new(side),
            symmetric: SYMMETRY,
            geo,
            tables,
            tiers,
            orders,
            patterns,
        })
    }

    fn properties(&self) -> Properties {
        let moves = self.geo.max_moves() as u32;
        Properties {
            players: 2,
            is_tier_game: true,
            max_moves: moves,
            // One undo move per move that ends at a cube of the last mover.
            max_undo_moves: moves,
            max_tier_children: 3,
            has_symmetry: self.symmetric,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.encode(Board::default(), Side::X)
    }

    #[inline]
    fn primitive(&self, p: TierPosition) -> Value {
        let (b, side) = self.decode(p);
        match moves::status(&self.geo, b, side) {
            Status::Win => Value::WIN,
            Status::Lose => Value::LOSE,
            Status::Open => Value::UNDECIDED,
        }
    }

    fn generate_moves(&self, p: TierPosition, out: &mut List<'_, Move>) {
        let (b, side) = self.decode(p);
        moves::for_each_child(&self.geo, b, side, |i, _, _| {
            let sl = &self.geo.slides[i];
            out.push(Move((sl.src as u64) << 8 | sl.dst as u64));
        });
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let (b, side) = self.decode(p);
        let i = self
            .geo
            .slide_index((m.0 >> 8) as usize, (m.0 & 0xff) as usize)
            .expect("a move generated by generate_moves");
        self.encode(moves::apply(&self.geo, b, side, i), side.other())
    }

    #[inline]
    fn turn(&self, p: TierPosition) -> Player {
        match self.side(p) {
            Side::X => Player::ONE,
            Side::O => Player::TWO,
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let (b, side) = self.decode(p);
        let n = self.geo.side;
        let mut s = String::new();
        for r in 0..n {
            s.push_str(&format!("  {} |", n - r));
            for c in 0..n {
                s.push(' ');
                s.push(Self::cell_char(b, r * n + c));
            }
            s.push('\n');
        }
        s.push_str("     ");
        s.push_str(&"--".repeat(n));
        s.push_str("\n     ");
        for c in 0..n {
            s.push(' ');
            s.push((b'a' + c as u8) as char);
        }
        s.push_str(&format!("\n  {} to move\n", side.symbol()));
        s
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        match self
            .geo
            .slide_index((m.0 >> 8) as usize, (m.0 & 0xff) as usize)
        {
            Some(i) => moves::slide_text(&self.geo, i),
            None => format!("?{}", m.0),
        }
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let (b, side) = self.decode(p);
        let i = moves::parse_slide(&self.geo, b, side, text)?;
        let sl = &self.geo.slides[i];
        Ok(Move((sl.src as u64) << 8 | sl.dst as u64))
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        let (b, side) = self.decode(p);
        let n = self.geo.side;
        let rows: Vec<String> = (0..n)
            .map(|r| (0..n).map(|c| Self::cell_char(b, r * n + c)).collect())
            .collect();
        format!("{}:{}", rows.join("/"), side.symbol())
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let n = self.geo.side;
        let usage = format!(
            "'{}' is not a position: give the {} cells row by row from the top (X, O or -, rows may be separated by /), then ':' and the side to move, e.g. {}",
            text.trim(),
            n * n,
            self.position_to_text(self.initial_position())
        );
        let (cells, side) = text.trim().split_once(':').ok_or_else(|| usage.clone())?;
        let side = match side.trim() {
            "X" | "x" => Side::X,
            "O" | "o" => Side::O,
            _ => return Err(usage),
        };
        let cells: Vec<char> = cells.chars().filter(|&c| c != '/').collect();
        if cells.len() != n * n {
            return Err(usage);
        }
        let mut b = Board::default();
        for (i, ch) in cells.iter().enumerate() {
            match ch {
                'X' | 'x' => b.x |= 1 << i,
                'O' | 'o' => b.o |= 1 << i,
                '-' | '.' | '_' => {}
                other => return Err(format!("'{other}' is not a cell: use X, O or -")),
            }
        }
        Ok(self.encode(b, side))
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        // Every cell is a cube (B blank, X or O). After the cells come four more
        // centers per cell, on the middle of its right, left, lower and upper edge (the
        // layout of GamesmanUni's Quixo): a move is an arrow from the cube taken to the
        // edge it slides toward, to the end of its row or column.
        let n = self.geo.side;
        let mut b = AutoGuiBoard::grid(n, n, "#ecdcb8", "#7a6440");
        b.background = "#7a6440".into();
        let cells = b.centers.clone();
        for (dx, dy) in QUIXO_EDGES {
            b.centers
                .extend(cells.iter().map(|&(x, y)| (x + dx, y + dy)));
        }
        b.tokens.push(Token::glyph('X', "X", "#1f5fbf"));
        b.tokens.push(Token::glyph('O', "O", "#c0392b"));
        b.tokens.push(Token::glyph('B', "", ""));
        Some(b)
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        let (b, _) = self.decode(p);
        let mut cells: String = (0..self.geo.cells)
            .map(|i| match Self::cell_char(b, i) {
                '-' => 'B',
                c => c,
            })
            .collect();
        cells.extend(std::iter::repeat_n('-', 4 * self.geo.cells));
        Some(autogui::position(self.turn(p), &cells))
    }

    fn autogui_move(&self, _p: TierPosition, m: Move) -> Option<String> {
        let (from, to) = ((m.0 >> 8) as usize, (m.0 & 0xff) as usize);
        let n = self.geo.side;
        let (fr, fc, tr, tc) = (from / n, from % n, to / n, to % n);
        // The edge of `from` the cube slides toward: right, left, down or up.
        let edge = if fr == tr {
            if tc > fc {
                0
            } else {
                1
            }
        } else if tr > fr {
            2
        } else {
            3
        };
        Some(autogui::arrow(from, (edge + 1) * self.geo.cells + from))
    }

    fn image_autogui_data(&self) -> Option<String> {
        // GamesmanUni's Quixo cubes on the board's own unit cells.
        let board = self.autogui_board()?;
        Some(
            autogui::ImageData {
                theme: "regular".into(),
                space: (self.geo.side as f64, self.geo.side as f64),
                centers: board.centers,
                images: vec![
                    ('X', "quixo/x.svg".into(), 1.0),
                    ('O', "quixo/o.svg".into(), 1.0),
                    ('B', "quixo/blank.svg".into(), 1.0),
                ],
                arrow_width: 0.025,
                animation: "entityFade".into(),
                ..Default::default()
            }
            .to_json(),
        )
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        self.tiers.children(tier, |t| children.push(t));
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        match self.tiers.counts(tier) {
            Some((a, b)) if a == b => self.tiers.boards(tier) * 2,
            Some(_) => self.tiers.boards(tier) * 4,
            None => 0,
        }
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let (b, side, counts) = self.decode_counted(p);
        let Some(from_blank) = self.undo_kind(p.tier, counts, side.other(), tier) else {
            return;
        };
        moves::for_each_parent(&self.geo, b, side.other(), from_blank, |i, _| {
            undo.push(undo_code(i, from_blank));
        });
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let (b, side) = self.decode(p);
        let (slide, from_blank) = ((u.0 & 0xffff) as usize, u.0 >> 16 == 1);
        let last = side.other();
        self.encode(moves::unapply(&self.geo, b, last, slide, from_blank), last)
    }

    fn tier_name(&self, tier: Tier) -> String {
        self.tiers.name(tier)
    }

    #[inline]
    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        if !self.symmetric {
            return p;
        }
        let (b, side) = self.decode(p);
        if self.canonical_of(b, side) == (b, side) {
            p
        } else {
            self.canonical_tp(b, side)
        }
    }

    #[inline]
    fn children(&self, p: TierPosition, out: &mut List<'_, TierPosition>) -> bool {
        let (b, side, (x, o)) = self.decode_counted(p);
        let mut seen = Distinct::new();
        let counts = |took_blank: bool| child_counts(side, (x, o), took_blank);
        // Each child tier's ranker, and on 5x5 its numbering, fetched once for all
        // the children.
        let kind = |(cx, co): (u32, u32)| {
            let t = self.tiers.tier(cx, co);
            (cx, co, t, self.tiers.ranker(t), self.pattern(t))
        };
        let own = kind(counts(false));
        // No blank to take on a full board (the second entry is then never used).
        let blank = if ((x + o) as usize) < self.geo.cells {
            kind(counts(true))
        } else {
            own.clone()
        };
        let kinds = [own, blank];
        moves::for_each_child(&self.geo, b, side, |_, c, took_blank| {
            let (cx, co, t, r, order) = &kinds[took_blank as usize];
            let (cx, co, t) = (*cx, *co, *t);
            debug_assert_eq!((c.x.count_ones(), c.o.count_ones()), (cx, co));
            let (c, s) = self.canonical_counted(c, side.other(), cx, co);
            if seen.insert(key(c) ^ side_bit(s) << 63) {
                let i = self.canonical_index(t, r, c, s, cx == co, order.as_deref());
                out.push(TierPosition::new(t, i));
            }
        });
        true
    }

    /// The children as `children` finds them, counted instead of numbered (numbering
    /// is about half the cost of a child), from one decoding of `p`.
    #[inline]
    fn scan_position(&self, p: TierPosition) -> Option<(Value, u32)> {
        let (b, side, counts) = self.decode_counted(p);
        let value = match moves::status(&self.geo, b, side) {
            Status::Win => return Some((Value::WIN, 0)),
            Status::Lose => return Some((Value::LOSE, 0)),
            Status::Open => Value::UNDECIDED,
        };
        let mut seen = Distinct::new();
        let mut n = 0;
        // Two children are one position when one is an image of the other under a
        // symmetry S (the colour swap treats every child alike): c1 = m1(p) and
        // c1 = S(m2(p)) = S(m2)(S(p)), so p and S(p) differ only on the lines of two
        // moves. A board no symmetry moves that little (most of them) has as many
        // children as distinct boards, which need no canonical form.
        let near = self.symmetric
            && self
                .symmetries
                .near_image(b, |d| self.geo.within_two_lines(d));
        if !near {
            moves::for_each_child(&self.geo, b, side, |_, c, _| {
                n += seen.insert(key(c)) as u32;
            });
            return Some((value, n));
        }
        moves::for_each_child(&self.geo, b, side, |_, c, took_blank| {
            let (cx, co) = child_counts(side, counts, took_blank);
            let (c, s) = self.canonical_counted(c, side.other(), cx, co);
            n += seen.insert(key(c) ^ side_bit(s) << 63) as u32;
        });
        Some((value, n))
    }

    #[inline]
    fn parents(&self, p: TierPosition, tier: Tier, out: &mut List<'_, TierPosition>) -> bool {
        // Whether `tier` can hold parents is known from the index alone: a child tier
        // is sent to each of its parent tiers, and most of its positions have parents
        // in only one of them.
        let (_, side, _, (bx, bo)) = self.locate(p);
        let last = side.other();
        let Some(from_blank) = self.undo_kind(p.tier, (bx, bo), last, tier) else {
            return true;
        };
        let (b, _, _) = self.decode_counted(p);
        let Some((ta, tb)) = self.tiers.counts(tier) else {
            return true;
        };
        let r = self.tiers.ranker(tier);
        // Every parent's counts: `last`'s is one fewer where the cube taken was blank.
        let (mut px, mut po) = (bx, bo);
        if from_blank {
            match last {
                Side::X => px -= 1,
                Side::O => po -= 1,
            }
        }
        let same = ta == tb;
        let undo = (b, last, from_blank, (px, po));
        // 5x5: the tier's numbering fetched once for all parents; with blanks, each
        // parent's index from its blank pattern where that decides its canonical form
        // (`PatternOrder::canonical_index`).
        let numbered = self.with_pattern(tier, |order| {
            let w = self.tables.wide();
            if order.blanks() == 0 {
                let number = |parent| order.index(w, parent, true);
                self.parents_by_images(undo, (tier, same, r.size()), out, number);
                return;
            }
            let mut seen = Distinct::new();
            moves::for_each_parent(&self.geo, b, last, from_blank, |_, parent| {
                let (parent, s) = oriented_counted(parent, last, px, po);
                let i = order
                    .canonical_index(w, &self.symmetries, parent)
                    .unwrap_or_else(|| order.index(w, self.symmetries.canonical(parent), true));
                let i = join_index(i, s, false, same, r.size());
                if seen.insert(i) {
                    out.push(TierPosition::new(tier, i));
                }
            });
        });
        if numbered.is_none() {
            let number = |parent| self.board_index(tier, r, parent, || true);
            self.parents_by_images(undo, (tier, same, r.size()), out, number);
        }
        true
    }

    fn fast_paths_canonical(&self) -> bool {
        true
    }

    /// 2: tiers hold both colour orientations, boards numbered canonical ones first
    /// (`order` on 3x3 and 4x4, `pattern` on 5x5, every tier). (1: one orientation
    /// per tier, numbered so, 5x5 only in tiers of at most 2^27 boards; 0: every tier
    /// in rank order.)
    fn index_version(&self) -> u32 {
        if !self.ordered() {
            0
        } else {
            2
        }
    }

    /// Two sides to move for each canonical board (a, b), one (X) when a = b, counted
    /// by Burnside's lemma without building the tier's numbering.
    fn canonical_prefix(&self, tier: Tier) -> Option<u64> {
        let (a, b) = self.tiers.counts(tier)?;
        let sides = if a == b { 1 } else { 2 };
        self.ordered()
            .then(|| self.symmetries.classes(a as usize, b as usize) * sides)
    }

    /// The images of `p` under the 16 operations: its board's images under the eight
    /// symmetries, and their colour swaps with the other side to move.
    fn orbit_size(&self, p: TierPosition) -> u64 {
        if !self.symmetric {
            return 1;
        }
        2 * self.symmetries.orbit(self.decode(p).0)
    }

    /// The canonical board of `p`'s eight images, with the same side to move: the
    /// square's symmetries map the empty start to itself and moves to moves, so they
    /// keep reachability; the colour swap does not (X moves first: a board with no X
    /// cube and X to move never occurs, its swap after X's first move does).
    fn reach_canonical(&self, p: TierPosition) -> TierPosition {
        if !self.symmetric {
            return p;
        }
        let (b, side) = self.decode(p);
        let c = self.symmetries.canonical(b);
        if c == b {
            p
        } else {
            self.encode(c, side)
        }
    }

    /// The number of `p`'s board's images under the eight symmetries.
    fn reach_orbit_size(&self, p: TierPosition) -> u64 {
        if !self.symmetric {
            return 1;
        }
        self.symmetries.orbit(self.decode(p).0)
    }

    /// The eight images of `p`'s board with its side to move and their eight colour
    /// swaps with the other: as many of each (`orbit_size` counts both).
    fn orbit_by_turn(&self, p: TierPosition) -> Option<[u64; 2]> {
        let n = self.symmetric.then(|| self.reach_orbit_size(p))?;
        Some([n, n])
    }

    fn memory_budget(&self, bytes: u64) -> u64 {
        // Only 5x5 keeps numberings worth counting (3x3 and 4x4 build all of theirs,
        // a few MB, once).
        let Some(cache) = &self.patterns else {
            return 0;
        };
        let keep = (bytes as usize).clamp(PATTERN_FLOOR, PATTERN_BUDGET);
        cache.set_budget(keep);
        keep as u64
    }

    #[inline]
    fn is_canonical(&self, p: TierPosition) -> Option<bool> {
        if !self.symmetric {
            return Some(true);
        }
        let count = match self.with_pattern(p.tier, PatternOrder::count) {
            Some(c) => Some(c),
            None => self.order(p.tier).map(CanonicalFirst::count),
        };
        if let Some(count) = count {
            let sides = match self.tiers.counts(p.tier) {
                Some((a, b)) if a == b => 1,
                _ => 2,
            };
            return Some(p.position < count * sides);
        }
        let (b, side) = self.decode(p);
        Some(self.canonical_of(b, side) == (b, side))
    }
}

export_game!(Quixo);
