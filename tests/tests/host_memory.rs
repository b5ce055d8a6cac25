//! End-to-end: memory. A solve whose estimated peak exceeds the budget even in the
//! leanest way of solving is refused before any tier is solved, with the figures and
//! the ways to override; told
//! to go on, a solve that cannot allocate a tier's arrays ends with a message naming
//! the tier and the memory it needed, the tiers below it stored. Drives the `chain`
//! fixture's `huge` variant (29 tiers of 20011 positions under one of 2^40).
//!
//! This file drives the built binaries only; it must not link the host library.

use e2e_tests::run::{assert_no_panic_noise, run, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{host_binary, plugin};
use std::path::Path;
use std::process::Command;

fn solve(db: &Path, extra: &[&str], address_space_kib: Option<u64>) -> Command {
    let p = plugin("fixture_chain");
    let host = host_binary();
    let mut args: Vec<String> = vec![
        "--plugin".into(),
        p.display().to_string(),
        "--variant".into(),
        "huge".into(),
        "solve".into(),
        "--db".into(),
        format!("file:{}", db.display()),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut cmd = match address_space_kib {
        // A hard cap on the address space, so a large allocation fails whatever the
        // kernel's overcommit policy (the host is exec'ed by the shell, in place).
        Some(kib) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(host)
                .args(&args);
            c
        }
        None => {
            let mut c = Command::new(host);
            c.args(&args);
            c
        }
    };
    // Warnings only: the refusal must be the one paragraph on stderr.
    cmd.env("RUST_BACKTRACE", "1").env("RUST_LOG", "warn");
    cmd
}

fn tier_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |rd| {
        rd.flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".gz"))
            .count()
    })
}

#[test]
fn a_solve_that_cannot_fit_is_refused_with_the_figures() {
    let db = tempfile::tempdir().unwrap();
    let e = run(solve(db.path(), &[], None), DEFAULT_TIMEOUT).assert_clean_failure();
    // Tier 29, 2^40 positions, in the leanest way (counter and value in one byte):
    // 1 B cells, two frontier bitmaps of 1 bit a position.
    assert!(e.contains("solving tier 29 (29) needs about"), "{e}");
    assert!(e.contains("even solved byte, the leanest way"), "{e}");
    assert!(
        e.contains("child counters 1.00 TiB, frontier 256.00 GiB"),
        "{e}"
    );
    assert!(
        e.contains("is available (90% of MemTotal in /proc/meminfo")
            || e.contains("is available (the memory limit of cgroup"),
        "{e}"
    );
    assert!(
        e.contains("--memory-limit SIZE") && e.contains("--ignore-memory-check"),
        "{e}"
    );
    assert_eq!(
        tier_files(&db.path().join("chain_huge_tierdb")),
        0,
        "nothing solved"
    );
    // A limit given by hand is the figure compared.
    let e = run(
        solve(db.path(), &["--memory-limit", "3G"], None),
        DEFAULT_TIMEOUT,
    )
    .assert_clean_failure();
    assert!(
        e.contains("but 3.00 GiB is available (--memory-limit)"),
        "{e}"
    );
    let e = run(
        solve(db.path(), &["--memory-limit", "lots"], None),
        DEFAULT_TIMEOUT,
    );
    assert_eq!(e.status.code(), Some(2), "{}", e.describe());
    assert!(
        e.stderr.contains("'lots' is not a size"),
        "{}",
        e.describe()
    );
}

#[test]
fn an_allocation_failure_names_the_tier_and_keeps_the_stored_tiers() {
    let db = tempfile::tempdir().unwrap();
    // 4 GiB of address space: the 29 small tiers fit, the top tier's 1 TiB of one-byte
    // cells (its leanest way, which --ignore-memory-check solves it in) cannot be had.
    let r = run(
        solve(
            db.path(),
            &["--ignore-memory-check", "--threads", "2"],
            Some(4 << 20),
        ),
        DEFAULT_TIMEOUT,
    );
    let d = r.describe();
    assert_eq!(
        r.status.code(),
        Some(5),
        "a clean failure (exit code 5: the solve could not finish), not an abort: {d}"
    );
    assert_no_panic_noise(&r.stderr, &d);
    assert!(!r.stderr.contains("memory allocation of"), "{d}");
    let last = r.stderr.trim().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: out of memory solving tier 29 (29): 1.00 TiB for its one-byte cells could not be allocated"),
        "{d}"
    );
    assert!(
        last.contains("the tiers solved before it are stored"),
        "{d}"
    );
    assert_eq!(tier_files(&db.path().join("chain_huge_tierdb")), 29, "{d}");
    // And they are kept: a second run finds them valid and fails at the same tier.
    let mut again = solve(
        db.path(),
        &["--ignore-memory-check", "--threads", "2"],
        Some(4 << 20),
    );
    again.env("RUST_LOG", "info");
    let r = run(again, DEFAULT_TIMEOUT);
    assert!(
        r.stderr.contains(
            "30 tiers, 1,099,512,208,095 positions; 1,099,511,627,776 positions to solve"
        ),
        "only the top tier is left: {}",
        r.describe()
    );
    assert!(
        r.stderr.contains("error: out of memory solving tier 29"),
        "{}",
        r.describe()
    );
    assert_eq!(tier_files(&db.path().join("chain_huge_tierdb")), 29);
}

/// Quixo 5x5's numbering cache follows the share of the budget it is offered (a
/// sixteenth, at most 512 MiB), never below its 16 MiB floor, and the plan says so.
#[test]
fn quixo_keeps_its_share_of_the_budget() {
    for (limit, line) in [
        (
            "1G",
            "the module keeps at most 64.00 MiB of its own (of 64.00 MiB offered)",
        ),
        (
            "128M",
            "the module keeps at most 16.00 MiB of its own (of 8.00 MiB offered)",
        ),
        (
            "64G",
            "the module keeps at most 512.00 MiB of its own (of 512.00 MiB offered)",
        ),
    ] {
        let mut cmd = Command::new(host_binary());
        cmd.args(["--plugin", "quixo", "--variant", "5x5", "solve", "--plan"])
            .args(["--endgame", "0", "--memory-limit", limit])
            .env("RUST_LOG", "info");
        let r = run(cmd, DEFAULT_TIMEOUT);
        r.assert_success();
        assert!(r.stderr.contains(line), "{limit}: {}", r.describe());
    }
}
