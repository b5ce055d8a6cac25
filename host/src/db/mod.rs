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
        "unknown database resource {}: use memory: or file:DIRECTORY (default file:./data)",
        crate::messages::quote(.0)
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
    /// Another process is writing the database and the caller would not wait.
    #[error("another solve is writing {}: run again when it has finished, or leave out --no-wait to wait for it", dir.display())]
    Locked {
        /// The database directory.
        dir: PathBuf,
    },
}

/// What a writer does when another process is writing the same database.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LockWait {
    /// Wait for it to finish (saying so).
    #[default]
    Wait,
    /// Fail at once with `DbError::Locked`.
    NoWait,
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
    /// Removes what interrupted writes left behind (never a live writer's files);
    /// returns how many files.
    fn remove_temporaries(&self) -> DbResult<usize> {
        Ok(0)
    }
    /// Becomes the database's only writer: creates it where needed, checks it can be
    /// written, and holds it against other processes' writers until dropped (waiting
    /// for one as `wait` says). Writes take this at their first use anyway; calling it
    /// first reports a locked or unwritable database before any work.
    fn begin_writing(&self, _wait: LockWait) -> DbResult<()> {
        Ok(())
    }
}

/// Opens the database a resource string names for one game and variant.
pub fn open(resource: &str, key: &GameKey) -> DbResult<Arc<dyn Database>> {
    if resource == "memory:" || resource == "memory" {
        return Ok(Arc::new(memory::MemoryDb::new(key.clone())));
    }
    if let Some(rest) = resource.strip_prefix("file:") {
        let dir = rest.strip_prefix("//").unwrap_or(rest);
        if dir.is_empty() {
            return Err(DbError::BadResource(resource.to_string()));
        }
        return Ok(Arc::new(file::FileDb::open(
            PathBuf::from(dir),
            key.clone(),
        )?));
    }
    Err(DbError::BadResource(resource.to_string()))
}

/// Opens the database a resource string names as its only writer (see
/// `Database::begin_writing`): a locked or unwritable database is an error now.
pub fn open_for_writing(
    resource: &str,
    key: &GameKey,
    wait: LockWait,
) -> DbResult<Arc<dyn Database>> {
    let db = open(resource, key)?;
    db.begin_writing(wait)?;
    Ok(db)
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
