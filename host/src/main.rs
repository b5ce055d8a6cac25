//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to the library. Errors end here as one paragraph on stderr and a non-zero exit code,
//! never a panic backtrace.

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use gamesman_host::db::{self, Database, GameKey};
use gamesman_host::play::{self, PlayOptions, Side};
use gamesman_host::solver::parents::ParentMode;
use gamesman_host::solver::{self, SolveOptions};
use gamesman_host::{analyze, info, loader, outcome, plot, progress, query, GameHandle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
        /// Where parents come from: the module's undo moves when it gives them (auto),
        /// or a reverse graph built by expanding each tier forward (forward; needs more
        /// memory, and checks a module's undo moves by comparison).
        #[arg(long, value_enum, default_value_t = ParentsArg::Auto)]
        parents: ParentsArg,
    },
    /// Play the game in text: human or perfect computer on each side.
    ///
    /// Commands at the prompt: a move, ps (or values), hint, undo, w, help, quit. When
    /// stdin is not a terminal, commands are read line by line (scripts, tests).
    Play {
        /// The solved database: file:DIRECTORY, or memory: to solve first in this process.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Who plays first (player 1).
        #[arg(long, value_enum, default_value_t = SideArg::Human)]
        first: SideArg,
        /// Who plays second (player 2; ignored for puzzles).
        #[arg(long, value_enum, default_value_t = SideArg::Computer)]
        second: SideArg,
        /// Seed for the computer's choices among equally good moves (reproducible games).
        #[arg(long)]
        seed: Option<u64>,
        /// Start with the computer playing by remoteness instead of WinBy.
        #[arg(long)]
        remoteness: bool,
        /// At positions the database does not cover, the computer searches this many
        /// plies (alpha-beta; leaves scored by the database, else the module's score).
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Show a position's value and every move's value, best first.
    Query {
        /// The solved database: file:DIRECTORY, or memory: to solve first in this process.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also search this many plies with alpha-beta (for positions the database
        /// does not cover; leaves are scored by the database, else the module's score).
        #[arg(long)]
        depth: Option<u32>,
        /// The position in the module's text form (default: the initial position).
        // Board texts often start with '-' (an empty cell), which is not an option.
        #[arg(allow_hyphen_values = true)]
        position: Option<String>,
    },
    /// Count positions by value and remoteness, per tier, legal and reachable.
    Analyze {
        /// The solved database: file:DIRECTORY, or memory: to solve first in this process.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also draw the value-by-remoteness histogram to this .svg or .png file.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

/// How the solver finds parents, as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ParentsArg {
    Auto,
    Forward,
    UndoMoves,
}

impl From<ParentsArg> for ParentMode {
    fn from(p: ParentsArg) -> ParentMode {
        match p {
            ParentsArg::Auto => ParentMode::Auto,
            ParentsArg::Forward => ParentMode::Forward,
            ParentsArg::UndoMoves => ParentMode::UndoMoves,
        }
    }
}

/// Who plays a side, as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum SideArg {
    Human,
    Computer,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::Human => Side::Human,
            SideArg::Computer => Side::Computer,
        }
    }
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
    api_version: &str,
    resource: &str,
    threads: Option<usize>,
    options: &SolveOptions,
) -> anyhow::Result<()> {
    set_threads(threads)?;
    #[cfg(feature = "mpi")]
    if gamesman_host::mpi::launched() {
        use gamesman_host::mpi::RankOutcome;
        return match gamesman_host::mpi::solve(game, api_version, resource, options)? {
            RankOutcome::Manager(report) => print_report(game, &report),
            RankOutcome::Worker => Ok(()),
        };
    }
    #[cfg(not(feature = "mpi"))]
    if let Some(n) = gamesman_host::mpi::launcher_tasks().filter(|&n| n > 1) {
        anyhow::bail!(
            "this host was started as one of {n} processes (by mpirun or srun), but it is built without MPI, so each copy would solve everything into the same directory: build host-mpi (cargo build --release -p host --features mpi --bin host-mpi) and start that, or run host as one process"
        );
    }
    let _ = api_version;
    let db = db::open(resource, &game_key(game))?;
    let n = rayon::current_num_threads();
    log::info!(
        "solving {} ({}) into {} with {n} thread{}",
        game.module_name(),
        game.variant(),
        db.describe(),
        if n == 1 { "" } else { "s" }
    );
    let progress = progress::for_stderr();
    let report = solver::solve(game, db.as_ref(), options, progress.as_ref())?;
    print_report(game, &report)
}

fn print_report(game: &GameHandle, report: &solver::SolveReport) -> anyhow::Result<()> {
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

/// Opens the database for play, query and analyze. A `memory:` database starts
/// empty, so the game is solved into it first, in this process.
fn solved_db(game: &GameHandle, resource: &str) -> anyhow::Result<Arc<dyn Database>> {
    let db = db::open(resource, &game_key(game))?;
    if resource.starts_with("memory") {
        log::info!(
            "solving {} ({}) in memory first",
            game.module_name(),
            game.variant()
        );
        let progress = progress::for_stderr();
        solver::solve(
            game,
            db.as_ref(),
            &SolveOptions::default(),
            progress.as_ref(),
        )?;
    } else if db.stored_tiers()?.is_empty() {
        log::warn!(
            "{} holds no solved tiers: every position is unsolved (run `host --plugin {} solve --db {resource}` first)",
            db.describe(),
            game.module_name()
        );
    }
    Ok(db)
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
        Command::Solve {
            db,
            threads,
            force,
            parents,
        } => solve(
            &game,
            module.info.api_version.as_str(),
            &db,
            threads,
            &SolveOptions {
                force,
                parents: parents.into(),
            },
        )?,
        Command::Play {
            db,
            first,
            second,
            seed,
            remoteness,
            depth,
        } => {
            let db = solved_db(&game, &db)?;
            let stdin = std::io::stdin();
            let options = PlayOptions {
                sides: [first.into(), second.into()],
                seed,
                winby: !remoteness,
                echo: !stdin.is_terminal(),
                depth,
            };
            play::play(
                &game,
                db.as_ref(),
                &options,
                stdin.lock(),
                std::io::stdout().lock(),
            )?;
        }
        Command::Query {
            db,
            json,
            depth,
            position,
        } => {
            // Parse first: a typo should not wait for a solve.
            let p = query::parse_position(&game, position.as_deref())?;
            let db = solved_db(&game, &db)?;
            if let Some(depth) = depth {
                let r = gamesman_host::search::search(&game, Some(db.as_ref()), p, depth)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let best = match r.best {
                    Some(m) => game.move_to_text(p, m)?,
                    None => "none".to_string(),
                };
                let verdict = match r.plies_to_end() {
                    Some(n) if r.score > 0 => format!("forced win in {n} plies"),
                    Some(n) => format!("forced loss in {n} plies"),
                    None => format!("score {} for the player to move", r.score),
                };
                println!(
                    "search to depth {depth}: best move {best}, {verdict} ({} positions)",
                    r.nodes
                );
            }
            let ranking = query::query(&game, db.as_ref(), p)?;
            let solution = query::shortest_solution(&game, db.as_ref(), p)?;
            if json {
                let mut report = query::report(&game, &ranking)?;
                report.solution = solution;
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", query::text(&game, &ranking)?);
                if let Some(line) = solution {
                    println!(
                        "shortest solution ({} moves): {}",
                        line.len(),
                        line.join(" ")
                    );
                }
            }
        }
        Command::Analyze { db, json, plot } => {
            if let Some(path) = &plot {
                plot::check_path(path)?;
            }
            let db = solved_db(&game, &db)?;
            let analysis = analyze::analyze(&game, db.as_ref())?;
            if let Some(path) = &plot {
                plot::plot(&analysis, path)?;
                log::info!("wrote the histogram to {}", path.display());
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&analysis)?);
            } else {
                print!("{}", analyze::text(&analysis));
            }
        }
    }
    Ok(())
}

pub fn main() -> ExitCode {
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
