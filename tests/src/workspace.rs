//! Locating what `cargo build --workspace` produced (the `host` binary, plugin `.so`
//! files) and the versions the workspace declares.
//!
//! It only finds files; it must not build anything (a nested cargo would fight the
//! outer one for the build lock and for the two cores).

use std::path::PathBuf;

/// The plugin-api crate manifest, read at compile time so the tests know the version
/// the host should report without asking the host.
const PLUGIN_API_MANIFEST: &str = include_str!("../../plugin-api/Cargo.toml");

/// The directory with the built binaries and plugins (`target/<profile>/`).
///
/// Test and bench executables live in `target/<profile>/deps/`, so it is the parent of
/// their directory; anything else is taken to sit next to the binaries already.
pub fn artifact_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the path of the running test executable");
    let dir = exe
        .parent()
        .expect("the test executable lies in a directory")
        .to_path_buf();
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.parent().expect("deps/ has a parent").to_path_buf()
    } else {
        dir
    }
}

/// The build command that produces the artifacts for the profile these tests run in.
pub fn build_command() -> &'static str {
    if artifact_dir().file_name().is_some_and(|n| n == "debug") {
        "cargo build --workspace"
    } else {
        "cargo build --release --workspace"
    }
}

fn require(path: PathBuf, what: &str) -> PathBuf {
    assert!(
        path.is_file(),
        "{what} {} is missing: run `{}` first (the end-to-end tests drive the built binaries and plugins, they do not build them)",
        path.display(),
        build_command()
    );
    path
}

/// The `host` binary; panics with the build command to run when it is missing.
pub fn host_binary() -> PathBuf {
    require(artifact_dir().join("host"), "the host binary")
}

/// A built plugin or fixture library (`name` as in its crate, e.g. `fixture_panicky`);
/// panics with the build command to run when it is missing.
pub fn plugin(name: &str) -> PathBuf {
    require(
        artifact_dir().join(format!("lib{name}.so")),
        "the plugin library",
    )
}

/// The copy of plugin `name` that cargo built in the same run as this executable, when
/// the plugin crate is one of its dependencies: cargo writes a dependency's `cdylib`
/// into `deps/` but does not always copy it up (`cargo bench` does not), so the copy
/// next to the binaries may be older than the statically linked code. Falls back to
/// `plugin(name)`.
pub fn plugin_built_alongside(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the path of the running executable");
    let beside = exe
        .parent()
        .expect("the executable lies in a directory")
        .join(format!("lib{name}.so"));
    if beside.is_file() {
        beside
    } else {
        plugin(name)
    }
}

/// The `version` of the workspace's `gamesman-plugin-api` package.
pub fn plugin_api_version() -> String {
    manifest_version(PLUGIN_API_MANIFEST).expect("plugin-api/Cargo.toml declares a version")
}

/// The `version = "..."` of a manifest's `[package]` section.
fn manifest_version(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(rest) = line.strip_prefix("version") {
                let value = rest.trim_start().strip_prefix('=')?.trim();
                return Some(value.trim_matches('"').to_string());
            }
        }
    }
    None
}

/// The one target directory the tests' module projects (`host new`'s, the tutorial's)
/// build into, so their dependencies (abi_stable) compile once for the whole suite.
pub fn projects_target_dir() -> PathBuf {
    artifact_dir()
        .parent()
        .expect("the artifacts lie in a target directory")
        .join("host-new")
}

/// A counterpart under `../shared` that a test reads (GamesCrafters' code, the
/// anchors' binaries): `dir` when `dir/marker` exists. Where it is missing the test
/// says so and gets `None` (it then checks nothing and passes), except under CI (`CI`
/// set), which must run every test against its counterpart: there it fails.
pub fn shared_input(dir: PathBuf, marker: &str, test: &str) -> Option<PathBuf> {
    let wanted = if marker.is_empty() {
        dir.clone()
    } else {
        dir.join(marker)
    };
    if wanted.exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run {test}, but {} is missing",
        wanted.display()
    );
    eprintln!(
        "note: {} is missing: {test} checks nothing here",
        wanted.display()
    );
    None
}

#[cfg(test)]
mod tests {
    use super::manifest_version;

    #[test]
    fn reads_the_package_version_only() {
        let m = "[package]\nname = \"x\"\nversion = \"1.2.3\"\n[dependencies]\nversion = \"9\"\n";
        assert_eq!(manifest_version(m).as_deref(), Some("1.2.3"));
        assert_eq!(manifest_version("[dependencies]\nversion = \"9\"\n"), None);
    }
}
