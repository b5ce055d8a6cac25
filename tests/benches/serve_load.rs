//! Load on `host serve`: many concurrent clients on loopback asking for random Quixo
//! 4x4 positions (every position and all its children looked up in the solved
//! database on disk), reporting throughput and latency percentiles.
//!
//! Solve first (about 30 s): `target/release/host --plugin quixo solve --db file:/tmp/q44`
//! then `cargo bench -p e2e-tests --bench serve_load` (after
//! `cargo build --release --workspace`). Options after `--`: `--db file:DIR`,
//! `--clients N` (32), `--seconds S` per phase (10), `--requests N` per phase
//! (200,000), `--seed N`. Three phases: a server whose tier cache starts empty (the
//! first queries read tiers from disk), the same server again (tiers in memory), and a
//! server with the cache off (`--cache-mb 0`: every record from the files' blocks).
//! Every answer is checked (status 200, a position value); any failure fails the run.
//! Bounded in requests and time, and only ever sent to 127.0.0.1.

use e2e_tests::serve::{encode, Server};
use e2e_tests::workspace::host_binary;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Options {
    db: String,
    clients: usize,
    seconds: u64,
    requests: usize,
    seed: u64,
}

fn options() -> Options {
    let mut o = Options {
        db: "file:/tmp/q44".into(),
        clients: 32,
        seconds: 10,
        requests: 200_000,
        seed: 19,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--db" => o.db = value,
            "--clients" => o.clients = value.parse().expect("--clients N"),
            "--seconds" => o.seconds = value.parse().expect("--seconds S"),
            "--requests" => o.requests = value.parse().expect("--requests N"),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            // cargo bench passes --bench; nothing else is ours.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    assert!(o.clients > 0 && o.seconds > 0 && o.requests > 0);
    o
}

/// Uniformly random Quixo 4x4 positions (any of the 2 * 3^16 boards and sides), as
/// query strings.
fn positions(n: usize, seed: u64) -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let cells: Vec<String> = (0..4)
                .map(|_| {
                    (0..4)
                        .map(|_| ['-', 'X', 'O'][rng.gen_range(0..3)])
                        .collect()
                })
                .collect();
            let side = if rng.gen_bool(0.5) { 'X' } else { 'O' };
            encode(&format!("{}:{side}", cells.join("/")))
        })
        .collect()
}

struct Phase {
    name: &'static str,
    requests: usize,
    elapsed: Duration,
    latencies_us: Vec<u64>,
    server_cpu: Duration,
    client_cpu: Duration,
}

impl Phase {
    fn report(&self) {
        let mut l = self.latencies_us.clone();
        l.sort_unstable();
        let pct = |p: f64| l[((l.len() as f64 * p) as usize).min(l.len() - 1)] as f64 / 1000.0;
        let secs = self.elapsed.as_secs_f64();
        println!(
            "{:<28} {:>8} queries in {:>5.2} s: {:>7.0} queries/s; latency p50 {:>6.2} ms, p90 {:>6.2} ms, p99 {:>6.2} ms, max {:>7.2} ms; CPU: server {:.2} s ({:.0} us/query), clients {:.2} s",
            self.name,
            self.requests,
            secs,
            self.requests as f64 / secs,
            pct(0.50),
            pct(0.90),
            pct(0.99),
            *l.last().unwrap() as f64 / 1000.0,
            self.server_cpu.as_secs_f64(),
            1e6 * self.server_cpu.as_secs_f64() / self.requests as f64,
            self.client_cpu.as_secs_f64(),
        );
    }
}

/// User plus system CPU time of a process so far.
fn cpu_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0)
        + fields.get(12).and_then(|s| s.parse().ok()).unwrap_or(0);
    // Linux reports 100 ticks a second (USER_HZ) on every architecture we run on.
    Duration::from_millis(ticks * 10)
}

async fn run_phase(
    name: &'static str,
    server: &Server,
    queries: Arc<Vec<String>>,
    o: &Options,
) -> Phase {
    let client: Client<_, Empty<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let next = Arc::new(AtomicUsize::new(0));
    let deadline = Instant::now() + Duration::from_secs(o.seconds);
    let base = format!("{}/api/quixo/4x4/positions/?p=", server.url());
    let cpu_before = cpu_of(server.pid());
    let own_before = cpu_of(std::process::id());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..o.clients {
        let (client, next, queries, base) =
            (client.clone(), next.clone(), queries.clone(), base.clone());
        let limit = o.requests;
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= limit || Instant::now() >= deadline {
                    break;
                }
                let uri: hyper::Uri = format!("{base}{}", queries[i % queries.len()])
                    .parse()
                    .unwrap();
                let t = Instant::now();
                let response = client.get(uri).await.expect("a response");
                let status = response.status();
                let body = response
                    .into_body()
                    .collect()
                    .await
                    .expect("a body")
                    .to_bytes();
                latencies.push(t.elapsed().as_micros() as u64);
                assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
                assert!(
                    body.windows(15).any(|w| w == b"\"positionValue\""),
                    "not a position answer"
                );
            }
            latencies
        }));
    }
    let mut latencies_us = Vec::new();
    for t in tasks {
        latencies_us.extend(t.await.expect("a client task"));
    }
    let elapsed = started.elapsed();
    Phase {
        name,
        requests: latencies_us.len(),
        elapsed,
        latencies_us,
        server_cpu: cpu_of(server.pid()).saturating_sub(cpu_before),
        client_cpu: cpu_of(std::process::id()).saturating_sub(own_before),
    }
}

fn main() {
    let o = options();
    let dir = o.db.strip_prefix("file:").expect("--db file:DIR");
    let tiers = std::path::Path::new(dir).join("quixo_4x4_tierdb");
    let stored = std::fs::read_dir(&tiers).map(|d| d.count()).unwrap_or(0);
    if stored < 153 {
        eprintln!(
            "{} holds {stored} of Quixo 4x4's 153 tiers: solve it first (about 30 s):\n  target/release/host --plugin quixo solve --db {}",
            tiers.display(),
            o.db
        );
        std::process::exit(2);
    }
    let queries = Arc::new(positions(o.requests.min(100_000), o.seed));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    println!(
        "host serve, Quixo 4x4 from {}: {} clients on 127.0.0.1, at most {} queries or {} s per phase, {} distinct random positions",
        o.db,
        o.clients,
        o.requests,
        o.seconds,
        queries.len()
    );
    let cached = Server::start(&host_binary(), &["quixo"], &o.db);
    let cold = runtime.block_on(run_phase(
        "cache on, starting empty",
        &cached,
        queries.clone(),
        &o,
    ));
    cold.report();
    let warm = runtime.block_on(run_phase(
        "cache on, tiers in memory",
        &cached,
        queries.clone(),
        &o,
    ));
    warm.report();
    drop(cached);
    let files = Server::start_with(
        &host_binary(),
        &["quixo"],
        &["--db", &o.db, "--cache-mb", "0"],
    );
    let blocks = runtime.block_on(run_phase("cache off (file blocks)", &files, queries, &o));
    blocks.report();
}
