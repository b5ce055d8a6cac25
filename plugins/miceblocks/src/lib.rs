//! miceblocks: GamesmanClassic's Ice Blocks (`miceblocks.c`, Kevin Duncan and Neil
//! Trotter, 2004), solved with WinBy.
//!
//! Rules: two players, X first, take turns placing a block of their own colour in a
//! pyramid whose bottom row has `base` cells (2 to 6; 5 by default). A block goes on an
//! empty bottom cell, or on an empty cell whose two supporting cells below are filled.
//! The game ends when the pyramid is full, and is scored on straight lines: the rows and
//! both diagonals. Three rules, as in the original's game menu:
//! - `points` (the standard game): every maximal run of `n >= 3` own blocks on a line
//!   scores `3 + 2 (n - 3)` points (3 in a row 3, 4 in a row 5, 5 in a row 7);
//! - `longest`: the longest run of own blocks on any line;
//! - `threes`: every run of `n >= 3` counts as `n - 2` threes in a row.
//!
//! More wins, equal is a tie; the `misere` variants reverse that (less wins). WinBy is
//! the difference of what the rule compares, X's minus O's (O's minus X's in misère),
//! so it is positive exactly when X wins. (GamesmanClassic's module reports the points
//! difference under every rule; here the margin is in the rule's own unit.)
//!
//! Variants are `base<B>[-longest|-threes][-misere]`, e.g. `base5`, `base4-threes`,
//! `base6-longest-misere`: the original's 5 bases x 3 rules x standard/misère.
//!
//! Tiers are the number of blocks placed (tier `n` leads to `n + 1`). Positions are
//! ranked densely within a tier (`rank`). Moves are cell numbers as the board shows them
//! (1 to 15 on base 5, bottom row first). Positions are written as the rows from the
//! bottom separated by `/` (`X`, `O`, `-`), e.g. `XO---/----/---/--/-`; the side to
//! move follows from the counts.
//!
//! This file maps the plugin API onto `pyramid` (shape and scoring) and `rank`
//! (indices); it must not hold rules of its own.

pub mod pyramid;
pub mod rank;

use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard, Fixed, Shape, Token};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use pyramid::{Pyramid, Rule, Tally, MAX_BASE, MIN_BASE};
use rank::{x_count, Ranking};
use std::cmp::Ordering;

/// Ice Blocks on one pyramid under one scoring rule.
pub struct MiceBlocks {
    pyramid: Pyramid,
    ranking: Ranking,
    rule: Rule,
    misere: bool,
}

impl MiceBlocks {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of miceblocks")
    }

    /// The pyramid's shape.
    pub fn pyramid(&self) -> &Pyramid {
        &self.pyramid
    }

    /// X's and O's blocks at `p`.
    pub fn board(&self, p: TierPosition) -> (u32, u32) {
        self.ranking.unrank(p.tier.0 as usize, p.position)
    }

    /// The position with X on `x` and O on `o` (which must be a reachable board).
    pub fn position(&self, x: u32, o: u32) -> TierPosition {
        let n = (x | o).count_ones() as u64;
        TierPosition::new(Tier(n), self.ranking.rank(x, o))
    }

    /// X's tally minus O's in the rule's unit, signed so that positive means X wins.
    fn margin(&self, x: u32, o: u32) -> i64 {
        let d = self.pyramid.tally(x).measure(self.rule) - self.pyramid.tally(o).measure(self.rule);
        if self.misere {
            -d
        } else {
            d
        }
    }

    /// Whether X is to move on a board with `n` blocks.
    fn x_to_move(n: usize) -> bool {
        n.is_multiple_of(2)
    }

    fn parse_variant(name: &str) -> Option<(usize, Rule, bool)> {
        let rest = name.strip_prefix("base")?;
        let mut parts = rest.split('-');
        let base: usize = parts.next()?.parse().ok()?;
        let mut rule = Rule::Points;
        let mut misere = false;
        let mut seen_rule = false;
        for part in parts {
            match part {
                "longest" | "threes" if !seen_rule && !misere => {
                    rule = if part == "longest" {
                        Rule::Longest
                    } else {
                        Rule::Threes
                    };
                    seen_rule = true;
                }
                "misere" if !misere => misere = true,
                _ => return None,
            }
        }
        Some((base, rule, misere))
    }
}

fn variant_name(base: usize, rule: Rule, misere: bool) -> String {
    let mut s = format!("base{base}");
    if rule != Rule::Points {
        s.push('-');
        s.push_str(rule.word());
    }
    if misere {
        s.push_str("-misere");
    }
    s
}

impl Game for MiceBlocks {
    const NAME: &'static str = "miceblocks";
    const AUTHORS: &'static str =
        "the gamesman-rs team, after GamesmanClassic's miceblocks.c (Kevin Duncan, Neil Trotter)";
    const DESCRIPTION: &'static str = "Ice Blocks: X and O take turns placing blocks in a pyramid, each on the bottom row or on two filled cells below it. When the pyramid is full, runs of three or more on the rows and diagonals are scored (3 points for three in a row, 2 more for each further block; or the longest run; or the number of threes). Solved with WinBy. Tiers count the blocks placed.";

    fn variants() -> Vec<VariantInfo> {
        let mut out = Vec::new();
        // The default (base 5, points) first, then the rest by base.
        let bases = std::iter::once(5).chain((MIN_BASE..=MAX_BASE).filter(|&b| b != 5));
        for base in bases {
            for rule in [Rule::Points, Rule::Longest, Rule::Threes] {
                for misere in [false, true] {
                    let cells = base * (base + 1) / 2;
                    let goal = match (rule, misere) {
                        (Rule::Points, false) => "most points wins",
                        (Rule::Points, true) => "fewest points wins",
                        (Rule::Longest, false) => "longest run wins",
                        (Rule::Longest, true) => "shortest longest run wins",
                        (Rule::Threes, false) => "most threes in a row wins",
                        (Rule::Threes, true) => "fewest threes in a row wins",
                    };
                    out.push(VariantInfo::new(
                        &variant_name(base, rule, misere),
                        &format!("base {base} ({cells} cells); {goal}"),
                    ));
                }
            }
        }
        out
    }

    fn new(variant: &str) -> Result<Self, String> {
        let (base, rule, misere) = Self::parse_variant(variant).ok_or_else(|| {
            format!(
                "miceblocks has no variant '{variant}': use base<2-6>[-longest|-threes][-misere], e.g. base5 or base4-threes-misere"
            )
        })?;
        let pyramid = Pyramid::new(base)?;
        let ranking = Ranking::new(&pyramid);
        Ok(MiceBlocks {
            pyramid,
            ranking,
            rule,
            misere,
        })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            supports_winby: true,
            // At most one free cell per bottom-row column can be placeable at once, and
            // at most `base` uncovered blocks can be undone.
            max_moves: self.pyramid.base as u32,
            max_undo_moves: self.pyramid.base as u32,
            max_tier_children: 1,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.position(0, 0)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        let n = p.tier.0 as usize;
        if n < self.pyramid.cells {
            return Value::UNDECIDED;
        }
        let (x, o) = self.board(p);
        let for_x = self.margin(x, o).cmp(&0);
        let for_mover = if Self::x_to_move(n) {
            for_x
        } else {
            for_x.reverse()
        };
        match for_mover {
            Ordering::Greater => Value::WIN,
            Ordering::Less => Value::LOSE,
            Ordering::Equal => Value::TIE,
        }
    }

    fn generate_moves(&self, p: TierPosition, out: &mut List<'_, Move>) {
        let (x, o) = self.board(p);
        let mut free = self.pyramid.placeable(x | o);
        while free != 0 {
            out.push(Move(free.trailing_zeros() as u64));
            free &= free - 1;
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let (mut x, mut o) = self.board(p);
        let bit = 1u32 << m.0;
        if Self::x_to_move(p.tier.0 as usize) {
            x |= bit;
        } else {
            o |= bit;
        }
        self.position(x, o)
    }

    fn turn(&self, p: TierPosition) -> Player {
        if Self::x_to_move(p.tier.0 as usize) {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let (x, o) = self.board(p);
        let base = self.pyramid.base;
        let mut rows = vec![String::new(); base];
        for (k, &(r, _)) in self.pyramid.coords.iter().enumerate() {
            let cell = if x >> k & 1 == 1 {
                "[XX]".to_string()
            } else if o >> k & 1 == 1 {
                "[OO]".to_string()
            } else {
                format!("[{:02}]", k + 1)
            };
            rows[r].push_str(&cell);
        }
        let mut s = String::new();
        for r in (0..base).rev() {
            s.push_str(&" ".repeat(2 + 2 * r));
            s.push_str(&rows[r]);
            s.push('\n');
        }
        let (tx, to): (Tally, Tally) = (self.pyramid.tally(x), self.pyramid.tally(o));
        let n = p.tier.0 as usize;
        s.push_str(&format!(
            "  {} so far: X {}  O {}  ({}{})  To move: {}\n",
            self.rule.word(),
            tx.measure(self.rule),
            to.measure(self.rule),
            if self.misere {
                "less wins"
            } else {
                "more wins"
            },
            match self.rule {
                Rule::Points => "; 3 in a row scores 3, each further block 2",
                Rule::Longest => "; the longest run on a row or diagonal",
                Rule::Threes => "; a run of n counts n - 2 threes",
            },
            if n == self.pyramid.cells {
                "nobody (full)"
            } else if Self::x_to_move(n) {
                "X"
            } else {
                "O"
            }
        ));
        s
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        self.pyramid.cell_name(m.0 as usize)
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let t = text.trim();
        let cells = self.pyramid.cells;
        let k: usize = t
            .parse()
            .ok()
            .filter(|k| (1..=cells).contains(k))
            .ok_or_else(|| format!("'{t}' is not a cell: type a number from 1 to {cells}"))?
            - 1;
        let (x, o) = self.board(p);
        if (x | o) >> k & 1 == 1 {
            return Err(format!("cell {t} is already filled"));
        }
        if self.pyramid.placeable(x | o) >> k & 1 == 0 {
            return Err(format!("cell {t} needs both cells below it filled first"));
        }
        Ok(Move(k as u64))
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        let (x, o) = self.board(p);
        let mut rows = vec![String::new(); self.pyramid.base];
        for (k, &(r, _)) in self.pyramid.coords.iter().enumerate() {
            rows[r].push(if x >> k & 1 == 1 {
                'X'
            } else if o >> k & 1 == 1 {
                'O'
            } else {
                '-'
            });
        }
        rows.join("/")
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let t = text.trim();
        let base = self.pyramid.base;
        let rows: Vec<&str> = t.split('/').collect();
        let shape_ok = rows.len() == base
            && rows
                .iter()
                .enumerate()
                .all(|(r, row)| row.chars().count() == base - r);
        if !shape_ok {
            let example: Vec<String> = (0..base).map(|r| "-".repeat(base - r)).collect();
            return Err(format!(
                "'{t}' is not a pyramid of base {base}: give the rows from the bottom separated by /, like {}",
                example.join("/")
            ));
        }
        let (mut x, mut o) = (0u32, 0u32);
        let mut k = 0;
        for row in &rows {
            for ch in row.chars() {
                match ch {
                    'X' | 'x' => x |= 1 << k,
                    'O' | 'o' => o |= 1 << k,
                    '-' | '.' | '_' => {}
                    other => return Err(format!("'{other}' is not a cell: use X, O or -")),
                }
                k += 1;
            }
        }
        if !self.pyramid.is_stable(x | o) {
            return Err("a block must rest on two filled cells below it".into());
        }
        let n = (x | o).count_ones() as usize;
        if x.count_ones() as usize != x_count(n) {
            return Err(format!(
                "X moves first, so X has as many blocks as O or one more (X {}, O {})",
                x.count_ones(),
                o.count_ones()
            ));
        }
        Ok(self.position(x, o))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if (tier.0 as usize) < self.pyramid.cells {
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
        let n = p.tier.0 as usize;
        if n == 0 || tier.0 as usize + 1 != n {
            return;
        }
        let (x, o) = self.board(p);
        // The last block was the previous mover's, with nothing resting on it yet.
        let last = if Self::x_to_move(n - 1) { x } else { o };
        let mut free = self.pyramid.uncovered(last, x | o);
        while free != 0 {
            undo.push(UndoMove(free.trailing_zeros() as u64));
            free &= free - 1;
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let (x, o) = self.board(p);
        let keep = !(1u32 << u.0);
        self.position(x & keep, o & keep)
    }

    fn tier_name(&self, tier: Tier) -> String {
        format!("{} blocks", tier.0)
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        // One unrank for all moves instead of one per `do_move`.
        let (x, o) = self.board(p);
        let x_moves = Self::x_to_move(p.tier.0 as usize);
        let mut free = self.pyramid.placeable(x | o);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free &= free - 1;
            children.push(if x_moves {
                self.position(x | bit, o)
            } else {
                self.position(x, o | bit)
            });
        }
        true
    }

    fn parents(&self, p: TierPosition, tier: Tier, parents: &mut List<'_, TierPosition>) -> bool {
        let n = p.tier.0 as usize;
        if n == 0 || tier.0 as usize + 1 != n {
            return true;
        }
        let (x, o) = self.board(p);
        let last = if Self::x_to_move(n - 1) { x } else { o };
        let mut free = self.pyramid.uncovered(last, x | o);
        while free != 0 {
            let keep = !(free & free.wrapping_neg());
            free &= free - 1;
            parents.push(self.position(x & keep, o & keep));
        }
        true
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        // One center per cell in the pyramid's own numbering (bottom row first), each
        // row shifted half a block to the right of the row below; an empty slot shows
        // the cell number a player types.
        let base = self.pyramid.base;
        let mut b = AutoGuiBoard {
            width: base as f64,
            height: base as f64,
            ..AutoGuiBoard::default()
        };
        for (k, &(r, c)) in self.pyramid.coords.iter().enumerate() {
            let (x, y) = (c as f64 + r as f64 / 2.0, (base - 1 - r) as f64);
            b.centers.push((x + 0.5, y + 0.5));
            let mut slot = Fixed::rect(x + 0.04, y + 0.04, 0.92, 0.92, "#eaf2fa", "#8fa8c0");
            slot.label = (k + 1).to_string();
            b.fixed.push(slot);
        }
        b.tokens.push(
            Token::shape('X', Shape::ROUNDED, 0.92, "#1f5fbf", "#0b2f66").with_glyph("X", "#fff"),
        );
        b.tokens.push(
            Token::shape('O', Shape::ROUNDED, 0.92, "#c0392b", "#641d15").with_glyph("O", "#fff"),
        );
        // An empty slot: GamesmanUni draws a blank block there, we draw the slot.
        b.tokens.push(Token::glyph('B', "", ""));
        Some(b)
    }

    fn image_autogui_data(&self) -> Option<String> {
        // GamesmanUni has no pyramid, but it has blocks: Quixo's X, O and blank cubes,
        // stacked as our board stacks them.
        let board = self.autogui_board()?;
        let base = self.pyramid.base as f64;
        Some(
            autogui::ImageData {
                theme: "blocks".into(),
                space: (base, base),
                centers: board.centers,
                images: vec![
                    ('X', "quixo/x.svg".into(), 0.96),
                    ('O', "quixo/o.svg".into(), 0.96),
                    ('B', "quixo/blank.svg".into(), 0.96),
                ],
                circle_radius: 0.18,
                animation: "entityFade".into(),
                ..Default::default()
            }
            .to_json(),
        )
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        let (x, o) = self.board(p);
        let cells: String = (0..self.pyramid.cells)
            .map(|k| {
                if x >> k & 1 == 1 {
                    'X'
                } else if o >> k & 1 == 1 {
                    'O'
                } else {
                    'B'
                }
            })
            .collect();
        Some(autogui::position(self.turn(p), &cells))
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> Option<String> {
        // Lower case: GamesmanUni then draws a plain button, not the block's image.
        let token = if Self::x_to_move(p.tier.0 as usize) {
            'x'
        } else {
            'o'
        };
        Some(autogui::place(token, m.0 as usize))
    }

    fn win_by(&self, p: TierPosition) -> i64 {
        let (x, o) = self.board(p);
        self.margin(x, o)
    }
}

export_game!(MiceBlocks);
