//! The `host` command line as clap reads it: the global options, every command and
//! its flags, and the typed forms of a few flag values. Only the grammar and its help
//! texts live here; what each command does is in the other `cli` files, and `main.rs`
//! hands each parsed command to them.

use crate::cli::help;
use crate::engine::solver::parents::ParentMode;
use crate::engine::solver::verify::VerifyMode;
use crate::engine::{numbers, solver, threads};
use crate::play::Side;
use crate::serve;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The help of every `--db`.
pub const DB_HELP: &str = "The database: file:DIRECTORY, a directory, or memory: (default: $GAMESMAN_DB, else the per-user data directory, ~/.local/share/gamesman)";

#[derive(Parser)]
#[command(
    name = "host",
    version,
    about = "Strongly solve games from plugin modules, store per-tier databases, and play them perfectly",
    after_help = help::MAIN
)]
pub struct Cli {
    /// The game module: a path to its library file, or a bare name (mtttier) looked up in
    /// $GAMESMAN_PLUGIN_PATH, the user plugin directory, then next to this binary.
    /// `serve` takes any number (none: every module found there).
    #[arg(long, short = 'p', global = true, value_name = "NAME_OR_PATH")]
    pub plugin: Vec<String>,
    /// The variant to open (default: the module's first).
    #[arg(long, global = true)]
    pub variant: Option<String>,
    /// With an http:// database: keep every tier fetched in this file:DIRECTORY
    /// database, which later runs read first (tiers are then fetched whole, checked).
    #[arg(long, global = true, value_name = "file:DIRECTORY")]
    pub cache: Option<String>,
    /// With an http:// database: accept only tiers listed in a manifest signed by this
    /// publisher key (64 hex digits, as `db keygen` prints); may be given more than
    /// once. Keys in the trusted-keys file of the data directory are trusted too.
    #[arg(long, global = true, value_name = "KEY")]
    pub trust: Vec<String>,
    /// With an http:// database and --cache: check every fetched tier forward against
    /// the module (as `verify` does) before keeping it; nothing failing is kept.
    // Not `requires = "cache"`: clap checks that inside the subcommand, before the
    // global --cache given ahead of it is carried there, and so refused
    // `--cache C query --verify-fetch`; `Cli::check_globals` checks it instead.
    #[arg(long, global = true)]
    pub verify_fetch: bool,
    /// With an http:// database: the longest one lookup, one tier fetched whole, or a
    /// whole `db copy` may take, in seconds.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 120.0)]
    pub fetch_deadline: f64,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
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
        /// Where parents come from: the fastest way that fits the memory plan (auto: a
        /// reverse graph from each tier's scan where it fits, else the module's undo
        /// moves), a reverse graph built by expanding each tier forward (forward; checks
        /// a module's undo moves by comparison), the undo moves alone (undo-moves), or
        /// undo moves within each tier, the child tiers' values read by the scan where
        /// it can (undo-within; the leanest).
        #[arg(long, value_enum, default_value_t = ParentsArg::Auto)]
        parents: ParentsArg,
        /// Fail at once if another solve is writing the same database (default: wait
        /// for it to finish).
        #[arg(long)]
        no_wait: bool,
        /// The memory budget (512M, 8G, ...; default 90% of the machine's memory): each
        /// tier is solved in the fastest way that fits it; a solve that does not fit
        /// even in the leanest way is refused before it starts.
        #[arg(long, value_name = "SIZE", value_parser = solver::memory::parse_size)]
        memory_limit: Option<u64>,
        /// Solve every tier in this way instead of the fastest that fits the budget:
        /// whole (child tiers in memory) or streamed (child tiers read a level at a
        /// time from scratch files). Every way stores the same files.
        #[arg(long, value_name = "MODE")]
        solve_mode: Option<solver::plan::SolveMode>,
        /// Print the plan (each tier's way of solving and estimated peak) without
        /// solving anything.
        #[arg(long, conflicts_with = "reachable")]
        plan: bool,
        /// With --plan: the rate a solve of this module reached here, in positions per
        /// CPU-second (as `solve --json` reports: positions / cpu_s; 1.2M is 1200000),
        /// to estimate the plan's CPU-hours.
        #[arg(long, requires = "plan", value_name = "POSITIONS", value_parser = numbers::parse_rate)]
        rate: Option<f64>,
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
        /// Check only the tiers within K steps of the game's end (a partial database
        /// solved with `solve --endgame K`).
        #[arg(long, value_name = "K", conflicts_with = "tier")]
        endgame: Option<usize>,
        /// Check only the named tier and every tier below it (a partial database
        /// solved with `solve --tier NAME`).
        #[arg(long, value_name = "NAME")]
        tier: Option<String>,
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
        /// 503 (the work itself runs on: see the book's Serving and trust chapter).
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
        /// stores, exactly: each under its own player to move, and only those that
        /// can occur from the start as reachable (a forward search; slower).
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
    /// Measure the module: `bench floor` times the calls any solver of it must make.
    #[command(subcommand, after_help = help::BENCH)]
    Bench(BenchCommand),
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
    /// Print the man page (roff), or with --markdown the command-line reference.
    #[command(after_help = help::MAN)]
    Man {
        /// Print the reference as Markdown (the book's reference/cli.md) instead.
        #[arg(long)]
        markdown: bool,
    },
    /// Start a new game module project: a small complete game in Rust or C that builds
    /// with one command and passes `validate` and `solve` as it stands.
    #[command(after_help = help::NEW)]
    New {
        /// The module's name: lower-case letters, digits and _ (it names the crate, the
        /// library file and the database directory).
        name: String,
        /// The language of the project.
        #[arg(long, value_enum, default_value_t = crate::cli::new::Lang::Rust)]
        lang: crate::cli::new::Lang,
        /// A tiered game with undo moves and a symmetry instead of a one-tier game.
        #[arg(long)]
        tiers: bool,
        /// The project directory to create (default: ./NAME); it must not exist.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Time, alone, the module calls any solver must make (every index's scan, each
    /// undecided position's children, or its parents through undo moves), tier by
    /// tier; with --solve, solve the same tiers into a scratch database and print the
    /// solve's CPU against this floor.
    #[command(after_help = help::BENCH_FLOOR)]
    Floor {
        /// Only the tiers within K steps of the game's end (as `solve --endgame K`).
        #[arg(long, value_name = "K", conflicts_with = "tier")]
        endgame: Option<usize>,
        /// Only the named tier and every tier below it (as `solve --tier NAME`).
        #[arg(long, value_name = "NAME")]
        tier: Option<String>,
        /// Also solve the same tiers (into a scratch database, `--verify off`) and
        /// print the solve's CPU, its peak memory, and its ratio to the floor.
        #[arg(long)]
        solve: bool,
        /// Worker threads for both (default: one per core).
        #[arg(long, value_parser = threads::parse_arg)]
        threads: Option<usize>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub enum DbCommand {
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
    /// Waits for a solve still writing a directory, so only finished solves are signed.
    Sign {
        /// The secret key file `db keygen` wrote (private: mode 0600).
        #[arg(long, value_name = "FILE")]
        key: PathBuf,
        #[arg(long, help = DB_HELP)]
        db: Option<String>,
        /// Fail at once instead of waiting when a solve is writing the database.
        #[arg(long)]
        no_wait: bool,
    },
}

/// The global options that mean nothing to `new`: clap copies every global option
/// into every command, and `host new --help` should list only what `new` takes.
const NOT_FOR_NEW: [&str; 6] = [
    "plugin",
    "variant",
    "cache",
    "trust",
    "verify_fetch",
    "fetch_deadline",
];

/// The command line as parsed and documented: `Cli`'s, with the global options hidden
/// in `new`'s help (still accepted there, and ignored, as before).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    // clap copies a global option into a command only where that command has no
    // option of the same id, so `new` gets hidden local copies instead. (Hiding the
    // copies after `build()` breaks clap's lookup table: `--help` then named another
    // option.)
    let hidden: Vec<clap::Arg> = cmd
        .get_arguments()
        .filter(|a| NOT_FOR_NEW.contains(&a.get_id().as_str()))
        .map(|a| a.clone().global(false).hide(true))
        .collect();
    cmd.mut_subcommand("new", |new| new.args(hidden))
}

/// Parses the process's arguments with `command()`.
pub fn parse() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(std::env::args_os())?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

impl Cli {
    /// Checks what clap cannot check for options given before or after the command
    /// alike (global options are merged only after the command's own checks).
    pub fn check_globals(&self) -> Result<(), String> {
        if self.verify_fetch && self.cache.is_none() {
            return Err(
                "--verify-fetch needs --cache file:DIRECTORY (before or after the command): tiers are verified whole before they are kept there".into(),
            );
        }
        Ok(())
    }
}

impl Command {
    /// Whether output (and so errors) should be JSON.
    pub fn json(&self) -> bool {
        match self {
            Command::Info { json, .. }
            | Command::Solve { json, .. }
            | Command::Play { json, .. }
            | Command::Query { json, .. }
            | Command::Analyze { json, .. }
            | Command::Export { json, .. }
            | Command::List { json }
            | Command::InstallPlugin { json, .. }
            | Command::Bench(BenchCommand::Floor { json, .. }) => *json,
            Command::Verify { .. }
            | Command::Serve { .. }
            | Command::Db(_)
            | Command::Completions { .. }
            | Command::Man { .. }
            | Command::New { .. } => false,
        }
    }
}

/// A clap usage error as one message: its whole text without the `error: ` prefix
/// and the closing pointer to `--help` (the lines naming what is missing, unknown or
/// in conflict, and the usage line, are kept).
pub fn usage_message(rendered: &str) -> String {
    let text = rendered.trim();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("For more information, try"))
        .collect();
    kept.join("\n").trim().to_string()
}

/// How the solver finds parents, as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ParentsArg {
    Auto,
    Forward,
    UndoMoves,
    UndoWithin,
}

impl From<ParentsArg> for ParentMode {
    fn from(p: ParentsArg) -> ParentMode {
        match p {
            ParentsArg::Auto => ParentMode::Auto,
            ParentsArg::Forward => ParentMode::Forward,
            ParentsArg::UndoMoves => ParentMode::UndoMoves,
            ParentsArg::UndoWithin => ParentMode::UndoWithin,
        }
    }
}

/// Who plays a side, as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        let mut all = vec!["host"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    /// Every option accepted before and after the command means the same in both
    /// places (`--cache C query --verify-fetch` was refused as lacking --cache).
    #[test]
    fn global_options_mean_the_same_before_and_after_the_command() {
        let q = ["query", "--db", "http://h/db", "X--------"];
        let forms: [(Vec<&str>, Vec<&str>); 6] = [
            (vec!["--cache", "file:C"], vec![]),
            (vec!["--plugin", "mtttier"], vec![]),
            (vec!["--variant", "symmetric"], vec![]),
            (vec!["--trust", "ab"], vec![]),
            (vec!["--verify-fetch", "--cache", "file:C"], vec![]),
            (vec!["--fetch-deadline", "7"], vec![]),
        ];
        for (opts, _) in forms {
            let before: Vec<&str> = opts.iter().copied().chain(q).collect();
            let after: Vec<&str> = q.iter().copied().chain(opts.iter().copied()).collect();
            let split: Vec<&str> = if opts.len() == 3 {
                // --verify-fetch after the command, --cache before (the case).
                vec!["--cache", "file:C"]
                    .into_iter()
                    .chain(q)
                    .chain(["--verify-fetch"])
                    .collect()
            } else {
                before.clone()
            };
            for args in [&before, &after, &split] {
                let c = parse(args);
                let seen = (
                    c.cache.clone(),
                    c.plugin.clone(),
                    c.variant.clone(),
                    c.trust.clone(),
                    c.verify_fetch,
                    c.fetch_deadline,
                );
                let b = parse(&before);
                let want = (
                    b.cache,
                    b.plugin,
                    b.variant,
                    b.trust,
                    b.verify_fetch,
                    b.fetch_deadline,
                );
                assert_eq!(seen, want, "{args:?}");
                assert!(c.check_globals().is_ok(), "{args:?}");
            }
        }
        // The exact case of the report.
        let c = parse(&[
            "--plugin",
            "mtttier",
            "--cache",
            "file:C",
            "query",
            "--db",
            "http://h/db",
            "--verify-fetch",
            "X--------",
        ]);
        assert_eq!(c.cache.as_deref(), Some("file:C"));
        assert!(c.verify_fetch);
        assert!(c.check_globals().is_ok());
        // A deadline given before the command is not replaced by the default after it.
        assert_eq!(
            parse(&["--fetch-deadline", "7", "query"]).fetch_deadline,
            7.0
        );
        assert_eq!(
            parse(&["query", "--fetch-deadline", "7"]).fetch_deadline,
            7.0
        );
        // --verify-fetch without --cache anywhere is still refused, naming --cache.
        let e = parse(&["query", "--verify-fetch"])
            .check_globals()
            .unwrap_err();
        assert!(e.contains("--cache"), "{e}");
    }

    /// `--rate` belongs to `--plan` and takes a positive rate; anything else is a
    /// usage error that says which.
    #[test]
    fn a_rate_needs_the_plan_and_a_positive_number() {
        let err = |args: &[&str]| {
            let mut all = vec!["host", "solve"];
            all.extend_from_slice(args);
            match Cli::try_parse_from(all) {
                Err(e) => e.render().to_string(),
                Ok(_) => panic!("{args:?} parsed"),
            }
        };
        assert!(err(&["--rate", "1M"]).contains("--plan"));
        for bad in ["0", "fast", "1.5X", "inf"] {
            let e = err(&["--plan", "--rate", bad]);
            assert!(e.contains("is not a rate"), "{bad}: {e}");
        }
        assert!(Cli::try_parse_from(["host", "solve", "--plan", "--rate", "1.5M"]).is_ok());
    }

    /// A usage error keeps the lines that say what is missing.
    #[test]
    fn usage_messages_keep_what_is_missing() {
        let e = match Cli::try_parse_from(["host", "export", "--json"]) {
            Err(e) => e,
            Ok(_) => panic!("export without --out parsed"),
        };
        let m = usage_message(&e.render().to_string());
        assert!(m.starts_with("the following required arguments"), "{m}");
        assert!(m.contains("--out <FILE>"), "{m}");
        assert!(!m.contains("For more information"), "{m}");
    }
}
