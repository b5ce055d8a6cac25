//! The rows of an export: which positions of a tier are exported (solved, canonical
//! unless all positions are asked, reachable when asked), each position's row, and with
//! moves its moves as `query` ranks them (`Ranking::of` and `query::report`, over the
//! tiers read whole into `Near`).
//!
//! `Near` keeps the records of the tier being exported and of the tiers its moves lead
//! to, dropping the others when the export moves on; it answers lookups from memory and
//! passes everything else to the database. This file makes rows; it must not write
//! files.

use super::{ExportError, ExportOptions, ExportProgress, CHUNK};
use crate::engine::ask::query::{self, remoteness_of};
use crate::engine::ask::ranking::Ranking;
use crate::engine::db::{
    Coverage, Database, DbResult, ReachableTier, StoredTier, TierMeta, TierStatus,
};
use crate::engine::game::GameHandle;
use crate::engine::outcome::value_name;
use crate::engine::reach::Reachable;
use crate::engine::record::{Record, TierRecords};
use crate::engine::solver::meta_of;
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::{Tier, TierPosition};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

/// One position's row.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRow {
    /// Its tier.
    pub tier: u64,
    /// Its index in the tier.
    pub idx: u64,
    /// The module's text of the position.
    pub position: String,
    /// The player to move (1 or 2; 1 in puzzles).
    pub turn: u8,
    /// win, lose, tie, draw (puzzles: solvable, unsolvable), as `query --json` says.
    pub value: &'static str,
    /// Moves to the end with perfect play (none for draws).
    pub remoteness: Option<u32>,
    /// The margin from player one's view (WinBy games; none for draws).
    pub winby: Option<i64>,
}

/// One move of a position, as `query --json` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    /// The position's tier.
    pub tier: u64,
    /// The position's index.
    pub idx: u64,
    /// 0 for the best move, then 1, 2, ... in `query`'s order.
    pub rank: u32,
    /// The move's text.
    pub mv: String,
    /// The text of the position it leads to.
    pub child: String,
    /// That position's value, for the player to move there.
    pub value: &'static str,
    /// That position's remoteness.
    pub remoteness: Option<u32>,
    /// That position's WinBy, from player one's view.
    pub winby: Option<i64>,
    /// What the move achieves for the player making it.
    pub move_value: &'static str,
}

/// A tier read whole.
enum Loaded {
    Full(Arc<TierRecords>),
    Reachable(ReachableTier),
}

/// The database with some tiers read whole (see the file comment).
pub(super) struct Near<'a> {
    db: &'a dyn Database,
    graph: &'a TierGraph,
    tiers: RwLock<HashMap<Tier, Arc<Loaded>>>,
    loading: Mutex<()>,
}

impl<'a> Near<'a> {
    fn new(db: &'a dyn Database, graph: &'a TierGraph) -> Near<'a> {
        Near {
            db,
            graph,
            tiers: RwLock::new(HashMap::new()),
            loading: Mutex::new(()),
        }
    }

    /// Keeps only `keep` in memory.
    fn focus(&self, keep: &[Tier]) {
        self.tiers
            .write()
            .expect("tiers")
            .retain(|t, _| keep.contains(t));
    }

    fn get(&self, tier: Tier) -> DbResult<Option<Arc<Loaded>>> {
        if let Some(l) = self.tiers.read().expect("tiers").get(&tier) {
            return Ok(Some(l.clone()));
        }
        let _one = self.loading.lock().expect("loading");
        if let Some(l) = self.tiers.read().expect("tiers").get(&tier) {
            return Ok(Some(l.clone()));
        }
        let (Some(node), Some(stored)) = (self.graph.get(tier), self.db.stored_tier(tier)?) else {
            return Ok(None);
        };
        let meta = meta_of(node);
        let loaded = Arc::new(match stored.coverage {
            Coverage::Full => Loaded::Full(self.db.load_tier(&meta)?),
            Coverage::ReachableOnly => Loaded::Reachable(self.db.load_reachable_tier(&meta)?),
        });
        self.tiers
            .write()
            .expect("tiers")
            .insert(tier, loaded.clone());
        Ok(Some(loaded))
    }

    /// The record of `p` (canonical), unsolved when its tier is not stored.
    fn record(&self, p: TierPosition) -> DbResult<Record> {
        Ok(self.lookup(p)?.unwrap_or(Record::UNSOLVED))
    }
}

impl Database for Near<'_> {
    fn describe(&self) -> String {
        self.db.describe()
    }
    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        self.db.verify_tier(meta)
    }
    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        self.db.has_tier(tier)
    }
    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        self.db.load_tier(meta)
    }
    fn store_tier(&self, meta: &TierMeta, _: &TierRecords) -> DbResult<()> {
        Err(crate::engine::db::DbError::ReadOnly(format!(
            "{} (read for an export, tier {})",
            self.db.describe(),
            meta.tier
        )))
    }
    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        let Some(l) = self.get(p.tier)? else {
            return Ok(None);
        };
        let size = match l.as_ref() {
            Loaded::Full(r) => r.len() as u64,
            Loaded::Reachable(t) => t.marks.size(),
        };
        if p.position >= size {
            return Err(crate::engine::db::DbError::OutOfRange(p, size));
        }
        Ok(Some(match l.as_ref() {
            Loaded::Full(r) => r.get(p.position),
            Loaded::Reachable(t) => t
                .marks
                .rank(p.position)
                .map_or(Record::UNSOLVED, |k| t.records.get(k)),
        }))
    }
    fn clear(&self) -> DbResult<()> {
        Err(crate::engine::db::DbError::ReadOnly(self.db.describe()))
    }
    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        self.db.stored_tiers()
    }
    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>> {
        self.db.stored_tier(tier)
    }
    fn reachable(&self, p: TierPosition) -> DbResult<Option<bool>> {
        Ok(match self.get(p.tier)?.as_deref() {
            Some(Loaded::Reachable(t)) => Some(t.marks.contains(p.position)),
            _ => None,
        })
    }
}

/// A position's row and its moves, if it is exported.
type Made = Option<(PositionRow, Vec<MoveRow>)>;

/// Where a tier's rows go, a chunk at a time.
pub(super) type Emit<'e> = &'e mut dyn FnMut(&[PositionRow], &[MoveRow]) -> Result<(), ExportError>;

/// Where rows come from.
pub(super) struct Source<'a> {
    game: &'a GameHandle,
    near: Near<'a>,
    coverage: Coverage,
    reached: Option<&'a Reachable>,
    options: &'a ExportOptions,
    /// Every position of symmetric games is looked at (not only canonical ones).
    every: bool,
    players: u8,
}

impl<'a> Source<'a> {
    pub(super) fn new(
        game: &'a GameHandle,
        db: &'a dyn Database,
        graph: &'a TierGraph,
        coverage: Coverage,
        reached: Option<&'a Reachable>,
        options: &'a ExportOptions,
    ) -> Source<'a> {
        Source {
            game,
            near: Near::new(db, graph),
            coverage,
            reached,
            options,
            every: options.all_positions && game.properties().has_symmetry,
            players: game.properties().players,
        }
    }

    /// How many positions of the tier are looked at (for the progress bar).
    pub(super) fn candidates(&self, node: &TierNode) -> u64 {
        if self.every {
            return node.size;
        }
        if let Some(r) = self.reached {
            return r.tier(node.tier).map_or(0, |m| m.count());
        }
        if self.coverage == Coverage::ReachableOnly {
            if let Ok(Some(s)) = self.near.db.stored_tier(node.tier) {
                return s.held;
            }
        }
        // A module numbering its canonical positions first stores only those.
        node.stored
    }

    /// The row of position `i` of `tier`, and its moves; `None` when it is not
    /// exported.
    fn row(&self, tier: Tier, i: u64) -> Result<Option<(PositionRow, Vec<MoveRow>)>, ExportError> {
        let game = self.game;
        let p = TierPosition::new(tier, i);
        let c = if self.every { game.canonical(p)? } else { p };
        if c != p && !game.is_legal(p)? {
            return Ok(None);
        }
        if let Some(r) = self.reached {
            if !r.tier(c.tier).is_some_and(|m| m.contains(c.position)) {
                return Ok(None);
            }
        }
        let record = self.near.record(c)?;
        if !record.is_solved() {
            return Ok(None);
        }
        let turn = game.turn(p)?.0;
        if !self.options.moves {
            let row = PositionRow {
                tier: tier.0,
                idx: i,
                position: game.position_to_text(p)?,
                turn,
                value: value_name(record.value, self.players),
                remoteness: remoteness_of(&record),
                winby: record.winby,
            };
            return Ok(Some((row, Vec::new())));
        }
        let ranking = Ranking::of(game, &self.near, p, true).map_err(query::QueryError::from)?;
        let report = query::report(game, &ranking)?;
        let moves = report
            .moves
            .into_iter()
            .enumerate()
            .map(|(k, m)| MoveRow {
                tier: tier.0,
                idx: i,
                rank: k as u32,
                mv: m.mv,
                child: m.position,
                value: m.value,
                remoteness: m.remoteness,
                winby: m.winby,
                move_value: m.move_value,
            })
            .collect();
        let row = PositionRow {
            tier: tier.0,
            idx: i,
            position: report.position,
            turn,
            value: report.value,
            remoteness: report.remoteness,
            winby: report.winby,
        };
        Ok(Some((row, moves)))
    }

    /// Makes the rows of one tier, handing them to `emit` a chunk at a time.
    pub(super) fn tier(
        &self,
        node: &TierNode,
        progress: &dyn ExportProgress,
        emit: Emit<'_>,
    ) -> Result<(), ExportError> {
        let mut keep = vec![node.tier];
        if self.options.moves {
            keep.extend(&node.children);
        }
        self.near.focus(&keep);
        // Which indices to look at: the marked ones where a set says which can be
        // exported (and only canonical positions are), else every index.
        let marks = if self.every {
            None
        } else if let Some(r) = self.reached {
            Some(
                r.tier(node.tier)
                    .cloned()
                    .unwrap_or_else(|| crate::engine::marks::Marks::empty(node.size)),
            )
        } else {
            match self.near.get(node.tier)?.as_deref() {
                Some(Loaded::Reachable(t)) => Some((*t.marks).clone()),
                _ => None,
            }
        };
        let mut indices: Box<dyn Iterator<Item = u64> + Send + '_> = match &marks {
            Some(m) => m.iter(),
            // Every index with --all-positions; else the stored ones (a module that
            // numbers canonical positions first stores only those).
            None => Box::new(0..if self.every { node.size } else { node.stored }),
        };
        let mut chunk = Vec::with_capacity(CHUNK);
        loop {
            chunk.clear();
            chunk.extend(indices.by_ref().take(CHUNK));
            if chunk.is_empty() {
                return Ok(());
            }
            let made: Vec<Made> = chunk
                .par_iter()
                .map(|&i| self.row(node.tier, i))
                .collect::<Result<_, _>>()?;
            let mut positions = Vec::with_capacity(made.len());
            let mut moves = Vec::new();
            for (p, m) in made.into_iter().flatten() {
                positions.push(p);
                moves.extend(m);
            }
            emit(&positions, &moves)?;
            progress.advance(chunk.len() as u64);
        }
    }
}
