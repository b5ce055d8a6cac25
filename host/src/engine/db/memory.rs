//! `memory:`: tiers kept in this process only, for solve-and-play in one run and for
//! tests. Nothing is written anywhere.

use super::{
    Coverage, Database, DbError, DbResult, GameKey, ReachableTier, StoredTier, TierMeta, TierStatus,
};
use crate::engine::marks::Marks;
use crate::engine::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// One stored tier: full, or reachable-only with its marks.
struct Stored {
    meta: TierMeta,
    marks: Option<Arc<Marks>>,
    records: Arc<TierRecords>,
}

/// An in-memory database.
pub struct MemoryDb {
    key: GameKey,
    tiers: RwLock<HashMap<Tier, Stored>>,
}

impl MemoryDb {
    /// An empty database for one game and variant.
    pub fn new(key: GameKey) -> Self {
        MemoryDb {
            key,
            tiers: RwLock::new(HashMap::new()),
        }
    }

    fn wrong(tier: Tier, found: Coverage, wanted: Coverage) -> DbError {
        DbError::Coverage {
            what: format!("memory: tier {tier}"),
            found,
            wanted,
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
                Some(s) if s.marks.is_some() => {
                    return Err(Self::wrong(
                        meta.tier,
                        Coverage::ReachableOnly,
                        Coverage::Full,
                    ))
                }
                Some(s) if s.meta == *meta => TierStatus::Valid,
                Some(s) => {
                    TierStatus::Corrupt(format!("stored as {:?}, expected {meta:?}", s.meta))
                }
            },
        )
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        Ok(self.tiers.read().expect("memory db").contains_key(&tier))
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        match self.tiers.read().expect("memory db").get(&meta.tier) {
            Some(s) if s.marks.is_some() => Err(Self::wrong(
                meta.tier,
                Coverage::ReachableOnly,
                Coverage::Full,
            )),
            Some(s) => Ok(s.records.clone()),
            None => Err(DbError::Corrupt {
                path: format!("memory:/tier {}", meta.tier).into(),
                reason: "not stored".into(),
            }),
        }
    }

    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()> {
        self.tiers.write().expect("memory db").insert(
            meta.tier,
            Stored {
                meta: meta.clone(),
                marks: None,
                records: Arc::new(records.clone()),
            },
        );
        Ok(())
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        let tiers = self.tiers.read().expect("memory db");
        let Some(s) = tiers.get(&p.tier) else {
            return Ok(None);
        };
        if p.position >= s.meta.size {
            return Err(DbError::OutOfRange(p, s.meta.size));
        }
        Ok(Some(match &s.marks {
            None => s.records.get(p.position),
            Some(m) => m
                .rank(p.position)
                .map_or(Record::UNSOLVED, |k| s.records.get(k)),
        }))
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

    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>> {
        Ok(self
            .tiers
            .read()
            .expect("memory db")
            .get(&tier)
            .map(|s| StoredTier {
                coverage: match s.marks {
                    Some(_) => Coverage::ReachableOnly,
                    None => Coverage::Full,
                },
                positions: s.meta.size,
                held: s.records.len() as u64,
            }))
    }

    fn store_reachable_tier(
        &self,
        meta: &TierMeta,
        marks: &Marks,
        records: &TierRecords,
    ) -> DbResult<()> {
        assert_eq!(marks.count(), records.len() as u64, "a record per mark");
        self.tiers.write().expect("memory db").insert(
            meta.tier,
            Stored {
                meta: meta.clone(),
                marks: Some(Arc::new(marks.clone())),
                records: Arc::new(records.clone()),
            },
        );
        Ok(())
    }

    fn verify_reachable_tier(&self, meta: &TierMeta, marks: &Marks) -> DbResult<TierStatus> {
        Ok(
            match self.tiers.read().expect("memory db").get(&meta.tier) {
                None => TierStatus::Missing,
                Some(s) => match &s.marks {
                    None => {
                        return Err(Self::wrong(
                            meta.tier,
                            Coverage::Full,
                            Coverage::ReachableOnly,
                        ))
                    }
                    Some(_) if s.meta != *meta => {
                        TierStatus::Corrupt(format!("stored as {:?}, expected {meta:?}", s.meta))
                    }
                    Some(m) if **m != *marks => TierStatus::Corrupt(
                        "its positions differ from those reachable from the start now".into(),
                    ),
                    Some(_) => TierStatus::Valid,
                },
            },
        )
    }

    fn load_reachable_tier(&self, meta: &TierMeta) -> DbResult<ReachableTier> {
        match self.tiers.read().expect("memory db").get(&meta.tier) {
            Some(Stored {
                marks: Some(m),
                records,
                ..
            }) => Ok(ReachableTier {
                marks: m.clone(),
                records: records.clone(),
            }),
            Some(_) => Err(Self::wrong(
                meta.tier,
                Coverage::Full,
                Coverage::ReachableOnly,
            )),
            None => Err(DbError::Corrupt {
                path: format!("memory:/tier {}", meta.tier).into(),
                reason: "not stored".into(),
            }),
        }
    }

    fn reachable(&self, p: TierPosition) -> DbResult<Option<bool>> {
        Ok(self
            .tiers
            .read()
            .expect("memory db")
            .get(&p.tier)
            .and_then(|s| s.marks.as_ref())
            .map(|m| m.contains(p.position)))
    }
}
