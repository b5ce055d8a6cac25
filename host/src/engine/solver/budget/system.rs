//! What the system says about memory: the machine's total and available memory and a
//! cgroup's room (the budget's defaults), and the process's peak (the measured side of
//! the report). One reader of `/proc` key lines (`proc_kib`). It must import nothing
//! of the solver.

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

fn read_u64(path: &str) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A cgroup's limit less what it uses (page cache that can be dropped not counted).
pub fn cgroup_room() -> Option<(u64, String)> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut candidates = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        if controllers.is_empty() {
            candidates.push((format!("/sys/fs/cgroup{path}"), 2));
        } else if controllers.split(',').any(|c| c == "memory") {
            candidates.push((format!("/sys/fs/cgroup/memory{path}"), 1));
        }
    }
    // Inside a container the group's own directory is the mount's root.
    candidates.push(("/sys/fs/cgroup".into(), 2));
    candidates.push(("/sys/fs/cgroup/memory".into(), 1));
    for (dir, version) in candidates {
        let (limit, usage, stat, inactive) = if version == 2 {
            let limit = std::fs::read_to_string(format!("{dir}/memory.max")).ok()?;
            if limit.trim() == "max" {
                continue;
            }
            let Ok(limit) = limit.trim().parse::<u64>() else {
                continue;
            };
            (
                limit,
                read_u64(&format!("{dir}/memory.current")),
                format!("{dir}/memory.stat"),
                "inactive_file",
            )
        } else {
            let Some(limit) = read_u64(&format!("{dir}/memory.limit_in_bytes")) else {
                continue;
            };
            // No limit reads as a huge number.
            if limit >= 1 << 60 {
                continue;
            }
            (
                limit,
                read_u64(&format!("{dir}/memory.usage_in_bytes")),
                format!("{dir}/memory.stat"),
                "total_inactive_file",
            )
        };
        let cache = std::fs::read_to_string(&stat)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix(inactive)?.trim().parse::<u64>().ok())
            })
            .unwrap_or(0);
        let used = usage.unwrap_or(0).saturating_sub(cache);
        return Some((
            limit.saturating_sub(used),
            format!("the memory limit of cgroup {dir}"),
        ));
    }
    None
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
    fn this_machine_reports_available_memory() {
        let (b, source) = available().expect("Linux reports MemAvailable");
        assert!(b > 0, "{source}");
    }

    #[test]
    fn proc_keys_are_read_in_bytes() {
        assert!(total().expect("Linux reports MemTotal") > 1 << 20);
        assert_eq!(proc_kib("/proc/meminfo", "NoSuchKey"), None);
        assert_eq!(proc_kib("/nonexistent/meminfo", "MemTotal"), None);
    }
}
