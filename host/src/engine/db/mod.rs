//! Databases behind one trait, opened by resource string as in the core spec seed:
//! `memory:` (nothing written) and `file:DIR` or a plain directory path (one gzip file
//! per tier under `DIR/<game>_<variant>_tierdb/`), plus `transfer` between two of them.
//! Which resource a command uses when none is given is the front end's choice
//! (`cli::DbChoice`: `GAMESMAN_DB`, then the per-user data directory).
//!
//! A database stores and retrieves whole tiers and single records. It never solves,
//! and never decides what a record means.
//!
//! A tier is stored either in full (every position) or reachable-only (`solve
//! --reachable`: the records of the positions that can occur from the start, with the
//! marks that say which those are); one database holds tiers of one kind only.

pub mod file;
pub mod keyfile;
pub mod manifest;
pub mod memory;
pub mod net;
pub mod sparse;
mod transfer;
pub mod trust;

pub use transfer::transfer;

use crate::engine::marks::Marks;
use crate::engine::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use std::path::PathBuf;
use std::sync::Arc;

/// Which positions a stored tier holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Every position (a full solve).
    Full,
    /// Only the positions reachable from the initial position (`solve --reachable`).
    ReachableOnly,
}

impl std::fmt::Display for Coverage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Coverage::Full => "full solve (every position)",
            Coverage::ReachableOnly => {
                "reachable-only solve (`solve --reachable`: only positions that can occur from the start)"
            }
        })
    }
}

/// What one stored tier holds, from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredTier {
    /// Full or reachable-only.
    pub coverage: Coverage,
    /// Positions in the tier.
    pub positions: u64,
    /// Positions with a record stored (all of them for a full tier; the reachable ones
    /// for a reachable-only tier).
    pub held: u64,
}

/// A stored reachable-only tier: which positions it holds and their records, in
/// position order (record `k` belongs to the marked position of rank `k`).
#[derive(Clone, Debug)]
pub struct ReachableTier {
    /// The marked positions.
    pub marks: Arc<Marks>,
    /// Their records.
    pub records: Arc<TierRecords>,
}

/// What a database knows about the game it stores, written into every tier file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameKey {
    /// Module name.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Whether records carry WinBy.
    pub winby: bool,
    /// The module's numbering of positions (`GameHandle::index_version`): files of
    /// another numbering are not read.
    pub numbering: u32,
}

impl GameKey {
    /// The name of the variant's directory in a `file:` database,
    /// `GAME_VARIANT_tierdb`, with `/`, `\\`, `%` and NUL in the names written as
    /// `%2F`, `%5C`, `%25` and `%00`, so a variant named like a path (a Whirly level
    /// file) stays one directory inside the database.
    pub fn dir_name(&self) -> String {
        let safe = |t: &str| {
            let mut out = String::with_capacity(t.len());
            for c in t.chars() {
                match c {
                    '/' | '\\' | '%' | '\0' => out.push_str(&format!("%{:02X}", c as u32)),
                    c => out.push(c),
                }
            }
            out
        };
        format!("{}_{}_tierdb", safe(&self.game), safe(&self.variant))
    }

    /// The key of `game`'s variant: its names, record layout and numbering.
    pub fn of(game: &crate::engine::game::GameHandle) -> GameKey {
        GameKey {
            game: game.module_name().to_string(),
            variant: game.variant().to_string(),
            winby: game.supports_winby(),
            numbering: game.index_version(),
        }
    }
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
        "unknown database resource {}: use file:DIRECTORY (or a directory path), http://HOST:PORT/PATH or memory:",
        crate::engine::messages::quote(.0)
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
    /// A tier stored with the other coverage than the operation needs.
    #[error("{what} holds a {found}, but a {wanted} was asked for: pass --force to replace the database, or use another --db")]
    Coverage {
        /// The tier file (or memory tier).
        what: String,
        /// What it holds.
        found: Coverage,
        /// What was asked for.
        wanted: Coverage,
    },
    /// Tiers of both kinds in one database.
    #[error("{0} holds full tiers and reachable-only tiers together; solve it again with --force")]
    MixedCoverage(String),
    /// `--cache` where it does not apply.
    #[error("--cache keeps what an http:// database fetches in a file:DIRECTORY database; it does not apply to {}", crate::engine::messages::quote(.0))]
    BadCache(String),
    /// The database is read from another machine and cannot be written.
    #[error("{0} is read-only (a database served over HTTP): solve into a file: database, or copy it there with `host db copy`")]
    ReadOnly(String),
    /// The database kind cannot store reachable-only tiers.
    #[error("{0} cannot store reachable-only tiers")]
    Unsupported(String),
    /// A fetched database or tier is not vouched for by a trusted publisher's signed
    /// manifest (`--trust`), or does not match it.
    #[error("{0}")]
    Untrusted(String),
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

/// Random access to one stored tier's records, for readers that must not hold the
/// tier whole (verification of a tier solved with its children streamed).
pub trait RecordSource: Send + Sync {
    /// Number of positions.
    fn positions(&self) -> u64;
    /// The record of position `i` (below `positions`).
    fn record(&self, i: u64) -> DbResult<Record>;
}

impl RecordSource for TierRecords {
    fn positions(&self) -> u64 {
        self.len() as u64
    }
    fn record(&self, i: u64) -> DbResult<Record> {
        Ok(self.get(i))
    }
}

/// Records of a staged tier given block by block: `fill(first, out)` writes the
/// packed records of positions `first..first + out.len()`.
pub type FillBlock<'a> = &'a mut dyn FnMut(u64, &mut [u16]) -> DbResult<()>;

/// Positions per `fill` call of the default `stage_tier`.
const STAGE_BLOCK: usize = 1 << 19;

/// A tier written beside its place (`Database::stage_tier`), readable before it is
/// put there.
pub trait StagedTier: Send + Sync {
    /// Its records, read back from where they were written.
    fn records(&self) -> &dyn RecordSource;
    /// Puts it in place, atomically.
    fn commit(self: Box<Self>) -> DbResult<()>;
}

/// The default staged tier: records in memory, stored on commit.
struct InMemoryStaged<'a, D: ?Sized> {
    db: &'a D,
    meta: TierMeta,
    records: TierRecords,
}

impl<D: Database + ?Sized> StagedTier for InMemoryStaged<'_, D> {
    fn records(&self) -> &dyn RecordSource {
        &self.records
    }
    fn commit(self: Box<Self>) -> DbResult<()> {
        self.db.store_tier(&self.meta, &self.records)
    }
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
    /// The packed records of a stored full tier in index order, a block at a time
    /// (`visit` gets the index of each block's first record), the checksum verified
    /// once all were read. Default: the tier loaded whole, passed as one block.
    fn for_each_block(
        &self,
        meta: &TierMeta,
        visit: &mut dyn FnMut(u64, &[u16]) -> DbResult<()>,
    ) -> DbResult<()> {
        let records = self.load_tier(meta)?;
        visit(0, &records.values)
    }
    /// Random access to a stored full tier's records, decoded blocks kept in a cache
    /// of about `cache_bytes` (least recently used evicted). Default: the tier loaded
    /// whole.
    fn open_records(&self, meta: &TierMeta, _cache_bytes: u64) -> DbResult<Arc<dyn RecordSource>> {
        Ok(self.load_tier(meta)?)
    }
    /// A directory for a solve's scratch files (removed as they are made, so a killed
    /// solve leaves none), on the database's own disk; `None`: the system's.
    fn scratch_dir(&self) -> Option<PathBuf> {
        None
    }
    /// Stores a tier, atomically: either the whole tier is stored or nothing changes.
    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()>;
    /// Writes a tier (without WinBy) from its records given block by block, beside its
    /// place: readable through the staged tier, put in place by its `commit`, removed
    /// if dropped without it. `fill` is called for increasing blocks. Default: the
    /// records gathered in memory and stored by `store_tier` on commit; a file database
    /// writes them out as they come, never holding the tier.
    fn stage_tier<'a>(
        &'a self,
        meta: &TierMeta,
        fill: FillBlock<'_>,
    ) -> DbResult<Box<dyn StagedTier + 'a>> {
        let n = meta.size as usize;
        let mut values = Vec::new();
        values.try_reserve_exact(n).map_err(|_| {
            crate::engine::abort_report::allocation_handled();
            DbError::Unsupported(format!("{n} records do not fit in memory"))
        })?;
        values.resize(n, 0u16);
        for (k, chunk) in values.chunks_mut(STAGE_BLOCK).enumerate() {
            fill((k * STAGE_BLOCK) as u64, chunk)?;
        }
        Ok(Box::new(InMemoryStaged {
            db: self,
            meta: meta.clone(),
            records: TierRecords {
                values,
                winby: None,
            },
        }))
    }
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
    /// What a stored tier holds, from its header (`None` when it is not stored).
    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>>;
    /// Stores a reachable-only tier (`meta` describes the whole tier; `records` holds
    /// one record per marked position, in position order), atomically.
    fn store_reachable_tier(
        &self,
        _meta: &TierMeta,
        _marks: &Marks,
        _records: &TierRecords,
    ) -> DbResult<()> {
        Err(DbError::Unsupported(self.describe()))
    }
    /// Checks a stored reachable-only tier completely, and that it holds exactly
    /// `marks`; a full tier stored there is an error (`DbError::Coverage`).
    fn verify_reachable_tier(&self, _meta: &TierMeta, _marks: &Marks) -> DbResult<TierStatus> {
        Err(DbError::Unsupported(self.describe()))
    }
    /// A stored reachable-only tier's marks and records.
    fn load_reachable_tier(&self, _meta: &TierMeta) -> DbResult<ReachableTier> {
        Err(DbError::Unsupported(self.describe()))
    }
    /// Whether `p` (canonical) can occur from the initial position, where the database
    /// knows: `Some` for a reachable-only tier, `None` for a full tier or one not stored.
    fn reachable(&self, _p: TierPosition) -> DbResult<Option<bool>> {
        Ok(None)
    }
}

/// What the stored tiers of a database hold: `None` when nothing is stored. Tiers
/// whose headers cannot be read are left out (a solve finds and replaces them).
pub fn coverage(db: &dyn Database) -> DbResult<Option<Coverage>> {
    let mut seen = None;
    for t in db.stored_tiers()? {
        let c = match db.stored_tier(t) {
            Ok(s) => s.map(|s| s.coverage),
            Err(DbError::Corrupt { .. }) => continue,
            Err(e) => return Err(e),
        };
        if seen.is_some() && c.is_some() && seen != c {
            return Err(DbError::MixedCoverage(db.describe()));
        }
        seen = seen.or(c);
    }
    Ok(seen)
}

/// Where a resource string says the records live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// In this process only.
    Memory,
    /// Tier files under this directory.
    Dir(PathBuf),
    /// The same layout served over HTTP under this base URL (read-only).
    Http(String),
}

/// Reads a resource string: `memory:`, `file:DIR` (`file://DIR` too), a directory
/// path without a scheme (`./data`, `/srv/db`), or `http://HOST:PORT/PATH`. A word
/// before a `:` that is none of these is refused, so a misspelt `memroy:` is not taken
/// for a directory.
pub fn parse_resource(resource: &str) -> DbResult<Resource> {
    let bad = || DbError::BadResource(resource.to_string());
    if resource == "memory:" || resource == "memory" {
        return Ok(Resource::Memory);
    }
    if let Some(rest) = resource.strip_prefix("http://") {
        let host = rest.split('/').next().unwrap_or_default();
        return if host.is_empty() || rest.contains(['?', '#']) {
            Err(bad())
        } else {
            Ok(Resource::Http(resource.trim_end_matches('/').to_string()))
        };
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
    open_cached(resource, None, key)
}

/// `open`, keeping what an `http:` database fetches in the `file:` database `cache`
/// (read first, by later runs too). A cache for another kind of database is refused.
pub fn open_cached(
    resource: &str,
    cache: Option<&str>,
    key: &GameKey,
) -> DbResult<Arc<dyn Database>> {
    let cache_dir = match cache.map(parse_resource).transpose()? {
        None => None,
        Some(Resource::Dir(dir)) => Some(dir),
        Some(_) => return Err(DbError::BadCache(cache.unwrap_or_default().to_string())),
    };
    match parse_resource(resource)? {
        Resource::Http(base) => Ok(Arc::new(file::FileDb::open_http(
            &base,
            key.clone(),
            cache_dir,
        )?)),
        _ if cache_dir.is_some() => Err(DbError::BadCache(resource.to_string())),
        Resource::Memory => Ok(Arc::new(memory::MemoryDb::new(key.clone()))),
        Resource::Dir(dir) => Ok(Arc::new(file::FileDb::open(dir, key.clone())?)),
    }
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

#[cfg(test)]
mod resource_tests {
    use super::*;

    #[test]
    fn directory_names_stay_inside_the_database() {
        let key = |v: &str| GameKey {
            game: "whirly".into(),
            variant: v.into(),
            winby: false,
            numbering: 0,
        };
        assert_eq!(key("regular").dir_name(), "whirly_regular_tierdb");
        assert_eq!(key("../../x").dir_name(), "whirly_..%2F..%2Fx_tierdb");
        assert_eq!(key("/abs/l.txt").dir_name(), "whirly_%2Fabs%2Fl.txt_tierdb");
    }

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
