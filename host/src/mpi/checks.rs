//! The checks every rank passes before a distributed solve starts: all ranks loaded
//! the same game (a fingerprint of module, variant, plugin-api version and tier graph),
//! and all ranks see the same database directory (marker files written by one rank
//! and looked for by the others).
//!
//! Plain data and files, no MPI: the manager and workers exchange what these
//! functions produce. A failed check is a refusal with a reason a user can act on.

use crate::engine::game::GameHandle;
use crate::engine::tier::TierGraph;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What must be equal on every rank for their tier files to fit together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Module name.
    pub module: String,
    /// Variant name.
    pub variant: String,
    /// The plugin-api version the module was built against.
    pub api_version: String,
    /// Whether records carry WinBy.
    pub winby: bool,
    /// Tiers reachable from the initial tier.
    pub tiers: usize,
    /// Positions over all tiers.
    pub positions: u64,
    /// CRC-32 of every tier's number, size, loop flag and children, in solve order.
    pub graph_crc: u32,
}

impl Fingerprint {
    /// The fingerprint of a game whose tier graph is `graph`.
    pub fn of(game: &GameHandle, api_version: &str, graph: &TierGraph) -> Fingerprint {
        let mut h = crc32fast::Hasher::new();
        for n in &graph.order {
            h.update(&n.tier.0.to_le_bytes());
            h.update(&n.size.to_le_bytes());
            h.update(&[n.loopy as u8]);
            h.update(&(n.children.len() as u64).to_le_bytes());
            for c in &n.children {
                h.update(&c.0.to_le_bytes());
            }
        }
        Fingerprint {
            module: game.module_name().to_string(),
            variant: game.variant().to_string(),
            api_version: api_version.to_string(),
            winby: game.supports_winby(),
            tiers: graph.order.len(),
            positions: graph.total_positions(),
            graph_crc: h.finalize(),
        }
    }

    /// `None` when equal; otherwise what differs, `self` being the reference.
    pub fn difference(&self, other: &Fingerprint) -> Option<String> {
        let field = |what: &str, mine: &dyn std::fmt::Display, theirs: &dyn std::fmt::Display| {
            Some(format!("{what} {theirs} instead of {mine}"))
        };
        if self.module != other.module {
            return field("module", &self.module, &other.module);
        }
        if self.variant != other.variant {
            return field("variant", &self.variant, &other.variant);
        }
        if self.api_version != other.api_version {
            return field(
                "a module built against plugin-api",
                &self.api_version,
                &other.api_version,
            );
        }
        if self.winby != other.winby {
            return field("WinBy support", &self.winby, &other.winby);
        }
        if self.tiers != other.tiers || self.positions != other.positions {
            return Some(format!(
                "a tier graph of {} tiers and {} positions instead of {} tiers and {} positions",
                other.tiers, other.positions, self.tiers, self.positions
            ));
        }
        if self.graph_crc != other.graph_crc {
            return Some(format!(
                "a tier graph with other tiers, sizes or children (checksum {:08x} instead of {:08x})",
                other.graph_crc, self.graph_crc
            ));
        }
        None
    }
}

/// The marker file rank `rank` writes for the check named `nonce`, in `dir`.
pub fn marker_path(dir: &Path, nonce: &str, rank: usize) -> PathBuf {
    dir.join(format!(".mpi-check-{nonce}-rank{rank}"))
}

fn marker_text(nonce: &str, rank: usize, host: &str) -> String {
    format!("gamesman shared-directory check {nonce}: rank {rank} on {host}\n")
}

/// A marker written by this rank, removed again when dropped.
#[derive(Debug)]
pub struct Marker {
    path: PathBuf,
}

impl Marker {
    /// Writes this rank's marker into `dir` (created if missing) and syncs it, so
    /// ranks on other nodes can see it.
    pub fn write(dir: &Path, nonce: &str, rank: usize, host: &str) -> Result<Marker, String> {
        fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot create the database directory {}: {e}",
                dir.display()
            )
        })?;
        let path = marker_path(dir, nonce, rank);
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let mut f = fs::File::create(&path)?;
            f.write_all(marker_text(nonce, rank, host).as_bytes())?;
            f.sync_all()?;
            if let Ok(d) = fs::File::open(dir) {
                let _ = d.sync_all();
            }
            Ok(())
        };
        write().map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Marker { path })
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Waits up to `wait` for the marker rank `rank` on `host` wrote into its copy of
/// `dir` to appear in ours. Network filesystems may cache a directory listing for a
/// few seconds, so a missing marker is looked for again until the time is up.
pub fn await_marker(
    dir: &Path,
    nonce: &str,
    rank: usize,
    host: &str,
    wait: Duration,
) -> Result<(), String> {
    let path = marker_path(dir, nonce, rank);
    let expected = marker_text(nonce, rank, host);
    let deadline = Instant::now() + wait;
    loop {
        match fs::read_to_string(&path) {
            Ok(text) if text == expected => return Ok(()),
            Ok(_) if Instant::now() >= deadline => {
                return Err(format!(
                    "{} holds another run's marker, not the one rank {rank} on {host} wrote",
                    path.display()
                ))
            }
            Err(e) if Instant::now() >= deadline => {
                return Err(format!(
                    "{} (written by rank {rank} on {host}) is not visible here after {:.0?}: {e}",
                    path.display(),
                    wait
                ))
            }
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// How long a rank waits for another rank's marker: `GAMESMAN_MPI_SHARED_WAIT`
/// seconds when set (for filesystems with long attribute caching, or quick tests),
/// else 20 s.
pub fn marker_wait() -> Duration {
    std::env::var("GAMESMAN_MPI_SHARED_WAIT")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(20))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp() -> Fingerprint {
        Fingerprint {
            module: "quixo".into(),
            variant: "3x3".into(),
            api_version: "0.1.1".into(),
            winby: false,
            tiers: 55,
            positions: 39366,
            graph_crc: 0xdead_beef,
        }
    }

    #[test]
    fn fingerprints_name_what_differs() {
        let a = fp();
        assert_eq!(a.difference(&a.clone()), None);
        let b = Fingerprint {
            variant: "4x4".into(),
            ..fp()
        };
        assert_eq!(
            a.difference(&b).as_deref(),
            Some("variant 4x4 instead of 3x3")
        );
        let c = Fingerprint {
            api_version: "0.1.0".into(),
            ..fp()
        };
        assert_eq!(
            a.difference(&c).as_deref(),
            Some("a module built against plugin-api 0.1.0 instead of 0.1.1")
        );
        let d = Fingerprint {
            graph_crc: 1,
            ..fp()
        };
        assert!(a
            .difference(&d)
            .unwrap()
            .contains("checksum 00000001 instead of deadbeef"));
        let e = Fingerprint { tiers: 54, ..fp() };
        assert!(a
            .difference(&e)
            .unwrap()
            .starts_with("a tier graph of 54 tiers"));
    }

    #[test]
    fn markers_are_seen_in_the_same_directory_and_removed_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("db");
        let m = Marker::write(&sub, "n1", 0, "nodeA").unwrap();
        assert!(m.path().is_file());
        await_marker(&sub, "n1", 0, "nodeA", Duration::ZERO).unwrap();
        let path = m.path().to_path_buf();
        drop(m);
        assert!(!path.exists());
    }

    #[test]
    fn a_missing_or_foreign_marker_is_refused_after_the_wait() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let _m = Marker::write(a.path(), "n2", 0, "nodeA").unwrap();
        let t0 = Instant::now();
        let err = await_marker(b.path(), "n2", 0, "nodeA", Duration::from_millis(200)).unwrap_err();
        assert!(t0.elapsed() >= Duration::from_millis(200));
        assert!(err.contains("is not visible here"), "{err}");
        assert!(err.contains("rank 0 on nodeA"), "{err}");
        // Same name, other contents (another run's leftover): refused too.
        fs::write(marker_path(b.path(), "n2", 0), "something else").unwrap();
        let err = await_marker(b.path(), "n2", 0, "nodeA", Duration::ZERO).unwrap_err();
        assert!(err.contains("another run's marker"), "{err}");
    }
}
