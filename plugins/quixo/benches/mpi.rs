//! The MPI benchmark: solves a quixo endgame once with one process (`host solve`) and
//! once with `mpirun -np N host-mpi solve` (a manager and N - 1 workers), each into a
//! fresh file database, prints wall and CPU seconds of both, and checks that every
//! tier file is the same bytes. Exits with 1 when they differ.
//!
//! `cargo bench -p quixo --bench mpi -- [VARIANT] [--endgame K] [--np N] [--threads T]
//! [--no-build]` (defaults: 5x5, endgame 1, 3 ranks, 1 thread a rank, 2 threads for the
//! one process). It first runs `cargo build --release -p host -p quixo` and `cargo build
//! --release -p host --features mpi --bin host-mpi` into this benchmark's own target
//! directory; it needs OpenMPI's `mpirun`. The 0-blank endgame is a test
//! (tests/tests/mpi.rs); this is the larger one, too long for the suite. This file
//! must not measure anything but the child processes.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

struct Options {
    variant: String,
    endgame: usize,
    np: usize,
    threads: usize,
    build: bool,
}

fn main() {
    let mut o = Options {
        variant: "5x5".into(),
        endgame: 1,
        np: 3,
        threads: 1,
        build: true,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> usize {
        v.and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            eprintln!("{what} takes a number");
            std::process::exit(2)
        })
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--no-build" => o.build = false,
            "--endgame" => o.endgame = number(args.next(), "--endgame"),
            "--np" => o.np = number(args.next(), "--np"),
            "--threads" => o.threads = number(args.next(), "--threads"),
            other if other.starts_with('-') => {
                eprintln!("unknown option {other}; usage: mpi [VARIANT] [--endgame K] [--np N] [--threads T] [--no-build]");
                std::process::exit(2);
            }
            other => o.variant = other.to_string(),
        }
    }
    let release = common::release_dir();
    if o.build {
        common::build(&release, &["-p", "host", "-p", "quixo"]);
        common::build(
            &release,
            &["-p", "host", "--features", "mpi", "--bin", "host-mpi"],
        );
    }
    let host = release.join("host");
    let host_mpi = release.join("host-mpi");
    for b in [&host, &host_mpi] {
        if !b.exists() {
            eprintln!("no {} (build it first)", b.display());
            std::process::exit(1);
        }
    }
    let scratch = std::env::temp_dir().join(format!("quixo-mpi-bench-{}", std::process::id()));
    let one_db = scratch.join("one");
    let mpi_db = scratch.join("mpi");
    let endgame = o.endgame.to_string();
    // By path: a bare name would look in the user plugin directory first.
    let plugin = release.join("libquixo.so").display().to_string();
    let solve_args = |db: &Path, threads: usize| -> Vec<String> {
        [
            "--plugin",
            &plugin,
            "--variant",
            &o.variant,
            "solve",
            "--endgame",
            &endgame,
            "--threads",
            &threads.to_string(),
            "--db",
            &format!("file:{}", db.display()),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };

    eprintln!(
        "solving quixo {} --endgame {} with one process, 2 threads ...",
        o.variant, o.endgame
    );
    let mut one = Command::new(&host);
    one.args(solve_args(&one_db, 2));
    let (one_wall, one_cpu) = timed(one);

    eprintln!(
        "solving it with mpirun -np {} host-mpi, {} thread(s) a rank ...",
        o.np, o.threads
    );
    let mut mpi = Command::new("mpirun");
    mpi.args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(o.np.to_string())
        .arg(&host_mpi)
        .args(solve_args(&mpi_db, o.threads))
        .env("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    let (mpi_wall, mpi_cpu) = timed(mpi);

    let dir = format!("quixo_{}_tierdb", o.variant);
    let a = files(&one_db.join(&dir));
    let b = files(&mpi_db.join(&dir));
    let differing: Vec<&String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .collect();
    let bytes: usize = a.values().map(Vec::len).sum();
    println!(
        "| quixo {} endgame {} | wall s | CPU s (all processes) |",
        o.variant, o.endgame
    );
    println!("| --- | --- | --- |");
    println!("| one process, 2 threads | {one_wall:.1} | {one_cpu:.1} |");
    println!(
        "| mpirun -np {}, {} thread(s) a rank | {mpi_wall:.1} | {mpi_cpu:.1} |",
        o.np, o.threads
    );
    println!(
        "tier files: {} from one process, {} over MPI, {bytes} bytes; {}",
        a.len(),
        b.len(),
        if differing.is_empty() && !a.is_empty() {
            "every file byte-identical".to_string()
        } else {
            format!("DIFFERENT: {differing:?}")
        }
    );
    let _ = std::fs::remove_dir_all(&scratch);
    if !differing.is_empty() || a.is_empty() {
        std::process::exit(1);
    }
}

/// Runs `cmd` to its end: wall seconds and the CPU seconds of it and its children
/// (`getrusage(RUSAGE_CHILDREN)` before and after). Exits when it fails.
fn timed(mut cmd: Command) -> (f64, f64) {
    let before = children_cpu();
    let t0 = Instant::now();
    let out = cmd.output().expect("starting the solve");
    let wall = t0.elapsed().as_secs_f64();
    if !out.status.success() {
        eprintln!(
            "the solve failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        std::process::exit(1);
    }
    (wall, children_cpu() - before)
}

fn children_cpu() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    s(u.ru_utime) + s(u.ru_stime)
}

/// Every file of a tier database directory, by name.
fn files(dir: &PathBuf) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read(e.path()).unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}
