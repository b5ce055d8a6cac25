//! Adapts a game object (every module writer's `Game`, or a host's wrapper of a C
//! module) to the stable ABI of `ffi`, and exports a `Game` as a plugin.
//!
//! Every entry point runs the module inside `catch_unwind` (`guard`), so a panicking
//! module turns into a `CallError` naming the function instead of aborting the host; an
//! error the game object reports itself is passed on as it is. The checks live in
//! `adapter`, the entry points in `entries`, the batch loops (where the game's code is
//! inlined) in `batch`. Nothing here may change what a module computes: it only checks
//! and forwards.

mod adapter;
mod batch;
mod entries;
mod guard;

pub use adapter::Adapter;
pub use guard::install_quiet_panic_hook;

use crate::ffi::{
    CallErrorKind, CallResult, FfiGame_TO, FfiModuleInfo, FfiVariant, GameBox, GameModule,
    GameModuleRef, ABI_VERSION,
};
use crate::game::Game;
use crate::object::GameObject;
use abi_stable::{
    prefix_type::PrefixTypeTrait,
    sabi_trait::TD_Opaque,
    std_types::{RBox, RStr, RVec},
};
use adapter::{probe_undo_moves, to_ffi_properties};
use guard::{err, guard};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The symbol abi_stable looks up in a plugin (its mangled root-module loader name).
/// Checked against abi_stable's own constant in this crate's tests.
pub const ROOT_MODULE_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

/// The module's metadata in its boundary form.
pub fn module_info<G: Game>() -> FfiModuleInfo {
    FfiModuleInfo {
        name: G::NAME.into(),
        authors: G::AUTHORS.into(),
        description: G::DESCRIPTION.into(),
        variants: G::variants()
            .into_iter()
            .map(|v| FfiVariant {
                name: v.name.into(),
                description: v.description.into(),
            })
            .collect::<RVec<_>>(),
        api_version: crate::ffi::API_VERSION.into(),
    }
}

/// Creates the game for `variant` (empty: the default) behind the stable ABI. Also
/// used by the host to run a statically linked game through the very same adapter.
pub fn new_game<G: Game>(variant: &str) -> CallResult<GameBox> {
    guard("new", || {
        let variants = G::variants();
        let name = if variant.is_empty() {
            variants.first().map(|v| v.name.clone()).unwrap_or_default()
        } else {
            variant.to_string()
        };
        let game = G::new(&name).map_err(|e| err(CallErrorKind::BAD_VARIANT, e))?;
        Ok(adapt(game))
    })
}

/// Puts any game object behind the stable ABI, with the adapter's checks and batch
/// loops: how a host runs a game described at run time (a C module) exactly like a
/// plugin's `Game`.
pub fn game_box<O: GameObject>(game: O) -> GameBox {
    adapt(game)
}

fn adapt<O: GameObject>(game: O) -> GameBox {
    let props = to_ffi_properties(&GameObject::properties(&game));
    let has_undo = probe_undo_moves(&game, &props);
    // A module that panics here is taken to make no promise.
    let fast_canonical =
        catch_unwind(AssertUnwindSafe(|| game.fast_paths_canonical())).unwrap_or(false);
    FfiGame_TO::from_value(
        Adapter {
            game,
            props,
            has_undo,
            fast_canonical,
        },
        TD_Opaque,
    )
}

extern "C" fn info_entry<G: Game>() -> CallResult<FfiModuleInfo> {
    guard("info", || Ok(module_info::<G>()))
}

extern "C" fn new_game_entry<G: Game>(variant: RStr<'_>) -> CallResult<GameBox> {
    new_game::<G>(variant.as_str())
}

/// The root module of a plugin whose game is `G` (called by `export_game!`).
pub fn root_module<G: Game>() -> GameModuleRef {
    install_quiet_panic_hook();
    GameModule {
        abi_version: ABI_VERSION,
        info: info_entry::<G>,
        new_game: new_game_entry::<G>,
    }
    .leak_into_prefix()
}

/// Keeps `RBox` nameable for the macro below without an abi_stable dependency.
#[doc(hidden)]
pub type __RBoxUnit = RBox<()>;

/// Exports `$game` (a type implementing `Game`) as this `cdylib`'s game module.
///
/// Write `gamesman_plugin_api::export_game!(MyGame);` once in the crate root.
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        #[doc(hidden)]
        pub fn __gamesman_root_module() -> $crate::ffi::GameModuleRef {
            $crate::export::root_module::<$game>()
        }

        // What abi_stable's `#[export_root_module]` expands to, with paths through this
        // crate so that a module needs no direct abi_stable dependency.
        #[doc(hidden)]
        #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
        pub static __GAMESMAN_LIB_HEADER: $crate::abi_stable::library::LibHeader = {
            pub extern "C" fn __erased_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(__gamesman_root_module)
            }
            unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<$crate::ffi::GameModuleRef>(
                    __erased_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn root_module_symbol_matches_abi_stable() {
        assert_eq!(
            super::ROOT_MODULE_SYMBOL,
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
    }
}
