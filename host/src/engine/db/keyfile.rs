//! Publisher key files as `host db keygen` writes them and `host db sign` reads them,
//! and reading small trust files (keys, the trusted-keys list) the way ssh reads a
//! private key: a regular file only (never a device, FIFO or socket, which could block
//! or never end), at most a few kilobytes, and a secret key only when no one but its
//! owner may read it.
//!
//! A secret key file starts with a header line naming its format, so that the public
//! key (`FILE.pub`: 64 hex digits) is never taken for the secret seed:
//! ```text
//! gamesman ed25519 secret key 1
//! # keep this file private (chmod 600); host db sign --key FILE signs with it
//! public 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c
//! secret 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60
//! ```
//! Files of the first format (`# gamesman ed25519 secret key: ... (public key HEX)`
//! then the seed) are still read when the seed gives the public key the comment names;
//! a bare line of hex digits is refused (it may be a public key).
//!
//! This file reads and renders key files; it must not sign or verify anything.

use super::manifest::hex;
use ed25519_dalek::SigningKey;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The first line of a secret key file.
pub const HEADER: &str = "gamesman ed25519 secret key 1";
/// How the first key format began (a comment naming the public key, then the seed).
const FIRST_FORMAT: &str = "# gamesman ed25519 secret key";
/// The longest key file read.
pub const KEY_FILE_LIMIT: u64 = 4096;

/// Why a key file is not used.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// It cannot be opened or read.
    #[error("cannot read the key file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A device, FIFO, socket or directory.
    #[error("{} is {kind}, not a regular file: give the key file `host db keygen` wrote", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// Longer than any key file.
    #[error("{} is larger than a key file ({KEY_FILE_LIMIT} bytes at most): give the key file `host db keygen` wrote", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Group or others may read (or write) the secret key.
    #[error("the secret key {} is accessible by others (mode {mode:04o}): a secret key must be private to its owner, so it is not used; run `chmod 600 {}` (and make a new key with `host db keygen` if others may have read it)", path.display(), path.display())]
    TooOpen {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// Hex digits without the header: a public key (`FILE.pub`), or a bare seed.
    #[error("{} holds a bare key without the secret-key header ('{HEADER}'): it may be a public key (as FILE.pub holds), and signing with a public key's digits would let anyone sign as the publisher; give the secret key file `host db keygen` wrote", path.display())]
    Bare {
        /// The file.
        path: PathBuf,
    },
    /// Anything else that is not a secret key file.
    #[error("{} is not a secret key written by `host db keygen`: {why}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// The text of a secret key file for `key`.
pub fn render(key: &SigningKey) -> String {
    format!(
        "{HEADER}\n# keep this file private (chmod 600); host db sign --key FILE signs with it\npublic {}\nsecret {}\n",
        hex(key.verifying_key().as_bytes()),
        hex(&key.to_bytes())
    )
}

/// What a regular file's type is, in words, when it is not a regular file.
pub fn kind_of(t: std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    })
}

/// A small file's bytes and metadata: a regular file only (opened without blocking,
/// so a FIFO is refused rather than waited on), at most `limit` bytes.
pub fn read_small(path: &Path, limit: u64) -> Result<(Vec<u8>, std::fs::Metadata), KeyFileError> {
    let read = |source| KeyFileError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(read)?;
    let meta = file.metadata().map_err(read)?;
    if let Some(kind) = kind_of(meta.file_type()) {
        return Err(KeyFileError::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(read)?;
    if bytes.len() as u64 > limit {
        return Err(KeyFileError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok((bytes, meta))
}

/// Reads the secret key in `path`: a regular file of at most `KEY_FILE_LIMIT` bytes,
/// private to its owner (mode 0600 or stricter), with the secret-key header (or in the
/// first format, its seed matching the public key it names).
pub fn read_secret(path: &Path) -> Result<SigningKey, KeyFileError> {
    let (bytes, meta) = read_small(path, KEY_FILE_LIMIT)?;
    let parsed = match String::from_utf8(bytes) {
        Ok(text) => parse_secret(&text),
        Err(_) => Err(SecretError::Format("it is not text".into())),
    };
    // A public key is named as one first: "chmod 600" would be the wrong advice.
    if matches!(parsed, Err(SecretError::Bare)) {
        return Err(KeyFileError::Bare {
            path: path.to_path_buf(),
        });
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o077 != 0 {
        return Err(KeyFileError::TooOpen {
            path: path.to_path_buf(),
            mode,
        });
    }
    parsed.map_err(|e| match e {
        SecretError::Bare => KeyFileError::Bare {
            path: path.to_path_buf(),
        },
        SecretError::Format(why) => KeyFileError::Format {
            path: path.to_path_buf(),
            why,
        },
    })
}

/// Why a secret key's text is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum SecretError {
    /// Only hex digits, no header.
    Bare,
    /// Anything else.
    Format(String),
}

/// Bytes of exactly 32 bytes' hex.
fn unhex32(text: &str) -> Option<[u8; 32]> {
    let text = text.trim();
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A secret key from a key file's text (see the file's comment for the formats).
pub fn parse_secret(text: &str) -> Result<SigningKey, SecretError> {
    let bad = |why: &str| SecretError::Format(why.to_string());
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().ok_or_else(|| bad("it is empty"))?;
    if first == HEADER {
        let (mut public, mut secret) = (None, None);
        for line in lines.filter(|l| !l.starts_with('#')) {
            if let Some(h) = line.strip_prefix("public ") {
                public =
                    Some(unhex32(h).ok_or_else(|| bad("its public line is not 64 hex digits"))?);
            } else if let Some(h) = line.strip_prefix("secret ") {
                secret =
                    Some(unhex32(h).ok_or_else(|| bad("its secret line is not 64 hex digits"))?);
            } else {
                return Err(bad(&format!("an unknown line: {}", shorten(line))));
            }
        }
        let key = SigningKey::from_bytes(&secret.ok_or_else(|| bad("it has no secret line"))?);
        if public.is_some_and(|p| p != key.verifying_key().to_bytes()) {
            return Err(bad(
                "its secret does not give the public key it names (the file was changed)",
            ));
        }
        return Ok(key);
    }
    if first.starts_with(FIRST_FORMAT) {
        // The first format: the comment names the public key; the seed must give it.
        let named = first
            .split("(public key ")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .and_then(unhex32)
            .ok_or_else(|| bad("its first line names no public key"))?;
        let seed = lines
            .find(|l| !l.starts_with('#'))
            .and_then(unhex32)
            .ok_or_else(|| bad("no line of 64 hex digits follows its first line"))?;
        let key = SigningKey::from_bytes(&seed);
        if key.verifying_key().to_bytes() != named {
            return Err(bad(
                "its secret does not give the public key it names (the file was changed)",
            ));
        }
        return Ok(key);
    }
    let first_key = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if first_key
        .map(|l| l.strip_prefix("ed25519:").unwrap_or(l))
        .and_then(unhex32)
        .is_some()
    {
        return Err(SecretError::Bare);
    }
    Err(bad(&format!(
        "its first line is not '{HEADER}' but {}",
        shorten(first)
    )))
}

fn shorten(line: &str) -> String {
    let s: String = line.chars().take(60).collect();
    format!("'{s}'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn rendered_keys_read_back_and_public_keys_do_not() {
        let key = SigningKey::from_bytes(&[5u8; 32]);
        let text = render(&key);
        assert!(text.starts_with(HEADER));
        assert_eq!(parse_secret(&text).unwrap().to_bytes(), key.to_bytes());
        // The public key, bare or with a comment, as FILE.pub and trusted-keys hold it.
        let public = hex(key.verifying_key().as_bytes());
        assert_eq!(parse_secret(&format!("{public}\n")), Err(SecretError::Bare));
        assert_eq!(
            parse_secret(&format!("# laptop\ned25519:{public}\n")),
            Err(SecretError::Bare)
        );
        // A changed public line, a missing secret.
        let changed = text.replace(&public, &hex(&[0u8; 32]));
        assert!(matches!(
            parse_secret(&changed),
            Err(SecretError::Format(_))
        ));
        assert!(matches!(
            parse_secret(&format!("{HEADER}\npublic {public}\n")),
            Err(SecretError::Format(_))
        ));
        assert!(matches!(parse_secret(""), Err(SecretError::Format(_))));
    }

    #[test]
    fn the_first_format_is_read_when_its_seed_gives_the_named_key() {
        let key = SigningKey::from_bytes(&[9u8; 32]);
        let public = hex(key.verifying_key().as_bytes());
        let old = format!(
            "# gamesman ed25519 secret key: keep it private (public key {public})\n{}\n",
            hex(&key.to_bytes())
        );
        assert_eq!(parse_secret(&old).unwrap().to_bytes(), key.to_bytes());
        // The comment with another key's seed: refused.
        let other = old.replace(&hex(&key.to_bytes()), &hex(&[1u8; 32]));
        assert!(matches!(parse_secret(&other), Err(SecretError::Format(_))));
    }

    #[test]
    fn files_are_read_as_ssh_reads_a_private_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        let key = SigningKey::from_bytes(&[2u8; 32]);
        std::fs::write(&path, render(&key)).unwrap();
        for mode in [0o644, 0o640, 0o604, 0o666, 0o620] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            let e = read_secret(&path).unwrap_err();
            assert!(matches!(e, KeyFileError::TooOpen { .. }), "{mode:o}: {e}");
            assert!(e.to_string().contains("chmod 600"), "{e}");
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(read_secret(&path).unwrap().to_bytes(), key.to_bytes());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o400)).unwrap();
        assert_eq!(read_secret(&path).unwrap().to_bytes(), key.to_bytes());
        // A FIFO is refused at once (not waited on), a long file after its limit.
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read_secret(&fifo),
            Err(KeyFileError::NotRegular { .. })
        ));
        assert!(matches!(
            read_secret(dir.path()),
            Err(KeyFileError::NotRegular { .. })
        ));
        let long = dir.path().join("long");
        std::fs::write(&long, vec![b'#'; KEY_FILE_LIMIT as usize + 1]).unwrap();
        std::fs::set_permissions(&long, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(matches!(
            read_secret(&long),
            Err(KeyFileError::TooLarge { .. })
        ));
    }
}
