//! Finding game modules by name: the plugin search path and what `--plugin` names.
//!
//! A bare name (`mtttier`) is looked for, as the platform names libraries
//! (`libloading::library_filename`: `libmtttier.so` on Linux), in each directory of
//! `GAMESMAN_PLUGIN_PATH` (separated by `:`), then in the user's plugin directory
//! (`$XDG_DATA_HOME/gamesman/plugins`), then next to the running binary. Anything with
//! a `/` or a library suffix is a path and is taken as given. This file only finds
//! files; it must not load them (that is `loader`).

use crate::engine::load::data_dir::{user_plugin_dir, PLUGIN_PATH_ENV};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Why `--plugin` names no module file.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// A path that does not exist.
    #[error("no game module at {}: no such file. Give the path to a module's library file (for example target/release/libmtttier.so), or a bare module name (`host list` shows the modules found).", path.display())]
    NoFile {
        /// What was given.
        path: PathBuf,
    },
    /// A bare name found in no directory of the search path.
    #[error("no game module named '{name}': looked for {} in {}. Give the path to its library file, install it with `host install-plugin PATH`, or add its directory to {PLUGIN_PATH_ENV}; `host list` shows the modules found.", file_name(name).to_string_lossy(), list_dirs(searched))]
    NoModuleNamed {
        /// The name.
        name: String,
        /// The directories looked in, in order.
        searched: Vec<PathBuf>,
    },
    /// A directory where a module file was expected.
    #[error("{} is a directory, not a game module: give the module's library file inside it ({}), or put the directory in {PLUGIN_PATH_ENV} and give the bare module name.", path.display(), inside_note(libraries))]
    IsDirectory {
        /// The directory.
        path: PathBuf,
        /// Library files in it (at most a few), as examples.
        libraries: Vec<PathBuf>,
    },
}

fn list_dirs(dirs: &[PathBuf]) -> String {
    if dirs.is_empty() {
        return "no directory (the search path is empty)".into();
    }
    let list: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    list.join(", ")
}

fn inside_note(libraries: &[PathBuf]) -> String {
    match libraries.split_first() {
        None => format!("it holds no {} file", std::env::consts::DLL_SUFFIX),
        Some((first, [])) => format!("it holds {}", first.display()),
        Some((first, _)) => format!("for example {}", first.display()),
    }
}

/// Where a search directory comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A directory of `GAMESMAN_PLUGIN_PATH`.
    PluginPath,
    /// The user's plugin directory.
    UserDir,
    /// Next to the running binary.
    BesideHost,
}

impl Origin {
    /// How `host list` names it.
    pub fn words(self) -> &'static str {
        match self {
            Origin::PluginPath => PLUGIN_PATH_ENV,
            Origin::UserDir => "user plugin directory",
            Origin::BesideHost => "next to the host",
        }
    }
}

/// One directory of the search path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDir {
    /// The directory.
    pub dir: PathBuf,
    /// Why it is searched.
    pub origin: Origin,
}

/// The platform's file name of module `name` (`libmtttier.so` on Linux).
pub fn file_name(name: &str) -> std::ffi::OsString {
    libloading::library_filename(name)
}

/// The module name of a library file name (`libmtttier.so` gives `mtttier`), or `None`
/// for files that are not libraries.
pub fn module_name(file: &OsStr) -> Option<String> {
    let file = file.to_str()?;
    let stem = file
        .strip_prefix(std::env::consts::DLL_PREFIX)?
        .strip_suffix(std::env::consts::DLL_SUFFIX)?;
    (!stem.is_empty()).then(|| stem.to_string())
}

/// The directories a bare name is looked for in, in order, without duplicates.
pub fn search_dirs() -> Vec<SearchDir> {
    let mut out: Vec<SearchDir> = Vec::new();
    let mut add = |dir: PathBuf, origin| {
        if !dir.as_os_str().is_empty() && !out.iter().any(|d| d.dir == dir) {
            out.push(SearchDir { dir, origin });
        }
    };
    if let Some(path) = std::env::var_os(PLUGIN_PATH_ENV) {
        for dir in std::env::split_paths(&path) {
            add(dir, Origin::PluginPath);
        }
    }
    if let Some(dir) = user_plugin_dir() {
        add(dir, Origin::UserDir);
    }
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            add(dir.to_path_buf(), Origin::BesideHost);
            // Test and bench binaries run from target/<profile>/deps, the modules
            // are one level up.
            if dir.file_name().is_some_and(|n| n == "deps") {
                if let Some(up) = dir.parent() {
                    add(up.to_path_buf(), Origin::BesideHost);
                }
            }
        }
    }
    out
}

/// Whether `spec` is meant as a path rather than a module name.
fn looks_like_path(spec: &str) -> bool {
    spec.contains('/')
        || spec.contains(std::path::MAIN_SEPARATOR)
        || spec.ends_with(std::env::consts::DLL_SUFFIX)
}

/// The library files in `dir`, sorted, at most `limit`.
fn libraries_in(dir: &Path, limit: usize) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| module_name(&e.file_name()).is_some())
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.truncate(limit);
    found
}

/// Resolves `--plugin`: an existing file, a path, or a bare name on the search path.
pub fn resolve(spec: &str) -> Result<PathBuf, FindError> {
    let as_path = Path::new(spec);
    if as_path.is_dir() {
        return Err(FindError::IsDirectory {
            path: as_path.to_path_buf(),
            libraries: libraries_in(as_path, 3),
        });
    }
    if as_path.is_file() {
        // dlopen searches the library path for names without a slash.
        return Ok(as_path
            .canonicalize()
            .unwrap_or_else(|_| as_path.to_path_buf()));
    }
    if looks_like_path(spec) {
        return Err(FindError::NoFile {
            path: as_path.to_path_buf(),
        });
    }
    let file = file_name(spec);
    let dirs = search_dirs();
    dirs.iter()
        .map(|d| d.dir.join(&file))
        .find(|p| p.is_file())
        .ok_or_else(|| FindError::NoModuleNamed {
            name: spec.to_string(),
            searched: dirs.into_iter().map(|d| d.dir).collect(),
        })
}

/// A module file found on the search path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The module name its file name gives (what `--plugin` takes).
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// Which directory of the search path holds it.
    pub origin: Origin,
    /// An earlier file of the same name that a bare name finds instead.
    pub shadowed_by: Option<PathBuf>,
}

/// Every library file in the search directories, in search order, each directory's
/// files by name; a name found again later is marked as shadowed.
pub fn find_all() -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for d in search_dirs() {
        for path in libraries_in(&d.dir, usize::MAX) {
            let Some(name) = path.file_name().and_then(module_name) else {
                continue;
            };
            let shadowed_by = out
                .iter()
                .find(|f| f.name == name && f.shadowed_by.is_none())
                .map(|f| f.path.clone());
            out.push(Found {
                name,
                path,
                origin: d.origin,
                shadowed_by,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_names_round_trip() {
        let f = file_name("mtttier");
        assert_eq!(module_name(&f).as_deref(), Some("mtttier"));
        assert_eq!(module_name(OsStr::new("README.md")), None);
        assert_eq!(
            module_name(OsStr::new(&format!(
                "{}{}",
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            ))),
            None
        );
    }

    #[test]
    fn paths_are_not_names() {
        assert!(looks_like_path("./x"));
        assert!(looks_like_path(&format!(
            "libx{}",
            std::env::consts::DLL_SUFFIX
        )));
        assert!(!looks_like_path("mtttier"));
    }

    #[test]
    fn a_directory_is_named_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join(file_name("thing"));
        std::fs::write(&lib, b"").unwrap();
        match resolve(dir.path().to_str().unwrap()) {
            Err(e @ FindError::IsDirectory { .. }) => {
                let text = e.to_string();
                assert!(text.contains("is a directory, not a game module"), "{text}");
                assert!(text.contains(&lib.display().to_string()), "{text}");
            }
            other => panic!("expected IsDirectory, got {other:?}"),
        }
    }
}
