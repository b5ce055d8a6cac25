//! GamesmanOne's games served through the compatibility layer name each position one
//! way. The layer names a position by the game's formal position when that names it
//! again, else `TIER:INDEX`. v1.3.0's mtttier builds its formal position from a board of
//! nine characters with no terminating NUL, so what it returned depended on what the
//! stack held: one answer named the start `---------` and the next `0:0`, and
//! GamesmanUni, following the first names, lost its place. The layer now decides once,
//! when the variant opens, whether the game's formal positions can be trusted.
//!
//! Needs `../shared/gamesmanone` (GamesmanOne's sources, read at test time): without it
//! the test says so and passes, except under `CI`.

use e2e_tests::cbuild::workspace_root;
use e2e_tests::gamesmanone_corpus::{corpus_dir, BUILD_SCRIPT};
use e2e_tests::run::run_host;
use e2e_tests::serve::{encode, Server};
use e2e_tests::workspace::{host_binary, shared_input};
use std::process::Command;

/// Builds GamesmanOne's `folder` (v1.3.0) with the layer into `dir`; its path.
fn build(folder: &str, dir: &std::path::Path) -> Option<String> {
    let corpus = shared_input(
        corpus_dir(&workspace_root()),
        "v1.3.0/src/games/CMakeLists.txt",
        "the GamesmanOne position names test",
    )?;
    let out = dir.join(format!("lib{folder}.so"));
    let status = Command::new("sh")
        .arg(workspace_root().join(BUILD_SCRIPT))
        .arg(corpus.join("v1.3.0/src"))
        .arg(folder)
        .arg(&out)
        .status()
        .expect("running build.sh");
    assert!(status.success(), "build.sh {folder} failed");
    Some(out.display().to_string())
}

/// Serves `folder`'s `variant` and checks that three answers for the start name it and
/// its children the same way, and that each child's name, asked for, is the name the
/// answer gives; returns the start's name.
fn names_are_stable(folder: &str, id: &str, variant: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let lib = build(folder, dir.path())?;
    let db = format!("file:{}", dir.path().join("db").display());
    run_host(
        &host_binary(),
        &["--plugin", &lib, "--variant", variant, "solve", "--db", &db],
    )
    .assert_success();
    let server = Server::start(&host_binary(), &[&lib], &db);
    let start = |_| {
        server
            .get(&format!("/api/{id}/{variant}/positions/"))
            .json()
    };
    let answers: Vec<serde_json::Value> = (0..3).map(start).collect();
    assert_eq!(answers[0], answers[1], "{id}: the start, asked twice");
    assert_eq!(answers[0], answers[2], "{id}: the start, asked three times");
    let moves = answers[0]["moves"].as_array().expect("the start's moves");
    assert!(!moves.is_empty(), "{id}: {}", answers[0]);
    for m in moves {
        let name = m["position"].as_str().expect("a child's name");
        let child = server
            .get(&format!(
                "/api/{id}/{variant}/positions/?p={}",
                encode(name)
            ))
            .json();
        assert_eq!(child["position"], name, "{id}: the child named {name}");
        assert_eq!(child["positionValue"], m["positionValue"], "{id}: {name}");
    }
    Some(answers[0]["position"].as_str().unwrap().to_string())
}

#[test]
fn gamesmanone_positions_have_one_name_each() {
    // mtttier's formal positions cannot be trusted: TIER:INDEX throughout.
    let Some(start) = names_are_stable("mtttier", "mtttier", "0") else {
        return;
    };
    assert_eq!(start, "0:0");
    // Quixo's can: its formal positions stay.
    let quixo = names_are_stable("quixo", "quixo", "2").expect("built above");
    assert_eq!(quixo, "1_---------");
}
