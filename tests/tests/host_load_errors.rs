//! End-to-end: every bad `--plugin`/`--variant` of issue 2 item 5 makes the real `host`
//! binary fail with its own one-paragraph error and a non-zero exit code.
//!
//! Each test names the case and checks the message a user acts on (what is wrong and
//! with which file). Panicking modules are in `host_panics.rs`; this file must not
//! depend on the wording of anything but the error it provokes.

use e2e_tests::run::{isolated_data_home, run_host};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin, plugin_api_version};
use std::path::Path;

/// Runs `host --plugin SPEC info` and returns its (asserted clean) error paragraph.
fn info_error(spec: &str) -> String {
    run_host(&host_binary(), &["--plugin", spec, "info"]).assert_clean_failure()
}

fn assert_contains(text: &str, wanted: &str) {
    assert!(
        text.contains(wanted),
        "expected the error to contain {wanted:?}, got:\n{text}"
    );
}

/// The path as the host prints it: it canonicalizes files it finds.
fn shown(path: &Path) -> String {
    path.canonicalize()
        .expect("an existing file")
        .display()
        .to_string()
}

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("libgone.so");
    let e = info_error(missing.to_str().expect("utf-8 temp path"));
    assert_contains(&e, &format!("no game module at {}", missing.display()));
    // Without a search list: a path is taken as given.
    assert!(!e.contains("looked for"), "{e}");
}

#[test]
fn bare_name_not_found_says_where_it_looked() {
    let r = run_host(&host_binary(), &["--plugin", "nosuchgame", "info"]);
    let e = r.assert_failure_code(3);
    assert_contains(
        &e,
        "no game module named 'nosuchgame': looked for libnosuchgame.so in",
    );
    // Every directory of the search path, in order: the (isolated) user plugin
    // directory, then the host's own.
    let user = isolated_data_home(&host_binary()).join("gamesman/plugins");
    assert_contains(
        &e,
        &format!("in {}, {}.", user.display(), artifact_dir().display()),
    );
    assert_contains(&e, "host install-plugin PATH");
}

#[test]
fn a_directory_is_named_as_a_directory() {
    // Issue 22: a directory given as --plugin was reported as "no game module".
    let dir = artifact_dir();
    let e = run_host(&host_binary(), &["--plugin", dir.to_str().unwrap(), "info"])
        .assert_failure_code(3);
    assert_contains(
        &e,
        &format!("{} is a directory, not a game module", dir.display()),
    );
    // What to give instead: a library inside it, or the directory on the search path.
    assert_contains(&e, &format!("for example {}/lib", dir.display()));
    assert_contains(&e, "GAMESMAN_PLUGIN_PATH");
    let empty = tempfile::tempdir().expect("temp dir");
    let e = info_error(empty.path().to_str().unwrap());
    assert_contains(&e, "is a directory, not a game module");
    assert_contains(&e, "it holds no .so file");
}

#[test]
fn bare_name_found_next_to_the_host() {
    // The success counterpart of the case above, so that test cannot pass because
    // bare names never work.
    let r = run_host(&host_binary(), &["--plugin", "mtttier", "info"]);
    r.assert_success();
    assert!(r.stdout.starts_with("mtttier: "), "{}", r.describe());
    assert!(
        r.stdout.contains(&shown(&plugin("mtttier"))),
        "{}",
        r.describe()
    );
}

#[test]
fn text_file_is_not_a_shared_library() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("libnotes.so");
    std::fs::write(&file, "this is a text file, not an ELF shared library\n").expect("write");
    let e = info_error(file.to_str().expect("utf-8 temp path"));
    assert_contains(
        &e,
        &format!("{} is not a shared library the host can load", shown(&file)),
    );
}

#[test]
fn empty_file_is_not_a_shared_library() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("libempty.so");
    std::fs::write(&file, b"").expect("write");
    let e = info_error(file.to_str().expect("utf-8 temp path"));
    assert_contains(
        &e,
        &format!("{} is not a shared library the host can load", shown(&file)),
    );
}

#[test]
fn executable_is_not_a_shared_library() {
    // The host binary itself: a real ELF file, but a program, not a library.
    let exe = host_binary();
    let e = info_error(exe.to_str().expect("utf-8 path"));
    assert_contains(
        &e,
        &format!("{} is not a shared library the host can load", shown(&exe)),
    );
}

#[test]
fn library_without_root_module_is_not_a_module() {
    let lib = plugin("fixture_not_a_module");
    let e = info_error(lib.to_str().expect("utf-8 path"));
    assert_contains(
        &e,
        &format!("{} is a shared library but not a game module", shown(&lib)),
    );
    assert_contains(&e, "export_game!");
}

#[test]
fn incompatible_plugin_api_version_names_both_versions() {
    let lib = plugin("fixture_abi_mismatch");
    let e = info_error(lib.to_str().expect("utf-8 path"));
    let host_version = plugin_api_version();
    assert_contains(
        &e,
        &format!(
            "{} was built against gamesman-plugin-api 0.0.5, but this host uses {host_version}",
            shown(&lib)
        ),
    );
}

#[test]
fn unknown_variant_lists_the_variants() {
    let r = run_host(
        &host_binary(),
        &["--plugin", "mtttier", "--variant", "huge", "info"],
    );
    let e = r.assert_clean_failure();
    assert_contains(&e, "module 'mtttier' has no variant 'huge'");
    assert_contains(&e, "Its variants are: regular, symmetric.");
}

#[test]
fn no_plugin_given() {
    let e = run_host(&host_binary(), &["info"]).assert_clean_failure();
    assert_contains(&e, "no game module given: pass --plugin");
}
