//! End-to-end: every way of solving (`solve --solve-mode whole|streamed|compact|byte`)
//! stores byte-identical tier files on 1 and 2 threads, for modules of every kind: a
//! loopy tiered game with ties (mtttier), Quixo (3x3 whole, 5x5's 0-blank endgame), a
//! forward-only module solved through a reverse graph (dodgem), WinBy modules
//! (mothello, miceblocks); `solve --plan --json` has the documented shape, and a
//! budget too small for anything is refused with the figures.
//!
//! This file drives the built binaries only; it must not link the host library.

use e2e_tests::run::{run, DEFAULT_TIMEOUT};
use e2e_tests::tierdb::tier_files as files;
use e2e_tests::workspace::{host_binary, plugin};
use std::collections::BTreeMap;
use std::process::Command;

fn host(module: &str, variant: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(host_binary());
    cmd.arg("--plugin")
        .arg(plugin(module))
        .args(["--variant", variant])
        .args(args)
        .env("RUST_LOG", "warn");
    cmd
}

/// Solves in every way on 1 and 2 threads; asserts identical files; returns the count.
fn same_files_every_way(module: &str, variant: &str, extra: &[&str]) -> usize {
    let mut first: Option<BTreeMap<String, Vec<u8>>> = None;
    for mode in ["whole", "streamed", "compact", "byte"] {
        for threads in ["1", "2"] {
            let dir = tempfile::tempdir().expect("temp dir");
            let db = format!("file:{}", dir.path().display());
            let mut args = vec![
                "solve",
                "--threads",
                threads,
                "--solve-mode",
                mode,
                "--db",
                &db,
            ];
            args.extend_from_slice(extra);
            let out = run(host(module, variant, &args), DEFAULT_TIMEOUT);
            out.assert_success();
            let got = files(dir.path());
            assert!(
                got.keys().all(|k| k.ends_with(".gz")),
                "{module} {variant} {mode}: scratch files left: {:?}",
                got.keys().collect::<Vec<_>>()
            );
            match &first {
                None => first = Some(got),
                Some(want) => {
                    assert_eq!(
                        got.keys().collect::<Vec<_>>(),
                        want.keys().collect::<Vec<_>>()
                    );
                    for (name, bytes) in &got {
                        assert!(
                            bytes == &want[name],
                            "{module} {variant}: {name} differs {mode} on {threads} threads"
                        );
                    }
                }
            }
        }
    }
    first.map_or(0, |f| f.len())
}

#[test]
fn mtttier_and_quixo_store_the_same_files_every_way() {
    assert_eq!(same_files_every_way("mtttier", "regular", &[]), 10);
    assert_eq!(same_files_every_way("quixo", "3x3", &[]), 30);
    assert_eq!(
        same_files_every_way("quixo", "5x5", &["--endgame", "0"]),
        13
    );
}

#[test]
fn reverse_graph_and_winby_modules_store_the_same_files_every_way() {
    assert!(same_files_every_way("dodgem", "3x3", &[]) > 1);
    assert!(same_files_every_way("miceblocks", "base3", &[]) > 1);
    assert!(same_files_every_way("mothello", "4x4", &["--endgame", "1"]) > 1);
}

#[test]
fn the_plan_has_its_shape_and_a_budget_too_small_is_refused() {
    let out = run(
        host(
            "quixo",
            "5x5",
            &[
                "solve",
                "--plan",
                "--json",
                "--endgame",
                "1",
                "--memory-limit",
                "120M",
            ],
        ),
        DEFAULT_TIMEOUT,
    );
    // Nothing fits: the plan is printed inside the error object, exit 5 (issue 52).
    assert_eq!(out.status.code(), Some(5), "{}", out.describe());
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let tiers = v["tiers"].as_array().expect("tiers");
    assert_eq!(tiers.len(), 26);
    let peak = v["peak_bytes"].as_u64().expect("peak_bytes");
    assert_eq!(
        peak,
        tiers
            .iter()
            .map(|t| t["peak_bytes"].as_u64().unwrap())
            .max()
            .unwrap()
    );
    assert_eq!(v["budget_bytes"], 120 << 20);
    // The largest 1-blank tier does not fit 120 MiB even compact (64 MiB of slack).
    assert_eq!(v["fits"], false);
    for t in tiers {
        assert!(t["name"].is_string());
        let mode = t["mode"].as_str().unwrap();
        assert!(
            ["whole", "streamed", "compact", "byte"].contains(&mode),
            "{mode}"
        );
    }
    // The largest 1-blank tiers (15.6 M canonical positions) cannot be solved whole in
    // 120 MiB; the 0-blank ones can.
    assert!(tiers.iter().any(|t| t["mode"] != "whole"));
    assert!(tiers.iter().any(|t| t["mode"] == "whole"));

    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("file:{}", dir.path().display());
    let e = run(
        host(
            "quixo",
            "5x5",
            &[
                "solve",
                "--endgame",
                "1",
                "--memory-limit",
                "1M",
                "--db",
                &db,
            ],
        ),
        DEFAULT_TIMEOUT,
    )
    .assert_clean_failure();
    assert!(e.contains("even solved byte, the leanest way"), "{e}");
    assert!(
        e.contains("but 1.00 MiB is available (--memory-limit)"),
        "{e}"
    );
    assert!(
        e.contains("child counters ") && e.contains("frontier "),
        "{e}"
    );
    assert!(!dir.path().join("quixo_5x5_tierdb").exists() || files(dir.path()).is_empty());
}

/// A partial database solved one byte a position is verified with the same scope,
/// its large tiers read through a block cache; without the scope the missing tiers
/// above it are named.
#[test]
fn a_partial_database_is_verified_with_its_scope() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("file:{}", dir.path().display());
    run(
        host(
            "quixo",
            "5x5",
            &[
                "solve",
                "--endgame",
                "0",
                "--solve-mode",
                "byte",
                "--db",
                &db,
            ],
        ),
        DEFAULT_TIMEOUT,
    )
    .assert_success();
    let out = run(
        host("quixo", "5x5", &["verify", "--endgame", "0", "--db", &db]),
        std::time::Duration::from_secs(300),
    );
    out.assert_success();
    assert!(
        out.stdout.contains(
            ": 13 tiers of the endgame of 0 steps (--endgame 0), 67,108,864 positions, every record follows from its children"
        ),
        "{}",
        out.stdout
    );
    let e = run(
        host("quixo", "5x5", &["verify", "--db", &db]),
        DEFAULT_TIMEOUT,
    )
    .assert_clean_failure();
    assert!(e.contains("is not stored in"), "{e}");
    assert!(e.contains("the database is incomplete"), "{e}");
}
