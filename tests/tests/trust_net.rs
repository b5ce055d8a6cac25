//! Trust in fetched databases (issue 32), end to end with the real `host` against a
//! hostile HTTP server in the test (127.0.0.1 only): a tier forged with correct
//! checksums (every record of mtttier's tier 8 "win in 1", where the truth of
//! X-------- is "tie in 8") is refused when the publisher's signed manifest is
//! required (`--trust`), caught by `--verify-fetch` before it is cached, and accepted
//! (with a plain warning) only when nothing is trusted; redirects off the server are
//! refused without a panic; oversized, short and dripping answers end in bounded time.

use e2e_tests::hostile::{Hostile, Trick};
use e2e_tests::run::{assert_no_panic_noise, run_host, RunOutput};
use e2e_tests::serve::solved;
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::db::{file::FileDb, Database, GameKey, TierMeta};
use gamesman_host::engine::record::{pack, TierRecords};
use gamesman_host::engine::tier::TierGraph;
use gamesman_plugin_api::Value;
use std::path::Path;
use std::time::{Duration, Instant};

const DIR: &str = "mtttier_regular_tierdb";
/// X-------- (Player 2 to move), whose truth is a tie in 8; it lies in tier 8.
const POSITION: &str = "X--------";

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

/// `host db keygen` into `dir`; the public key.
fn keygen(dir: &Path) -> (String, String) {
    let file = dir.join("publisher.key");
    let r = host(&["db", "keygen", file.to_str().unwrap()]);
    r.assert_success();
    let public = std::fs::read_to_string(dir.join("publisher.key.pub"))
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(public.len(), 64, "{public}");
    assert!(r.stdout.contains(&public), "{}", r.describe());
    (file.to_str().unwrap().to_string(), public)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Rewrites tier 8 under `root` with every record "win in 1" and correct checksums.
fn forge_tier_8(root: &Path) {
    let m = gamesman_host::engine::load::loader::load(plugin("mtttier").to_str().unwrap()).unwrap();
    let g = m.open(None).unwrap();
    let node = TierGraph::discover(&g)
        .unwrap()
        .order
        .into_iter()
        .find(|n| n.tier.0 == 8)
        .expect("tier 8");
    let meta = TierMeta {
        tier: node.tier,
        name: node.name.clone(),
        size: node.size,
    };
    let records = TierRecords {
        values: vec![pack(Value::WIN, 1); node.size as usize],
        winby: None,
    };
    let db = FileDb::open(root.to_path_buf(), GameKey::of(&g)).unwrap();
    db.store_tier(&meta, &records).unwrap();
}

fn query(db: &str, extra: &[&str]) -> RunOutput {
    let mut args = vec!["--plugin", "mtttier"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["query", "--db", db, POSITION]);
    host(&args)
}

fn failure(r: &RunOutput, code: i32) -> String {
    let d = r.describe();
    assert_eq!(r.status.code(), Some(code), "{d}");
    assert_no_panic_noise(&r.stderr, &d);
    r.stderr.clone()
}

fn tier_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| {
                    let n = e.file_name().to_string_lossy().to_string();
                    n.starts_with("tier_") && n.ends_with(".gz")
                })
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_forged_tier_is_refused_when_signed_and_caught_when_verifying() {
    let real = solved(&host_binary(), &[("mtttier", "regular")]);
    let keys = tempfile::tempdir().unwrap();
    let (key_file, public) = keygen(keys.path());
    let real_res = format!("file:{}", real.path().display());
    let r = host(&["db", "sign", "--key", &key_file, "--db", &real_res]);
    r.assert_success();
    assert!(r.stdout.contains("(10 tier files)"), "{}", r.describe());
    let manifest = std::fs::read_to_string(real.path().join(DIR).join("tiers.manifest")).unwrap();
    assert!(
        manifest.contains(&format!("signed-by {public}")),
        "{manifest}"
    );

    // The hostile server publishes the real manifest beside a forged tier 8.
    let forged = tempfile::tempdir().unwrap();
    let root = forged.path().join("db");
    copy_dir(&real.path().join(DIR), &root.join(DIR));
    forge_tier_8(&root);
    let server = Hostile::start(forged.path().to_path_buf());
    let url = format!("{}/db", server.url());

    // Nothing trusted: the forgery is believed, and stderr says the signature went unchecked.
    let r = query(&url, &[]);
    r.assert_success();
    assert!(
        r.stdout.contains("Player 2 to move: win in 1"),
        "{}",
        r.describe()
    );
    // The key the server's own manifest names is never recommended (a forger signs
    // with their own): the advice is to get the key from the publisher.
    assert!(
        !r.stderr.contains(&format!("--trust {public}")),
        "{}",
        r.describe()
    );
    assert!(
        r.stderr.contains("comes from the server itself")
            && r.stderr
                .contains("Get the publisher's key from the publisher by another channel"),
        "{}",
        r.describe()
    );

    // Signed mode: refused (lookups, --cache, db copy), nothing cached or copied.
    let e = failure(&query(&url, &["--trust", &public]), 4);
    assert!(e.contains("tier_8.gz is refused: its SHA-256 is"), "{e}");
    let cache = tempfile::tempdir().unwrap();
    let cache_res = format!("file:{}", cache.path().display());
    let e = failure(
        &query(&url, &["--trust", &public, "--cache", &cache_res]),
        4,
    );
    assert!(
        e.contains("does not match") || e.contains("is refused"),
        "{e}"
    );
    assert!(!cache.path().join(DIR).join("tier_8.gz").exists());
    let copy = tempfile::tempdir().unwrap();
    let copy_res = format!("file:{}", copy.path().display());
    let r = host(&[
        "--plugin", "mtttier", "--trust", &public, "db", "copy", &url, &copy_res,
    ]);
    let e = failure(&r, 4);
    assert!(e.contains("is refused"), "{e}");
    assert!(!copy.path().join(DIR).join("tier_8.gz").exists());

    // A tier of another size than signed is refused before its bytes are read.
    let mut longer = std::fs::read(real.path().join(DIR).join("tier_8.gz")).unwrap();
    longer.extend_from_slice(&[0u8; 100]);
    std::fs::write(root.join(DIR).join("tier_8.gz"), &longer).unwrap();
    let e = failure(&query(&url, &["--trust", &public]), 4);
    assert!(
        e.contains("does not have the size the signed manifest gives"),
        "{e}"
    );
    forge_tier_8(&root);

    // Verifying mode (no key): the forgery fails the module's check; nothing is cached.
    let vcache = tempfile::tempdir().unwrap();
    let vres = format!("file:{}", vcache.path().display());
    let e = failure(&query(&url, &["--cache", &vres, "--verify-fetch"]), 4);
    assert!(e.contains("--verify-fetch: the database at"), "{e}");
    assert_eq!(tier_files(&vcache.path().join(DIR)), 0, "{e}");
    assert!(std::fs::read_dir(vcache.path())
        .unwrap()
        .flatten()
        .all(|e| !e.file_name().to_string_lossy().starts_with(".verify-fetch")));

    // A manifest re-signed by another key is not trusted; none at all is "unsigned".
    let other = tempfile::tempdir().unwrap();
    let (other_key, _) = keygen(other.path());
    let forged_res = format!("file:{}", root.display());
    host(&["db", "sign", "--key", &other_key, "--db", &forged_res]).assert_success();
    let e = failure(&query(&url, &["--trust", &public]), 4);
    assert!(e.contains("which is not trusted here"), "{e}");
    std::fs::remove_file(root.join(DIR).join("tiers.manifest")).unwrap();
    let e = failure(&query(&url, &["--trust", &public]), 4);
    assert!(e.contains("is unsigned"), "{e}");
    let r = query(&url, &[]);
    assert!(
        r.stderr
            .contains("is unsigned: its tiers are checked for damage"),
        "{}",
        r.describe()
    );

    // The real database, served the same way, passes every mode.
    let good = Hostile::start(real.path().to_path_buf());
    let good_url = good.url();
    // The trusted-keys file of the data directory works as --trust does.
    let data = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(data.path().join("gamesman")).unwrap();
    std::fs::write(
        data.path().join("gamesman/trusted-keys"),
        format!("# publisher\n{public}\n"),
    )
    .unwrap();
    let mut cmd = e2e_tests::run::host_command(
        &host_binary(),
        &["--plugin", "mtttier", "query", "--db", &good_url, POSITION],
    );
    cmd.env("XDG_DATA_HOME", data.path());
    let r = e2e_tests::run::run(cmd, Duration::from_secs(60));
    r.assert_success();
    assert!(
        r.stdout.contains("Player 2 to move: tie in 8"),
        "{}",
        r.describe()
    );
    assert!(
        r.stderr.contains("is signed by trusted key"),
        "{}",
        r.describe()
    );
    let gcache = tempfile::tempdir().unwrap();
    let gres = format!("file:{}", gcache.path().display());
    let r = query(
        &good_url,
        &["--trust", &public, "--cache", &gres, "--verify-fetch"],
    );
    r.assert_success();
    assert!(
        r.stdout.contains("Player 2 to move: tie in 8"),
        "{}",
        r.describe()
    );
    assert_eq!(tier_files(&gcache.path().join(DIR)), 10);
    assert!(gcache.path().join(DIR).join("tiers.manifest").exists());
    // Server gone: the cache answers, checked against its signed manifest.
    drop(good);
    let r = query(
        "http://127.0.0.1:9/db",
        &["--trust", &public, "--cache", &gres],
    );
    r.assert_success();
    assert!(
        r.stdout.contains("Player 2 to move: tie in 8"),
        "{}",
        r.describe()
    );
}

#[test]
fn redirects_stay_on_the_server_and_bad_answers_end_in_time() {
    let real = solved(&host_binary(), &[("mtttier", "regular")]);
    let server = Hostile::start(real.path().to_path_buf());
    let base = server.url();

    // file:///x used to panic inside ureq (exit 101 with a backtrace).
    server.trick("/evil/", Trick::Redirect(302, "file:///etc/passwd".into()));
    let e = failure(&query(&format!("{base}/evil"), &[]), 4);
    assert!(
        e.contains("only redirects on the same server are followed"),
        "{e}"
    );
    server.trick(
        "/away/",
        Trick::Redirect(301, "http://127.0.0.2:1/x/".into()),
    );
    let e = failure(&query(&format!("{base}/away"), &[]), 4);
    assert!(e.contains("outside http://127.0.0.1:"), "{e}");
    // The same origin is followed.
    server.trick("/moved/", Trick::Moved("/".into()));
    let r = query(&format!("{base}/moved"), &[]);
    r.assert_success();
    assert!(r.stdout.contains("tie in 8"), "{}", r.describe());
    server.trick("/loop/", Trick::Redirect(302, "/loop/".into()));
    let e = failure(&query(&format!("{base}/loop"), &[]), 4);
    assert!(e.contains("more than 3 redirects"), "{e}");
    server.clear();

    // A body longer than announced or asked: capped, an error, no 4 GiB read.
    server.trick(
        &format!("/{DIR}/tier_8.gz"),
        Trick::Oversize {
            announced: 1 << 32,
            sent: 1 << 20,
        },
    );
    let cache = tempfile::tempdir().unwrap();
    let cres = format!("file:{}", cache.path().display());
    let started = Instant::now();
    let e = failure(&query(&base, &["--cache", &cres]), 4);
    assert!(
        e.contains("expected") || e.contains("where the file is"),
        "{e}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(tier_files(&cache.path().join(DIR)), 0);
    server.clear();

    // A short body is the connection's fault, not the file's.
    server.trick(
        &format!("/{DIR}/tier_8.gz"),
        Trick::Short {
            announced: 500,
            sent: 10,
        },
    );
    let e = failure(&query(&base, &["--cache", &cres]), 4);
    assert!(!e.contains("truncated"), "{e}");
    assert!(
        e.contains("the connection or the server failed, not the file")
            || e.contains("where the file is"),
        "{e}"
    );
    server.clear();

    // A URL that is no database, and a dead server with an empty cache: the advice is
    // about the URL and the server, never `solve --db http://...` (refused).
    for db in [
        format!("{base}/nothing"),
        "http://127.0.0.1:9/db".to_string(),
    ] {
        let e = failure(&query(&db, &["--cache", &cres]), 4);
        assert!(e.contains("lists no tier file of mtttier (regular)"), "{e}");
        assert!(!e.contains("Solve it first"), "{e}");
    }
    // db copy of nothing is a database error (4), as the README says.
    let empty = tempfile::tempdir().unwrap();
    let r = host(&[
        "--plugin",
        "mtttier",
        "db",
        "copy",
        &format!("file:{}", empty.path().display()),
        &cres,
    ]);
    let e = failure(&r, 4);
    assert!(e.contains("nothing to copy"), "{e}");

    // One byte a second, and silence: the deadline ends the lookup.
    for trick in [Trick::Drip(Duration::from_millis(500)), Trick::Silent] {
        server.trick(&format!("/{DIR}/tier_8.gz"), trick);
        let started = Instant::now();
        let e = failure(&query(&base, &["--fetch-deadline", "2"]), 4);
        let took = started.elapsed();
        assert!(
            e.contains("deadline of 2 s") || e.contains("timed out"),
            "{e}"
        );
        assert!(took < Duration::from_secs(12), "{took:?}: {e}");
        server.clear();
    }
}

/// A forger's manifest, signed with the forger's own key, must not get the forger's
/// key recommended: the warning says to get the key from the publisher.
#[test]
fn the_unsigned_warning_never_recommends_the_servers_own_key() {
    let real = solved(&host_binary(), &[("mtttier", "regular")]);
    let forged = tempfile::tempdir().unwrap();
    let root = forged.path().join("db");
    copy_dir(&real.path().join(DIR), &root.join(DIR));
    forge_tier_8(&root);
    let keys = tempfile::tempdir().unwrap();
    let (forger_key, forger_public) = keygen(keys.path());
    let forged_res = format!("file:{}", root.display());
    host(&["db", "sign", "--key", &forger_key, "--db", &forged_res]).assert_success();
    let server = Hostile::start(forged.path().to_path_buf());
    let r = query(&format!("{}/db", server.url()), &[]);
    r.assert_success();
    let e = &r.stderr;
    assert!(!e.contains(&format!("--trust {forger_public}")), "{e}");
    assert!(e.contains("that key comes from the server itself"), "{e}");
    assert!(e.contains("from the publisher by another channel"), "{e}");
    // Trusting another key: the refusal does not recommend the forger's key either.
    let (_, honest) = keygen(tempfile::tempdir().unwrap().path());
    let e = failure(
        &query(&format!("{}/db", server.url()), &["--trust", &honest]),
        4,
    );
    assert!(e.contains("which is not trusted here"), "{e}");
    assert!(!e.contains(&format!("--trust {forger_public}")), "{e}");
    assert!(e.contains("by another channel"), "{e}");
}

/// A silent server costs one `--fetch-deadline`, the manifest included (the manifest,
/// fetched for a warning only, had a deadline of its own: two in all).
#[test]
fn a_silent_server_costs_one_deadline() {
    let real = solved(&host_binary(), &[("mtttier", "regular")]);
    let server = Hostile::start(real.path().to_path_buf());
    server.trick("/", Trick::Silent);
    for extra in [&[][..], &["--cache"][..]] {
        let cache = tempfile::tempdir().unwrap();
        let cres = format!("file:{}", cache.path().display());
        let mut args = vec!["--fetch-deadline", "4"];
        if !extra.is_empty() {
            args.extend_from_slice(&["--cache", &cres]);
        }
        let started = Instant::now();
        let r = query(&server.url(), &args);
        let took = started.elapsed();
        let e = failure(&r, 4);
        assert!(
            e.contains("deadline of 4 s") || e.contains("timed out"),
            "{e}"
        );
        // One deadline (4 s) and the process's own start, never two: two take at least
        // 8 s, so that is the bound (a loaded machine may take seconds to start it).
        assert!(took < Duration::from_secs(8), "{took:?}: {e}");
        assert!(took >= Duration::from_secs(4), "{took:?}: {e}");
    }
}

/// A cache poisoned by an earlier run without `--verify-fetch` (a plain query against
/// a forger keeps what it fetched): `--verify-fetch` against the genuine server names
/// the cached tier, drops it and fetches it again, blaming the cache and not the
/// server, and plain queries afterwards answer the truth, even with the server gone.
#[test]
fn verify_fetch_cleans_a_cache_poisoned_by_a_plain_run() {
    let real = solved(&host_binary(), &[("mtttier", "regular")]);
    let forged = tempfile::tempdir().unwrap();
    let root = forged.path().join("db");
    copy_dir(&real.path().join(DIR), &root.join(DIR));
    forge_tier_8(&root);
    let bad = Hostile::start(forged.path().to_path_buf());
    let good = Hostile::start(real.path().to_path_buf());
    let (bad_url, good_url) = (format!("{}/db", bad.url()), good.url());
    let dead = "http://127.0.0.1:9/db";

    // Part of the cache filled from the forger, then the whole of it.
    let partial = tempfile::tempdir().unwrap();
    let pres = format!("file:{}", partial.path().display());
    let r = query(&bad_url, &["--cache", &pres]);
    r.assert_success();
    assert!(r.stdout.contains("win in 1"), "{}", r.describe());
    assert!(tier_files(&partial.path().join(DIR)) < 10);
    let whole = tempfile::tempdir().unwrap();
    let wres = format!("file:{}", whole.path().display());
    copy_dir(&root.join(DIR), &whole.path().join(DIR));
    std::fs::remove_file(whole.path().join(DIR).join("tiers.manifest")).ok();

    for (dir, res) in [(&partial, &pres), (&whole, &wres)] {
        let poisoned = dir.path().join(DIR).join("tier_8.gz");
        let r = query(&good_url, &["--cache", res, "--verify-fetch"]);
        let d = r.describe();
        r.assert_success();
        assert!(r.stdout.contains("Player 2 to move: tie in 8"), "{d}");
        assert!(
            r.stderr.contains(&format!(
                "tier file {} in the cache was kept by a run without --verify-fetch and fails the module's check",
                poisoned.display()
            )),
            "{d}"
        );
        assert!(
            r.stderr
                .contains("dropped from the cache and fetched again"),
            "{d}"
        );
        assert!(
            !r.stderr.contains("fails the module's check, so nothing"),
            "{d}"
        );
        assert_eq!(tier_files(&dir.path().join(DIR)), 10, "{d}");
        // The truth from the cache alone, with or without the check.
        for extra in [&[][..], &["--verify-fetch"][..]] {
            let mut args = vec!["--cache", res.as_str()];
            args.extend_from_slice(extra);
            let r = query(dead, &args);
            assert!(
                r.stdout.contains("Player 2 to move: tie in 8"),
                "{}",
                r.describe()
            );
        }
        // A second check has nothing left to do: every cached tier passed.
        let r = query(&good_url, &["--cache", res, "--verify-fetch"]);
        r.assert_success();
        assert!(
            !r.stderr.contains("--verify-fetch: checking"),
            "{}",
            r.describe()
        );
    }

    // The server itself forging is still the server's fault, and nothing is kept.
    let fresh = tempfile::tempdir().unwrap();
    let fres = format!("file:{}", fresh.path().display());
    let e = failure(&query(&bad_url, &["--cache", &fres, "--verify-fetch"]), 4);
    assert!(e.contains("--verify-fetch: the database at"), "{e}");
    assert_eq!(tier_files(&fresh.path().join(DIR)), 0, "{e}");

    // Under --trust, a cached tier the signed manifest does not vouch for is dropped
    // and fetched again before the check, never blamed on the server.
    let keys = tempfile::tempdir().unwrap();
    let (key_file, public) = keygen(keys.path());
    let real_res = format!("file:{}", real.path().display());
    host(&["db", "sign", "--key", &key_file, "--db", &real_res]).assert_success();
    let signed = tempfile::tempdir().unwrap();
    let sres = format!("file:{}", signed.path().display());
    std::fs::create_dir_all(signed.path().join(DIR)).unwrap();
    std::fs::copy(
        root.join(DIR).join("tier_8.gz"),
        signed.path().join(DIR).join("tier_8.gz"),
    )
    .unwrap();
    let r = query(
        &good_url,
        &["--trust", &public, "--cache", &sres, "--verify-fetch"],
    );
    let d = r.describe();
    r.assert_success();
    assert!(r.stdout.contains("Player 2 to move: tie in 8"), "{d}");
    assert!(
        r.stderr.contains("does not match the signed manifest"),
        "{d}"
    );
    let r = query(dead, &["--cache", &sres]);
    assert!(
        r.stdout.contains("Player 2 to move: tie in 8"),
        "{}",
        r.describe()
    );
}
