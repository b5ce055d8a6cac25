//! `host install-plugin PATH`: copies a module file into the user's plugin directory
//! (`$XDG_DATA_HOME/gamesman/plugins`) under the platform's file name for the module's
//! own name, so `--plugin NAME` finds it from anywhere. The file is loaded first (only
//! game modules are installed) and replaced atomically (a running host keeps its copy).

use super::CliError;
use crate::engine::load::data_dir::user_plugin_dir;
use crate::engine::load::loader;
use crate::engine::load::plugin_path::file_name;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// What `install-plugin` was asked.
#[derive(Clone, Debug)]
pub struct InstallArgs {
    /// The module file.
    pub path: PathBuf,
    /// The directory to install into (default: the user plugin directory).
    pub dir: Option<PathBuf>,
    /// Replace a module already installed under the same name.
    pub force: bool,
}

/// Installs the module; returns where it went and a line for the user.
pub fn install(args: &InstallArgs) -> anyhow::Result<(PathBuf, String)> {
    let module = loader::load(
        args.path
            .to_str()
            .context("the module's path is not valid UTF-8")?,
    )?;
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => user_plugin_dir().context(
            "there is no per-user data directory (HOME is not set): pass --dir DIRECTORY",
        )?,
    };
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("creating the plugin directory {}", dir.display()))?;
    let dest = dir.join(file_name(module.name()));
    let same = dest
        .canonicalize()
        .ok()
        .zip(module.path.canonicalize().ok())
        .is_some_and(|(a, b)| a == b);
    if same {
        return Ok((
            dest.clone(),
            format!(
                "{} is already installed at {}",
                module.name(),
                dest.display()
            ),
        ));
    }
    if dest.exists() && !args.force {
        return Err(CliError::Usage(format!(
            "a module named {} is already installed at {}: pass --force to replace it",
            module.name(),
            dest.display()
        ))
        .into());
    }
    copy_atomically(&module.path, &dest)?;
    let variants = module.variant_names();
    Ok((
        dest.clone(),
        format!(
            "installed {} ({} variant{}) to {}; use it with --plugin {}",
            module.name(),
            variants.len(),
            if variants.len() == 1 { "" } else { "s" },
            dest.display(),
            module.name()
        ),
    ))
}

/// Copies `from` to a temporary name beside `to`, then renames it over `to`.
fn copy_atomically(from: &Path, to: &Path) -> anyhow::Result<()> {
    let tmp = to.with_extension(format!("tmp{}", std::process::id()));
    std::fs::copy(from, &tmp)
        .with_context(|| format!("copying {} to {}", from.display(), tmp.display()))?;
    std::fs::rename(&tmp, to).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::Error::from(e).context(format!("moving the copy into place at {}", to.display()))
    })
}

/// Runs `install-plugin`.
pub fn run(args: &InstallArgs, json: bool) -> anyhow::Result<()> {
    let (dest, words) = install(args)?;
    if json {
        outln!(
            "{}",
            serde_json::json!({"installed": dest.display().to_string(), "message": words})
        )?;
    } else {
        outln!("{words}")?;
    }
    Ok(())
}
