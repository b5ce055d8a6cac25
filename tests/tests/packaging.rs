//! The plugin-api crate can be published for module writers (issue 24 item 3): its
//! manifest carries what crates.io requires and shows (description, license, readme,
//! repository, keywords), its README exists with the dependency lines, and nothing
//! marks it unpublishable. `cargo package -p gamesman-plugin-api` itself is run by hand
//! (it compiles the crate again); the README's example module is compiled as a doctest
//! of the crate.

const MANIFEST: &str = include_str!("../../plugin-api/Cargo.toml");
const README: &str = include_str!("../../plugin-api/README.md");
const WORKSPACE: &str = include_str!("../../Cargo.toml");

/// The value of `key = ...` in the `[package]` section.
fn package_field<'a>(manifest: &'a str, key: &str) -> Option<&'a str> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some((k, v)) = line.split_once('=') {
                if k.trim() == key {
                    return Some(v.trim());
                }
            }
        }
    }
    None
}

#[test]
fn plugin_api_has_the_metadata_a_registry_needs() {
    let field = |k: &str| package_field(MANIFEST, k).unwrap_or_else(|| panic!("no {k}"));
    assert!(field("description").len() > 20);
    assert_eq!(field("readme"), "\"README.md\"");
    assert!(field("repository").starts_with("\"https://"));
    assert!(field("keywords").starts_with('['));
    // The license comes from the workspace, which names one.
    assert_eq!(field("license.workspace"), "true");
    assert!(package_field(
        WORKSPACE
            .replace("[workspace.package]", "[package]")
            .as_str(),
        "license"
    )
    .is_some_and(|l| l.contains("MIT")));
    assert_eq!(
        package_field(MANIFEST, "publish"),
        None,
        "plugin-api must stay publishable"
    );
}

#[test]
fn plugin_api_readme_shows_how_to_depend_on_it() {
    assert!(README.starts_with("# gamesman-plugin-api"));
    assert!(README.contains("gamesman-plugin-api = \"0.1\""));
    assert!(README.contains("gamesman-plugin-api = { git = "));
    assert!(README.contains("export_game!("));
    assert!(README.contains("crate-type = [\"cdylib\"]"));
}
