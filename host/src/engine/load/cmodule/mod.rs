//! Modules written in C against `plugin-api/c/gamesman_plugin.h`: finding the entry
//! point, checking the struct it returns, and opening variants as game objects that
//! run through the same plugin adapter (checks, batch loops) as any Rust module.
//!
//! Every way the struct can be wrong is a `CModuleError` here, found at load time
//! (or, for a variant's own properties, when it is opened). This file must not call
//! the game's functions beyond metadata and `new_game`; `object` does that.

pub mod abi;
mod exit;
mod object;

use abi::{CModuleStruct, CVariant, EntryPoint, C_ABI_VERSION, HEADER_SIZE, KNOWN_SIZE, V1_SIZE};
pub use object::CGame;
use std::ffi::{c_char, CStr};
use std::path::Path;

/// Why a library's C module is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CModuleError {
    /// `gamesman_module_v1()` returned NULL.
    #[error("its gamesman_module_v1() returned NULL instead of the module struct")]
    NullStruct,
    /// The struct's ABI version is not this host's.
    #[error("it speaks C ABI version {module} (abi_version in its gamesman_module), this host speaks {host}. Rebuild it against this host's plugin-api/c/gamesman_plugin.h.")]
    AbiVersion {
        /// The module's `abi_version`.
        module: u32,
        /// `GAMESMAN_C_ABI_VERSION` of the host.
        host: u32,
    },
    /// `struct_size` is smaller than the fields of its ABI version.
    #[error("its gamesman_module struct declares struct_size {size} bytes, but a version-{version} struct holds at least {needed} bytes of fields. Set struct_size = sizeof(gamesman_module) and build against plugin-api/c/gamesman_plugin.h.")]
    TooSmall {
        /// The module's `struct_size`.
        size: u32,
        /// The ABI version it claims.
        version: u32,
        /// The least size of that version.
        needed: usize,
    },
    /// Required functions are NULL.
    #[error("its gamesman_module struct leaves required functions NULL: {}. gamesman_plugin.h marks them REQUIRED.", .functions.join(", "))]
    MissingFunctions {
        /// The C names of the missing functions.
        functions: Vec<&'static str>,
    },
    /// The library calls a function (or uses a variable) nothing defines.
    #[error("it uses `{symbol}`, which neither the module nor the libraries it links define ({loader}). For a GamesmanClassic module built with plugin-api/c/classic: a part of Classic's core that the layer does not provide.")]
    UndefinedSymbol {
        /// The missing name.
        symbol: String,
        /// The dynamic loader's message.
        loader: String,
    },
    /// The metadata is unusable (no name, bad variant names).
    #[error("its gamesman_module metadata is unusable: {0}")]
    BadMetadata(String),
}

/// A loaded C module: its function table and metadata. The library stays loaded for
/// the life of the process (like Rust modules).
#[derive(Clone)]
pub struct CModule {
    table: CModuleStruct,
    /// The short name.
    pub name: String,
    /// Who wrote it.
    pub authors: String,
    /// One paragraph about it.
    pub description: String,
    /// Its variants (name, description), the default first.
    pub variants: Vec<(String, String)>,
    /// Its AutoGUI sidecar's images (`load::sidecar`), if it has a good one.
    pub images: Option<std::sync::Arc<crate::engine::load::sidecar::Sidecar>>,
}

impl std::fmt::Debug for CModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CModule").field("name", &self.name).finish()
    }
}

// SAFETY: the table holds function pointers and pointers to the module's constant
// metadata, valid for as long as the library is loaded, which is forever. Calls
// through it are made by `CGame`, which serialises them unless the module declares
// itself thread-safe.
unsafe impl Send for CModule {}
// SAFETY: as above; `CModule` itself never mutates anything behind the pointers.
unsafe impl Sync for CModule {}

/// Opens the library at `path` and, if it exports `gamesman_module_v1`, checks and
/// returns its module. `Ok(None)`: a loadable library without the C entry point.
/// `Err(Err(reason))`: the dynamic loader refused the file.
pub fn load(path: &Path) -> Result<Option<CModule>, Result<CModuleError, String>> {
    let lib = open_now(path).map_err(|e| match undefined_symbol(&e) {
        Some(symbol) => Ok(CModuleError::UndefinedSymbol { symbol, loader: e }),
        None => Err(e),
    })?;
    // SAFETY: the symbol is the C entry point of gamesman_plugin.h, whose type is
    // `EntryPoint`; a library exporting that name with another type breaks the
    // header's contract.
    let entry = match unsafe { lib.get::<EntryPoint>(abi::ENTRY_POINT) } {
        Ok(sym) => *sym,
        Err(_) => return Ok(None),
    };
    // Never unloaded: game objects and the metadata point into it.
    std::mem::forget(lib);
    exit::install_exit_report();
    // SAFETY: the entry point takes nothing and returns a pointer to a constant struct.
    let ptr = unsafe { entry() };
    read_module(ptr).map(Some).map_err(Ok)
}

/// Opens the library binding every symbol at once (RTLD_NOW on Unix): a C module
/// that calls a function nothing defines (a GamesmanClassic core function the layer
/// lacks, say) is refused here with the loader's message naming the symbol, instead of
/// ending the host (exit 127) at the first call.
fn open_now(path: &Path) -> Result<libloading::Library, String> {
    #[cfg(unix)]
    {
        use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
        // SAFETY: loading a library runs its initialisers; that is what loading a
        // module means, exactly as for Rust modules.
        unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }
            .map(libloading::Library::from)
            .map_err(|e| e.to_string())
    }
    #[cfg(not(unix))]
    {
        // SAFETY: as above (Windows resolves imports at load time anyway).
        unsafe { libloading::Library::new(path) }.map_err(|e| e.to_string())
    }
}

/// The name in a loader message "...: undefined symbol: NAME".
fn undefined_symbol(message: &str) -> Option<String> {
    let at = message.find("undefined symbol: ")? + "undefined symbol: ".len();
    let name: String = message[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Checks the struct at `ptr` (version, size, required functions, metadata).
fn read_module(ptr: *const CModuleStruct) -> Result<CModule, CModuleError> {
    if ptr.is_null() {
        return Err(CModuleError::NullStruct);
    }
    let mut header = [0u8; HEADER_SIZE];
    // SAFETY: every version of the struct starts with the 16-byte header.
    unsafe { std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), header.as_mut_ptr(), HEADER_SIZE) };
    let version = u32::from_ne_bytes(header[0..4].try_into().expect("4 bytes"));
    let size = u32::from_ne_bytes(header[4..8].try_into().expect("4 bytes"));
    if version != C_ABI_VERSION {
        return Err(CModuleError::AbiVersion {
            module: version,
            host: C_ABI_VERSION,
        });
    }
    if (size as usize) < V1_SIZE {
        return Err(CModuleError::TooSmall {
            size,
            version,
            needed: V1_SIZE,
        });
    }
    // A newer module's struct may be longer: the host reads the fields it knows. (An
    // older one of the same version, once the struct has grown, is shorter: the rest
    // of the zeroed copy stays NULL.)
    let mut table = std::mem::MaybeUninit::<CModuleStruct>::zeroed();
    let len = (size as usize).min(KNOWN_SIZE);
    // SAFETY: the module declares `size` readable bytes; all-zero is a valid
    // `CModuleStruct` (null pointers, `None` functions).
    let table = unsafe {
        std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), table.as_mut_ptr().cast::<u8>(), len);
        table.assume_init()
    };
    let mut missing = table.missing_required();
    missing.extend(table.missing_for_flags(table.flags));
    if !missing.is_empty() {
        return Err(CModuleError::MissingFunctions { functions: missing });
    }
    let name = text(table.name, "name")?.unwrap_or_default();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(CModuleError::BadMetadata(format!(
            "the name {name:?} is not a short name of letters, digits, '_' and '-'"
        )));
    }
    Ok(CModule {
        authors: text(table.authors, "authors")?.unwrap_or_default(),
        description: text(table.description, "description")?.unwrap_or_default(),
        variants: variants(&table)?,
        images: None,
        name,
        table,
    })
}

/// A metadata string (`None` for NULL), which must be UTF-8.
fn text(ptr: *const c_char, what: &str) -> Result<Option<String>, CModuleError> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: the header asks for NUL-terminated constant strings.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str()
        .map(|s| Some(s.to_string()))
        .map_err(|_| CModuleError::BadMetadata(format!("its {what} is not UTF-8")))
}

fn variants(table: &CModuleStruct) -> Result<Vec<(String, String)>, CModuleError> {
    if table.variant_count == 0 {
        return Ok(vec![("default".into(), "the only variant".into())]);
    }
    if table.variants.is_null() {
        return Err(CModuleError::BadMetadata(format!(
            "variant_count is {} but variants is NULL",
            table.variant_count
        )));
    }
    // SAFETY: the module declares `variant_count` entries at `variants`.
    let list: &[CVariant] =
        unsafe { std::slice::from_raw_parts(table.variants, table.variant_count as usize) };
    let mut out: Vec<(String, String)> = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let name = text(v.name, &format!("variant {i}'s name"))?.unwrap_or_default();
        if name.is_empty() || name.chars().any(char::is_whitespace) {
            return Err(CModuleError::BadMetadata(format!(
                "variant {i}'s name {name:?} is empty or has spaces"
            )));
        }
        if out.iter().any(|(n, _)| *n == name) {
            return Err(CModuleError::BadMetadata(format!(
                "variant name {name:?} appears twice"
            )));
        }
        let description = text(v.description, "a variant's description")?.unwrap_or_default();
        out.push((name, description));
    }
    Ok(out)
}

impl CModule {
    /// Opens a variant (a name from `variants`) as a game object.
    /// The variant gets its sidecar images when they fit its AutoGUI strings.
    pub fn open(&self, variant: &str) -> Result<CGame, OpenError> {
        let mut game = CGame::open(self.table, &self.name, variant)?;
        if let Some(images) = self.images.as_ref().and_then(|s| s.variant(variant)) {
            game.attach_images(images);
        }
        Ok(game)
    }
}

/// Why a variant of a C module could not be opened.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OpenError {
    /// `new_game` or `properties` failed, with the module's message.
    #[error("{0}")]
    Failed(String),
    /// The variant's flags need functions the module leaves NULL.
    #[error(transparent)]
    Module(#[from] CModuleError),
}

#[cfg(test)]
mod tests {
    use super::abi::*;

    #[test]
    fn the_loader_message_names_the_undefined_symbol() {
        assert_eq!(
            super::undefined_symbol("/x/libmdao.so: undefined symbol: generic_hash_init_sym"),
            Some("generic_hash_init_sym".to_string())
        );
        assert_eq!(
            super::undefined_symbol("/x/lib.so: invalid ELF header"),
            None
        );
    }

    #[test]
    fn version_1_struct_is_272_bytes() {
        // 16 header + 4 pointers + 4 u32 + 26 functions, as gamesman_plugin.h lays out
        // (the e2e tests compare every offset with a compiled header).
        assert_eq!(V1_SIZE, 16 + 4 * 8 + 4 * 4 + 26 * 8);
        // Header revision 2 appends two functions, revision 3 one.
        assert_eq!(KNOWN_SIZE, V1_SIZE + 3 * 8);
    }

    #[test]
    fn refusals_come_before_reading_functions() {
        let mut s: CModuleStruct = unsafe { std::mem::zeroed() };
        s.abi_version = 2;
        s.struct_size = V1_SIZE as u32;
        assert_eq!(
            super::read_module(&s).unwrap_err(),
            super::CModuleError::AbiVersion { module: 2, host: 1 }
        );
        s.abi_version = 1;
        s.struct_size = 100;
        assert_eq!(
            super::read_module(&s).unwrap_err(),
            super::CModuleError::TooSmall {
                size: 100,
                version: 1,
                needed: V1_SIZE
            }
        );
        s.struct_size = V1_SIZE as u32;
        match super::read_module(&s).unwrap_err() {
            super::CModuleError::MissingFunctions { functions } => {
                assert!(functions.contains(&"new_game"), "{functions:?}");
                assert!(functions.contains(&"tier_size"), "{functions:?}");
            }
            other => panic!("expected MissingFunctions, got {other:?}"),
        }
        assert_eq!(
            super::read_module(std::ptr::null()).unwrap_err(),
            super::CModuleError::NullStruct
        );
    }
}
