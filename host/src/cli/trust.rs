//! Trust in fetched databases from the command line: `host db keygen` (a publisher's
//! ed25519 key pair) and `host db sign` (a signed `tiers.manifest` in each `*_tierdb/`
//! directory of a `file:` database, which `host serve` publishes). `--verify-fetch`
//! lives in `verify_fetch`.
//!
//! It writes keys, manifests and cache files only; it must not change tier files.

use super::CliError;
use crate::engine::db::file::lock_directory;
use crate::engine::db::keyfile;
use crate::engine::db::manifest::{self, Entry, Manifest, MANIFEST_NAME};
use crate::engine::db::{self, LockWait, Resource};
use crate::engine::numbers::count;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Opens a new file (never an existing one, nor through a symbolic link: `O_EXCL`).
fn create_new(path: &Path, mode: u32) -> anyhow::Result<fs::File> {
    Ok(fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
        .map_err(|e| {
            CliError::Usage(format!(
                "cannot create the key file {}: {e} (keygen never replaces a key or writes through a link; choose another name)",
                path.display()
            ))
        })?)
}

/// `host db keygen FILE`: writes a new secret key to FILE (mode 0600) and its public
/// key to FILE.pub (neither over an existing file or link), and prints the public key.
pub fn keygen(file: &Path) -> anyhow::Result<()> {
    let mut pub_path = file.as_os_str().to_owned();
    pub_path.push(".pub");
    let pub_path = PathBuf::from(pub_path);
    // Both names checked before either is written: no half pair is left behind.
    for p in [file, pub_path.as_path()] {
        if let Ok(m) = fs::symlink_metadata(p) {
            let what = keyfile::kind_of(m.file_type()).unwrap_or("a file");
            return Err(CliError::Usage(format!(
                "{} already exists ({what}): keygen never replaces a key or writes through a link; choose another name, or remove it first",
                p.display()
            ))
            .into());
        }
    }
    let key = manifest::generate();
    let public = manifest::hex(key.verifying_key().as_bytes());
    let mut secret = create_new(file, 0o600)?;
    let written = secret
        .write_all(keyfile::render(&key).as_bytes())
        .and_then(|()| secret.sync_all())
        .map_err(anyhow::Error::from)
        .and_then(|()| {
            let mut p = create_new(&pub_path, 0o644)?;
            p.write_all(format!("{public}\n").as_bytes())?;
            p.sync_all()?;
            Ok(())
        });
    if let Err(e) = written {
        // Ours, just created: a secret without its public key is of no use.
        let _ = fs::remove_file(file);
        return Err(e);
    }
    outln!(
        "secret key in {} (keep it private), public key in {}:\n{public}\nclients trust it with --trust {public} or by adding it to their trusted-keys file",
        file.display(),
        pub_path.display()
    )?;
    Ok(())
}

/// `host db sign --key FILE`: signs every `*_tierdb/` directory of the `file:`
/// database `resource`, each while holding its writer lock (so never a database a
/// solve is still writing: it waits for the solve, or with `LockWait::NoWait` fails).
pub fn sign(resource: &str, key_file: &Path, wait: LockWait) -> anyhow::Result<()> {
    let key = keyfile::read_secret(key_file).map_err(|e| CliError::Usage(e.to_string()))?;
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
        // Held while the tier files are read and the manifest written.
        let _lock = lock_directory(dir, wait)?;
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

static TRUST_FLAGS: AtomicBool = AtomicBool::new(false);
static LOCAL_TRUST_SAID: std::sync::Once = std::sync::Once::new();

/// Records whether `--trust` was given on the command line.
pub fn set_trust_flags(given: bool) {
    TRUST_FLAGS.store(given, Ordering::Relaxed);
}

/// Says (once) that `--trust` does nothing for `resource` when it is read from this
/// machine (`file:`, a directory, `memory:`): keys vouch for what is fetched over
/// `http://` only, and a user who typed `--trust` must not believe more was checked.
pub fn note_local_trust(resource: &str) {
    if !TRUST_FLAGS.load(Ordering::Relaxed) {
        return;
    }
    if matches!(db::parse_resource(resource), Ok(Resource::Http(_))) {
        return;
    }
    LOCAL_TRUST_SAID.call_once(|| {
        log::warn!(
            "--trust does nothing for {resource}: it is read from this machine, and keys vouch only for databases fetched over http://; to check a local database against its module use `host verify`"
        )
    });
}
