//! `--verify-fetch`: every tier an `http://` database would put in `--cache` is first
//! checked forward against the module (as `host verify` does), and kept only when the
//! whole variant passes.
//!
//! A cache may hold tiers no check ever saw: kept by a run without `--verify-fetch`
//! (a plain query fills the cache too), from a server that forged them. The tiers a
//! check passed are listed with their SHA-256 in `verified-tiers` beside them; any
//! other cached tier is checked again with the rest, and when the check fails and
//! passes with the server's copy instead, the cached tier is named, dropped and
//! replaced, and the server is not blamed. Under `--trust`, a cached tier that does not
//! match the signed manifest is dropped and fetched again before anything is checked.
//! The list is a record of this process's own checks against earlier plain runs, not a
//! defence against someone who can write the cache.
//!
//! It writes cache files only (under the cache's directory); it never changes a server.

use super::CliError;
use crate::engine::db::file::FileDb;
use crate::engine::db::manifest::{self, Manifest};
use crate::engine::db::{self, Database, GameKey, Resource};
use crate::engine::game::GameHandle;
use crate::engine::numbers::count;
use crate::engine::verify_db::{verify_database, Quiet};
use gamesman_plugin_api::Tier;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The list of cached tier files a `--verify-fetch` check passed, in the cache's
/// database directory: `SHA256 NAME` a line.
pub const VERIFIED_NAME: &str = "verified-tiers";

static VERIFY_FETCH: AtomicBool = AtomicBool::new(false);

/// Turns `--verify-fetch` on for this process.
pub fn set_verify_fetch(on: bool) {
    VERIFY_FETCH.store(on, Ordering::Relaxed);
}

/// Whether `--verify-fetch` is on.
pub fn verify_fetch() -> bool {
    VERIFY_FETCH.load(Ordering::Relaxed)
}

/// The tier files a check passed, by name, with their SHA-256 (hex).
fn read_verified(dir: &Path) -> BTreeMap<String, String> {
    let text = fs::read_to_string(dir.join(VERIFIED_NAME)).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (hash, name) = l.trim().split_once(' ')?;
            manifest::is_tier_name(name).then(|| (name.to_string(), hash.to_string()))
        })
        .collect()
}

/// Records the cached tier files of `dir` in `tiers` as checked (atomically).
fn write_verified(dir: &Path, tiers: &[Tier]) -> anyhow::Result<()> {
    let mut list = read_verified(dir);
    for t in tiers {
        let name = tier_name(*t);
        let (hash, _) = manifest::digest_file(&dir.join(&name))?;
        list.insert(name, manifest::hex(&hash));
    }
    let text: String = list.iter().map(|(n, h)| format!("{h} {n}\n")).collect();
    let tmp = dir.join(format!(".{VERIFIED_NAME}.{}.tmp", std::process::id()));
    fs::write(&tmp, text)?;
    fs::rename(&tmp, dir.join(VERIFIED_NAME))?;
    Ok(())
}

fn tier_name(t: Tier) -> String {
    format!("tier_{}.gz", t.0)
}

/// The SHA-256 (hex) of a file.
fn sha256(path: &Path) -> anyhow::Result<String> {
    Ok(manifest::hex(&manifest::digest_file(path)?.0))
}

/// With `--verify-fetch`: before an `http:` database with `--cache` is used, fetches
/// every tier the cache lacks into a staging directory inside the cache, checks the
/// whole variant forward against the module (`host verify`'s check) with the cached
/// tiers, and moves the fetched tiers into the cache only when every record follows
/// from its children; cached tiers no check has passed are checked too, and replaced
/// by the server's when they are what fails. Nothing else is done without the flag.
pub fn prepare(game: &GameHandle, resource: &str, cache: Option<&str>) -> anyhow::Result<()> {
    if !verify_fetch() {
        return Ok(());
    }
    let Resource::Http(base) = db::parse_resource(resource)? else {
        return Err(CliError::Usage(
            "--verify-fetch checks what an http:// database fetches; this --db is not one".into(),
        )
        .into());
    };
    let Some(Resource::Dir(cache_root)) = cache.map(db::parse_resource).transpose()? else {
        return Err(CliError::Usage(
            "--verify-fetch needs --cache file:DIRECTORY: tiers are verified whole before they are kept there".into(),
        )
        .into());
    };
    let key = GameKey::of(game);
    let cached = FileDb::open(cache_root.clone(), key.clone())?;
    let remote = FileDb::open_http(&base, key.clone(), None)?;
    let wanted = match remote.stored_tiers() {
        Ok(w) => Some(w),
        // The server is gone: what the cache holds is checked alone.
        Err(e) if !cached.stored_tiers()?.is_empty() => {
            log::warn!("--verify-fetch: {e}: checking the cached tiers alone");
            None
        }
        Err(e) => return Err(e.into()),
    };
    if wanted.is_some() {
        if let Some(m) = remote.signed_manifest()? {
            drop_unsigned(&cached, &m, &remote.describe())?;
        }
    }
    let have = cached.stored_tiers()?;
    let wanted = wanted.unwrap_or_else(|| have.clone());
    let checked = read_verified(cached.dir());
    let mut unchecked = Vec::new();
    for t in &have {
        let name = tier_name(*t);
        if checked.get(&name) != Some(&sha256(&cached.tier_path(*t))?) {
            unchecked.push(*t);
        }
    }
    let missing: Vec<Tier> = wanted
        .iter()
        .filter(|t| !have.contains(t))
        .copied()
        .collect();
    if missing.is_empty() && unchecked.is_empty() {
        return Ok(());
    }
    let staging_root = cache_root.join(format!(".verify-fetch-{}", std::process::id()));
    let job = Staging {
        game,
        base: &base,
        key: &key,
        cached: &cached,
        root: &staging_root,
    };
    let result = job.run(&have, &unchecked, &missing);
    let _ = fs::remove_dir_all(&staging_root);
    result
}

/// Under `--trust`: drops every cached tier the signed manifest does not vouch for
/// (it is fetched again, and checked, with the missing ones).
fn drop_unsigned(cached: &FileDb, m: &Manifest, server: &str) -> anyhow::Result<()> {
    for t in cached.stored_tiers()? {
        let name = tier_name(t);
        let path = cached.tier_path(t);
        let (hash, size) = manifest::digest_file(&path)?;
        if let Err(why) = m.check(&name, &hash, size) {
            log::warn!(
                "--verify-fetch: tier file {} in the cache does not match the signed manifest of {server} ({why}): it was forged, damaged or kept from another database; dropped from the cache, fetching it again",
                path.display()
            );
            fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// One staged check: the cached tiers beside the fetched ones in a directory of
/// the cache's own.
struct Staging<'a> {
    game: &'a GameHandle,
    base: &'a str,
    key: &'a GameKey,
    cached: &'a FileDb,
    root: &'a Path,
}

impl Staging<'_> {
    fn run(&self, have: &[Tier], unchecked: &[Tier], missing: &[Tier]) -> anyhow::Result<()> {
        // Fetched whole and checked (against the signed manifest when keys are
        // trusted) into the staging directory, which is `staged`'s cache.
        let staged = FileDb::open_http(self.base, self.key.clone(), Some(self.root.into()))?;
        let plain = FileDb::open(self.root.to_path_buf(), self.key.clone())?;
        fs::create_dir_all(plain.dir())?;
        for t in have {
            let (from, to) = (self.cached.tier_path(*t), plain.tier_path(*t));
            if fs::hard_link(&from, &to).is_err() {
                fs::copy(&from, &to)?;
            }
        }
        for t in missing {
            staged.has_tier(*t)?;
        }
        log::info!(
            "--verify-fetch: checking {} fetched and {} cached but unchecked tiers of {} ({}) against the module before keeping them",
            count(missing.len() as u64),
            count(unchecked.len() as u64),
            self.game.module_name(),
            self.game.variant()
        );
        let first = verify_database(self.game, &plain, &Quiet);
        let replaced = match first {
            Ok(_) => Vec::new(),
            Err(e) if unchecked.is_empty() => return Err(self.server_fails(&staged, &e)),
            // The check failed with tiers no check ever passed: they may be what is
            // wrong. Checked again with the server's copies of them instead.
            Err(_) => {
                for t in unchecked {
                    fs::remove_file(plain.tier_path(*t))?;
                }
                let staged =
                    FileDb::open_http(self.base, self.key.clone(), Some(self.root.into()))?;
                for t in unchecked {
                    if let Err(e) = staged.has_tier(*t) {
                        return Err(self.drop_unchecked(unchecked, &e));
                    }
                }
                let plain = FileDb::open(self.root.to_path_buf(), self.key.clone())?;
                verify_database(self.game, &plain, &Quiet)
                    .map_err(|e| self.server_fails(&staged, &e))?;
                let mut replaced = Vec::new();
                for t in unchecked {
                    let (mine, theirs) = (self.cached.tier_path(*t), plain.tier_path(*t));
                    if sha256(&mine)? != sha256(&theirs)? {
                        log::warn!(
                            "--verify-fetch: tier file {} in the cache was kept by a run without --verify-fetch and fails the module's check, where the server's copy passes: it was forged or damaged; dropped from the cache and fetched again",
                            mine.display()
                        );
                    }
                    replaced.push(*t);
                }
                replaced
            }
        };
        fs::create_dir_all(self.cached.dir())?;
        for t in missing.iter().chain(&replaced) {
            fs::rename(plain.tier_path(*t), self.cached.tier_path(*t))?;
        }
        let all: Vec<Tier> = missing.iter().chain(unchecked).copied().collect();
        write_verified(self.cached.dir(), &all)
    }

    /// The cached tiers no check passed fail it now and cannot be fetched again
    /// (`e`): they are dropped from the cache, so no later query reads them.
    fn drop_unchecked(&self, unchecked: &[Tier], e: &dyn std::fmt::Display) -> anyhow::Error {
        let mut names = Vec::new();
        for t in unchecked {
            let path = self.cached.tier_path(*t);
            if fs::remove_file(&path).is_ok() {
                names.push(path.display().to_string());
            }
        }
        CliError::Fetched(format!(
            "--verify-fetch: the cached tier files {} were kept by a run without --verify-fetch and the variant fails the module's check with them; they could not be fetched again ({e}), so they were dropped from the cache: run again when the server answers",
            names.join(", ")
        ))
        .into()
    }

    /// The error when the server's own tiers fail the check.
    fn server_fails(&self, staged: &FileDb, e: &dyn std::fmt::Display) -> anyhow::Error {
        CliError::Fetched(format!(
            "--verify-fetch: the database at {} fails the module's check, so nothing of it was cached: {e}",
            staged.describe()
        ))
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_of_checked_tiers_reads_what_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("tier_3.gz"), b"three").unwrap();
        fs::write(
            dir.path().join(VERIFIED_NAME),
            "zz tier_9.gz\nnonsense\nab ../x\n",
        )
        .unwrap();
        write_verified(dir.path(), &[Tier(3)]).unwrap();
        let list = read_verified(dir.path());
        assert_eq!(list.len(), 2, "{list:?}");
        assert_eq!(list["tier_9.gz"], "zz");
        assert_eq!(
            list["tier_3.gz"],
            sha256(&dir.path().join("tier_3.gz")).unwrap()
        );
    }
}
