//! Interrupted solves: a solve killed with SIGKILL part-way through and run again must
//! resume at the first tier without a valid file and end with files byte-identical to
//! an uninterrupted solve. Drives the real `host` binary on the `chain` fixture module
//! (built by `cargo build --release --workspace`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn plugin() -> PathBuf {
    let host = PathBuf::from(env!("CARGO_BIN_EXE_host"));
    let p = host.parent().unwrap().join("libfixture_chain.so");
    assert!(
        p.exists(),
        "{} is missing: run `cargo build --release --workspace` before the tests",
        p.display()
    );
    p
}

fn solve_cmd(db: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_host"));
    c.arg("--plugin")
        .arg(plugin())
        .args(["--variant", "slow", "solve", "--db"])
        .arg(format!("file:{}", db.display()))
        .stdin(Stdio::null());
    c
}

fn run_to_end(db: &Path) -> String {
    let mut child = solve_cmd(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "solve failed");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "solve did not finish in time"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut out = String::new();
    use std::io::Read;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    out
}

/// The files in `dir` with their bytes. A running solve renames its temporary files
/// into place, so a file listed may be gone when it is read: it is left out.
fn tier_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let bytes = std::fs::read(e.path()).ok()?;
                    Some((e.file_name().to_string_lossy().to_string(), bytes))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn killed_solve_resumes_to_identical_files() {
    let reference = tempfile::tempdir().unwrap();
    let out = run_to_end(reference.path());
    assert!(
        out.contains("30 tiers (30 solved now, 0 already stored)"),
        "{out}"
    );
    let expected = tier_files(&reference.path().join("chain_slow_tierdb"));
    assert_eq!(expected.len(), 30);

    let work = tempfile::tempdir().unwrap();
    let tdir = work.path().join("chain_slow_tierdb");
    let mut child = solve_cmd(work.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while tier_files(&tdir)
        .iter()
        .filter(|(n, _)| n.ends_with(".gz"))
        .count()
        < 8
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "solve wrote no tiers"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "solve ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let partial = tier_files(&tdir);
    let done = partial.iter().filter(|(n, _)| n.ends_with(".gz")).count();
    assert!((8..30).contains(&done), "killed after {done} tiers");

    let out = run_to_end(work.path());
    assert!(
        out.contains(&format!(
            "({} solved now, {done} already stored)",
            30 - done
        )),
        "{out}"
    );
    assert!(out.contains("initial position 29:1: win in 29"), "{out}");
    assert_eq!(
        tier_files(&tdir),
        expected,
        "resumed files differ from an uninterrupted solve"
    );
}

/// The chain solved one byte a position (`--solve-mode byte`: each tier's remoteness
/// in an unlinked scratch file, the tier file staged and renamed into place), killed
/// with SIGKILL at seeded random moments and run again each time, ends with the files
/// of an uninterrupted solve in the default way, and nothing else in the directory.
#[test]
fn a_budgeted_solve_killed_at_random_moments_resumes_to_identical_files() {
    let reference = tempfile::tempdir().unwrap();
    run_to_end(reference.path());
    let expected = tier_files(&reference.path().join("chain_slow_tierdb"));
    assert_eq!(expected.len(), 30);

    let work = tempfile::tempdir().unwrap();
    let tdir = work.path().join("chain_slow_tierdb");
    let mut seed = 0x5eed_0039_u64;
    let mut kills = 0;
    for _ in 0..8 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let delay = Duration::from_millis(100 + (seed >> 33) % 700);
        let mut child = solve_cmd(work.path())
            .args(["--solve-mode", "byte"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_some() {
            break;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        kills += 1;
    }
    assert!(
        kills >= 3,
        "the solve ended before it was killed three times"
    );
    let mut finish = solve_cmd(work.path());
    finish
        .args(["--solve-mode", "byte"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    assert!(finish.status().unwrap().success(), "the last run failed");
    assert_eq!(
        tier_files(&tdir),
        expected,
        "resumed files differ from an uninterrupted solve, or temporaries were left"
    );
}
