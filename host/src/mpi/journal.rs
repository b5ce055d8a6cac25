//! Which rank holds which tier during a distributed solve, as the manager knows it:
//! kept in memory for the message printed when the job is ended, and as a file in
//! the database directory so a run that was killed outright (no chance to print)
//! still tells the next run what was unfinished.
//!
//! The file is replaced atomically (written aside, then renamed) at every change and
//! removed when the run ends cleanly. Bookkeeping only: no MPI, no solving.

use gamesman_plugin_api::Tier;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The journal's file name inside the database directory.
pub const FILE_NAME: &str = ".mpi-held-tiers";

/// A worker rank as the manager knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankInfo {
    /// Its rank.
    pub rank: usize,
    /// Its process id.
    pub pid: u32,
    /// The node it runs on.
    pub host: String,
    /// Its solver threads.
    pub threads: usize,
}

impl std::fmt::Display for RankInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {} (pid {} on {})", self.rank, self.pid, self.host)
    }
}

/// One tier being solved.
#[derive(Clone, Debug)]
pub struct Held {
    /// The tier.
    pub tier: Tier,
    /// Its name.
    pub name: String,
    /// Its positions.
    pub positions: u64,
    /// Since when.
    pub since: Instant,
}

/// The tiers held by ranks, mirrored to a file.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    header: String,
    held: BTreeMap<usize, (RankInfo, Held)>,
}

impl Journal {
    /// A journal in `dir`; `header` says which run it belongs to. Nothing is written
    /// until the first tier is handed out.
    pub fn new(dir: &Path, header: String) -> Journal {
        Journal {
            path: dir.join(FILE_NAME),
            header,
            held: BTreeMap::new(),
        }
    }

    /// What a journal left in `dir` by an earlier run says, if one is there: that
    /// run did not end cleanly.
    pub fn leftover(dir: &Path) -> Option<String> {
        fs::read_to_string(dir.join(FILE_NAME)).ok()
    }

    /// `rank` starts solving `held`.
    pub fn hold(&mut self, rank: &RankInfo, held: Held) -> std::io::Result<()> {
        self.held.insert(rank.rank, (rank.clone(), held));
        self.save()
    }

    /// `rank` is done with its tier (solved or failed); returns what it held.
    pub fn release(&mut self, rank: usize) -> std::io::Result<Option<Held>> {
        let h = self.held.remove(&rank).map(|(_, h)| h);
        self.save()?;
        Ok(h)
    }

    /// The tier `rank` holds.
    pub fn held_by(&self, rank: usize) -> Option<&Held> {
        self.held.get(&rank).map(|(_, h)| h)
    }

    /// Whether any rank holds a tier.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The held tiers, one clause per rank: "rank 1 (pid 7 on n1) held tier 17
    /// (3 X 2 O) for 2.31s", or "no rank held a tier".
    pub fn describe(&self) -> String {
        if self.held.is_empty() {
            return "no rank held a tier".into();
        }
        let parts: Vec<String> = self
            .held
            .values()
            .map(|(r, h)| {
                format!(
                    "{r} held tier {} ({}, {} positions) for {:.2?}",
                    h.tier,
                    h.name,
                    h.positions,
                    h.since.elapsed()
                )
            })
            .collect();
        parts.join("; ")
    }

    fn save(&self) -> std::io::Result<()> {
        let mut text = self.header.clone();
        for (r, h) in self.held.values() {
            text.push_str(&format!(
                "{r}: tier {} ({}, {} positions)\n",
                h.tier, h.name, h.positions
            ));
        }
        // Not `.tmp`: the database removes those as leftovers of its own writes.
        let aside = self.path.with_extension("new");
        let mut f = fs::File::create(&aside)?;
        f.write_all(text.as_bytes())?;
        drop(f);
        fs::rename(&aside, &self.path)
    }

    /// Removes the file: the run ended cleanly.
    pub fn remove(&self) -> std::io::Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(r: usize) -> RankInfo {
        RankInfo {
            rank: r,
            pid: 100 + r as u32,
            host: "n1".into(),
            threads: 1,
        }
    }

    fn held(t: u64) -> Held {
        Held {
            tier: Tier(t),
            name: format!("tier{t}"),
            positions: 10 * t,
            since: Instant::now(),
        }
    }

    #[test]
    fn the_file_follows_the_held_tiers() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::new(dir.path(), "run of test\n".into());
        assert_eq!(Journal::leftover(dir.path()), None);
        assert_eq!(j.describe(), "no rank held a tier");
        j.hold(&rank(2), held(17)).unwrap();
        j.hold(&rank(1), held(5)).unwrap();
        let text = Journal::leftover(dir.path()).unwrap();
        assert_eq!(
            text,
            "run of test\nrank 1 (pid 101 on n1): tier 5 (tier5, 50 positions)\nrank 2 (pid 102 on n1): tier 17 (tier17, 170 positions)\n"
        );
        let d = j.describe();
        assert!(
            d.starts_with("rank 1 (pid 101 on n1) held tier 5 (tier5, 50 positions) for "),
            "{d}"
        );
        assert!(d.contains("; rank 2 (pid 102 on n1) held tier 17"), "{d}");
        assert_eq!(j.held_by(2).unwrap().tier, Tier(17));
        assert_eq!(j.release(2).unwrap().unwrap().tier, Tier(17));
        assert!(j.held_by(2).is_none());
        assert!(!Journal::leftover(dir.path()).unwrap().contains("tier 17"));
        j.release(1).unwrap();
        assert!(j.is_empty());
        j.remove().unwrap();
        assert_eq!(Journal::leftover(dir.path()), None);
        j.remove().unwrap();
        // Only the journal itself is left behind while running, never its aside copy.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert!(names.is_empty());
    }
}
