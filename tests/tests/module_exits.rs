//! Every exit of a C module is explained (issue 32): `_exit(0)` (which skips `atexit`),
//! a segfault, a division by zero and `abort()` during a call leave a line naming the module and the
//! function, and the host never ends with status 0 then; a text length of 2^50 and a
//! player 7 are the module's errors, never an allocation abort or a wrong solve. The
//! module is tests/c-modules/bad_header_module.c, built once per fault.

use e2e_tests::cbuild::build_header_module;
use e2e_tests::run::{assert_no_panic_noise, run_host, RunOutput};
use e2e_tests::workspace::host_binary;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;

fn module(flag: &str) -> PathBuf {
    build_header_module(
        "tests/c-modules/bad_header_module.c",
        &format!("exits_{}", flag.to_lowercase()),
        &[&format!("-D{flag}")],
    )
}

fn host(flag: &str, args: &[&str]) -> RunOutput {
    let lib = module(flag);
    let mut all = vec!["--plugin", lib.to_str().unwrap()];
    all.extend_from_slice(args);
    run_host(&host_binary(), &all)
}

#[test]
fn underscore_exit_zero_in_a_module_is_reported_and_fails() {
    let r = host("BAD__EXIT0", &["query", "--db", "memory:"]);
    let d = r.describe();
    assert_eq!(r.status.code(), Some(1), "{d}");
    assert!(
        r.stderr
            .contains("error: game module 'pile' called _exit() in do_move"),
        "{d}"
    );
}

#[test]
fn crashes_in_a_module_name_it_and_never_exit_zero() {
    for (flag, signal, what) in [
        ("BAD_SEGV", libc_sig::SEGV, "SIGSEGV"),
        ("BAD_ABORT", libc_sig::ABRT, "SIGABRT"),
        ("BAD_FPE", libc_sig::FPE, "SIGFPE"),
    ] {
        let r = host(flag, &["query", "--db", "memory:"]);
        let d = r.describe();
        assert_eq!(r.status.signal(), Some(signal), "{d}");
        assert!(
            r.stderr.contains(&format!(
                "error: game module 'pile' crashed in do_move ({what}"
            )),
            "{d}"
        );
    }
}

/// Signal numbers on Linux.
mod libc_sig {
    pub const ABRT: i32 = 6;
    pub const FPE: i32 = 8;
    pub const SEGV: i32 = 11;
}

#[test]
fn a_huge_text_length_and_a_third_player_are_module_errors() {
    let r = host("BAD_HUGE_TEXT", &["query", "--db", "memory:"]);
    let d = r.describe();
    assert_eq!(r.status.code(), Some(3), "{d}");
    assert_no_panic_noise(&r.stderr, &d);
    assert!(
        r.stderr.contains("board_to_text")
            && r.stderr
                .contains("returned a text length of 1125899906842624 bytes"),
        "{d}"
    );
    // solve used to accept it (query refused it).
    let r = host("BAD_TURN7", &["solve", "--db", "memory:"]);
    let d = r.describe();
    assert_eq!(r.status.code(), Some(3), "{d}");
    assert!(r.stderr.contains("returned player 7"), "{d}");
}
