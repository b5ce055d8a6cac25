//! Who may write a database directory, and whose temporary files are whose.
//!
//! One writer at a time: a writer holds an advisory lock (flock, through `fs4`) on the
//! directory itself, so no lock file sits among the tier files and a killed writer's
//! lock goes with its process. Writers in one process share their lock (two handles on
//! one directory must not wait for each other forever). A writer names its temporary
//! files with its process id and removes only its own and those of processes that are
//! gone, never a live writer's.
//!
//! This file decides ownership; it must not read or write tier files.

use super::io;
use crate::engine::db::{DbError, DbResult, LockWait};
use std::collections::HashMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// The lock of one directory, held while any handle in this process writes it.
pub(super) struct WriterLock {
    /// The directory, opened for the lock; closing it releases the lock.
    _dir: File,
}

/// Locks held by this process, by directory.
static HELD: Mutex<Option<HashMap<PathBuf, Weak<WriterLock>>>> = Mutex::new(None);

/// Takes the writer's lock on `dir` (created if missing): at once, or after waiting
/// for another process's writer with a message, or fails under `LockWait::NoWait`.
pub(super) fn acquire(dir: &Path, wait: LockWait) -> DbResult<Arc<WriterLock>> {
    fs::create_dir_all(dir).map_err(io("creating", dir))?;
    let key = fs::canonicalize(dir).map_err(io("opening", dir))?;
    // Held across the wait: another thread of this process asking for the same
    // directory then shares the lock once it is ours.
    let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
    let held = held.get_or_insert_with(HashMap::new);
    if let Some(lock) = held.get(&key).and_then(Weak::upgrade) {
        return Ok(lock);
    }
    let handle = File::open(&key).map_err(io("opening", dir))?;
    // Through the trait by name: newer std has inherent `File::try_lock` too.
    match fs4::FileExt::try_lock(&handle) {
        Ok(()) => {}
        Err(fs4::TryLockError::WouldBlock) => match wait {
            LockWait::NoWait => {
                return Err(DbError::Locked {
                    dir: dir.to_path_buf(),
                })
            }
            LockWait::Wait => {
                log::warn!(
                    "another solve is writing {}: waiting for it to finish (pass --no-wait to stop instead)",
                    dir.display()
                );
                fs4::FileExt::lock(&handle).map_err(io("locking", dir))?;
                log::info!("the other solve has finished with {}", dir.display());
            }
        },
        Err(fs4::TryLockError::Error(e)) => return Err(io("locking", dir)(e)),
    }
    let lock = Arc::new(WriterLock { _dir: handle });
    held.retain(|_, w| w.strong_count() > 0);
    held.insert(key, Arc::downgrade(&lock));
    Ok(lock)
}

/// The name of a temporary file of this process for `final_name`.
pub(super) fn temporary_name(final_name: &str) -> String {
    format!("{final_name}.{}.tmp", std::process::id())
}

/// The process that wrote a temporary file (`tier_3.gz.1234.tmp`), if it says.
fn writer_of(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".tmp")?;
    stem.rsplit_once('.')?.1.parse().ok()
}

/// Whether process `pid` is running (and so may still be writing its files).
pub(super) fn is_running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks that the process
    // exists (EPERM: it exists but belongs to another user).
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Whether the temporary file `name` may be removed by this process: it is one of
/// ours left by a failed write, or its writer is gone (or unnamed, as older hosts
/// wrote them). A live writer's file is left alone.
pub(super) fn is_abandoned(name: &str) -> bool {
    match writer_of(name) {
        Some(pid) if pid == std::process::id() => true,
        Some(pid) => !is_running(pid),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporaries_name_their_writer() {
        let mine = temporary_name("tier_3.gz");
        assert_eq!(writer_of(&mine), Some(std::process::id()));
        assert!(is_abandoned(&mine));
        // PID 1 always runs; a pid above the kernel's maximum never does.
        assert!(!is_abandoned("tier_3.gz.1.tmp"));
        assert!(is_abandoned("tier_3.gz.4194305000.tmp"));
        assert!(is_abandoned("tier_3.gz.tmp"));
    }

    #[test]
    fn handles_in_one_process_share_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let a = acquire(dir.path(), LockWait::NoWait).unwrap();
        let b = acquire(dir.path(), LockWait::NoWait).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        drop((a, b));
        // Released with the last handle: a new lock is a new one.
        let c = acquire(dir.path(), LockWait::NoWait).unwrap();
        drop(c);
    }
}
