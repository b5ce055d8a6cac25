//! The per-user data directory (`$XDG_DATA_HOME/gamesman`, usually
//! `~/.local/share/gamesman`, through the `directories` crate), where the default
//! database lives and where installed plugins are looked for (`plugins/` inside it).
//!
//! This file only names directories; it must not create, read or write them.

use std::path::PathBuf;

/// The environment variable that names the database (a resource string or a directory).
pub const DB_ENV: &str = "GAMESMAN_DB";
/// The environment variable with extra plugin directories, separated by `:`.
pub const PLUGIN_PATH_ENV: &str = "GAMESMAN_PLUGIN_PATH";

/// Why no per-user directory could be named.
#[derive(Debug, thiserror::Error)]
#[error("there is no per-user data directory (neither XDG_DATA_HOME nor HOME is set to an absolute path): {remedy}")]
pub struct NoDataDir {
    /// What to do instead.
    pub remedy: &'static str,
}

/// `$XDG_DATA_HOME/gamesman` (`~/.local/share/gamesman`; on macOS
/// `~/Library/Application Support/gamesman`), or `None` without a home directory.
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from_path(PathBuf::from("gamesman"))
        .map(|d| d.data_dir().to_path_buf())
}

/// Where the default database stores its tier directories: the data directory itself.
pub fn default_db_dir() -> Result<PathBuf, NoDataDir> {
    data_dir().ok_or(NoDataDir {
        remedy: "name the database with --db file:DIRECTORY or the GAMESMAN_DB variable",
    })
}

/// Where `host install-plugin` copies modules and where bare names are looked for
/// after `GAMESMAN_PLUGIN_PATH`: `plugins/` in the data directory.
pub fn user_plugin_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("plugins"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_directory_is_inside_the_data_directory() {
        if let (Some(data), Some(plugins)) = (data_dir(), user_plugin_dir()) {
            assert_eq!(plugins, data.join("plugins"));
            assert!(data.ends_with("gamesman"), "{}", data.display());
        }
    }
}
