//! GamesmanOne's own games, unchanged (issue 41): every game folder GamesmanOne's
//! CMake lists build (v1.3.0's twelve, pull request 27's Mills) has a row in
//! `tests/gamesmanone/expectations.tsv`, which says whether it builds with
//! `plugin-api/c/gamesmanone/build.sh` (and why not), how it is validated, and whether
//! it is solved; every game that builds loads and passes `validate` (a sample of
//! positions per tier where the game is large), and every variant in
//! `tests/gamesmanone/oracle.tsv` (GamesmanOne's own results) that GamesmanOne solved
//! in at most 10 s of CPU solves here to its start value and remoteness and its
//! canonical counts, by value and by remoteness. With `GAMESMANONE_FULL=1` every oracle
//! row is solved (Quixo 4x4 takes GamesmanOne ~40 s).
//!
//! Needs `../shared/gamesmanone` (GamesmanOne's game sources, GPL, read at test time,
//! never copied here): without it the test says so and passes, except under `CI`,
//! where it fails. Games run two at a time, each step bounded. This file must not hold
//! any game's results.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::gamesmanone_corpus::{
    check_game, cmake_games, corpus_dir, read_expectations, read_oracle, Expectation, Tools,
};
use e2e_tests::workspace::{artifact_dir, host_binary, shared_input};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// GamesmanOne's sources, or `None` (with a note) where they are missing outside CI.
fn corpus() -> Option<PathBuf> {
    shared_input(
        corpus_dir(&workspace_root()),
        "v1.3.0/src/games/CMakeLists.txt",
        "the GamesmanOne corpus test",
    )
}

fn read(path: &str) -> String {
    let p = workspace_root().join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn every_gamesmanone_game_builds_validates_and_solves_to_gamesmanones_values() {
    let Some(corpus) = corpus() else { return };
    let expectations = read_expectations(&read("tests/gamesmanone/expectations.tsv"));
    let oracle = read_oracle(&read("tests/gamesmanone/oracle.tsv")).expect("oracle.tsv");
    // Coverage is explicit: every game GamesmanOne builds has a row, and no row names a
    // game it does not build.
    let mut listed = Vec::new();
    for source in ["v1.3.0", "pr27-mills"] {
        let cmake = std::fs::read_to_string(corpus.join(source).join("src/games/CMakeLists.txt"))
            .expect("games/CMakeLists.txt");
        for game in cmake_games(&cmake) {
            if !listed.contains(&game) {
                listed.push(game);
            }
        }
    }
    assert!(listed.len() >= 13, "the CMake lists name {listed:?}");
    let mut rows: Vec<String> = expectations.iter().map(|e| e.game.clone()).collect();
    rows.sort();
    listed.sort();
    assert_eq!(
        rows, listed,
        "expectations.tsv must have one row per game GamesmanOne builds"
    );
    for (game, _) in oracle.iter() {
        assert!(
            expectations
                .iter()
                .any(|e| &e.game == game && e.solve == "equal"),
            "oracle.tsv has rows for {game}, which expectations.tsv does not solve"
        );
    }
    for e in &expectations {
        assert!(
            e.solve != "equal" || oracle.contains_key(&e.game),
            "expectations.tsv wants {} solved, but oracle.tsv has no row for it",
            e.game
        );
    }
    let full = std::env::var_os("GAMESMANONE_FULL").is_some();
    let host = host_binary();
    let validate = artifact_dir().join("validate");
    let work = artifact_dir().join("gamesmanone-corpus");
    let root = workspace_root();
    let tools = Tools {
        host: &host,
        validate: &validate,
        workspace: &root,
        corpus: &corpus,
        work: &work,
        max_oracle_cpu: if full { f64::INFINITY } else { 10.0 },
        bounds: [
            Duration::from_secs(240),
            Duration::from_secs(if full { 1200 } else { 120 }),
            Duration::from_secs(if full { 600 } else { 180 }),
        ],
    };
    let queue = Mutex::new(
        expectations
            .iter()
            .cloned()
            .collect::<VecDeque<Expectation>>(),
    );
    let problems = Mutex::new(Vec::new());
    let compared = Mutex::new(0usize);
    let by_parents = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(e) = queue.lock().expect("queue").pop_front() else {
                    break;
                };
                let rows = oracle.get(&e.game).map(Vec::as_slice).unwrap_or(&[]);
                let (found, n, p) = check_game(&e, rows, &tools);
                problems.lock().expect("problems").extend(found);
                *compared.lock().expect("count") += n;
                *by_parents.lock().expect("count") += p;
            });
        }
    });
    let problems = problems.into_inner().expect("problems");
    assert!(
        problems.is_empty(),
        "{} differences from expectations.tsv and oracle.tsv:\n{}",
        problems.len(),
        problems.join("\n")
    );
    let compared = compared.into_inner().expect("count");
    let cheap = oracle
        .values()
        .flatten()
        .filter(|r| full || r.cpu <= 10.0)
        .count();
    assert_eq!(
        compared, cheap,
        "every oracle row in bounds must be compared"
    );
    assert!(compared >= 10, "only {compared} variants compared");
    // Quixo and mttt give parents: the layer's undo moves must still solve them.
    let by_parents = by_parents.into_inner().expect("count");
    assert!(
        by_parents >= 2,
        "only {by_parents} variants solved by their parents (--parents undo-moves)"
    );
}
