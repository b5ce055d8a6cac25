//! A FIFO (or another file that is not a regular file) in place of a tier file
//! (issue 52, F2): every reader of tier files refuses it at once with an error naming
//! it, instead of waiting for a writer for ever: `info --db`, `analyze`, `verify`,
//! `solve`, `export`, `db copy`; and under `serve` each request that needs the tier
//! answers with the error within its bound, and no thread stays blocked (the game
//! list, other requests and `/db/` still answer).

use e2e_tests::run::{assert_no_panic_noise, host_command, run_bounded, RunOutput};
use e2e_tests::serve::{solved, Server};
use e2e_tests::workspace::host_binary;
use std::path::Path;
use std::time::{Duration, Instant};

const DIR: &str = "mtttier_regular_tierdb";
/// Each command must end well within this.
const BOUND: Duration = Duration::from_secs(20);

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

fn host(args: &[&str]) -> RunOutput {
    run_bounded(host_command(&host_binary(), args), BOUND).unwrap_or_else(|e| {
        panic!("host {args:?} did not finish within {BOUND:?}: a FIFO blocked it\n{e}")
    })
}

/// mtttier regular solved, with tier 9 (the empty board's) a FIFO.
fn with_fifo() -> (tempfile::TempDir, String) {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let tier = db.path().join(DIR).join("tier_9.gz");
    std::fs::remove_file(&tier).unwrap();
    mkfifo(&tier);
    let resource = format!("file:{}", db.path().display());
    (db, resource)
}

fn assert_refused(r: &RunOutput, what: &str) {
    let d = r.describe();
    assert_eq!(r.status.code(), Some(4), "{what}: a database error\n{d}");
    assert!(
        r.stderr.contains("tier_9.gz") && r.stderr.contains("FIFO"),
        "{what}: the error names the file and what it is\n{d}"
    );
    assert!(
        r.stderr.contains("not a regular file"),
        "{what}: says a tier file must be a regular file\n{d}"
    );
    assert_no_panic_noise(&r.stderr, what);
}

#[test]
fn every_reader_refuses_a_fifo_in_place_of_a_tier_file_at_once() {
    let (db, resource) = with_fifo();
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("x.csv");
    let copy = format!("file:{}", out.path().join("copy").display());
    let p = ["--plugin", "mtttier", "--variant", "regular"];
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("info --db", vec!["info", "--db", &resource]),
        ("analyze", vec!["analyze", "--db", &resource]),
        ("verify", vec!["verify", "--db", &resource]),
        (
            "export",
            vec!["export", "--db", &resource, "--out", csv.to_str().unwrap()],
        ),
        ("db copy", vec!["db", "copy", &resource, &copy]),
        ("query", vec!["query", "--db", &resource]),
    ];
    for (what, args) in cases {
        let started = Instant::now();
        let all: Vec<&str> = p.iter().copied().chain(args).collect();
        let r = host(&all);
        assert_refused(&r, what);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{what} took {:?}",
            started.elapsed()
        );
    }
    assert!(!csv.exists(), "export wrote nothing");
    // `solve` finds the stored tiers invalid or unreadable: it never waits on the
    // FIFO; a solve without --force refuses the unusable file by name.
    let all: Vec<&str> = p
        .iter()
        .copied()
        .chain(["solve", "--db", &resource])
        .collect();
    let r = host(&all);
    if !r.status.success() {
        assert_refused(&r, "solve");
    } else {
        // Solved again: the FIFO was replaced by a real tier file.
        let meta = std::fs::symlink_metadata(db.path().join(DIR).join("tier_9.gz")).unwrap();
        assert!(meta.file_type().is_file(), "{}", r.describe());
    }
}

#[test]
fn serve_answers_every_request_for_a_fifo_tier_and_no_thread_stays_blocked() {
    let (db, resource) = with_fifo();
    let server = Server::start_with(
        &host_binary(),
        &["mtttier"],
        &["--db", &resource, "--call-deadline", "5"],
    );
    // The start position lies in tier 9: each request reads it.
    for i in 0..12 {
        let started = Instant::now();
        let r = server.get("/api/mtttier/regular/positions/");
        let took = started.elapsed();
        let text = r.text();
        assert!(
            took < Duration::from_secs(4),
            "request {i} took {took:?} (blocked until the call deadline?): {} {text}",
            r.status
        );
        assert_ne!(r.status, 200, "request {i}: {text}");
        assert_ne!(
            r.status, 503,
            "request {i}: the server's threads are held: {text}"
        );
        assert!(text.contains("FIFO"), "request {i}: {} {text}", r.status);
    }
    // Everything else still answers.
    assert_eq!(server.get("/api/").status, 200);
    let listing = server.get(&format!("/db/{DIR}/"));
    assert_eq!(listing.status, 200, "{}", listing.text());
    assert!(
        !listing.text().contains("tier_9.gz"),
        "the FIFO is not published"
    );
    assert_eq!(
        server.get(&format!("/db/{DIR}/tier_9.gz")).status,
        404,
        "nor served"
    );
    assert_eq!(server.get(&format!("/db/{DIR}/tier_8.gz")).status, 200);
    drop(server);
    drop(db);
}
