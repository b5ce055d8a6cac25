//! Lookups through an `http://` database against the same lookups through `file:`:
//! random Quixo 4x4 positions (spread over every tier) looked up one at a time in
//! process, from a `host serve` on 127.0.0.1. Phases: `file:` (a fresh handle: each
//! tier's header and index read on first use, blocks decompressed and kept), `http:`
//! without a cache (header and index by Range GET once per tier, one block per lookup
//! with recently used blocks kept), `http:` with `--cache` cold (each tier fetched
//! whole, checked and written to the cache on first use), and the same cache warm (a
//! new handle: every tier read from the cache). Every answer is compared with `file:`.
//!
//! Solve first: `target/release/host --plugin quixo solve --db file:/tmp/q44`, then
//! `cargo bench -p e2e-tests --bench net_lookup` (after `cargo build --release
//! --workspace`). Options after `--`: `--db file:DIR` (file:/tmp/q44), `--lookups N`
//! (20,000), `--seed N`. Bounded in lookups; only ever talks to 127.0.0.1.

use e2e_tests::serve::Server;
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::db::{file::FileDb, Database, GameKey};
use gamesman_host::engine::tier::TierGraph;
use gamesman_plugin_api::TierPosition;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut db = "file:/tmp/q44".to_string();
    let mut lookups = 20_000usize;
    let mut seed = 7u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--db" => db = args.next().expect("--db DIR"),
            "--lookups" => {
                lookups = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--lookups N")
            }
            "--seed" => seed = args.next().and_then(|n| n.parse().ok()).expect("--seed N"),
            other => panic!("unknown option {other}"),
        }
    }
    let root = PathBuf::from(db.strip_prefix("file:").unwrap_or(&db));
    let module =
        gamesman_host::engine::load::loader::load(plugin("quixo").to_str().unwrap()).unwrap();
    let game = module.open(Some("4x4")).unwrap();
    let key = GameKey::of(&game);
    let file = FileDb::open(root.clone(), key.clone()).unwrap();
    assert!(
        !file.stored_tiers().unwrap().is_empty(),
        "nothing solved in {db}: run `target/release/host --plugin quixo solve --db {db}` first"
    );
    let graph = TierGraph::discover(&game).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let positions: Vec<TierPosition> = (0..lookups)
        .map(|_| {
            let n = &graph.order[rng.gen_range(0..graph.order.len())];
            TierPosition::new(n.tier, rng.gen_range(0..n.size))
        })
        .collect();
    let expected: Vec<_> = positions.iter().map(|p| file.lookup(*p).unwrap()).collect();

    let server = Server::start(&host_binary(), &["quixo"], &db);
    let base = format!("{}/db", server.url());
    let cache = tempfile::tempdir().unwrap();
    let phase = |name: &str, d: &dyn Database| {
        let t = Instant::now();
        for (p, want) in positions.iter().zip(&expected) {
            assert_eq!(&d.lookup(*p).unwrap(), want, "{name} at {p:?}");
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name:<28} {lookups:>7} lookups in {s:>7.2} s = {:>9.0} lookups/s",
            lookups as f64 / s
        );
    };
    println!(
        "quixo 4x4, {lookups} random positions over {} tiers",
        graph.order.len()
    );
    phase("file:", &FileDb::open(root, key.clone()).unwrap());
    phase(
        "http:",
        &FileDb::open_http(&base, key.clone(), None).unwrap(),
    );
    phase(
        "http: --cache (cold)",
        &FileDb::open_http(&base, key.clone(), Some(cache.path().into())).unwrap(),
    );
    phase(
        "http: --cache (warm)",
        &FileDb::open_http(&base, key, Some(cache.path().into())).unwrap(),
    );
}
