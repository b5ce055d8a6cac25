//! The book (`docs/book/`, built with mdBook in CI) kept honest without mdBook: every
//! chapter is in SUMMARY.md and every file SUMMARY.md names exists; every relative
//! link and image resolves to a file inside the book (a chapter of the summary) and
//! every `#anchor` to a heading there, by mdBook's own rule for heading ids; the Rust
//! code is only ever included from files that are compiled and tested elsewhere (the
//! `host new` templates: tests/tests/host_new.rs), each include's file and anchor
//! existing; every screenshot and chart in `src/images/` is shown somewhere; the
//! README's links resolve; and the command-line reference is what `host man
//! --markdown` prints now (`UPDATE_BOOK=1` rewrites it).

use e2e_tests::cbuild::workspace_root;
use e2e_tests::run::run_host;
use e2e_tests::workspace::host_binary;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

fn src() -> PathBuf {
    workspace_root().join("docs/book/src")
}

/// Every `.md` file under `dir`, relative to it.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The lines of `text` outside fenced code blocks, with inline code spans blanked
/// (links in code are not links), and the fenced blocks with their info strings.
fn prose_and_fences(text: &str) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let mut prose = Vec::new();
    let mut fences = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            match open.take() {
                Some(block) => fences.push(block),
                None => open = Some((trimmed.trim_start_matches('`').trim().to_string(), vec![])),
            }
            continue;
        }
        match &mut open {
            Some((_, body)) => body.push(line.to_string()),
            None => {
                let mut out = String::new();
                let mut in_code = false;
                for c in line.chars() {
                    if c == '`' {
                        in_code = !in_code;
                        out.push(' ');
                    } else {
                        out.push(if in_code { ' ' } else { c });
                    }
                }
                prose.push(out);
            }
        }
    }
    assert!(open.is_none(), "an unclosed code fence");
    (prose, fences)
}

/// The targets of `[text](target)` and `![alt](target)` in prose lines.
fn links(prose: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose {
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
            rest = &after[end..];
        }
    }
    out
}

/// mdBook's id of a heading: its text (without markup) lower-cased, letters, digits,
/// `_` and `-` kept, whitespace made `-`, anything else dropped; a repeated id gets
/// `-1`, `-2`, ... in order. mdBook 0.5 renders with smart punctuation, so outside code
/// spans `--` and `---` become dashes first, which the id then drops.
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut ids = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let Some(title) = line.strip_prefix('#').filter(|_| !in_fence) else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        // Link text stays, link targets go: [text](url) -> text.
        let mut plain = String::new();
        let mut rest = title.trim();
        while let Some(i) = rest.find("](") {
            plain.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            rest = &after[after.find(')').map_or(after.len(), |e| e + 1)..];
        }
        plain.push_str(rest);
        let mut text = String::new();
        for (k, part) in plain.split('`').enumerate() {
            if k % 2 == 1 {
                text.push_str(part);
            } else {
                text.push_str(&part.replace("---", "\u{2014}").replace("--", "\u{2013}"));
            }
        }
        let id: String = text
            .chars()
            .filter(|&c| c != '[' && c != ']')
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_lowercase().next().unwrap())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let n = seen.entry(id.clone()).or_insert(0);
        ids.insert(if *n == 0 {
            id.clone()
        } else {
            format!("{id}-{n}")
        });
        *n += 1;
    }
    ids
}

/// `base/rel` with `.` and `..` resolved, or `None` when it climbs above the root.
fn resolve(base: &Path, rel: &str) -> Option<PathBuf> {
    let mut parts: Vec<Component> = base.components().collect();
    for c in Path::new(rel).components() {
        match c {
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            other => parts.push(other),
        }
    }
    Some(parts.iter().collect())
}

/// The chapters SUMMARY.md lists, relative to `src/`.
fn summary_chapters() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(src().join("SUMMARY.md")).unwrap();
    let (prose, _) = prose_and_fences(&summary);
    links(&prose).into_iter().map(PathBuf::from).collect()
}

#[test]
fn every_chapter_is_in_the_summary_and_every_summary_entry_exists() {
    let chapters: BTreeSet<PathBuf> = summary_chapters().into_iter().collect();
    for c in &chapters {
        assert!(
            src().join(c).is_file(),
            "SUMMARY.md names {} which does not exist",
            c.display()
        );
    }
    for f in markdown_files(&src()) {
        if f != Path::new("SUMMARY.md") {
            assert!(
                chapters.contains(&f),
                "{} is not in SUMMARY.md: mdBook would not render it",
                f.display()
            );
        }
    }
}

#[test]
fn every_link_and_anchor_in_the_book_resolves() {
    let root = src();
    let chapters: BTreeSet<PathBuf> = summary_chapters().into_iter().collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        let (prose, _) = prose_and_fences(&text);
        for target in links(&prose) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                Some(file.clone())
            } else {
                resolve(file.parent().unwrap(), path)
            };
            let Some(dest) = dest else {
                problems.push(format!("{}: {target} leaves the book", file.display()));
                continue;
            };
            if !root.join(&dest).is_file() {
                problems.push(format!("{}: {target} does not exist", file.display()));
                continue;
            }
            if dest.extension().is_some_and(|x| x == "md") && !chapters.contains(&dest) {
                problems.push(format!(
                    "{}: {target} is not a chapter of SUMMARY.md",
                    file.display()
                ));
            }
            if let Some(anchor) = anchor {
                let ids = heading_ids(&std::fs::read_to_string(root.join(&dest)).unwrap());
                if !ids.contains(anchor) {
                    problems.push(format!(
                        "{}: {target}: no heading with id {anchor} (ids: {ids:?})",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
    assert!(
        checked > 50,
        "only {checked} links found: the parser is broken"
    );
}

/// `{{#include PATH}}` and `{{#include PATH:ANCHOR}}` directives in `text`.
fn includes(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("{{#include ") {
        let after = &rest[i + "{{#include ".len()..];
        let end = after.find("}}").expect("an include closes");
        let spec = after[..end].trim();
        let (path, anchor) = match spec.split_once(':') {
            Some((p, a)) => (p.to_string(), Some(a.to_string())),
            None => (spec.to_string(), None),
        };
        out.push((path, anchor));
        rest = &after[end..];
    }
    out
}

#[test]
fn rust_code_comes_only_from_compiled_files_and_every_include_resolves() {
    let root = src();
    let mut included = 0;
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        let (_, fences) = prose_and_fences(&text);
        for (info, body) in &fences {
            if info.split(',').next() == Some("rust") {
                assert!(
                    body.iter().all(|l| l.trim().is_empty() || l.trim().starts_with("{{#include ")),
                    "{}: a Rust block must include a compiled file ({{{{#include ...}}}}), not hold code the build never compiles:\n{}",
                    file.display(),
                    body.join("\n")
                );
            }
        }
        for (path, anchor) in includes(&text) {
            included += 1;
            let dest = root.join(file.parent().unwrap()).join(&path);
            let content = std::fs::read_to_string(&dest)
                .unwrap_or_else(|e| panic!("{}: includes {path}: {e}", file.display()));
            if let Some(anchor) = anchor {
                for mark in [format!("ANCHOR: {anchor}"), format!("ANCHOR_END: {anchor}")] {
                    assert!(
                        content.contains(&mark),
                        "{}: {path} has no `{mark}`",
                        file.display()
                    );
                }
            }
        }
    }
    assert!(
        included >= 10,
        "only {included} includes: the tutorial shows the templates"
    );
}

#[test]
fn every_screenshot_and_chart_is_shown() {
    let root = src();
    let mut shown = BTreeSet::new();
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        let (prose, _) = prose_and_fences(&text);
        for target in links(&prose) {
            if let Some(dest) = resolve(file.parent().unwrap(), &target) {
                shown.insert(dest);
            }
        }
    }
    let images: Vec<PathBuf> = std::fs::read_dir(root.join("images"))
        .unwrap()
        .map(|e| Path::new("images").join(e.unwrap().file_name()))
        .collect();
    assert!(images.len() >= 10, "{images:?}");
    for image in images {
        assert!(
            shown.contains(&image),
            "{} is in the book's images but no chapter shows it",
            image.display()
        );
    }
}

#[test]
fn the_readme_links_resolve_and_it_stays_short() {
    let root = workspace_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let (prose, _) = prose_and_fences(&readme);
    let targets: Vec<String> = links(&prose)
        .into_iter()
        .filter(|t| !t.starts_with("http"))
        .collect();
    assert!(targets.len() >= 10, "{targets:?}");
    for t in targets {
        let path = t.split('#').next().unwrap();
        assert!(
            root.join(path).is_file(),
            "README.md links to {t}, which does not exist"
        );
    }
    let lines = readme.lines().count();
    assert!(
        lines <= 100,
        "README.md has {lines} lines: it is the first screen or two, the book holds the rest"
    );
}

#[test]
fn the_command_line_reference_is_current() {
    let r = run_host(&host_binary(), &["man", "--markdown"]);
    r.assert_success();
    let path = src().join("reference/cli.md");
    if std::env::var_os("UPDATE_BOOK").is_some() {
        std::fs::write(&path, &r.stdout).unwrap();
    }
    let book = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        book == r.stdout,
        "docs/book/src/reference/cli.md is not what `host man --markdown` prints now: run `UPDATE_BOOK=1 cargo test --release -p e2e-tests --test book` (or `target/release/host man --markdown > docs/book/src/reference/cli.md`) and commit it"
    );
    for command in [
        "## host solve",
        "## host new",
        "## host db copy",
        "## Global options",
    ] {
        assert!(r.stdout.contains(command), "{command} missing");
    }
    assert!(
        r.stdout.contains("`--memory-limit <SIZE>`"),
        "solve's flags with their values"
    );
}

#[test]
fn heading_ids_follow_mdbook() {
    // What mdBook 0.5.4 made of these headings.
    let ids = heading_ids(
        "# Using `host`\n## query --json\n## A, b!\n## A, b!\n## a - b\n## `a--b` x\n## Hello_World 2\n```\n# not\n```\n",
    );
    let want: BTreeSet<String> = [
        "using-host",
        "query-json",
        "a-b",
        "a-b-1",
        "a---b",
        "a--b-x",
        "hello_world-2",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(ids, want);
}

/// Every function pointer, field and function of the C header has a comment of its own
/// right above it (module writers in C have the header as their reference).
#[test]
fn the_c_header_documents_every_function_and_field() {
    let header =
        std::fs::read_to_string(workspace_root().join("plugin-api/c/gamesman_plugin.h")).unwrap();
    let lines: Vec<&str> = header.lines().collect();
    let mut checked = 0;
    let mut in_struct = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("typedef struct") && t.ends_with('{') {
            in_struct = true;
            continue;
        }
        if t.starts_with('}') {
            in_struct = false;
            continue;
        }
        let is_member =
            in_struct && t.ends_with(';') && !t.starts_with("/*") && !t.starts_with('*');
        let is_function = !in_struct
            && (t.starts_with("static inline int gamesman_fail")
                || t.starts_with("const gamesman_module *gamesman_module_v1"));
        // A member whose declaration spans lines starts where `(*` or a type begins.
        let starts_member =
            in_struct && (t.contains("(*") || is_member) && !lines[i - 1].trim().ends_with(',');
        if !(starts_member || is_function) {
            continue;
        }
        checked += 1;
        let above = lines[i - 1].trim();
        assert!(
            above.ends_with("*/")
                || above.starts_with("#if")
                || above.starts_with("__attribute")
                || above == ";",
            "gamesman_plugin.h line {}: `{t}` has no comment of its own above it",
            i + 1
        );
    }
    assert!(checked >= 45, "only {checked} declarations found");
}
