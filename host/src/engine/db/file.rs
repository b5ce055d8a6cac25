//! `file:DIR`: one gzip file per tier under `DIR/<game>_<variant>_tierdb/`.
//!
//! A tier file is a series of gzip members, so `zcat` reads it whole:
//! 1. a header member whose text names the format version, game, variant, tier,
//!    number of positions, record layout, block size and a CRC-32 of all records; its
//!    gzip header carries an extra field `GT` with the offset and length of the index;
//! 2. one member per block of `BLOCK_POSITIONS` records, coded compactly (`codec`; the
//!    plain blocks of format 1 are still read);
//! 3. an index member with the file offset of every block.
//!
//! A lookup reads the header and index once, then decodes only the block it needs
//! (and caches a few). Files are written under a temporary name, synced and renamed, so
//! a killed solve never leaves a half-written tier behind; one writer at a time holds
//! the directory's lock (`lock`). The byte layout is in `format`, the coding of a
//! block's records in `codec`, reading in `reader`.
//! Reachable-only tiers live in the same directory under the same names, in their own
//! format (`db::sparse`); this file tells the two apart by their headers. It must not
//! interpret records beyond their layout.

pub mod codec;
mod format;
mod header;
mod lock;
mod reader;
mod remote;
pub mod source;
mod stage;
#[cfg(test)]
mod tests;

pub(crate) use format::{combined_crc, extra_field, gzip_member, record_members, Member};
pub use format::{encode_tier, Header, BLOCK_POSITIONS, FORMAT_V1, FORMAT_VERSION};
pub(crate) use header::{HeaderFields, HeaderText};
pub(crate) use reader::gunzip;
pub use reader::TierReader;

use super::net::Remote;
use super::sparse::{self, ReachableReader};
use super::{
    Coverage, Database, DbError, DbResult, FillBlock, GameKey, LockWait, ReachableTier,
    RecordSource, StagedTier, StoredTier, TierMeta, TierStatus,
};
use crate::engine::marks::Marks;
use crate::engine::record::{Record, TierRecords};
use gamesman_plugin_api::{Tier, TierPosition};
use remote::RemoteDir;
use source::Source;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A database directory's writer lock held by a writer that is not a `FileDb`
/// (`host db sign`, whose manifest must describe a finished solve): released when
/// dropped.
pub struct DirLock(#[allow(dead_code)] Arc<lock::WriterLock>);

/// Takes the writer lock of the database directory `dir` as a solve does: at once,
/// after waiting for the writer with a message, or `DbError::Locked` under
/// `LockWait::NoWait`.
pub fn lock_directory(dir: &Path, wait: LockWait) -> DbResult<DirLock> {
    Ok(DirLock(lock::acquire(dir, wait)?))
}

/// Whether process `pid` is running (signal 0), so that files it names as its own
/// temporaries may still be in use; this process counts as running.
pub fn process_is_running(pid: u32) -> bool {
    lock::is_running(pid)
}

/// A file database for one game and variant.
pub struct FileDb {
    dir: PathBuf,
    key: GameKey,
    readers: Mutex<HashMap<Tier, Opened>>,
    /// How this handle writes, once it does.
    writer: Mutex<Option<Writing>>,
    /// Whether another process of the same job holds the directory's lock for this
    /// handle (`open_for_job`).
    job_member: bool,
    /// For a database read over HTTP: where, and the local cache.
    remote: Option<RemoteDir>,
}

/// A handle's right to write, once checked.
enum Writing {
    /// It holds the directory's lock.
    Locked(#[allow(dead_code)] Arc<lock::WriterLock>),
    /// A process of its job holds the lock for it.
    ForJob,
}

/// An open tier file of either kind.
#[derive(Clone)]
enum Opened {
    Full(Arc<TierReader>),
    ReachableOnly(Arc<ReachableReader>),
}

pub(crate) fn io<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> DbError + 'a {
    move |source| DbError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

pub(crate) fn corrupt(path: &Path, reason: impl Into<String>) -> DbError {
    DbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

impl FileDb {
    /// The database for `key` under the directory `root` (created when first written).
    pub fn open(root: PathBuf, key: GameKey) -> DbResult<FileDb> {
        let dir = root.join(key.dir_name());
        Ok(FileDb {
            dir,
            key,
            readers: Mutex::new(HashMap::new()),
            writer: Mutex::new(None),
            job_member: false,
            remote: None,
        })
    }

    /// The database for `key` under the URL `base` (the `file:` layout served over
    /// HTTP, e.g. by `host serve` under `/db`), read-only. With `cache`, a tier is
    /// fetched whole on its first use, checked in full, and kept in the `file:`
    /// database under `cache`, which later reads (and later runs) use first; without,
    /// lookups fetch one block at a time.
    pub fn open_http(base: &str, key: GameKey, cache: Option<PathBuf>) -> DbResult<FileDb> {
        let dir_name = key.dir_name();
        let cache = match cache {
            // Verified whole files renamed into place: no lock needed, so two readers
            // sharing a cache never wait for each other.
            Some(root) => Some(Box::new(FileDb::open_for_job(root, key.clone())?)),
            None => None,
        };
        let mut db = FileDb::open(PathBuf::from(base), key)?;
        db.remote = Some(RemoteDir::new(Remote::new(base), dir_name, cache));
        Ok(db)
    }

    /// The database for `key` under `root`, for one process of a job (the ranks of a
    /// distributed solve) whose coordinating process holds the directory's writer lock
    /// for all of them: it writes without taking the lock, so the job's processes never
    /// wait for each other, while any other solve still waits for the job. Its tier
    /// files are written atomically as always; the job must give each tier to one
    /// process only.
    pub fn open_for_job(root: PathBuf, key: GameKey) -> DbResult<FileDb> {
        let mut db = FileDb::open(root, key)?;
        db.job_member = true;
        Ok(db)
    }

    /// The directory holding the tier files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of a tier.
    pub fn tier_path(&self, tier: Tier) -> PathBuf {
        self.dir.join(format!("tier_{}.gz", tier.0))
    }

    fn check_header(&self, h: &Header, meta: &TierMeta) -> Result<(), String> {
        if h.game != self.key.game || h.variant != self.key.variant {
            return Err(format!(
                "it belongs to {} {}, not {} {}",
                h.game, h.variant, self.key.game, self.key.variant
            ));
        }
        if h.tier != meta.tier.0 || h.positions != meta.size {
            return Err(format!(
                "it holds tier {} with {} positions, expected tier {} with {}",
                h.tier, h.positions, meta.tier, meta.size
            ));
        }
        if h.winby != self.key.winby {
            return Err("its record layout (WinBy) does not match the game".into());
        }
        numbering_matches(h.numbering, self.key.numbering)
    }

    fn reader(&self, tier: Tier) -> DbResult<Option<Opened>> {
        if let Some(r) = self
            .readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&tier)
        {
            return Ok(Some(r.clone()));
        }
        let Some((path, source)) = self.source(tier)? else {
            return Ok(None);
        };
        let r = if sparse::is_reachable_source(&path, source.as_ref()) {
            Opened::ReachableOnly(Arc::new(ReachableReader::open_source(&path, source)?))
        } else {
            Opened::Full(Arc::new(TierReader::open_source(&path, source)?))
        };
        let (game, variant, t, numbering) = match &r {
            Opened::Full(r) => (
                &r.header.game,
                &r.header.variant,
                r.header.tier,
                r.header.numbering,
            ),
            Opened::ReachableOnly(r) => (
                &r.header.game,
                &r.header.variant,
                r.header.tier,
                r.header.numbering,
            ),
        };
        if *game != self.key.game || *variant != self.key.variant || t != tier.0 {
            return Err(corrupt(
                &path,
                "it belongs to another game, variant or tier",
            ));
        }
        numbering_matches(numbering, self.key.numbering).map_err(|e| corrupt(&path, e))?;
        self.readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(tier, r.clone());
        Ok(Some(r))
    }

    /// Where a tier's bytes are (its path or URL, for messages, and its source), or
    /// `None` when it is not stored. Over HTTP with a cache, a tier not cached yet is
    /// fetched whole, checked and cached first; nothing is cached from a failed read.
    fn source(&self, tier: Tier) -> DbResult<Option<(PathBuf, Arc<dyn Source>)>> {
        let local = |db: &FileDb| -> DbResult<Option<(PathBuf, Arc<dyn Source>)>> {
            let path = db.tier_path(tier);
            if !path.exists() {
                return Ok(None);
            }
            let file = source::open_file(&path)?;
            Ok(Some((path, Arc::new(file))))
        };
        match &self.remote {
            None => local(self),
            Some(r) => self.remote_source(r, tier),
        }
    }

    /// Checks a whole fetched tier file completely (header, index, every block and the
    /// checksum) before it is kept.
    fn check_whole(&self, label: &Path, tier: Tier, source: Arc<dyn Source>) -> DbResult<()> {
        let (game, variant, t) = if sparse::is_reachable_source(label, source.as_ref()) {
            let r = ReachableReader::open_source(label, source)?;
            r.read_all()?;
            (
                r.header.game.clone(),
                r.header.variant.clone(),
                r.header.tier,
            )
        } else {
            let r = TierReader::open_source(label, source)?;
            r.check()?;
            (
                r.header.game.clone(),
                r.header.variant.clone(),
                r.header.tier,
            )
        };
        if game != self.key.game || variant != self.key.variant || t != tier.0 {
            return Err(corrupt(
                label,
                "it belongs to another game, variant or tier",
            ));
        }
        Ok(())
    }

    /// An error for a write to a database read over HTTP.
    fn refuse_remote(&self) -> DbResult<()> {
        match self.remote {
            Some(_) => Err(DbError::ReadOnly(self.describe())),
            None => Ok(()),
        }
    }

    /// Fails when the tier file at `path` is reachable-only: a full solve, or a reader
    /// of whole full tiers, must not take it for one of its own.
    fn require_full(&self, path: &Path, source: &dyn Source) -> DbResult<()> {
        if sparse::is_reachable_source(path, source) {
            return Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::ReachableOnly,
                wanted: Coverage::Full,
            });
        }
        Ok(())
    }

    /// Writes a tier file under a temporary name of this writer, syncs and renames it
    /// into place (holding the directory's lock).
    fn write_tier_file(&self, tier: Tier, bytes: &[u8]) -> DbResult<()> {
        self.refuse_remote()?;
        self.lock_for_writing(LockWait::Wait)?;
        let tmp = self
            .dir
            .join(lock::temporary_name(&format!("tier_{}.gz", tier.0)));
        let write = || -> DbResult<()> {
            let mut f = File::create(&tmp).map_err(io("creating", &tmp))?;
            f.write_all(bytes).map_err(io("writing", &tmp))?;
            f.sync_all().map_err(io("syncing", &tmp))
        };
        if let Err(e) = write() {
            // Our own half-written file: nobody else would know to remove it.
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        self.put_in_place(tier, &tmp)
    }

    /// Renames tier `tier`'s synced temporary file `tmp` into place (removing it when
    /// that fails), and forgets the reader of the file it replaces.
    fn put_in_place(&self, tier: Tier, tmp: &Path) -> DbResult<()> {
        let path = self.tier_path(tier);
        if let Err(e) = fs::rename(tmp, &path).map_err(io("renaming into place", &path)) {
            let _ = fs::remove_file(tmp);
            return Err(e);
        }
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        self.readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&tier);
        Ok(())
    }

    /// Holds the directory's writer lock (waiting for another writer as `wait` says),
    /// creating the directory, and checks a file can be written there.
    fn lock_for_writing(&self, wait: LockWait) -> DbResult<()> {
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if writer.is_some() {
            return Ok(());
        }
        let role = if self.job_member {
            fs::create_dir_all(&self.dir).map_err(io("creating", &self.dir))?;
            Writing::ForJob
        } else {
            Writing::Locked(lock::acquire(&self.dir, wait)?)
        };
        // An unwritable directory is found now, not after the first tier is solved.
        let probe = self.dir.join(lock::temporary_name("write_check"));
        File::create(&probe).map_err(io("creating a file in", &self.dir))?;
        fs::remove_file(&probe).map_err(io("removing", &probe))?;
        *writer = Some(role);
        Ok(())
    }

    fn remove_temporaries_in_dir(&self) -> DbResult<usize> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Ok(0);
        };
        let mut n = 0;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".tmp") && lock::is_abandoned(&name) {
                fs::remove_file(e.path()).map_err(io("removing", &e.path()))?;
                n += 1;
            }
        }
        Ok(n)
    }
}

impl Database for FileDb {
    fn describe(&self) -> String {
        match &self.remote {
            Some(r) => format!("{}/{}", r.remote.base(), r.dir_name),
            None => format!("file:{}", self.dir.display()),
        }
    }

    fn verify_tier(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        self.bounded(|| self.verify_tier_here(meta))
    }

    fn has_tier(&self, tier: Tier) -> DbResult<bool> {
        self.bounded(|| Ok(self.reader(tier)?.is_some()))
    }

    fn load_tier(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        self.bounded(|| self.load_tier_here(meta))
    }

    fn for_each_block(
        &self,
        meta: &TierMeta,
        visit: &mut dyn FnMut(u64, &[u16]) -> DbResult<()>,
    ) -> DbResult<()> {
        self.bounded(|| {
            self.full_reader(meta)?
                .for_each_block(&mut |first, block| visit(first, &block.values))
        })
    }

    fn open_records(&self, meta: &TierMeta, cache_bytes: u64) -> DbResult<Arc<dyn RecordSource>> {
        Ok(Arc::new(
            self.full_reader(meta)?.with_cache_bytes(cache_bytes),
        ))
    }

    fn scratch_dir(&self) -> Option<PathBuf> {
        self.remote.is_none().then(|| self.dir.clone())
    }

    fn store_tier(&self, meta: &TierMeta, records: &TierRecords) -> DbResult<()> {
        let bytes = encode_tier(&self.key, meta, records);
        self.write_tier_file(meta.tier, &bytes)
    }

    fn stage_tier<'a>(
        &'a self,
        meta: &TierMeta,
        fill: FillBlock<'_>,
    ) -> DbResult<Box<dyn StagedTier + 'a>> {
        Ok(Box::new(stage::stage(self, meta, fill)?))
    }

    fn lookup(&self, p: TierPosition) -> DbResult<Option<Record>> {
        // Every request of one lookup over HTTP together within the deadline.
        self.bounded(|| self.lookup_here(p))
    }

    fn clear(&self) -> DbResult<()> {
        self.refuse_remote()?;
        self.lock_for_writing(LockWait::Wait)?;
        self.readers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        if self.dir.exists() {
            for e in fs::read_dir(&self.dir)
                .map_err(io("listing", &self.dir))?
                .flatten()
            {
                let name = e.file_name().to_string_lossy().to_string();
                let tier_file = name.starts_with("tier_") && name.ends_with(".gz");
                let temporary = name.ends_with(".tmp") && lock::is_abandoned(&name);
                if tier_file || temporary {
                    fs::remove_file(e.path()).map_err(io("removing", &e.path()))?;
                }
            }
        }
        Ok(())
    }

    fn remove_temporaries(&self) -> DbResult<usize> {
        self.refuse_remote()?;
        self.lock_for_writing(LockWait::Wait)?;
        self.remove_temporaries_in_dir()
    }

    fn begin_writing(&self, wait: LockWait) -> DbResult<()> {
        self.refuse_remote()?;
        self.lock_for_writing(wait)
    }

    fn stored_tiers(&self) -> DbResult<Vec<Tier>> {
        if let Some(r) = &self.remote {
            return self.bounded(|| self.remote_tiers(r));
        }
        let mut out = Vec::new();
        if let Ok(entries) = fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                if let Some(n) = name
                    .strip_prefix("tier_")
                    .and_then(|s| s.strip_suffix(".gz"))
                {
                    if let Ok(t) = n.parse() {
                        out.push(Tier(t));
                    }
                }
            }
        }
        out.sort();
        Ok(out)
    }

    fn stored_tier(&self, tier: Tier) -> DbResult<Option<StoredTier>> {
        let opened = self.bounded(|| self.reader(tier))?;
        Ok(opened.map(|r| match r {
            Opened::Full(r) => StoredTier {
                coverage: Coverage::Full,
                positions: r.header.positions,
                held: r.header.positions,
            },
            Opened::ReachableOnly(r) => StoredTier {
                coverage: Coverage::ReachableOnly,
                positions: r.header.positions,
                held: r.header.stored,
            },
        }))
    }

    fn store_reachable_tier(
        &self,
        meta: &TierMeta,
        marks: &Marks,
        records: &TierRecords,
    ) -> DbResult<()> {
        let bytes = sparse::encode(&self.key, meta, marks, records);
        self.write_tier_file(meta.tier, &bytes)
    }

    fn verify_reachable_tier(&self, meta: &TierMeta, marks: &Marks) -> DbResult<TierStatus> {
        self.bounded(|| self.verify_reachable_here(meta, marks))
    }

    fn load_reachable_tier(&self, meta: &TierMeta) -> DbResult<ReachableTier> {
        self.bounded(|| self.load_reachable_here(meta))
    }

    fn reachable(&self, p: TierPosition) -> DbResult<Option<bool>> {
        self.bounded(|| match self.reader(p.tier)? {
            Some(Opened::ReachableOnly(r)) => Ok(Some(r.rank(p.position)?.is_some())),
            _ => Ok(None),
        })
    }
}

impl FileDb {
    /// Runs `f` within one `--fetch-deadline` when the database is read over HTTP:
    /// every request of the operation shares it, the manifest's included (fetched
    /// for a warning only, it used to have a deadline of its own, so a silent server
    /// cost two).
    fn bounded<T>(&self, f: impl FnOnce() -> T) -> T {
        match self.remote {
            Some(_) => super::net::within(super::trust::policy().deadline, f),
            None => f(),
        }
    }

    /// `verify_tier` without a deadline of its own.
    fn verify_tier_here(&self, meta: &TierMeta) -> DbResult<TierStatus> {
        let Some((path, source)) = self.source(meta.tier)? else {
            return Ok(TierStatus::Missing);
        };
        self.require_full(&path, source.as_ref())?;
        let check = || -> DbResult<Result<(), String>> {
            let r = TierReader::open_source(&path, source)?;
            if let Err(e) = self.check_header(&r.header, meta) {
                return Ok(Err(e));
            }
            r.check()?;
            Ok(Ok(()))
        };
        Ok(match check() {
            Ok(Ok(())) => TierStatus::Valid,
            Ok(Err(reason)) => TierStatus::Corrupt(reason),
            Err(DbError::Corrupt { reason, .. }) => TierStatus::Corrupt(reason),
            Err(e) => return Err(e),
        })
    }

    /// `load_tier` without a deadline of its own.
    fn load_tier_here(&self, meta: &TierMeta) -> DbResult<Arc<TierRecords>> {
        Ok(Arc::new(self.full_reader(meta)?.read_all()?))
    }

    /// `verify_reachable_tier` without a deadline of its own.
    fn verify_reachable_here(&self, meta: &TierMeta, marks: &Marks) -> DbResult<TierStatus> {
        let Some((path, source)) = self.source(meta.tier)? else {
            return Ok(TierStatus::Missing);
        };
        if !sparse::is_reachable_source(&path, source.as_ref())
            && TierReader::open_source(&path, source.clone()).is_ok()
        {
            return Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::Full,
                wanted: Coverage::ReachableOnly,
            });
        }
        Ok(
            match sparse::verify_source(&path, source, &self.key, meta, marks)? {
                None => TierStatus::Valid,
                Some(reason) => TierStatus::Corrupt(reason),
            },
        )
    }

    /// `load_reachable_tier` without a deadline of its own.
    fn load_reachable_here(&self, meta: &TierMeta) -> DbResult<ReachableTier> {
        let path = self.tier_path(meta.tier);
        match self.reader(meta.tier)? {
            Some(Opened::ReachableOnly(r)) => {
                sparse::check_header(&r.header, &self.key, meta).map_err(|e| corrupt(&path, e))?;
                r.read_all()
            }
            Some(Opened::Full(_)) => Err(DbError::Coverage {
                what: format!("tier file {}", path.display()),
                found: Coverage::Full,
                wanted: Coverage::ReachableOnly,
            }),
            None => Err(corrupt(&path, "not stored")),
        }
    }

    /// A reader of a stored full tier, its header checked against `meta`.
    fn full_reader(&self, meta: &TierMeta) -> DbResult<TierReader> {
        let Some((path, source)) = self.source(meta.tier)? else {
            return Err(corrupt(&self.tier_path(meta.tier), "not stored"));
        };
        self.require_full(&path, source.as_ref())?;
        let r = TierReader::open_source(&path, source)?;
        self.check_header(&r.header, meta)
            .map_err(|e| corrupt(&path, e))?;
        Ok(r)
    }

    /// `lookup` without a deadline of its own.
    fn lookup_here(&self, p: TierPosition) -> DbResult<Option<Record>> {
        match self.reader(p.tier)? {
            None => Ok(None),
            Some(Opened::Full(r)) => {
                if p.position >= r.header.positions {
                    return Err(DbError::OutOfRange(p, r.header.positions));
                }
                Ok(Some(r.get(p.position)?))
            }
            Some(Opened::ReachableOnly(r)) => {
                if p.position >= r.header.positions {
                    return Err(DbError::OutOfRange(p, r.header.positions));
                }
                // A position that cannot occur from the start has no record.
                Ok(Some(r.lookup(p.position)?.unwrap_or(Record::UNSOLVED)))
            }
        }
    }
}

/// Fails unless a file of numbering `file` may be read by a module that numbers its
/// positions by `module` (`index_version`): another numbering would give every index
/// the record of another position.
pub(crate) fn numbering_matches(file: u32, module: u32) -> Result<(), String> {
    if file == module {
        Ok(())
    } else {
        Err(format!(
            "it numbers positions by version {file} of the module's numbering, but the module now uses version {module} (it was solved by another build of the module): solve again"
        ))
    }
}
