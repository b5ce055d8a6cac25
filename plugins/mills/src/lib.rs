//! mills: the Mills family (Morris games) with tiers by the pieces each side has in
//! hand and on the board, undo moves, and the boards' symmetries.
//!
//! Variants, each with exactly the rules of GamesmanOne's pull request 27 variant named
//! in brackets (`rules` states them): `5mm` (0), `6mm` (72), `7mm` (144), `9mm` (234,
//! the default), `lasker` (312) and `morabaraba` (450).
//!
//! A tier is (X in hand, O in hand, X on the board, O on the board), numbered
//! `Counts::encode`. Placing leads to a child tier, and so does a removal; sliding
//! keeps the tier, so the tiers of the moving phase (and Lasker's, where either side
//! may be to move) are loopy and list themselves among their children. Within a tier a
//! position is numbered by its board (`index`: first the boards whose X set is its
//! orbit's representative, numbered by orbit and O's set as Malom numbers its sectors,
//! the tier's canonical prefix; then every board as it stands, so play never turns the
//! board; a number there whose X set is a representative is not legal, a duplicate),
//! plus the side to move where the tier does not fix it.
//! Symmetric positions (16 symmetries on the 16- and 24-point boards, 8 on the
//! 17-point board) share a canonical number.
//!
//! This file maps the plugin API onto `rules`, `index`, `numbering`, `text` and `gui`; it
//! must not hold rules of its own.

pub mod board;
pub mod gui;
pub mod index;
pub mod masks;
mod numbering;
pub mod rules;
#[cfg(test)]
mod tests;
pub mod text;

use board::{Geometry, Kind};
use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};
use index::{OrbitBoards, OrbitTables};
use numbering::{Key, Numbering};
use rules::{Counts, MoveParts, Rules, State};

/// A variant: name, GamesmanOne's number, board, pieces, flying threshold, Lasker,
/// full board ties, description.
struct Spec {
    name: &'static str,
    kind: Kind,
    pieces: u8,
    fly: u8,
    lasker: bool,
    full_board_ties: bool,
    description: &'static str,
}

const COMMON: &str = "a move closing a mill removes one opposing piece not in a mill (any piece if all are in mills; one even for two mills); a side with 2 pieces left, or with no move, loses";

const SPECS: [Spec; 6] = [
    Spec {
        name: "9mm",
        kind: Kind::TwentyFour,
        pieces: 9,
        fly: 3,
        lasker: false,
        full_board_ties: false,
        description: "Nine Men's Morris (GamesmanOne variant 234): 24 points, 9 pieces each; place all, then slide to a neighbour; a side with 3 on the board flies to any empty point",
    },
    Spec {
        name: "5mm",
        kind: Kind::Sixteen,
        pieces: 5,
        fly: 0,
        lasker: false,
        full_board_ties: false,
        description: "Five Men's Morris (GamesmanOne variant 0): 16 points, 5 pieces each; place all, then slide to a neighbour; no flying",
    },
    Spec {
        name: "6mm",
        kind: Kind::Sixteen,
        pieces: 6,
        fly: 0,
        lasker: false,
        full_board_ties: false,
        description: "Six Men's Morris (GamesmanOne variant 72): 16 points, 6 pieces each; place all, then slide to a neighbour; no flying",
    },
    Spec {
        name: "7mm",
        kind: Kind::Seventeen,
        pieces: 7,
        fly: 0,
        lasker: false,
        full_board_ties: false,
        description: "Seven Men's Morris (GamesmanOne variant 144): 17 points (the 16-point board and a centre point on two cross lines of 5, any 3 in a row on them a mill), 7 pieces each; place all, then slide; no flying",
    },
    Spec {
        name: "lasker",
        kind: Kind::TwentyFour,
        pieces: 10,
        fly: 3,
        lasker: true,
        full_board_ties: false,
        description: "Lasker Morris (GamesmanOne variant 312): 24 points, 10 pieces each; on every turn place a piece from the hand or slide one; a side with 3 pieces left in all (hand and board) flies",
    },
    Spec {
        name: "morabaraba",
        kind: Kind::TwentyFourDiagonals,
        pieces: 12,
        fly: 3,
        lasker: false,
        full_board_ties: true,
        description: "Morabaraba (GamesmanOne variant 450): 24 points joined also by the corners' diagonals (mills on them too), 12 pieces each; place all, then slide; a side with 3 on the board flies; a full board is a tie",
    },
];

/// What the module keeps about one tier.
struct TierInfo {
    counts: Counts,
    boards: OrbitBoards,
    fixed: Option<usize>,
    children: Vec<Tier>,
}

impl TierInfo {
    /// 1, or 2 where either side may be to move.
    fn turns(&self) -> u64 {
        if self.fixed.is_some() {
            1
        } else {
            2
        }
    }

    /// The turn's part of state `s`'s number: 0 where the pieces fix the side to move.
    fn turn_of(&self, s: &State) -> u64 {
        if self.fixed.is_some() {
            0
        } else {
            s.turn as u64
        }
    }

    /// The numbers by orbit (every canonical position among them), first.
    fn prefix(&self) -> u64 {
        self.turns() * self.boards.count()
    }

    fn size(&self) -> u64 {
        self.prefix() + self.turns() * self.boards.full_count()
    }
}

/// A variant's tiers by their counts, in a table read directly: every numbered child
/// looks its tier up, and a hash map's lookup showed in the solve's profile.
struct TierTable {
    /// For each `TierTable::slot` of counts, 1 + the tier's place in `infos`, or 0.
    slots: Vec<u32>,
    infos: Vec<TierInfo>,
}

impl TierTable {
    /// Counts of 0..=`SIDE - 1` pieces in each of the four places (morabaraba has 12).
    const SIDE: usize = 13;

    fn new(infos: Vec<TierInfo>) -> TierTable {
        let mut slots = vec![0; Self::SIDE.pow(4)];
        for (i, info) in infos.iter().enumerate() {
            let slot = Self::slot(info.counts).expect("a variant's counts fit the table");
            slots[slot] = i as u32 + 1;
        }
        TierTable { slots, infos }
    }

    #[inline]
    fn slot(c: Counts) -> Option<usize> {
        let places = [c.hand[0], c.hand[1], c.board[0], c.board[1]];
        places.iter().try_fold(0usize, |acc, &n| {
            ((n as usize) < Self::SIDE).then_some(acc * Self::SIDE + n as usize)
        })
    }

    /// The tier of counts `c`, if the variant has it.
    #[inline]
    fn of_counts(&self, c: Counts) -> Option<&TierInfo> {
        let i = *self.slots.get(Self::slot(c)?)?;
        (i != 0).then(|| &self.infos[i as usize - 1])
    }

    /// Tier number `t`, if the variant has it.
    #[inline]
    fn get(&self, t: &u64) -> Option<&TierInfo> {
        self.of_counts(Counts::decode(*t)?)
    }

    fn contains_key(&self, t: &u64) -> bool {
        self.get(t).is_some()
    }

    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.infos.iter().map(|info| info.counts.encode())
    }
}

/// One Mills variant.
pub struct Mills {
    rules: Rules,
    tiers: TierTable,
    orbits: OrbitTables,
}

impl Mills {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of mills")
    }

    /// The variant's rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every tier of the variant.
    pub fn tier_list(&self) -> Vec<Tier> {
        let mut t: Vec<Tier> = self.tiers.keys().map(Tier).collect();
        t.sort();
        t
    }

    fn info(&self, t: Tier) -> &TierInfo {
        self.tiers.get(&t.0).expect("a tier of this variant")
    }

    /// The state of position `p` (of one of the variant's tiers, index below its size).
    pub fn state(&self, p: TierPosition) -> State {
        let info = self.info(p.tier);
        let (prefix, i) = if p.position < info.prefix() {
            (true, p.position)
        } else {
            (false, p.position - info.prefix())
        };
        let count = if prefix {
            info.boards.count()
        } else {
            info.boards.full_count()
        };
        let (turn, r) = match info.fixed {
            Some(t) => (t, i),
            None => ((i / count) as usize, i % count),
        };
        let bits = if prefix {
            info.boards.unrank(&self.rules.geo, &self.orbits, r)
        } else {
            info.boards.full_unrank(r)
        };
        State {
            counts: info.counts,
            bits,
            turn,
        }
    }

    /// The position of state `s` (whose tier must be one of the variant's).
    pub fn position(&self, s: &State) -> TierPosition {
        let tier = s.counts.encode();
        let info = self.info(Tier(tier));
        let turn = info.turn_of(s);
        let (geo, orbits) = (&self.rules.geo, &self.orbits);
        let position = if info.boards.is_rep(geo, orbits, s.bits) {
            turn * info.boards.count() + info.boards.rank(geo, orbits, s.bits)
        } else {
            info.prefix() + turn * info.boards.full_count() + info.boards.full_rank(s.bits)
        };
        TierPosition::new(Tier(tier), position)
    }

    /// The canonical number of position `p`'s class (see `index`).
    fn canonical_number(&self, p: TierPosition) -> TierPosition {
        self.canonical_of_state(&self.state(p))
    }

    /// The canonical number of state `s`'s class, straight from its board (children
    /// and parents are states: numbering them as they stand first would be wasted).
    fn canonical_of_state(&self, s: &State) -> TierPosition {
        Numbering::new(self).canonical(s)
    }

    fn canonical_state(&self, s: &State) -> (State, u64) {
        let (bits, n) = index::canonical(&self.rules.geo, s.bits);
        (State { bits, ..*s }, n)
    }

    /// `f` of the distinct canonical children of state `s`, as keys (`Key`) in order.
    fn with_children<R>(&self, s: &State, f: impl FnOnce(&[u64]) -> R) -> R {
        Key::collect(
            |keys| {
                let mut numbering = Numbering::new(self);
                self.rules.for_each_move(s, |m| {
                    keys.push(Key::of(numbering.canonical(&self.rules.apply(s, m))));
                });
            },
            f,
        )
    }

    fn primitive_state(&self, s: &State) -> Value {
        match self.rules.terminal(s.counts) {
            Some(true) => Value::TIE,
            Some(false) => Value::LOSE,
            None if !self.rules.has_move(s) => Value::LOSE,
            None => Value::UNDECIDED,
        }
    }
}

impl Game for Mills {
    const NAME: &'static str = "mills";
    const AUTHORS: &'static str =
        "the gamesman-rs team, from the rules as GamesmanOne's pull request 27 plays them";
    const DESCRIPTION: &'static str = "Mills: the Morris games (five, six, seven and nine men's morris, Lasker Morris, Morabaraba); players place pieces on the points of a board and then move them along its lines; three in a row on a line (a mill) removes an opposing piece. Points are named by column letter and row from the bottom (a1 bottom left); type a1 to place, a1-a4 to move, and add xb6 to remove the piece on b6 when the move closes a mill.";

    fn variants() -> Vec<VariantInfo> {
        SPECS
            .iter()
            .map(|s| VariantInfo::new(s.name, &format!("{}; {COMMON}", s.description)))
            .collect()
    }

    fn new(variant: &str) -> Result<Self, String> {
        let spec = SPECS.iter().find(|s| s.name == variant).ok_or_else(|| {
            format!(
                "mills has no variant '{variant}' (variants: {})",
                SPECS.map(|s| s.name).join(", ")
            )
        })?;
        let rules = Rules {
            geo: Geometry::new(spec.kind),
            pieces: spec.pieces,
            fly: spec.fly,
            lasker: spec.lasker,
            full_board_ties: spec.full_board_ties,
        };
        let orbits = OrbitTables::new(rules.geo.n);
        let tiers = rules
            .tiers()
            .into_iter()
            .map(|c| TierInfo {
                counts: c,
                boards: OrbitBoards::new(&rules.geo, c),
                fixed: rules.fixed_turn(c),
                children: rules
                    .child_tiers(c)
                    .into_iter()
                    .map(|d| Tier(d.encode()))
                    .collect(),
            })
            .collect();
        let tiers = TierTable::new(tiers);
        Ok(Mills {
            rules,
            tiers,
            orbits,
        })
    }

    fn properties(&self) -> Properties {
        let n = self.rules.geo.n as u32;
        let p = self.rules.pieces as u32;
        Properties {
            players: 2,
            is_tier_game: true,
            has_symmetry: true,
            // Slides and placements, each with at most `p` removals.
            max_moves: (p * n + n) * p,
            max_undo_moves: p * n * n,
            max_tier_children: 8,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        let c = self.rules.initial();
        self.position(&State {
            counts: c,
            bits: [0, 0],
            turn: 0,
        })
    }

    fn primitive(&self, p: TierPosition) -> Value {
        self.primitive_state(&self.state(p))
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        self.rules
            .for_each_move(&self.state(p), |m| moves.push(Move(m.encode())));
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let s = self.state(p);
        let m = MoveParts::decode(m.0).expect("a move of generate_moves");
        self.position(&self.rules.apply(&s, m))
    }

    fn turn(&self, p: TierPosition) -> Player {
        Player(self.state(p).turn as u8 + 1)
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        text::board_text(&self.rules, &self.state(p))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        match MoveParts::decode(m.0) {
            Some(m) if m.dest < self.rules.geo.n => text::move_text(&self.rules, m),
            _ => format!("?{}", m.0),
        }
    }

    fn text_to_move(&self, p: TierPosition, text: &str) -> Result<Move, String> {
        let m = text::parse_move(&self.rules, &self.state(p), text)?;
        Ok(Move(m.encode()))
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        text::position_text(&self.rules, &self.state(p))
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let s = text::parse_position(&self.rules, text, |c| self.tiers.contains_key(&c.encode()))?;
        Ok(self.position(&s))
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if let Some(info) = self.tiers.get(&tier.0) {
            for &c in &info.children {
                children.push(c);
            }
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        self.tiers.get(&tier.0).map_or(0, TierInfo::size)
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let Some(parent) = self.tiers.get(&tier.0) else {
            return;
        };
        self.rules
            .for_each_undo(&self.state(p), parent.counts, |m| {
                undo.push(UndoMove(m.encode()))
            });
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        let s = self.state(p);
        let m = MoveParts::decode(u.0).expect("an undo move of generate_undo_moves_to_tier");
        self.position(&self.rules.unapply(&s, m))
    }

    fn tier_name(&self, tier: Tier) -> String {
        match Counts::decode(tier.0) {
            Some(c) => format!(
                "x{}+{}-o{}+{}",
                c.hand[0], c.board[0], c.hand[1], c.board[1]
            ),
            None => tier.0.to_string(),
        }
    }

    fn children(&self, p: TierPosition, children: &mut List<'_, TierPosition>) -> bool {
        self.with_children(&self.state(p), |keys| {
            for &k in keys {
                children.push(Key::position(k));
            }
        });
        true
    }

    /// The scan's question in one call: the value, and how many distinct canonical
    /// children `children` lists (no list crosses the boundary, the position is
    /// unranked once, and most children are counted without being numbered:
    /// `numbering::distinct_children`).
    fn scan_position(&self, p: TierPosition) -> Option<(Value, u32)> {
        let s = self.state(p);
        let v = self.primitive_state(&s);
        if v != Value::UNDECIDED {
            return Some((v, 0));
        }
        Some((v, numbering::distinct_children(self, &s)))
    }

    fn parents(&self, p: TierPosition, tier: Tier, parents: &mut List<'_, TierPosition>) -> bool {
        let Some(parent) = self.tiers.get(&tier.0) else {
            return true;
        };
        let s = self.state(p);
        // Parents are listed once each, in no order. Without a piece put back, the side
        // to move keeps its set S, and different undo moves give different parents: two
        // are one class only through a symmetry fixing S. Where only the identity fixes
        // S, the list needs no sorting to drop duplicates.
        let distinct = parent.counts.board[s.turn] == s.counts.board[s.turn]
            && self.rules.geo.fixing(s.bits[s.turn]) == 0;
        Key::collect_known(
            distinct,
            |keys| {
                let mut numbering = Numbering::new(self);
                self.rules.for_each_undo(&s, parent.counts, |m| {
                    keys.push(Key::of(numbering.canonical(&self.rules.unapply(&s, m))));
                });
            },
            |keys| {
                for &k in keys {
                    parents.push(Key::position(k));
                }
            },
        );
        true
    }

    /// Numbers past the canonical prefix never are; within it, only boards whose X
    /// representative has symmetries of its own need their images compared.
    fn is_canonical(&self, p: TierPosition) -> Option<bool> {
        let info = self.tiers.get(&p.tier.0)?;
        if p.position >= info.prefix() {
            return (p.position < info.size()).then_some(false);
        }
        let r = p.position % info.boards.count();
        Some(
            info.boards
                .is_canonical_rank(&self.rules.geo, &self.orbits, r),
        )
    }

    fn fast_paths_canonical(&self) -> bool {
        true
    }

    fn index_version(&self) -> u32 {
        3
    }

    /// A number past the canonical prefix whose board has X's set at its orbit's
    /// representative duplicates one in the prefix, and stands for no position of its
    /// own.
    fn is_legal(&self, p: TierPosition) -> bool {
        let info = self.info(p.tier);
        p.position < info.prefix()
            || !info
                .boards
                .is_rep(&self.rules.geo, &self.orbits, self.state(p).bits)
    }

    fn canonical_prefix(&self, tier: Tier) -> Option<u64> {
        self.tiers.get(&tier.0).map(TierInfo::prefix)
    }

    fn orbit_size(&self, p: TierPosition) -> u64 {
        self.canonical_state(&self.state(p)).1
    }

    fn orbit_by_turn(&self, p: TierPosition) -> Option<[u64; 2]> {
        let s = self.state(p);
        let n = self.canonical_state(&s).1;
        Some(if s.turn == 0 { [n, 0] } else { [0, n] })
    }

    fn reach_canonical(&self, p: TierPosition) -> TierPosition {
        self.canonical_position(p)
    }

    fn reach_orbit_size(&self, p: TierPosition) -> u64 {
        self.orbit_size(p)
    }

    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        self.canonical_number(p)
    }

    fn autogui_board(&self) -> Option<gamesman_plugin_api::autogui::Board> {
        Some(gui::board(&self.rules.geo))
    }

    fn autogui_position(&self, p: TierPosition) -> Option<String> {
        Some(gui::position(&self.rules.geo, &self.state(p)))
    }

    fn autogui_move(&self, _p: TierPosition, m: Move) -> Option<String> {
        gui::move_string(MoveParts::decode(m.0)?)
    }

    fn image_autogui_data(&self) -> Option<String> {
        gui::image_data(&self.rules.geo)
    }
}

export_game!(Mills);
