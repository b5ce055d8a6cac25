//! End-to-end: a solve's tier files do not depend on `--threads` (issue 22 item 10).
//! The real `host` binary solves quixo 3x3 (30 tiers, 39,366 positions) and the whirly
//! level `warehouse` (one loopy tier of 81,900 positions, far more than the solver's
//! scan and parents chunks) on 1, 2 and 7 threads; every tier file must be the same,
//! byte for byte. Mothello's WinBy tiers are compared in its own tests.

use e2e_tests::run::{run, DEFAULT_TIMEOUT};
use e2e_tests::tierdb::tier_files;
use e2e_tests::workspace::{host_binary, plugin};
use std::collections::BTreeMap;
use std::process::Command;

/// Solves `plugin --variant variant` on each thread count; asserts identical files and
/// returns how many tier files there were and the solve's last stdout line.
fn solve_on_each(plugin_name: &str, variant: &str) -> (usize, String) {
    let mut first: Option<(BTreeMap<String, Vec<u8>>, String)> = None;
    for threads in ["1", "2", "7"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut cmd = Command::new(host_binary());
        cmd.arg("--plugin")
            .arg(plugin(plugin_name))
            .args(["--variant", variant, "solve", "--threads", threads, "--db"])
            .arg(format!("file:{}", dir.path().display()))
            .env("RUST_LOG", "warn");
        let out = run(cmd, DEFAULT_TIMEOUT);
        out.assert_success();
        let files = tier_files(dir.path());
        let initial = out.stdout.lines().last().unwrap_or_default().to_string();
        match &first {
            None => first = Some((files, initial)),
            Some((want, want_initial)) => {
                assert_eq!(&initial, want_initial, "{threads} threads");
                assert_eq!(
                    files.keys().collect::<Vec<_>>(),
                    want.keys().collect::<Vec<_>>(),
                    "{threads} threads"
                );
                for (name, bytes) in &files {
                    assert!(
                        bytes == &want[name],
                        "{plugin_name} {variant}: {name} differs on {threads} threads from 1 thread"
                    );
                }
            }
        }
    }
    let (files, initial) = first.expect("three solves");
    (files.len(), initial)
}

#[test]
fn quixo_3x3_is_byte_identical_on_1_2_and_7_threads() {
    let (tiers, initial) = solve_on_each("quixo", "3x3");
    assert_eq!(tiers, 30);
    assert_eq!(initial, "initial position ---/---/---:X: win in 7");
}

#[test]
fn a_loopy_whirly_level_is_byte_identical_on_1_2_and_7_threads() {
    let (tiers, initial) = solve_on_each("whirly", "warehouse");
    assert_eq!(tiers, 1);
    assert!(initial.ends_with(": solvable in 21"), "{initial}");
}
