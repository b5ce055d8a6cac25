//! `plugin-api/c/classic/build.sh MODULE.c OUT.so` (issue 53): one command builds an
//! unchanged GamesmanClassic module and puts the layer's image data beside it, so the
//! library is served on GamesmanUni's board. Its new output path gets the hostile
//! inputs of the GamesmanOne script's (issue 52, F1): paths holding shell and sed
//! characters, a module named like an option, a symbolic link where the sidecar goes,
//! a compiler that fails, and bad arguments, each refused with a message or built
//! exactly, never writing anything else.
//!
//! Most tests use a stand-in compiler that records its arguments. The last builds
//! Classic's own `mttt.c` with the real compiler (needs `../shared/gamesman-classic`,
//! read at test time; without it the test says so and passes, except under `CI`).

use e2e_tests::cbuild::{tree, workspace_root, write_exec, FAKE_CC};
use e2e_tests::classic_corpus::corpus_dir;
use e2e_tests::run::{host_command, run, RunOutput};
use e2e_tests::workspace::{host_binary, shared_input};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const SCRIPT: &str = "plugin-api/c/classic/build.sh";

fn layer() -> PathBuf {
    workspace_root().join("plugin-api/c/classic")
}

/// A scratch tree: `root` for sources and outputs, `cwd` to run in (must stay empty),
/// the stand-in compiler and the file it records its arguments in.
struct Scratch {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cwd: PathBuf,
    cc: PathBuf,
    args: PathBuf,
}

fn scratch() -> Scratch {
    let tmp = tempfile::tempdir().unwrap();
    let (root, cwd) = (tmp.path().join("tree"), tmp.path().join("cwd"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let cc = tmp.path().join("fake-cc");
    write_exec(&cc, FAKE_CC);
    Scratch {
        args: tmp.path().join("args"),
        root,
        cwd,
        cc,
        _tmp: tmp,
    }
}

/// Runs the script on `module` and `out` (as given, relative to `cwd`), with the
/// stand-in compiler unless `real_cc`.
fn build(s: &Scratch, module: &Path, out: &Path, fail: bool, real_cc: bool) -> RunOutput {
    let mut cmd = Command::new("sh");
    cmd.arg(workspace_root().join(SCRIPT))
        .arg(module)
        .arg(out)
        .current_dir(&s.cwd)
        .env_remove("CFLAGS");
    if !real_cc {
        cmd.env("CC", &s.cc).env("ARGS_OUT", &s.args);
    }
    if fail {
        cmd.env("CC_FAIL", "1");
    }
    run(cmd, Duration::from_secs(180))
}

fn recorded(s: &Scratch) -> Vec<String> {
    std::fs::read_to_string(&s.args)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A module source `name` in a new directory `dir` under the scratch tree.
fn module(s: &Scratch, dir: &str, name: &str) -> PathBuf {
    let d = s.root.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, "int x;\n").unwrap();
    p
}

#[test]
fn hostile_paths_are_only_paths_and_the_sidecar_lands_beside_the_library() {
    for dir in ["x|e;# & y", "a b$(touch pwned)", "-o"] {
        let s = scratch();
        let source = module(&s, dir, "mttt.c");
        let out = s.root.join(format!("out {dir}")).join("libmttt.so");
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        build(&s, &source, &out, false, false).assert_success();
        let args = recorded(&s);
        let canonical = std::fs::canonicalize(&source).unwrap();
        let sources: Vec<&String> = args.iter().filter(|a| a.ends_with(".c")).collect();
        assert_eq!(sources[0], &canonical.display().to_string(), "{args:#?}");
        let layer_dir = layer().display().to_string();
        assert!(
            sources[1..].iter().all(|a| a.starts_with(&layer_dir)) && sources.len() > 5,
            "the module, then the layer's sources: {args:#?}"
        );
        let i = args.iter().position(|a| a == "-o").unwrap();
        assert_eq!(args[i + 1], out.display().to_string());
        assert!(args.contains(&"-DNO_GRAPHICS".to_string()), "{args:?}");
        assert!(
            !args.contains(&"-lstdc++".to_string()),
            "a C module: {args:?}"
        );
        assert_eq!(
            std::fs::read(out.with_file_name("libmttt.so.autogui.json")).unwrap(),
            std::fs::read(layer().join("autogui/mttt.json")).unwrap(),
            "{dir}: the layer's image data beside the library"
        );
        assert_eq!(tree(&s.cwd), Vec::<String>::new(), "{dir}: nothing in cwd");
        assert!(!s.root.join("pwned").exists() && !s.cwd.join("pwned").exists());
    }
}

#[test]
fn a_cxx_module_links_the_cxx_library_and_a_module_named_like_an_option_is_a_file() {
    let s = scratch();
    let source = module(&s, "src", "mcon.cc");
    build(&s, &source, &s.root.join("libmcon.so"), false, false).assert_success();
    assert!(recorded(&s).contains(&"-lstdc++".to_string()));
    // No image data for mcon in the layer: no sidecar.
    assert!(!s.root.join("libmcon.so.autogui.json").exists());

    // `-x.c` given relative to the working directory reaches the compiler absolute.
    let s = scratch();
    std::fs::write(s.cwd.join("-x.c"), "int x;\n").unwrap();
    let out = s.root.join("libx.so");
    build(&s, Path::new("-x.c"), &out, false, false).assert_success();
    let want = std::fs::canonicalize(s.cwd.join("-x.c")).unwrap();
    assert!(
        recorded(&s).contains(&want.display().to_string()),
        "{:?}",
        recorded(&s)
    );
}

#[test]
fn a_symlink_at_the_sidecar_is_replaced_and_a_failed_compile_writes_no_sidecar() {
    let s = scratch();
    let source = module(&s, "src", "machi.c");
    let out = s.root.join("libmachi.so");
    let sidecar = s.root.join("libmachi.so.autogui.json");
    let victim = s.root.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, &sidecar).unwrap();
    build(&s, &source, &out, false, false).assert_success();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&sidecar)
        .unwrap()
        .file_type()
        .is_file());
    assert_eq!(
        std::fs::read(&sidecar).unwrap(),
        std::fs::read(layer().join("autogui/machi.json")).unwrap()
    );

    let s = scratch();
    let source = module(&s, "src", "machi.c");
    let out = s.root.join("libmachi.so");
    let r = build(&s, &source, &out, true, false);
    assert_eq!(
        r.status.code(),
        Some(1),
        "the compiler's status: {}",
        r.describe()
    );
    assert!(r.stderr.contains("fake-cc: error"), "{}", r.describe());
    assert_eq!(tree(&s.root), ["src", "src/machi.c"], "{}", r.describe());
}

#[test]
fn bad_arguments_are_refused_with_a_message_and_nothing_is_built() {
    let s = scratch();
    let good = module(&s, "src", "mttt.c");
    let text = module(&s, "src", "mttt.txt");
    let folder = s.root.join("src/dir.c");
    std::fs::create_dir_all(&folder).unwrap();
    let out = s.root.join("lib.so");
    let cases: [(&Path, &Path, &str); 4] = [
        (&text, &out, "must be a .c or .cc source file"),
        (&s.root.join("missing.c"), &out, "is not a file"),
        (&folder, &out, "is not a file"),
        (&good, &s.root, "is a directory"),
    ];
    for (source, out, says) in cases {
        let r = build(&s, source, out, false, false);
        assert_eq!(r.status.code(), Some(2), "{}", r.describe());
        assert!(r.stderr.contains(says), "{says}: {}", r.describe());
        assert!(!s.args.exists(), "the compiler never ran: {}", r.describe());
    }
    let mut cmd = Command::new("sh");
    cmd.arg(workspace_root().join(SCRIPT)).arg(&good);
    let r = run(cmd, Duration::from_secs(30));
    assert_eq!(r.status.code(), Some(2), "{}", r.describe());
    assert!(r.stderr.contains("usage:"), "{}", r.describe());
    assert_eq!(
        tree(&s.root),
        ["src", "src/dir.c", "src/mttt.c", "src/mttt.txt"],
        "nothing written"
    );
}

#[test]
fn classics_own_mttt_builds_with_its_board_data_and_loads() {
    let Some(classic) = shared_input(
        corpus_dir(&workspace_root()).join("src"),
        "mttt.c",
        "the build of Classic's own mttt",
    ) else {
        return;
    };
    let src = classic.join("mttt.c");
    let s = scratch();
    // Built from a copy under a hostile directory name.
    let source = s.root.join("a b & c").join("mttt.c");
    std::fs::create_dir_all(source.parent().unwrap()).unwrap();
    std::fs::copy(&src, &source).unwrap();
    let out = s.root.join("out|x").join("libmttt.so");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    build(&s, &source, &out, false, true).assert_success();
    assert_eq!(tree(&s.cwd), Vec::<String>::new());
    assert_eq!(
        std::fs::read(out.with_file_name("libmttt.so.autogui.json")).unwrap(),
        std::fs::read(layer().join("autogui/mttt.json")).unwrap()
    );
    let plugin = out.display().to_string();
    let r = run(
        host_command(
            &host_binary(),
            &["--plugin", &plugin, "solve", "--db", "memory:", "--json"],
        ),
        Duration::from_secs(120),
    );
    r.assert_success();
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    // Tic-tac-toe, as Classic solves it: a tie in 9.
    assert_eq!(report["initial"]["value"], "tie", "{}", r.stdout);
    assert_eq!(report["initial"]["remoteness"], 9, "{}", r.stdout);
}
