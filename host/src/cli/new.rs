//! `host new NAME`: writes a new game module project, in Rust (a crate depending on
//! `gamesman-plugin-api`) or in C (against `gamesman_plugin.h`, with a Makefile), whose
//! small complete game builds with one command and passes `validate` and `solve`
//! unchanged. The templates live in `host/templates/new/` and are compiled into the
//! binary; a CI test (tests/tests/host_new.rs) builds, validates, solves and queries
//! each kind.
//!
//! It only ever creates: the project directory must not exist (nor be a symlink), it
//! is made with one `create_dir`, and every file in it with `create_new`, so nothing
//! already there is overwritten or followed. On a failure half way, what this command
//! created is removed again.

use super::CliError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The language of the project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// A Rust crate (cdylib) depending on gamesman-plugin-api.
    Rust,
    /// A C file against gamesman_plugin.h, with a Makefile.
    C,
}

/// What `host new` was asked.
#[derive(Clone, Debug)]
pub struct NewArgs {
    /// The module's name (crate, library and database name).
    pub name: String,
    /// Rust or C.
    pub lang: Lang,
    /// The tiered template (undo moves, symmetry) instead of the one-tier game.
    pub tiers: bool,
    /// The project directory (default: `./NAME`).
    pub dir: Option<PathBuf>,
}

/// The plugin-api crate of the checkout this host was built from, when it still
/// exists: generated crates then depend on it by path as well as by version.
const CHECKOUT_PLUGIN_API: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../plugin-api");

const RUST_REGULAR: &str = include_str!("../../templates/new/rust/regular.rs");
const RUST_TIERS: &str = include_str!("../../templates/new/rust/tiers.rs");
const RUST_MANIFEST: &str = include_str!("../../templates/new/rust/Cargo.toml.in");
const RUST_README: &str = include_str!("../../templates/new/rust/README.md.in");
const RUST_GITIGNORE: &str = include_str!("../../templates/new/rust/gitignore");
const C_REGULAR: &str = include_str!("../../templates/new/c/regular.c");
const C_TIERS: &str = include_str!("../../templates/new/c/tiers.c");
const C_MAKEFILE: &str = include_str!("../../templates/new/c/Makefile.in");
const C_README: &str = include_str!("../../templates/new/c/README.md.in");
const C_GITIGNORE: &str = include_str!("../../templates/new/c/gitignore");
const C_HEADER: &str = include_str!("../../../plugin-api/c/gamesman_plugin.h");

/// Every placeholder the templates use (`files` fills each).
#[cfg(test)]
const PLACEHOLDERS: &[&str] = &[
    "@NAME@",
    "@FLAGS@",
    "@GAME@",
    "@TIERS_STEP@",
    "@UNDO@",
    "@API_VERSION@",
    "@DEPENDENCY@",
];

/// Names a crate cannot take (Rust keywords and the standard crates).
const RESERVED: &[&str] = &[
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "macro",
    "override",
    "priv",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "try",
    "gen",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "test",
];

/// Why `name` cannot name a module, or `None` when it can: lower-case ASCII letters,
/// digits and `_`, starting with a letter, at most 64 characters, not a keyword. The
/// name becomes a crate name, a library file name, a C string and a database
/// directory, so it must be safe in all four.
pub fn name_problem(name: &str) -> Option<String> {
    let shown = super::shell_word(name);
    if name.is_empty() {
        return Some("the module's name is empty".into());
    }
    if name.len() > 64 {
        return Some(format!(
            "the module's name {shown} is longer than 64 characters"
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(format!(
            "the module's name {shown} must start with a lower-case letter (a-z)"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
    {
        return Some(format!(
            "the module's name {shown} has {c:?}: use lower-case letters, digits and _ only (it names the crate, the library file and the database directory)"
        ));
    }
    if RESERVED.contains(&name) {
        return Some(format!(
            "the module's name {shown} is a Rust keyword or a standard crate's name: pick another"
        ));
    }
    None
}

/// What was written, for the message and for tests.
#[derive(Debug)]
pub struct Written {
    /// The project directory.
    pub dir: PathBuf,
    /// The files, relative to it.
    pub files: Vec<PathBuf>,
    /// Whether a Rust project depends on this checkout's plugin-api by path.
    pub path_dependency: Option<PathBuf>,
}

/// The line of Cargo.toml that names gamesman-plugin-api, and the checkout's path.
fn dependency_line() -> (String, Option<PathBuf>) {
    let version = gamesman_plugin_api::ffi::API_VERSION;
    let checkout = Path::new(CHECKOUT_PLUGIN_API);
    let is_plugin_api = std::fs::read_to_string(checkout.join("Cargo.toml"))
        .is_ok_and(|m| m.contains("name = \"gamesman-plugin-api\""));
    let path = is_plugin_api
        .then(|| checkout.canonicalize().ok())
        .flatten()
        .filter(|p| p.to_str().is_some());
    match path {
        Some(p) => {
            let quoted = toml_string(p.to_str().expect("filtered to UTF-8"));
            (
                format!("gamesman-plugin-api = {{ version = \"{version}\", path = {quoted} }}"),
                Some(p),
            )
        }
        None => (format!("gamesman-plugin-api = \"{version}\""), None),
    }
}

/// `s` as a TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `source` without the `// ANCHOR:` lines that mark what the book shows of it.
fn without_anchors(source: &str) -> String {
    source
        .lines()
        .filter(|l| !l.trim_start().starts_with("// ANCHOR"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The project's files: (relative path, contents).
fn files(args: &NewArgs) -> (Vec<(String, String)>, Option<PathBuf>) {
    let name = &args.name;
    let mut flags = String::new();
    if args.lang == Lang::C {
        flags.push_str(" --lang c");
    }
    if args.tiers {
        flags.push_str(" --tiers");
    }
    let game = if args.tiers {
        "Treblecross (the players take turns putting an X on a row of 7 cells; whoever completes three X in a row wins), with tiers (the number of X), undo moves and a mirror symmetry."
    } else {
        "a subtraction game (take 1, 2 or 3 stones from a pile of 21; taking the last one wins)."
    };
    let fill = |template: &str, dependency: &str| {
        template
            .replace("@NAME@", name)
            .replace("@FLAGS@", &flags)
            .replace("@GAME@", game)
            .replace(
                "@TIERS_STEP@",
                if args.tiers {
                    ", `tier_children`, `is_legal`, the undo moves and `canonical_position`"
                } else {
                    ""
                },
            )
            .replace("@UNDO@", if args.tiers { "undo moves, " } else { "" })
            .replace("@API_VERSION@", gamesman_plugin_api::ffi::API_VERSION)
            .replace("@DEPENDENCY@", dependency)
    };
    match args.lang {
        Lang::Rust => {
            let (dependency, path) = dependency_line();
            let source = if args.tiers { RUST_TIERS } else { RUST_REGULAR };
            (
                vec![
                    ("Cargo.toml".into(), fill(RUST_MANIFEST, &dependency)),
                    ("src/lib.rs".into(), without_anchors(source)),
                    ("README.md".into(), fill(RUST_README, "")),
                    (".gitignore".into(), RUST_GITIGNORE.to_string()),
                ],
                path,
            )
        }
        Lang::C => {
            let source = if args.tiers { C_TIERS } else { C_REGULAR };
            (
                vec![
                    (format!("{name}.c"), fill(source, "")),
                    ("gamesman_plugin.h".into(), C_HEADER.to_string()),
                    ("Makefile".into(), fill(C_MAKEFILE, "")),
                    ("README.md".into(), fill(C_README, "")),
                    (".gitignore".into(), C_GITIGNORE.to_string()),
                ],
                None,
            )
        }
    }
}

/// Writes the project; refuses a bad name and an existing target (a directory, a
/// file or a symlink, dangling or not) before writing anything.
pub fn write_project(args: &NewArgs) -> anyhow::Result<Written> {
    if let Some(problem) = name_problem(&args.name) {
        return Err(CliError::Usage(problem).into());
    }
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    if dir.as_os_str().is_empty() {
        return Err(CliError::Usage("--dir is empty: name the project directory".into()).into());
    }
    if let Ok(meta) = std::fs::symlink_metadata(&dir) {
        let what = if meta.file_type().is_symlink() {
            "a symbolic link"
        } else if meta.is_dir() {
            "a directory"
        } else {
            "a file"
        };
        return Err(CliError::Usage(format!(
            "{} already exists ({what}): host new only creates a new directory and never writes into or through an existing one; pick another name or --dir",
            dir.display()
        ))
        .into());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !parent.is_dir() {
            return Err(CliError::Usage(format!(
                "{} is not a directory: create it first, or pick another --dir",
                parent.display()
            ))
            .into());
        }
    }
    // One create_dir: it fails on anything that appeared there since the check.
    std::fs::create_dir(&dir).map_err(|e| {
        CliError::Usage(format!(
            "cannot create the directory {}: {e}",
            dir.display()
        ))
    })?;
    let (files, path_dependency) = files(args);
    let result = (|| -> std::io::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        for (rel, contents) in &files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                if parent != dir {
                    std::fs::create_dir(parent).or_else(|e| {
                        if e.kind() == std::io::ErrorKind::AlreadyExists && parent.is_dir() {
                            Ok(())
                        } else {
                            Err(e)
                        }
                    })?;
                }
            }
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)?;
            f.write_all(contents.as_bytes())?;
            f.sync_all()?;
            written.push(PathBuf::from(rel));
        }
        Ok(written)
    })();
    match result {
        Ok(files) => Ok(Written {
            dir,
            files,
            path_dependency,
        }),
        Err(e) => {
            // Only what this command created: the directory was new.
            let _ = std::fs::remove_dir_all(&dir);
            Err(anyhow::anyhow!(
                "writing the project into {} failed: {e}; nothing was left behind",
                dir.display()
            ))
        }
    }
}

/// `host new`: writes the project and says what to do next.
pub fn run(args: &NewArgs) -> anyhow::Result<()> {
    let w = write_project(args)?;
    let dir = super::shell_word(&w.dir.display().to_string());
    let name = &args.name;
    let kind = match (args.lang, args.tiers) {
        (Lang::Rust, false) => "Rust module",
        (Lang::Rust, true) => "tiered Rust module",
        (Lang::C, false) => "C module",
        (Lang::C, true) => "tiered C module",
    };
    outln!("Created the {kind} `{name}` in {dir}:")?;
    for f in &w.files {
        outln!("  {}", f.display())?;
    }
    match (&args.lang, &w.path_dependency) {
        (Lang::Rust, Some(p)) => outln!(
            "It depends on gamesman-plugin-api {} at {}.",
            gamesman_plugin_api::ffi::API_VERSION,
            p.display()
        )?,
        (Lang::Rust, None) => outln!(
            "It depends on gamesman-plugin-api {} from crates.io (edit Cargo.toml to use a checkout: path = \".../plugin-api\").",
            gamesman_plugin_api::ffi::API_VERSION
        )?,
        (Lang::C, _) => {}
    }
    // Cargo builds where CARGO_TARGET_DIR says when it is set (projects sharing one
    // build of their dependencies).
    let target = std::env::var("CARGO_TARGET_DIR")
        .ok()
        .filter(|t| !t.is_empty())
        .map_or_else(|| "target".to_string(), |t| super::shell_word(&t));
    let (build, lib) = match args.lang {
        Lang::Rust => (
            "cargo build --release",
            format!("{target}/release/lib{name}.so"),
        ),
        Lang::C => ("make", format!("./lib{name}.so")),
    };
    outln!("\nNext:\n  cd {dir}\n  {build}\n  validate --plugin {lib}\n  host --plugin {lib} solve --db file:db\n  host --plugin {lib} play --db file:db")?;
    if args.lang == Lang::Rust && target == "target" {
        outln!("Several module projects? `export CARGO_TARGET_DIR=$HOME/.cache/gamesman-target` before `cargo build` shares one build of their dependencies (about a minute each otherwise); the library is then under $CARGO_TARGET_DIR/release.")?;
    }
    outln!("README.md in the project lists the next steps.")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(name_problem("mygame"), None);
        assert_eq!(name_problem("row3_v2"), None);
        for bad in [
            "", "MyGame", "3row", "my-game", "a/b", "..", "a b", "fn", "std", "é",
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?} should be refused");
        }
        assert!(name_problem(&"a".repeat(65)).is_some());
    }

    #[test]
    fn toml_strings_escape_quotes_and_backslashes() {
        assert_eq!(toml_string(r#"/a"b\c"#), r#""/a\"b\\c""#);
    }

    #[test]
    fn every_placeholder_is_filled() {
        for lang in [Lang::Rust, Lang::C] {
            for tiers in [false, true] {
                let args = NewArgs {
                    name: "mygame".into(),
                    lang,
                    tiers,
                    dir: None,
                };
                for (path, text) in files(&args).0 {
                    for placeholder in PLACEHOLDERS {
                        assert!(!text.contains(placeholder), "{path} keeps {placeholder}");
                    }
                }
            }
        }
    }
}
