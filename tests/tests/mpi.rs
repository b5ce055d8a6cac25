//! End-to-end over MPI (issue 21): `mpirun --oversubscribe -np 3 host-mpi ... solve`
//! writes tier files byte-identical to a one-process `host solve` for every bundled
//! game, with tiers stored by more than one worker; a worker killed mid-solve ends the
//! run with an error naming the tier it held, and a rerun (with another rank count)
//! resumes to identical files; mismatched ranks, unshared directories, failing tiers
//! and a host without MPI under mpirun are refused with clear errors.
//!
//! Built only with the e2e crate's `mpi` feature: it needs OpenMPI's `mpirun` and the
//! `host-mpi` binary (`cargo build --release -p host --features mpi --bin host-mpi`).
//! One mpirun job runs at a time: the machine has few cores.

use e2e_tests::run::{assert_no_panic_noise, run, RunOutput};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One mpirun job at a time.
static ONE_JOB: Mutex<()> = Mutex::new(());

const JOB_TIMEOUT: Duration = Duration::from_secs(300);

fn one_job() -> std::sync::MutexGuard<'static, ()> {
    ONE_JOB.lock().unwrap_or_else(|e| e.into_inner())
}

fn host_mpi() -> PathBuf {
    let p = artifact_dir().join("host-mpi");
    assert!(
        p.is_file(),
        "{} is missing: run `cargo build --release -p host --features mpi --bin host-mpi` first",
        p.display()
    );
    p
}

/// `mpirun` with the flags a container needs: root allowed, more ranks than cores,
/// no single-copy shared-memory transport.
fn mpirun() -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe"])
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
        .env("RUST_BACKTRACE", "1")
        .env_remove("RUST_LOG");
    c
}

/// `mpirun -np N host-mpi ARGS`.
fn mpi_job(np: usize, args: &[&str]) -> Command {
    let mut c = mpirun();
    c.arg("-np").arg(np.to_string()).arg(host_mpi()).args(args);
    c
}

fn db_arg(dir: &Path) -> String {
    format!("file:{}", dir.display())
}

/// Every file in a game's tier database directory, by name.
fn files(db: &Path, game: &str, variant: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = db.join(format!("{game}_{variant}_tierdb"));
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .map(|e| {
            let e = e.expect("a directory entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("reading a tier file"),
            )
        })
        .collect()
}

/// Asserts the MPI run's database in `work` holds the files of the one-process
/// database in `reference`, byte for byte and nothing else; returns them.
fn same_files(
    reference: &tempfile::TempDir,
    work: &tempfile::TempDir,
    game: &str,
    variant: &str,
    out: &RunOutput,
) -> BTreeMap<String, Vec<u8>> {
    let expected = files(reference.path(), game, variant);
    let got = files(work.path(), game, variant);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "different files (or leftovers of the MPI run):\n{}",
        out.describe()
    );
    for (name, bytes) in &expected {
        assert!(
            got[name] == *bytes,
            "{name} differs from the one-process solve"
        );
    }
    expected
}

/// The line `host solve` prints about the initial position.
fn initial_line(out: &RunOutput) -> String {
    out.stdout
        .lines()
        .find(|l| l.starts_with("initial position "))
        .unwrap_or_else(|| panic!("no initial position line:\n{}", out.describe()))
        .to_string()
}

/// Ranks that stored tiers, from the manager's progress lines.
fn storing_ranks(stderr: &str) -> BTreeSet<String> {
    stderr
        .lines()
        .filter(|l| l.contains("gamesman_host::mpi::manager"))
        .filter_map(|l| {
            let rest = l.split("] rank ").nth(1)?;
            let (rank, tail) = rest.split_once(' ')?;
            tail.starts_with("stored tier ").then(|| rank.to_string())
        })
        .collect()
}

/// Solves with one process (`host`) and with `mpirun -np 3 host-mpi`, and checks the
/// databases are the same bytes, the initial position agrees, and (when the game has
/// tiers enough) more than one worker stored tiers.
fn same_as_one_process(game: &str, variant: &str, threads: &str, many_workers: bool) {
    same_part_as_one_process(game, variant, threads, many_workers, &[]);
}

/// `same_as_one_process` for a solve with the extra solve arguments `extra` (a partial
/// solve: `--endgame K`, `--tier NAME`).
fn same_part_as_one_process(
    game: &str,
    variant: &str,
    threads: &str,
    many_workers: bool,
    extra: &[&str],
) {
    let _job = one_job();
    let reference = tempfile::tempdir().expect("temp dir");
    let one = run(
        {
            let mut c = Command::new(host_binary());
            c.args([
                "--plugin",
                game,
                "--variant",
                variant,
                "solve",
                "--threads",
                "2",
            ])
            .args(extra)
            .arg("--db")
            .arg(db_arg(reference.path()));
            c
        },
        JOB_TIMEOUT,
    );
    one.assert_success();
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let mut args = vec![
        "--plugin",
        game,
        "--variant",
        variant,
        "solve",
        "--threads",
        threads,
        "--db",
        &db,
    ];
    args.extend_from_slice(extra);
    let out = run(mpi_job(3, &args), JOB_TIMEOUT);
    out.assert_success();
    assert_no_panic_noise(&out.stderr, &out.describe());
    assert_eq!(initial_line(&out), initial_line(&one), "{}", out.describe());
    let expected = same_files(&reference, &work, game, variant, &out);
    let tiers = expected.len();
    assert!(
        out.stdout.contains(&format!(
            " {tiers} tiers ({tiers} solved now, 0 already stored)"
        )),
        "{}",
        out.describe()
    );
    let ranks = storing_ranks(&out.stderr);
    assert!(
        ranks.iter().all(|r| r == "1" || r == "2"),
        "only the two workers store tiers: {ranks:?}"
    );
    if many_workers {
        assert_eq!(
            ranks.len(),
            2,
            "both workers should have stored tiers:\n{}",
            out.stderr
        );
    } else {
        assert!(!ranks.is_empty(), "{}", out.stderr);
    }
}

/// The 5x5 endgame without blanks (26 tiers, 8,423,488 canonical positions): a partial
/// solve over MPI stores the same bytes as one process.
#[test]
fn quixo_5x5_endgame_0_matches_one_process() {
    same_part_as_one_process("quixo", "5x5", "1", true, &["--endgame", "0"]);
}

/// Under a memory budget per rank, every tier forced one byte a position (issue 39):
/// the ranks store the bytes one process stores solving whole, and the manager's
/// `--json` tells each tier's way, estimate and the rank's measured peak.
#[test]
fn budgeted_ranks_store_the_same_bytes_and_report_each_tier() {
    let _job = one_job();
    let reference = tempfile::tempdir().expect("temp dir");
    let mut one = Command::new(host_binary());
    one.args(["--plugin", "quixo", "--variant", "3x3", "solve", "--db"])
        .arg(db_arg(reference.path()));
    run(one, JOB_TIMEOUT).assert_success();
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let args = [
        "--plugin",
        "quixo",
        "--variant",
        "3x3",
        "solve",
        "--threads",
        "1",
        "--solve-mode",
        "byte",
        "--memory-limit",
        "1G",
        "--json",
        "--db",
        &db,
    ];
    let out = run(mpi_job(3, &args), JOB_TIMEOUT);
    out.assert_success();
    assert_no_panic_noise(&out.stderr, &out.describe());
    let expected = same_files(&reference, &work, "quixo", "3x3", &out);
    let start = out.stdout.find('{').expect("the JSON report");
    let report: serde_json::Value = serde_json::from_str(&out.stdout[start..])
        .unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    assert_eq!(report["budget_bytes"], 1u64 << 30, "{report}");
    let tiers = report["memory"].as_array().expect("per-tier memory");
    assert_eq!(tiers.len(), expected.len(), "one entry a tier: {report}");
    let mut names: Vec<&str> = tiers.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), expected.len(), "every tier once: {report}");
    for t in tiers {
        assert_eq!(t["mode"], "byte", "{t}");
        assert!(t["estimated_bytes"].as_u64().unwrap() > 0, "{t}");
        assert!(t["measured_bytes"].as_u64().unwrap() > 1 << 20, "{t}");
        // Each tier solved alone on a worker: its own wall time and CPU.
        assert_eq!(t["group_tiers"], 1, "{t}");
        assert!(t["wall_seconds"].as_f64().unwrap() > 0.0, "{t}");
        assert!(t["cpu_seconds"].as_f64().unwrap() >= 0.0, "{t}");
    }
    // The run's CPU is the workers' for their tiers.
    let tiers_cpu: f64 = tiers
        .iter()
        .map(|t| t["cpu_seconds"].as_f64().unwrap())
        .sum();
    let cpu = report["cpu_seconds"].as_f64().expect("the run's CPU");
    assert!((cpu - tiers_cpu).abs() < 1e-6 && cpu > 0.0, "{report}");
    assert_eq!(report["threads"], 2, "two workers of one thread: {report}");
    // The manager's log says it too.
    assert!(out.stderr.contains(", byte, rank peak "), "{}", out.stderr);
}

#[test]
fn quixo_3x3_matches_one_process() {
    same_as_one_process("quixo", "3x3", "1", true);
}

#[test]
fn mothello_4x4_winby_matches_one_process() {
    // A chain of 13 tiers: one worker busy at a time, so it gets both cores.
    same_as_one_process("mothello", "4x4", "2", true);
}

#[test]
fn miceblocks_matches_one_process() {
    same_as_one_process("miceblocks", "base5", "1", true);
}

#[test]
fn whirly_level_matches_one_process() {
    // One tier (a puzzle of all states): one worker solves it.
    same_as_one_process("whirly", "warehouse", "1", false);
}

#[test]
fn chess_kqk_matches_one_process() {
    same_as_one_process("chess", "KQK", "1", true);
}

#[test]
fn one_rank_or_no_launcher_is_one_process() {
    let _job = one_job();
    let reference = tempfile::tempdir().expect("temp dir");
    let args = ["--plugin", "quixo", "--variant", "3x3", "solve", "--db"];
    let mut c = Command::new(host_binary());
    c.args(args).arg(db_arg(reference.path()));
    run(c, JOB_TIMEOUT).assert_success();
    let expected = files(reference.path(), "quixo", "3x3");

    // host-mpi run by hand: no MPI at all.
    let alone = tempfile::tempdir().expect("temp dir");
    let mut c = Command::new(host_mpi());
    c.args(args)
        .arg(db_arg(alone.path()))
        .env_remove("RUST_LOG");
    let out = run(c, JOB_TIMEOUT);
    out.assert_success();
    assert!(!out.stderr.contains("MPI"), "{}", out.describe());
    assert_eq!(files(alone.path(), "quixo", "3x3"), expected);

    // mpirun -np 1: one rank solves as one process.
    let single = tempfile::tempdir().expect("temp dir");
    let db = db_arg(single.path());
    let mut all: Vec<&str> = args.to_vec();
    all.push(&db);
    let out = run(mpi_job(1, &all), JOB_TIMEOUT);
    out.assert_success();
    assert!(
        out.stderr.contains("one MPI rank: solving as one process"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("30 tiers (30 solved now"),
        "{}",
        out.describe()
    );
    assert_eq!(files(single.path(), "quixo", "3x3"), expected);
}

/// A `rank R (pid P on H) solves tier T (...)` line of the manager.
struct Assignment {
    rank: String,
    pid: String,
    tier: String,
}

fn assignment(line: &str) -> Option<Assignment> {
    let rest = line.split("gamesman_host::mpi::manager] rank ").nth(1)?;
    let (rank, rest) = rest.split_once(" (pid ")?;
    let (pid, rest) = rest.split_once(' ')?;
    let tier = rest.split(") solves tier ").nth(1)?.split(' ').next()?;
    Some(Assignment {
        rank: rank.to_string(),
        pid: pid.to_string(),
        tier: tier.to_string(),
    })
}

#[test]
fn killed_worker_names_its_tier_and_a_rerun_resumes() {
    let _job = one_job();
    let chain = plugin("fixture_chain");
    let chain = chain.to_str().expect("utf-8 path");
    let args = |db: &str| -> Vec<String> {
        [
            "--plugin",
            chain,
            "--variant",
            "slow",
            "solve",
            "--threads",
            "1",
            "--db",
            db,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let reference = tempfile::tempdir().expect("temp dir");
    let mut c = Command::new(host_binary());
    c.args(args(&db_arg(reference.path())));
    run(c, JOB_TIMEOUT).assert_success();
    let expected = files(reference.path(), "chain", "slow");
    assert_eq!(expected.len(), 30);

    // Start a 3-rank solve and follow the manager's log.
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let mut job = mpirun();
    // After one rank dies, the launcher sends the others SIGTERM, then SIGKILL after
    // this many seconds (1 by default). The manager's signal thread prints the tiers
    // held in between; on a loaded machine (this file's 16 tests at once, each with
    // ranks that poll) one second was once not enough for it to run.
    job.env("OMPI_MCA_odls_base_sigkill_timeout", "10");
    job.arg("-np").arg("3").arg(host_mpi()).args(args(&db));
    let mut child = job
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting mpirun (is OpenMPI installed?)");
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let reader = {
        let log = log.clone();
        let err = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                log.lock().unwrap().push(line);
            }
        })
    };
    // After 8 stored tiers, kill the worker given the next tier.
    let started = Instant::now();
    let victim = loop {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no assignment to kill:\n{}",
            log.lock().unwrap().join("\n")
        );
        assert!(
            child.try_wait().expect("waiting").is_none(),
            "the solve ended before a worker could be killed"
        );
        let found = {
            let lines = log.lock().unwrap();
            let stored = lines
                .iter()
                .filter(|l| l.contains("mpi::manager] [") && l.contains(" stored tier "))
                .count();
            (stored >= 8)
                .then(|| lines.iter().rev().find_map(|l| assignment(l)))
                .flatten()
        };
        if let Some(a) = found {
            break a;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let killed = Command::new("kill")
        .args(["-9", &victim.pid])
        .status()
        .expect("running kill");
    assert!(killed.success(), "kill -9 {} failed", victim.pid);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("mpirun did not end after a worker was killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    reader.join().expect("log reader");
    let text = log.lock().unwrap().join("\n");
    assert!(!status.success(), "{text}");
    // The tier the killed rank held: the last one the manager gave it.
    let held = text
        .lines()
        .rev()
        .filter_map(assignment)
        .find(|a| a.rank == victim.rank)
        .expect("assignments to the killed rank")
        .tier;
    let error = text
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line:\n{text}"));
    let named = format!("while rank {} (pid {} on ", victim.rank, victim.pid);
    assert!(error.contains(&named), "{error}");
    assert!(
        error.contains(&format!(") held tier {held} ({held}, 20011 positions)")),
        "{error}"
    );
    assert!(
        error.contains("run the same command again to resume"),
        "{error}"
    );
    assert!(
        text.contains("exited on signal 9"),
        "mpirun names the dead rank:\n{text}"
    );
    let partial = files(work.path(), "chain", "slow");
    let journal = String::from_utf8(partial[".mpi-held-tiers"].clone()).expect("text");
    assert!(
        journal.contains(&format!("rank {} (pid {} on ", victim.rank, victim.pid))
            && journal.contains(&format!(": tier {held} ({held}, 20011 positions)")),
        "{journal}"
    );
    let stored = partial.keys().filter(|n| n.ends_with(".gz")).count();
    assert!(
        (8..30).contains(&stored),
        "{stored} tiers stored before the kill"
    );

    // The rerun, on two ranks, says what was unfinished and ends identical.
    let out = run(
        {
            let mut c = mpirun();
            c.arg("-np").arg("2").arg(host_mpi()).args(args(&db));
            c
        },
        JOB_TIMEOUT,
    );
    out.assert_success();
    assert!(
        out.stderr
            .contains("an earlier MPI run on this database did not end cleanly")
            && out
                .stderr
                .contains(&format!("tier {held} ({held}, 20011 positions)")),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains(&format!(
            "30 tiers ({} solved now, {stored} already stored)",
            30 - stored
        )),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("initial position 29:1: win in 29"),
        "{}",
        out.describe()
    );
    assert_eq!(files(work.path(), "chain", "slow"), expected);
}

/// The pids of every rank, from the manager's first lines (`rank R (pid P on H)`).
fn rank_pids(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.contains(" manages ") || l.contains(" joined with "))
        .filter_map(|l| {
            l.split(" (pid ")
                .nth(1)?
                .split(' ')
                .next()
                .map(str::to_string)
        })
        .collect()
}

/// Whether a process is still there (a zombie no one reaps counts as gone).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            let state = s.rsplit(") ").next().and_then(|r| r.chars().next());
            state != Some('Z')
        })
        .unwrap_or(false)
}

/// A job killed outright (mpirun gets SIGKILL and cannot clean up) must not leave
/// ranks running: OpenMPI's runtime ends them when their launcher's connection drops.
#[test]
fn ranks_do_not_outlive_a_killed_mpirun() {
    let _job = one_job();
    let chain = plugin("fixture_chain");
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let mut job = mpi_job(
        3,
        &[
            "--plugin",
            chain.to_str().expect("utf-8 path"),
            "--variant",
            "slow",
            "solve",
            "--db",
            &db,
        ],
    );
    let mut child = job
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting mpirun (is OpenMPI installed?)");
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let reader = {
        let log = log.clone();
        let err = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                log.lock().unwrap().push(line);
            }
        })
    };
    let started = Instant::now();
    let pids = loop {
        let lines = log.lock().unwrap().clone();
        let pids = rank_pids(&lines);
        if pids.len() == 3 && lines.iter().any(|l| l.contains(" stored tier ")) {
            break pids;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the ranks did not start:\n{}",
            lines.join("\n")
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    child.kill().expect("killing mpirun"); // SIGKILL: mpirun cannot clean up
    child.wait().expect("reaping mpirun");
    let deadline = Instant::now() + Duration::from_secs(20);
    while pids.iter().any(|p| alive(p)) {
        assert!(
            Instant::now() < deadline,
            "ranks {:?} still run 20 s after mpirun was killed",
            pids.iter().filter(|p| alive(p)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("log reader");
}

/// Runs an MPMD job (`mpirun -np A host-mpi X : -np B host-mpi Y`) expected to fail,
/// and returns rank 0's error line.
fn failing_job(parts: &[(usize, Vec<String>)], envs: &[(&str, &str)]) -> (RunOutput, String) {
    let mut c = mpirun();
    for (i, (np, args)) in parts.iter().enumerate() {
        if i > 0 {
            c.arg(":");
        }
        c.arg("-np").arg(np.to_string()).arg(host_mpi()).args(args);
    }
    for (k, v) in envs {
        c.env(k, v);
    }
    let out = run(c, JOB_TIMEOUT);
    assert!(!out.status.success(), "{}", out.describe());
    assert_no_panic_noise(&out.stderr, &out.describe());
    let errors: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(
        errors.len(),
        1,
        "one error, from rank 0:\n{}",
        out.describe()
    );
    assert!(out.stdout.trim().is_empty(), "{}", out.describe());
    let e = errors[0].to_string();
    (out, e)
}

fn solve_args(variant: &str, db: &str) -> Vec<String> {
    [
        "--plugin",
        "quixo",
        "--variant",
        variant,
        "solve",
        "--db",
        db,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn no_tiers(db: &Path, variant: &str) {
    let dir = db.join(format!("quixo_{variant}_tierdb"));
    let left: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{} holds {left:?}", dir.display());
}

#[test]
fn ranks_with_another_variant_are_refused() {
    let _job = one_job();
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let (_, e) = failing_job(
        &[(1, solve_args("3x3", &db)), (2, solve_args("4x4", &db))],
        &[],
    );
    assert!(e.contains(") loaded variant 4x4 instead of 3x3; every rank must load the same module and variant (rank 0 has quixo 3x3), refusing to start"), "{e}");
    no_tiers(work.path(), "3x3");
}

#[test]
fn an_unshared_directory_is_detected() {
    let _job = one_job();
    let a = tempfile::tempdir().expect("temp dir");
    let b = tempfile::tempdir().expect("temp dir");
    let (_, e) = failing_job(
        &[
            (1, solve_args("3x3", &db_arg(a.path()))),
            (2, solve_args("3x3", &db_arg(b.path()))),
        ],
        &[("GAMESMAN_MPI_SHARED_WAIT", "1")],
    );
    let dir_a = a.path().join("quixo_3x3_tierdb");
    let dir_b = b.path().join("quixo_3x3_tierdb");
    assert!(
        e.contains(&format!(
            "the database directory {} is not shared between the ranks",
            dir_a.display()
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!("{}/.mpi-check-", dir_b.display())),
        "{e}"
    );
    assert!(e.contains("(written by rank 0 on "), "{e}");
    assert!(
        e.contains("does not see the markers of ranks 1, 2 in"),
        "{e}"
    );
    // Markers are removed on both sides, and nothing was solved.
    no_tiers(a.path(), "3x3");
    no_tiers(b.path(), "3x3");
}

#[test]
fn a_memory_database_is_refused() {
    let _job = one_job();
    let (_, e) = failing_job(&[(2, solve_args("3x3", "memory:"))], &[]);
    assert_eq!(
        e,
        "error: solving over 2 MPI ranks needs a file:DIRECTORY database on a filesystem every rank sees, not 'memory:'"
    );
}

#[test]
fn a_failing_tier_names_the_rank_and_tier() {
    let _job = one_job();
    let work = tempfile::tempdir().expect("temp dir");
    let module = plugin("fixture_broken_do_move_panics");
    let args: Vec<String> = [
        "--plugin",
        module.to_str().expect("utf-8 path"),
        "solve",
        "--db",
        &db_arg(work.path()),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (out, e) = failing_job(&[(3, args)], &[]);
    assert!(e.starts_with("error: rank "), "{e}");
    assert!(
        e.contains(") failed on tier 4 (4 stones): game module 'broken_do_move_panics' failed"),
        "{e}"
    );
    assert!(
        e.ends_with("Tiers already stored are kept: run the same command again to resume"),
        "{e}"
    );
    // The busy ranks finished their tiers: no journal is left.
    assert!(
        !work
            .path()
            .join("broken_do_move_panics_regular_tierdb/.mpi-held-tiers")
            .exists(),
        "{}",
        out.describe()
    );
}

#[test]
fn a_host_without_mpi_under_mpirun_is_refused() {
    let _job = one_job();
    let work = tempfile::tempdir().expect("temp dir");
    let mut c = mpirun();
    c.args(["-np", "2"])
        .arg(host_binary())
        .args(solve_args("3x3", &db_arg(work.path())));
    let out = run(c, JOB_TIMEOUT);
    assert!(!out.status.success(), "{}", out.describe());
    assert!(
        out.stderr.contains("error: this host was started as one of 2 processes (by mpirun or srun), but it is built without MPI"),
        "{}",
        out.describe()
    );
    no_tiers(work.path(), "3x3");
}

/// The job's ranks write one database together without waiting for each other (rank 0
/// holds the directory's writer lock for all of them), while an independent solve of
/// the same database is kept out until the job ends.
#[test]
fn a_job_holds_the_database_against_other_solves() {
    let _job = one_job();
    let chain = plugin("fixture_chain");
    let chain = chain.to_str().expect("utf-8 path");
    let work = tempfile::tempdir().expect("temp dir");
    let db = db_arg(work.path());
    let args = [
        "--plugin",
        chain,
        "--variant",
        "slow",
        "solve",
        "--threads",
        "1",
        "--db",
        &db,
    ];
    let mut child = mpi_job(3, &args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting mpirun (is OpenMPI installed?)");
    let tdir = work.path().join("chain_slow_tierdb");
    let stored = || {
        std::fs::read_dir(&tdir).map_or(0, |rd| {
            rd.flatten()
                .filter(|e| {
                    let n = e.file_name().to_string_lossy().to_string();
                    n.starts_with("tier_") && n.ends_with(".gz")
                })
                .count()
        })
    };
    // Workers are writing (two tiers stored, by ranks that do not hold the lock).
    let started = Instant::now();
    while stored() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the job stored no tiers"
        );
        assert!(
            child.try_wait().expect("waiting").is_none(),
            "the job ended early"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut other = Command::new(host_binary());
    other.args(args).arg("--no-wait");
    let r = run(other, JOB_TIMEOUT);
    assert!(!r.status.success(), "{}", r.describe());
    assert!(
        r.stderr.contains("another solve is writing") && r.stderr.contains("chain_slow_tierdb"),
        "{}",
        r.describe()
    );
    // Bounded: ranks that waited for each other's lock would never end.
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            break status;
        }
        if started.elapsed() > JOB_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the job did not end in {JOB_TIMEOUT:?}: are its ranks waiting for each other?");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "the job failed: {status}");
    assert_eq!(stored(), 30, "every tier of the chain stored by the job");
}
