//! End-to-end: every way a C module can be wrong ends in one clear error from the real
//! `host` binary (non-zero exit, an `error:` line naming the file or the module and
//! the function, no panic noise), and as the right typed `LoadError` in the host
//! library. The modules are tests/c-modules/bad_header_module.c (gamesman_plugin.h)
//! and tests/c-modules/classic_bad.c (GamesmanClassic), each built once per fault with
//! the README's command and one -D flag.

use e2e_tests::cbuild::{build_classic_module, build_header_module};
use e2e_tests::run::{assert_no_panic_noise, run_host};
use e2e_tests::workspace::host_binary;
use gamesman_host::engine::load::cmodule::CModuleError;
use gamesman_host::engine::load::loader::{self, LoadError};
use std::path::{Path, PathBuf};

/// The pile game of gamesman_plugin.h with the fault `flag` (or none).
fn header_module(flag: Option<&str>) -> PathBuf {
    let name = format!("bad_{}", flag.unwrap_or("none").to_lowercase());
    let define = flag.map(|f| format!("-D{f}"));
    build_header_module(
        "tests/c-modules/bad_header_module.c",
        &name,
        define
            .as_slice()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
    )
}

/// The Classic pile game with the fault `flag` and any further flags.
fn classic_module(flag: &str, more: &[&str]) -> PathBuf {
    let name = format!("classic_bad_{}{}", flag.to_lowercase(), more.len());
    let mut flags = vec![format!("-D{flag}")];
    flags.extend(more.iter().map(|s| s.to_string()));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    build_classic_module("tests/c-modules/classic_bad.c", &name, &flags)
}

fn spec(lib: &Path) -> String {
    lib.to_str().expect("utf-8 path").to_string()
}

/// Runs the host and returns its error line, asserting the failure is clean: a
/// non-zero exit code (not a signal), no panic noise, and stderr ending in one `error:`
/// line (progress lines of a solve may come before it).
fn host_error(lib: &Path, args: &[&str]) -> String {
    let s = spec(lib);
    let mut all = vec!["--plugin", s.as_str()];
    all.extend_from_slice(args);
    let r = run_host(&host_binary(), &all);
    let d = r.describe();
    assert!(
        r.status.code().is_some_and(|c| c != 0),
        "expected a failure exit code:\n{d}"
    );
    assert_no_panic_noise(&r.stderr, &d);
    let last = r
        .stderr
        .trim()
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(last.starts_with("error: "), "{d}");
    assert_eq!(r.stderr.matches("error:").count(), 1, "{d}");
    last
}

fn assert_contains(text: &str, wanted: &str) {
    assert!(text.contains(wanted), "expected {wanted:?} in:\n{text}");
}

fn load_error(lib: &Path) -> LoadError {
    match loader::load(&spec(lib)) {
        Err(e) => e,
        Ok(m) => panic!("{} loaded, but must be refused", m.name()),
    }
}

#[test]
fn the_correct_pile_game_works() {
    // The counterpart of every test below: without a fault the module solves.
    assert_starts_as_a_win_in_5(&header_module(None));
}

#[test]
fn a_module_of_header_revision_1_loads_and_solves() {
    // Its struct ends before scan_position (which it sets, wrongly, past its end): the
    // host reads struct_size bytes and solves it as a module without the function.
    assert_starts_as_a_win_in_5(&header_module(Some("OLD_REVISION")));
}

/// The pile game's start, solved and queried through the host: a win in 5.
fn assert_starts_as_a_win_in_5(lib: &Path) {
    let s = spec(lib);
    let r = run_host(
        &host_binary(),
        &["--plugin", &s, "query", "--db", "memory:", "--json"],
    );
    r.assert_success();
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(j["value"], "win");
    assert_eq!(j["remoteness"], 5);
}

#[test]
fn a_required_function_left_null() {
    let lib = header_module(Some("BAD_NULL_PRIMITIVE"));
    let e = host_error(&lib, &["info"]);
    assert_contains(&e, "is a C game module the host cannot use");
    assert_contains(&e, "leaves required functions NULL: primitive.");
    match load_error(&lib) {
        LoadError::BadCModule {
            reason: CModuleError::MissingFunctions { functions },
            ..
        } => assert_eq!(functions, vec!["primitive"]),
        other => panic!("expected MissingFunctions, got {other:?}"),
    }
}

#[test]
fn a_flag_without_its_function() {
    let lib = header_module(Some("BAD_WINBY_WITHOUT_FN"));
    let e = host_error(&lib, &["info"]);
    assert_contains(&e, "win_by (GAMESMAN_FLAG_WINBY is set)");
}

#[test]
fn a_struct_smaller_than_its_fields() {
    let lib = header_module(Some("BAD_SMALL_STRUCT"));
    let e = host_error(&lib, &["info"]);
    assert_contains(
        &e,
        "declares struct_size 64 bytes, but a version-1 struct holds at least 272 bytes",
    );
    match load_error(&lib) {
        LoadError::BadCModule {
            reason:
                CModuleError::TooSmall {
                    size,
                    version,
                    needed,
                },
            ..
        } => assert_eq!((size, version, needed), (64, 1, 272)),
        other => panic!("expected TooSmall, got {other:?}"),
    }
}

#[test]
fn another_abi_version() {
    let lib = header_module(Some("BAD_ABI_VERSION"));
    let e = host_error(&lib, &["info"]);
    assert_contains(&e, "speaks C ABI version 2");
    assert_contains(&e, "this host speaks 1");
    match load_error(&lib) {
        LoadError::BadCModule {
            reason: CModuleError::AbiVersion { module, host },
            ..
        } => assert_eq!((module, host), (2, 1)),
        other => panic!("expected AbiVersion, got {other:?}"),
    }
}

#[test]
fn no_entry_point() {
    let lib = header_module(Some("BAD_NO_ENTRY"));
    let e = host_error(&lib, &["info"]);
    assert_contains(
        &e,
        "exports neither a gamesman root module nor gamesman_module_v1",
    );
    assert!(matches!(load_error(&lib), LoadError::NotAModule { .. }));
}

#[test]
fn more_items_than_the_capacity() {
    // The module claims one move more than the buffer holds (writing no more than it
    // holds): reported by the solver's batch call and by a single call alike.
    let lib = header_module(Some("BAD_OVERFLOW"));
    let e = host_error(&lib, &["solve", "--db", "memory:"]);
    assert_contains(
        &e,
        "game module 'pile' failed in scan_batch: generate_moves at position",
    );
    assert_contains(&e, "gave more than the 2 items the module declares");
    let module = loader::load(&spec(&lib)).expect("loads");
    let game = module.open(None).expect("opens");
    let start = game.initial_position().expect("a start");
    let err = game.moves(start).expect_err("an overflow");
    assert_eq!(err.function, "generate_moves");
    assert_contains(&err.message, "gave more than the 2 items");
}

#[test]
fn an_error_status_names_the_function() {
    let lib = header_module(Some("BAD_ERROR"));
    let e = host_error(&lib, &["solve", "--db", "memory:"]);
    assert_contains(
        &e,
        "game module 'pile' failed in scan_batch: do_move failed: the pile of",
    );
    assert_contains(&e, "tokens fell over");
}

#[test]
fn exit_in_a_header_module_is_reported() {
    // The host cannot survive exit() in a module without the Classic layer, but it
    // says what happened and fails, instead of ending silently with status 3.
    let lib = header_module(Some("BAD_EXIT"));
    let e = host_error(&lib, &["query", "--db", "memory:"]);
    assert_contains(&e, "game module 'pile' called exit() in do_move");
}

#[test]
fn classic_exit_is_an_error_of_the_call() {
    let lib = classic_module("EXIT_IN_DOMOVE", &[]);
    let e = host_error(&lib, &["solve", "--db", "memory:"]);
    // The solver meets it while the layer explores which positions are reachable.
    assert_contains(&e, "game module 'classic_bad' failed in scan_batch: is_legal failed: the module called exit(3) in DoMove");
    // The host lives on after the module's exit(): a call that does not reach it
    // still works in the same process.
    let module = loader::load(&spec(&lib)).expect("loads");
    let game = module.open(None).expect("opens");
    let start = game.initial_position().expect("a start");
    // Taking one token leads to 6 tokens, where DoMove calls exit(3).
    let six = game
        .do_move(start, gamesman_plugin_api::Move(1))
        .expect("7 -> 6");
    let err = game
        .do_move(six, gamesman_plugin_api::Move(1))
        .expect_err("exit");
    assert_eq!(
        err.kind,
        gamesman_plugin_api::ffi::CallErrorKind::MODULE_ERROR
    );
    assert_contains(&err.message, "the module called exit(3) in DoMove");
    assert_eq!(
        game.primitive(start).expect("still answers"),
        gamesman_plugin_api::Value::UNDECIDED
    );
}

#[test]
fn classic_bad_else_assert_and_abort_are_errors() {
    let e = host_error(
        &classic_module("BADELSE_IN_PRIMITIVE", &[]),
        &["solve", "--db", "memory:"],
    );
    assert_contains(
        &e,
        "the module reached an impossible case: BadElse(\"Primitive\")",
    );
    let e = host_error(
        &classic_module("ASSERT_IN_GENERATE", &[]),
        &["solve", "--db", "memory:"],
    );
    assert_contains(&e, "assertion `position != 4` failed in GenerateMoves");
    let e = host_error(
        &classic_module("ABORT_IN_PRINT", &[]),
        &["query", "--db", "memory:"],
    );
    assert_contains(
        &e,
        "failed in board_to_text: the module called abort() in PrintPosition",
    );
}

#[test]
fn classic_module_without_primitive() {
    let e = host_error(&classic_module("NO_PRIMITIVE", &[]), &["info"]);
    assert_contains(&e, "the module does not define Primitive()");
}

#[test]
fn classic_move_lists_past_the_layers_capacity() {
    let e = host_error(
        &classic_module("MANY_MOVES", &[]),
        &["solve", "--db", "memory:"],
    );
    assert_contains(
        &e,
        "GenerateMoves gave 300 items, more than the 256 the layer declares; build with -DGAMESMAN_CLASSIC_MAX_MOVES=300",
    );
    // Built as the message says, the module solves: every move takes one token, so
    // the first player takes the seventh and last.
    let lib = classic_module("MANY_MOVES", &["-DGAMESMAN_CLASSIC_MAX_MOVES=300"]);
    let s = spec(&lib);
    let r = run_host(
        &host_binary(),
        &["--plugin", &s, "query", "--db", "memory:", "--json"],
    );
    r.assert_success();
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(j["value"], "win");
    assert_eq!(j["remoteness"], 7);
}

/// `solve --plan --memory-limit 1G --json` of `lib`: its peak estimate and the log.
fn plan_1g(lib: &Path) -> (u64, String) {
    let s = spec(lib);
    let mut cmd = std::process::Command::new(host_binary());
    cmd.args([
        "--plugin",
        &s,
        "solve",
        "--plan",
        "--memory-limit",
        "1G",
        "--json",
    ])
    .env("RUST_LOG", "info");
    let r = e2e_tests::run::run(cmd, e2e_tests::run::DEFAULT_TIMEOUT);
    r.assert_success();
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("the plan's JSON");
    (j["peak_bytes"].as_u64().expect("peak_bytes"), r.stderr)
}

#[test]
fn the_module_keeps_its_share_of_the_budget_and_the_plan_counts_it() {
    // Header revision 3: memory_budget is offered a sixteenth of --memory-limit 1G
    // (64 MiB), keeps 3 MiB of it, and every tier's estimate counts those 3 MiB.
    let keeps = build_header_module(
        "tests/c-modules/bad_header_module.c",
        "budget_keeps_3",
        &["-DBUDGET_KEEPS_MIB=3"],
    );
    let (peak, log) = plan_1g(&keeps);
    assert_contains(
        &log,
        "the module keeps at most 3.00 MiB of its own (of 64.00 MiB offered)",
    );
    let (plain, plain_log) = plan_1g(&header_module(None));
    assert!(!plain_log.contains("the module keeps"), "{plain_log}");
    // Plus the allocator's slack on them (a fraction); each plan also counts the
    // process itself as measured in its own run (its resident set moves by some KiB),
    // hence the MiB either side.
    assert!(
        (plain + (2 << 20)..plain + (5 << 20)).contains(&peak),
        "{plain} -> {peak}"
    );
    assert_starts_as_a_win_in_5(&keeps);
}

#[test]
fn a_failing_memory_budget_is_a_warning_and_counts_nothing() {
    let bad = header_module(Some("BAD_BUDGET"));
    let (peak, log) = plan_1g(&bad);
    assert_contains(&log, "the module's memory budget could not be set");
    assert_contains(&log, "no budget for a pile of 7");
    // Nothing of the 64 MiB offered is counted: the same peak but for the process's
    // own resident set, measured in each run.
    let plain = plan_1g(&header_module(None)).0;
    assert!(peak.abs_diff(plain) < 1 << 20, "{plain} -> {peak}");
    assert_starts_as_a_win_in_5(&bad);
}
