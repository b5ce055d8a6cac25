//! The command line's contract: distinct exit codes for a module that cannot be
//! loaded (3) and a bad command line (2), each with a one-paragraph message and no
//! panic.

mod common;

use common::{built, mtttier, validate, validate_plugin};

#[test]
fn a_missing_plugin_is_a_load_failure() {
    let run = validate(&["--plugin", "/nonexistent/libnothing.so"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("no game module at /nonexistent/libnothing.so"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn a_library_that_is_not_a_module_is_a_load_failure() {
    let run = validate_plugin(&built("libfixture_not_a_module.so"), &[]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("not a game module"), "{}", run.stderr);
}

#[test]
fn an_unknown_variant_is_a_load_failure() {
    let run = validate_plugin(&mtttier(), &["--variant", "nine-by-nine"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("has no variant 'nine-by-nine'"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("regular, symmetric"), "{}", run.stderr);
}

#[test]
fn exhaustive_and_sample_together_are_a_usage_error() {
    let run = validate_plugin(&mtttier(), &["--exhaustive", "--sample", "10"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

#[test]
fn help_states_the_exhaustive_threshold_and_the_exit_codes() {
    let run = validate(&["--help"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("at most 20,000,000 positions"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Exit codes: 0 nothing wrong"),
        "{}",
        run.stdout
    );
}

#[test]
fn all_variants_refuses_what_it_cannot_load_or_combine() {
    let run = validate(&["--plugin", "/nonexistent/libnothing.so", "--all-variants"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run
        .stderr
        .contains("no game module at /nonexistent/libnothing.so"));
    assert!(run.stdout.is_empty());
    let run = validate_plugin(&built("libfixture_not_a_module.so"), &["--all-variants"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("not a game module"), "{}", run.stderr);
    for clash in [&["--variant", "regular"][..], &["--dot", "/tmp/x.dot"][..]] {
        let mut args = vec!["--all-variants"];
        args.extend_from_slice(clash);
        let run = validate_plugin(&mtttier(), &args);
        assert_eq!(run.code, 2, "{clash:?}: {}", run.stderr);
        assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    }
}

#[test]
fn all_variants_checks_every_variant_of_mtttier() {
    let run = validate_plugin(&mtttier(), &["--all-variants", "--json", "--sample", "50"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let names: Vec<&str> = json["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["regular", "symmetric"], "{json}");
    assert_eq!(json["ok"], true);
    assert_eq!(json["failed"], 0);
}
