//! The `host` command line's front ends, one file per command, and what they share:
//! which module and database a command names (`Invocation`, `DbChoice`), opening a
//! solved database for reading, and complete suggested commands. The clap definitions
//! stay in the binary (`main.rs`); exit codes live in `exit`.
//!
//! Front ends use the library's calls (solver, query, analyze, play); they must not
//! reach into the solver's internals.

/// `println!` that returns the write's error instead of panicking, so a closed stdout
/// (`host query | head -1`) ends the program quietly (`exit::report`).
macro_rules! outln {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout().lock(), format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that returns the write's error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout().lock(), format_args!($($arg)*))
    };
}

pub mod analyze;
pub mod args;
pub mod bench;
pub mod dbcopy;
pub mod docs;
pub mod exit;
pub mod export;
pub mod fresh_dirs;
pub mod help;
pub mod install;
pub mod list;
pub mod new;
pub mod play;
pub mod query;
pub mod serve;
pub mod solve;
pub mod trust;
pub mod verify;
pub mod verify_fetch;

use crate::engine::db::{self, Database, GameKey};
use crate::engine::game::GameHandle;
use crate::engine::load::data_dir::{default_db_dir, NoDataDir, DB_ENV};
use crate::engine::solver::{self, SolveOptions};
use crate::report::progress;
use std::sync::Arc;

/// A mistake on the command line or in what it names, found before any work.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// No `--plugin`.
    #[error("no game module given: pass --plugin NAME_OR_PATH (for example --plugin mtttier); `host list` shows the modules found")]
    NoPlugin,
    /// A database holds nothing of the variant (the message says where and why it may be).
    #[error("{0}")]
    Empty(String),
    /// A fetched database failed a check (`--verify-fetch`); nothing of it was kept.
    #[error("{0}")]
    Fetched(String),
    /// A flag's value cannot be used (the message says which and why).
    #[error("{0}")]
    Usage(String),
    /// `query`, `play` or `analyze` of a variant that has no database there.
    #[error("there is no database of {game} ({variant}) at {location}: nothing of it has been solved there. Solve it first with `{solve}`, or name the database you solved with --db or {DB_ENV}.")]
    NoDatabase {
        /// The module.
        game: String,
        /// The variant.
        variant: String,
        /// Where it was looked for.
        location: String,
        /// The complete command that solves it there.
        solve: String,
    },
}

/// The module and variant as the user named them, to repeat in suggested commands.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// How the program was started (`host`, `target/release/host`).
    pub program: String,
    /// `--plugin` as given (a name or a path).
    pub plugin: String,
}

impl Invocation {
    /// The invocation of this process with `--plugin`; an error without it.
    pub fn new(plugin: Option<&str>) -> Result<Invocation, CliError> {
        let plugin = plugin.ok_or(CliError::NoPlugin)?.to_string();
        let program = std::env::args()
            .next()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "host".into());
        Ok(Invocation { program, plugin })
    }

    /// A complete command for `game`'s variant: `host --plugin P --variant V SUB`,
    /// with `--db` when the database was named on the command line.
    pub fn command(&self, game: &GameHandle, sub: &str, db: &DbChoice) -> String {
        let mut words = vec![
            shell_word(&self.program),
            "--plugin".into(),
            shell_word(&self.plugin),
            "--variant".into(),
            shell_word(game.variant()),
            sub.to_string(),
        ];
        if db.source == DbSource::Flag {
            words.push("--db".into());
            words.push(shell_word(&db.resource));
        }
        words.join(" ")
    }
}

/// `word` as a shell reads it back: unchanged when plain, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=+,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Where the database's resource string came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbSource {
    /// `--db`.
    Flag,
    /// The `GAMESMAN_DB` variable.
    Env,
    /// The per-user data directory.
    Default,
}

/// The database a command uses: `--db`, else `GAMESMAN_DB`, else the data directory.
#[derive(Clone, Debug)]
pub struct DbChoice {
    /// The resource string (`file:DIR`, a directory, `http://HOST:PORT/PATH` or
    /// `memory:`).
    pub resource: String,
    /// Where it came from.
    pub source: DbSource,
    /// `--cache`: where an `http:` database keeps what it fetches.
    pub cache: Option<String>,
}

impl DbChoice {
    /// Picks the database for a command given `--db` (or not).
    pub fn resolve(flag: Option<&str>) -> Result<DbChoice, NoDataDir> {
        let choice = Self::pick(flag)?;
        trust::note_local_trust(&choice.resource);
        Ok(choice)
    }

    fn pick(flag: Option<&str>) -> Result<DbChoice, NoDataDir> {
        if let Some(r) = flag {
            return Ok(DbChoice {
                resource: r.to_string(),
                source: DbSource::Flag,
                cache: None,
            });
        }
        if let Some(r) = std::env::var(DB_ENV).ok().filter(|r| !r.trim().is_empty()) {
            return Ok(DbChoice {
                resource: r,
                source: DbSource::Env,
                cache: None,
            });
        }
        Ok(DbChoice {
            resource: format!("file:{}", default_db_dir()?.display()),
            source: DbSource::Default,
            cache: None,
        })
    }

    /// The same choice, keeping what an `http:` database fetches in `cache`.
    pub fn with_cache(mut self, cache: Option<String>) -> DbChoice {
        self.cache = cache;
        self
    }

    /// Opens the chosen database for `game`'s variant.
    /// With `--verify-fetch`, the tiers it would fetch into `--cache` are verified
    /// against the module and cached first (`verify_fetch::prepare`).
    pub fn open(&self, game: &GameHandle) -> anyhow::Result<Arc<dyn Database>> {
        verify_fetch::prepare(game, &self.resource, self.cache.as_deref())?;
        Ok(db::open_cached(
            &self.resource,
            self.cache.as_deref(),
            &game_key(game),
        )?)
    }

    /// Whether records live only in this process (solved first by each command).
    pub fn is_memory(&self) -> bool {
        matches!(db::parse_resource(&self.resource), Ok(db::Resource::Memory))
    }
}

/// The key a database stores for `game`'s variant.
pub fn game_key(game: &GameHandle) -> GameKey {
    GameKey::of(game)
}

/// Opens the database for `play`, `query` and `analyze`. A `memory:` database is
/// solved first, in this process. A database holding nothing of the variant is an
/// error naming the solve command, unless `searching` (a depth-limited search can
/// stand in for it), when it is a warning.
pub fn open_solved(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    searching: bool,
) -> anyhow::Result<Arc<dyn Database>> {
    let db = choice.open(game)?;
    if choice.is_memory() {
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
        if let Ok(db::Resource::Http(_)) = db::parse_resource(&choice.resource) {
            let message = format!(
                "{} lists no tier file of {} ({}): the server holds no database of this variant, or the URL is not a database directory (with `host serve` it is http://HOST:PORT/db), or the server is down and --cache holds nothing of it. An http:// database is read-only: solve on the server, or solve here into a file:DIRECTORY database.",
                db.describe(),
                game.module_name(),
                game.variant()
            );
            if !searching {
                return Err(CliError::Empty(message).into());
            }
            log::warn!("{message}");
            return Ok(db);
        }
        let solve = inv.command(game, "solve", choice);
        if !searching {
            return Err(CliError::NoDatabase {
                game: game.module_name().to_string(),
                variant: game.variant().to_string(),
                location: db.describe(),
                solve,
            }
            .into());
        }
        log::warn!(
            "{} holds nothing of {} ({}): the search scores its leaves by the module alone (`{solve}` solves it)",
            db.describe(),
            game.module_name(),
            game.variant()
        );
    }
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_survive_a_shell() {
        assert_eq!(shell_word("mtttier"), "mtttier");
        assert_eq!(shell_word("file:/tmp/db"), "file:/tmp/db");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
