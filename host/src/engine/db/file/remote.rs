//! The `file:` layout read over HTTP (`http://HOST:PORT/PATH`): where a tier's bytes
//! come from, which tiers are stored, and whether the publisher's signed manifest
//! (`db::manifest`) vouches for them.
//!
//! Modes, by what the client was told to trust (`db::trust`):
//! - keys trusted: the signed manifest is required; a tier is fetched whole, its size
//!   and SHA-256 must match the manifest (or it is refused), and only then read; the
//!   manifest is kept in the cache too, so cached tiers are checked against it again
//!   when the server is gone;
//! - no key trusted: tiers are read as published, checked for damage by their own
//!   checksums only, and a warning says once whether the database is signed.
//!
//! With a cache, a tier is streamed to a temporary file in the cache (one copy, never
//! more bytes than its announced size), checked whole and renamed into place. This
//! file must not interpret records.

use super::source::{self, Source};
use super::{io, lock, FileDb};
use crate::engine::db::manifest::{self, Hasher, Manifest, MANIFEST_LIMIT, MANIFEST_NAME};
use crate::engine::db::net::{self, HttpSource, Remote};
use crate::engine::db::{trust, Database, DbError, DbResult, LockWait};
use gamesman_plugin_api::Tier;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Once};

/// The same directory layout on a server, read-only.
pub(super) struct RemoteDir {
    pub(super) remote: Arc<Remote>,
    /// `GAME_VARIANT_tierdb`.
    pub(super) dir_name: String,
    /// A local `file:` database that fetched tiers are kept in and read from first.
    pub(super) cache: Option<Box<FileDb>>,
    /// The verified manifest once read (`Some(None)`: no key trusted, read unsigned).
    manifest: Mutex<Option<Option<Arc<Manifest>>>>,
    /// The unsigned-database warning, once.
    warned: Once,
    /// The warning that a tier is missing from the signed manifest, once.
    unlisted: Once,
}

/// A writer that hashes what it writes.
struct Hashing<W: Write> {
    inner: W,
    hash: Hasher,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl RemoteDir {
    /// The directory `dir_name` under `remote`, cached in `cache`.
    pub(super) fn new(remote: Remote, dir_name: String, cache: Option<Box<FileDb>>) -> RemoteDir {
        RemoteDir {
            remote: Arc::new(remote),
            dir_name,
            cache,
            manifest: Mutex::new(None),
            warned: Once::new(),
            unlisted: Once::new(),
        }
    }

    fn describe(&self) -> String {
        format!("{}/{}", self.remote.base(), self.dir_name)
    }

    /// The signed manifest when keys are trusted (required then), `None` when none is.
    pub(super) fn manifest(&self) -> DbResult<Option<Arc<Manifest>>> {
        if let Some(m) = self
            .manifest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            return Ok(m.clone());
        }
        let m = self.load_manifest()?;
        *self.manifest.lock().unwrap_or_else(|e| e.into_inner()) = Some(m.clone());
        Ok(m)
    }

    fn load_manifest(&self) -> DbResult<Option<Arc<Manifest>>> {
        let policy = trust::policy();
        let url = self.remote.url(&self.dir_name, MANIFEST_NAME);
        let label = PathBuf::from(&url);
        let fetched = net::within(policy.deadline, || self.remote.small(&url, MANIFEST_LIMIT));
        if policy.trusted.is_empty() {
            self.warn_untrusted(&fetched);
            return Ok(None);
        }
        let cached = self.cache.as_ref().map(|c| c.dir().join(MANIFEST_NAME));
        let (bytes, from_server) = match fetched {
            Ok(Some(b)) => (b, true),
            Ok(None) => {
                return Err(DbError::Untrusted(format!(
                    "{} is unsigned (the server has no {MANIFEST_NAME}), and --trust or the trusted-keys file ask for databases signed by a trusted key: refusing it",
                    self.describe()
                )))
            }
            // The server is gone: a manifest kept with the cache still vouches for it.
            Err(e) => match cached.as_ref().and_then(|p| fs::read(p).ok()) {
                Some(b) => {
                    log::warn!("{e}: using the tiers cached with their signed manifest");
                    (b, false)
                }
                None => return Err(io("reading", &label)(e)),
            },
        };
        let untrusted = |why: String| DbError::Untrusted(format!("the manifest {url}: {why}"));
        let m = Manifest::parse(&bytes).map_err(|e| untrusted(e.to_string()))?;
        m.verify(&policy.trusted)
            .map_err(|e| untrusted(e.to_string()))?;
        if m.directory != self.dir_name {
            return Err(untrusted(format!(
                "it is signed for {}, not {}",
                m.directory, self.dir_name
            )));
        }
        if let (true, Some(cache), Some(path)) = (from_server, &self.cache, &cached) {
            cache.lock_for_writing(LockWait::Wait)?;
            let tmp = cache.dir().join(lock::temporary_name(MANIFEST_NAME));
            fs::write(&tmp, &bytes).map_err(io("writing", &tmp))?;
            fs::rename(&tmp, path).map_err(io("renaming into place", path))?;
        }
        log::info!(
            "{} is signed by trusted key {}",
            self.describe(),
            manifest::hex(m.signed_by.as_bytes())
        );
        Ok(Some(Arc::new(m)))
    }

    /// Says once, plainly, that nothing vouches for the database.
    fn warn_untrusted(&self, fetched: &std::io::Result<Option<Vec<u8>>>) {
        self.warned.call_once(|| {
            let d = self.describe();
            match fetched {
                Ok(Some(b)) => match Manifest::parse(b) {
                    // The key is the server's own claim: a forger signs with a key of
                    // their own, so the advice must never be to trust the key named here.
                    Ok(m) => log::warn!(
                        "{d} has a manifest that says it is signed by key {k}, but no key is trusted here, so nothing is checked: that key comes from the server itself, and a forger signs with their own. Get the publisher's key from the publisher by another channel (their web site, a release note, in person), compare it, and pass that key with --trust KEY (or add it to the trusted-keys file) to refuse forged tiers",
                        k = manifest::hex(m.signed_by.as_bytes())
                    ),
                    Err(e) => log::warn!("{d} has an unusable {MANIFEST_NAME} ({e}): it is read as unsigned"),
                },
                Ok(None) => log::warn!(
                    "{d} is unsigned: its tiers are checked for damage (checksums), not for forgery, so a wrong server could give wrong answers; use --verify-fetch with --cache, or a database its publisher signed (`host db sign`) with --trust"
                ),
                Err(_) => {}
            }
        });
    }
}

impl FileDb {
    /// The signed manifest that vouches for this database read over HTTP, when keys
    /// are trusted (then it is required); `None` when none is, or for a local database.
    pub fn signed_manifest(&self) -> DbResult<Option<Arc<Manifest>>> {
        match &self.remote {
            Some(r) => self.bounded(|| r.manifest()),
            None => Ok(None),
        }
    }

    /// Where a remote tier's bytes are, fetched (and cached) as the mode says.
    pub(super) fn remote_source(
        &self,
        r: &RemoteDir,
        tier: Tier,
    ) -> DbResult<Option<(PathBuf, Arc<dyn Source>)>> {
        let name = format!("tier_{}.gz", tier.0);
        let url = r.remote.url(&r.dir_name, &name);
        let label = PathBuf::from(&url);
        let signed = r.manifest()?;
        let expected = match &signed {
            Some(m) => match m.entries.get(&name) {
                Some(e) => Some(e.size),
                // Not part of the signed database: said once, for a partial manifest
                // (signed before its solve finished) looks like an unsolved variant.
                None => {
                    r.unlisted.call_once(|| {
                        log::warn!(
                            "{} is not listed in the signed manifest of {} (which lists {} tier files): it is treated as not stored; if the publisher signed the database before its solve finished, ask them to sign it again with `host db sign`",
                            name,
                            r.describe(),
                            m.entries.len()
                        )
                    });
                    return Ok(None);
                }
            },
            None => None,
        };
        let vouch = |path: &Path, hash: &[u8; 32], size: u64| -> DbResult<()> {
            match &signed {
                Some(m) => m.check(&name, hash, size).map_err(|why| {
                    DbError::Untrusted(format!(
                        "tier file {} is refused: {why} (forged, or changed since it was signed)",
                        path.display()
                    ))
                }),
                None => Ok(()),
            }
        };
        let deadline = trust::policy().deadline;
        let Some(cache) = &r.cache else {
            return match expected {
                None => Ok(HttpSource::open(r.remote.clone(), url)
                    .map_err(io("reading", &label))?
                    .map(|s| (label, Arc::new(s) as Arc<dyn Source>))),
                Some(size) => {
                    let mut sink = Hashing {
                        inner: Vec::new(),
                        hash: Hasher::new(),
                    };
                    let got = net::within(deadline, || r.remote.fetch_to(&url, size, &mut sink))
                        .map_err(|e| fetch_failed(&label, e, true))?;
                    if got.is_none() {
                        return Ok(None);
                    }
                    vouch(&label, &sink.hash.finish(), sink.inner.len() as u64)?;
                    Ok(Some((
                        label,
                        Arc::new(source::Bytes(sink.inner)) as Arc<dyn Source>,
                    )))
                }
            };
        };
        let path = cache.tier_path(tier);
        if path.exists() {
            let (hash, size) = manifest::digest_file(&path).map_err(io("reading", &path))?;
            match vouch(&path, &hash, size) {
                Ok(()) => return Ok(Some((path.clone(), Arc::new(source::open_file(&path)?)))),
                // Cached before this key was trusted, or changed: fetched again below.
                Err(e) => log::warn!("{e}: fetching it again"),
            }
        }
        let size = match expected {
            Some(s) => s,
            None => match net::within(deadline, || r.remote.length(&url))
                .map_err(io("reading", &label))?
            {
                Some(s) => s,
                None => return Ok(None),
            },
        };
        cache.lock_for_writing(LockWait::Wait)?;
        let tmp = cache.dir().join(lock::temporary_name(&name));
        let fetch = || -> DbResult<bool> {
            let file = File::create(&tmp).map_err(io("creating", &tmp))?;
            let mut sink = Hashing {
                inner: std::io::BufWriter::new(file),
                hash: Hasher::new(),
            };
            let got = net::within(deadline, || r.remote.fetch_to(&url, size, &mut sink))
                .map_err(|e| fetch_failed(&label, e, expected.is_some()))?;
            if got.is_none() {
                return Ok(false);
            }
            let file = sink
                .inner
                .into_inner()
                .map_err(|e| io("writing", &tmp)(e.into_error()))?;
            vouch(&label, &sink.hash.finish(), size)?;
            file.sync_all().map_err(io("syncing", &tmp))?;
            self.check_whole(&label, tier, Arc::new(source::open_file(&tmp)?))?;
            fs::rename(&tmp, &path).map_err(io("renaming into place", &path))?;
            Ok(true)
        };
        match fetch() {
            Ok(true) => {}
            Ok(false) => {
                let _ = fs::remove_file(&tmp);
                return Ok(None);
            }
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        }
        log::debug!("cached {url} in {}", cache.describe());
        Ok(Some((path.clone(), Arc::new(source::open_file(&path)?))))
    }

    /// The tiers a remote directory holds: the signed manifest's when keys are
    /// trusted, else the listing's (the cache's when the server is gone).
    pub(super) fn remote_tiers(&self, r: &RemoteDir) -> DbResult<Vec<Tier>> {
        let label = PathBuf::from(self.describe());
        let names: Vec<String> = match r.manifest()? {
            Some(m) => m.entries.keys().cloned().collect(),
            None => {
                let listed = net::within(trust::policy().deadline, || r.remote.list(&r.dir_name));
                match (listed, &r.cache) {
                    (Ok(names), _) => names.unwrap_or_default(),
                    // The server is gone: what the cache holds is what there is.
                    (Err(e), Some(cache)) => {
                        log::warn!("{e}: using the tiers cached in {}", cache.describe());
                        return cache.stored_tiers();
                    }
                    (Err(e), None) => return Err(io("listing", &label)(e)),
                }
            }
        };
        let mut out: Vec<Tier> = names
            .iter()
            .filter_map(|n| n.strip_prefix("tier_")?.strip_suffix(".gz")?.parse().ok())
            .map(Tier)
            .collect();
        out.sort();
        Ok(out)
    }
}

/// A failed whole-tier fetch: of another size than the signed manifest says, the tier
/// is refused as forged; anything else is the transfer's error.
fn fetch_failed(label: &Path, e: std::io::Error, signed: bool) -> DbError {
    if signed && e.kind() == std::io::ErrorKind::InvalidData {
        DbError::Untrusted(format!(
            "tier file {} is refused: it does not have the size the signed manifest gives ({e})",
            label.display()
        ))
    } else {
        io("reading", label)(e)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::db::file::FileDb;
    use crate::engine::db::{Database, GameKey, TierMeta};
    use crate::engine::record::{pack, TierRecords};
    use gamesman_plugin_api::{Tier, TierPosition, Value};

    #[test]
    fn a_poisoned_reader_lock_does_not_outlive_its_request() {
        let dir = tempfile::tempdir().unwrap();
        let key = GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby: false,
            numbering: 0,
        };
        let db = FileDb::open(dir.path().to_path_buf(), key).unwrap();
        let meta = TierMeta {
            tier: Tier(0),
            name: "t".into(),
            size: 4,
        };
        let records = TierRecords {
            values: vec![pack(Value::WIN, 1); 4],
            winby: None,
        };
        db.store_tier(&meta, &records).unwrap();
        // A request panics while it holds the readers' lock (as a client panic did).
        std::thread::scope(|s| {
            let _ = s
                .spawn(|| {
                    let _held = db.readers.lock().unwrap();
                    panic!("a request failed while holding the lock");
                })
                .join();
        });
        assert!(db.readers.is_poisoned());
        let r = db.lookup(TierPosition::new(Tier(0), 2)).unwrap().unwrap();
        assert_eq!((r.value, r.remoteness), (Value::WIN, 1));
    }
}
