//! The validator's window on the module under test: lenient helper calls that the
//! checks share, and how positions, tiers and moves are named in findings.
//!
//! Helpers here never panic and never report: a call that fails while the validator is
//! only looking around a position (a parent's children, a child's parents) yields
//! `None`, and the failure is reported when that neighbour is itself checked. Checks
//! decide what is wrong; this file must not.

use crate::findings::{Check, Finding, FindingSink, MoveRef, PositionRef, Severity, TierRef};
use crate::tiers::{tier_ref, TierMap};
use gamesman_host::{GameHandle, ModuleError, ModuleResult};
use gamesman_plugin_api::ffi::FfiProperties;
use gamesman_plugin_api::{Move, Tier, TierPosition, UndoMove};

/// Shared state of one validation run, handed to every check.
pub struct Probe<'a> {
    /// The game under test.
    pub game: &'a GameHandle,
    /// Its reachable tiers.
    pub tiers: &'a TierMap,
    /// What it declares about itself.
    pub props: FfiProperties,
    /// Where findings go.
    pub sink: &'a FindingSink,
}

/// Where a finding is made: a position, maybe a move, and an order within the position.
#[derive(Clone, Copy, Debug)]
pub struct Spot {
    /// The position being checked.
    pub p: TierPosition,
    /// The move concerned, if any.
    pub mv: Option<Move>,
    /// Order of the finding among those at the same position.
    pub seq: u64,
}

impl Spot {
    /// The position itself.
    pub fn at(p: TierPosition) -> Spot {
        Spot {
            p,
            mv: None,
            seq: 0,
        }
    }

    /// A move (the `j`-th) at the position.
    pub fn with_move(p: TierPosition, m: Move, j: usize) -> Spot {
        Spot {
            p,
            mv: Some(m),
            seq: 1 + j as u64,
        }
    }

    /// Something else at the position, ordered after its moves.
    pub fn later(p: TierPosition, seq: u64) -> Spot {
        Spot {
            p,
            mv: None,
            seq: 1 << 32 | seq,
        }
    }
}

impl<'a> Probe<'a> {
    /// Records an error found by `check` at `spot`.
    pub fn error(&self, check: Check, spot: Spot, problem: String, expected: impl Into<String>) {
        self.sink
            .add(self.finding(check, Severity::Error, spot, problem, expected.into()));
    }

    /// Records a warning found by `check` at `spot`.
    pub fn warn(&self, check: Check, spot: Spot, problem: String, expected: impl Into<String>) {
        self.sink
            .add(self.finding(check, Severity::Warning, spot, problem, expected.into()));
    }

    /// Records a failed module call as an error of `check`.
    pub fn failed(&self, check: Check, spot: Spot, e: &ModuleError) {
        self.error(
            check,
            spot,
            format!("{} failed: {}", e.function, e.message),
            format!("{} to succeed here", e.function),
        );
    }

    fn finding(
        &self,
        check: Check,
        severity: Severity,
        spot: Spot,
        problem: String,
        expected: String,
    ) -> Finding {
        let p = spot.p;
        let rank = self.tiers.rank(p.tier).map_or(u64::MAX, |r| r as u64);
        Finding {
            check,
            severity,
            tier: Some(self.tier_ref(p.tier)),
            position: Some(self.position_ref(p)),
            mv: spot.mv.map(|m| MoveRef {
                number: m.0,
                text: self.game.move_to_text(p, m).ok(),
            }),
            problem,
            expected,
            key: (rank, p.position, spot.seq),
        }
    }

    /// A tier as findings name it.
    pub fn tier_ref(&self, t: Tier) -> TierRef {
        tier_ref(t, &self.tiers.name(t))
    }

    /// A position as findings name it: index and text.
    pub fn position_ref(&self, p: TierPosition) -> PositionRef {
        PositionRef {
            index: p.position,
            text: self.text(p),
        }
    }

    /// The module's text for `p`, or a marker when `position_to_text` fails (check 5
    /// reports the failure itself, once per position rather than in every message).
    pub fn text(&self, p: TierPosition) -> String {
        self.game
            .position_to_text(p)
            .unwrap_or_else(|_| "<position_to_text failed>".to_string())
    }

    /// `TIER:INDEX "text"`, to name another position inside a message.
    pub fn show(&self, p: TierPosition) -> String {
        format!("{p} \"{}\"", self.text(p))
    }

    /// `tier N (name)`, to name a tier inside a message.
    pub fn show_tier(&self, t: Tier) -> String {
        format!("tier {t} ({})", self.tiers.name(t))
    }

    /// The module's text for move `m` at `p`, or its number when that fails.
    pub fn move_text(&self, p: TierPosition, m: Move) -> String {
        match self.game.move_to_text(p, m) {
            Ok(t) => format!("\"{t}\""),
            Err(_) => format!("#{} (move_to_text failed)", m.0),
        }
    }

    /// `undo move "TEXT" (#N)` with the module's text for undo move `u` at `p`
    /// (plugin-api 0.1.9), or `undo move #N` when it gives none.
    pub fn show_undo(&self, p: TierPosition, u: UndoMove) -> String {
        match self.game.undo_move_text(p, u) {
            Some(t) => format!("undo move \"{t}\" (#{})", u.0),
            None => format!("undo move #{}", u.0),
        }
    }

    /// `do_move` without the host's range check, so the checks see what the module
    /// really returned.
    pub fn do_move_raw(&self, p: TierPosition, m: Move) -> ModuleResult<TierPosition> {
        self.game
            .raw()
            .do_move(p, m)
            .into_result()
            .map_err(|e| ModuleError {
                module: self.game.module_name().to_string(),
                function: "do_move",
                kind: e.kind,
                message: e.message.into_string(),
            })
    }

    /// Whether `p` is an index below the size of a reachable tier.
    pub fn in_range(&self, p: TierPosition) -> bool {
        self.tiers.get(p.tier).is_some_and(|n| p.position < n.size)
    }

    /// The canonical form of `p`, or `p` itself when the hook fails (the failure is
    /// check 7's to report) or the game declares no symmetry.
    pub fn canon(&self, p: TierPosition) -> TierPosition {
        if !self.props.has_symmetry || !self.in_range(p) {
            return p;
        }
        self.game.canonical(p).unwrap_or(p)
    }

    /// The canonical form of `p`, or `None` when the hook fails.
    pub fn canon_strict(&self, p: TierPosition) -> Option<TierPosition> {
        if !self.props.has_symmetry {
            return Some(p);
        }
        self.game.canonical(p).ok()
    }

    /// The distinct canonical children of `q` (none for primitives), or `None` when a
    /// call fails or `q` is not a valid position.
    pub fn child_set(&self, q: TierPosition) -> Option<Vec<TierPosition>> {
        self.child_set_by(q, |c| Some(self.canon(c)))
    }

    /// `child_set` with `canon` as the canonical form (`None` gives up).
    pub fn child_set_by(
        &self,
        q: TierPosition,
        canon: impl Fn(TierPosition) -> Option<TierPosition>,
    ) -> Option<Vec<TierPosition>> {
        if !self.in_range(q) {
            return None;
        }
        if self.game.primitive(q).ok()? != gamesman_plugin_api::Value::UNDECIDED {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        for m in self.game.moves(q).ok()? {
            out.push(canon(self.do_move_raw(q, m).ok()?)?);
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// The distinct canonical results of the undo moves of `c` towards `tier`, or
    /// `None` when a call fails or `c` is not a valid position.
    pub fn parent_set(&self, c: TierPosition, tier: Tier) -> Option<Vec<TierPosition>> {
        self.parent_set_by(c, tier, |p| Some(self.canon(p)))
    }

    /// `parent_set` with `canon` as the canonical form (`None` gives up).
    pub fn parent_set_by(
        &self,
        c: TierPosition,
        tier: Tier,
        canon: impl Fn(TierPosition) -> Option<TierPosition>,
    ) -> Option<Vec<TierPosition>> {
        if !self.in_range(c) {
            return None;
        }
        let mut out = Vec::new();
        for u in self.game.undo_moves(c, tier).ok()? {
            out.push(canon(self.game.undo_move(c, u).ok()?)?);
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// The parents of `c` in `tier` as the solver gets them, sorted: through the batch
    /// call, which uses the module's `parents` fast path when it has one. The solver
    /// takes them as distinct (a module that declares `fast_paths_canonical` promises
    /// that), so a repeated parent is kept to show up against the distinct undo moves.
    pub fn batch_parents(&self, c: TierPosition, tier: Tier) -> ModuleResult<Vec<TierPosition>> {
        let mut parents = vec![0u64; self.props.max_undo_moves as usize];
        let mut count = [0u32];
        self.game
            .parents_batch(c.tier, &[c.position], tier, &mut parents, &mut count)?;
        parents.truncate(count[0] as usize);
        parents.sort_unstable();
        Ok(parents
            .into_iter()
            .map(|i| TierPosition::new(tier, i))
            .collect())
    }

    /// A list of positions for a message: `[1:0 "x", 1:1 "y"]`.
    pub fn show_list(&self, ps: &[TierPosition]) -> String {
        let shown: Vec<String> = ps.iter().map(|&p| self.show(p)).collect();
        format!("[{}]", shown.join(", "))
    }
}
