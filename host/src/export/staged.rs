//! An export's files are written under a temporary name beside the destination
//! (`.NAME.PID.export-tmp`) and renamed into place when complete. This file keeps
//! that safe against what may be at the destination and against interruption:
//! - the destination must be absent or a regular file (checked before any work and
//!   again just before the rename): never a device, FIFO, socket, directory or
//!   symbolic link, which a rename would replace (run as root, `--out /dev/full`
//!   replaced the device node);
//! - every temporary of this process is listed, so a front end's signal handler can
//!   remove them (`abandon_unfinished`) before the process ends, and no rename happens
//!   after that;
//! - temporaries left by exports whose process is gone (killed, or stopped by a
//!   power cut) are removed by the next export into the same directory.
//!
//! It must not write rows or know the formats.

use super::ExportError;
use crate::engine::db::file::process_is_running;
use crate::engine::db::keyfile::kind_of;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The end of every export temporary's name.
const SUFFIX: &str = ".export-tmp";

/// Temporaries of this process not yet kept or removed; `None` once abandoned.
static UNFINISHED: Mutex<Option<Vec<PathBuf>>> = Mutex::new(Some(Vec::new()));

fn unfinished() -> std::sync::MutexGuard<'static, Option<Vec<PathBuf>>> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file of this process's exports under way and returns their
/// names; from then on no export of this process renames anything into place. For a
/// front end's SIGINT/SIGTERM handler, which ends the process next.
pub fn abandon_unfinished() -> Vec<PathBuf> {
    let mut guard = unfinished();
    let list = guard.take().unwrap_or_default();
    for p in &list {
        let _ = std::fs::remove_file(p);
    }
    list
}

/// Fails unless `dest` is absent or a regular file (not followed if a symbolic link).
pub fn check_destination(dest: &Path) -> Result<(), ExportError> {
    match std::fs::symlink_metadata(dest) {
        Ok(m) => match kind_of(m.file_type()) {
            None => Ok(()),
            Some(kind) => Err(ExportError::Destination {
                path: dest.to_path_buf(),
                kind,
            }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ExportError::write(dest, e)),
    }
}

/// The process that wrote the export temporary `name`, if it is one.
fn writer_of(name: &str) -> Option<u32> {
    let stem = name.strip_prefix('.')?.strip_suffix(SUFFIX)?;
    stem.rsplit_once('.')?.1.parse().ok()
}

/// Removes the export temporaries in `dir` whose process is gone; their names.
pub fn reclaim_stale(dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return removed;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(pid) = writer_of(&name) else {
            continue;
        };
        // Only regular files: a link of that name is not ours to follow or remove.
        if pid == std::process::id()
            || process_is_running(pid)
            || !e.file_type().is_ok_and(|t| t.is_file())
        {
            continue;
        }
        if std::fs::remove_file(e.path()).is_ok() {
            log::warn!(
                "removed {}, left by an export (process {pid}) that did not finish",
                e.path().display()
            );
            removed.push(e.path());
        }
    }
    removed
}

/// A file written under a temporary name and renamed into place by `keep`; removed
/// when dropped before that (an error or a panic).
pub(super) struct Staged {
    pub(super) temp: PathBuf,
    pub(super) dest: PathBuf,
    kept: bool,
}

impl Staged {
    /// Checks `dest` and names the temporary (nothing is created yet), reclaiming the
    /// temporaries of dead exports in its directory.
    pub(super) fn new(dest: &Path) -> Result<Staged, ExportError> {
        let name = dest
            .file_name()
            .ok_or_else(|| ExportError::write(dest, "not a file name"))?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(ExportError::write(
                dest,
                format!("the directory {} does not exist", dir.display()),
            ));
        }
        check_destination(dest)?;
        reclaim_stale(&dir);
        let temp = dir.join(format!(
            ".{}.{}{SUFFIX}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let _ = std::fs::remove_file(&temp);
        match unfinished().as_mut() {
            Some(list) => list.push(temp.clone()),
            None => return Err(ExportError::write(dest, "the export was interrupted")),
        }
        Ok(Staged {
            temp,
            dest: dest.to_path_buf(),
            kept: false,
        })
    }

    /// The temporary's size now (for an error's message).
    pub(super) fn written(&self) -> u64 {
        std::fs::metadata(&self.temp).map(|m| m.len()).unwrap_or(0)
    }

    /// Syncs the temporary and renames it into place; its size.
    pub(super) fn keep(mut self) -> Result<u64, ExportError> {
        let f = std::fs::File::open(&self.temp).map_err(|e| ExportError::write(&self.dest, e))?;
        f.sync_all()
            .map_err(|e| ExportError::write(&self.dest, e))?;
        let bytes = f.metadata().map(|m| m.len()).unwrap_or(0);
        // Held across the check and the rename: a signal handler's removal waits.
        let mut guard = unfinished();
        let Some(list) = guard.as_mut() else {
            return Err(ExportError::write(&self.dest, "the export was interrupted"));
        };
        // Checked again: something may have been put there while the rows were written.
        check_destination(&self.dest)?;
        std::fs::rename(&self.temp, &self.dest).map_err(|e| ExportError::write(&self.dest, e))?;
        list.retain(|p| p != &self.temp);
        self.kept = true;
        Ok(bytes)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.temp);
            if let Some(list) = unfinished().as_mut() {
                list.retain(|p| p != &self.temp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staged_file_appears_only_when_kept() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("x.csv");
        let staged = Staged::new(&dest).unwrap();
        std::fs::write(&staged.temp, b"half").unwrap();
        assert!(!dest.exists());
        drop(staged);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let staged = Staged::new(&dest).unwrap();
        std::fs::write(&staged.temp, b"whole").unwrap();
        assert_eq!(staged.keep().unwrap(), 5);
        assert_eq!(std::fs::read(&dest).unwrap(), b"whole");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/dir/x.csv");
        assert!(matches!(
            Staged::new(&missing),
            Err(ExportError::Write { .. })
        ));
    }

    #[test]
    fn only_absent_or_regular_destinations_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.csv");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let link = dir.path().join("null.csv");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let sub = dir.path().join("sub.csv");
        std::fs::create_dir(&sub).unwrap();
        for (p, kind) in [
            (&fifo, "a FIFO (named pipe)"),
            (&link, "a symbolic link"),
            (&sub, "a directory"),
        ] {
            match Staged::new(p) {
                Err(ExportError::Destination { kind: k, .. }) => assert_eq!(k, kind),
                other => panic!("{}: {:?}", p.display(), other.map(|s| s.temp.clone())),
            }
        }
        // Something put at the destination while the rows were written is not replaced.
        let dest = dir.path().join("late.csv");
        let staged = Staged::new(&dest).unwrap();
        std::fs::write(&staged.temp, b"rows").unwrap();
        std::fs::create_dir(&dest).unwrap();
        let temp = staged.temp.clone();
        assert!(matches!(
            staged.keep(),
            Err(ExportError::Destination { .. })
        ));
        assert!(dest.is_dir() && !temp.exists());
    }

    #[test]
    fn temporaries_of_dead_exports_are_reclaimed() {
        let dir = tempfile::tempdir().unwrap();
        // PID 1 always runs; a pid above the kernel's maximum never does.
        let live = dir.path().join(".a.csv.1.export-tmp");
        let dead = dir.path().join(".a.csv.4194305000.export-tmp");
        let other = dir.path().join("a.csv.4194305000.tmp");
        for p in [&live, &dead, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        assert_eq!(reclaim_stale(dir.path()), vec![dead.clone()]);
        assert!(live.exists() && !dead.exists() && other.exists());
        assert_eq!(writer_of(".b.parquet.77.export-tmp"), Some(77));
        assert_eq!(writer_of("b.parquet.77.export-tmp"), None);
    }
}
