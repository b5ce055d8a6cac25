//! The `http://` database (issue 20), end to end against a real `host serve` on
//! 127.0.0.1: every position of mtttier and samples of Quixo 4x4 and Othello 4x4
//! answer the same through `http:` as through `file:`; a server stopped midway gives
//! a clear error and a rerun succeeds; a corrupted served tier is detected and never
//! cached or copied; the cache fills and then answers with the server gone; `db copy`
//! copies between resources byte for byte.

use e2e_tests::run::run_host;
use e2e_tests::serve::{resource, solved, Server};
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::db::{self, file::FileDb, Database, GameKey};
use gamesman_host::engine::tier::TierGraph;
use gamesman_host::GameHandle;
use gamesman_plugin_api::TierPosition;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::path::Path;
use std::sync::Arc;

fn game(module: &str, variant: &str) -> GameHandle {
    let m = gamesman_host::engine::load::loader::load(plugin(module).to_str().unwrap()).unwrap();
    m.open(Some(variant)).unwrap()
}

fn key(g: &GameHandle) -> GameKey {
    GameKey::of(g)
}

/// Positions to compare: every one (`None`) or this many, spread over every tier.
fn positions(g: &GameHandle, sample: Option<usize>) -> Vec<TierPosition> {
    let graph = TierGraph::discover(g).unwrap();
    let mut rng = StdRng::seed_from_u64(20);
    let mut out = Vec::new();
    for n in &graph.order {
        match sample {
            // The indices a database holds: the canonical prefix where the module
            // numbers canonical positions first.
            None => out.extend((0..n.stored).map(|i| TierPosition::new(n.tier, i))),
            Some(k) => {
                let per = (k / graph.order.len()).max(1);
                out.extend((0..per).map(|_| TierPosition::new(n.tier, rng.gen_range(0..n.stored))));
            }
        }
    }
    out
}

fn same_answers(
    g: &GameHandle,
    a: &dyn Database,
    b: &dyn Database,
    sample: Option<usize>,
) -> usize {
    let ps = positions(g, sample);
    for p in &ps {
        assert_eq!(
            a.lookup(*p).unwrap(),
            b.lookup(*p).unwrap(),
            "{} {} at {p:?}: {} and {} disagree",
            g.module_name(),
            g.variant(),
            a.describe(),
            b.describe()
        );
    }
    ps.len()
}

fn tier_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n.starts_with("tier_") && n.ends_with(".gz"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn http_answers_as_file_for_every_mtttier_position_and_samples_of_big_games() {
    let games = [
        ("mtttier", "regular"),
        ("quixo", "4x4"),
        ("mothello", "4x4"),
    ];
    let dir = solved(&host_binary(), &games);
    let server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let base = format!("{}/db", server.url());
    let mut compared = 0;
    for (module, variant) in games {
        let g = game(module, variant);
        let file = FileDb::open(dir.path().to_path_buf(), key(&g)).unwrap();
        let http = FileDb::open_http(&base, key(&g), None).unwrap();
        assert_eq!(http.stored_tiers().unwrap(), file.stored_tiers().unwrap());
        let sample = (module != "mtttier").then_some(3000);
        compared += same_answers(&g, &file, &http, sample);
    }
    // mtttier whole (6,046 positions in its hash) and 3,000-odd sampled per big game.
    assert!(compared > 6046 + 2 * 2900, "{compared}");

    // The command of the issue: query through http: prints what file: prints.
    let q = |db: &str| {
        let r = run_host(
            &host_binary(),
            &["--plugin", "mtttier", "query", "--db", db, "X--------"],
        );
        r.assert_success();
        r.stdout
    };
    assert_eq!(q(&base), q(&resource(&dir)));
    assert!(q(&base).contains("Player 2 to move: tie in 8"));

    // file: to memory: through the seed's transfer, then every position again.
    let g = game("mtttier", "regular");
    let file = FileDb::open(dir.path().to_path_buf(), key(&g)).unwrap();
    let mem = db::open("memory:", &key(&g)).unwrap();
    let metas: Vec<db::TierMeta> = TierGraph::discover(&g)
        .unwrap()
        .order
        .iter()
        .map(|n| db::TierMeta {
            tier: n.tier,
            name: n.name.clone(),
            size: n.size,
        })
        .collect();
    assert_eq!(
        db::transfer(&file, mem.as_ref(), &metas, false).unwrap(),
        10
    );
    same_answers(&g, &file, mem.as_ref(), None);
}

#[test]
fn a_stopped_server_is_a_clear_error_and_a_rerun_succeeds() {
    let dir = solved(&host_binary(), &[("mtttier", "regular")]);
    let mut server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let base = format!("{}/db", server.url());
    let g = game("mtttier", "regular");
    let http: Arc<dyn Database> = Arc::new(FileDb::open_http(&base, key(&g), None).unwrap());
    let start = g.initial_position().unwrap();
    assert!(http.lookup(start).unwrap().is_some());
    server.stop();
    // A tier not read yet: its header and index must be fetched, and cannot be.
    let later = TierPosition::new(gamesman_plugin_api::Tier(3), 0);
    let e = http.lookup(later).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{base}/mtttier_regular_tierdb/tier_3.gz")) && e.contains("Connection"),
        "{e}"
    );
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "query", "--db", &base, "X--------"],
    );
    assert_eq!(
        r.status.code(),
        Some(4),
        "a database error: {}",
        r.describe()
    );
    assert!(
        r.stderr.contains(&base) && r.stderr.contains("after 3 attempts"),
        "{}",
        r.describe()
    );
    // Started again (on another port), the same command succeeds.
    let server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let base = format!("{}/db", server.url());
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "query", "--db", &base, "X--------"],
    );
    r.assert_success();
    assert!(r.stdout.contains("tie in 8"), "{}", r.describe());
}

#[test]
fn a_corrupted_served_tier_is_detected_and_never_cached_or_copied() {
    let dir = solved(&host_binary(), &[("mtttier", "regular")]);
    let tdir = dir.path().join("mtttier_regular_tierdb");
    // Tier 5 (4X4O... whichever): flip a byte inside its record block.
    let path = tdir.join("tier_5.gz");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let base = format!("{}/db", server.url());
    let g = game("mtttier", "regular");
    let http = FileDb::open_http(&base, key(&g), None).unwrap();
    let graph = TierGraph::discover(&g).unwrap();
    let size = graph.get(gamesman_plugin_api::Tier(5)).unwrap().size;
    let failed = (0..size)
        .map(|i| http.lookup(TierPosition::new(gamesman_plugin_api::Tier(5), i)))
        .find_map(Result::err)
        .expect("a damaged block is detected");
    assert!(failed.to_string().contains("tier_5.gz"), "{failed}");

    let cache = tempfile::tempdir().unwrap();
    let cached = FileDb::open_http(&base, key(&g), Some(cache.path().to_path_buf())).unwrap();
    assert!(cached
        .lookup(TierPosition::new(gamesman_plugin_api::Tier(5), 0))
        .is_err());
    assert!(cached
        .lookup(g.initial_position().unwrap())
        .unwrap()
        .is_some());
    let kept = tier_files(&cache.path().join("mtttier_regular_tierdb"));
    assert!(
        !kept.contains(&"tier_5.gz".to_string()) && !kept.is_empty(),
        "{kept:?}"
    );

    let copy = tempfile::tempdir().unwrap();
    let r = run_host(
        &host_binary(),
        &[
            "--plugin",
            "mtttier",
            "db",
            "copy",
            &base,
            &format!("file:{}", copy.path().display()),
        ],
    );
    assert_eq!(r.status.code(), Some(4), "{}", r.describe());
    assert!(r.stderr.contains("tier_5.gz"), "{}", r.describe());
    let copied = tier_files(&copy.path().join("mtttier_regular_tierdb"));
    assert!(!copied.contains(&"tier_5.gz".to_string()), "{copied:?}");
}

#[test]
fn the_cache_fills_then_answers_with_the_server_gone_and_copies_are_exact() {
    let dir = solved(&host_binary(), &[("mtttier", "regular")]);
    let mut server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let base = format!("{}/db", server.url());
    let cache = tempfile::tempdir().unwrap();
    let cache_res = format!("file:{}", cache.path().display());
    let query = |base: &str| {
        run_host(
            &host_binary(),
            &[
                "--plugin",
                "mtttier",
                "--cache",
                &cache_res,
                "query",
                "--db",
                base,
                "X--------",
            ],
        )
    };
    let first = query(&base);
    first.assert_success();
    // The position's tier and its children's, fetched whole and kept.
    let kept = tier_files(&cache.path().join("mtttier_regular_tierdb"));
    assert_eq!(kept, ["tier_7.gz", "tier_8.gz"], "{}", first.describe());
    for f in &kept {
        assert_eq!(
            std::fs::read(cache.path().join("mtttier_regular_tierdb").join(f)).unwrap(),
            std::fs::read(dir.path().join("mtttier_regular_tierdb").join(f)).unwrap(),
            "{f} is the served file, byte for byte"
        );
    }
    // A copy from the server is the solved database, byte for byte.
    let copy = tempfile::tempdir().unwrap();
    let copy_res = format!("file:{}", copy.path().display());
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "db", "copy", &base, &copy_res],
    );
    r.assert_success();
    assert!(
        r.stdout.starts_with("copied 10 tiers (6,046 positions)"),
        "{}",
        r.describe()
    );
    for f in tier_files(&dir.path().join("mtttier_regular_tierdb")) {
        assert_eq!(
            std::fs::read(copy.path().join("mtttier_regular_tierdb").join(&f)).unwrap(),
            std::fs::read(dir.path().join("mtttier_regular_tierdb").join(&f)).unwrap(),
            "{f}"
        );
    }
    // Copying again keeps what is there.
    let r = run_host(
        &host_binary(),
        &[
            "--plugin",
            "mtttier",
            "db",
            "copy",
            &resource(&dir),
            &copy_res,
        ],
    );
    r.assert_success();
    assert!(
        r.stdout.contains("copied 0 tiers") && r.stdout.contains("10 already there"),
        "{}",
        r.describe()
    );

    server.stop();
    let again = query(&base);
    again.assert_success();
    assert_eq!(again.stdout, first.stdout);
    // An http: database cannot be written.
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "solve", "--db", &base],
    );
    assert_eq!(r.status.code(), Some(4), "{}", r.describe());
    assert!(r.stderr.contains("read-only"), "{}", r.describe());
}
