//! The solve benchmark: runs the real `host` binary on the Quixo plugin (`.so`, through
//! the plugin ABI; or another bundled plugin with `--plugin`) with 1 and 2 threads into a
//! fresh file database, and prints wall time, CPU time, positions per second (and
//! canonical positions held per CPU second, where symmetric ones are solved once), the
//! child's peak memory and the bytes of the tier files as a table.
//!
//! `cargo bench -p quixo --bench solve -- [VARIANT] [--threads 1,2] [--verify off,sample,full]
//! [--memory-limit default,1G] [--rounds N] [--plugin NAME] [--reachable] [--endgame 0,1,2,3]
//! [--no-anchor] [--no-build]` (VARIANT
//! defaults to the plugin's default, 4x4 for quixo; verification to the host's default,
//! sample; `--reachable` solves only the positions reachable from the start;
//! `--endgame` solves each listed endgame, K blanks at most on quixo, into its own
//! database).
//!
//! On quixo every solve is then counted with `analyze --every-position` and compared
//! class by class with the published tables (`../shared/reference/quixo4-classes.tsv`,
//! `quixo5-classes.tsv`; each side to move of tier {a, b} equals class (a, b) plus
//! class (b, a), as `tests/classes.rs` explains). On quixo
//! 4x4, GamesmanOne (`../shared/anchors/gamesmanone-1.3.0`, when present) solves the same
//! game right after each of our runs, with as many OpenMP threads, and the table shows
//! the ratio of CPU times measured side by side (`--no-anchor` skips it).
//! With several `--verify` modes each thread count is solved once per mode, and the
//! table shows each mode's CPU time over `off`'s: the cost of verification. With several
//! `--memory-limit` budgets (`default` passes none) each is solved in turn, `--rounds`
//! times, alternated, and the table shows each run's CPU time over the first budget's
//! run of the same round (pair by pair, then their median) and whether the tier files of
//! every budget are the same bytes. It first runs `cargo build --release -p host -p quixo`
//! into this benchmark's own target directory, so the binary and the plugin it times
//! are the current code. Peak memory is the child's `ru_maxrss` from `wait4`, which
//! is exact per child. This file must not measure anything but the child processes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run that takes longer than this is killed (quixo 4x4 takes well under a minute,
/// the 5x5 endgame of 3 blanks about an hour).
const TIME_LIMIT: Duration = Duration::from_secs(4 * 3600);

/// What one solve cost.
struct Run {
    threads: usize,
    verify: String,
    /// `--memory-limit`, or `None` for the host's default.
    limit: Option<String>,
    /// The round of alternation this run belongs to.
    round: usize,
    /// A hash of the tier files' names and bytes.
    files: u64,
    wall: f64,
    cpu: f64,
    peak_mb: f64,
    positions: u64,
    /// Of them, the canonical positions the solver held (all when the game has no
    /// symmetry).
    canonical: u64,
    bytes: u64,
    initial: String,
    /// The endgame solved (`--endgame K`), if not the whole game.
    endgame: Option<usize>,
    /// Classes equal to the published table, of those compared.
    classes: Option<(usize, usize)>,
    /// GamesmanOne's CPU seconds and peak MB on the same game, run right after.
    anchor: Option<(f64, f64)>,
    /// The load average (1 minute) when the run started.
    load: f64,
}

/// What to solve and how.
struct Job {
    plugin: String,
    variant: Option<String>,
    reachable: bool,
    /// GamesmanOne's binary, run after each quixo 4x4 solve.
    anchor: Option<PathBuf>,
}

fn main() {
    let mut job = Job {
        plugin: "quixo".to_string(),
        variant: None,
        reachable: false,
        anchor: None,
    };
    let mut endgames: Vec<Option<usize>> = vec![None];
    let mut use_anchor = true;
    let mut threads = vec![1usize, 2];
    let mut verifies = vec!["sample".to_string()];
    let mut limits: Vec<Option<String>> = vec![None];
    let mut rounds = 1usize;
    let mut build = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            // cargo passes --bench to every benchmark binary.
            "--bench" => {}
            "--no-build" => build = false,
            "--reachable" => job.reachable = true,
            "--no-anchor" => use_anchor = false,
            "--endgame" => {
                let list = args.next().unwrap_or_default();
                endgames = list
                    .split(',')
                    .map(|k| Some(k.trim().parse().expect("--endgame takes a list like 0,1")))
                    .collect();
            }
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
            "--memory-limit" => {
                let list = args.next().unwrap_or_default();
                limits = list
                    .split(',')
                    .map(|v| Some(v.trim().to_string()).filter(|v| v != "default"))
                    .collect();
            }
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds takes a count");
            }
            other if other.starts_with('-') => {
                eprintln!(
                    "unknown option {other}; usage: solve [VARIANT] [--threads 1,2] [--verify off,sample,full] [--memory-limit default,1G] [--rounds N] [--plugin NAME] [--reachable] [--endgame 0,1,2,3] [--no-anchor] [--no-build]"
                );
                std::process::exit(2);
            }
            other => job.variant = Some(other.to_string()),
        }
    }

    let release = common::release_dir();
    if job.variant.is_none() && job.plugin == "quixo" {
        job.variant = Some("4x4".to_string());
    }
    if build {
        common::build(&release, &["-p", "host", "-p", &job.plugin]);
    }
    let host = release.join("host");
    if !host.exists() {
        eprintln!(
            "no host binary at {}: run cargo build --release -p host -p quixo",
            host.display()
        );
        std::process::exit(1);
    }

    let anchor =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/anchors/gamesmanone-1.3.0");
    let whole_4x4 = job.plugin == "quixo"
        && job.variant.as_deref() == Some("4x4")
        && !job.reachable
        && endgames == [None];
    if use_anchor && whole_4x4 && anchor.exists() {
        job.anchor = Some(anchor);
    }
    for &endgame in &endgames {
        let mut configs = Vec::new();
        for round in 0..rounds {
            for &t in &threads {
                for v in &verifies {
                    for l in &limits {
                        configs.push((round, t, v.as_str(), l.clone()));
                    }
                }
            }
        }
        let runs: Vec<Run> = configs
            .into_iter()
            .enumerate()
            .map(|(k, (round, t, v, l))| {
                let mut r = solve(&host, &job, t, v, l.as_deref(), endgame, k == 0);
                r.round = round;
                r
            })
            .collect();
        print_table(&job, &runs);
    }
}

/// Solves `variant` with `threads` threads into a fresh temporary directory.
// The child is reaped by `wait4` below, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn solve(
    host: &Path,
    job: &Job,
    threads: usize,
    verify: &str,
    limit: Option<&str>,
    endgame: Option<usize>,
    compare: bool,
) -> Run {
    let load = load_average();
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "{}-bench-{}-{threads}",
        job.plugin,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    eprintln!(
        "solving {} {} with {threads} thread(s), --verify {verify}, --memory-limit {}{}, into {} ...",
        job.plugin,
        job.variant.as_deref().unwrap_or("(default)"),
        limit.unwrap_or("(default)"),
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
    if let Some(k) = endgame {
        cmd.args(["--endgame", &k.to_string()]);
    }
    cmd.arg("--db")
        .arg(format!("file:{}", dir.display()))
        .args(["--threads", &threads.to_string(), "--force"])
        .args(["--verify", verify])
        // Per-tier progress lines would only add noise (and a little time).
        .env("RUST_LOG", "warn");
    if let Some(l) = limit {
        cmd.args(["--memory-limit", l]);
    }
    let (status, wall, cpu, peak_mb, out) = measure(cmd);
    let bytes = tree_bytes(&dir);
    let files = tree_hash(&dir);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the host failed:\n{out}"
    );
    let classes = if compare && job.plugin == "quixo" {
        classes(host, job, &dir)
    } else {
        None
    };
    let _ = std::fs::remove_dir_all(&dir);
    let anchor = job.anchor.as_ref().map(|a| gamesman_one(a, threads));
    Run {
        threads,
        verify: verify.to_string(),
        limit: limit.map(str::to_string),
        round: 0,
        files,
        wall,
        cpu,
        peak_mb,
        positions: parse_positions(&out),
        canonical: parse_canonical(&out).unwrap_or_else(|| parse_positions(&out)),
        bytes,
        initial: out
            .lines()
            .find_map(|l| l.strip_prefix("initial position "))
            .unwrap_or("?")
            .to_string(),
        endgame,
        classes,
        anchor,
        load,
    }
}

/// The 1-minute load average (the machine is shared: figures need it beside them).
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|l| l.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// Runs `cmd` to its end: exit status, wall seconds, CPU seconds (user + system), peak
/// memory in MB, and its standard output.
// The child is reaped by `wait4` below, which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn measure(mut cmd: Command) -> (i32, f64, f64, f64, String) {
    let start = Instant::now();
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("starting a solver");
    let pid = child.id() as libc::pid_t;
    // Read the output while the child runs (a full pipe would stop it).
    let mut stdout = child.stdout.expect("piped stdout");
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut out = String::new();
        stdout
            .read_to_string(&mut out)
            .expect("reading the solver's output");
        out
    });
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
    let out = reader.join().expect("the output reader");
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (
        status,
        wall,
        secs(usage.ru_utime) + secs(usage.ru_stime),
        // Linux reports ru_maxrss in kilobytes.
        usage.ru_maxrss as f64 / 1024.0,
        out,
    )
}

/// GamesmanOne solving quixo 4x4 with `threads` OpenMP threads in a scratch
/// directory: its CPU seconds and peak MB.
fn gamesman_one(binary: &Path, threads: usize) -> (f64, f64) {
    let dir = std::env::temp_dir().join(format!("gamesmanone-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    eprintln!("solving quixo 4x4 with GamesmanOne, {threads} thread(s) ...");
    let mut cmd = Command::new(binary);
    cmd.args(["--data-path=g", "solve", "quixo", "1"])
        .current_dir(&dir)
        .env("OMP_NUM_THREADS", threads.to_string());
    let (status, _, cpu, peak, out) = measure(cmd);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "GamesmanOne failed:\n{out}"
    );
    (cpu, peak)
}

/// The published table of quixo `variant` (4x4 or 5x5): (win, lose, draw) per class
/// (x, o) with O to move, from O's view.
fn table(variant: &str) -> Option<std::collections::HashMap<(u64, u64), [u64; 3]>> {
    let name = match variant {
        "4x4" => "quixo4-classes.tsv",
        "5x5" => "quixo5-classes.tsv",
        _ => return None,
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/reference")
        .join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    let mut t = std::collections::HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('x'))
    {
        let f: Vec<u64> = line
            .split('\t')
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        if f.len() == 6 {
            t.insert((f[0], f[1]), [f[3], f[4], f[5]]);
        }
    }
    Some(t)
}

/// Counts every position of the database in `dir` (`analyze --every-position`) and
/// compares each solved tier's two sides to move with the published table: (equal,
/// compared), or `None` without a table.
fn classes(host: &Path, job: &Job, dir: &Path) -> Option<(usize, usize)> {
    let variant = job.variant.as_deref()?;
    let table = table(variant)?;
    eprintln!("counting every position (analyze --every-position) ...");
    let mut cmd = Command::new(host);
    cmd.args(["--plugin", &job.plugin, "--variant", variant])
        .args(["analyze", "--every-position", "--json", "--db"])
        .arg(format!("file:{}", dir.display()))
        .env("RUST_LOG", "warn");
    let (status, _, cpu, _, out) = measure(cmd);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "analyze failed"
    );
    eprintln!("analyze took {cpu:.1} s of CPU");
    let a: serde_json::Value = serde_json::from_str(&out).expect("analyze's JSON");
    let (mut equal, mut compared) = (0, 0);
    for tier in a["tiers"]
        .as_array()?
        .iter()
        .filter(|t| t["solved"] == true)
    {
        let name = tier["name"].as_str()?;
        let parts: Vec<u64> = name
            .split('_')
            .skip(1)
            .filter_map(|p| p.trim_end_matches(['X', 'O']).parse().ok())
            .collect();
        let (x, o) = (parts[0], parts[1]);
        // As plugins/quixo/tests/classes.rs explains: tier {x, o} (x <= o) holds the
        // boards (x, o) and (o, x), both sides to move; from the mover's view, each side
        // equals class (x, o) plus class (o, x) of the table (class (x, x) alone when
        // x = o).
        let want = if x == o {
            table.get(&(x, x)).copied()
        } else {
            match (table.get(&(x, o)), table.get(&(o, x))) {
                (Some(a), Some(b)) => Some([a[0] + b[0], a[1] + b[1], a[2] + b[2]]),
                _ => None,
            }
        };
        for turn in 0..2 {
            let v = &tier["legal"]["by_turn"][turn]["by_value"];
            let got = [&v["win"], &v["lose"], &v["draw"]].map(|n| n.as_u64().unwrap_or(u64::MAX));
            compared += 1;
            if Some(got) == want {
                equal += 1;
            } else {
                eprintln!("MISMATCH: tier {name}, side {turn}: {got:?}, the table {want:?}");
            }
        }
    }
    Some((equal, compared))
}

/// Every file under `dir` (not directories), as paths below `dir`, in name order.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => walk(root, &e.path(), files),
                _ => files.push(e.path().strip_prefix(root).unwrap().to_path_buf()),
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files.sort();
    files
}

/// The bytes of every file under `dir` (the tier files of the solve).
fn tree_bytes(dir: &Path) -> u64 {
    files_under(dir)
        .iter()
        .map(|f| std::fs::symlink_metadata(dir.join(f)).map_or(0, |m| m.len()))
        .sum()
}

/// A hash of the names (below `dir`) and bytes of every file under `dir`, in name
/// order, to tell whether two solves wrote the same tier files.
fn tree_hash(dir: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let files = files_under(dir);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in files {
        // The lock and the solve's log are not tier files.
        if f.extension().is_some_and(|e| e == "lock" || e == "log") {
            continue;
        }
        f.hash(&mut h);
        std::fs::read(dir.join(&f)).unwrap_or_default().hash(&mut h);
    }
    h.finish()
}

/// N in the host's summary line "canonical positions held: N (...)", printed when it
/// holds fewer positions than it solves.
fn parse_canonical(out: &str) -> Option<u64> {
    let rest = out
        .lines()
        .find_map(|l| l.strip_prefix("canonical positions held: "))?;
    rest.split_whitespace()
        .next()?
        .replace(',', "")
        .parse()
        .ok()
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
        "{} {variant}{}{}: {} positions solved; initial position {}",
        job.plugin,
        if job.reachable {
            " (reachable only)"
        } else {
            ""
        },
        match first.endgame {
            Some(k) => format!(" endgame {k} (solve --endgame {k})"),
            None => String::new(),
        },
        first.positions,
        first.initial
    );
    match first.classes {
        Some((equal, compared)) => println!(
            "classes: {equal} of {compared} (tier, side to move) equal the published table{}",
            if equal == compared {
                ""
            } else {
                " -- MISMATCH"
            }
        ),
        None => println!("classes: not compared (no table for this game, or ../shared missing)"),
    }
    println!(
        "tier files: {} bytes, {:.4} bytes per position solved; {} canonical positions held",
        first.bytes,
        first.bytes as f64 / first.positions.max(1) as f64,
        first.canonical
    );
    println!(
        "{:>7}  {:>7}  {:>9}  {:>9}  {:>9}  {:>13}  {:>15}  {:>11}  {:>7}  {:>14}  {:>13}  {:>6}  {:>22}",
        "threads",
        "verify",
        "budget",
        "wall (s)",
        "CPU (s)",
        "positions/s",
        "canonical/CPU s",
        "peak (MB)",
        "speedup",
        "CPU over off",
        "CPU over 1st",
        "load",
        "GamesmanOne CPU, ratio"
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
        // The budget's cost: CPU time over the same round's run under the first budget
        // on as many threads with the same verification (pair by pair).
        let budget_ratio = match first_budget(runs, r) {
            Some(o) if o.limit != r.limit => format!("{:.3}", r.cpu / o.cpu),
            _ => "-".to_string(),
        };
        let anchor = match r.anchor {
            Some((cpu, _)) => format!("{cpu:.2} s, {:.2}", r.cpu / cpu),
            None => "-".to_string(),
        };
        println!(
            "{:>7}  {:>7}  {:>9}  {:>9.2}  {:>9.2}  {:>11.2} M  {:>13.2} M  {:>11.1}  {:>6.2}x  {:>14}  {:>13}  {:>6.2}  {:>22}",
            r.threads,
            r.verify,
            r.limit.as_deref().unwrap_or("default"),
            r.wall,
            r.cpu,
            r.positions as f64 / r.wall / 1e6,
            r.canonical as f64 / r.cpu / 1e6,
            r.peak_mb,
            first.wall / r.wall,
            overhead,
            budget_ratio,
            r.load,
            anchor
        );
    }
    budget_summary(runs);
    if job.plugin == "quixo" && variant == "4x4" && !job.reachable {
        // shared/reference/anchor-figures.md: GamesmanOne v1.3.0 built and run on this
        // kind of machine, medians of 3.
        println!("GamesmanOne v1.3.0 (anchor figures, same kind of machine): 1 thread 37.5 s wall, 37.4 s CPU, 258 MB; 2 threads 50.4 s wall, 61.4 s CPU; tier files 1,854,092 bytes (xz)");
        println!("goal (issue 23): at most a third of GamesmanOne's CPU on 1 thread (about 12.5 s), tier files at most its 1,854,092 bytes");
    }
}

/// The run of `r`'s round, threads and verification under the first budget listed.
fn first_budget<'a>(runs: &'a [Run], r: &Run) -> Option<&'a Run> {
    runs.iter()
        .find(|o| o.round == r.round && o.threads == r.threads && o.verify == r.verify)
}

/// With several budgets: each one's median CPU ratio over the first budget (pair by
/// pair), and whether every run wrote the same tier files.
fn budget_summary(runs: &[Run]) {
    let mut budgets: Vec<&Option<String>> = Vec::new();
    for r in runs {
        if !budgets.contains(&&r.limit) {
            budgets.push(&r.limit);
        }
    }
    if budgets.len() < 2 {
        return;
    }
    for b in &budgets[1..] {
        let mut ratios: Vec<f64> = runs
            .iter()
            .filter(|r| &&r.limit == b)
            .filter_map(|r| first_budget(runs, r).map(|o| r.cpu / o.cpu))
            .collect();
        ratios.sort_by(f64::total_cmp);
        if let Some(m) = ratios.get(ratios.len() / 2) {
            println!(
                "--memory-limit {}: CPU {m:.3} times --memory-limit {} (median of {} pairs: {})",
                b.as_deref().unwrap_or("default"),
                budgets[0].as_deref().unwrap_or("default"),
                ratios.len(),
                ratios
                    .iter()
                    .map(|x| format!("{x:.3}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let same = runs.iter().all(|r| r.files == runs[0].files);
    println!(
        "tier files of every run: {}",
        if same {
            "the same bytes"
        } else {
            "DIFFERENT -- MISMATCH"
        }
    );
}
