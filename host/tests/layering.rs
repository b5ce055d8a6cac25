//! The layering rule of host/src: no file under `engine/` imports a front end. Front ends are
//! every top-level module of host/src other than `engine` (found from the tree, so new ones are
//! covered). It reads source text only; it must not build or run anything.

use std::fs;
use std::path::{Path, PathBuf};

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read host/src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules of host/src that are front ends (everything but the engine).
fn front_ends(src: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in fs::read_dir(src).expect("read host/src") {
        let path = entry.expect("dir entry").path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let is_module = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if is_module && !["engine", "lib", "main", "bin"].contains(&stem.as_str()) {
            names.push(stem);
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The offending imports of one file's text: `crate::X` with X not `engine`, any
/// `gamesman_host::`, and `super::..::F` with F a front end.
fn offences(text: &str, fronts: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = &rest[..at];
            let after = &rest[at + "crate::".len()..];
            let ident: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let word_start = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
            if word_start && ident != "engine" {
                found.push(format!("line {}: {}", n + 1, line.trim()));
            }
            rest = after;
        }
        if code.contains("gamesman_host::") {
            found.push(format!("line {}: {}", n + 1, line.trim()));
        }
        for front in fronts {
            if code.contains(&format!("super::{front}::"))
                || code.contains(&format!("super::{front};"))
            {
                found.push(format!("line {}: {}", n + 1, line.trim()));
            }
        }
    }
    found.dedup();
    found
}

#[test]
fn no_engine_file_imports_a_front_end() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let fronts = front_ends(&src);
    for expected in ["cli", "serve", "mpi", "play", "report"] {
        assert!(
            fronts.iter().any(|f| f == expected),
            "front end {expected} missing from {fronts:?}"
        );
    }
    let mut files = Vec::new();
    rs_files(&src.join("engine"), &mut files);
    assert!(files.len() >= 30, "only {} engine files found", files.len());
    let mut bad = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("read source");
        for offence in offences(&text, &fronts) {
            bad.push(format!("{}: {offence}", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "engine files importing outside the engine:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_check_catches_front_end_imports() {
    let fronts = vec!["cli".to_string(), "report".to_string()];
    assert_eq!(
        offences("use crate::report::progress::Bar;", &fronts).len(),
        1
    );
    assert_eq!(offences("use crate::cli::exit;", &fronts).len(), 1);
    assert_eq!(
        offences("use super::super::report::plot;", &fronts).len(),
        1
    );
    assert_eq!(offences("use gamesman_host::cli;", &fronts).len(), 1);
    assert!(offences("use crate::engine::db::Database; // crate::cli", &fronts).is_empty());
    assert!(offences("use super::file::codec;", &fronts).is_empty());
}
