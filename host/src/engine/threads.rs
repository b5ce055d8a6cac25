//! How many worker threads a run may use: `--threads` is checked against a cap before
//! any pool is built (ten thousand threads on two cores do not solve faster; building
//! them hung with no output), and `RAYON_NUM_THREADS` is held to the same cap.
//!
//! This file only counts threads; it must not start work on them.

/// Threads allowed per core the process may run on.
pub const PER_CORE: usize = 4;
/// The cap never goes below this, so small machines can still run the thread counts
/// the tests and benchmarks compare (1, 2, 7 threads) and oversubscribe a little.
pub const FLOOR: usize = 64;
/// The cap never goes above this, however many cores there are.
pub const CEILING: usize = 1024;

/// The cores this process may run on (affinity and cgroup quota included), at least 1.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads allowed: `PER_CORE` per core, at least `FLOOR`, at most
/// `CEILING`.
pub fn cap() -> usize {
    (PER_CORE * cores()).clamp(FLOOR, CEILING)
}

/// Checks a thread count; the message says what is allowed (the caller names the
/// setting: `--threads`, `RAYON_NUM_THREADS`).
pub fn check(n: usize) -> Result<usize, String> {
    let cap = cap();
    if n == 0 {
        return Err("at least 1 worker thread is needed".into());
    }
    if n > cap {
        let cores = cores();
        return Err(format!(
            "at most {cap} worker threads are allowed on this machine ({cores} core{}: {PER_CORE} per core, at least {FLOOR}, at most {CEILING})",
            if cores == 1 { "" } else { "s" }
        ));
    }
    Ok(n)
}

/// Parses a `--threads` value for the command line (clap's `value_parser`), so a bad
/// count is a usage error before anything starts.
pub fn parse_arg(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| {
        format!(
            "'{}' is not a number of threads",
            crate::engine::messages::shorten(text)
        )
    })?;
    check(n)
}

/// Builds the global worker pool with `threads` threads (checked), or leaves rayon's
/// default (one per core, or `RAYON_NUM_THREADS`, which is checked too).
pub fn configure(threads: Option<usize>) -> Result<usize, String> {
    let n = match threads {
        Some(n) => check(n).map_err(|e| format!("--threads {n}: {e}"))?,
        None => match std::env::var("RAYON_NUM_THREADS") {
            Ok(v) if !v.trim().is_empty() => {
                let n: usize = v.trim().parse().map_err(|_| {
                    format!(
                        "RAYON_NUM_THREADS={} is not a number of threads",
                        crate::engine::messages::shorten(&v)
                    )
                })?;
                // rayon reads 0 as "one per core".
                if n == 0 {
                    return Ok(rayon::current_num_threads());
                }
                check(n).map_err(|e| format!("RAYON_NUM_THREADS={n}: {e}"))?
            }
            _ => return Ok(rayon::current_num_threads()),
        },
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|e| format!("setting up {n} worker threads: {e}"))?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_follows_the_cores_within_its_bounds() {
        let cap = cap();
        assert!((FLOOR..=CEILING).contains(&cap));
        assert!(cap >= PER_CORE * cores() || cap == CEILING);
        assert_eq!(parse_arg("7"), Ok(7));
        assert_eq!(parse_arg(&cap.to_string()), Ok(cap));
        let e = parse_arg(&(cap + 1).to_string()).unwrap_err();
        assert!(e.contains(&format!("at most {cap} worker threads")), "{e}");
        assert!(parse_arg("0")
            .unwrap_err()
            .contains("at least 1 worker thread"));
        assert!(parse_arg("many")
            .unwrap_err()
            .contains("'many' is not a number"));
        assert!(parse_arg("18446744073709551616").is_err());
    }
}
