//! What the system says about memory: the machine's total and available memory and a
//! cgroup's room (the budget's defaults), and the process's peak (the measured side of
//! the report), and the largest resident size of one stretch of it (`ResidentWatch`).
//! One reader of `/proc` key lines (`proc_kib`). It must import nothing of the solver.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// The value in KiB of the line `key:` of a `/proc` file such as `/proc/meminfo` or
/// `/proc/self/status` (`None` when the file or key is missing or unreadable).
pub fn proc_kib(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The process's resident high-water mark (`VmHWM`), in bytes.
pub fn peak_rss() -> Option<u64> {
    Some(proc_kib("/proc/self/status", "VmHWM")? * 1024)
}

/// Memory this process may still use, in bytes, and where the figure comes from:
/// `MemAvailable` of /proc/meminfo, lowered by a cgroup's limit when one is set.
pub fn available() -> Option<(u64, String)> {
    let kib = proc_kib("/proc/meminfo", "MemAvailable")?;
    let mut best = (kib * 1024, "MemAvailable in /proc/meminfo".to_string());
    if let Some((room, source)) = cgroup_room() {
        if room < best.0 {
            best = (room, source);
        }
    }
    Some(best)
}

fn read_u64(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A cgroup's limit less what it uses (page cache that can be dropped not counted).
pub fn cgroup_room() -> Option<(u64, String)> {
    cgroup_room_at(Path::new("/"))
}

/// `cgroup_room` with the file system rooted at `root` (tests give a made-up tree).
///
/// The groups are those `/proc/self/cgroup` names, version 2 (`0::/path`) and version
/// 1's `memory` controller, each from its own directory up to its mount's root: a
/// limit set on a parent group binds its children, and inside a container the group's
/// own directory is the mount's root (the path named may not exist there). The
/// tightest room of every limit found wins; a group without a limit, or without the
/// controller's files at all (a version-2 line on a version-1 machine), is skipped.
pub fn cgroup_room_at(root: &Path) -> Option<(u64, String)> {
    let groups = std::fs::read_to_string(root.join("proc/self/cgroup")).unwrap_or_default();
    let v2 = root.join("sys/fs/cgroup");
    let v1 = root.join("sys/fs/cgroup/memory");
    let mut dirs: Vec<(PathBuf, u32)> = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (mount, version) = if controllers.is_empty() {
            (&v2, 2)
        } else if controllers.split(',').any(|c| c == "memory") {
            (&v1, 1)
        } else {
            continue;
        };
        // The group's directory and every parent up to the mount's root; `..` is not
        // followed (the path comes from the kernel, but a tree may be made up).
        let mut rel = PathBuf::new();
        let mut chain = vec![mount.clone()];
        for part in path
            .split('/')
            .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        {
            rel.push(part);
            chain.push(mount.join(&rel));
        }
        dirs.extend(chain.into_iter().map(|d| (d, version)));
    }
    dirs.push((v2, 2));
    dirs.push((v1, 1));
    dirs.sort();
    dirs.dedup();
    dirs.into_iter()
        .filter_map(|(dir, version)| group_room(&dir, version))
        .min_by_key(|(room, _)| *room)
}

/// The room of one cgroup directory with a memory limit (`None`: no limit, or not a
/// group of that version).
fn group_room(dir: &Path, version: u32) -> Option<(u64, String)> {
    let (limit, usage, inactive) = if version == 2 {
        let limit = std::fs::read_to_string(dir.join("memory.max")).ok()?;
        // `max` is no limit.
        let limit = limit.trim().parse::<u64>().ok()?;
        (
            limit,
            read_u64(&dir.join("memory.current")),
            "inactive_file",
        )
    } else {
        let limit = read_u64(&dir.join("memory.limit_in_bytes"))?;
        // No limit reads as a huge number.
        if limit >= 1 << 60 {
            return None;
        }
        (
            limit,
            read_u64(&dir.join("memory.usage_in_bytes")),
            "total_inactive_file",
        )
    };
    let cache = std::fs::read_to_string(dir.join("memory.stat"))
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix(inactive)?
                    .strip_prefix(' ')?
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
        })
        .unwrap_or(0);
    let used = usage.unwrap_or(0).saturating_sub(cache);
    Some((
        limit.saturating_sub(used),
        format!("the memory limit of cgroup {}", dir.display()),
    ))
}

/// Room under the address-space limit (`ulimit -v`, `RLIMIT_AS`): the limit less what
/// the process maps now (`VmSize`); `None` when there is no limit. Every allocation
/// counts against it, resident or not, so the budget must too.
pub fn address_space_room() -> Option<(u64, String)> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // `rlim_t` is u64 on Linux x86-64, not on every target.
    #[allow(clippy::unnecessary_cast)]
    let limit = r.rlim_cur as u64;
    let mapped = proc_kib("/proc/self/status", "VmSize").map_or(0, |k| k * 1024);
    Some((
        limit.saturating_sub(mapped),
        format!(
            "the address-space limit (ulimit -v) of {} MiB, less the {} MiB this process maps",
            limit >> 20,
            mapped >> 20
        ),
    ))
}

/// The process's resident set now (`VmRSS`), in bytes: its binary, the module's code
/// and what it has allocated so far.
pub fn resident() -> Option<u64> {
    Some(proc_kib("/proc/self/status", "VmRSS")? * 1024)
}

/// How often a `ResidentWatch` reads the resident size.
pub const WATCH_EVERY: Duration = Duration::from_millis(50);

/// The largest resident size seen while it runs, read by its own thread every
/// `WATCH_EVERY`: the peak of one stretch of a solve (a tier, a group of tiers). The
/// process's high-water mark cannot give it once an earlier stretch went higher, and
/// is never restarted (`time` and a parent's `wait4` read it). A rise and fall shorter
/// than the interval can be missed: it is a lower bound of the stretch's peak.
pub struct ResidentWatch {
    max: Arc<AtomicU64>,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    read: fn() -> Option<u64>,
}

impl ResidentWatch {
    /// Starts watching this process's resident size (`resident`).
    pub fn start() -> ResidentWatch {
        ResidentWatch::with(resident, WATCH_EVERY)
    }

    /// Starts watching what `read` says, every `every`.
    fn with(read: fn() -> Option<u64>, every: Duration) -> ResidentWatch {
        let max = Arc::new(AtomicU64::new(read().unwrap_or(0)));
        let (stop, stopped) = mpsc::channel::<()>();
        let seen = Arc::clone(&max);
        // Without a thread (none can be started) the stretch's ends are still read.
        let thread = std::thread::Builder::new()
            .name("resident-watch".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if let Some(now) = read() {
                        seen.fetch_max(now, Ordering::Relaxed);
                    }
                }
            })
            .ok();
        ResidentWatch {
            max,
            stop: Some(stop),
            thread,
            read,
        }
    }

    /// Stops the watch: the largest size seen, in bytes (`None` when the system never
    /// told it).
    pub fn finish(mut self) -> Option<u64> {
        self.halt();
        if let Some(now) = (self.read)() {
            self.max.fetch_max(now, Ordering::Relaxed);
        }
        Some(self.max.load(Ordering::Relaxed)).filter(|&m| m > 0)
    }

    fn halt(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for ResidentWatch {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Gives the C allocator's free memory back to the system (glibc's `malloc_trim`).
/// Freed blocks below glibc's mmap threshold, which rises to 32 MiB once a large block
/// has been freed, stay in its arenas (one per thread) and count as resident: called
/// between groups of tiers, so one group's freed arrays do not sit under the next
/// group's peak. A no-op where the C library is not glibc.
pub fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks and shrinks the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The machine's memory (`MemTotal` of /proc/meminfo), in bytes.
pub fn total() -> Option<u64> {
    Some(proc_kib("/proc/meminfo", "MemTotal")? * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_measured() {
        let a = peak_rss().expect("Linux reports VmHWM");
        let v = vec![1u8; 256 << 20];
        std::hint::black_box(&v);
        let b = peak_rss().unwrap();
        assert!(b >= a.max(256 << 20), "{a} {b}");
    }

    #[test]
    fn a_watch_sees_a_stretchs_own_peak() {
        // Scripted readings: the watch keeps the largest of those it read, and a later
        // watch starts afresh where the high-water mark would not.
        static READS: AtomicU64 = AtomicU64::new(0);
        fn scripted() -> Option<u64> {
            let n = READS.fetch_add(1, Ordering::Relaxed);
            Some(if n < 5 { 100 + 50 * n } else { 10 })
        }
        let watch = ResidentWatch::with(scripted, Duration::from_millis(1));
        while READS.load(Ordering::Relaxed) < 8 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(watch.finish(), Some(300));
        let later = ResidentWatch::with(scripted, Duration::from_millis(1));
        assert_eq!(later.finish(), Some(10));
        fn silent() -> Option<u64> {
            None
        }
        assert_eq!(ResidentWatch::with(silent, WATCH_EVERY).finish(), None);
    }

    #[test]
    fn a_watch_sees_memory_held_for_a_while() {
        let watch = ResidentWatch::start();
        let v = vec![1u8; 256 << 20];
        // Long enough for the watch's thread to run on a loaded machine.
        std::thread::sleep(10 * WATCH_EVERY);
        std::hint::black_box(&v);
        drop(v);
        let seen = watch.finish().expect("Linux reports VmRSS");
        assert!(seen >= 256 << 20, "{seen}");
    }

    #[test]
    fn this_machine_reports_available_memory() {
        let (b, source) = available().expect("Linux reports MemAvailable");
        assert!(b > 0, "{source}");
    }

    /// A made-up root: `files` are (path under the root, contents).
    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    #[test]
    fn a_version_1_limit_at_the_mount_root_counts_on_a_hybrid_machine() {
        // A container on a cgroup v1 host: the group's path does not exist inside, and
        // the v2 line (`0::/`) has no memory.max. The limit is 290 MiB, 10 MiB used of
        // which 2 MiB is inactive page cache.
        let root = tree(&[
            (
                "proc/self/cgroup",
                "12:memory:/docker/4f1c\n11:cpu,cpuacct:/docker/4f1c\n0::/\n",
            ),
            ("sys/fs/cgroup/memory/memory.limit_in_bytes", "304087040\n"),
            ("sys/fs/cgroup/memory/memory.usage_in_bytes", "10485760\n"),
            (
                "sys/fs/cgroup/memory/memory.stat",
                "cache 3000000\ntotal_inactive_file 2097152\n",
            ),
        ]);
        let (room, source) = cgroup_room_at(root.path()).expect("the v1 limit");
        assert_eq!(room, 304087040 - (10485760 - 2097152));
        assert!(source.ends_with("sys/fs/cgroup/memory"), "{source}");
    }

    #[test]
    fn a_version_2_limit_on_a_parent_group_binds_its_child() {
        let root = tree(&[
            ("proc/self/cgroup", "0::/a/b\n"),
            ("sys/fs/cgroup/memory.max", "max\n"),
            ("sys/fs/cgroup/a/memory.max", "1073741824\n"),
            ("sys/fs/cgroup/a/memory.current", "104857600\n"),
            (
                "sys/fs/cgroup/a/memory.stat",
                "inactive_file_x 9\ninactive_file 4096\n",
            ),
            ("sys/fs/cgroup/a/b/memory.max", "max\n"),
            ("sys/fs/cgroup/a/b/memory.current", "5000\n"),
        ]);
        let (room, source) = cgroup_room_at(root.path()).expect("the parent's limit");
        assert_eq!(room, 1073741824 - (104857600 - 4096));
        assert!(source.ends_with("sys/fs/cgroup/a"), "{source}");
        // A tighter limit on the child wins.
        std::fs::write(root.path().join("sys/fs/cgroup/a/b/memory.max"), "65536\n").unwrap();
        assert_eq!(cgroup_room_at(root.path()).unwrap().0, 65536 - 5000);
    }

    #[test]
    fn no_limit_or_garbage_gives_no_room() {
        let root = tree(&[
            ("proc/self/cgroup", "0::/../../etc\ngarbage\n7:memory\n"),
            ("sys/fs/cgroup/memory.max", "max\n"),
            (
                "sys/fs/cgroup/memory/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
            ("etc/memory.max", "4096\n"),
        ]);
        assert_eq!(cgroup_room_at(root.path()), None);
        std::fs::write(root.path().join("sys/fs/cgroup/memory.max"), "lots\n").unwrap();
        assert_eq!(cgroup_room_at(root.path()), None);
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(cgroup_room_at(empty.path()), None);
    }

    #[test]
    fn proc_keys_are_read_in_bytes() {
        assert!(total().expect("Linux reports MemTotal") > 1 << 20);
        assert_eq!(proc_kib("/proc/meminfo", "NoSuchKey"), None);
        assert_eq!(proc_kib("/nonexistent/meminfo", "MemTotal"), None);
    }
}
