//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to the library. Errors end here as one paragraph on stderr and a non-zero exit code,
//! never a panic backtrace.

use anyhow::Context;
use clap::{Parser, Subcommand};
use gamesman_host::db::{self, GameKey};
use gamesman_host::solver::{self, SolveOptions};
use gamesman_host::{info, loader, outcome, progress, GameHandle};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "host",
    version,
    about = "Strongly solve games from plugin modules, store per-tier databases, and play them perfectly"
)]
struct Cli {
    /// The game module: a path to a .so file, or a bare name (mtttier) looked up next to this binary.
    #[arg(long, short = 'p', global = true)]
    plugin: Option<String>,
    /// The variant to open (default: the module's first).
    #[arg(long, global = true)]
    variant: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the module's metadata and the variant's properties.
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve every tier reachable from the initial position and store the databases.
    Solve {
        /// Where to store: file:DIRECTORY or memory:.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Solve every tier again, even those already stored.
        #[arg(long)]
        force: bool,
    },
}

fn game_key(game: &GameHandle) -> GameKey {
    GameKey {
        game: game.module_name().to_string(),
        variant: game.variant().to_string(),
        winby: game.supports_winby(),
    }
}

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        anyhow::ensure!(n > 0, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("setting up the worker threads")?;
    }
    Ok(())
}

fn solve(
    game: &GameHandle,
    resource: &str,
    threads: Option<usize>,
    force: bool,
) -> anyhow::Result<()> {
    set_threads(threads)?;
    let db = db::open(resource, &game_key(game))?;
    log::info!(
        "solving {} ({}) into {} with {} threads",
        game.module_name(),
        game.variant(),
        db.describe(),
        rayon::current_num_threads()
    );
    let progress = progress::for_stderr();
    let report = solver::solve(
        game,
        db.as_ref(),
        &SolveOptions { force },
        progress.as_ref(),
    )?;
    let secs = report.elapsed.as_secs_f64();
    println!(
        "solved {} ({}): {} tiers ({} solved now, {} already stored), {} positions solved in {:.2}s ({} positions/s)",
        game.module_name(),
        game.variant(),
        report.tiers,
        report.tiers_solved,
        report.tiers_reused,
        report.positions_solved,
        secs,
        progress::human(report.positions_solved as f64 / secs.max(1e-9))
    );
    println!(
        "initial position {}: {}",
        game.position_to_text(report.initial)?,
        outcome::describe(
            &report.initial_record,
            game.properties().players,
            game.supports_winby()
        )
    );
    Ok(())
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let spec = cli.plugin.as_deref().context(
        "no game module given: pass --plugin NAME_OR_PATH (for example --plugin mtttier)",
    )?;
    let module = loader::load(spec)?;
    let game = module.open(cli.variant.as_deref())?;
    match cli.command {
        Command::Info { json } => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&info::info_json(&module, &game)?)?
                );
            } else {
                print!("{}", info::info_text(&module, &game)?);
            }
        }
        Command::Solve { db, threads, force } => solve(&game, &db, threads, force)?,
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
