//! `host serve` under bad input and signals: unknown games and variants, malformed,
//! illegal and huge positions, path traversal in static paths, other methods, bytes
//! that are not HTTP: each gets a 4xx JSON error (or the connection is dropped) and the
//! server keeps serving. SIGTERM and Ctrl-C stop it promptly with exit status 0.

use e2e_tests::serve::{resource, solved, Server};
use e2e_tests::workspace::host_binary;
use std::time::{Duration, Instant};

#[test]
fn bad_requests_get_json_errors_and_the_server_keeps_serving() {
    let dir = solved(&host_binary(), &[("mtttier", "regular")]);
    let server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
    let still_serving = |after: &str| {
        let r = server.get("/api/mtttier/regular/positions/?p=X-O------");
        assert_eq!(r.status, 200, "after {after}: {}", r.text());
        assert_eq!(r.json()["remoteness"], 5, "after {after}");
    };
    let huge = "X".repeat(5000);
    let cases: Vec<(String, u16, &str)> = vec![
        (
            "GET /api/nosuchgame/ HTTP/1.1".into(),
            404,
            "no game 'nosuchgame'",
        ),
        (
            "GET /api/mtttier/nosuchvariant/ HTTP/1.1".into(),
            404,
            "no variant",
        ),
        (
            "GET /api/mtttier/nosuch/positions/?p=--------- HTTP/1.1".into(),
            404,
            "no variant",
        ),
        (
            "GET /api/mtttier/regular/positions/?p=XXXXXXXXX HTTP/1.1".into(),
            400,
            "cannot occur",
        ),
        (
            "GET /api/mtttier/regular/positions/?p=hello HTTP/1.1".into(),
            400,
            "not a position",
        ),
        (
            "GET /api/mtttier/regular/positions/?p= HTTP/1.1".into(),
            400,
            "empty position",
        ),
        (
            "GET /api/mtttier/regular/positions/?p=%ff%fe HTTP/1.1".into(),
            400,
            "not a position",
        ),
        (
            format!("GET /api/mtttier/regular/positions/?p={huge} HTTP/1.1"),
            414,
            "5000 bytes",
        ),
        (
            "GET /api/mtttier/regular/computer/?mode=cheat HTTP/1.1".into(),
            400,
            "unknown mode",
        ),
        (
            "GET /api/mtttier/regular/computer/?p=XXXOO---- HTTP/1.1".into(),
            409,
            "game is over",
        ),
        (
            "GET /static/../../../../etc/passwd HTTP/1.1".into(),
            404,
            "nothing at",
        ),
        (
            "GET /static/..%2f..%2f..%2fetc%2fpasswd HTTP/1.1".into(),
            404,
            "no file",
        ),
        (
            "GET /static/%2e%2e/%2e%2e/Cargo.toml HTTP/1.1".into(),
            404,
            "nothing at",
        ),
        (
            "GET /static/app.js/../../../Cargo.toml HTTP/1.1".into(),
            404,
            "nothing at",
        ),
        ("GET /../../etc/passwd HTTP/1.1".into(), 404, "nothing at"),
        ("GET /nothing-here HTTP/1.1".into(), 404, "nothing at"),
        ("POST /api/ HTTP/1.1".into(), 405, "POST is not served"),
        (
            "PUT /api/mtttier/regular/positions/ HTTP/1.1".into(),
            405,
            "PUT is not served",
        ),
        (
            "DELETE /api/mtttier/ HTTP/1.1".into(),
            405,
            "DELETE is not served",
        ),
        ("PATCH / HTTP/1.1".into(), 405, "PATCH is not served"),
    ];
    for (line, status, words) in &cases {
        let req = format!(
            "{line}\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            server.addr
        );
        let r = server.raw(req.as_bytes()).unwrap();
        let shown: String = line.chars().take(60).collect();
        assert_eq!(r.status, *status, "{shown}: {}", r.text());
        let body = r.json();
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{shown}: {body}"));
        assert!(error.contains(words), "{shown}: {error}");
        assert!(!error.contains("root:"), "{shown} leaked a file: {error}");
        still_serving(&shown);
    }
    // Not HTTP at all, a request line 1 MB long, a body on a GET, a half request:
    // answered or dropped, never a crash.
    let garbage: [&[u8]; 3] = [
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 definitely not HTTP\r\n\r\n",
        format!(
            "GET /api/?{} HTTP/1.1\r\nHost: x\r\n\r\n",
            "a".repeat(1 << 20)
        )
        .into_bytes()
        .leak(),
        b"GET /api/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    ];
    for g in garbage {
        if let Ok(r) = server.raw(g) {
            assert!(r.status == 200 || (400..500).contains(&r.status), "{r:?}");
        }
        still_serving("garbage");
    }
    {
        use std::io::Write;
        let mut half = std::net::TcpStream::connect(server.addr).unwrap();
        half.write_all(b"GET /api/mtttier/regular/positions/?p=X-")
            .unwrap();
        still_serving("a half-sent request left open");
    }
    // The static files: only the page's own.
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<svg id=\"board\""));
    assert!(page.header("content-security-policy").is_some());
    assert_eq!(server.get("/static/app.js").status, 200);
    assert_eq!(server.get("/static/style.css").status, 200);
}

#[test]
fn sigterm_and_ctrl_c_stop_the_server() {
    let dir = solved(&host_binary(), &[("mtttier", "regular")]);
    for (signal, word) in [("-TERM", "SIGTERM"), ("-INT", "Ctrl-C")] {
        let mut server = Server::start(&host_binary(), &["mtttier"], &resource(&dir));
        assert_eq!(server.get("/api/").status, 200);
        let started = Instant::now();
        let pid = server.pid().to_string();
        std::process::Command::new("kill")
            .args([signal, &pid])
            .status()
            .unwrap();
        while server.is_running() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "stopping took {:?}",
            started.elapsed()
        );
        let (status, err) = server.stop();
        assert!(status.unwrap().success(), "{word}: {err}");
        assert!(
            err.contains(word) && err.contains("stopped"),
            "{word}: {err}"
        );
    }
}
