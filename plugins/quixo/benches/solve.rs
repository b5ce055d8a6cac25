//! The solve benchmark: runs the real `host` binary on the Quixo plugin (`.so`, through
//! the plugin ABI; or another bundled plugin with `--plugin`) with 1 and 2 threads into a
//! fresh file database, and prints wall time, CPU time, positions per second, the
//! child's peak memory and the bytes of the tier files as a table.
//!
//! `cargo bench -p quixo --bench solve -- [VARIANT] [--threads 1,2] [--verify off,sample,full]
//! [--plugin NAME] [--reachable] [--no-build]` (VARIANT defaults to the plugin's default,
//! 4x4 for quixo; verification to the host's default, sample; `--reachable` solves only
//! the positions reachable from the start).
//! With several `--verify` modes each thread count is solved once per mode, and the
//! table shows each mode's CPU time over `off`'s: the cost of verification. It first runs `cargo build --release -p host -p quixo`
//! into this benchmark's own target directory, so the binary and the plugin it times
//! are the current code. Peak memory is the child's `ru_maxrss` from `wait4`, which
//! is exact per child. This file must not measure anything but the child processes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run that takes longer than this is killed (quixo 4x4 takes well under a minute).
const TIME_LIMIT: Duration = Duration::from_secs(1200);

/// What one solve cost.
struct Run {
    threads: usize,
    verify: String,
    wall: f64,
    cpu: f64,
    peak_mb: f64,
    positions: u64,
    bytes: u64,
    initial: String,
}

/// What to solve and how.
struct Job {
    plugin: String,
    variant: Option<String>,
    reachable: bool,
}

fn main() {
    let mut job = Job {
        plugin: "quixo".to_string(),
        variant: None,
        reachable: false,
    };
    let mut threads = vec![1usize, 2];
    let mut verifies = vec!["sample".to_string()];
    let mut build = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // cargo passes --bench to every benchmark binary.
            "--bench" => {}
            "--no-build" => build = false,
            "--reachable" => job.reachable = true,
            "--plugin" => job.plugin = args.next().expect("--plugin takes a bundled plugin's name"),
            "--threads" => {
                let list = args.next().unwrap_or_default();
                threads = list
                    .split(',')
                    .map(|t| t.trim().parse().expect("--threads takes a list like 1,2"))
                    .collect();
            }
            "--verify" => {
                let list = args.next().unwrap_or_default();
                verifies = list.split(',').map(|v| v.trim().to_string()).collect();
            }
            other if other.starts_with('-') => {
                eprintln!(
                    "unknown option {other}; usage: solve [VARIANT] [--threads 1,2] [--verify off,sample,full] [--plugin NAME] [--reachable] [--no-build]"
                );
                std::process::exit(2);
            }
            other => job.variant = Some(other.to_string()),
        }
    }

    // The benchmark runs as <target>/release/deps/solve-HASH.
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let release = exe
        .parent()
        .and_then(Path::parent)
        .expect("the benchmark lives in <target>/release/deps")
        .to_path_buf();
    if job.variant.is_none() && job.plugin == "quixo" {
        job.variant = Some("4x4".to_string());
    }
    if build {
        build_host(&release, &job.plugin);
    }
    let host = release.join("host");
    if !host.exists() {
        eprintln!(
            "no host binary at {}: run cargo build --release -p host -p quixo",
            host.display()
        );
        std::process::exit(1);
    }

    let runs: Vec<Run> = threads
        .iter()
        .flat_map(|&t| verifies.iter().map(move |v| (t, v)))
        .map(|(t, v)| solve(&host, &job, t, v))
        .collect();
    print_table(&job, &runs);
}

/// Builds the host binary and the plugin into the target directory holding `release`.
fn build_host(release: &Path, plugin: &str) {
    let target = release.parent().expect("<target>/release");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("building host and the {plugin} plugin (release) ...");
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "host", "-p", plugin])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("running cargo build");
    assert!(status.success(), "cargo build failed");
}

/// Solves `variant` with `threads` threads into a fresh temporary directory.
// The child is reaped by `wait4` below, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn solve(host: &Path, job: &Job, threads: usize, verify: &str) -> Run {
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "{}-bench-{}-{threads}",
        job.plugin,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    eprintln!(
        "solving {} {} with {threads} thread(s), --verify {verify}{}, into {} ...",
        job.plugin,
        job.variant.as_deref().unwrap_or("(default)"),
        if job.reachable {
            ", reachable only"
        } else {
            ""
        },
        dir.display()
    );
    let mut cmd = Command::new(host);
    cmd.args(["--plugin", &job.plugin]);
    if let Some(v) = &job.variant {
        cmd.args(["--variant", v]);
    }
    cmd.arg("solve");
    if job.reachable {
        cmd.arg("--reachable");
    }
    let start = Instant::now();
    let child = cmd
        .arg("--db")
        .arg(format!("file:{}", dir.display()))
        .args(["--threads", &threads.to_string(), "--force"])
        .args(["--verify", verify])
        // Per-tier progress lines would only add noise (and a little time).
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("starting the host");
    let pid = child.id() as libc::pid_t;
    // Reap the child ourselves with wait4: its rusage holds its own peak memory and
    // CPU time (RUSAGE_CHILDREN would mix in every earlier run).
    let (status, usage) = loop {
        let mut status = 0;
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(r >= 0, "wait4 failed");
        if r == pid {
            break (status, usage);
        }
        if start.elapsed() > TIME_LIMIT {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            panic!("the solve took more than {TIME_LIMIT:?} and was killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall = start.elapsed().as_secs_f64();
    let mut out = String::new();
    use std::io::Read;
    child
        .stdout
        .expect("piped stdout")
        .read_to_string(&mut out)
        .expect("reading the host's output");
    let bytes = tree_bytes(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the host failed:\n{out}"
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    Run {
        threads,
        verify: verify.to_string(),
        wall,
        cpu: secs(usage.ru_utime) + secs(usage.ru_stime),
        // Linux reports ru_maxrss in kilobytes.
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        positions: parse_positions(&out),
        bytes,
        initial: out
            .lines()
            .find_map(|l| l.strip_prefix("initial position "))
            .unwrap_or("?")
            .to_string(),
    }
}

/// The bytes of every file under `dir` (the tier files of the solve).
fn tree_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => tree_bytes(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// N in the host's summary "..., N positions solved in T s (...)" (N written with
/// thousands separators).
fn parse_positions(out: &str) -> u64 {
    out.split(", ")
        .find_map(|part| part.split_once(" positions solved in").map(|(n, _)| n))
        .and_then(|n| n.trim().replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no position count in the host's output:\n{out}"))
}

fn print_table(job: &Job, runs: &[Run]) {
    let first = &runs[0];
    let variant = job.variant.as_deref().unwrap_or("(default variant)");
    println!();
    println!(
        "{} {variant}{}: {} positions solved; initial position {}",
        job.plugin,
        if job.reachable {
            " (reachable only)"
        } else {
            ""
        },
        first.positions,
        first.initial
    );
    println!(
        "tier files: {} bytes, {:.4} bytes per position solved",
        first.bytes,
        first.bytes as f64 / first.positions.max(1) as f64
    );
    println!(
        "{:>7}  {:>7}  {:>9}  {:>9}  {:>13}  {:>11}  {:>7}  {:>14}",
        "threads",
        "verify",
        "wall (s)",
        "CPU (s)",
        "positions/s",
        "peak (MB)",
        "speedup",
        "CPU over off"
    );
    for r in runs {
        // Verification's cost: CPU time over the unverified solve on as many threads
        // (CPU time, as wall time on a shared machine says little).
        let off = runs
            .iter()
            .find(|o| o.threads == r.threads && o.verify == "off");
        let overhead = match off {
            Some(o) if r.verify != "off" => format!("{:+.1}%", (r.cpu / o.cpu - 1.0) * 100.0),
            _ => "-".to_string(),
        };
        println!(
            "{:>7}  {:>7}  {:>9.2}  {:>9.2}  {:>11.2} M  {:>11.1}  {:>6.2}x  {:>14}",
            r.threads,
            r.verify,
            r.wall,
            r.cpu,
            r.positions as f64 / r.wall / 1e6,
            r.peak_mb,
            first.wall / r.wall,
            overhead
        );
    }
    if job.plugin == "quixo" && variant == "4x4" && !job.reachable {
        // shared/reference/anchor-figures.md: GamesmanOne v1.3.0 built and run on this
        // kind of machine, medians of 3.
        println!("GamesmanOne v1.3.0 (anchor figures, same kind of machine): 1 thread 37.5 s wall, 37.4 s CPU, 258 MB; 2 threads 50.4 s wall, 61.4 s CPU; tier files 1,854,092 bytes (xz)");
        println!("goal (issue 23): at most a third of GamesmanOne's CPU on 1 thread (about 12.5 s), tier files at most its 1,854,092 bytes");
    }
}
