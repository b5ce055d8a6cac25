//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to its front end in the library (`gamesman_host::cli`). Errors end here as one
//! paragraph on stderr (or a JSON object with `--json`) and the exit code
//! `cli::exit` assigns, never a panic backtrace.

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use gamesman_host::cli::analyze::AnalyzeArgs;
use gamesman_host::cli::export::ExportArgs;
use gamesman_host::cli::install::InstallArgs;
use gamesman_host::cli::play::PlayArgs;
use gamesman_host::cli::query::QueryArgs;
use gamesman_host::cli::serve::ServeArgs;
use gamesman_host::cli::solve::SolveArgs;
use gamesman_host::cli::{self, exit, game_key, help, CliError, DbChoice, Invocation};
use gamesman_host::engine::db::{self, LockWait};
use gamesman_host::engine::solver::parents::ParentMode;
use gamesman_host::engine::solver::verify::VerifyMode;
use gamesman_host::engine::solver::{self, SolveOptions};
use gamesman_host::play::{PlayOptions, Side};
use gamesman_host::{engine::ask::info, engine::load::loader, engine::threads, serve};
use std::io::Write;
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
    /// `serve` takes any number (none: every module found there).
    #[arg(long, short = 'p', global = true, value_name = "NAME_OR_PATH")]
    plugin: Vec<String>,
    /// The variant to open (default: the module's first).
    #[arg(long, global = true)]
    variant: Option<String>,
    /// With an http:// database: keep every tier fetched in this file:DIRECTORY
    /// database, which later runs read first (tiers are then fetched whole, checked).
    #[arg(long, global = true, value_name = "file:DIRECTORY")]
    cache: Option<String>,
    /// With an http:// database: accept only tiers listed in a manifest signed by this
    /// publisher key (64 hex digits, as `db keygen` prints); may be given more than
    /// once. Keys in the trusted-keys file of the data directory are trusted too.
    #[arg(long, global = true, value_name = "KEY")]
    trust: Vec<String>,
    /// With an http:// database and --cache: check every fetched tier forward against
    /// the module (as `verify` does) before keeping it; nothing failing is kept.
    #[arg(long, global = true, requires = "cache")]
    verify_fetch: bool,
    /// With an http:// database: the longest one lookup, one tier fetched whole, or a
    /// whole `db copy` may take, in seconds.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 120.0)]
    fetch_deadline: f64,
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
        /// Also say what this database holds for the variant (full or reachable-only,
        /// tiers and positions stored).
        #[arg(long)]
        db: Option<String>,
    },
    /// Solve every tier reachable from the initial position and store the databases.
    #[command(after_help = help::SOLVE)]
    Solve {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Worker threads (default: one per core; at most 4 per core, see --help).
        #[arg(long, value_parser = threads::parse_arg)]
        threads: Option<usize>,
        /// Solve every tier again, even those already stored.
        #[arg(long)]
        force: bool,
        /// Print one JSON summary object instead of text.
        #[arg(long)]
        json: bool,
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
        /// Solve only the tiers within K steps of the game's end (a tier's steps: the
        /// longest chain of tier children below it; for Quixo, K blanks at most): a
        /// closed part of the game, stored as a partial database.
        #[arg(long, value_name = "K", conflicts_with_all = ["reachable", "tier"])]
        endgame: Option<usize>,
        /// Solve only the named tier (as `info` and `query` name tiers) and every tier
        /// below it, stored as a partial database.
        #[arg(long, value_name = "NAME", conflicts_with = "reachable")]
        tier: Option<String>,
    },
    /// Check every record of a stored database against the module (for a database
    /// copied from elsewhere): each must follow from its children's records.
    #[command(after_help = help::VERIFY)]
    Verify {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
    },
    /// Play the game in text: human or perfect computer on each side.
    ///
    /// Commands at the prompt: a move, ps (or values), hint, undo, w, help, quit. On a
    /// terminal the prompt has line editing, history (up and down arrows, Ctrl-R) and
    /// Tab completion of the legal moves and commands. When stdin is not a terminal,
    /// commands are read line by line (scripts, tests) and echoed after the prompt.
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
        /// The computer plays "false hope": among its winning moves, one that wins by
        /// the smallest margin that still wins (WinBy games).
        #[arg(long)]
        false_hope: bool,
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
    /// Serve solved games in a web browser: a JSON API in GamesmanUni's shapes under
    /// /api/ and a board page at /, for every variant of every module given.
    ///
    /// Give --plugin once per module (none: every module on the plugin search path).
    /// Each variant's database is read from --db (read-only); one not solved there is
    /// listed as unsolved. Stops on Ctrl-C or SIGTERM.
    #[command(after_help = help::SERVE)]
    Serve {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Address to listen on (loopback only by default; 0.0.0.0:PORT is reachable
        /// from other machines; port 0 picks a free port).
        #[arg(long, default_value = serve::DEFAULT_ADDR)]
        addr: String,
        /// Memory for tiers kept whole after their first lookup, in MiB, shared by all
        /// variants (0: look every record up in the files).
        #[arg(long, default_value_t = 1024)]
        cache_mb: u64,
        /// Connections open at once; one more gets a 503 and is closed.
        #[arg(long, default_value_t = 512)]
        max_connections: usize,
        /// Seconds a client may take to send a request's headers, and a kept-alive
        /// connection may stay idle.
        #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
        header_timeout: f64,
        /// Seconds a request's module and database work may run before it fails with
        /// 503 (the work itself runs on: see the README's Reliability section).
        #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
        call_deadline: f64,
        /// The most positions a variant may have for /analysis to be computed.
        #[arg(long, default_value_t = 200_000_000, value_name = "POSITIONS")]
        analysis_limit: u64,
        /// Also serve a GamesmanUni build (its dist/ directory, built with the API
        /// base /api/) under /uni/, on the same origin as the API.
        #[arg(long, value_name = "DIR")]
        gamesmanuni: Option<PathBuf>,
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
        /// Count every position, not only the canonical ones a game with symmetry
        /// stores: each is weighted by the size of its symmetry class.
        #[arg(long)]
        every_position: bool,
    },
    /// Write the solved positions (and with --moves every move) to a Parquet, SQLite
    /// or CSV file: one row per position with its value, remoteness and WinBy.
    #[command(after_help = help::EXPORT)]
    Export {
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// parquet, sqlite or csv (default: from the --out file's extension).
        #[arg(long)]
        format: Option<String>,
        /// The file to write (Parquet and CSV write the moves to NAME.moves.EXT beside it).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Only positions reachable from the initial position.
        #[arg(long)]
        reachable: bool,
        /// Also every move of every position, ranked as `query` ranks them.
        #[arg(long)]
        moves: bool,
        /// Only these tiers (comma-separated tier numbers).
        #[arg(long, value_delimiter = ',', value_name = "TIER,...")]
        tiers: Vec<u64>,
        /// Every position, not only the canonical ones (games with symmetries).
        #[arg(long)]
        all_positions: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Work on databases as a whole: `db copy SRC DST` copies the variant's tiers.
    #[command(subcommand, after_help = help::DB)]
    Db(DbCommand),
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

#[derive(Subcommand)]
enum DbCommand {
    /// Copy the variant's tiers from one database to another (file:, http://, a
    /// directory), each read whole with its checksum verified and written atomically.
    Copy {
        /// Where from: file:DIRECTORY, a directory, or http://HOST:PORT/PATH.
        src: String,
        /// Where to: file:DIRECTORY or a directory.
        dst: String,
    },
    /// Make a publisher key pair: the secret key into FILE (never over an existing
    /// file), the public key into FILE.pub and on stdout.
    Keygen {
        /// Where the secret key goes.
        file: PathBuf,
    },
    /// Sign every database directory of a file: database: writes tiers.manifest (each
    /// tier file's size and SHA-256, signed) beside the tier files; `serve` publishes it.
    Sign {
        /// The secret key file `db keygen` wrote.
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
    },
}

impl Command {
    /// Whether output (and so errors) should be JSON.
    fn json(&self) -> bool {
        match self {
            Command::Info { json, .. }
            | Command::Solve { json, .. }
            | Command::Play { json, .. }
            | Command::Query { json, .. }
            | Command::Analyze { json, .. }
            | Command::Export { json, .. }
            | Command::List { json }
            | Command::InstallPlugin { json, .. } => *json,
            Command::Verify { .. }
            | Command::Serve { .. }
            | Command::Db(_)
            | Command::Completions { .. }
            | Command::Man => false,
        }
    }
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

/// The trusted keys, `--verify-fetch` and `--fetch-deadline`, for every fetch.
fn configure_fetching(cli: &Cli) -> anyhow::Result<()> {
    if !(cli.fetch_deadline.is_finite() && cli.fetch_deadline > 0.0) {
        return Err(CliError::Usage(format!(
            "--fetch-deadline {} is not a number of seconds above 0",
            cli.fetch_deadline
        ))
        .into());
    }
    let file = db::trust::default_keys_file();
    let trusted = db::trust::load_keys(&cli.trust, file.as_deref())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    db::trust::configure(db::trust::FetchPolicy {
        trusted,
        deadline: std::time::Duration::from_secs_f64(cli.fetch_deadline.min(1e9)),
    });
    cli::trust::set_verify_fetch(cli.verify_fetch);
    Ok(())
}

fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    threads::configure(threads).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(())
}

/// `println!` that returns the write's error instead of panicking (see `exit::report`).
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

fn run(cli: Cli) -> anyhow::Result<()> {
    configure_fetching(&cli)?;
    // Commands that need no module.
    match &cli.command {
        Command::Db(DbCommand::Keygen { file }) => return cli::trust::keygen(file),
        Command::Db(DbCommand::Sign { key, db }) => {
            let choice = DbChoice::resolve(db.as_deref())?;
            return cli::trust::sign(&choice.resource, key);
        }
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
        Command::Serve {
            db,
            addr,
            cache_mb,
            max_connections,
            header_timeout,
            call_deadline,
            analysis_limit,
            gamesmanuni,
        } => {
            let seconds = |flag: &str, v: f64| -> anyhow::Result<std::time::Duration> {
                if v.is_finite() && v > 0.0 {
                    Ok(std::time::Duration::from_secs_f64(v.min(1e9)))
                } else {
                    Err(
                        CliError::Usage(format!("--{flag} {v} is not a number of seconds above 0"))
                            .into(),
                    )
                }
            };
            if cli.verify_fetch {
                return Err(CliError::Usage(
                    "serve does not take --verify-fetch: fill a cache first with `db copy` or a query using --verify-fetch, then serve it".into(),
                )
                .into());
            }
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let args = ServeArgs {
                plugins: cli.plugin.clone(),
                variant_given: cli.variant.is_some(),
                addr: addr.clone(),
                cache_mb: *cache_mb,
                conn: serve::conn::ConnLimits {
                    max_connections: (*max_connections).max(1),
                    header_timeout: seconds("header-timeout", *header_timeout)?,
                },
                limits: serve::Limits {
                    call_deadline: seconds("call-deadline", *call_deadline)?,
                    analysis_positions: *analysis_limit,
                },
                gamesmanuni: gamesmanuni.clone(),
            };
            return cli::serve::run(&choice, &args);
        }
        _ => {}
    }
    let plugin = match cli.plugin.as_slice() {
        [] => None,
        [one] => Some(one.as_str()),
        more => {
            return Err(CliError::Usage(format!(
                "--plugin is given {} times; only serve takes several modules",
                more.len()
            ))
            .into())
        }
    };
    let inv = Invocation::new(plugin)?;
    let module = loader::load(&inv.plugin)?;
    let game = module.open(cli.variant.as_deref())?;
    match cli.command {
        Command::Info { json, db } => {
            let database = match db {
                Some(resource) => {
                    let db = db::open_cached(&resource, cli.cache.as_deref(), &game_key(&game))?;
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
            json,
            parents,
            no_wait,
            memory_limit,
            ignore_memory_check,
            verify,
            seed,
            reachable,
            endgame,
            tier,
        } => {
            set_threads(threads)?;
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let args = SolveArgs {
                options: SolveOptions {
                    force,
                    parents: parents.into(),
                    memory: solver::memory::MemoryCheck {
                        limit: memory_limit,
                        ignore: ignore_memory_check,
                        reverse_graph: false,
                    },
                    verify,
                    seed,
                    scope: match (endgame, tier) {
                        (Some(k), _) => solver::Scope::Endgame(k),
                        (None, Some(t)) => solver::Scope::Tier(t),
                        (None, None) => solver::Scope::Whole,
                    },
                },
                wait: if no_wait {
                    LockWait::NoWait
                } else {
                    LockWait::Wait
                },
                reachable,
                json,
            };
            cli::solve::run(&game, module.info.api_version.as_str(), &choice, &args)?;
        }
        Command::Verify { db } => {
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            cli::verify::run(&game, &inv, &choice)?;
        }
        Command::Play {
            db,
            first,
            second,
            seed,
            remoteness,
            false_hope,
            depth,
            json,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let options = PlayOptions {
                sides: [first.into(), second.into()],
                seed,
                winby: !remoteness,
                false_hope,
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
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
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
            every_position,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let args = AnalyzeArgs {
                json,
                plot,
                log_scale,
                every_position,
            };
            cli::analyze::run(&game, &inv, &choice, &args)?;
        }
        Command::Export {
            db,
            format,
            out,
            reachable,
            moves,
            tiers,
            all_positions,
            json,
        } => {
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let args = ExportArgs {
                format,
                out,
                reachable,
                moves,
                tiers,
                all_positions,
                json,
            };
            cli::export::run(&game, &inv, &choice, &args)?;
        }
        Command::Db(DbCommand::Copy { src, dst }) => {
            cli::dbcopy::run(&game, &src, &dst, cli.cache.as_deref())?;
        }
        Command::Db(DbCommand::Keygen { .. } | DbCommand::Sign { .. }) => {
            unreachable!("handled above")
        }
        Command::List { .. }
        | Command::Serve { .. }
        | Command::InstallPlugin { .. }
        | Command::Completions { .. }
        | Command::Man => unreachable!("handled above"),
    }
    Ok(())
}

pub fn main() -> ExitCode {
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
    match run(cli).and_then(|()| Ok(std::io::stdout().flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e, json),
    }
}
