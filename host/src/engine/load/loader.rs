//! Loading a game module (`.so`, found by `plugin_path`, written in Rust against the
//! abi_stable ABI or in C against `gamesman_plugin.h`) and opening one of its variants.
//!
//! Every way a plugin file can be wrong ends here as one typed `LoadError` whose
//! message is one paragraph a user can act on; abi_stable's long layout reports go to
//! the debug log only. Modules are never unloaded (abi_stable keeps them for the
//! process). This file must not call into a game beyond metadata and construction.

use crate::engine::game::GameHandle;
use crate::engine::load::cmodule::{self, CModule, CModuleError};
use crate::engine::load::compat::{self, Refusal};
use crate::engine::load::plugin_path::FindError;
use abi_stable::library::{lib_header_from_path, LibraryError};
use gamesman_plugin_api::ffi::{
    CallErrorKind, FfiModuleInfo, FfiVariant, GameModuleRef, ABI_VERSION,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a module could not be loaded or a variant not opened.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// `--plugin` names no module file (see `plugin_path` for where names are looked for).
    #[error(transparent)]
    Find(#[from] FindError),
    /// The file exists but the dynamic loader refuses it.
    #[error("{} is not a shared library the host can load ({reason}). A game module is the .so file that `cargo build --release` writes for a crate with crate-type cdylib.", path.display())]
    NotALibrary {
        /// The file.
        path: PathBuf,
        /// What the dynamic loader said.
        reason: String,
    },
    /// A shared library, but without the game-module entry point.
    #[error("{} is a shared library but not a game module: it exports neither a gamesman root module nor gamesman_module_v1. Rust modules call gamesman_plugin_api::export_game!(YourGame) in their crate root; C modules define gamesman_module_v1() from plugin-api/c/gamesman_plugin.h.", path.display())]
    NotAModule {
        /// The file.
        path: PathBuf,
    },
    /// Built against a plugin-api version this host cannot use.
    #[error("{} was built against gamesman-plugin-api {module_version}, but this host uses {host_version}; the two are not compatible. Rebuild the module against plugin-api {host_version}.", path.display())]
    IncompatibleVersion {
        /// The file.
        path: PathBuf,
        /// plugin-api version of the module.
        module_version: String,
        /// plugin-api version of the host.
        host_version: String,
    },
    /// Same version number but the types differ (a modified plugin-api).
    #[error("{} does not match this host's plugin ABI: {detail}. The module was built against a different or modified gamesman-plugin-api; rebuild it against plugin-api {host_version} (RUST_LOG=debug shows the full layout report).", path.display())]
    IncompatibleLayout {
        /// The file.
        path: PathBuf,
        /// The last line of abi_stable's report.
        detail: String,
        /// plugin-api version of the host.
        host_version: String,
    },
    /// The module's ABI generation differs from the host's.
    #[error("{} speaks plugin ABI generation {module}, this host speaks {host}. Rebuild the module against the host's gamesman-plugin-api.", path.display())]
    AbiGeneration {
        /// The file.
        path: PathBuf,
        /// The module's `ABI_VERSION`.
        module: u32,
        /// The host's `ABI_VERSION`.
        host: u32,
    },
    /// A C module whose `gamesman_module_v1()` struct is refused (another ABI
    /// version, too small, required functions NULL, unusable metadata).
    #[error("{} is a C game module the host cannot use: {reason}", path.display())]
    BadCModule {
        /// The file.
        path: PathBuf,
        /// What is wrong with its struct.
        reason: CModuleError,
    },
    /// The module failed while starting up.
    #[error("the game module {} failed while loading: {message}", path.display())]
    InitFailed {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The variant name is not one the module offers.
    #[error("module '{module}' has no variant {}. Its variants are: {}.", crate::engine::messages::quote(.variant), available.join(", "))]
    UnknownVariant {
        /// The module's name.
        module: String,
        /// What was asked for.
        variant: String,
        /// The module's own message.
        message: String,
        /// The variants it offers.
        available: Vec<String>,
    },
}

/// A loaded module: its file and metadata. Cheap to clone.
#[derive(Clone)]
pub struct Module {
    /// The file it was loaded from.
    pub path: PathBuf,
    /// Its metadata.
    pub info: Arc<FfiModuleInfo>,
    source: Source,
}

/// Which ABI a module speaks.
#[derive(Clone)]
enum Source {
    /// A Rust module's abi_stable root module.
    Rust(GameModuleRef),
    /// A C module's struct.
    C(Arc<CModule>),
}

/// `api_version` shown for C modules (they are built against a header, not a crate).
pub const C_API_VERSION: &str = "C ABI 1 (gamesman_plugin.h)";

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module")
            .field("path", &self.path)
            .field("name", &self.info.name)
            .finish()
    }
}

/// The plugin-api version this host was built with.
pub fn host_api_version() -> String {
    gamesman_plugin_api::ffi::API_VERSION.to_string()
}

/// Every game module on the plugin search path (`plugin_path::find_all`), loaded, in
/// search order. A name shadowed by an earlier file is skipped, as a bare `--plugin`
/// name would skip it; files that are not game modules are skipped quietly, modules
/// that fail to load with a warning, and test fixtures (`libfixture_*`, built next to
/// the real modules in a development tree) always.
pub fn discover() -> Vec<Module> {
    let mut modules: Vec<Module> = Vec::new();
    for found in crate::engine::load::plugin_path::find_all() {
        if found.shadowed_by.is_some() || found.name.starts_with("fixture_") {
            continue;
        }
        let path = found.path;
        match load_path(&path) {
            Ok(m) if modules.iter().any(|o| o.name() == m.name()) => {
                log::warn!(
                    "{}: module '{}' is already loaded; skipped",
                    path.display(),
                    m.name()
                )
            }
            Ok(m) => modules.push(m),
            Err(LoadError::NotALibrary { .. } | LoadError::NotAModule { .. }) => {
                log::debug!("{} is not a game module", path.display())
            }
            Err(e) => log::warn!("skipping {}: {e}", path.display()),
        }
    }
    modules
}

/// Resolves `--plugin` to a file: an existing file, a path, or a bare name on the
/// plugin search path (`plugin_path`).
pub fn resolve(spec: &str) -> Result<PathBuf, LoadError> {
    Ok(crate::engine::load::plugin_path::resolve(spec)?)
}

/// Loads the module named or found at `spec`.
pub fn load(spec: &str) -> Result<Module, LoadError> {
    let path = resolve(spec)?;
    load_path(&path)
}

/// Loads the module at `path`.
pub fn load_path(path: &Path) -> Result<Module, LoadError> {
    let path = path.to_path_buf();
    let header = match lib_header_from_path(&path) {
        Ok(header) => header,
        // No Rust root module: perhaps a C module.
        Err(LibraryError::GetSymbolError { .. }) => return load_c(path),
        Err(e) => return Err(classify(&path, e)),
    };
    compat::check(header).map_err(|r| refused(&path, r))?;
    // SAFETY: `compat::check` compared the module's layout with the host's and found
    // them equal but for `FfiGame` methods appended after the module's plugin-api,
    // which abi_stable's accessors report as absent (their defaults run).
    let root = unsafe { header.init_root_module_with_unchecked_layout::<GameModuleRef>() }
        .map_err(|e| classify(&path, e))?;
    let abi = root.abi_version();
    if abi != ABI_VERSION {
        return Err(LoadError::AbiGeneration {
            path,
            module: abi,
            host: ABI_VERSION,
        });
    }
    let info = match (root.info())() {
        abi_stable::std_types::ROk(i) => i,
        abi_stable::std_types::RErr(e) => {
            return Err(LoadError::InitFailed {
                path,
                message: e.message.into_string(),
            })
        }
    };
    log::debug!("loaded module '{}' from {}", info.name, path.display());
    Ok(Module {
        path,
        info: Arc::new(info),
        source: Source::Rust(root),
    })
}

/// Loads the C module at `path` (a library without a Rust root module).
fn load_c(path: PathBuf) -> Result<Module, LoadError> {
    let mut module = match cmodule::load(&path) {
        Ok(Some(m)) => m,
        Ok(None) => return Err(LoadError::NotAModule { path }),
        Err(Ok(reason)) => return Err(LoadError::BadCModule { path, reason }),
        Err(Err(reason)) => return Err(LoadError::NotALibrary { path, reason }),
    };
    let names: Vec<String> = module.variants.iter().map(|(n, _)| n.clone()).collect();
    module.images = match crate::engine::load::sidecar::load(&path, &module.name, &names) {
        Ok(s) => s.map(Arc::new),
        Err(e) => {
            log::warn!("{e}");
            None
        }
    };
    let info = FfiModuleInfo {
        name: module.name.as_str().into(),
        authors: module.authors.as_str().into(),
        description: module.description.as_str().into(),
        variants: module
            .variants
            .iter()
            .map(|(name, description)| FfiVariant {
                name: name.as_str().into(),
                description: description.as_str().into(),
            })
            .collect(),
        api_version: C_API_VERSION.into(),
    };
    log::debug!("loaded C module '{}' from {}", info.name, path.display());
    Ok(Module {
        path,
        info: Arc::new(info),
        source: Source::C(Arc::new(module)),
    })
}

fn refused(path: &Path, r: Refusal) -> LoadError {
    let path = path.to_path_buf();
    match r {
        Refusal::Version { module } => LoadError::IncompatibleVersion {
            path,
            module_version: module,
            host_version: host_api_version(),
        },
        Refusal::UnreadableVersion(v) => LoadError::IncompatibleVersion {
            path,
            module_version: format!("(unreadable: {v})"),
            host_version: host_api_version(),
        },
        Refusal::Layout(report) => {
            log::debug!("layout report for {}: {report}", path.display());
            LoadError::IncompatibleLayout {
                path,
                detail: first_layout_error(&report),
                host_version: host_api_version(),
            }
        }
        Refusal::NoLayout => LoadError::IncompatibleLayout {
            path,
            detail: "it was built without layout information".into(),
            host_version: host_api_version(),
        },
    }
}

fn classify(path: &Path, e: LibraryError) -> LoadError {
    log::debug!("abi_stable reported for {}: {e}", path.display());
    let path = path.to_path_buf();
    match e {
        LibraryError::OpenError { err, .. } => LoadError::NotALibrary {
            path,
            reason: err.to_string(),
        },
        LibraryError::GetSymbolError { .. } => LoadError::NotAModule { path },
        // abi_stable compares the fixed ABI line (`ffi::ABI_LINE`); the user is told
        // the real crate versions.
        LibraryError::IncompatibleVersionNumber { actual_version, .. } => {
            LoadError::IncompatibleVersion {
                path,
                module_version: actual_version.to_string(),
                host_version: host_api_version(),
            }
        }
        LibraryError::ParseVersionError(v) => LoadError::IncompatibleVersion {
            path,
            module_version: format!("(unreadable: {v})"),
            host_version: host_api_version(),
        },
        LibraryError::AbiInstability(report) => LoadError::IncompatibleLayout {
            path,
            detail: first_layout_error(&report.to_string()),
            host_version: host_api_version(),
        },
        LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            LoadError::IncompatibleLayout {
                path,
                detail: "it was built with an abi_stable other than 0.11".into(),
                host_version: host_api_version(),
            }
        }
        LibraryError::RootModule { err, .. } => LoadError::InitFailed {
            path,
            message: err.to_string().trim().to_string(),
        },
        other => LoadError::InitFailed {
            path,
            message: other.to_string().trim().to_string(),
        },
    }
}

/// The first error of abi_stable's layout report, in one line ("too many fields:
/// expected 4, found 3"), so the user sees what differs without a thousand lines.
fn first_layout_error(report: &str) -> String {
    let lines: Vec<&str> = report
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let Some(at) = lines.iter().position(|l| l.starts_with("Error:")) else {
        return "the type layouts differ".into();
    };
    let mut out = lines[at].trim_start_matches("Error:").to_string();
    let mut rest = lines[at + 1..]
        .iter()
        .take_while(|l| !l.starts_with("Error:"));
    while let Some(l) = rest.next() {
        if *l == "Expected:" || *l == "Found:" {
            if let Some(v) = rest.next() {
                out.push_str(&format!(
                    "; {} {}",
                    l.trim_end_matches(':').to_lowercase(),
                    v
                ));
            }
        }
    }
    out
}

impl Module {
    /// The module's short name.
    pub fn name(&self) -> &str {
        self.info.name.as_str()
    }

    /// The names of its variants, default first.
    pub fn variant_names(&self) -> Vec<String> {
        self.info
            .variants
            .iter()
            .map(|v| v.name.to_string())
            .collect()
    }

    /// Opens a variant (`None`: the default).
    pub fn open(&self, variant: Option<&str>) -> Result<GameHandle, LoadError> {
        if variant.is_some_and(|v| v.trim().is_empty()) {
            return Err(LoadError::UnknownVariant {
                module: self.name().to_string(),
                variant: String::new(),
                message: "empty variant name".into(),
                available: self.variant_names(),
            });
        }
        let requested = variant.unwrap_or("");
        let root = match &self.source {
            Source::Rust(root) => root,
            Source::C(c) => return self.open_c(c, requested),
        };
        match (root.new_game())(requested.into()) {
            abi_stable::std_types::ROk(game) => {
                let name = if requested.is_empty() {
                    self.variant_names().into_iter().next().unwrap_or_default()
                } else {
                    requested.to_string()
                };
                Ok(GameHandle::new(self.name().to_string(), name, game))
            }
            abi_stable::std_types::RErr(e) if e.kind == CallErrorKind::BAD_VARIANT => {
                Err(LoadError::UnknownVariant {
                    module: self.name().to_string(),
                    variant: requested.to_string(),
                    message: e.message.into_string(),
                    available: self.variant_names(),
                })
            }
            abi_stable::std_types::RErr(e) => Err(LoadError::InitFailed {
                path: self.path.clone(),
                message: e.message.into_string(),
            }),
        }
    }

    /// Opens a variant of a C module behind the plugin adapter.
    fn open_c(&self, module: &CModule, requested: &str) -> Result<GameHandle, LoadError> {
        let names = self.variant_names();
        let name = if requested.is_empty() {
            names.first().cloned().unwrap_or_default()
        } else {
            requested.to_string()
        };
        if !names.contains(&name) {
            return Err(LoadError::UnknownVariant {
                module: self.name().to_string(),
                variant: name,
                message: "not one of the module's variants".into(),
                available: names,
            });
        }
        let game = module.open(&name).map_err(|e| match e {
            cmodule::OpenError::Module(reason) => LoadError::BadCModule {
                path: self.path.clone(),
                reason,
            },
            cmodule::OpenError::Failed(message) => LoadError::InitFailed {
                path: self.path.clone(),
                message,
            },
        })?;
        Ok(GameHandle::new(
            self.name().to_string(),
            name,
            gamesman_plugin_api::export::game_box(game),
        ))
    }
}
