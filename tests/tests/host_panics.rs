//! End-to-end: a module that panics inside a call (the `panicky` fixture) makes the
//! host fail cleanly: non-zero exit, one paragraph naming the module and the function,
//! no panic message or backtrace, no abort. Also the same through the host library.
//!
//! `panicky` panics in `position_to_text` everywhere and in `do_move` at tier 2 (see
//! its crate docs). This file must not test any other kind of bad module.

use e2e_tests::run::{assert_no_panic_noise, run_host};
use e2e_tests::workspace::{host_binary, plugin};
use gamesman_host::engine::load::loader;
use gamesman_plugin_api::ffi::CallErrorKind;
use gamesman_plugin_api::{Move, Tier, TierPosition};

fn panicky() -> String {
    plugin("fixture_panicky")
        .to_str()
        .expect("utf-8 path")
        .to_string()
}

#[test]
fn info_names_module_and_function() {
    for json in [false, true] {
        let p = panicky();
        let mut args = vec!["--plugin", p.as_str(), "info"];
        if json {
            args.push("--json");
        }
        let r = run_host(&host_binary(), &args);
        // A module failure is exit code 3; with --json the error is a JSON object.
        let e = if json {
            r.assert_json_failure("module", 3)
        } else {
            r.assert_failure_code(3)
        };
        assert!(
            e.contains("game module 'panicky' failed in position_to_text"),
            "json={json}: {e}"
        );
        // The module's own panic message is passed on.
        assert!(
            e.contains("deliberate failure while naming a position"),
            "{e}"
        );
    }
}

#[test]
fn solve_reports_the_game_function_that_panicked() {
    // A solve reaches do_move at tier 2 (inside the solver's batch calls): the user
    // must learn which module and which of its functions failed.
    let p = panicky();
    let r = run_host(
        &host_binary(),
        &["--plugin", p.as_str(), "solve", "--db", "memory:"],
    );
    let d = r.describe();
    assert!(r.status.code().is_some_and(|c| c != 0), "{d}");
    assert_no_panic_noise(&r.stderr, &d);
    // Progress lines may precede it; the error is the last paragraph.
    let last = r.stderr.trim().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: game module 'panicky' failed"),
        "{d}"
    );
    assert!(
        last.contains("deliberate failure at two tokens left"),
        "{d}"
    );
    assert!(
        last.contains("do_move"),
        "the error must name the module function that panicked (do_move), not only the batch call around it:\n{d}"
    );
}

#[test]
fn in_process_calls_return_typed_errors() {
    let module = loader::load(&panicky()).expect("panicky loads: it only panics in calls");
    let game = module.open(None).expect("the default variant opens");
    let start = game.initial_position().expect("initial_position works");
    assert_eq!(start, TierPosition::new(Tier(4), 0));

    let e = game
        .position_to_text(start)
        .expect_err("position_to_text panics");
    assert_eq!(
        (e.module.as_str(), e.function, e.kind),
        ("panicky", "position_to_text", CallErrorKind::PANIC)
    );

    // Reach tier 2 by taking two, as a player would; do_move works there...
    let two = game
        .do_move(start, Move(2))
        .expect("do_move at tier 4 works");
    assert_eq!(two, TierPosition::new(Tier(2), 0));
    // ...and panics at tier 2, reported as a value, not an abort.
    let e = game
        .do_move(two, Move(1))
        .expect_err("do_move at tier 2 panics");
    assert_eq!(
        (e.module.as_str(), e.function, e.kind),
        ("panicky", "do_move", CallErrorKind::PANIC)
    );
    assert!(
        e.message.contains("deliberate failure at two tokens left"),
        "{e}"
    );

    // The module is still usable after a caught panic.
    assert_eq!(
        game.moves(two).expect("generate_moves works"),
        vec![Move(1), Move(2)]
    );
}
