//! Solved games as data: every position of a solved variant (or those reachable from
//! the start, or of some tiers) as rows of a Parquet, SQLite or CSV file, with its
//! value, remoteness and WinBy, and with `moves` every move ranked as `query` ranks it.
//!
//! Rows are produced tier by tier in chunks and handed to a format's writer
//! (`parquet`, `sqlite`, `csv`), so memory holds one tier's records (and, with moves,
//! its child tiers') and one chunk of rows, whatever the game's size. Files are written
//! under a temporary name in the destination's directory and renamed when complete:
//! an interrupted export never leaves a half-written file under the final name.
//!
//! This is engine code: it reads databases and the module through their public calls
//! (`Ranking`, `query::report`, `outcome::value_name`) and must not import a front end.

mod csv;
mod parquet;
mod rows;
mod sqlite;
mod staged;

pub use rows::{MoveRow, PositionRow};
use staged::Staged;
pub use staged::{abandon_unfinished, check_destination, reclaim_stale};

use crate::engine::ask::query::QueryError;
use crate::engine::db::{self, Coverage, Database, DbError};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::reach::{self, ReachError};
use crate::engine::tier::{TierGraph, TierGraphError, TierNode};
use gamesman_plugin_api::Tier;
use std::path::{Path, PathBuf};

/// Positions handed to a writer at a time (and computed in parallel).
pub const CHUNK: usize = 1 << 14;

/// The file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Apache Parquet (Snappy-compressed columns); moves in a second file.
    Parquet,
    /// One SQLite database file: tables `positions`, `moves` and `meta`.
    Sqlite,
    /// Comma-separated text with a header line; moves in a second file.
    Csv,
}

impl Format {
    /// The format named (`parquet`, `sqlite`, `csv`).
    pub fn parse(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "parquet" | "pq" => Some(Format::Parquet),
            "sqlite" | "sqlite3" | "db" => Some(Format::Sqlite),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }

    /// The format a file name's extension says (`.parquet`, `.sqlite`/`.db`, `.csv`).
    pub fn of_path(path: &Path) -> Option<Format> {
        Format::parse(path.extension()?.to_str()?)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Sqlite => "sqlite",
            Format::Csv => "csv",
        }
    }
}

/// What to export.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// Only positions reachable from the initial position.
    pub reachable: bool,
    /// Also every move of every position.
    pub moves: bool,
    /// Only these tiers (all tiers of the game when `None`).
    pub tiers: Option<Vec<Tier>>,
    /// Every position, not only canonical ones (games with symmetry).
    pub all_positions: bool,
}

/// What an export wrote.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ExportReport {
    /// The format.
    pub format: &'static str,
    /// The positions file (the one database file for SQLite).
    pub path: PathBuf,
    /// The moves file of Parquet and CSV exports with moves.
    pub moves_path: Option<PathBuf>,
    /// Position rows written.
    pub positions: u64,
    /// Move rows written.
    pub moves: u64,
    /// Bytes written (both files).
    pub bytes: u64,
    /// Tiers exported.
    pub tiers: usize,
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// The tier graph could not be built.
    #[error(transparent)]
    Graph(#[from] TierGraphError),
    /// The forward search (`reachable`) failed.
    #[error(transparent)]
    Reach(#[from] ReachError),
    /// Reading the database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// Ranking a position's moves failed.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A requested tier is not one of the game's.
    #[error("tier {0} is not a tier of this game (tiers reachable from the start: {1})")]
    UnknownTier(u64, String),
    /// Tiers to export that the database does not hold.
    #[error("the database {db} does not hold tier(s) {tiers} of this variant: solve it completely first, or pick stored tiers with --tiers")]
    Unsolved {
        /// The database.
        db: String,
        /// The missing tiers, listed.
        tiers: String,
    },
    /// Something other than a regular file is where the export would go.
    #[error("{} exists and is {kind}: an export writes a new regular file or replaces one, never a device, FIFO, socket, directory or symbolic link; name another file", path.display())]
    Destination {
        /// The path.
        path: PathBuf,
        /// What is there.
        kind: &'static str,
    },
    /// Writing the output failed.
    #[error("writing {}: {message}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl ExportError {
    pub(crate) fn write(path: &Path, e: impl std::fmt::Display) -> ExportError {
        ExportError::Write {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}

/// How an export reports its progress (a bar in the front end).
pub trait ExportProgress: Sync {
    /// The export starts with this many candidate positions.
    fn start(&self, positions: u64);
    /// This many more candidates were looked at.
    fn advance(&self, positions: u64);
    /// The export is over.
    fn finish(&self);
}

/// A progress reporter that says nothing.
pub struct Quiet;

impl ExportProgress for Quiet {
    fn start(&self, _: u64) {}
    fn advance(&self, _: u64) {}
    fn finish(&self) {}
}

/// Facts about the export stored with it (SQLite's `meta` table, Parquet's key-value
/// metadata).
#[derive(Clone, Debug)]
pub struct ExportMeta {
    /// Key, value pairs.
    pub pairs: Vec<(String, String)>,
    /// Whether the `winby` columns are present.
    pub winby: bool,
}

/// A format's writer: positions and moves in chunks, then `finish`.
trait Sink {
    fn positions(&mut self, rows: &[PositionRow]) -> Result<(), ExportError>;
    fn moves(&mut self, rows: &[MoveRow]) -> Result<(), ExportError>;
    /// Completes the files (still under their temporary names).
    fn finish(self: Box<Self>) -> Result<(), ExportError>;
}

/// The moves file of a Parquet or CSV export: `NAME.moves.EXT` beside `out`.
pub fn moves_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = match out.extension() {
        Some(ext) => format!("{stem}.moves.{}", ext.to_string_lossy()),
        None => format!("{stem}.moves"),
    };
    out.with_file_name(name)
}

/// The tiers to export, initial tier first, checked against the graph and the database.
fn chosen_tiers<'g>(
    graph: &'g TierGraph,
    db: &dyn Database,
    options: &ExportOptions,
) -> Result<Vec<&'g TierNode>, ExportError> {
    let all: Vec<&TierNode> = graph.order.iter().rev().collect();
    let nodes = match &options.tiers {
        None => all,
        Some(wanted) => {
            for t in wanted {
                if !graph.contains(*t) {
                    let mut known: Vec<u64> = graph.order.iter().map(|n| n.tier.0).collect();
                    known.sort_unstable();
                    let list: Vec<String> = known.iter().take(40).map(u64::to_string).collect();
                    let more = if known.len() > 40 { ", ..." } else { "" };
                    return Err(ExportError::UnknownTier(
                        t.0,
                        format!("{}{more}", list.join(", ")),
                    ));
                }
            }
            all.into_iter()
                .filter(|n| wanted.contains(&n.tier))
                .collect()
        }
    };
    let stored = db.stored_tiers()?;
    let missing: Vec<String> = nodes
        .iter()
        .filter(|n| !stored.contains(&n.tier))
        .map(|n| n.tier.to_string())
        .collect();
    if !missing.is_empty() {
        let more = if missing.len() > 20 { ", ..." } else { "" };
        return Err(ExportError::Unsolved {
            db: db.describe(),
            tiers: format!("{}{more}", missing[..missing.len().min(20)].join(", ")),
        });
    }
    Ok(nodes)
}

/// The facts stored with an export.
pub fn meta(game: &GameHandle, options: &ExportOptions, coverage: Coverage) -> ExportMeta {
    let p = game.properties();
    let symmetric = p.has_symmetry;
    let pairs = vec![
        ("game", game.module_name().to_string()),
        ("variant", game.variant().to_string()),
        ("players", p.players.to_string()),
        ("winby", game.supports_winby().to_string()),
        (
            "positions",
            if symmetric && !options.all_positions {
                "canonical".into()
            } else {
                "all".into()
            },
        ),
        (
            "reachable_only",
            (options.reachable || coverage == Coverage::ReachableOnly).to_string(),
        ),
        ("host_version", env!("CARGO_PKG_VERSION").to_string()),
    ];
    ExportMeta {
        pairs: pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        winby: game.supports_winby(),
    }
}

/// Exports the solved variant in `db` to `out` as `format` says.
pub fn export(
    game: &GameHandle,
    db: &dyn Database,
    format: Format,
    out: &Path,
    options: &ExportOptions,
    progress: &dyn ExportProgress,
) -> Result<ExportReport, ExportError> {
    // The destinations are checked before any work.
    let main = Staged::new(out)?;
    let second = match (options.moves, format) {
        (true, Format::Parquet | Format::Csv) => Some(Staged::new(&moves_path(out))?),
        _ => None,
    };
    let written = || main.written() + second.as_ref().map_or(0, Staged::written);
    // An error names the file asked for, not the temporary (removed by then).
    let named = |e: ExportError| match e {
        ExportError::Write { path, message } => {
            let path = [Some(&main), second.as_ref()]
                .into_iter()
                .flatten()
                .find(|s| s.temp == path)
                .map_or(path, |s| s.dest.clone());
            ExportError::Write { path, message }
        }
        e => e,
    };
    let (tiers, positions, moves) =
        write_rows(game, db, format, options, progress, &main, second.as_ref())
            .map_err(|e| named(explain_size_limit(e, written())))?;
    let mut bytes = 0;
    let moves_path = match second {
        Some(s) => {
            let p = s.dest.clone();
            bytes += s.keep()?;
            Some(p)
        }
        None => None,
    };
    bytes += main.keep()?;
    Ok(ExportReport {
        format: format.name(),
        path: out.to_path_buf(),
        moves_path,
        positions,
        moves,
        bytes,
        tiers,
    })
}

/// Writes every row into the temporaries; (tiers, positions, moves) written.
fn write_rows(
    game: &GameHandle,
    db: &dyn Database,
    format: Format,
    options: &ExportOptions,
    progress: &dyn ExportProgress,
    main: &Staged,
    second: Option<&Staged>,
) -> Result<(usize, u64, u64), ExportError> {
    let graph = TierGraph::discover(game)?;
    let nodes = chosen_tiers(&graph, db, options)?;
    let coverage = db::coverage(db)?.unwrap_or(Coverage::Full);
    // A reachable-only database knows what is reachable; a full one is searched.
    let reached = if options.reachable && coverage == Coverage::Full {
        Some(reach::search(game, &graph, &|_, _| {})?)
    } else {
        None
    };
    let meta = meta(game, options, coverage);
    let mut sink: Box<dyn Sink> = match format {
        Format::Parquet => Box::new(parquet::ParquetSink::create(
            &main.temp,
            second.map(|s| s.temp.as_path()),
            &meta,
        )?),
        Format::Sqlite => Box::new(sqlite::SqliteSink::create(
            &main.temp,
            options.moves,
            &meta,
        )?),
        Format::Csv => Box::new(csv::CsvSink::create(
            &main.temp,
            second.map(|s| s.temp.as_path()),
            &meta,
        )?),
    };
    let source = rows::Source::new(game, db, &graph, coverage, reached.as_ref(), options);
    progress.start(nodes.iter().map(|n| source.candidates(n)).sum());
    let (mut positions, mut moves) = (0u64, 0u64);
    for node in &nodes {
        source.tier(node, progress, &mut |p, m| {
            positions += p.len() as u64;
            moves += m.len() as u64;
            sink.positions(p)?;
            if options.moves {
                sink.moves(m)?;
            }
            Ok(())
        })?;
    }
    sink.finish()?;
    progress.finish();
    Ok((nodes.len(), positions, moves))
}

/// A failed write under a file size limit (`ulimit -f`; the kernel's EFBIG, with
/// SIGXFSZ ignored) says so, since the writers' own messages ("File too large") do not
/// name the limit.
fn explain_size_limit(e: ExportError, written: u64) -> ExportError {
    let ExportError::Write { path, message } = e else {
        return e;
    };
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let known = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) } == 0;
    let efbig = std::io::Error::from_raw_os_error(libc::EFBIG).to_string();
    let efbig = efbig
        .split(" (os error")
        .next()
        .unwrap_or_default()
        .to_string();
    if known
        && limit.rlim_cur != libc::RLIM_INFINITY
        && (message.contains(&efbig) || written >= limit.rlim_cur)
    {
        return ExportError::Write {
            path,
            message: format!(
                "{message}: the process's file size limit (ulimit -f) is {} bytes, and the export needs more; raise the limit or export fewer tiers (--tiers); the unfinished file was removed",
                limit.rlim_cur
            ),
        };
    }
    ExportError::Write { path, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_file_names() {
        assert_eq!(Format::parse("Parquet"), Some(Format::Parquet));
        assert_eq!(Format::parse("xlsx"), None);
        assert_eq!(Format::of_path(Path::new("a/b.db")), Some(Format::Sqlite));
        assert_eq!(Format::of_path(Path::new("a/b")), None);
        assert_eq!(
            moves_path(Path::new("out/q.parquet")),
            PathBuf::from("out/q.moves.parquet")
        );
        assert_eq!(moves_path(Path::new("q")), PathBuf::from("q.moves"));
    }
}
