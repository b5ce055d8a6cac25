//! Databases behind one trait, opened by resource string as in the core spec seed:
//! `memory:` (nothing written) and `file:DIR` or a plain directory path (one gzip file
//! per tier under `DIR/<game>_<variant>_tierdb/`), plus `transfer` between two of them.
//! Which resource a command uses when none is given is the front end's choice
//! (`cli::DbChoice`: `GAMESMAN_DB`, then the per-user data directory).
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
        "unknown database resource '{0}': use file:DIRECTORY (or a directory path) or memory:"
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
    /// A short description (`file:/home/me/.local/share/gamesman/mtttier_regular_tierdb`).
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

/// Where a resource string says the records live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// In this process only.
    Memory,
    /// Tier files under this directory.
    Dir(PathBuf),
}

/// Reads a resource string: `memory:`, `file:DIR` (`file://DIR` too), or a directory
/// path without a scheme (`./data`, `/srv/db`). A word before a `:` that is neither is
/// refused, so a misspelt `memroy:` is not taken for a directory.
pub fn parse_resource(resource: &str) -> DbResult<Resource> {
    let bad = || DbError::BadResource(resource.to_string());
    if resource == "memory:" || resource == "memory" {
        return Ok(Resource::Memory);
    }
    if let Some(rest) = resource.strip_prefix("file:") {
        let dir = rest.strip_prefix("//").unwrap_or(rest);
        return if dir.is_empty() {
            Err(bad())
        } else {
            Ok(Resource::Dir(PathBuf::from(dir)))
        };
    }
    let scheme_like = resource
        .split_once(':')
        .is_some_and(|(head, _)| !head.is_empty() && !head.contains('/'));
    if resource.is_empty() || scheme_like {
        return Err(bad());
    }
    Ok(Resource::Dir(PathBuf::from(resource)))
}

/// Opens the database a resource string names for one game and variant.
pub fn open(resource: &str, key: &GameKey) -> DbResult<Arc<dyn Database>> {
    match parse_resource(resource)? {
        Resource::Memory => Ok(Arc::new(memory::MemoryDb::new(key.clone()))),
        Resource::Dir(dir) => Ok(Arc::new(file::FileDb::open(dir, key.clone())?)),
    }
}

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

#[cfg(test)]
mod resource_tests {
    use super::*;

    #[test]
    fn resources_and_plain_directories() {
        assert_eq!(parse_resource("memory:").unwrap(), Resource::Memory);
        assert_eq!(
            parse_resource("file:/x/y").unwrap(),
            Resource::Dir("/x/y".into())
        );
        assert_eq!(
            parse_resource("file:///x").unwrap(),
            Resource::Dir("/x".into())
        );
        assert_eq!(
            parse_resource("./data").unwrap(),
            Resource::Dir("./data".into())
        );
        assert_eq!(
            parse_resource("/a/b:c").unwrap(),
            Resource::Dir("/a/b:c".into())
        );
        for bad in ["", "file:", "memroy:", "s3:bucket"] {
            assert!(
                matches!(parse_resource(bad), Err(DbError::BadResource(_))),
                "{bad}"
            );
        }
    }
}
