//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to the library. Errors end here as one paragraph on stderr and a non-zero exit code,
//! never a panic backtrace.

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use gamesman_host::db::{self, Database, GameKey, LockWait};
use gamesman_host::play::{self, PlayOptions, Side};
use gamesman_host::solver::parents::ParentMode;
use gamesman_host::solver::verify::VerifyMode;
use gamesman_host::solver::{self, SolveOptions};
use gamesman_host::{
    analyze, info, loader, messages, outcome, plot, progress, prompt, query, serve, threads,
    GameHandle,
};
use std::io::{IsTerminal, Write};
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
    /// The game module: a path to a .so file, or a bare name (mtttier) looked up next to this binary. `serve` takes any number (none: every module found there).
    #[arg(long, short = 'p', global = true)]
    plugin: Vec<String>,
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
        /// Also say what this database holds for the variant (full or reachable-only,
        /// tiers and positions stored): file:DIRECTORY.
        #[arg(long)]
        db: Option<String>,
    },
    /// Solve every tier reachable from the initial position and store the databases.
    Solve {
        /// Where to store: file:DIRECTORY or memory:.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Worker threads (default: one per core; at most 4 per core, see --help).
        #[arg(long, value_parser = threads::parse_arg)]
        threads: Option<usize>,
        /// Solve every tier again, even those already stored.
        #[arg(long)]
        force: bool,
        /// Where parents come from: the module's undo moves when it gives them (auto),
        /// or a reverse graph built by expanding each tier forward (forward; needs more
        /// memory, and checks a module's undo moves by comparison).
        #[arg(long, value_enum, default_value_t = ParentsArg::Auto)]
        parents: ParentsArg,
        /// Fail at once if another solve is writing the same database (default: wait
        /// for it to finish).
        #[arg(long)]
        no_wait: bool,
        /// Memory the solve may use (512M, 8G, ...) instead of what the machine reports
        /// available; a solve whose estimated peak is larger is refused before it starts.
        #[arg(long, value_name = "SIZE", value_parser = solver::memory::parse_size)]
        memory_limit: Option<u64>,
        /// Solve even when the estimated peak memory exceeds what is available.
        #[arg(long)]
        ignore_memory_check: bool,
        /// Check each solved tier against its children before storing it: sample
        /// (small tiers whole, a share of large ones), full, or off.
        #[arg(long, default_value_t = VerifyMode::Sample)]
        verify: VerifyMode,
        /// Seed of the positions `--verify sample` checks.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Solve only the positions that can occur in a game from the initial
        /// position (marked first by a forward search), and store the database
        /// reachable-only: queries of other positions say they cannot occur.
        #[arg(long)]
        reachable: bool,
    },
    /// Check every record of a stored database against the module (for a database
    /// copied from elsewhere): each must follow from its children's records.
    Verify {
        /// The database: file:DIRECTORY.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
    },
    /// Play the game in text: human or perfect computer on each side.
    ///
    /// Commands at the prompt: a move, ps (or values), hint, undo, w, help, quit. On a
    /// terminal the prompt has line editing, history (up and down arrows, Ctrl-R) and
    /// Tab completion of the legal moves and commands. When stdin is not a terminal,
    /// commands are read line by line (scripts, tests) and echoed after the prompt.
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
        /// The computer plays "false hope": among its winning moves, one that wins by
        /// the smallest margin that still wins (WinBy games).
        #[arg(long)]
        false_hope: bool,
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
    /// Serve solved games in a web browser: a JSON API in GamesmanUni's shapes under
    /// /api/ and a board page at /, for every variant of every module given.
    ///
    /// Give --plugin once per module (none: every module next to this binary). Each
    /// variant's database is read from --db (read-only); one not solved there is listed
    /// as unsolved. Stops on Ctrl-C or SIGTERM.
    Serve {
        /// Where the solved databases are: file:DIRECTORY.
        #[arg(long, default_value = db::DEFAULT_RESOURCE)]
        db: String,
        /// Address to listen on (loopback only by default; 0.0.0.0:PORT is reachable
        /// from other machines; port 0 picks a free port).
        #[arg(long, default_value = serve::DEFAULT_ADDR)]
        addr: String,
        /// Memory for tiers kept whole after their first lookup, in MiB, shared by all
        /// variants (0: look every record up in the files).
        #[arg(long, default_value_t = 1024)]
        cache_mb: u64,
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

/// `println!` that returns the write's error instead of panicking, so a closed
/// stdout (`host query | head -1`) ends the program quietly (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)
    };
}

/// `print!` that returns the write's error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        write!(std::io::stdout().lock(), $($arg)*)
    };
}

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    threads::configure(threads).map_err(anyhow::Error::msg)?;
    Ok(())
}

fn solve(
    game: &GameHandle,
    resource: &str,
    threads: Option<usize>,
    wait: LockWait,
    options: &SolveOptions,
    reachable: bool,
) -> anyhow::Result<()> {
    set_threads(threads)?;
    // The only writer, and a writable place, before any work.
    let db = db::open_for_writing(resource, &game_key(game), wait)?;
    let n = rayon::current_num_threads();
    log::info!(
        "solving {} ({}) into {} with {n} thread{}, verifying each tier: {}",
        game.module_name(),
        game.variant(),
        db.describe(),
        if n == 1 { "" } else { "s" },
        options.verify
    );
    let progress = progress::for_stderr();
    if reachable {
        let r = solver::reachable::solve_reachable(game, db.as_ref(), options, progress.as_ref())?;
        let report = &r.solve;
        let secs = report.elapsed.as_secs_f64();
        outln!(
            "solved {} ({}) reachable-only: {} tiers ({} solved now, {} already stored), {} positions reachable from the start of {} in all tiers, {} solved in {:.2}s (marking {:.2}s)",
            game.module_name(),
            game.variant(),
            report.tiers,
            report.tiers_solved,
            report.tiers_reused,
            r.reachable,
            r.positions_in_tiers,
            report.positions_solved,
            secs,
            r.marking.as_secs_f64()
        )?;
        outln!(
            "initial position {}: {}",
            game.position_to_text(report.initial)?,
            outcome::describe(
                &report.initial_record,
                game.properties().players,
                game.supports_winby()
            )
        )?;
        return Ok(());
    }
    let report = solver::solve(game, db.as_ref(), options, progress.as_ref())?;
    let secs = report.elapsed.as_secs_f64();
    outln!(
        "solved {} ({}): {} tiers ({} solved now, {} already stored), {} positions solved in {:.2}s ({} positions/s)",
        game.module_name(),
        game.variant(),
        report.tiers,
        report.tiers_solved,
        report.tiers_reused,
        report.positions_solved,
        secs,
        progress::human(report.positions_solved as f64 / secs.max(1e-9))
    )?;
    outln!(
        "initial position {}: {}",
        game.position_to_text(report.initial)?,
        outcome::describe(
            &report.initial_record,
            game.properties().players,
            game.supports_winby()
        )
    )?;
    Ok(())
}

/// `host verify`: checks a stored database in full and prints a summary.
fn verify_db(game: &GameHandle, resource: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        !resource.starts_with("memory"),
        "verify checks a stored database; memory: holds nothing (use --db file:DIRECTORY)"
    );
    let db = db::open(resource, &game_key(game))?;
    let progress = progress::verify_for_stderr();
    let report = gamesman_host::verify_db::verify_database(game, db.as_ref(), progress.as_ref())?;
    outln!(
        "verified {} ({}) in {}: {} tiers, {} positions, every record follows from its children ({:.2}s)",
        game.module_name(),
        game.variant(),
        db.describe(),
        report.tiers,
        report.positions,
        report.elapsed.as_secs_f64()
    )?;
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

/// `host serve`: every module given, or every one found next to the binary.
fn serve_command(cli: &Cli, db: &str, addr: &str, cache_mb: u64) -> anyhow::Result<()> {
    anyhow::ensure!(
        cli.variant.is_none(),
        "serve offers every variant of each module; drop --variant"
    );
    let modules = if cli.plugin.is_empty() {
        let found = loader::discover();
        log::info!(
            "no --plugin given: serving the {} modules found next to the host binary",
            found.len()
        );
        found
    } else {
        cli.plugin
            .iter()
            .map(|spec| loader::load(spec))
            .collect::<Result<Vec<_>, _>>()?
    };
    let budget = serve::cache::Budget::new(cache_mb.saturating_mul(1 << 20));
    let catalog = serve::catalog::Catalog::open(&modules, db, budget)?;
    let options = serve::ServeOptions {
        addr: addr.to_string(),
    };
    serve::run(catalog, &options)?;
    Ok(())
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if let Command::Serve { db, addr, cache_mb } = &cli.command {
        return serve_command(&cli, db, addr, *cache_mb);
    }
    let spec = match cli.plugin.as_slice() {
        [] => anyhow::bail!(
            "no game module given: pass --plugin NAME_OR_PATH (for example --plugin mtttier)"
        ),
        [one] => one.as_str(),
        more => anyhow::bail!(
            "--plugin is given {} times; only serve takes several modules",
            more.len()
        ),
    };
    let module = loader::load(spec)?;
    let game = module.open(cli.variant.as_deref())?;
    match cli.command {
        Command::Info { json, db } => {
            let database = match db {
                Some(resource) => {
                    let db = db::open(&resource, &game_key(&game))?;
                    Some(info::database_info(&game, db.as_ref())?)
                }
                None => None,
            };
            if json {
                let mut v = info::info_json(&module, &game)?;
                if let Some(d) = &database {
                    v["database"] = serde_json::to_value(d)?;
                }
                outln!("{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                out!("{}", info::info_text(&module, &game)?)?;
                if let Some(d) = &database {
                    out!("{}", info::database_text(d))?;
                }
            }
        }
        Command::Solve {
            db,
            threads,
            force,
            parents,
            no_wait,
            memory_limit,
            ignore_memory_check,
            verify,
            seed,
            reachable,
        } => {
            let wait = if no_wait {
                LockWait::NoWait
            } else {
                LockWait::Wait
            };
            let options = SolveOptions {
                force,
                parents: parents.into(),
                memory: solver::memory::MemoryCheck {
                    limit: memory_limit,
                    ignore: ignore_memory_check,
                    reverse_graph: false,
                },
                verify,
                seed,
            };
            solve(&game, &db, threads, wait, &options, reachable)?
        }
        Command::Verify { db } => verify_db(&game, &db)?,
        Command::Play {
            db,
            first,
            second,
            seed,
            remoteness,
            false_hope,
            depth,
        } => {
            let db = solved_db(&game, &db)?;
            let stdin = std::io::stdin();
            let options = PlayOptions {
                sides: [first.into(), second.into()],
                seed,
                winby: !remoteness,
                false_hope,
                echo: !stdin.is_terminal(),
                depth,
            };
            let out = std::io::stdout();
            if stdin.is_terminal() && out.is_terminal() {
                // A person at a terminal: line editing, history and Tab completion.
                let mut editor = prompt::Editor::new().context("setting up the terminal")?;
                play::play_with(&game, db.as_ref(), &options, &mut editor, out.lock())?;
            } else {
                play::play(&game, db.as_ref(), &options, stdin.lock(), out.lock())?;
            }
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
                outln!(
                    "search to depth {depth}: best move {best}, {verdict} ({} positions)",
                    r.nodes
                )?;
            }
            let ranking = query::query(&game, db.as_ref(), p)?;
            let solution = query::shortest_solution(&game, db.as_ref(), p)?;
            if json {
                let mut report = query::report(&game, &ranking)?;
                report.solution = solution;
                outln!("{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                out!("{}", query::text(&game, &ranking)?)?;
                if let Some(line) = solution {
                    outln!(
                        "shortest solution ({} moves): {}",
                        line.len(),
                        line.join(" ")
                    )?;
                }
            }
        }
        Command::Serve { .. } => unreachable!("served above"),
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
                outln!("{}", serde_json::to_string_pretty(&analysis)?)?;
            } else {
                out!("{}", analyze::text(&analysis))?;
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = Cli::parse();
    match run(cli).and_then(|()| Ok(std::io::stdout().flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): it has what it wanted.
        Err(e) if messages::is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            // Ignored: with stderr closed too there is no one left to tell.
            let _ = writeln!(
                std::io::stderr(),
                "error: {}",
                messages::error_paragraph(e.as_ref())
            );
            ExitCode::FAILURE
        }
    }
}
