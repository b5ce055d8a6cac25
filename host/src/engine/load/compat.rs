//! Which plugin builds the host accepts: the version and layout check at load time.
//!
//! abi_stable's own check refuses a plugin whose trait-object vtable is shorter than
//! the host's, but `FfiGame` grows append-only: a module built against an earlier
//! plugin-api lacks only the methods appended since, and abi_stable runs their default
//! bodies for it. So the host checks the layout itself and accepts exactly that
//! difference; every other difference is refused as before. This file must not load
//! or call a module: it only judges the layouts it is given.

use abi_stable::abi_stability::abi_checking::{
    check_layout_compatibility_with_globals, AbiInstability, AbiInstabilityErrors, CheckingGlobals,
};
use abi_stable::library::{LibHeader, RootModule};
use abi_stable::StableAbi;
use gamesman_plugin_api::ffi::GameModuleRef;

/// Methods `FfiGame`'s vtable had in plugin-api 0.1.0, the first release: every
/// module has at least these.
pub const FIRST_VTABLE_FIELDS: usize = 25;

/// Why a plugin's build is refused.
#[derive(Debug)]
pub enum Refusal {
    /// Its plugin-api version line is not this host's.
    Version {
        /// What the module announces.
        module: String,
    },
    /// Its version strings cannot be read.
    UnreadableVersion(String),
    /// Its types differ from the host's beyond appended methods.
    Layout(String),
    /// It was built without layout information.
    NoLayout,
}

/// Checks a plugin's version and root-module layout against the host's.
pub fn check(header: &LibHeader) -> Result<(), Refusal> {
    let host = GameModuleRef::VERSION_STRINGS.parsed();
    let module = header.version_strings();
    let parsed = module
        .parsed()
        .map_err(|e| Refusal::UnreadableVersion(e.to_string()))?;
    match host {
        Ok(h) if h.is_compatible(parsed) => {}
        _ => {
            return Err(Refusal::Version {
                module: module.version.to_string(),
            })
        }
    }
    let found = header.layout().ok_or(Refusal::NoLayout)?;
    // Fresh checking globals each time: abi_stable's process-wide record of prefix
    // types would otherwise remember an older module's shorter vtable and refuse a
    // current module loaded after it.
    let ours = <GameModuleRef as StableAbi>::LAYOUT;
    match check_layout_compatibility_with_globals(ours, found, &CheckingGlobals::new()) {
        Ok(()) => Ok(()),
        Err(e) if only_appended_methods(&e) => {
            log::debug!("the module was built against an earlier plugin-api: it lacks methods appended since, which take their defaults");
            Ok(())
        }
        Err(e) => Err(Refusal::Layout(e.to_string())),
    }
}

/// Whether every difference is a vtable with fewer fields than the host's, but at
/// least the first release's.
fn only_appended_methods(e: &AbiInstabilityErrors) -> bool {
    // The report also lists the enclosing types, with no errors of their own.
    let mut all = e.errors.iter().flat_map(|err| err.errs.iter()).peekable();
    all.peek().is_some()
        && all.all(|a| match a {
            AbiInstability::FieldCountMismatch(ef) => {
                ef.expected > ef.found && ef.found >= FIRST_VTABLE_FIELDS
            }
            _ => false,
        })
}
