//! Forward-only solving on the bundled modules: each module that gives undo moves is
//! solved twice by the real `host` binary, once through its undo moves and once with
//! `--parents forward` (the module made to look forward-only: parents come from the
//! reverse graph the solver builds), and every tier file must be byte-identical.
//! Covers tiers, loopy tiers, symmetry (mtttier symmetric, chess's colour flip), WinBy
//! (mothello, miceblocks) and puzzles (whirly).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn host() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_host"))
}

fn plugin(name: &str) -> PathBuf {
    let p = host().parent().unwrap().join(format!("lib{name}.so"));
    assert!(
        p.exists(),
        "{} is missing: run `cargo build --release --workspace` before the tests",
        p.display()
    );
    p
}

/// Solves into `db` and returns the initial position's line of the summary.
fn solve(module: &str, variant: &str, db: &Path, parents: &str) -> String {
    let out = Command::new("timeout")
        .arg("300")
        .arg(host())
        .arg("--plugin")
        .arg(plugin(module))
        .args(["--variant", variant, "solve", "--parents", parents, "--db"])
        .arg(format!("file:{}", db.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{module} {variant} --parents {parents} failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find(|l| l.starts_with("initial position"))
        .unwrap_or_default()
        .to_string()
}

fn tier_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for game_dir in std::fs::read_dir(dir).unwrap() {
        let game_dir = game_dir.unwrap().path();
        for f in std::fs::read_dir(&game_dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "gz") {
                let name = format!(
                    "{}/{}",
                    game_dir.file_name().unwrap().to_string_lossy(),
                    f.file_name().unwrap().to_string_lossy()
                );
                out.insert(name, std::fs::read(&f).unwrap());
            }
        }
    }
    out
}

/// Solves both ways and compares; returns the initial position's summary line.
fn both_ways(module: &str, variant: &str, tiers: usize) -> String {
    let dir = tempfile::tempdir().unwrap();
    let undo = dir.path().join("undo");
    let forward = dir.path().join("forward");
    let a = solve(module, variant, &undo, "undo-moves");
    let b = solve(module, variant, &forward, "forward");
    assert_eq!(a, b, "{module} {variant}");
    let (fa, fb) = (tier_files(&undo), tier_files(&forward));
    assert_eq!(fa.len(), tiers, "{module} {variant}: tier files");
    assert_eq!(
        fa.keys().collect::<Vec<_>>(),
        fb.keys().collect::<Vec<_>>(),
        "{module} {variant}"
    );
    for (name, bytes) in &fa {
        assert!(bytes == &fb[name], "{module} {variant}: {name} differs");
    }
    a
}

#[test]
fn mtttier_both_variants() {
    assert!(both_ways("mtttier", "regular", 10).ends_with("tie in 9"));
    assert!(both_ways("mtttier", "symmetric", 10).ends_with("tie in 9"));
}

#[test]
fn quixo_3x3() {
    assert!(both_ways("quixo", "3x3", 30).ends_with("win in 7"));
}

#[test]
fn mothello_4x4_with_winby() {
    assert!(both_ways("mothello", "4x4", 13).ends_with("lose by 8 in 12"));
}

#[test]
fn miceblocks_base5_with_winby() {
    assert!(both_ways("miceblocks", "base5", 16).ends_with("win by 6 in 15"));
}

#[test]
fn whirly_puzzles_on_loopy_tiers() {
    assert!(both_ways("whirly", "two-colours", 1).ends_with("solvable in 10"));
    assert!(both_ways("whirly", "two-pushers", 1).contains("solvable in"));
}

#[test]
fn chess_kqk_with_the_colour_flip() {
    assert!(both_ways("chess", "KQK", 2).ends_with("win in 13"));
}

/// Solves with `--parents <parents>` under the debug log and returns how many tiers'
/// recipes contain `recipe` (as `Recipe`'s debug form prints it).
fn tiers_solved(module: &str, variant: &str, db: &Path, parents: &str, recipe: &str) -> usize {
    let out = Command::new("timeout")
        .arg("300")
        .arg(host())
        .env("RUST_LOG", "gamesman_host::engine::solver=debug")
        .arg("--plugin")
        .arg(plugin(module))
        .args(["--variant", variant, "solve", "--parents", parents, "--db"])
        .arg(format!("file:{}", db.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{module} {variant}: {stderr}");
    stderr.lines().filter(|l| l.contains(recipe)).count()
}

/// A module with undo moves and a scan that gives children. By default (room in the
/// plan) its loopy tiers are solved through a reverse graph of the scan's moves
/// within the tier, seeded with the child tiers' values; with `--parents undo-within`
/// its small loopy tiers read the seeds in the scan and ask undo moves only within the
/// tier. The files are those of the plain undo-move solve.
#[test]
fn seeded_undo_moves_store_the_same_files() {
    let cases = [("quixo", "3x3", 30, 29, 29), ("mills", "5mm", 47, 9, 8)];
    for (module, variant, tiers, graphs, seeded) in cases {
        let dir = tempfile::tempdir().unwrap();
        let db = |name: &str| dir.path().join(name);
        let line = solve(module, variant, &db("undo"), "undo-moves");
        let graph = "seeded: true, moves: Scanned }";
        assert_eq!(
            tiers_solved(module, variant, &db("auto"), "auto", graph),
            graphs,
            "{module} {variant}: tiers solved through the scan's graph"
        );
        let within = "UndoMoves { seeded: true }";
        assert_eq!(
            tiers_solved(module, variant, &db("within"), "undo-within", within),
            seeded,
            "{module} {variant}: tiers solved by undo moves within the tier"
        );
        let files = tier_files(&db("undo"));
        assert_eq!(files.len(), tiers, "{module} {variant}: tier files");
        for way in ["auto", "within"] {
            assert_eq!(
                files,
                tier_files(&db(way)),
                "{module} {variant}: {way} differs"
            );
        }
        assert!(line.contains("initial position"), "{line}");
    }
}
