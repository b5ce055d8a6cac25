//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to its front end in the library (`gamesman_host::cli`). Errors end here as one
//! paragraph on stderr (or a JSON object with `--json`) and the exit code
//! `cli::exit` assigns, never a panic backtrace.

use anyhow::Context;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use gamesman_host::cli::analyze::AnalyzeArgs;
use gamesman_host::cli::install::InstallArgs;
use gamesman_host::cli::play::PlayArgs;
use gamesman_host::cli::query::QueryArgs;
use gamesman_host::cli::solve::SolveArgs;
use gamesman_host::cli::{self, exit, help, DbChoice, Invocation};
use gamesman_host::play::{PlayOptions, Side};
use gamesman_host::{info, loader};
use std::path::PathBuf;
use std::process::ExitCode;

/// The help of every `--db`.
const DB_HELP: &str = "The database: file:DIRECTORY, a directory, or memory: (default: $GAMESMAN_DB, else the per-user data directory, ~/.local/share/gamesman)";

#[derive(Parser)]
#[command(
    name = "host",
    version,
    about = "Strongly solve games from plugin modules, store per-tier databases, and play them perfectly",
    after_help = help::MAIN
)]
struct Cli {
    /// The game module: a path to its library file, or a bare name (mtttier) looked up in
    /// $GAMESMAN_PLUGIN_PATH, the user plugin directory, then next to this binary.
    #[arg(long, short = 'p', global = true, value_name = "NAME_OR_PATH")]
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
    #[command(after_help = help::INFO)]
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve every tier reachable from the initial position and store the databases.
    #[command(after_help = help::SOLVE)]
    Solve {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Solve every tier again, even those already stored.
        #[arg(long)]
        force: bool,
        /// Print one JSON summary object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play the game in text: human or perfect computer on each side.
    ///
    /// Commands at the prompt: a move, ps (or values), hint, undo, w, help, quit. When
    /// stdin is not a terminal, commands are read line by line (scripts, tests).
    #[command(after_help = help::PLAY)]
    Play {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
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
        /// Write a JSON line per move (and a start and an end object) on stdout; the
        /// board and prompts go to stderr.
        #[arg(long)]
        json: bool,
    },
    /// Show a position's value and every move's value, best first.
    #[command(after_help = help::QUERY)]
    Query {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
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
    #[command(after_help = help::ANALYZE)]
    Analyze {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Also draw the charts to this .svg or .png file: positions by value and
        /// remoteness (draws as their own bar) and, for WinBy games, by margin.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// Draw the counts on a logarithmic axis (small counts stay visible).
        #[arg(long, requires = "plot")]
        log_scale: bool,
    },
    /// List the plugin search path and every module found on it, with its variants.
    #[command(after_help = help::LIST)]
    List {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Copy a module file into the user plugin directory, where --plugin NAME finds it.
    #[command(after_help = help::INSTALL_PLUGIN)]
    InstallPlugin {
        /// The module's library file (for example target/release/libmygame.so).
        path: PathBuf,
        /// Install into this directory instead (put it in GAMESMAN_PLUGIN_PATH).
        #[arg(long, value_name = "DIRECTORY")]
        dir: Option<PathBuf>,
        /// Replace a module already installed under the same name.
        #[arg(long)]
        force: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script.
    #[command(after_help = help::COMPLETIONS)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    #[command(after_help = help::MAN)]
    Man,
}

impl Command {
    /// Whether output (and so errors) should be JSON.
    fn json(&self) -> bool {
        match self {
            Command::Info { json }
            | Command::Solve { json, .. }
            | Command::Play { json, .. }
            | Command::Query { json, .. }
            | Command::Analyze { json, .. }
            | Command::List { json }
            | Command::InstallPlugin { json, .. } => *json,
            Command::Completions { .. } | Command::Man => false,
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

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(cli::CliError::Usage("--threads must be at least 1".into()).into());
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("setting up the worker threads")?;
    }
    Ok(())
}

fn run(cli: Cli) -> anyhow::Result<()> {
    // Commands that need no module.
    match &cli.command {
        Command::List { json } => return cli::list::run(*json),
        Command::InstallPlugin {
            path,
            dir,
            force,
            json,
        } => {
            let args = InstallArgs {
                path: path.clone(),
                dir: dir.clone(),
                force: *force,
            };
            return cli::install::run(&args, *json);
        }
        Command::Completions { shell } => {
            return cli::docs::completions(*shell, Cli::command(), &mut std::io::stdout())
        }
        Command::Man => return cli::docs::man(Cli::command(), &mut std::io::stdout()),
        _ => {}
    }
    let inv = Invocation::new(cli.plugin.as_deref())?;
    let module = loader::load(&inv.plugin)?;
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
            json,
        } => {
            set_threads(threads)?;
            let choice = DbChoice::resolve(db.as_deref())?;
            cli::solve::run(&game, &choice, &SolveArgs { force, json })?;
        }
        Command::Play {
            db,
            first,
            second,
            seed,
            remoteness,
            depth,
            json,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?;
            let options = PlayOptions {
                sides: [first.into(), second.into()],
                seed,
                winby: !remoteness,
                echo: false,
                depth,
            };
            cli::play::run(&game, &inv, &choice, &PlayArgs { options, json })?;
        }
        Command::Query {
            db,
            json,
            depth,
            position,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?;
            let args = QueryArgs {
                position,
                depth,
                json,
            };
            cli::query::run(&game, &inv, &choice, &args)?;
        }
        Command::Analyze {
            db,
            json,
            plot,
            log_scale,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?;
            let args = AnalyzeArgs {
                json,
                plot,
                log_scale,
            };
            cli::analyze::run(&game, &inv, &choice, &args)?;
        }
        Command::List { .. }
        | Command::InstallPlugin { .. }
        | Command::Completions { .. }
        | Command::Man => unreachable!("handled above"),
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version are not errors; a usage error is JSON when --json is asked.
        Err(e) if e.use_stderr() && std::env::args().any(|a| a == "--json") => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            let message = first.trim_start_matches("error: ").to_string();
            return exit::report(&cli::CliError::Usage(message).into(), true);
        }
        Err(e) => e.exit(),
    };
    let json = cli.command.json();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e, json),
    }
}
