//! Trust in fetched databases from the command line: `host db keygen` (a publisher's
//! ed25519 key pair) and `host db sign` (a signed `tiers.manifest` in each `*_tierdb/`
//! directory of a `file:` database, which `host serve` publishes). `--verify-fetch`
//! lives in `verify_fetch`.
//!
//! It writes keys, manifests and cache files only; it must not change tier files.

use super::CliError;
use crate::engine::db::manifest::{self, Entry, Manifest, MANIFEST_NAME};
use crate::engine::db::{self, Resource};
use crate::engine::numbers::count;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

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
