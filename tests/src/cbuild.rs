//! Building C game modules with the exact `cc` commands the book documents: one for
//! a module written against `plugin-api/c/gamesman_plugin.h`, one (the issue's) for an
//! unchanged GamesmanClassic module with the compatibility layer.
//!
//! The commands run through `sh` in the workspace root, word for word as a user types
//! them (the layer's `*.c` is the shell's glob). Libraries go to a directory of this
//! test executable under `target/`, built once per executable. This file must not know
//! any module's game.

use crate::run::{run, DEFAULT_TIMEOUT};
use crate::workspace::artifact_dir;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The book's command for a module written against `gamesman_plugin.h`.
pub const HEADER_COMMAND: &str = "cc -O2 -shared -fPIC -I plugin-api/c {source} -o {output}";

/// The book's (and the issue's) command for a GamesmanClassic module.
pub const CLASSIC_COMMAND: &str =
    "cc -O2 -shared -fPIC -DNO_GRAPHICS -I plugin-api/c/classic {source} plugin-api/c/classic/*.c -o {output}";

/// The workspace root (where the documented commands run).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lies in the workspace")
        .to_path_buf()
}

/// Where this executable's C modules are built.
fn output_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the running executable");
    let stem = exe
        .file_stem()
        .expect("an executable name")
        .to_string_lossy()
        .into_owned();
    let dir = artifact_dir().join("c-modules").join(stem);
    std::fs::create_dir_all(&dir).expect("create the C module directory");
    dir
}

/// Builds `source` (relative to the workspace root) with `command` (one of the
/// constants above) plus `extra` flags into `lib<name>.so`, once per executable and
/// name; panics with the compiler's output if it fails.
pub fn build(command: &str, source: &str, name: &str, extra: &[&str]) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(name) {
        return path.clone();
    }
    let output = output_dir().join(format!("lib{name}.so"));
    let mut line = command
        .replace("{source}", source)
        .replace("{output}", &output.display().to_string());
    for flag in extra {
        line.push(' ');
        line.push_str(flag);
    }
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(&line).current_dir(workspace_root());
    let r = run(cmd, DEFAULT_TIMEOUT);
    assert!(
        r.status.success() && output.is_file(),
        "building {name} with `{line}` failed (a C compiler `cc` must be installed):\n{}",
        r.describe()
    );
    built.insert(name.to_string(), output.clone());
    output
}

/// Builds a module written against `gamesman_plugin.h`.
pub fn build_header_module(source: &str, name: &str, extra: &[&str]) -> PathBuf {
    build(HEADER_COMMAND, source, name, extra)
}

/// Builds a GamesmanClassic module with the compatibility layer.
pub fn build_classic_module(source: &str, name: &str, extra: &[&str]) -> PathBuf {
    build(CLASSIC_COMMAND, source, name, extra)
}

/// A stand-in compiler for tests of the build scripts: writes its arguments, one per
/// line, to `$ARGS_OUT`, and an empty OUT (the argument after `-o`); with `$CC_FAIL`
/// set it writes nothing and exits 1, as a compiler that found an error.
pub const FAKE_CC: &str = r#"#!/bin/sh
if [ -n "${CC_FAIL:-}" ]; then echo "fake-cc: error" >&2; exit 1; fi
: > "$ARGS_OUT"
for a in "$@"; do printf '%s\n' "$a" >> "$ARGS_OUT"; done
while [ "$#" -gt 0 ]; do
    if [ "$1" = "-o" ]; then : > "$2"; fi
    shift
done
"#;

/// Writes `text` to `path` as an executable script.
pub fn write_exec(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).expect("writing a script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .expect("making it executable");
}

/// Every path under `dir`, relative to it, sorted.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)
            .expect("listing a directory")
            .flatten()
        {
            let p = e.path();
            out.push(
                p.strip_prefix(dir)
                    .expect("under dir")
                    .display()
                    .to_string(),
            );
            if e.file_type().expect("a file type").is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}
