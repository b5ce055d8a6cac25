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

// The solver's layers (issue 49): every file of `engine/solver/` belongs to the layer of
// its first directory (`base`, `input`, `tier`, `schedule`, `budget`, `verify`, `run`; the
// facade `solver/mod.rs` is none) and imports only the layers it may (`SOLVER_LAYERS`), and
// no files of the solver import each other in a circle.

/// Each layer and the layers its files may import (itself included).
const SOLVER_LAYERS: [(&str, &[&str]); 7] = [
    ("base", &["base"]),
    ("input", &["base", "input"]),
    ("tier", &["base", "input", "tier"]),
    ("schedule", &["base", "schedule"]),
    ("budget", &["base", "input", "tier", "schedule", "budget"]),
    ("verify", &["base", "input", "tier", "verify"]),
    (
        "run",
        &[
            "base", "input", "tier", "schedule", "budget", "verify", "run",
        ],
    ),
];

/// The module path of a solver file (`tier/scan.rs` -> [tier, scan], `tier/mod.rs` ->
/// [tier], `mod.rs` -> []).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The solver paths one file's code names: `crate::engine::solver::a::b` and `super::..`
/// chains resolved against the file's module, as module paths under `solver/`. `super::*`
/// (a test module's glob) is skipped.
fn solver_paths(text: &str, module: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::engine::solver::") {
            let before = &code[..at];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest = &code[at + "crate::engine::solver::".len()..];
            let path: Vec<String> = rest
                .split("::")
                .map(ident)
                .take_while(|s| !s.is_empty())
                .collect();
            found.push((n + 1, path));
        }
        for (at, _) in code.match_indices("super::") {
            let before = &code[..at];
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            // A chain of supers, then names.
            let mut rest = &code[at..];
            let mut base: Vec<String> = module.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            if rest.starts_with('*') {
                continue;
            }
            let names: Vec<String> = rest
                .split("::")
                .map(ident)
                .take_while(|s| !s.is_empty())
                .collect();
            base.extend(names);
            found.push((n + 1, base));
        }
    }
    found
}

/// The file (module path under `solver/`) a path names: its longest prefix that is a file.
fn file_of(path: &[String], files: &[Vec<String>]) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|p| files.contains(p))
}

/// The layer of a module path under `solver/` (`None`: the facade).
fn layer_of(module: &[String]) -> Option<&str> {
    let first = module.first()?;
    SOLVER_LAYERS.iter().map(|(l, _)| *l).find(|l| l == first)
}

/// Every upward (or sideways) import among `files` (module path, text), and every
/// circle among them.
fn solver_offences(files: &[(Vec<String>, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    let modules: Vec<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (k, (module, text)) in files.iter().enumerate() {
        let Some(layer) = layer_of(module) else {
            continue;
        };
        let allowed = SOLVER_LAYERS.iter().find(|(l, _)| *l == layer).unwrap().1;
        for (line, path) in solver_paths(text, module) {
            let target = layer_of(&path);
            let ok = target.is_some_and(|t| allowed.contains(&t));
            if !ok {
                bad.push(format!(
                    "solver/{}: line {line}: layer {layer} imports {} ({})",
                    module.join("/"),
                    path.join("::"),
                    target.map_or("the facade".to_string(), |t| format!("layer {t}"))
                ));
            }
            if let Some(f) = file_of(&path, &modules) {
                let j = modules.iter().position(|m| *m == f).unwrap();
                if j != k && !edges.contains(&(k, j)) {
                    edges.push((k, j));
                }
            }
        }
    }
    // Circles: a depth-first search for a back edge.
    fn visit(
        k: usize,
        edges: &[(usize, usize)],
        state: &mut [u8],
        stack: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        state[k] = 1;
        stack.push(k);
        for &(_, j) in edges.iter().filter(|(a, _)| *a == k) {
            if state[j] == 1 {
                let from = stack.iter().position(|&s| s == j).unwrap();
                out.push(stack[from..].to_vec());
            } else if state[j] == 0 {
                visit(j, edges, state, stack, out);
            }
        }
        stack.pop();
        state[k] = 2;
    }
    let mut state = vec![0u8; files.len()];
    let mut circles = Vec::new();
    for k in 0..files.len() {
        if state[k] == 0 {
            visit(k, &edges, &mut state, &mut Vec::new(), &mut circles);
        }
    }
    for c in circles {
        let names: Vec<String> = c.iter().map(|&k| modules[k].join("/")).collect();
        bad.push(format!("a circle of imports: {}", names.join(" -> ")));
    }
    bad
}

fn solver_files() -> Vec<(Vec<String>, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/solver");
    let mut paths = Vec::new();
    rs_files(&dir, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&dir).unwrap();
            (module_of(rel), fs::read_to_string(p).expect("read source"))
        })
        .collect()
}

#[test]
fn solver_layers_import_only_downward_and_in_no_circle() {
    let files = solver_files();
    for layer in SOLVER_LAYERS.iter().map(|(l, _)| *l) {
        assert!(
            files.iter().any(|(m, _)| layer_of(m) == Some(layer)),
            "no file of solver layer {layer}"
        );
    }
    let bad = solver_offences(&files);
    assert!(
        bad.is_empty(),
        "solver layering broken:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_solver_check_catches_upward_imports_and_circles() {
    let m = |s: &str| s.split('/').map(String::from).collect::<Vec<_>>();
    let files = vec![
        (m("tier/scan"), "use super::ctx::TierCtx;\n".to_string()),
        (
            m("tier/ctx"),
            "use crate::engine::solver::input::ChildTier;\n".to_string(),
        ),
        (m("input"), String::new()),
        (m("budget/plan"), String::new()),
    ];
    assert!(solver_offences(&files).is_empty());
    // The tier importing the plan: upward.
    let mut up = files.clone();
    up[0]
        .1
        .push_str("use crate::engine::solver::budget::plan::SolveMode;\n");
    assert_eq!(solver_offences(&up).len(), 1, "{:?}", solver_offences(&up));
    // Through super: input importing the tier.
    let mut up = files.clone();
    up[2].1.push_str("use super::tier::ctx::TierCtx;\n");
    // (and, as tier/ctx imports input, a circle too)
    let bad = solver_offences(&up);
    assert!(
        bad.iter()
            .any(|b| b.contains("layer input imports tier::ctx::TierCtx (layer tier)")),
        "{bad:?}"
    );
    // A facade path from inside a layer.
    let mut up = files.clone();
    up[1]
        .1
        .push_str("use crate::engine::solver::memory::bytes;\n");
    assert_eq!(solver_offences(&up).len(), 1, "{:?}", solver_offences(&up));
    // Two tier files importing each other.
    let mut circle = files.clone();
    circle[1].1.push_str("use super::scan::scan;\n");
    let bad = solver_offences(&circle);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("circle"), "{bad:?}");
}
