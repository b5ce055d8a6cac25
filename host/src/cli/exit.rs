//! Exit codes of `host`, defined once, and how an error ends the program: one
//! paragraph on stderr, or with `--json` one JSON object on stdout
//! (`{"error": MESSAGE, "kind": KIND, "exit_code": N}`).
//!
//! Every error is classified here by its type; commands must not pick exit codes
//! themselves. `tools/validate` uses the same numbers for usage (2) and module (3).

use super::CliError;
use crate::engine::ask::analyze::AnalyzeError;
use crate::engine::ask::info::InfoError;
use crate::engine::ask::query::QueryError;
use crate::engine::ask::ranking::RankError;
use crate::engine::db::DbError;
use crate::engine::floor::FloorError;
use crate::engine::game::ModuleError;
use crate::engine::load::data_dir::NoDataDir;
use crate::engine::load::loader::LoadError;
use crate::engine::load::plugin_path::FindError;
use crate::engine::messages::{error_paragraph, is_broken_pipe};
use crate::engine::solver::verify::VerifyError;
use crate::engine::solver::SolveError;
use crate::engine::tier::TierGraphError;
use crate::engine::verify_db::DbVerifyError;
use crate::export::ExportError;
use crate::mpi::MpiError;
use crate::play::PlayError;
use crate::report::plot::PlotError;
use crate::serve::catalog::CatalogError;
use crate::serve::ServeError;
use std::io::Write;
use std::process::ExitCode;

/// What kind of failure ended the program, with its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what was asked.
    Success,
    /// 1: anything not listed below (writing output, a failed search).
    Failure,
    /// 2: the command line is wrong: an unknown flag or value, a position or move text
    /// the module rejects, a plot file name that cannot be written.
    Usage,
    /// 3: the module could not be found or loaded, the variant not opened, or the
    /// module failed or broke its contract during a call.
    Module,
    /// 4: the database is missing (nothing solved there), unreadable, damaged or
    /// unwritable.
    Database,
    /// 5: the solve could not finish (a remoteness or margin too large to store, a
    /// tier too large for memory, a result that fails verification).
    Solve,
}

/// Every exit code with its meaning, for `--help`, the man page and the book.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  failure: anything not below (writing output, a failed search)
  2  usage: bad command line, a position or move the module rejects, a bad plot path
  3  module: not found or not loadable, unknown variant, or the module failed in a call
  4  database: nothing solved at --db, or the database is unreadable, damaged or unwritable
  5  solve: the solve could not finish (record limits, memory, verification)";

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::Module => 3,
            Exit::Database => 4,
            Exit::Solve => 5,
        }
    }

    /// The kind's name in JSON errors.
    pub fn name(self) -> &'static str {
        match self {
            Exit::Success => "success",
            Exit::Failure => "failure",
            Exit::Usage => "usage",
            Exit::Module => "module",
            Exit::Database => "database",
            Exit::Solve => "solve",
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

fn db(e: &DbError) -> Exit {
    match e {
        DbError::BadResource(_) => Exit::Usage,
        _ => Exit::Database,
    }
}

fn rank(e: &RankError) -> Exit {
    match e {
        RankError::Module(_) => Exit::Module,
        RankError::Db(e) => db(e),
        RankError::Inconsistent(_) => Exit::Database,
    }
}

/// A cycle or a BAD_TIER child is the module's description of its tiers gone wrong, as
/// is a failed call while describing them.
fn graph(_: &TierGraphError) -> Exit {
    Exit::Module
}

/// The kind of one error value, if its type is known here.
fn kind_of(e: &(dyn std::error::Error + 'static)) -> Option<Exit> {
    if let Some(e) = e.downcast_ref::<CliError>() {
        return Some(match e {
            CliError::NoPlugin | CliError::Usage(_) => Exit::Usage,
            CliError::NoDatabase { .. } | CliError::Empty(_) | CliError::Fetched(_) => {
                Exit::Database
            }
        });
    }
    if e.is::<LoadError>() || e.is::<FindError>() || e.is::<ModuleError>() {
        return Some(Exit::Module);
    }
    if e.is::<FloorError>() {
        // Either a failed call or answers that disagree: the module's fault.
        return Some(Exit::Module);
    }
    if e.is::<NoDataDir>() {
        return Some(Exit::Database);
    }
    if e.is::<clap::Error>() {
        return Some(Exit::Usage);
    }
    if let Some(e) = e.downcast_ref::<DbError>() {
        return Some(db(e));
    }
    if let Some(e) = e.downcast_ref::<RankError>() {
        return Some(rank(e));
    }
    if let Some(e) = e.downcast_ref::<TierGraphError>() {
        return Some(graph(e));
    }
    if let Some(e) = e.downcast_ref::<QueryError>() {
        return Some(match e {
            QueryError::BadPosition { .. } => Exit::Usage,
            QueryError::Module(_) => Exit::Module,
            QueryError::Rank(e) => rank(e),
        });
    }
    if let Some(e) = e.downcast_ref::<SolveError>() {
        return Some(match e {
            SolveError::Module(_) => Exit::Module,
            SolveError::Graph(e) => graph(e),
            SolveError::Db(e) => db(e),
            _ => Exit::Solve,
        });
    }
    if e.is::<super::solve::PlanDoesNotFit>() {
        return Some(Exit::Solve);
    }
    if let Some(e) = e.downcast_ref::<AnalyzeError>() {
        return Some(match e {
            AnalyzeError::Module(_) | AnalyzeError::Reach(_) => Exit::Module,
            AnalyzeError::Graph(e) => graph(e),
            AnalyzeError::Db(e) => db(e),
        });
    }
    if let Some(e) = e.downcast_ref::<ExportError>() {
        return Some(match e {
            ExportError::Module(_) | ExportError::Reach(_) => Exit::Module,
            ExportError::Graph(e) => graph(e),
            ExportError::Db(e) => db(e),
            ExportError::Query(QueryError::Rank(e)) => rank(e),
            ExportError::Query(_) => Exit::Module,
            ExportError::UnknownTier(..) => Exit::Usage,
            ExportError::Unsolved { .. } => Exit::Database,
            ExportError::Destination { .. } => Exit::Usage,
            ExportError::Write { .. } => Exit::Failure,
        });
    }
    if let Some(e) = e.downcast_ref::<PlotError>() {
        return Some(match e {
            PlotError::Format(_) | PlotError::Unwritable { .. } => Exit::Usage,
            _ => Exit::Failure,
        });
    }
    if let Some(e) = e.downcast_ref::<PlayError>() {
        return Some(match e {
            PlayError::Module(_) => Exit::Module,
            PlayError::Rank(e) => rank(e),
            _ => Exit::Failure,
        });
    }
    if let Some(e) = e.downcast_ref::<InfoError>() {
        return Some(match e {
            InfoError::Graph(e) => graph(e),
            InfoError::Db(e) => db(e),
        });
    }
    if let Some(e) = e.downcast_ref::<DbVerifyError>() {
        return Some(match e {
            DbVerifyError::Graph(e) => graph(e),
            DbVerifyError::NoSuchTier { .. } => Exit::Usage,
            DbVerifyError::Scope(_) => Exit::Module,
            DbVerifyError::Verify(VerifyError::Module { .. }) => Exit::Module,
            // A record that does not follow from its children: the database is wrong.
            DbVerifyError::Missing { .. }
            | DbVerifyError::Db { .. }
            | DbVerifyError::Verify(VerifyError::Read { .. })
            | DbVerifyError::Verify(VerifyError::Mismatch(_)) => Exit::Database,
        });
    }
    if let Some(e) = e.downcast_ref::<MpiError>() {
        return Some(match e {
            MpiError::NotFileDb { .. } | MpiError::Singletons(_) => Exit::Usage,
            MpiError::Mismatch { .. } => Exit::Module,
            MpiError::NotShared { .. } | MpiError::Journal { .. } => Exit::Database,
            MpiError::Db(e) => db(e),
            MpiError::Solve(SolveError::Module(_)) => Exit::Module,
            MpiError::Solve(SolveError::Db(e)) => db(e),
            MpiError::Solve(_) | MpiError::WorkerFailed { .. } => Exit::Solve,
            MpiError::Init | MpiError::RankSetup { .. } | MpiError::Protocol(_) => Exit::Failure,
        });
    }
    if e.is::<CatalogError>() {
        return Some(Exit::Usage);
    }
    if let Some(e) = e.downcast_ref::<ServeError>() {
        return Some(match e {
            ServeError::Catalog(_) | ServeError::Address(_) => Exit::Usage,
            ServeError::Listen { .. } | ServeError::Runtime(_) => Exit::Failure,
        });
    }
    None
}

/// The kind of an error: the first link of its chain whose type says (context added
/// with `anyhow::Context` does not change it).
pub fn classify(e: &anyhow::Error) -> Exit {
    e.chain().find_map(kind_of).unwrap_or(Exit::Failure)
}

/// The JSON form of an error.
pub fn json(e: &anyhow::Error) -> serde_json::Value {
    let kind = classify(e);
    let mut j = serde_json::json!({
        "error": error_paragraph(e.as_ref()),
        "kind": kind.name(),
        "exit_code": kind.code(),
    });
    // `solve --plan --json` that does not fit: the plan too, in the same object.
    if let Some(serde_json::Value::Object(plan)) = e
        .downcast_ref::<super::solve::PlanDoesNotFit>()
        .and_then(|p| p.plan.as_ref())
    {
        for (k, v) in plan {
            j[k] = v.clone();
        }
    }
    j
}

/// Reports `e` (stderr, or stdout as JSON) and returns the exit code it calls for. A
/// closed stdout (`host query | head -1`) is success: the reader has what it wanted.
pub fn report(e: &anyhow::Error, as_json: bool) -> ExitCode {
    if is_broken_pipe(e.as_ref()) {
        return ExitCode::SUCCESS;
    }
    // Ignored: with the stream closed too there is no one left to tell.
    if as_json {
        let _ = writeln!(std::io::stdout().lock(), "{}", json(e));
    } else {
        let _ = writeln!(std::io::stderr(), "error: {}", error_paragraph(e.as_ref()));
    }
    classify(e).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn codes_are_distinct_and_listed() {
        let all = [
            Exit::Success,
            Exit::Failure,
            Exit::Usage,
            Exit::Module,
            Exit::Database,
            Exit::Solve,
        ];
        for (i, e) in all.iter().enumerate() {
            assert_eq!(e.code() as usize, i);
            assert!(
                EXIT_CODES.contains(&format!("  {}  {}", e.code(), e.name())),
                "{e:?}"
            );
        }
    }

    #[test]
    fn context_keeps_the_kind() {
        let e = anyhow::Error::from(CliError::NoPlugin);
        assert_eq!(classify(&e), Exit::Usage);
        let e = Err::<(), _>(DbError::BadResource("x:".into()))
            .context("opening")
            .unwrap_err();
        assert_eq!(classify(&e), Exit::Usage);
        let e = anyhow::Error::from(SolveError::Db(DbError::OutOfRange(
            gamesman_plugin_api::TierPosition::new(gamesman_plugin_api::Tier(0), 9),
            3,
        )));
        assert_eq!(classify(&e), Exit::Database);
        assert_eq!(classify(&anyhow::anyhow!("other")), Exit::Failure);
        let j = json(&anyhow::Error::from(CliError::NoPlugin));
        assert_eq!(j["kind"], "usage");
        assert_eq!(j["exit_code"], 2);
    }
}
