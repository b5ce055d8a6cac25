//! Fuzzing, bounded for CI: every bundled module's `text_to_position` and
//! `text_to_move`, and the play prompt, fed random and adversarial text (any Unicode,
//! multi-byte characters at every place, control characters and terminal escapes,
//! bidirectional overrides, very long lines, mutations of real positions and moves).
//! Nothing may panic: a module's panic comes back through the adapter as an error, so
//! the property is that every call returns the module's own answer (a position, a
//! move, or a plain "not a move" message), never a module error, and that a game at
//! the prompt never reports one.
//!
//! The inputs come from proptest with a fixed seed, so a run is reproducible and a
//! failure is shrunk to a small input; `FUZZ_CASES` raises the number of cases per
//! property for a longer local run. The modules are the built `.so` files, loaded
//! through the host's adapter as a user's would be.

use e2e_tests::workspace::plugin;
use gamesman_host::engine::db::{memory::MemoryDb, GameKey};
use gamesman_host::play::{play, GameEnd, PlayOptions, Side};
use gamesman_host::{engine::load::loader, GameHandle};
use gamesman_plugin_api::TierPosition;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Every bundled module, with the variants fuzzed (chess: promotions and captures).
const MODULES: &[(&str, &[&str])] = &[
    ("mtttier", &["regular"]),
    ("quixo", &["4x4"]),
    ("whirly", &["two-colours"]),
    ("mothello", &["4x4"]),
    ("miceblocks", &["base5"]),
    ("chess", &["KQK", "KRKP"]),
];

fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        // Nothing written into the source tree when a case fails: the message has it.
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

fn open(module: &str, variant: &str) -> GameHandle {
    let m = loader::load(plugin(module).to_str().expect("utf-8 path"))
        .unwrap_or_else(|e| panic!("{module} loads: {e}"));
    m.open(Some(variant))
        .unwrap_or_else(|e| panic!("{module} {variant} opens: {e}"))
}

/// Positions met on a few random games from the start, and the texts of their
/// positions and moves: the real inputs the mutations start from.
struct Corpus {
    positions: Vec<TierPosition>,
    texts: Vec<String>,
}

fn corpus(game: &GameHandle) -> Corpus {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let start = game.initial_position().expect("initial position");
    let mut positions = vec![start];
    let mut texts = Vec::new();
    for _ in 0..8 {
        let mut p = start;
        for _ in 0..24 {
            texts.push(game.position_to_text(p).expect("position_to_text"));
            if game.primitive(p).expect("primitive") != gamesman_plugin_api::Value::UNDECIDED {
                break;
            }
            let moves = game.moves(p).expect("generate_moves");
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                texts.push(game.move_to_text(p, m).expect("move_to_text"));
            }
            p = game.do_move(p, moves[next(moves.len())]).expect("do_move");
            positions.push(p);
        }
    }
    texts.sort();
    texts.dedup();
    Corpus { positions, texts }
}

/// Characters that have broken text parsers: multi-byte (2, 3 and 4 bytes), a
/// combining accent, NUL, escape, line breaks, a bidirectional override, the
/// replacement character, a byte-order mark, and anything else.
fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('\u{e9}'),
        Just('\u{20ac}'),
        Just('\u{2655}'),
        Just('\u{1d11e}'),
        Just('\u{301}'),
        Just('\0'),
        Just('\x1b'),
        Just('\n'),
        Just('\r'),
        Just('\t'),
        Just('\u{202e}'),
        Just('\u{fffd}'),
        Just('\u{feff}'),
        Just(' '),
        Just(':'),
        Just('/'),
        Just('-'),
        any::<char>(),
    ]
}

/// One edit of a string: insert, replace or delete at a place.
#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, char),
    Replace(prop::sample::Index, char),
    Delete(prop::sample::Index),
    Truncate(prop::sample::Index),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match e {
            Edit::Insert(at, c) => {
                let i = at.index(chars.len() + 1);
                chars.insert(i, *c);
            }
            Edit::Replace(at, c) if !chars.is_empty() => {
                let i = at.index(chars.len());
                chars[i] = *c;
            }
            Edit::Delete(at) if !chars.is_empty() => {
                let i = at.index(chars.len());
                chars.remove(i);
            }
            Edit::Truncate(at) => {
                let i = at.index(chars.len() + 1);
                chars.truncate(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), nasty_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<prop::sample::Index>(), nasty_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<prop::sample::Index>().prop_map(Edit::Delete),
        any::<prop::sample::Index>().prop_map(Edit::Truncate),
    ]
}

/// Random and adversarial text around the corpus `texts`.
fn text(texts: Vec<String>) -> impl Strategy<Value = String> {
    let pick = prop::sample::select(texts);
    prop_oneof![
        3 => any::<String>(),
        2 => "\\PC{0,12}",
        2 => prop::collection::vec(nasty_char(), 0..8).prop_map(|v| v.into_iter().collect()),
        6 => (pick.clone(), prop::collection::vec(edit(), 1..5))
            .prop_map(|(t, e)| apply(&t, &e)),
        1 => (pick.clone(), 1usize..4000).prop_map(|(t, n)| t.repeat(n)),
        1 => (nasty_char(), 10_000usize..100_000).prop_map(|(c, n)| c.to_string().repeat(n)),
        1 => pick,
    ]
}

/// A module error (a panic caught by the adapter, or bad output) is a failure; so is
/// a message that reports a panic.
fn clean<T>(
    what: &str,
    input: &str,
    r: gamesman_host::ModuleResult<Result<T, String>>,
) -> Result<Option<T>, TestCaseError> {
    match r {
        Err(e) => Err(TestCaseError::fail(format!(
            "{what}({input:?}) failed: {e}"
        ))),
        Ok(Err(message)) if message.contains("panicked") => Err(TestCaseError::fail(format!(
            "{what}({input:?}) reports a panic: {message}"
        ))),
        Ok(Err(_)) => Ok(None),
        Ok(Ok(v)) => Ok(Some(v)),
    }
}

#[test]
fn text_to_position_and_text_to_move_never_panic() {
    for (module, variants) in MODULES {
        for variant in *variants {
            let game = open(module, variant);
            let Corpus { positions, texts } = corpus(&game);
            let inputs = text(texts);
            runner(cases(3000))
                .run(&inputs, |s| {
                    if let Some(p) = clean("text_to_position", &s, game.text_to_position(&s))? {
                        // What the module accepted it can name again.
                        game.position_to_text(p).map_err(|e| {
                            TestCaseError::fail(format!("position_to_text after {s:?}: {e}"))
                        })?;
                    }
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{module} {variant}: {e}"));
            let at = (prop::sample::select(positions), inputs);
            runner(cases(3000))
                .run(&at, |(p, s)| {
                    clean("text_to_move", &s, game.text_to_move(p, &s))?;
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{module} {variant}: {e}"));
        }
    }
}

#[test]
fn the_play_prompt_takes_any_line() {
    for (module, variants) in MODULES {
        let variant = variants[0];
        let game = open(module, variant);
        let Corpus { texts, .. } = corpus(&game);
        let commands = ["ps", "values", "hint", "undo", "w", "help", "?", ""]
            .map(String::from)
            .to_vec();
        let line = prop_oneof![
            3 => text(texts.clone()),
            3 => prop::sample::select(texts.clone()),
            1 => prop::sample::select(commands),
        ];
        let session = prop::collection::vec(line, 1..24);
        runner(cases(100))
            .run(&session, |lines| {
                let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
                let db = MemoryDb::new(GameKey {
                    game: game.module_name().to_string(),
                    variant: game.variant().to_string(),
                    winby: game.supports_winby(),
                    numbering: 0,
                });
                let options = PlayOptions {
                    sides: [Side::Human, Side::Human],
                    seed: Some(1),
                    winby: true,
                    false_hope: false,
                    echo: true,
                    depth: None,
                };
                let mut out = Vec::new();
                let end = play(&game, &db, &options, input.as_bytes(), &mut out)
                    .map_err(|e| TestCaseError::fail(format!("the game ended with {e}")))?;
                let text = String::from_utf8_lossy(&out);
                prop_assert!(
                    matches!(
                        end,
                        GameEnd::EndOfInput | GameEnd::Quit | GameEnd::Finished(_)
                    ),
                    "{end:?}"
                );
                prop_assert!(!text.contains("panicked"), "a panic at the prompt:\n{text}");
                prop_assert!(
                    !text.contains("error:"),
                    "a module error at the prompt:\n{text}"
                );
                prop_assert!(!text.contains('\x1b'), "an escape reached the terminal");
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{module} {variant}: {e}"));
    }
}
