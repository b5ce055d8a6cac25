//! What an `http://` database's client trusts and how long it waits, set once per
//! process by the front end (`--trust KEY`, the trusted-keys file, `--fetch-deadline`)
//! and read by `file` and `net` when they fetch. Without a call to `configure`, no key
//! is trusted (databases are read unsigned, with a plain warning) and the default
//! deadline applies.
//!
//! This file holds settings; it must not fetch or check anything itself.

use super::keyfile::{read_small, KeyFileError};
use super::manifest::{parse_key, ManifestError};
use ed25519_dalek::VerifyingKey;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// The default for `--fetch-deadline`: the longest one lookup, one tier fetched whole
/// or one `db copy` may take over HTTP.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(120);

/// The trusted-keys file's name in the per-user data directory.
pub const TRUSTED_KEYS_FILE: &str = "trusted-keys";

/// A client's settings for fetched databases.
#[derive(Clone, Debug)]
pub struct FetchPolicy {
    /// Publisher keys whose signed manifests are accepted. Empty: none checked.
    pub trusted: Vec<VerifyingKey>,
    /// The longest one lookup, one whole-tier fetch or one copy may take.
    pub deadline: Duration,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        FetchPolicy {
            trusted: Vec::new(),
            deadline: DEFAULT_DEADLINE,
        }
    }
}

static POLICY: OnceLock<FetchPolicy> = OnceLock::new();

/// Sets the process's policy (the first call wins; later ones are ignored).
pub fn configure(policy: FetchPolicy) {
    let _ = POLICY.set(policy);
}

/// The process's policy.
pub fn policy() -> &'static FetchPolicy {
    POLICY.get_or_init(FetchPolicy::default)
}

/// Why the trusted keys could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// A `--trust` value is not a key.
    #[error("--trust {0}")]
    Flag(ManifestError),
    /// A line of the trusted-keys file is not a key.
    #[error("{}, line {line}: {cause}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// Why.
        cause: ManifestError,
    },
    /// The file is not a small regular file.
    #[error("the trusted-keys file is unusable: {0}")]
    Unusable(KeyFileError),
    /// The file exists but cannot be read.
    #[error("cannot read the trusted-keys file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The longest trusted-keys file read (some ten thousand keys).
pub const TRUSTED_KEYS_LIMIT: u64 = 1 << 20;

/// The keys of `--trust` flags and of the trusted-keys file at `file` (one key a line,
/// `#` comments; a missing file holds none). As ssh treats its key files: the file
/// must be a regular file of at most `TRUSTED_KEYS_LIMIT` bytes; one that group or
/// others may write, one that lists no key, and a symbolic link to nothing are used
/// with a warning saying so.
pub fn load_keys(flags: &[String], file: Option<&Path>) -> Result<Vec<VerifyingKey>, TrustError> {
    let mut keys = Vec::new();
    for f in flags {
        keys.push(parse_key(f).map_err(TrustError::Flag)?);
    }
    if let Some(path) = file {
        keys.extend(keys_of_file(path)?);
    }
    Ok(keys)
}

fn keys_of_file(path: &Path) -> Result<Vec<VerifyingKey>, TrustError> {
    use std::os::unix::fs::MetadataExt;
    let read_error = |source| TrustError::Read {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(read_error(e)),
        Ok(m) if m.file_type().is_symlink() && !path.exists() => {
            let target = std::fs::read_link(path).unwrap_or_default();
            log::warn!(
                "the trusted-keys file {} is a symbolic link to {}, which does not exist: no key is trusted from it",
                path.display(),
                target.display()
            );
            return Ok(Vec::new());
        }
        Ok(_) => {}
    }
    let (bytes, meta) = read_small(path, TRUSTED_KEYS_LIMIT).map_err(TrustError::Unusable)?;
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        log::warn!(
            "the trusted-keys file {} may be written by others (mode {mode:04o}): whoever can write it can make this host trust their key; run `chmod go-w {}`",
            path.display(),
            path.display()
        );
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut keys = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        keys.push(parse_key(line).map_err(|cause| TrustError::File {
            path: path.to_path_buf(),
            line: i + 1,
            cause,
        })?);
    }
    if keys.is_empty() {
        log::warn!(
            "the trusted-keys file {} lists no key: nothing is trusted from it (add a publisher's key, one per line, or remove the file)",
            path.display()
        );
    }
    Ok(keys)
}

/// The trusted-keys file of the per-user data directory, if there is one.
pub fn default_keys_file() -> Option<PathBuf> {
    crate::engine::load::data_dir::data_dir().map(|d| d.join(TRUSTED_KEYS_FILE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_from_flags_and_file() {
        let k = ed25519_dalek::SigningKey::from_bytes(&[3u8; 32]).verifying_key();
        let text = super::super::manifest::hex(k.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("keys");
        std::fs::write(&file, format!("# mine\n\n{text}  # laptop\n")).unwrap();
        let keys = load_keys(std::slice::from_ref(&text), Some(&file)).unwrap();
        assert_eq!(keys, vec![k, k]);
        std::fs::write(&file, "nonsense\n").unwrap();
        let e = load_keys(&[], Some(&file)).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        assert!(load_keys(&[], Some(&dir.path().join("none")))
            .unwrap()
            .is_empty());
    }
}
