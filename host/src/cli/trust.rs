//! Trust in fetched databases from the command line: `host db keygen` (a publisher's
//! ed25519 key pair), `host db sign` (a signed `tiers.manifest` in each `*_tierdb/`
//! directory of a `file:` database, which `host serve` publishes), and `--verify-fetch`
//! (every tier an `http://` database would put in `--cache` first checked forward
//! against the module, as `host verify` does, and kept only when all pass).
//!
//! It writes keys, manifests and cache files only; it must not change tier files.

use super::CliError;
use crate::engine::db::file::FileDb;
use crate::engine::db::manifest::{self, Entry, Manifest, MANIFEST_NAME};
use crate::engine::db::{self, Database, GameKey, Resource};
use crate::engine::game::GameHandle;
use crate::engine::numbers::count;
use crate::engine::verify_db::{verify_database, Quiet};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// `host db keygen FILE`: writes a new secret key to FILE (mode 0600, never over an
/// existing file) and its public key to FILE.pub, and prints the public key.
pub fn keygen(file: &Path) -> anyhow::Result<()> {
    let key = manifest::generate();
    let public = manifest::hex(key.verifying_key().as_bytes());
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)
        .map_err(|e| {
            CliError::Usage(format!(
                "cannot create the key file {}: {e} (keygen never replaces a key; choose another name)",
                file.display()
            ))
        })?;
    writeln!(
        f,
        "# gamesman ed25519 secret key: keep it private (public key {public})\n{}",
        manifest::hex(&key.to_bytes())
    )?;
    f.sync_all()?;
    let mut pub_path = file.as_os_str().to_owned();
    pub_path.push(".pub");
    fs::write(&pub_path, format!("{public}\n"))?;
    outln!(
        "secret key in {} (keep it private), public key in {}:\n{public}\nclients trust it with --trust {public} or by adding it to their trusted-keys file",
        file.display(),
        PathBuf::from(pub_path).display()
    )?;
    Ok(())
}

/// `host db sign --key FILE`: signs every `*_tierdb/` directory of the `file:`
/// database `resource`.
pub fn sign(resource: &str, key_file: &Path) -> anyhow::Result<()> {
    let text = fs::read_to_string(key_file).map_err(|e| {
        CliError::Usage(format!(
            "cannot read the key file {}: {e}",
            key_file.display()
        ))
    })?;
    let key = manifest::parse_secret(&text).ok_or_else(|| {
        CliError::Usage(format!(
            "{} is not a secret key written by `host db keygen`",
            key_file.display()
        ))
    })?;
    let Resource::Dir(root) = db::parse_resource(resource)? else {
        return Err(CliError::Usage(format!(
            "db sign signs the tier files of a file:DIRECTORY database, not {resource}"
        ))
        .into());
    };
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .map_err(|e| CliError::Usage(format!("cannot list {}: {e}", root.display())))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| e.file_name().to_string_lossy().ends_with("_tierdb"))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(CliError::Usage(format!(
            "{} holds no database directory (NAME_tierdb): nothing to sign",
            root.display()
        ))
        .into());
    }
    let mut files = 0usize;
    for dir in &dirs {
        let mut entries = BTreeMap::new();
        for e in fs::read_dir(dir)?.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            // Regular files only: a symlink is not signed (nor served).
            if !manifest::is_tier_name(&name) || !e.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let (sha256, size) = manifest::digest_file(&e.path())?;
            entries.insert(name, Entry { size, sha256 });
        }
        files += entries.len();
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let m = Manifest::sign(&name, entries, &key);
        let tmp = dir.join(format!(".{MANIFEST_NAME}.{}.tmp", std::process::id()));
        fs::write(&tmp, m.render())?;
        fs::rename(&tmp, dir.join(MANIFEST_NAME))?;
    }
    outln!(
        "signed {} database directories ({} tier files) in {} with key {}",
        count(dirs.len() as u64),
        count(files as u64),
        root.display(),
        manifest::hex(key.verifying_key().as_bytes())
    )?;
    Ok(())
}

static VERIFY_FETCH: AtomicBool = AtomicBool::new(false);

/// Turns `--verify-fetch` on for this process.
pub fn set_verify_fetch(on: bool) {
    VERIFY_FETCH.store(on, Ordering::Relaxed);
}

/// Whether `--verify-fetch` is on.
pub fn verify_fetch() -> bool {
    VERIFY_FETCH.load(Ordering::Relaxed)
}

/// With `--verify-fetch`: before an `http:` database with `--cache` is used, fetches
/// every tier the cache lacks into a staging directory inside the cache, checks the
/// whole variant forward against the module (`host verify`'s check), and moves the
/// fetched tiers into the cache only when every record follows from its children.
/// Nothing else is done without the flag.
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
    let wanted = remote.stored_tiers()?;
    let have = cached.stored_tiers()?;
    let missing: Vec<_> = wanted
        .iter()
        .filter(|t| !have.contains(t))
        .copied()
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let staging_root = cache_root.join(format!(".verify-fetch-{}", std::process::id()));
    let result = stage_and_verify(game, &base, &key, &cached, &staging_root, &have, &missing);
    let _ = fs::remove_dir_all(&staging_root);
    result
}

fn stage_and_verify(
    game: &GameHandle,
    base: &str,
    key: &GameKey,
    cached: &FileDb,
    staging_root: &Path,
    have: &[gamesman_plugin_api::Tier],
    missing: &[gamesman_plugin_api::Tier],
) -> anyhow::Result<()> {
    let staged = FileDb::open_http(base, key.clone(), Some(staging_root.to_path_buf()))?;
    let plain = FileDb::open(staging_root.to_path_buf(), key.clone())?;
    fs::create_dir_all(plain.dir())?;
    // The tiers already cached (verified when they came) stand beside the new ones.
    for t in have {
        let from = cached.tier_path(*t);
        let to = plain.tier_path(*t);
        if fs::hard_link(&from, &to).is_err() {
            fs::copy(&from, &to)?;
        }
    }
    for t in missing {
        // Fetched whole, checked (and against a signed manifest when keys are trusted).
        staged.has_tier(*t)?;
    }
    log::info!(
        "--verify-fetch: checking {} fetched tiers of {} ({}) against the module before keeping them",
        count(missing.len() as u64),
        game.module_name(),
        game.variant()
    );
    verify_database(game, &plain, &Quiet).map_err(|e| {
        CliError::Fetched(format!(
            "--verify-fetch: the database at {} fails the module's check, so nothing of it was cached: {e}",
            staged.describe()
        ))
    })?;
    fs::create_dir_all(cached.dir())?;
    for t in missing {
        fs::rename(plain.tier_path(*t), cached.tier_path(*t))?;
    }
    Ok(())
}
