//! `plugin-api/c/gamesmanone/build.sh` with hostile paths (issue 52, F1): a game folder
//! or a SRC whose name holds sed's delimiter and commands (`x|e;#`, `x|w FILE`), `&`,
//! spaces or a leading `-` builds exactly the game's files or is refused with a
//! message, and never runs or writes anything else.
//!
//! The first tests need nothing outside the workspace: a fake GamesmanOne tree and a
//! stand-in compiler (`CC`) that records the arguments it is given, so the exact list
//! the script passes is compared. The last builds GamesmanOne's own `mttt` from a
//! folder named `x|e;#` under a SRC with a space and `&` (needs `../shared/gamesmanone`,
//! read at test time; without it the test says so and passes, except under `CI`).

use e2e_tests::cbuild::{tree, workspace_root, write_exec, FAKE_CC};
use e2e_tests::gamesmanone_corpus::{corpus_dir, BUILD_SCRIPT};
use e2e_tests::run::{host_command, run};
use e2e_tests::workspace::{host_binary, shared_input};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A script that leaves a mark where it runs: what sed's `e` flag would run.
const MARKER: &str = "#!/bin/sh\necho ran > \"$MARK\"\n";

/// A fake GamesmanOne SRC under `root`: `games/NAME/` with a CMake list naming a.c
/// and b.c and a header declaring `kFake`; and `games/x/a.c` executable, leaving a
/// mark, for the old script's `s|...|SRC/games/x|e;#|` to run.
fn fake_src(root: &Path, src_name: &str, game: &str) -> PathBuf {
    let src = root.join(src_name);
    let dir = src.join("games").join(game);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("CMakeLists.txt"),
        "set(HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/fake.h)\n\nset(SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/a.c\n    ${CMAKE_CURRENT_SOURCE_DIR}/b.c)\n",
    )
    .unwrap();
    std::fs::write(dir.join("fake.h"), "extern const Game kFake;\n").unwrap();
    std::fs::write(dir.join("a.c"), "int a;\n").unwrap();
    std::fs::write(dir.join("b.c"), "int b;\n").unwrap();
    let decoy = src.join("games/x");
    std::fs::create_dir_all(&decoy).unwrap();
    write_exec(&decoy.join("a.c"), MARKER);
    write_exec(&decoy.join("b.c"), MARKER);
    src
}

struct Fake {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cwd: PathBuf,
    cc: PathBuf,
    args: PathBuf,
    mark: PathBuf,
}

fn fake() -> Fake {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    let cwd = tmp.path().join("cwd");
    let tools = tmp.path().join("tools");
    for d in [&root, &cwd, &tools] {
        std::fs::create_dir_all(d).unwrap();
    }
    let cc = tools.join("fake-cc");
    write_exec(&cc, FAKE_CC);
    Fake {
        args: tools.join("args"),
        mark: tools.join("mark"),
        root,
        cwd,
        cc,
        _tmp: tmp,
    }
}

fn build_sh(f: &Fake, src: &Path, game: &str, out: &Path) -> e2e_tests::run::RunOutput {
    let mut cmd = Command::new("sh");
    cmd.arg(workspace_root().join(BUILD_SCRIPT))
        .arg(src)
        .arg(game)
        .arg(out)
        .current_dir(&f.cwd)
        .env("CC", &f.cc)
        .env("ARGS_OUT", &f.args)
        .env("MARK", &f.mark)
        .env_remove("CFLAGS");
    run(cmd, Duration::from_secs(30))
}

#[test]
fn sed_delimiters_and_commands_in_a_game_folder_name_are_only_a_name() {
    // `x|e;#` made sed run SRC/games/x/a.c; `x|w pwned` made it write a file named
    // `pwned|` in the working directory; `&` stood for the matched text.
    for game in ["x|e;#", "x|w pwned", "a&b c", "-x"] {
        let f = fake();
        let src = fake_src(&f.root, "src & co", game);
        let out = f.root.join("out dir/libfake.so");
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        let r = build_sh(&f, &src, game, &out);
        r.assert_success();
        assert!(
            !f.mark.exists(),
            "{game}: build.sh ran a file of the source tree"
        );
        assert_eq!(
            tree(&f.cwd),
            Vec::<String>::new(),
            "{game}: build.sh wrote into its working directory"
        );
        let args = std::fs::read_to_string(&f.args).unwrap();
        let args: Vec<&str> = args.lines().collect();
        let src_abs = std::fs::canonicalize(&src).unwrap();
        let dir = src_abs.join("games").join(game);
        let sources: Vec<&str> = args.iter().copied().filter(|a| a.ends_with(".c")).collect();
        assert_eq!(
            &sources[..2],
            [
                dir.join("a.c").display().to_string(),
                dir.join("b.c").display().to_string()
            ],
            "{game}: the game's sources, each one argument:\n{args:#?}"
        );
        assert!(
            sources[2..]
                .iter()
                .all(|s| s.contains("plugin-api/c/gamesmanone/one_")),
            "{game}: only the layer's files besides: {sources:?}"
        );
        let i = args.iter().position(|a| *a == "-o").unwrap();
        assert_eq!(args[i + 1], out.display().to_string());
        assert!(args.contains(&"-DGAMESMANONE_GAME=kFake"), "{args:?}");
        let inc = args.iter().rposition(|a| *a == "-I").unwrap();
        assert_eq!(args[inc + 1], src_abs.display().to_string());
        // Nothing but OUT was written in the tree either.
        let written: Vec<String> = tree(&f.root)
            .into_iter()
            .filter(|p| p.starts_with("out dir"))
            .collect();
        assert_eq!(written, ["out dir", "out dir/libfake.so"], "{game}");
    }
}

#[test]
fn a_game_outside_src_games_is_refused_with_a_message() {
    let f = fake();
    let src = fake_src(&f.root, "src", "mttt");
    // A game folder elsewhere that a `..` would reach.
    fake_src(&f.root, "other", "g");
    let out = f.root.join("lib.so");
    for game in ["../../other/games/g", "..", ".", "", "mttt/"] {
        let r = build_sh(&f, &src, game, &out);
        assert_eq!(r.status.code(), Some(2), "{game}:\n{}", r.describe());
        assert!(
            r.stderr.contains("GAME must be"),
            "{game}: the message says what GAME must be:\n{}",
            r.describe()
        );
        assert!(!out.exists() && !f.args.exists(), "{game}: nothing built");
    }
    let r = build_sh(&f, &f.root.join("missing"), "mttt", &out);
    assert_eq!(r.status.code(), Some(2), "{}", r.describe());
    assert!(r.stderr.contains("is not a directory"), "{}", r.describe());
}

#[test]
fn gamesmanones_mttt_builds_from_a_hostile_folder_name_and_plays() {
    let Some(mttt) = shared_input(
        corpus_dir(&workspace_root()).join("v1.3.0/src/games/mttt"),
        "mttt.c",
        "the build of GamesmanOne's own mttt",
    ) else {
        return;
    };
    let f = fake();
    let src = f.root.join("a b&c/src");
    // The game's own `#include "games/mttt/mttt.h"` needs its folder; the build reads
    // the copy under the hostile name.
    for name in ["mttt", "x|e;#"] {
        let dir = src.join("games").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["CMakeLists.txt", "mttt.c", "mttt.h"] {
            std::fs::copy(mttt.join(file), dir.join(file)).unwrap();
        }
    }
    let out = f.root.join("out & more/libmttt.so");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let mut cmd = Command::new("sh");
    cmd.arg(workspace_root().join(BUILD_SCRIPT))
        .arg(&src)
        .arg("x|e;#")
        .arg(&out)
        .current_dir(&f.cwd);
    run(cmd, Duration::from_secs(180)).assert_success();
    assert_eq!(tree(&f.cwd), Vec::<String>::new());
    let plugin = out.display().to_string();
    let r = run(
        host_command(&host_binary(), &["--plugin", &plugin, "info", "--json"]),
        Duration::from_secs(60),
    );
    r.assert_success();
    let info: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(info["name"], "mttt", "{}", r.stdout);
}

/// The sidecar (`OUT.so.autogui.json`, issue 53) is written once the library built,
/// as a new file: a symbolic link already at that path is replaced, never written
/// through; a compile that fails writes no sidecar.
#[test]
fn the_sidecar_replaces_a_symlink_and_follows_only_a_built_library() {
    let f = fake();
    let src = fake_src(&f.root, "src", "mttt");
    let out = f.root.join("libmttt.so");
    let sidecar = f.root.join("libmttt.so.autogui.json");
    let victim = f.root.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, &sidecar).unwrap();
    build_sh(&f, &src, "mttt", &out).assert_success();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let meta = std::fs::symlink_metadata(&sidecar).unwrap();
    assert!(
        meta.file_type().is_file(),
        "the link was replaced: {meta:?}"
    );
    let layer = workspace_root().join("plugin-api/c/gamesmanone/autogui/mttt.json");
    assert_eq!(
        std::fs::read(&sidecar).unwrap(),
        std::fs::read(layer).unwrap()
    );

    // A compiler error: its status, and no sidecar beside a library never built.
    let f = fake();
    let src = fake_src(&f.root, "src", "mttt");
    let out = f.root.join("libmttt.so");
    let mut cmd = Command::new("sh");
    cmd.arg(workspace_root().join(BUILD_SCRIPT))
        .arg(&src)
        .arg("mttt")
        .arg(&out)
        .current_dir(&f.cwd)
        .env("CC", &f.cc)
        .env("CC_FAIL", "1")
        .env("ARGS_OUT", &f.args);
    let r = run(cmd, Duration::from_secs(30));
    assert_eq!(r.status.code(), Some(1), "{}", r.describe());
    assert!(!out.exists(), "{}", r.describe());
    assert!(!f.root.join("libmttt.so.autogui.json").exists());
}
