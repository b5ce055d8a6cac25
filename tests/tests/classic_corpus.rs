//! GamesmanClassic's own modules, unchanged (issue 29): every module Classic's
//! `Makefile.in` lists is built with the README's command from a directory of its own,
//! (the layer's sources compiled once, not with each module) loaded (`host info`),
//! validated, solved and compared with Classic's own solver's
//! results (`tests/classic/oracle.tsv`), as `tests/classic/expectations.tsv` says; and
//! the layer's generic hash numbers boards as Classic's does
//! (`tests/classic/hash_reference.tsv`).
//!
//! Needs `../shared/gamesman-classic` (Classic's module files, read at test time, never
//! copied here): without it the corpus test says so and passes, except under `CI`,
//! where it fails. Modules are built and run two at a time, each step bounded; the
//! modules whose solve or validate is too long for CI (`bench` in the expectations)
//! run only with `GAMESMAN_CLASSIC_FULL=1`, and those whose default validate is too
//! long validate a sample in CI (`tests/classic/validate_sample.tsv`) and in full
//! there. This file must not hold any module's results.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::classic_corpus::{
    check_module, corpus_dir, makefile_modules, read_expectations, read_oracle,
    read_oracle_request, read_samples, Bounds, Expectation, Tools, LAYER_OBJECTS_COMMAND,
};
use e2e_tests::run::run;
use e2e_tests::workspace::{artifact_dir, host_binary, shared_input};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

/// Classic's files, or `None` (with a note) where they are missing outside CI.
fn corpus() -> Option<PathBuf> {
    shared_input(
        corpus_dir(&workspace_root()),
        "Makefile.in",
        "the GamesmanClassic corpus test",
    )
}

fn read(path: &str) -> String {
    let p = workspace_root().join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn every_makefile_module_builds_loads_validates_and_solves_to_classics_values() {
    let Some(corpus) = corpus() else { return };
    let makefile = std::fs::read_to_string(corpus.join("Makefile.in")).expect("Makefile.in");
    let modules = makefile_modules(&makefile);
    // 97 C modules and mcon.cc (CGAMES also names $(TTTPPM_EXE), which Classic never
    // defines).
    assert!(
        modules.len() >= 98,
        "Makefile.in lists {} modules",
        modules.len()
    );
    let expectations = read_expectations(&read("tests/classic/expectations.tsv"));
    let oracle_text = read("tests/classic/oracle.tsv");
    let oracle = read_oracle(&oracle_text);
    let notiers = read_oracle_request(&oracle_text, "notiers");
    let samples = read_samples(&read("tests/classic/validate_sample.tsv"));
    for module in samples.keys() {
        assert!(
            expectations
                .get(module)
                .is_some_and(|e| e.validate != "skip"),
            "validate_sample.tsv names {module}, which expectations.tsv does not validate"
        );
    }
    let missing: Vec<&String> = modules
        .iter()
        .filter(|m| !expectations.contains_key(*m))
        .collect();
    assert!(
        missing.is_empty(),
        "expectations.tsv has no row for {missing:?}"
    );
    let full = std::env::var_os("GAMESMAN_CLASSIC_FULL").is_some();
    let bounds = if full {
        Bounds {
            build: Duration::from_secs(120),
            validate: Duration::from_secs(600),
            solve: Duration::from_secs(600),
        }
    } else {
        Bounds {
            build: Duration::from_secs(60),
            validate: Duration::from_secs(20),
            solve: Duration::from_secs(20),
        }
    };
    let host = host_binary();
    let validate = artifact_dir().join("validate");
    let layer = workspace_root().join("plugin-api/c/classic");
    let sources = corpus.join("src");
    let work = artifact_dir().join("classic-corpus");
    // The layer compiled once (the README's command compiles it with each module; the
    // c_modules tests run that exact command).
    let objects_dir = work.join("layer");
    let _ = std::fs::remove_dir_all(&objects_dir);
    std::fs::create_dir_all(&objects_dir).expect("the corpus work directory");
    let mut cc = Command::new("sh");
    cc.arg("-c")
        .arg(LAYER_OBJECTS_COMMAND.replace("{layer}", &layer.display().to_string()))
        .current_dir(&objects_dir);
    run(cc, Duration::from_secs(300)).assert_success();
    let objects = format!("{}/*.o", objects_dir.display());
    let queue = Mutex::new(modules.iter().cloned().collect::<VecDeque<String>>());
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(module) = queue.lock().expect("queue").pop_front() else {
                    break;
                };
                let mut expect: Expectation = expectations[&module].clone();
                if full && expect.solve == "bench" {
                    expect.solve = "equal".into();
                }
                if full && expect.solve == "bench-notiers" {
                    expect.solve = "notiers".into();
                }
                if full && expect.validate == "bench" {
                    expect.validate = "pass".into();
                }
                // CI validates a sample where the default would outlast its bound; the
                // full run validates as `validate` does by default.
                if !full {
                    expect.sample = samples.get(&module).copied();
                }
                let row = if expect.solve == "notiers" {
                    notiers.get(&module)
                } else {
                    oracle.get(&module)
                };
                let tools = Tools {
                    host: &host,
                    validate: &validate,
                    layer: &layer,
                    objects: &objects,
                    sources: &sources,
                    work: &work,
                };
                let found = check_module(&module, &expect, row, &tools, bounds);
                problems.lock().expect("problems").extend(found);
            });
        }
    });
    let problems = problems.into_inner().expect("problems");
    assert!(
        problems.is_empty(),
        "{} modules differ from expectations.tsv:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_generic_hash_numbers_boards_as_classics_own() {
    let out = artifact_dir().join("classic-corpus").join("hash_probe");
    std::fs::create_dir_all(out.parent().expect("a parent")).expect("the probe directory");
    let mut cc = Command::new("cc");
    cc.args([
        "-O2",
        "-DNO_GRAPHICS",
        "-I",
        "plugin-api/c/classic",
        "tests/classic/hash_probe.c",
    ]);
    for entry in
        std::fs::read_dir(workspace_root().join("plugin-api/c/classic")).expect("the layer")
    {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            cc.arg(path);
        }
    }
    cc.arg("-o").arg(&out).current_dir(workspace_root());
    run(cc, Duration::from_secs(120)).assert_success();
    let mut probe = Command::new(&out);
    probe
        .arg("tests/classic/hash_reference.tsv")
        .current_dir(workspace_root());
    let r = run(probe, Duration::from_secs(60));
    r.assert_success();
    let summary = r.stdout.lines().last().unwrap_or("").to_string();
    let rows: u32 = summary
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        rows >= 200,
        "the probe compared only {rows} rows: {summary}"
    );
    assert!(summary.ends_with(" 0 mismatches"), "{}", r.describe());
}

#[test]
fn a_module_reading_stdin_inside_a_call_fails_that_call_naming_the_function() {
    let lib = e2e_tests::cbuild::build_classic_module(
        "tests/c-modules/classic_reads_stdin.c",
        "classic_reads_stdin",
        &[],
    );
    let host = host_binary();
    let lib = lib.display().to_string();
    let solve = |variant: &str| {
        // The host's own stdin has input: the module must not get it.
        let cmd = e2e_tests::run::host_command(
            &host,
            &[
                "--plugin",
                &lib,
                "--variant",
                variant,
                "solve",
                "--db",
                "memory:",
            ],
        );
        e2e_tests::run::run_with_input(cmd, b"0\n1\n2\n", Duration::from_secs(30))
    };
    for (variant, message) in [
        ("1", "the module read standard input in InitializeGame"),
        (
            "2",
            "the module asked for typed input (GetMyInt) in Primitive",
        ),
    ] {
        let r = solve(variant);
        assert!(r.status.code().is_some_and(|c| c != 0), "{}", r.describe());
        assert!(r.stderr.contains(message), "{}", r.describe());
    }
    let r = solve("3");
    r.assert_success();
    assert!(r.stdout.contains("win in 3"), "{}", r.describe());
}
