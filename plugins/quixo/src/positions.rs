//! Quixo's positions as numbers: a tier's numbering (canonical boards first), decoding
//! an index into a board and side, encoding one back, and the canonical forms the
//! solver's batches ask for. The plugin API's calls (`lib.rs`) are built on these.
//!
//! This file must not know moves or the plugin API's calls beyond `Tier` and
//! `TierPosition`, and must not allocate in the solver's hot paths.

use crate::board::{Board, Geometry, Side};
use crate::cache::Cache;
use crate::layout::{join_index, oriented, oriented_counted, side_of, split_index};
use crate::order::CanonicalFirst;
use crate::pattern::PatternOrder;
use crate::rank::TierRanker;
use crate::Quixo;
use gamesman_plugin_api::{Game, Tier, TierPosition};
use std::sync::Arc;

impl Quixo {
    /// The game for a variant, panicking on a bad name (for tests and benchmarks).
    pub fn new_for_tests(variant: &str) -> Self {
        <Self as Game>::new(variant).expect("a variant of quixo")
    }

    /// The board geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The canonical-first numbering of tier `t`'s boards on 3x3 and 4x4.
    #[inline(always)]
    pub(crate) fn order(&self, t: Tier) -> Option<&CanonicalFirst> {
        let slot = self.orders.get(t.0 as usize)?;
        Some(slot.get_or_init(|| {
            CanonicalFirst::new(&self.tables, self.tiers.ranker(t), &self.symmetries)
        }))
    }

    /// `f` of the numbering of tier `t`'s boards by blank patterns, on 5x5 (`None`
    /// on other sizes).
    #[inline(always)]
    pub(crate) fn with_pattern<R>(&self, t: Tier, f: impl FnOnce(&PatternOrder) -> R) -> Option<R> {
        let cache = self.patterns.as_ref()?;
        Some(cache.with(t.0, || self.build_pattern(t), f))
    }

    /// Builds the numbering of tier `t` by blank patterns (5x5).
    fn build_pattern(&self, t: Tier) -> PatternOrder {
        let (a, b) = self.tiers.counts(t).expect("a valid Quixo tier");
        let w = self.tables.wide();
        PatternOrder::new(w, &self.symmetries, self.geo.cells, a as usize, b as usize)
    }

    /// The numbering of tier `t`'s boards by blank patterns, on 5x5 (`None` on other
    /// sizes), held for numbering many boards of it (`with_pattern` looks it up each
    /// time).
    #[inline(always)]
    pub(crate) fn pattern(&self, t: Tier) -> Option<Arc<PatternOrder>> {
        let cache = self.patterns.as_ref()?;
        Some(cache.get(t.0, || self.build_pattern(t)))
    }

    /// Whether boards are numbered canonical ones first.
    pub(crate) fn ordered(&self) -> bool {
        !self.orders.is_empty() || self.patterns.is_some()
    }

    /// The bytes kept by the numbering of tier `t`, which this builds (5x5 only; for
    /// measurements).
    pub fn numbering_bytes(&self, t: Tier) -> Option<usize> {
        self.with_pattern(t, PatternOrder::bytes)
    }

    /// The bytes of the 5x5 numberings kept in the shared cache (for measurements).
    pub fn numberings_kept(&self) -> usize {
        self.patterns.as_ref().map_or(0, Cache::bytes)
    }

    /// The board and side to move of `p`.
    #[inline(always)]
    pub fn decode(&self, p: TierPosition) -> (Board, Side) {
        let (board, side, _) = self.decode_counted(p);
        (board, side)
    }

    /// `decode`, with the board's X and O cube counts (known from the tier, where
    /// counting them would take a dozen instructions each on plain x86-64).
    #[inline(always)]
    pub(crate) fn decode_counted(&self, p: TierPosition) -> (Board, Side, (u32, u32)) {
        let (i, side, swapped, counts) = self.locate(p);
        let ranker = self.tiers.ranker(p.tier);
        let board =
            if let Some(b) = self.with_pattern(p.tier, |po| po.unindex(self.tables.wide(), i)) {
                b
            } else {
                let r = match self.order(p.tier) {
                    Some(o) => o.rank(i),
                    None => i,
                };
                ranker.unrank(&self.tables, r)
            };
        // The numberings hold boards with `a` X and `b` O cubes.
        if swapped {
            (board.swapped(), side, counts)
        } else {
            (board, side, counts)
        }
    }

    /// Where `p` lies, without decoding its board: the number of its board (of the
    /// board's colour swap when `swapped`) in the tier's numbering, the side to move,
    /// `swapped`, and the board's own X and O cube counts.
    #[inline(always)]
    pub(crate) fn locate(&self, p: TierPosition) -> (u64, Side, bool, (u32, u32)) {
        let (a, b) = self.tiers.counts(p.tier).expect("a valid Quixo tier");
        let (i, side, swapped) = split_index(p.position, a == b, self.tiers.ranker(p.tier).size());
        (i, side, swapped, if swapped { (b, a) } else { (a, b) })
    }

    /// The side to move at `p` (without decoding its board).
    #[inline(always)]
    pub(crate) fn side(&self, p: TierPosition) -> Side {
        match self.tiers.counts(p.tier) {
            Some((a, b)) if a == b => {
                if p.position < self.tiers.boards(p.tier) {
                    Side::X
                } else {
                    Side::O
                }
            }
            _ => side_of(p.position),
        }
    }

    /// The position of board `b` with `side` to move.
    pub fn encode(&self, b: Board, side: Side) -> TierPosition {
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        let t = self.tiers.tier(x, o);
        let r = self.tiers.ranker(t);
        let swapped = x > o;
        let board = if swapped { b.swapped() } else { b };
        let i = self.board_index(t, r, board, || self.symmetries.is_canonical(board));
        TierPosition::new(t, join_index(i, side, swapped, x == o, r.size()))
    }

    /// The canonical position of board `b` with `side` to move: its tier and index.
    #[inline(always)]
    pub(crate) fn canonical_tp(&self, b: Board, side: Side) -> TierPosition {
        let (b, side) = self.canonical_of(b, side);
        let (x, o) = (b.x.count_ones(), b.o.count_ones());
        let t = self.tiers.tier(x, o);
        let r = self.tiers.ranker(t);
        TierPosition::new(t, self.canonical_index(t, r, b, side, x == o, None))
    }

    /// The index of board `b` (oriented, and canonical where symmetric boards are
    /// merged: the fast paths' boards) with `side` to move in tier `t`; numbered by
    /// `order` when the caller holds tier `t`'s numbering (`pattern`), else as
    /// `board_index` finds it.
    #[inline(always)]
    pub(crate) fn canonical_index(
        &self,
        t: Tier,
        r: &TierRanker,
        b: Board,
        side: Side,
        same: bool,
        order: Option<&PatternOrder>,
    ) -> u64 {
        let i = match order {
            Some(order) => order.index(self.tables.wide(), b, true),
            None => self.board_index(t, r, b, || true),
        };
        join_index(i, side, false, same, r.size())
    }

    /// The number of board `b` in tier `t` (ranked by `r`): its rank, or its place in
    /// the canonical-first numbering, where `canonical` (asked only there) says which
    /// part it is in.
    #[inline(always)]
    pub(crate) fn board_index(
        &self,
        t: Tier,
        r: &TierRanker,
        b: Board,
        canonical: impl FnOnce() -> bool,
    ) -> u64 {
        if self.patterns.is_some() {
            let canonical = canonical();
            let index = self.with_pattern(t, |po| po.index(self.tables.wide(), b, canonical));
            return index.expect("a 5x5 numbering");
        }
        let rank = r.rank(&self.tables, b);
        match self.order(t) {
            Some(o) => o.index(rank, canonical()),
            None => rank,
        }
    }

    /// Whether undoing a move of `last` (who just moved) at board `b` of tier `t`
    /// towards `tier` puts back a blank cube (`Some(true)`), their own (`Some(false)`),
    /// or cannot reach it.
    #[inline(always)]
    pub(crate) fn undo_kind(
        &self,
        t: Tier,
        (x, o): (u32, u32),
        last: Side,
        tier: Tier,
    ) -> Option<bool> {
        if tier == t {
            return Some(false);
        }
        let blank_parent = match last {
            Side::X if x > 0 => Some(self.tiers.tier(x - 1, o)),
            Side::O if o > 0 => Some(self.tiers.tier(x, o - 1)),
            _ => None,
        };
        (blank_parent == Some(tier)).then_some(true)
    }

    /// The canonical form of board `b` with `side` to move when symmetric positions
    /// are merged (`oriented`, then the smallest of the board's eight images), else
    /// `(b, side)`.
    #[inline(always)]
    pub(crate) fn canonical_of(&self, b: Board, side: Side) -> (Board, Side) {
        if self.symmetric {
            let (b, side) = oriented(b, side);
            (self.symmetries.canonical(b), side)
        } else {
            (b, side)
        }
    }

    /// `canonical_of` for a board known to have `x` X and `o` O cubes.
    #[inline(always)]
    pub(crate) fn canonical_counted(&self, b: Board, side: Side, x: u32, o: u32) -> (Board, Side) {
        if self.symmetric {
            let (b, side) = oriented_counted(b, side, x, o);
            (self.symmetries.canonical(b), side)
        } else {
            (b, side)
        }
    }

    /// The character of a cell of `b`.
    pub(crate) fn cell_char(b: Board, cell: usize) -> char {
        if b.x >> cell & 1 == 1 {
            'X'
        } else if b.o >> cell & 1 == 1 {
            'O'
        } else {
            '-'
        }
    }
}
