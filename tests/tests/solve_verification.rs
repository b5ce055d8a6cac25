//! End-to-end: `solve` verifies each tier before storing it (issue 22 item 1). Each of
//! the six broken take-away fixtures that used to solve into a wrong database with exit
//! 0 now fails: the real `host` binary exits non-zero with one paragraph naming the
//! tier (number and name), the position and the move that contradicts its record, both
//! values, and the `validate` command to run, and stores nothing for that tier while
//! the tiers below it, which are right, stay stored.
//!
//! The correct control fixture solves and stores every tier. This file must not depend
//! on wording beyond the facts a user acts on.

use e2e_tests::run::{run, RunOutput, DEFAULT_TIMEOUT};
use e2e_tests::workspace::{host_binary, plugin};
use std::path::Path;
use std::process::Command;

/// Runs `host --plugin <fixture> solve --parents undo-moves --db file:DIR EXTRA...`
/// with logging at warn, so a failure is exactly one error paragraph. The fixtures'
/// faults are in their undo moves and fast paths, all of which a solve by undo moves
/// calls; by default a tier with room for a reverse graph is solved from its scan's
/// moves instead, and never asks the undo moves.
fn solve(fixture: &str, dir: &Path, extra: &[&str]) -> RunOutput {
    let mut cmd = Command::new(host_binary());
    cmd.arg("--plugin")
        .arg(plugin(&format!("fixture_{fixture}")))
        .args(["solve", "--parents", "undo-moves", "--db"])
        .arg(format!("file:{}", dir.display()))
        .args(extra)
        .env("RUST_LOG", "warn")
        .env("RUST_BACKTRACE", "1");
    run(cmd, DEFAULT_TIMEOUT)
}

/// The tier files a solve left in `dir` for `fixture` (sorted tier numbers).
fn stored_tiers(dir: &Path, fixture: &str) -> Vec<u64> {
    let tdir = dir.join(format!("{fixture}_regular_tierdb"));
    let mut tiers: Vec<u64> = std::fs::read_dir(&tdir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().to_string();
                    name.strip_prefix("tier_")?
                        .strip_suffix(".gz")?
                        .parse()
                        .ok()
                })
                .collect()
        })
        .unwrap_or_default();
    tiers.sort();
    tiers
}

fn assert_contains(text: &str, wanted: &str) {
    assert!(
        text.contains(wanted),
        "expected the error to contain {wanted:?}, got:\n{text}"
    );
}

/// Solves `fixture`, which its module's adapter refuses mid-solve: the solve fails
/// cleanly naming the module and saying each of `said`, with exactly the tiers
/// `stored` kept.
fn refused_by_the_adapter(fixture: &str, said: &[&str], stored: &[u64]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = solve(fixture, dir.path(), &[]).assert_clean_failure();
    assert_contains(&text, &format!("game module '{fixture}' failed"));
    for wanted in said {
        assert_contains(&text, wanted);
    }
    assert_eq!(stored_tiers(dir.path(), fixture), stored);
}

/// What a fixture's failed solve must say.
struct Expected<'a> {
    fixture: &'a str,
    /// The tier the solve stops at: number and name.
    tier: u64,
    /// The position whose record is wrong, and the move that shows it.
    position: &'a str,
    mv: &'a str,
    /// The record the solver computed, and what the children call for (`None` when
    /// the child has no record at all).
    stored: &'a str,
    derived: Option<&'a str>,
}

fn check(e: Expected<'_>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = solve(e.fixture, dir.path(), &[]);
    let text = out.assert_clean_failure();
    let name = format!("{} stones", e.tier);
    assert_contains(
        &text,
        &format!(
            "error: verification failed in tier {} ({name}) at position {}: the record is {}",
            e.tier, e.position, e.stored
        ),
    );
    assert_contains(&text, &format!("move {} ", e.mv));
    if let Some(d) = e.derived {
        assert_contains(&text, &format!("so it must be {d}"));
    }
    assert_contains(&text, &format!("Nothing was stored for tier {}", e.tier));
    assert_contains(
        &text,
        &format!("validate --plugin {} --variant regular", e.fixture),
    );
    // Every tier below (solved first, and right) is stored; the failing one is not,
    // nor anything above it.
    assert_eq!(
        stored_tiers(dir.path(), e.fixture),
        (0..e.tier).collect::<Vec<_>>(),
        "{}",
        out.describe()
    );
}

#[test]
fn extra_undo_moves_fail_the_solve() {
    // A bogus parent makes 4a lose in 2; its move take1 to 3b (lost there) wins in 3.
    check(Expected {
        fixture: "broken_extra_undo",
        tier: 4,
        position: "4a",
        mv: "take1",
        stored: "lose in 2 with WinBy 1",
        derived: Some("win in 3 with WinBy 1"),
    });
}

#[test]
fn a_wrong_children_fast_path_fails_the_solve() {
    // The fast path forgets take2, so 2a's WinBy misses the child 0b that ends the
    // game for player one by a stone.
    check(Expected {
        fixture: "broken_fast_children",
        tier: 2,
        position: "2a",
        mv: "take2",
        stored: "win in 1 with WinBy -1",
        derived: Some("win in 1 with WinBy 1"),
    });
}

#[test]
fn missing_undo_moves_fail_the_solve() {
    // 2a never hears from its child 0b, so it stays a draw; take2 wins at once.
    check(Expected {
        fixture: "broken_missing_undo",
        tier: 2,
        position: "2a",
        mv: "take2",
        stored: "draw",
        derived: Some("win in 1 with WinBy 1"),
    });
}

#[test]
fn a_wrong_parents_fast_path_fails_the_solve() {
    check(Expected {
        fixture: "broken_fast_parents",
        tier: 2,
        position: "2a",
        mv: "take2",
        stored: "draw",
        derived: Some("win in 1 with WinBy 1"),
    });
}

#[test]
fn an_illegal_child_fails_the_solve() {
    // 4a's move take1 reaches 3b, which is_legal rejects: it has no record.
    let e = Expected {
        fixture: "broken_illegal_child",
        tier: 4,
        position: "4a",
        mv: "take1",
        stored: "draw",
        derived: None,
    };
    check(e);
    let dir = tempfile::tempdir().expect("temp dir");
    let text = solve("broken_illegal_child", dir.path(), &[]).assert_clean_failure();
    assert_contains(&text, "leads to 3b, which has no record");
}

#[test]
fn a_symmetry_hook_that_leaves_its_tier_fails_the_solve() {
    // The adapter refuses the canonical form 2a of 3a before tier 3 is solved.
    refused_by_the_adapter(
        "broken_symmetry_tier",
        &[
            "canonical_position of position 3:0 (3a) returned 2:0",
            "outside tier 3 (size 2)",
        ],
        &[0, 1, 2],
    );
}

#[test]
fn fast_paths_declared_distinct_that_repeat_a_child_fail_the_solve() {
    // The scan counts 2a's children as the module gives them (three, one twice);
    // verification asks for them sorted, sees the repeat, and stores nothing for tier 2.
    refused_by_the_adapter(
        "broken_fast_duplicates",
        &["children at position 2:0 (2a) gave 1:1 twice, but the module declares its fast paths free of duplicates"],
        &[0, 1],
    );
}

#[test]
fn every_mode_but_off_catches_a_broken_module() {
    let dir = tempfile::tempdir().expect("temp dir");
    let full = solve(
        "broken_extra_undo",
        dir.path(),
        &["--verify", "full", "--force"],
    );
    assert_contains(&full.assert_clean_failure(), "at position 4a");
    let seeded = solve("broken_extra_undo", dir.path(), &["--seed", "7", "--force"]);
    assert_contains(&seeded.assert_clean_failure(), "at position 4a");
    // Off trusts the module: the wrong database is stored (what verification prevents).
    let off = solve(
        "broken_extra_undo",
        dir.path(),
        &["--verify", "off", "--force"],
    );
    off.assert_success();
    assert_eq!(
        stored_tiers(dir.path(), "broken_extra_undo"),
        (0..=7).collect::<Vec<_>>()
    );
}

#[test]
fn the_correct_fixture_solves_and_a_bad_mode_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ok = solve("broken_none", dir.path(), &["--verify", "full"]);
    ok.assert_success();
    assert_contains(&ok.stdout, "initial position 7a: win by 1 in 5");
    assert_eq!(
        stored_tiers(dir.path(), "takeaway"),
        (0..=7).collect::<Vec<_>>()
    );
    let bad = solve("broken_none", dir.path(), &["--verify", "most"]);
    assert!(!bad.status.success(), "{}", bad.describe());
    assert_contains(&bad.stderr, "'most' is not a verification mode");
}

#[test]
fn a_child_in_an_undeclared_tier_fails_the_solve() {
    // The module's adapter checks every child the solver is given: 2a's child lies in
    // tier 0, which tier 2 does not declare. Tiers 0 and 1 are stored, tier 2 is not.
    refused_by_the_adapter(
        "broken_undeclared_tier",
        &["children at position 2:0 (2a) leads to tier 0, which tier_children(2) does not declare"],
        &[0, 1],
    );
}
