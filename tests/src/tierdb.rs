//! Reading what a solve left in a database root: every file of every game directory
//! under it, by relative name, so tests can compare two solves byte for byte.
//!
//! It only reads; it must not know the tier file format.

use std::collections::BTreeMap;
use std::path::Path;

/// Every file under each directory of `root` (a `file:` database root), keyed
/// `game_variant_tierdb/file`, with its bytes.
pub fn tier_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for sub in std::fs::read_dir(root)
        .expect("the solve made its directory")
        .flatten()
    {
        for f in std::fs::read_dir(sub.path())
            .expect("a tier directory")
            .flatten()
        {
            let name = format!(
                "{}/{}",
                sub.file_name().to_string_lossy(),
                f.file_name().to_string_lossy()
            );
            out.insert(name, std::fs::read(f.path()).expect("a tier file"));
        }
    }
    out
}
