//! GamesmanOne's games, unchanged, built by `plugin-api/c/gamesmanone/build.sh` (which
//! puts the layer's AutoGUI sidecar beside each library) and played on GamesmanUni's
//! boards as the bundled games are (`super::play`): moves clicked on the board, each
//! reaching the API's position, the pieces drawn where the AutoGUI string puts them, a
//! value on every move, a computer move.
//!
//! Needs `../shared/gamesmanone` as well as GamesmanUni's build and Chromium: without
//! them it says so and passes, except under `CI`. Every game is solved whole, so every
//! move from the start has a value: Quixo 4x4 (`QUIXO_4X4`, its own server) takes about
//! 40 s of CPU to solve, five men's morris about 8 s.

use super::{play, UniGame};
use e2e_tests::browser::{browser, with_server_page};
use e2e_tests::cbuild::workspace_root;
use e2e_tests::gamesmanone_corpus::{corpus_dir, BUILD_SCRIPT};
use e2e_tests::run::run_host;
use e2e_tests::uni::gamesmanuni;
use e2e_tests::workspace::{host_binary, shared_input};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A GamesmanOne game played: its source tree, its folder, and how it is played.
struct OneGame {
    /// `v1.3.0` or `pr27-mills`.
    tree: &'static str,
    /// The folder under `games/` (the library is built from it).
    folder: &'static str,
    /// How the browser plays it (`id` is the module's name).
    game: UniGame,
}

const fn one(
    tree: &'static str,
    folder: &'static str,
    id: &'static str,
    variant: &'static str,
    clicks: usize,
) -> OneGame {
    OneGame {
        tree,
        folder,
        game: UniGame {
            id,
            variant,
            reachable: false,
            kind: "games",
            name: "",
            gui: "v3",
            clicks,
        },
    }
}

/// Quixo 4x4: a variant of the same module as Quixo 3x3 above, and a GamesmanOne game
/// serves one variant per process, so it gets its own server.
const QUIXO_4X4: OneGame = one("v1.3.0", "quixo", "quixo", "1", 3);

const GAMES: [OneGame; 5] = [
    one("v1.3.0", "mtttier", "mtttier", "0", 3),
    one("v1.3.0", "quixo", "quixo", "2", 3),
    one("v1.3.0", "mttt", "mttt", "0", 2),
    one("v1.3.0", "kaooa", "mkaooa", "0", 3),
    one("pr27-mills", "mills", "mills", "0", 2),
];

/// GamesmanOne's sources, or `None` (with a note) where they are missing outside CI.
fn corpus() -> Option<PathBuf> {
    shared_input(
        corpus_dir(&workspace_root()),
        "v1.3.0/src/games/CMakeLists.txt",
        "the GamesmanOne boards test",
    )
}

/// Builds `g` into `dir` with the layer's one command; gives the library's path.
fn build(corpus: &Path, g: &OneGame, dir: &Path) -> PathBuf {
    let out = dir.join(format!("lib{}.so", g.folder));
    let status = Command::new("sh")
        .arg(workspace_root().join(BUILD_SCRIPT))
        .arg(corpus.join(g.tree).join("src"))
        .arg(g.folder)
        .arg(&out)
        .status()
        .expect("running build.sh");
    assert!(status.success(), "build.sh {} failed", g.folder);
    let sidecar = PathBuf::from(format!("{}.autogui.json", out.display()));
    assert!(
        sidecar.is_file(),
        "build.sh should put the sidecar {} beside the library",
        sidecar.display()
    );
    out
}

/// Builds and solves `games` (each its own module: a GamesmanOne game serves one
/// variant per process), serves them and plays each in GamesmanUni, whose console must
/// have no errors.
fn build_serve_and_play(corpus: &Path, dist: &str, games: &'static [OneGame]) {
    let libs = tempfile::tempdir().unwrap();
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    let started = Instant::now();
    let mut paths = Vec::new();
    for g in games {
        let lib = build(corpus, g, libs.path()).display().to_string();
        let args = vec![
            "--plugin",
            &lib,
            "--variant",
            g.game.variant,
            "solve",
            "--db",
            &resource,
        ];
        run_host(&host_binary(), &args).assert_success();
        paths.push(lib);
    }
    eprintln!(
        "built and solved in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let modules: Vec<&str> = paths.iter().map(String::as_str).collect();
    with_server_page(
        &modules,
        &["--db", &resource, "--gamesmanuni", dist],
        (1280, 1000),
        |page| {
            Box::pin(async move {
                let mut errors = Vec::new();
                for g in games {
                    // Solved whole: the start and every move from it have a value.
                    let start = page.api(g.game.id, g.game.variant, "");
                    let unsolved: Vec<&serde_json::Value> = std::iter::once(&start)
                        .chain(start["moves"].as_array().into_iter().flatten())
                        .filter(|m| {
                            m["positionValue"] == "unsolved" || m["moveValue"] == "unsolved"
                        })
                        .collect();
                    assert!(unsolved.is_empty(), "{}: unsolved: {unsolved:?}", g.game.id);
                    let at = Instant::now();
                    let e = play(page, &g.game).await;
                    eprintln!(
                        "GamesmanOne's {} {}: played in {:.1} s",
                        g.game.id,
                        g.game.variant,
                        at.elapsed().as_secs_f64()
                    );
                    errors.extend(e.into_iter().map(|e| format!("{}: {e}", g.game.id)));
                }
                assert!(errors.is_empty(), "console errors: {errors:#?}");
            })
        },
    );
}

#[test]
fn gamesmanuni_plays_gamesmanone_games_on_boards() {
    let Some(dist) = gamesmanuni() else { return };
    let Some(corpus) = corpus() else { return };
    if browser().is_none() {
        return;
    }
    let dist = dist.display().to_string();
    let started = Instant::now();
    build_serve_and_play(&corpus, &dist, &GAMES);
    build_serve_and_play(&corpus, &dist, &[QUIXO_4X4]);
    eprintln!(
        "GamesmanUni played GamesmanOne's games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
