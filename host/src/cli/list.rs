//! `host list`: the plugin search path in order, and every module file found on it,
//! where, with its variants (or why it does not load), as text or JSON. A file that
//! an earlier directory's file of the same name hides is marked as shadowed.

use crate::engine::load::loader;
use crate::engine::load::plugin_path::{find_all, search_dirs, Found};
use serde::Serialize;
use std::fmt::Write as _;

/// A directory of the search path in the listing.
#[derive(Clone, Debug, Serialize)]
pub struct ListedDir {
    /// The directory.
    pub dir: String,
    /// Why it is searched: plugin_path, user_dir or beside_host.
    pub origin: crate::engine::load::plugin_path::Origin,
    /// Whether it exists.
    pub exists: bool,
}

/// A module file in the listing.
#[derive(Clone, Debug, Serialize)]
pub struct ListedModule {
    /// The name `--plugin` takes (from the file name).
    pub name: String,
    /// The file.
    pub path: String,
    /// Which directory of the search path holds it.
    pub origin: crate::engine::load::plugin_path::Origin,
    /// The file a bare name finds instead, when this one is hidden.
    pub shadowed_by: Option<String>,
    /// The module's own name (from its metadata), when it loads.
    pub module: Option<String>,
    /// Its one-line description, when it loads.
    pub description: Option<String>,
    /// Its variants, default first, when it loads.
    pub variants: Vec<String>,
    /// Why it does not load, when it does not.
    pub error: Option<String>,
}

/// The whole listing.
#[derive(Clone, Debug, Serialize)]
pub struct Listing {
    /// The search path, in order.
    pub search_path: Vec<ListedDir>,
    /// The module files found, in search order.
    pub modules: Vec<ListedModule>,
}

fn listed(f: Found) -> ListedModule {
    let (module, description, variants, error) = match loader::load_path(&f.path) {
        Ok(m) => (
            Some(m.name().to_string()),
            Some(
                m.info
                    .description
                    .as_str()
                    .split(". ")
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('.')
                    .to_string(),
            ),
            m.variant_names(),
            None,
        ),
        Err(e) => (None, None, Vec::new(), Some(e.to_string())),
    };
    ListedModule {
        name: f.name,
        path: f.path.display().to_string(),
        origin: f.origin,
        shadowed_by: f.shadowed_by.map(|p| p.display().to_string()),
        module,
        description,
        variants,
        error,
    }
}

/// Finds and loads every module on the search path.
pub fn listing() -> Listing {
    Listing {
        search_path: search_dirs()
            .into_iter()
            .map(|d| ListedDir {
                exists: d.dir.is_dir(),
                dir: d.dir.display().to_string(),
                origin: d.origin,
            })
            .collect(),
        modules: find_all().into_iter().map(listed).collect(),
    }
}

/// The listing as text for people.
pub fn text(l: &Listing) -> String {
    let mut out =
        String::from("Plugin search path (a bare --plugin name is looked for in this order):\n");
    for (i, d) in l.search_path.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {}  ({}{})",
            i + 1,
            d.dir,
            d.origin.words(),
            if d.exists { "" } else { "; does not exist" }
        );
    }
    if l.modules.is_empty() {
        out.push_str("No modules found. Build them (cargo build --release --workspace) or install one with `host install-plugin PATH`.\n");
        return out;
    }
    out.push_str("Modules found:\n");
    for m in &l.modules {
        let _ = writeln!(out, "  {}  {}  ({})", m.name, m.path, m.origin.words());
        let pad = "      ";
        if let Some(by) = &m.shadowed_by {
            let _ = writeln!(out, "{pad}shadowed: --plugin {} finds {by}", m.name);
        }
        match &m.error {
            Some(e) => {
                let _ = writeln!(out, "{pad}does not load: {e}");
            }
            None => {
                if let Some(d) = m.description.as_deref().filter(|d| !d.is_empty()) {
                    let _ = writeln!(out, "{pad}{d}");
                }
                if m.module.as_deref().is_some_and(|n| n != m.name) {
                    let _ = writeln!(
                        out,
                        "{pad}module name: {}",
                        m.module.as_deref().unwrap_or_default()
                    );
                }
                let _ = writeln!(out, "{pad}variants: {}", variant_words(&m.variants));
            }
        }
    }
    out
}

/// Variants shown in the text listing before the rest are only counted.
const SHOWN_VARIANTS: usize = 12;

/// `regular (default), symmetric`; long lists end with how many there are in all.
fn variant_words(variants: &[String]) -> String {
    let mut names: Vec<String> = variants.iter().take(SHOWN_VARIANTS).cloned().collect();
    if let Some(first) = names.first_mut() {
        first.push_str(" (default)");
    }
    let mut out = names.join(", ");
    if variants.len() > SHOWN_VARIANTS {
        out.push_str(&format!(
            ", ... ({} in all; --json lists every one)",
            variants.len()
        ));
    }
    out
}

/// Runs `list`.
pub fn run(json: bool) -> anyhow::Result<()> {
    let l = listing();
    if json {
        outln!("{}", serde_json::to_string_pretty(&l)?)?;
    } else {
        out!("{}", text(&l))?;
    }
    Ok(())
}
