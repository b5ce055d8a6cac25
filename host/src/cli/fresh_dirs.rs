//! The directories a command that writes a `file:` database is about to create, so
//! that a refused or failed write removes them again and leaves no empty database
//! directory behind (`solve` with a budget nothing fits used to).
//!
//! It only removes directories that were missing before and are empty now; it must
//! never remove a file or a directory that holds anything.

use crate::engine::db::{parse_resource, GameKey, Resource};
use std::path::PathBuf;

/// The directories of `resource`'s database of `key` that do not exist yet, deepest
/// first (the database's own directory, then its missing parents); none for other
/// kinds of database.
pub fn missing(resource: &str, key: &GameKey) -> Vec<PathBuf> {
    let Ok(Resource::Dir(root)) = parse_resource(resource) else {
        return Vec::new();
    };
    let dir = root.join(key.dir_name());
    dir.ancestors()
        .filter(|d| !d.as_os_str().is_empty())
        .take_while(|d| std::fs::symlink_metadata(d).is_err())
        .map(PathBuf::from)
        .collect()
}

/// Removes each of `dirs` (deepest first) that is empty; stops at the first that is
/// not (its parents then hold it).
pub fn remove_empty(dirs: &[PathBuf]) {
    for d in dirs {
        if std::fs::remove_dir(d).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_was_missing_and_is_empty_goes() {
        let root = tempfile::tempdir().unwrap();
        let key = GameKey {
            game: "g".into(),
            variant: "v".into(),
            winby: false,
            numbering: 0,
        };
        let base = root.path().join("a/b");
        let resource = format!("file:{}", base.display());
        let dirs = missing(&resource, &key);
        assert_eq!(
            dirs,
            vec![base.join("g_v_tierdb"), base.clone(), root.path().join("a")]
        );
        std::fs::create_dir_all(base.join("g_v_tierdb")).unwrap();
        std::fs::write(base.join("keep"), b"x").unwrap();
        remove_empty(&dirs);
        assert!(!base.join("g_v_tierdb").exists());
        assert!(
            base.join("keep").is_file(),
            "a directory holding a file stays"
        );
        assert!(missing("memory:", &key).is_empty());
    }
}
