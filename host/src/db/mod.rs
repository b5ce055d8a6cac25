//! Databases behind one trait, opened by resource string as in the core spec seed:
//! `memory:` (nothing written) and `file:DIR` (one gzip file per tier under
//! `DIR/<game>_<variant>_tierdb/`), plus `transfer` between two of them.
//!
//! A database stores and retrieves whole tiers and single records. It never solves,
//! and never decides what a record means.

pub mod file;
pub mod memory;

use crate::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use std::path::PathBuf;
use std::sync::Arc;

/// What a database knows about the game it stores, written into every tier file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameKey {
    /// Module name.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Whether records carry WinBy.
    pub winby: bool,
}

/// A tier's descriptive fields, stored in its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierMeta {
    /// The tier.
    pub tier: Tier,
    /// Its readable name.
    pub name: String,
    /// Its number of positions.
    pub size: u64,
}

/// Errors of database operations.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The resource string is not one we know.
    #[error(
        "unknown database resource '{0}': use memory: or file:DIRECTORY (default file:./data)"
    )]
    BadResource(String),
    /// An I/O error on a path.
    #[error("{op} {}: {source}", path.display())]
    Io {
        /// What was being done.
        op: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A tier file exists but is damaged or belongs to something else.
    #[error("tier file {} is unusable: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A position's index is past its tier's size.
    #[error("position {0} is outside its tier's {1} positions")]
    OutOfRange(TierPosition, u64),
}

/// Result of database operations.
pub type DbResult<T> = Result<T, DbError>;

/// Whether a tier is stored and intact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TierStatus {
    /// Nothing stored for the tier.
    Missing,
    /// Stored, complete, checksum correct, and for this game, variant and size.
    Valid,
    /// Stored but unusable (the reason says why); it will be solved again.
    Corrupt(String),
}

/// A store of solved tiers.
pub trait Database: Send + Sync {
    /// A short description (`file:./data/mtttier_regular_tierdb`).
    fn describe(&self) -> String;
    /// Checks a stored tier completely (every block, the checksum, the header).
    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus>;
    /// Whether a tier is stored (a cheap check of its header, for play and queries).
    fn has_tier(&self, tier: Tier) -> DbResult<bool>;
    /// Every record of a stored tier.
    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>>;
    /// Stores a tier, atomically: either the whole tier is stored or nothing changes.
    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()>;
    /// One record, or `None` when its tier is not stored. Does not read a whole tier.
    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>>;
    /// Forgets every stored tier of this game and variant.
    fn clear(&self) -> DbResult<()>;
    /// The tiers stored.
    fn stored_tiers(&self) -> DbResult<Vec<Tier>>;
    /// Removes what interrupted writes left behind; returns how many files.
    fn remove_temporaries(&self) -> DbResult<usize> {
        Ok(0)
    }
}

/// Opens the database a resource string names for one game and variant.
pub fn open(resource: &str, key: &GameKey) -> DbResult<Arc<dyn Database>> {
    if resource == "memory:" || resource == "memory" {
        return Ok(Arc::new(memory::MemoryDb::new(key.clone())));
    }
    if resource.starts_with("file:") {
        let dir = file_root(resource).ok_or_else(|| DbError::BadResource(resource.to_string()))?;
        return Ok(Arc::new(file::FileDb::open(dir, key.clone())?));
    }
    Err(DbError::BadResource(resource.to_string()))
}

/// The directory a `file:DIR` resource names, or `None` for any other resource.
pub fn file_root(resource: &str) -> Option<PathBuf> {
    let rest = resource.strip_prefix("file:")?;
    let dir = rest.strip_prefix("//").unwrap_or(rest);
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

/// The default resource: `file:./data`.
pub const DEFAULT_RESOURCE: &str = "file:./data";

/// Copies every tier in `tiers` that `src` holds into `dst` (the seed's `transfer`);
/// returns how many tiers were copied.
pub fn transfer(src: &dyn Database, dst: &dyn Database, tiers: &[TierMeta]) -> DbResult<usize> {
    let stored = src.stored_tiers()?;
    let mut copied = 0;
    for meta in tiers.iter().filter(|m| stored.contains(&m.tier)) {
        let records = src.load_tier(meta)?;
        dst.store_tier(meta, &records)?;
        copied += 1;
    }
    Ok(copied)
}
