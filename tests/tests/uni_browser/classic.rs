//! GamesmanClassic's modules, unchanged, built with the Classic layer's one command
//! (`plugin-api/c/classic/build.sh`: the guide's `cc` command, then the layer's AutoGUI
//! sidecar `autogui/<source>.json` copied beside the library), and
//! played on GamesmanUni's boards as the bundled games are (`super::play`): moves
//! clicked on the board, each reaching the API's position, the pieces drawn where the
//! module's own AutoGUI string puts them, a value on every move, a computer move.
//!
//! Needs `../shared/gamesman-classic` as well as GamesmanUni's build and Chromium:
//! without them it says so and passes, except under `CI`.

use super::{play, UniGame};
use e2e_tests::browser::{browser, with_server_page};
use e2e_tests::cbuild::workspace_root;
use e2e_tests::classic_corpus::corpus_dir;
use e2e_tests::run::run_host;
use e2e_tests::uni::gamesmanuni;
use e2e_tests::workspace::{host_binary, shared_input};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A Classic module played: its source file's stem and how it is played.
struct ClassicGame {
    /// `mttt`: `src/mttt.c`, and the layer's `autogui/mttt.json`.
    source: &'static str,
    /// How the browser plays it (`id` is the module's name, `variant` its option).
    game: UniGame,
}

const fn classic(
    source: &'static str,
    id: &'static str,
    variant: &'static str,
    clicks: usize,
) -> ClassicGame {
    ClassicGame {
        source,
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

/// Each module's starting option (the one a Classic module opens first).
const GAMES: [ClassicGame; 10] = [
    classic("mttt", "ttt", "3", 3),
    classic("m1dchess", "onedchess", "0", 3),
    classic("mkonane", "konane", "0", 3),
    classic("mdodgem", "dodgem", "2", 3),
    classic("machi", "achi", "2", 3),
    classic("mtantfant", "tantfant", "0", 3),
    classic("mtsoroyematatu", "tsoroyematatu", "0", 3),
    classic("mjoust", "joust", "288751", 3),
    classic("myote", "yote", "0", 3),
    HEXAPAWN,
];

/// Hexapawn numbers 224,653,850 positions for its 64,074 reachable ones: solved
/// `--reachable` (a whole solve would need about 46 GiB).
const HEXAPAWN: ClassicGame = ClassicGame {
    game: UniGame {
        reachable: true,
        ..classic("mhexapawn", "hexapawn", "0", 3).game
    },
    ..classic("mhexapawn", "hexapawn", "0", 3)
};

/// Classic's sources, or `None` (with a note) where they are missing outside CI.
fn corpus() -> Option<PathBuf> {
    shared_input(
        corpus_dir(&workspace_root()).join("src"),
        "mttt.c",
        "the Classic boards test",
    )
}

/// Builds `g` into `dir` with the layer's one command (`plugin-api/c/classic/build.sh`,
/// which puts the layer's sidecar beside the library); gives the library's path.
fn build(src: &Path, g: &ClassicGame, dir: &Path) -> PathBuf {
    let out = dir.join(format!("lib{}.so", g.source));
    let status = Command::new("sh")
        .arg(workspace_root().join("plugin-api/c/classic/build.sh"))
        .arg(src.join(format!("{}.c", g.source)))
        .arg(&out)
        .status()
        .expect("running build.sh");
    assert!(status.success(), "build.sh {} failed", g.source);
    assert!(
        Path::new(&format!("{}.autogui.json", out.display())).is_file(),
        "build.sh put no sidecar beside {}",
        out.display()
    );
    out
}

#[test]
fn gamesmanuni_plays_classic_modules_on_boards() {
    let Some(dist) = gamesmanuni() else { return };
    let Some(src) = corpus() else { return };
    if browser().is_none() {
        return;
    }
    let libs = tempfile::tempdir().unwrap();
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    let started = Instant::now();
    let mut paths = Vec::new();
    for g in &GAMES {
        let lib = build(&src, g, libs.path()).display().to_string();
        let mut args = vec![
            "--plugin",
            &lib,
            "--variant",
            g.game.variant,
            "solve",
            "--db",
            &resource,
        ];
        if g.game.reachable {
            args.push("--reachable");
        }
        run_host(&host_binary(), &args).assert_success();
        paths.push(lib);
    }
    eprintln!(
        "built and solved in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let modules: Vec<&str> = paths.iter().map(String::as_str).collect();
    let dist = dist.display().to_string();
    with_server_page(
        &modules,
        &["--db", &resource, "--gamesmanuni", &dist],
        (1280, 1000),
        |page| {
            Box::pin(async move {
                let mut errors = Vec::new();
                for g in &GAMES {
                    let at = Instant::now();
                    let e = play(page, &g.game).await;
                    eprintln!(
                        "Classic's {} {}: played in {:.1} s",
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
    eprintln!(
        "GamesmanUni played Classic's modules in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
