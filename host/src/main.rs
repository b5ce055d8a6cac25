//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to its front end in the library (`gamesman_host::cli`). Errors end here as one
//! paragraph on stderr (or a JSON object with `--json`) and the exit code
//! `cli::exit` assigns, never a panic backtrace.

use gamesman_host::cli::analyze::AnalyzeArgs;
use gamesman_host::cli::args::{self, BenchCommand, Cli, Command, DbCommand};
use gamesman_host::cli::bench::FloorArgs;
use gamesman_host::cli::export::ExportArgs;
use gamesman_host::cli::install::InstallArgs;
use gamesman_host::cli::play::PlayArgs;
use gamesman_host::cli::query::QueryArgs;
use gamesman_host::cli::serve::ServeArgs;
use gamesman_host::cli::solve::SolveArgs;
use gamesman_host::cli::{self, exit, game_key, CliError, DbChoice, Invocation};
use gamesman_host::engine::abort_report;
use gamesman_host::engine::db::{self, LockWait};
use gamesman_host::engine::solver::{self, SolveOptions};
use gamesman_host::play::PlayOptions;
use gamesman_host::{engine::ask::info, engine::load::loader, engine::threads, serve};
use std::io::Write;
use std::process::ExitCode;

/// The trusted keys, `--verify-fetch` and `--fetch-deadline`, for every fetch.
fn configure_fetching(cli: &Cli) -> anyhow::Result<()> {
    cli.check_globals().map_err(CliError::Usage)?;
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
    cli::verify_fetch::set_verify_fetch(cli.verify_fetch);
    cli::trust::set_trust_flags(!cli.trust.is_empty());
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
        Command::Db(DbCommand::Sign { key, db, no_wait }) => {
            let choice = DbChoice::resolve(db.as_deref())?;
            let wait = if *no_wait {
                LockWait::NoWait
            } else {
                LockWait::Wait
            };
            return cli::trust::sign(&choice.resource, key, wait);
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
            return cli::docs::completions(*shell, args::command(), &mut std::io::stdout())
        }
        Command::Man { markdown: false } => {
            return cli::docs::man(args::command(), &mut std::io::stdout())
        }
        Command::Man { markdown: true } => {
            return cli::docs::markdown(args::command(), &mut std::io::stdout())
        }
        Command::New {
            name,
            lang,
            tiers,
            dir,
        } => {
            let args = cli::new::NewArgs {
                name: name.clone(),
                lang: *lang,
                tiers: *tiers,
                dir: dir.clone(),
            };
            return cli::new::run(&args);
        }
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
            solve_mode,
            plan,
            rate,
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
                        forced: solve_mode,
                        module_bytes: 0,
                        process_bytes: 0,
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
                plan,
                rate,
            };
            cli::solve::run(&game, module.info.api_version.as_str(), &choice, &args)?;
        }
        Command::Verify { db, endgame, tier } => {
            let choice = DbChoice::resolve(db.as_deref())?.with_cache(cli.cache.clone());
            let scope = match (endgame, tier) {
                (Some(k), _) => solver::Scope::Endgame(k),
                (None, Some(t)) => solver::Scope::Tier(t),
                (None, None) => solver::Scope::Whole,
            };
            cli::verify::run(&game, &inv, &choice, &scope)?;
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
        Command::Bench(BenchCommand::Floor {
            endgame,
            tier,
            solve,
            threads,
            json,
        }) => {
            let threads_used = threads::configure(threads).map_err(CliError::Usage)?;
            let args = FloorArgs {
                scope: match (endgame, tier) {
                    (Some(k), _) => solver::Scope::Endgame(k),
                    (None, Some(t)) => solver::Scope::Tier(t),
                    (None, None) => solver::Scope::Whole,
                },
                solve,
                threads,
                threads_used,
                json,
            };
            cli::bench::run(&game, &module.path, &args)?;
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
        | Command::Man { .. }
        | Command::New { .. } => unreachable!("handled above"),
    }
    Ok(())
}

/// The system allocator, noting a failed allocation for the abort report.
#[global_allocator]
static ALLOCATOR: abort_report::ReportingAllocator = abort_report::ReportingAllocator;

pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = match args::parse() {
        Ok(cli) => cli,
        // Help and version are not errors; a usage error is JSON when --json is asked.
        Err(e) if e.use_stderr() && std::env::args().any(|a| a == "--json") => {
            // The whole message: its first line alone dropped which argument is
            // missing or unknown.
            let message = gamesman_host::cli::args::usage_message(&e.render().to_string());
            return exit::report(&cli::CliError::Usage(message).into(), true);
        }
        Err(e) => e.exit(),
    };
    let json = cli.command.json();
    // An abort in the middle of a solve (an allocation that failed outside the planned
    // arrays) names the tiers and ends as a solve error.
    abort_report::install(exit::Exit::Solve.code().into(), json);
    match run(cli).and_then(|()| Ok(std::io::stdout().flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e, json),
    }
}
