//! The abort report of the host's own allocations (`engine::abort_report`), in a child
//! process of this test binary that uses `ReportingAllocator` as the host binaries do:
//! a failed allocation in the middle of a solve is "out of memory while solving tier
//! ..." with its size and exit code 5 (one JSON object with `--json`); an abort with
//! no tier noted still ends the process by SIGABRT.

use gamesman_host::engine::abort_report::{self, ReportingAllocator, WorkingOn};
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

#[global_allocator]
static ALLOCATOR: ReportingAllocator = ReportingAllocator;

/// What the child does, named by `ABORT_REPORT_CHILD`.
fn child(what: &str) {
    abort_report::install(5, what == "json");
    // An address-space limit, so the allocation below fails on every machine.
    let limit = libc::rlimit {
        rlim_cur: 4 << 30,
        rlim_max: 4 << 30,
    };
    // SAFETY: plain setrlimit on this process.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    let _a = WorkingOn::tier("3Blank_10X_12O");
    let _b = WorkingOn::tier(if what == "json" {
        // A module names its tiers: quotes, backslashes and control characters must
        // still make valid JSON, and a long name is cut at a character's start.
        "say \"hi\" \\ now\n\u{1}é456789012345678901234567890123456789012345678é"
    } else {
        "3Blank_9X_13O"
    });
    if what == "none" {
        drop((_a, _b));
        std::process::abort();
    }
    let huge: Vec<u8> = Vec::with_capacity(1 << 40);
    std::hint::black_box(&huge);
    unreachable!("an allocation of 1 TiB under a 4 GiB address-space limit");
}

fn spawn(what: &str) -> std::process::Output {
    Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "the_parent", "--nocapture"])
        .env("ABORT_REPORT_CHILD", what)
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("the child runs")
}

#[test]
fn the_parent() {
    if let Ok(what) = std::env::var("ABORT_REPORT_CHILD") {
        child(&what);
        return;
    }
    let expected = "out of memory while solving tiers 3Blank_10X_12O, 3Blank_9X_13O: an allocation of 1099511627776 bytes failed outside the arrays the memory plan counts";
    // The same with the hostile name: escaped, the control characters as spaces, cut
    // before the last 'é' (its second byte is the 65th).
    let expected_json = "out of memory while solving tiers 3Blank_10X_12O, say \"hi\" \\ now  é456789012345678901234567890123456789012345678: an allocation of 1099511627776 bytes failed";

    let text = spawn("text");
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert_eq!(text.status.code(), Some(5), "{stderr}");
    let last = stderr.trim_end().lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("error: {expected}")), "{stderr}");

    let json = spawn("json");
    let stdout = String::from_utf8_lossy(&json.stdout);
    assert_eq!(json.status.code(), Some(5), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("a JSON line: {stdout}"));
    let v: serde_json::Value = serde_json::from_str(line).expect("the error's JSON");
    assert_eq!(v["kind"], "solve");
    assert_eq!(v["exit_code"], 5);
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.starts_with(expected_json)),
        "{v}"
    );

    // No tier noted: abort() ends the process by its signal, as it would without us.
    let none = spawn("none");
    assert_eq!(none.status.signal(), Some(libc::SIGABRT), "{none:?}");
}
