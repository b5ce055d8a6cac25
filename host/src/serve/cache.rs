//! A read-only database for serving: whole tiers kept in memory after their first
//! lookup, up to a memory budget shared by every variant served.
//!
//! A file database decodes a 524,288-position block for each lookup it has not cached
//! (it keeps 4,194,304 positions' worth per tier), so random queries over a large game
//! mostly miss; a query touches a position and every child, often across the whole
//! tier. A tier read whole once (`load_tier`, checksum verified) answers every later
//! lookup from memory. Tiers that no longer fit the budget are looked up in the
//! database as before. This file wraps the `Database` trait; it must not know file
//! formats or what a record means, and it never writes.

use crate::engine::db::{Database, DbError, DbResult, TierMeta, TierStatus};
use crate::engine::game::GameHandle;
use crate::engine::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Memory for cached tiers, shared by every database of one server.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: AtomicU64,
}

impl Budget {
    /// A budget of `limit` bytes (0 caches nothing).
    pub fn new(limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            used: AtomicU64::new(0),
        })
    }

    /// Takes `bytes` from the budget, if they fit.
    fn take(&self, bytes: u64) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.limit)
            })
            .is_ok()
    }

    /// Gives `bytes` back (a load that failed).
    fn give_back(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }

    /// Bytes in use.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Acquire)
    }
}

/// What the cache knows about a tier.
#[derive(Clone)]
enum Slot {
    /// Every record of the tier, in memory.
    Loaded(Arc<TierRecords>),
    /// Stored, but it did not fit the budget: looked up in the database.
    Uncached,
}

/// A database whose stored tiers are read whole on their first lookup (see the file
/// comment). Writing through it is refused.
pub struct CachedDb {
    inner: Arc<dyn Database>,
    game: GameHandle,
    budget: Arc<Budget>,
    slots: RwLock<HashMap<Tier, Slot>>,
    /// Held while a tier is read, so concurrent first lookups read it once.
    loading: Mutex<()>,
}

impl CachedDb {
    /// Wraps `inner`, the database of `game`'s variant.
    pub fn new(inner: Arc<dyn Database>, game: GameHandle, budget: Arc<Budget>) -> CachedDb {
        CachedDb {
            inner,
            game,
            budget,
            slots: RwLock::new(HashMap::new()),
            loading: Mutex::new(()),
        }
    }

    fn slot(&self, tier: Tier) -> Option<Slot> {
        self.slots
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&tier)
            .cloned()
    }

    fn bytes_of(&self, size: u64) -> u64 {
        let per = if self.game.supports_winby() { 6 } else { 2 };
        size.saturating_mul(per)
    }

    /// The tier's slot after reading it if it fits; `None` when it is not stored.
    fn fill(&self, tier: Tier) -> DbResult<Option<Slot>> {
        let _one_reader = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = self.slot(tier) {
            return Ok(Some(s));
        }
        // Not remembered when missing: a tier solved while serving is found later.
        if !self.inner.has_tier(tier)? {
            return Ok(None);
        }
        let meta = self.meta(tier)?;
        let bytes = self.bytes_of(meta.size);
        // A reachable-only tier is looked up in place: it has no whole-tier records.
        let full = self
            .inner
            .stored_tier(tier)?
            .is_some_and(|s| s.coverage == crate::engine::db::Coverage::Full);
        let slot = if full && self.budget.take(bytes) {
            match self.inner.load_tier(&meta) {
                Ok(records) => {
                    log::debug!(
                        "cached tier {tier} of {} {} ({bytes} bytes; {} in use)",
                        self.game.module_name(),
                        self.game.variant(),
                        self.budget.used()
                    );
                    Slot::Loaded(records)
                }
                Err(e) => {
                    self.budget.give_back(bytes);
                    return Err(e);
                }
            }
        } else {
            Slot::Uncached
        };
        // A request that panicked while holding a lock poisoned nothing for the next.
        self.slots
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(tier, slot.clone());
        Ok(Some(slot))
    }

    fn meta(&self, tier: Tier) -> DbResult<TierMeta> {
        let module = |e: crate::engine::game::ModuleError| DbError::Corrupt {
            path: PathBuf::from(self.inner.describe()),
            reason: e.to_string(),
        };
        Ok(TierMeta {
            tier,
            name: self.game.tier_name(tier).map_err(module)?,
            // Full tier files hold the stored indices (the canonical prefix).
            size: self.game.stored_size(tier).map_err(module)?,
        })
    }

    fn read_only(&self, op: &'static str) -> DbError {
        DbError::Io {
            op,
            path: PathBuf::from(self.inner.describe()),
            source: std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "the server opens databases read-only",
            ),
        }
    }
}

impl Database for CachedDb {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        self.inner.verify_tier(meta)
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        if self.slot(tier).is_some() {
            return Ok(true);
        }
        self.inner.has_tier(tier)
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        match self.slot(meta.tier) {
            Some(Slot::Loaded(records)) => Ok(records),
            _ => self.inner.load_tier(meta),
        }
    }

    fn store_tier(&self, _meta: &TierMeta, _records: &TierRecords) -> DbResult<()> {
        Err(self.read_only("storing a tier in"))
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        let slot = match self.slot(p.tier) {
            Some(s) => s,
            None => match self.fill(p.tier)? {
                Some(s) => s,
                None => return Ok(None),
            },
        };
        match slot {
            Slot::Loaded(records) => {
                if p.position >= records.len() as u64 {
                    return Err(DbError::OutOfRange(p, records.len() as u64));
                }
                Ok(Some(records.get(p.position)))
            }
            Slot::Uncached => self.inner.lookup(p),
        }
    }

    fn clear(&self) -> DbResult<()> {
        Err(self.read_only("clearing"))
    }

    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        self.inner.stored_tiers()
    }

    fn stored_tier(&self, tier: Tier) -> DbResult<Option<crate::engine::db::StoredTier>> {
        self.inner.stored_tier(tier)
    }

    fn reachable(&self, p: TierPosition) -> DbResult<Option<bool>> {
        self.inner.reachable(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::db::{self, GameKey};
    use crate::engine::solver::{self, SolveOptions};

    fn solved_mtttier() -> (GameHandle, Arc<dyn Database>) {
        let game = GameHandle::from_static::<mtttier::MttTier>("regular").unwrap();
        let key = GameKey {
            game: "mtttier".into(),
            variant: "regular".into(),
            winby: false,
            numbering: 0,
        };
        let db = db::open("memory:", &key).unwrap();
        solver::solve(
            &game,
            db.as_ref(),
            &SolveOptions::default(),
            &solver::Silent,
        )
        .unwrap();
        (game, db)
    }

    #[test]
    fn answers_as_the_database_does_within_and_beyond_the_budget() {
        let (game, inner) = solved_mtttier();
        // Room for the first tiers looked up (0: 126 boards, 1: 630, 2: 1260), not for
        // all ten (6046 boards).
        let budget = Budget::new(2 * 3300);
        let cached = CachedDb::new(inner.clone(), game.clone(), budget.clone());
        let mut seen = 0;
        for t in 0..=9u64 {
            let size = game.tier_size(Tier(t)).unwrap();
            for i in 0..size {
                let p = TierPosition::new(Tier(t), i);
                assert_eq!(cached.lookup(p).unwrap(), inner.lookup(p).unwrap());
                seen += 1;
            }
        }
        assert_eq!(seen, 6046);
        assert!(budget.used() >= 2 * (126 + 630 + 1260) && budget.used() <= 2 * 3300);
        let past = TierPosition::new(Tier(0), 126);
        assert!(matches!(cached.lookup(past), Err(DbError::OutOfRange(..))));
        assert!(cached.clear().is_err());
    }
}
