//! Whirly: a Sokoban-like puzzle with coloured boxes, targets and several pushers,
//! solved by the host's retrograde solver to shortest solutions (seed 003).
//!
//! The variant is the level: a bundled level by name, or a path to a level file (see
//! `level` for the format). A state is the seed's canonical "ordered hids": the numbered
//! floor cells holding each colony (boxes of one colour, and the pushers, all
//! interchangeable within a colony), ranked densely with the plugin-api `Ranker`. A move
//! is one step of one pusher, pushing a single box if the cell behind it is free, so
//! remoteness counts steps. The whole puzzle is one loopy tier. States with a box in a
//! dead corner are illegal, and moves into them are not generated: from such a state the
//! level can never be solved. `gui` draws it for graphical front ends. This file must
//! not contain level parsing.

pub mod gui;
pub mod level;

use gamesman_plugin_api::autogui::{self, Board as AutoGuiBoard};
use gamesman_plugin_api::rank::{Ranker, MAX_CELLS};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use level::{opposite, Level, DIR_NAMES};

/// The bundled levels: (name, description, text).
pub const LEVELS: &[(&str, &str, &str)] = &[
    (
        "tiny-push",
        "push one box two cells (2 moves)",
        include_str!("../levels/tiny-push.txt"),
    ),
    (
        "tiny-corner",
        "one box up and right (5 moves)",
        include_str!("../levels/tiny-corner.txt"),
    ),
    (
        "two-colours",
        "two colours, one box each (10 moves)",
        include_str!("../levels/two-colours.txt"),
    ),
    (
        "stuck",
        "an unsolvable level",
        include_str!("../levels/stuck.txt"),
    ),
    (
        "two-pushers",
        "two pushers share the work",
        include_str!("../levels/two-pushers.txt"),
    ),
    (
        "warehouse",
        "three boxes of one colour",
        include_str!("../levels/warehouse.txt"),
    ),
    (
        "courtyard",
        "two colours, four boxes: takes seconds",
        include_str!("../levels/courtyard.txt"),
    ),
];

const TIER: Tier = Tier(0);

/// A Whirly level as a game.
pub struct Whirly {
    /// The level.
    pub level: Level,
    ranker: Ranker,
}

type Units = [u8; MAX_CELLS];

impl Whirly {
    /// The game for a bundled level name or a level file path.
    pub fn open(variant: &str) -> Result<Whirly, String> {
        let text = match LEVELS.iter().find(|(n, _, _)| *n == variant) {
            Some((_, _, t)) => t.to_string(),
            None if variant.contains('/') || variant.ends_with(".txt") => {
                std::fs::read_to_string(variant)
                    .map_err(|e| format!("cannot read level file {variant}: {e}"))?
            }
            None => {
                let names: Vec<&str> = LEVELS.iter().map(|l| l.0).collect();
                return Err(format!(
                    "no bundled level '{variant}' (bundled: {}); give a path to a level file for others",
                    names.join(", ")
                ));
            }
        };
        let level = Level::parse(&text).map_err(|e| format!("level {variant}: {e}"))?;
        if level.cells.len() > MAX_CELLS {
            return Err(format!(
                "level {variant} has {} floor cells; at most {MAX_CELLS} are supported",
                level.cells.len()
            ));
        }
        let mut counts = level.boxes.clone();
        counts.push(level.pushers);
        let ranker =
            Ranker::new(level.cells.len(), &counts).map_err(|e| format!("level {variant}: {e}"))?;
        Ok(Whirly { level, ranker })
    }

    /// The units on every numbered cell of `p`.
    pub fn units(&self, p: TierPosition) -> Units {
        let mut u = [0u8; MAX_CELLS];
        self.ranker
            .unrank(p.position, &mut u[..self.level.cells.len()]);
        u
    }

    /// The position of a units array.
    pub fn position_of(&self, u: &Units) -> TierPosition {
        TierPosition::new(TIER, self.ranker.rank(&u[..self.level.cells.len()]))
    }

    /// The starting position.
    pub fn start(&self) -> TierPosition {
        let mut u = [0u8; MAX_CELLS];
        u[..self.level.cells.len()].copy_from_slice(&self.level.start);
        self.position_of(&u)
    }

    fn solved(&self, u: &Units) -> bool {
        self.level
            .target
            .iter()
            .enumerate()
            .all(|(h, &t)| t == 0 || u[h] == t)
    }

    fn is_box(&self, unit: u8) -> bool {
        unit != 0 && unit != self.level.pusher_code()
    }

    fn legal_units(&self, u: &Units) -> bool {
        (0..self.level.cells.len())
            .all(|h| !self.is_box(u[h]) || !self.level.dead[h][u[h] as usize - 1])
    }

    /// Where a move of the pusher at `h` in direction `d` lands: the pusher's new cell
    /// and, for a push, the box's new cell. `None` when the move is impossible.
    fn step(&self, u: &Units, h: usize, d: usize) -> Option<(usize, Option<usize>)> {
        let n1 = self.level.next[h][d]?;
        if u[n1] == 0 {
            return Some((n1, None));
        }
        if !self.is_box(u[n1]) {
            return None;
        }
        let n2 = self.level.next[n1][d]?;
        if u[n2] != 0 || self.level.dead[n2][u[n1] as usize - 1] {
            return None;
        }
        Some((n1, Some(n2)))
    }

    fn apply(&self, u: &mut Units, h: usize, d: usize) {
        if let Some((n1, pushed)) = self.step(u, h, d) {
            if let Some(n2) = pushed {
                u[n2] = u[n1];
            }
            u[n1] = u[h];
            u[h] = 0;
        }
    }

    /// The parent reached by undoing a step of the pusher now at `h` that moved in
    /// direction `d`, pulling the box ahead of it back when `pull`.
    fn unstep(&self, u: &Units, h: usize, d: usize, pull: bool) -> Option<Units> {
        let from = self.level.next[h][opposite(d)]?;
        if u[from] != 0 {
            return None;
        }
        let mut p = *u;
        p[from] = p[h];
        p[h] = 0;
        if pull {
            let ahead = self.level.next[h][d]?;
            if !self.is_box(u[ahead]) {
                return None;
            }
            let colour = u[ahead];
            if self.level.dead[h][colour as usize - 1] {
                return None;
            }
            p[h] = colour;
            p[ahead] = 0;
        }
        // A game stops when solved, so a solved state is never a parent.
        (!self.solved(&p)).then_some(p)
    }

    fn pusher_cells(&self, u: &Units) -> impl Iterator<Item = usize> + '_ {
        let code = self.level.pusher_code();
        let u = *u;
        (0..self.level.cells.len()).filter(move |&h| u[h] == code)
    }
}

impl Game for Whirly {
    const NAME: &'static str = "whirly";
    const AUTHORS: &'static str = "the gamesman-rs team, after the Whirly puzzle notes";
    const DESCRIPTION: &'static str = "Whirly: pushers walk one cell at a time and push coloured boxes (never pull) until every target is covered by a box of its colour. The variant names a bundled level or a level file.";

    fn variants() -> Vec<VariantInfo> {
        LEVELS
            .iter()
            .map(|(n, d, _)| VariantInfo::new(n, d))
            .collect()
    }

    fn new(variant: &str) -> Result<Self, String> {
        Whirly::open(variant)
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 1,
            is_tier_game: false,
            max_moves: 4 * self.level.pushers as u32,
            max_undo_moves: 8 * self.level.pushers as u32,
            max_tier_children: 1,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        self.start()
    }

    fn primitive(&self, p: TierPosition) -> Value {
        if self.solved(&self.units(p)) {
            Value::WIN
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        let u = self.units(p);
        for h in self.pusher_cells(&u) {
            for d in 0..4 {
                if self.step(&u, h, d).is_some() {
                    moves.push(Move((h * 4 + d) as u64));
                }
            }
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let mut u = self.units(p);
        self.apply(&mut u, m.0 as usize / 4, m.0 as usize % 4);
        self.position_of(&u)
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        let u = self.units(p);
        for h in self.pusher_cells(&u) {
            for d in 0..4 {
                if self.step(&u, h, d).is_some() {
                    let mut c = u;
                    self.apply(&mut c, h, d);
                    children.push(self.position_of(&c));
                }
            }
        }
        true
    }

    fn turn(&self, _p: TierPosition) -> Player {
        Player::ONE
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        let u = self.units(p);
        let l = &self.level;
        let mut s = String::from("   ");
        for c in 0..l.width {
            s.push_str(&format!("{:<3}", (b'a' + c as u8) as char));
        }
        s.push('\n');
        for r in 0..l.height {
            s.push_str(&format!("{:>2} ", r + 1));
            for c in 0..l.width {
                let cell = match l.hid[r * l.width + c] {
                    None => "##".to_string(),
                    Some(h) => l.symbol(h, u[h]),
                };
                s.push_str(&format!("{cell:<3}"));
            }
            s.push('\n');
        }
        s
    }

    fn move_to_text(&self, p: TierPosition, m: Move) -> String {
        let (h, d) = (m.0 as usize / 4, m.0 as usize % 4);
        if self.level.pushers == 1 {
            DIR_NAMES[d].to_string()
        } else {
            let _ = p;
            format!("{}{}", self.level.cell_name(h), DIR_NAMES[d])
        }
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let t = text.trim().to_ascii_lowercase();
        let u = self.units(p);
        let dir = t
            .chars()
            .last()
            .and_then(|c| DIR_NAMES.iter().position(|&n| n == c));
        let Some(d) = dir else {
            return Err(format!(
                "'{t}' is not a move: type a direction u, d, l or r{}",
                if self.level.pushers > 1 {
                    ", after the pusher's cell (b3u)"
                } else {
                    ""
                }
            ));
        };
        let cell = &t[..t.len() - 1];
        let candidates: Vec<usize> = if cell.is_empty() {
            self.pusher_cells(&u)
                .filter(|&h| self.step(&u, h, d).is_some())
                .collect()
        } else {
            match self.level.parse_cell(cell) {
                Some(h) if u[h] == self.level.pusher_code() => vec![h],
                _ => return Err(format!("there is no pusher at '{cell}'")),
            }
        };
        match candidates.as_slice() {
            [h] if self.step(&u, *h, d).is_some() => Ok(Move((*h * 4 + d) as u64)),
            [] | [_] => Err(format!("no pusher can move {} here", DIR_NAMES[d])),
            _ => {
                Err("several pushers can make that move: name the pusher's cell first (b3u)".into())
            }
        }
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        let u = self.units(p);
        let l = &self.level;
        let rows: Vec<String> = (0..l.height)
            .map(|r| {
                (0..l.width)
                    .map(|c| match l.hid[r * l.width + c] {
                        None => "#".to_string(),
                        Some(h) => {
                            let s = l.symbol(h, u[h]);
                            if s.len() == 2 {
                                format!("[{s}]")
                            } else {
                                s
                            }
                        }
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let l = &self.level;
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != l.height {
            return Err(format!(
                "expected {} rows separated by '/', got {}",
                l.height,
                rows.len()
            ));
        }
        let mut u = [0u8; MAX_CELLS];
        for (r, row) in rows.iter().enumerate() {
            let mut chars = row.chars().peekable();
            for c in 0..l.width {
                let cell = match chars.next() {
                    Some('[') => {
                        let a = chars.next().unwrap_or('?');
                        let b = chars.next().unwrap_or('?');
                        if chars.next() != Some(']') {
                            return Err(format!("row {}: unclosed '[' in column {}", r + 1, c + 1));
                        }
                        (a, b)
                    }
                    Some(ch) => (ch, '\0'),
                    None => {
                        return Err(format!(
                            "row {} is shorter than the level's {} columns",
                            r + 1,
                            l.width
                        ))
                    }
                };
                let h = l.hid[r * l.width + c];
                let (unit, target) = match (cell, h) {
                    (('#', _), None) => continue,
                    (('#', _), Some(_)) | (_, None) => {
                        return Err(format!(
                            "row {}, column {} does not match the level's walls",
                            r + 1,
                            c + 1
                        ))
                    }
                    (('-', _), _) => ('\0', '\0'),
                    ((x, '\0'), _) if x.is_ascii_lowercase() => ('\0', x),
                    ((x, '\0'), _) => (x, '\0'),
                    ((x, t), _) => (x, t),
                };
                let h = h.expect("walls handled above");
                let target_code = if target == '\0' {
                    0
                } else {
                    l.colours
                        .iter()
                        .position(|&k| k == target)
                        .map_or(255, |i| i as u8 + 1)
                };
                if target_code != l.target[h] {
                    return Err(format!(
                        "row {}, column {} does not match the level's targets",
                        r + 1,
                        c + 1
                    ));
                }
                u[h] = match unit {
                    '\0' => 0,
                    '@' => l.pusher_code(),
                    x if x.is_ascii_uppercase() => {
                        match l.colours.iter().position(|&k| k == x.to_ascii_lowercase()) {
                            Some(i) => i as u8 + 1,
                            None => return Err(format!("'{x}' is not a box colour of this level")),
                        }
                    }
                    x => return Err(format!("'{x}' is not a cell symbol")),
                };
            }
            if chars.next().is_some() {
                return Err(format!(
                    "row {} is longer than the level's {} columns",
                    r + 1,
                    l.width
                ));
            }
        }
        let n = l.cells.len();
        let count = |code: u8| u[..n].iter().filter(|&&x| x == code).count();
        for (i, &b) in l.boxes.iter().enumerate() {
            if count(i as u8 + 1) != b {
                return Err(format!(
                    "the level has {b} boxes of colour '{}'",
                    l.colours[i]
                ));
            }
        }
        if count(l.pusher_code()) != l.pushers {
            return Err(format!("the level has {} pushers", l.pushers));
        }
        Ok(self.position_of(&u))
    }

    fn tier_size(&self, _tier: Tier) -> u64 {
        self.ranker.size()
    }

    fn is_legal(&self, p: TierPosition) -> bool {
        self.legal_units(&self.units(p))
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        if tier != TIER {
            return;
        }
        let u = self.units(p);
        for h in self.pusher_cells(&u) {
            for d in 0..4 {
                for pull in [false, true] {
                    if self.unstep(&u, h, d, pull).is_some() {
                        undo.push(UndoMove((h * 8 + d * 2 + pull as usize) as u64));
                    }
                }
            }
        }
    }

    fn undo_move(&self, p: TierPosition, m: UndoMove) -> TierPosition {
        let u = self.units(p);
        let (h, d, pull) = (m.0 as usize / 8, (m.0 as usize / 2) % 4, m.0 % 2 == 1);
        match self.unstep(&u, h, d, pull) {
            Some(parent) => self.position_of(&parent),
            None => p,
        }
    }

    fn parents(&self, p: TierPosition, tier: Tier, parents: &mut List<'_, TierPosition>) -> bool {
        if tier != TIER {
            return true;
        }
        let u = self.units(p);
        for h in self.pusher_cells(&u) {
            for d in 0..4 {
                for pull in [false, true] {
                    if let Some(parent) = self.unstep(&u, h, d, pull) {
                        parents.push(self.position_of(&parent));
                    }
                }
            }
        }
        true
    }

    fn autogui_board(&self) -> Option<AutoGuiBoard> {
        Some(gui::board(&self.level))
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        Some(gui::position(&self.level, &self.units(p)))
    }

    fn autogui_move(&self, _p: TierPosition, m: Move) -> Option<String> {
        let (h, d) = (m.0 as usize / 4, m.0 as usize % 4);
        let to = self.level.next[h][d]?;
        Some(autogui::arrow(h, to))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(gui::image_data(&self.level))
    }

    fn tier_name(&self, _tier: Tier) -> String {
        "all states".into()
    }
}

export_game!(Whirly);
