//! `host verify`: every record of a stored database checked against the module, for
//! a database copied from elsewhere or kept across module versions. Each tier must be
//! stored and intact, and every position's record must follow from its children's by
//! the solver's rules (the check `solve` runs on its tiers, here in full).
//!
//! Tiers are checked children first; a tier's records stay in memory only while a
//! tier that needs them is left, and a large tier (of a game without WinBy) is never
//! whole in memory: it is read through a bounded block cache, in index order for its
//! own check. This file reads the database and never writes it.

use crate::engine::db::{Database, DbError, RecordSource};
use crate::engine::game::GameHandle;
use crate::engine::record::TierRecords;
use crate::engine::solver::verify::{self, Selection, Stage, VerifyError};
use crate::engine::solver::{meta_of, Scope, SolveError};
use crate::engine::tier::{TierGraphError, TierNode};
use gamesman_plugin_api::Tier;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Decoded records kept per tier read through a cache.
const READ_CACHE: u64 = 64 << 20;

/// A tier's records as verification holds them.
#[derive(Clone)]
enum Held {
    /// Read whole.
    Whole(Arc<TierRecords>),
    /// Read through a block cache.
    Read(Arc<dyn RecordSource>),
}

impl Held {
    fn source(&self) -> &dyn RecordSource {
        match self {
            Held::Whole(r) => r.as_ref(),
            Held::Read(r) => r.as_ref(),
        }
    }
}

/// Why a database failed verification.
#[derive(Debug, thiserror::Error)]
pub enum DbVerifyError {
    /// The tier graph could not be built.
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// A tier the game reaches is not stored.
    #[error("tier {tier} ({name}) is not stored in {db}: the database is incomplete (`host --plugin {module} --variant {variant} solve` into the same --db completes it)")]
    Missing {
        /// The tier.
        tier: Tier,
        /// Its name.
        name: String,
        /// The database.
        db: String,
        /// The module.
        module: String,
        /// The variant.
        variant: String,
    },
    /// A tier file is unusable or unreadable.
    #[error("tier {tier} ({name}): {cause}")]
    Db {
        /// The tier.
        tier: Tier,
        /// Its name.
        name: String,
        /// What is wrong.
        cause: DbError,
    },
    /// `--tier` names no tier of the game.
    #[error("the game has no tier named '{name}' (tiers are named as `info` and `query` show them, e.g. {like})")]
    NoSuchTier {
        /// The name given.
        name: String,
        /// Names of the game's tiers like it.
        like: String,
    },
    /// The scope's tiers could not be found otherwise (the module failed).
    #[error("{0}")]
    Scope(String),
    /// A record does not follow from its children, or the module failed.
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// What a successful verification covered.
#[derive(Clone, Debug)]
pub struct DbVerifyReport {
    /// Tiers checked.
    pub tiers: usize,
    /// Positions checked (every position of every tier).
    pub positions: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// How to report a verification as it goes.
pub trait VerifyProgress: Sync {
    /// Verification starts over `positions` positions in `tiers` tiers.
    fn start(&self, tiers: usize, positions: u64);
    /// Positions of a tier were checked.
    fn advance(&self, positions: u64);
    /// A tier is done.
    fn tier_done(&self, node: &TierNode, took: Duration);
    /// Verification is over (successfully or not).
    fn finish(&self);
}

/// Reports nothing.
pub struct Quiet;

impl VerifyProgress for Quiet {
    fn start(&self, _: usize, _: u64) {}
    fn advance(&self, _: u64) {}
    fn tier_done(&self, _: &TierNode, _: Duration) {}
    fn finish(&self) {}
}

/// Checks every record of every tier the game reaches; stops at the first fault.
pub fn verify_database(
    game: &GameHandle,
    db: &dyn Database,
    progress: &dyn VerifyProgress,
) -> Result<DbVerifyReport, DbVerifyError> {
    verify_scope(game, db, &Scope::Whole, progress)
}

/// Checks every record of the tiers `scope` covers (a partial database solved with
/// `--endgame` or `--tier`); stops at the first fault.
pub fn verify_scope(
    game: &GameHandle,
    db: &dyn Database,
    scope: &Scope,
    progress: &dyn VerifyProgress,
) -> Result<DbVerifyReport, DbVerifyError> {
    let started = Instant::now();
    let graph = crate::engine::solver::graph_of(game, scope).map_err(|e| match e {
        SolveError::NoSuchTier { name, like } => DbVerifyError::NoSuchTier { name, like },
        SolveError::Graph(g) => DbVerifyError::Graph(g),
        other => DbVerifyError::Scope(other.to_string()),
    })?;
    let db_err = |node: &TierNode, cause: DbError| DbVerifyError::Db {
        tier: node.tier,
        name: node.name.clone(),
        cause,
    };
    // Every tier must be there before anything is read: an incomplete copy is
    // reported at once, not after hours of checking.
    for node in &graph.order {
        if !db.has_tier(node.tier).map_err(|e| db_err(node, e))? {
            return Err(DbVerifyError::Missing {
                tier: node.tier,
                name: node.name.clone(),
                db: db.describe(),
                module: game.module_name().to_string(),
                variant: game.variant().to_string(),
            });
        }
    }
    progress.start(graph.order.len(), graph.total_positions());
    let mut waiting: HashMap<Tier, usize> = HashMap::new();
    for n in &graph.order {
        for c in &n.children {
            *waiting.entry(*c).or_default() += 1;
        }
    }
    let winby = game.supports_winby();
    // Small tiers, and every tier of a WinBy game (whose check reads the raw margins),
    // are read whole; the rest through a cache.
    let open = |node: &TierNode| -> Result<Held, DbVerifyError> {
        let meta = meta_of(node);
        Ok(if node.stored < crate::engine::solver::BIG_TIER || winby {
            Held::Whole(db.load_tier(&meta).map_err(|e| db_err(node, e))?)
        } else {
            Held::Read(
                db.open_records(&meta, READ_CACHE)
                    .map_err(|e| db_err(node, e))?,
            )
        })
    };
    let mut loaded: HashMap<Tier, Held> = HashMap::new();
    let result = (|| -> Result<(), DbVerifyError> {
        for node in &graph.order {
            let t0 = Instant::now();
            let records = open(node)?;
            let mut kids: Vec<(Tier, Held)> = Vec::new();
            for &c in &node.children {
                let r = match loaded.get(&c) {
                    Some(r) => r.clone(),
                    None => open(graph.get(c).expect("children are in the graph"))?,
                };
                kids.push((c, r));
            }
            let refs: Vec<(Tier, &dyn RecordSource)> =
                kids.iter().map(|(t, r)| (*t, r.source())).collect();
            let own = match &records {
                Held::Whole(r) => verify::Own::Memory(r),
                Held::Read(r) => verify::Own::Source(r.as_ref(), winby),
            };
            verify::check_tier(
                game,
                node,
                own,
                &refs,
                Selection::All,
                Stage::Stored,
                &|k| progress.advance(k),
            )?;
            drop(refs);
            for (c, r) in kids {
                let left = waiting.get_mut(&c).expect("counted above");
                *left -= 1;
                if *left == 0 {
                    loaded.remove(&c);
                } else {
                    loaded.insert(c, r);
                }
            }
            if waiting.get(&node.tier).copied().unwrap_or(0) > 0 {
                loaded.insert(node.tier, records);
            }
            progress.tier_done(node, t0.elapsed());
        }
        Ok(())
    })();
    progress.finish();
    result?;
    Ok(DbVerifyReport {
        tiers: graph.order.len(),
        positions: graph.total_positions(),
        elapsed: started.elapsed(),
    })
}
