//! Signed manifests of published databases (`tiers.manifest` beside the tier files of
//! a `*_tierdb/` directory): each tier file's size and SHA-256, signed with ed25519 by
//! the publisher (`host db sign`), so a client that trusts the publisher's key refuses
//! any tier file a server (or anyone between) made up, even one with correct checksums.
//!
//! The format is text, one field per line:
//! ```text
//! gamesman tier manifest 1
//! directory mtttier_regular_tierdb
//! tier_0.gz 278 9f86d081884c7d65...
//! signed-by 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c
//! signature 5a1e...
//! ```
//! The signature covers every byte before the `signature` line. Keys are written as 64
//! hex digits (an `ed25519:` prefix is accepted). This file signs and checks; it must
//! not fetch anything or decide what a caller does with an unsigned database.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The manifest's file name inside a `*_tierdb/` directory.
pub const MANIFEST_NAME: &str = "tiers.manifest";
/// The first line of every manifest.
const FIRST_LINE: &str = "gamesman tier manifest 1";
/// The longest manifest read (a million tiers fit).
pub const MANIFEST_LIMIT: u64 = 128 << 20;

/// Why a manifest or a key is unusable.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ManifestError {
    /// The text is not a manifest.
    #[error("not a tier manifest: {0}")]
    Format(String),
    /// A key is not 64 hex digits.
    #[error("'{0}' is not an ed25519 key: give 64 hex digits (as `host db keygen` prints)")]
    BadKey(String),
    /// The signature does not verify with the key it names.
    #[error("its signature does not match its contents (the manifest was changed after signing)")]
    BadSignature,
    /// The signing key is not one the caller trusts.
    #[error("it is signed by key {0}, which is not trusted here: a key named by the server proves nothing (a forger signs with their own); trust a key only when its publisher gave it to you by another channel (--trust KEY or the trusted-keys file)")]
    NotTrusted(String),
}

/// One tier file's expected size and SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Bytes.
    pub size: u64,
    /// SHA-256 of the whole file.
    pub sha256: [u8; 32],
}

/// A parsed manifest (signature checked or not: see `Manifest::verify`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The `*_tierdb` directory it describes.
    pub directory: String,
    /// Tier file name (`tier_N.gz`) to its size and hash.
    pub entries: BTreeMap<String, Entry>,
    /// The key it says signed it.
    pub signed_by: VerifyingKey,
    signature: Signature,
    /// The signed bytes.
    signed: Vec<u8>,
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of a hex text of exactly `N` bytes.
fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    let text = text.trim();
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A public key from its text (64 hex digits, `ed25519:` prefix allowed).
pub fn parse_key(text: &str) -> Result<VerifyingKey, ManifestError> {
    let t = text.trim();
    let t = t.strip_prefix("ed25519:").unwrap_or(t);
    unhex::<32>(t)
        .and_then(|b| VerifyingKey::from_bytes(&b).ok())
        .ok_or_else(|| ManifestError::BadKey(text.chars().take(80).collect()))
}

/// A new secret key from the operating system's random source.
pub fn generate() -> SigningKey {
    use rand::RngCore;
    let mut seed = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut seed);
    SigningKey::from_bytes(&seed)
}

/// SHA-256 and length of everything `r` yields.
pub fn digest(mut r: impl Read) -> std::io::Result<([u8; 32], u64)> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    loop {
        let k = r.read(&mut buf)?;
        if k == 0 {
            return Ok((h.finalize().into(), n));
        }
        h.update(&buf[..k]);
        n += k as u64;
    }
}

/// SHA-256 and length of a file: a regular file only, opened without blocking (a
/// FIFO in a tier file's place is refused, not waited on).
pub fn digest_file(path: &Path) -> std::io::Result<([u8; 32], u64)> {
    digest(crate::engine::db::file::source::open_regular(path)?)
}

/// A streaming SHA-256 (for bytes written as they arrive).
pub struct Hasher(Sha256);

impl Hasher {
    /// An empty hash.
    pub fn new() -> Hasher {
        Hasher(Sha256::new())
    }
    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    /// The hash.
    pub fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

impl Manifest {
    /// Signs the entries of `directory` with `key`; `render` gives the file's text.
    pub fn sign(directory: &str, entries: BTreeMap<String, Entry>, key: &SigningKey) -> Manifest {
        let signed_by = key.verifying_key();
        let signed = body(directory, &entries, &signed_by).into_bytes();
        let signature = key.sign(&signed);
        Manifest {
            directory: directory.to_string(),
            entries,
            signed_by,
            signature,
            signed,
        }
    }

    /// The file's text.
    pub fn render(&self) -> String {
        format!(
            "{}signature {}\n",
            String::from_utf8_lossy(&self.signed),
            hex(&self.signature.to_bytes())
        )
    }

    /// Reads a manifest's text (the signature is checked against the key it names,
    /// but whether that key is trusted is `verify`'s question).
    pub fn parse(text: &[u8]) -> Result<Manifest, ManifestError> {
        let bad = |m: &str| ManifestError::Format(m.to_string());
        let text = std::str::from_utf8(text).map_err(|_| bad("not text"))?;
        let sig_at = text
            .rfind("\nsignature ")
            .ok_or_else(|| bad("no signature line"))?
            + 1;
        let (signed, sig_line) = text.split_at(sig_at);
        let sig = sig_line
            .strip_prefix("signature ")
            .and_then(|s| unhex::<64>(s.trim_end_matches('\n')))
            .ok_or_else(|| bad("the signature is not 128 hex digits"))?;
        let mut lines = signed.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err(bad("its first line is not 'gamesman tier manifest 1'"));
        }
        let directory = lines
            .next()
            .and_then(|l| l.strip_prefix("directory "))
            .filter(|d| d.ends_with("_tierdb") && !d.contains(['/', '\\']))
            .ok_or_else(|| bad("no 'directory NAME_tierdb' line"))?
            .to_string();
        let mut entries = BTreeMap::new();
        let mut signed_by = None;
        for line in lines {
            if let Some(k) = line.strip_prefix("signed-by ") {
                signed_by = Some(parse_key(k)?);
                continue;
            }
            if signed_by.is_some() {
                return Err(bad("lines after 'signed-by'"));
            }
            let f: Vec<&str> = line.split(' ').collect();
            let (name, size, hash) = match f.as_slice() {
                [n, s, h] => (*n, s.parse::<u64>().ok(), unhex::<32>(h)),
                _ => {
                    return Err(bad(&format!(
                        "a line is not 'tier_N.gz SIZE SHA256': {line}"
                    )))
                }
            };
            if !is_tier_name(name) {
                return Err(bad(&format!("{name} is not a tier file name")));
            }
            let (Some(size), Some(sha256)) = (size, hash) else {
                return Err(bad(&format!(
                    "a line is not 'tier_N.gz SIZE SHA256': {line}"
                )));
            };
            entries.insert(name.to_string(), Entry { size, sha256 });
        }
        let signed_by = signed_by.ok_or_else(|| bad("no 'signed-by KEY' line"))?;
        let signature = Signature::from_bytes(&sig);
        signed_by
            .verify(signed.as_bytes(), &signature)
            .map_err(|_| ManifestError::BadSignature)?;
        Ok(Manifest {
            directory,
            entries,
            signed_by,
            signature,
            signed: signed.as_bytes().to_vec(),
        })
    }

    /// Fails unless the manifest was signed by one of `trusted`.
    pub fn verify(&self, trusted: &[VerifyingKey]) -> Result<(), ManifestError> {
        if !trusted.contains(&self.signed_by) {
            return Err(ManifestError::NotTrusted(hex(self.signed_by.as_bytes())));
        }
        // Checked by `parse` already; again with the trusted key itself.
        self.signed_by
            .verify_strict(&self.signed, &self.signature)
            .map_err(|_| ManifestError::BadSignature)
    }

    /// Whether `bytes` hash (SHA-256) and measure as `name`'s entry says; the reason when not.
    pub fn check(&self, name: &str, sha256: &[u8; 32], size: u64) -> Result<(), String> {
        match self.entries.get(name) {
            None => Err(format!("{name} is not in the signed manifest")),
            Some(e) if e.size != size => Err(format!(
                "it is {size} bytes but the signed manifest says {}",
                e.size
            )),
            Some(e) if &e.sha256 != sha256 => Err(format!(
                "its SHA-256 is {} but the signed manifest says {}",
                hex(sha256),
                hex(&e.sha256)
            )),
            Some(_) => Ok(()),
        }
    }
}

/// The signed part of a manifest's text.
fn body(directory: &str, entries: &BTreeMap<String, Entry>, key: &VerifyingKey) -> String {
    let mut s = format!("{FIRST_LINE}\ndirectory {directory}\n");
    for (name, e) in entries {
        s.push_str(&format!("{name} {} {}\n", e.size, hex(&e.sha256)));
    }
    s.push_str(&format!("signed-by {}\n", hex(key.as_bytes())));
    s
}

/// Whether `name` is a tier file's name (`tier_N.gz`, N decimal digits).
pub fn is_tier_name(name: &str) -> bool {
    name.strip_prefix("tier_")
        .and_then(|s| s.strip_suffix(".gz"))
        .is_some_and(|d| !d.is_empty() && d.len() <= 20 && d.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(key: &SigningKey) -> Manifest {
        let mut entries = BTreeMap::new();
        let (sha256, size) = digest(&b"tier bytes"[..]).unwrap();
        entries.insert("tier_3.gz".to_string(), Entry { size, sha256 });
        Manifest::sign("mtttier_regular_tierdb", entries, key)
    }

    #[test]
    fn signed_manifests_read_back_and_changes_are_caught() {
        let key = SigningKey::from_bytes(&[7u8; 32]);
        let m = sample(&key);
        let text = m.render();
        let back = Manifest::parse(text.as_bytes()).unwrap();
        assert_eq!(back, m);
        back.verify(&[key.verifying_key()]).unwrap();
        let other = SigningKey::from_bytes(&[8u8; 32]).verifying_key();
        assert!(matches!(
            back.verify(&[other]),
            Err(ManifestError::NotTrusted(_))
        ));
        // One size changed after signing: the signature no longer matches.
        let forged = text.replace("tier_3.gz 10 ", "tier_3.gz 11 ");
        assert_eq!(
            Manifest::parse(forged.as_bytes()),
            Err(ManifestError::BadSignature)
        );
        let (h, n) = digest(&b"tier bytes"[..]).unwrap();
        assert_eq!(back.check("tier_3.gz", &h, n), Ok(()));
        let (h2, _) = digest(&b"tier bytez"[..]).unwrap();
        assert!(back
            .check("tier_3.gz", &h2, n)
            .unwrap_err()
            .contains("SHA-256"));
        assert!(back.check("tier_4.gz", &h, n).is_err());
        // SHA-256 of "abc" (FIPS 180-2).
        assert_eq!(
            hex(&digest(&b"abc"[..]).unwrap().0),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn keys_and_names() {
        let key = SigningKey::from_bytes(&[1u8; 32]);
        let text = hex(key.verifying_key().as_bytes());
        assert_eq!(
            parse_key(&format!("ed25519:{text}")).unwrap(),
            key.verifying_key()
        );
        assert!(parse_key("abc").is_err());
        assert!(is_tier_name("tier_12.gz") && !is_tier_name("tier_.gz"));
        assert!(!is_tier_name(".tier_1.gz") && !is_tier_name("tier_1.gz.tmp"));
    }
}
