//! `memory:`: tiers kept in this process only, for solve-and-play in one run and for
//! tests. Nothing is written anywhere.

use super::{Database, DbError, DbResult, GameKey, TierMeta, TierStatus};
use crate::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// An in-memory database.
pub struct MemoryDb {
    key: GameKey,
    tiers: RwLock<HashMap<Tier, (TierMeta, Arc<TierRecords>)>>,
}

impl MemoryDb {
    /// An empty database for one game and variant.
    pub fn new(key: GameKey) -> Self {
        MemoryDb {
            key,
            tiers: RwLock::new(HashMap::new()),
        }
    }
}

impl Database for MemoryDb {
    fn describe(&self) -> String {
        format!("memory: ({} {})", self.key.game, self.key.variant)
    }

    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        Ok(
            match self.tiers.read().expect("memory db").get(&meta.tier) {
                None => TierStatus::Missing,
                Some((m, _)) if m == meta => TierStatus::Valid,
                Some((m, _)) => TierStatus::Corrupt(format!("stored as {m:?}, expected {meta:?}")),
            },
        )
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        Ok(self.tiers.read().expect("memory db").contains_key(&tier))
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        match self.tiers.read().expect("memory db").get(&meta.tier) {
            Some((_, r)) => Ok(r.clone()),
            None => Err(DbError::Corrupt {
                path: format!("memory:/tier {}", meta.tier).into(),
                reason: "not stored".into(),
            }),
        }
    }

    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()> {
        self.tiers
            .write()
            .expect("memory db")
            .insert(meta.tier, (meta.clone(), Arc::new(records.clone())));
        Ok(())
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        let tiers = self.tiers.read().expect("memory db");
        let Some((meta, r)) = tiers.get(&p.tier) else {
            return Ok(None);
        };
        if p.position >= meta.size {
            return Err(DbError::OutOfRange(p, meta.size));
        }
        Ok(Some(r.get(p.position)))
    }

    fn clear(&self) -> DbResult<()> {
        self.tiers.write().expect("memory db").clear();
        Ok(())
    }

    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        let mut t: Vec<Tier> = self
            .tiers
            .read()
            .expect("memory db")
            .keys()
            .copied()
            .collect();
        t.sort();
        Ok(t)
    }
}
