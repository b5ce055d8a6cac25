//! `host serve`: loads the modules given (or every one on the plugin search path) and
//! serves their solved databases read-only over HTTP (`crate::serve`). It must not
//! solve or write anything.

use super::{CliError, DbChoice};
use crate::engine::load::loader::{self, Module};
use crate::serve::{self, cache::Budget, catalog::Catalog, ServeOptions};

/// What `serve` was asked to do.
#[derive(Clone, Debug)]
pub struct ServeArgs {
    /// `--plugin` as given, any number of times (none: every module found).
    pub plugins: Vec<String>,
    /// Whether `--variant` was given (serve offers every variant, so it is refused).
    pub variant_given: bool,
    /// The address to listen on.
    pub addr: String,
    /// Memory for tiers kept whole, in MiB, shared by all variants.
    pub cache_mb: u64,
    /// Connections and their timeouts.
    pub conn: serve::conn::ConnLimits,
    /// What one request may cost.
    pub limits: serve::Limits,
    /// A GamesmanUni build to serve under `/uni/`.
    pub gamesmanuni: Option<std::path::PathBuf>,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(choice: &DbChoice, args: &ServeArgs) -> anyhow::Result<()> {
    if args.variant_given {
        return Err(CliError::Usage(
            "serve offers every variant of each module; drop --variant".into(),
        )
        .into());
    }
    let modules: Vec<Module> = if args.plugins.is_empty() {
        let found = loader::discover();
        log::info!(
            "no --plugin given: serving the {} modules found on the plugin search path",
            found.len()
        );
        found
    } else {
        args.plugins
            .iter()
            .map(|spec| loader::load(spec))
            .collect::<Result<_, _>>()?
    };
    let uni = match &args.gamesmanuni {
        Some(dir) => Some(serve::uni::check_dir(dir).map_err(|e| CliError::Usage(e.to_string()))?),
        None => None,
    };
    let budget = Budget::new(args.cache_mb.saturating_mul(1 << 20));
    let catalog = Catalog::open(&modules, &choice.resource, choice.cache.as_deref(), budget)?;
    let options = ServeOptions {
        addr: args.addr.clone(),
        conn: args.conn,
        limits: args.limits,
        gamesmanuni: uni,
    };
    serve::run(catalog, &options)?;
    Ok(())
}
