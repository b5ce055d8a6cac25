//! Reachable-only strong solving (`solve --reachable`): mark every position that can
//! occur in a game from the initial position (the tier-by-tier forward search of
//! `reach`), then solve only those, with the ordinary solver run on the marked view
//! of the game (`marked_view`) and a marked view of the database (here), and store each
//! tier reachable-only (its marks and the records of its marked positions).
//!
//! The values of marked positions equal a full solve's: a position's value depends
//! only on its children, and the children of a reachable position are reachable; only
//! parents are limited to marked ones. This file decides what is marked and where it
//! is stored; it must not change how a tier is solved.

use super::marked_view::{marked_handle, TierMarks};
use super::options::{full_meta_of, SolveOptions, SolveReport};
use super::progress::SolveProgress;
use crate::engine::db::{
    self, Coverage, Database, DbError, DbResult, StoredTier, TierMeta, TierStatus,
};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::reach::{self, ReachError};
use crate::engine::record::{Record, TierRecords};
use crate::engine::solver::base::SolveError;
use crate::engine::tier::TierGraph;
use gamesman_plugin_api::ffi::CallErrorKind;
use gamesman_plugin_api::{Tier, TierPosition};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a reachable-only solve did.
#[derive(Clone, Debug)]
pub struct ReachableReport {
    /// The solve of the marked positions; its position counts are marked positions,
    /// its initial position a real (full) one.
    pub solve: SolveReport,
    /// Positions in all tiers of the graph, marked or not.
    pub positions_in_tiers: u64,
    /// Positions reachable from the initial position.
    pub reachable: u64,
    /// How long marking took.
    pub marking: Duration,
}

fn module_error(game: &GameHandle, e: ReachError) -> SolveError {
    match e {
        ReachError::Module(m) => SolveError::Module(m),
        other => SolveError::Module(ModuleError {
            module: game.module_name().to_string(),
            function: "children_batch",
            kind: CallErrorKind::BAD_OUTPUT,
            message: other.to_string(),
        }),
    }
}

/// Solves the positions reachable from the initial position into `db`, reachable-only.
///
/// A database holding a full solve is refused (it already answers every position;
/// `options.force` replaces it), as is one whose reachable-only tiers no longer match
/// what is reachable (they are solved again).
pub fn solve_reachable(
    game: &GameHandle,
    db: &dyn Database,
    options: &SolveOptions,
    progress: &dyn SolveProgress,
) -> Result<ReachableReport, SolveError> {
    let started = Instant::now();
    let graph = TierGraph::discover(game)?;
    if options.force {
        db.clear()?;
    }
    if db::coverage(db)? == Some(Coverage::Full) {
        return Err(SolveError::Db(DbError::Coverage {
            what: db.describe(),
            found: Coverage::Full,
            wanted: Coverage::ReachableOnly,
        }));
    }
    log::info!(
        "marking the positions reachable from the initial position, tier by tier ({} tiers, {} positions)",
        graph.order.len(),
        graph.total_positions()
    );
    let reached = reach::search(game, &graph, &|node, marks| {
        log::debug!(
            "tier {} ({}): {} of {} positions reachable ({} bytes of marks)",
            node.tier,
            node.name,
            marks.count(),
            node.size,
            marks.bytes()
        );
    })
    .map_err(|e| module_error(game, e))?;
    let reachable = reached.total();
    let marking = started.elapsed();
    log::info!(
        "{reachable} of {} positions are reachable from the initial position (marked in {:.2?}, {} MB of marks)",
        graph.total_positions(),
        marking,
        reached.tiers.values().map(|m| m.bytes()).sum::<u64>().div_ceil(1 << 20)
    );
    let marks: TierMarks = Arc::new(reached.tiers);
    let view = marked_handle(game, marks.clone());
    let marked_db = MarkedDb {
        db,
        metas: graph
            .order
            .iter()
            .map(|n| (n.tier, full_meta_of(n)))
            .collect(),
        marks: marks.clone(),
    };
    let marked_options = SolveOptions {
        force: false,
        ..options.clone()
    };
    let mut report = super::solve(&view, &marked_db, &marked_options, progress)?;
    let m = &marks[&report.initial.tier];
    report.initial = TierPosition::new(report.initial.tier, m.select(report.initial.position));
    report.elapsed = started.elapsed();
    Ok(ReachableReport {
        solve: report,
        positions_in_tiers: graph.total_positions(),
        reachable,
        marking,
    })
}

/// The database as the solver sees it on the marked view: tiers of marked positions,
/// stored reachable-only in the real database.
struct MarkedDb<'a> {
    db: &'a dyn Database,
    /// The real metadata of every tier (its full size).
    metas: HashMap<Tier, TierMeta>,
    marks: TierMarks,
}

impl MarkedDb<'_> {
    fn meta(&self, tier: Tier) -> DbResult<&TierMeta> {
        self.metas.get(&tier).ok_or_else(|| DbError::Corrupt {
            path: format!("tier {tier}").into(),
            reason: "the tier is not part of the reachable-only solve".into(),
        })
    }

    fn marks(&self, tier: Tier) -> DbResult<&crate::engine::marks::Marks> {
        self.meta(tier)?;
        Ok(&self.marks[&tier])
    }
}

impl Database for MarkedDb<'_> {
    fn describe(&self) -> String {
        self.db.describe()
    }

    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        self.db
            .verify_reachable_tier(self.meta(meta.tier)?, self.marks(meta.tier)?)
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        self.db.has_tier(tier)
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        let t = self.db.load_reachable_tier(self.meta(meta.tier)?)?;
        if *t.marks != *self.marks(meta.tier)? {
            return Err(DbError::Corrupt {
                path: format!("tier {}", meta.tier).into(),
                reason: "its positions differ from those reachable from the start now".into(),
            });
        }
        Ok(t.records)
    }

    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()> {
        self.db
            .store_reachable_tier(self.meta(meta.tier)?, self.marks(meta.tier)?, records)
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        let m = self.marks(p.tier)?;
        if p.position >= m.count() {
            return Err(DbError::OutOfRange(p, m.count()));
        }
        self.db
            .lookup(TierPosition::new(p.tier, m.select(p.position)))
    }

    fn clear(&self) -> DbResult<()> {
        self.db.clear()
    }

    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        self.db.stored_tiers()
    }

    fn remove_temporaries(&self) -> DbResult<usize> {
        self.db.remove_temporaries()
    }

    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>> {
        self.db.stored_tier(tier)
    }
}
