//! In-process: the host library's loader returns the right typed `LoadError` (with the
//! right fields) for each kind of bad module, so callers other than the CLI (the
//! validator, tests) can tell the cases apart. The CLI's wording is checked in
//! `host_load_errors.rs`; this file must not check message text beyond the fields.

use e2e_tests::workspace::{plugin, plugin_api_version};
use gamesman_host::engine::load::loader::{self, LoadError};

#[test]
fn version_mismatch_is_typed_with_both_versions() {
    let lib = plugin("fixture_abi_mismatch");
    match loader::load(lib.to_str().expect("utf-8 path")) {
        Err(LoadError::IncompatibleVersion {
            module_version,
            host_version,
            ..
        }) => {
            assert_eq!(module_version, "0.0.5");
            assert_eq!(host_version, plugin_api_version());
        }
        other => panic!("expected IncompatibleVersion, got {other:?}"),
    }
}

#[test]
fn library_without_root_module_is_typed() {
    let lib = plugin("fixture_not_a_module");
    match loader::load(lib.to_str().expect("utf-8 path")) {
        Err(LoadError::NotAModule { path }) => {
            assert_eq!(path, lib.canonicalize().expect("canonical path"));
        }
        other => panic!("expected NotAModule, got {other:?}"),
    }
}

#[test]
fn unknown_variant_is_typed_and_lists_variants() {
    let module = loader::load(plugin("mtttier").to_str().expect("utf-8 path")).expect("loads");
    match module.open(Some("huge")) {
        Err(LoadError::UnknownVariant {
            module,
            variant,
            available,
            ..
        }) => {
            assert_eq!(module, "mtttier");
            assert_eq!(variant, "huge");
            assert_eq!(available, vec!["regular", "symmetric"]);
        }
        other => panic!("expected UnknownVariant, got {other:?}"),
    }
}
