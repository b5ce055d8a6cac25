//! `host serve` publishes only the database and stays up under one bad request
//! (issue 32): `/db/` serves tier files and the signed manifest of `NAME_tierdb/`
//! directories and nothing else (no dotfiles, temporaries, job files, plugins, no
//! symlink out of the root), CORS only on `/api/`, no server path in any answer; a huge
//! unsolved variant's analysis is refused at once; idle connections time out and are
//! capped; a module call past its deadline fails its request while others are served;
//! a module's 2^50 text length is an error of one request.

use e2e_tests::cbuild::build_header_module;
use e2e_tests::hostile::read_until_closed;
use e2e_tests::run::run_host;
use e2e_tests::serve::{resource, solved, Server};
use e2e_tests::workspace::host_binary;
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

const DIR: &str = "mtttier_regular_tierdb";

#[test]
fn db_publishes_only_tier_files_and_manifests() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let root = db.path();
    let tiers = root.join(DIR);
    // What a data directory and a running solve leave beside the tier files.
    std::fs::write(tiers.join(".mpi-held-tiers"), "3 4\n").unwrap();
    std::fs::write(tiers.join("tier_3.gz.4242.tmp"), "half").unwrap();
    std::fs::write(tiers.join(".lock"), "").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", tiers.join("tier_99.gz")).unwrap();
    std::os::unix::fs::symlink("/etc", root.join("evil_tierdb")).unwrap();
    std::fs::create_dir_all(root.join("plugins")).unwrap();
    std::fs::write(root.join("plugins/libgame.so"), "module").unwrap();
    let keys = tempfile::tempdir().unwrap();
    let key = keys.path().join("k");
    run_host(&host_binary(), &["db", "keygen", key.to_str().unwrap()]).assert_success();
    run_host(
        &host_binary(),
        &[
            "db",
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--db",
            &resource(&db),
        ],
    )
    .assert_success();

    let server = Server::start(&host_binary(), &["mtttier"], &resource(&db));
    let ok = server.get(&format!("/db/{DIR}/tier_0.gz"));
    assert_eq!(ok.status, 200);
    // Our own page and files are not for other sites' scripts; the API is.
    assert_eq!(ok.header("access-control-allow-origin"), None);
    assert_eq!(
        server.get("/api/").header("access-control-allow-origin"),
        Some("*")
    );
    let manifest = server.get(&format!("/db/{DIR}/tiers.manifest"));
    assert_eq!(manifest.status, 200);
    assert!(manifest
        .text()
        .starts_with("gamesman tier manifest 1\ndirectory mtttier_regular_tierdb\n"));
    assert!(
        !manifest.text().contains("tier_99.gz"),
        "a symlink is not signed"
    );
    for path in [
        format!("/db/{DIR}/.mpi-held-tiers"),
        format!("/db/{DIR}/tier_3.gz.4242.tmp"),
        format!("/db/{DIR}/.lock"),
        format!("/db/{DIR}/tier_99.gz"),
        "/db/evil_tierdb/passwd".to_string(),
        "/db/evil_tierdb/".to_string(),
        "/db/plugins/libgame.so".to_string(),
        format!("/db/{DIR}/../plugins/libgame.so"),
        format!("/db/{DIR}/%2e%2e/plugins/libgame.so"),
    ] {
        let r = server.get(&path);
        assert_eq!(r.status, 404, "{path}: {}", r.text());
        assert!(!r.text().contains("root:"), "{path}");
    }
    let listing = server.get(&format!("/db/{DIR}/")).text();
    assert!(
        listing.contains("tier_0.gz") && listing.contains("tiers.manifest"),
        "{listing}"
    );
    for hidden in ["tier_99.gz", ".mpi-held-tiers", ".tmp", ".lock"] {
        assert!(!listing.contains(hidden), "{hidden} in {listing}");
    }

    // No server path in an answer: the variant's JSON, and a 500 over a damaged tier.
    let where_ = root.display().to_string();
    let variant = server.get("/api/mtttier/regular/").text();
    assert!(!variant.contains(&where_), "{variant}");
    std::fs::write(tiers.join("tier_8.gz"), b"\x1f\x8b\x08\x04 damaged").unwrap();
    let broken = server.get("/api/mtttier/regular/positions/?p=X--------");
    assert_eq!(broken.status, 500, "{}", broken.text());
    assert!(broken.text().contains("tier_8.gz"), "{}", broken.text());
    assert!(!broken.text().contains(&where_), "{}", broken.text());
}

#[test]
fn a_host_name_address_is_accepted() {
    // `--addr localhost:PORT` was refused although the message asks for HOST:PORT.
    let empty = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(host_binary())
        .args([
            "--plugin",
            "mtttier",
            "serve",
            "--db",
            &resource(&empty),
            "--addr",
            "localhost:0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut l = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut l);
        l
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    while !reader.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    if reader.is_finished() {
        line = reader.join().unwrap();
    }
    assert!(
        line.starts_with("listening on http://127.0.0.1:")
            || line.starts_with("listening on http://[::1]:"),
        "{line:?}"
    );
}

#[test]
fn a_huge_unsolved_analysis_is_refused_at_once() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(&host_binary(), &["quixo"], &resource(&empty));
    let started = Instant::now();
    let r = server.get("/api/quixo/5x5/analysis/");
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("serve --analysis-limit"), "{}", r.text());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // The small variant is analysed as before.
    assert_eq!(server.get("/api/quixo/3x3/analysis/").status, 200);
}

#[test]
fn idle_connections_time_out_and_are_capped() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let server = Server::start_with(
        &host_binary(),
        &["mtttier"],
        &[
            "--db",
            &resource(&db),
            "--max-connections",
            "8",
            "--header-timeout",
            "1",
        ],
    );
    // 8 idle connections, one half a request.
    let mut idle: Vec<TcpStream> = (0..8)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    idle[0].write_all(b"GET /api/ HTTP/1.1\r\nHo").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    // A ninth is told the server is busy, at once.
    let busy = server
        .raw(b"GET /api/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert!(busy.text().contains("too many connections"));
    // The idle ones are closed by the server within the header timeout (and slack).
    let started = Instant::now();
    for c in idle {
        let (_, closed) = read_until_closed(c, Duration::from_secs(10));
        assert!(closed, "an idle connection was not closed");
    }
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(server.get("/api/").status, 200);
}

#[test]
fn one_bad_module_call_fails_its_request_and_the_server_stays_up() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let slow = build_header_module(
        "tests/c-modules/bad_header_module.c",
        "serve_slow",
        &["-DBAD_SLOW"],
    );
    let huge = build_header_module(
        "tests/c-modules/bad_header_module.c",
        "serve_huge",
        &["-DBAD_HUGE_TEXT"],
    );
    for (lib, deadline_test) in [(slow, true), (huge, false)] {
        let mut server = Server::start_with(
            &host_binary(),
            &[lib.to_str().unwrap(), "mtttier"],
            &["--db", &resource(&db), "--call-deadline", "1"],
        );
        let variants = server.get("/api/pile/").json();
        let v = variants["variants"][0]["id"]
            .as_str()
            .or_else(|| variants["variants"][0]["variantId"].as_str())
            .unwrap_or("default")
            .to_string();
        let started = Instant::now();
        let r = server.get(&format!("/api/pile/{v}/positions/"));
        if deadline_test {
            assert_eq!(r.status, 503, "{}", r.text());
            assert!(r.text().contains("--call-deadline"), "{}", r.text());
            assert!(
                started.elapsed() < Duration::from_millis(2900),
                "{:?}",
                started.elapsed()
            );
        } else {
            assert_eq!(r.status, 500, "{}", r.text());
            assert!(
                r.text().contains("returned a text length of"),
                "{}",
                r.text()
            );
        }
        // The server lives on and answers others.
        let ok = server.get("/api/mtttier/regular/positions/");
        assert_eq!(ok.status, 200, "{}", ok.text());
        assert!(server.is_running());
    }
}

/// `GET` with a short timeout of its own: the status, or `None` when no answer came.
fn status_within(addr: std::net::SocketAddr, path: &str, limit: Duration) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(limit)).unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut data = Vec::new();
    let _ = std::io::Read::read_to_end(&mut s, &mut data);
    let head = String::from_utf8_lossy(&data);
    head.split(' ').nth(1)?.parse().ok()
}

/// Once stuck module calls hold every blocking thread, the `/db/` listing and files
/// answer 503 as the API does (the listing used to wait for a thread without end).
#[test]
fn db_listings_answer_503_once_stuck_calls_hold_the_threads() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let hang = build_header_module(
        "tests/c-modules/bad_header_module.c",
        "serve_hang",
        &["-DBAD_HANG"],
    );
    let server = Server::start_with(
        &host_binary(),
        &[hang.to_str().unwrap(), "mtttier"],
        &["--db", &resource(&db), "--call-deadline", "1"],
    );
    let listing = format!("/db/{DIR}/");
    assert_eq!(server.get(&listing).status, 200);
    let variants = server.get("/api/pile/").json();
    let v = variants["variants"][0]["id"]
        .as_str()
        .or_else(|| variants["variants"][0]["variantId"].as_str())
        .unwrap_or("default")
        .to_string();
    // More stuck calls at once than the runtime has blocking threads (64): every one
    // passes the check before any has overrun, so all the threads are held.
    let addr = server.addr;
    let path = format!("/api/pile/{v}/positions/");
    let statuses: Vec<Option<u16>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..80)
            .map(|_| s.spawn(|| status_within(addr, &path, Duration::from_secs(20))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(statuses.iter().all(|s| *s == Some(503)), "{statuses:?}");
    for p in [listing.clone(), format!("/db/{DIR}/tier_0.gz")] {
        let started = Instant::now();
        let status = status_within(addr, &p, Duration::from_secs(8));
        assert_eq!(status, Some(503), "GET {p} after {:?}", started.elapsed());
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
    }
    // The API's work is refused the same way.
    assert_eq!(
        status_within(
            addr,
            "/api/mtttier/regular/positions/",
            Duration::from_secs(8)
        ),
        Some(503)
    );
}
