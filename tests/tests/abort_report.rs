//! End-to-end: an abort in the middle of a solve (issue 52: "an allocation failure
//! anywhere is the typed error naming the tier"). The `panicky` fixture with
//! `PANICKY_ALLOCATE` set asks for 64 TiB in `do_move` at tier 1, under an address-space
//! limit: its own Rust runtime aborts the process. The host must say which tier it was
//! solving and keep the tiers stored before, so the same command without the fault
//! resumes. The host cannot tell a module's failed allocation from its `abort()`, so
//! SIGABRT then ends the process, as for any module crash (`module_exits.rs`). (The
//! host's own failed allocation, named with its size and ending with the solve's exit
//! code 5, is `host/tests/abort_report.rs`.)
//!
//! This file drives the built binaries only; it must not link the host library.

use e2e_tests::run::{run, DEFAULT_TIMEOUT};
use e2e_tests::tierdb::tier_files;
use e2e_tests::workspace::{host_binary, plugin};
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

/// `host --plugin panicky solve --db file:DB ARGS` under `ulimit -v` 8 GB, with the
/// fixture's allocation fault when `fault`.
fn solve(db: &std::path::Path, fault: bool, args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg("ulimit -v 8000000 && exec \"$0\" \"$@\"")
        .arg(host_binary())
        .arg("--plugin")
        .arg(plugin("fixture_panicky"))
        .arg("solve")
        .arg("--db")
        .arg(format!("file:{}", db.display()))
        .args(args)
        .env("RUST_LOG", "warn")
        .env("RUST_BACKTRACE", "0")
        .env_remove("PANICKY_ALLOCATE");
    if fault {
        c.env("PANICKY_ALLOCATE", "1");
    }
    c
}

/// The tier files stored at `db`, by file name.
fn stored(db: &std::path::Path) -> Vec<String> {
    tier_files(db)
        .into_keys()
        .map(|k| k.rsplit('/').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_failed_allocation_in_the_module_names_the_tier_and_keeps_the_stored_ones() {
    for json in [false, true] {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let db = dir.path().join("db");
        let args: &[&str] = if json { &["--json"] } else { &[] };
        let out = run(solve(&db, true, args), DEFAULT_TIMEOUT);
        let d = out.describe();
        assert_eq!(out.status.signal(), Some(6), "json={json}: {d}");
        // The module's runtime says what failed; the host says where.
        assert!(
            out.stderr
                .contains("memory allocation of 70368744177664 bytes failed"),
            "{d}"
        );
        let last = out.stderr.trim_end().lines().last().unwrap_or_default();
        let said = last
            .strip_prefix("error: ")
            .unwrap_or_else(|| panic!("the last line is the error: {d}"));
        assert!(
            said.starts_with("the process aborted while solving tier 1:"),
            "{said}"
        );
        assert!(
            said.contains("run the same command again to resume"),
            "{said}"
        );
        // Tier 0 was stored before the abort, and nothing half-written of tier 1.
        assert_eq!(stored(&db), ["tier_0.gz"], "{d}");

        // Without the fault the same command resumes: it solves tier 1 and stops at
        // the fixture's panic in tier 2 (a module error, exit 3).
        let again = run(solve(&db, false, &[]), DEFAULT_TIMEOUT);
        assert_eq!(again.status.code(), Some(3), "{}", again.describe());
        assert_eq!(
            stored(&db),
            ["tier_0.gz", "tier_1.gz"],
            "{}",
            again.describe()
        );
    }
}
