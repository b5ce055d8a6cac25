//! `gamesman._native`: the host library seen from Python (PyO3). Opens modules by name
//! or path, lists variants, solves into a database, queries positions, and exports to
//! files that the Python side (`python/gamesman/__init__.py`) reads into pandas and
//! pyarrow. Structured answers cross as JSON text (the shapes `host --json` prints), so
//! Python sees exactly what the command line says; every error becomes a
//! `gamesman.GamesmanError` carrying the host's message.
//!
//! This is a front end: it calls the host's engine (loader, solver, query, export) and
//! must not reimplement any of it.

use gamesman_host::cli::{game_key, DbChoice};
use gamesman_host::engine::db::{self, Database, LockWait};
use gamesman_host::engine::messages::error_paragraph;
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::export::{self, ExportOptions, Format, Quiet};
use gamesman_host::{
    engine::ask::analyze, engine::ask::query, engine::load::loader, GameHandle, Module,
};
use gamesman_plugin_api::Tier;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

create_exception!(
    _native,
    GamesmanError,
    PyException,
    "An error of the gamesman host (its message is the host's)."
);

/// Any host error as a Python exception with the host's one-paragraph message.
fn err<E: Into<anyhow::Error>>(e: E) -> PyErr {
    let e: anyhow::Error = e.into();
    GamesmanError::new_err(error_paragraph(e.as_ref()))
}

/// Runs `f`, turning a panic of the host into a `GamesmanError` (PyO3 alone would
/// raise `PanicException`, a `BaseException` that `except Exception` does not catch
/// and that tears down scripts): a bug of the host must not end the interpreter.
fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(GamesmanError::new_err(format!(
                "internal error of the gamesman host (a bug; please report it): {what}"
            )))
        }
    }
}

/// One variant of a game module, with the databases it has opened.
#[pyclass(module = "gamesman._native")]
struct Game {
    module: Module,
    game: GameHandle,
    /// Databases opened by resource string (a `memory:` one lives as long as this).
    dbs: Mutex<HashMap<String, Arc<dyn Database>>>,
}

impl Game {
    /// The resource string: the one given, else `GAMESMAN_DB`, else the data directory.
    fn resource(db: Option<&str>) -> PyResult<String> {
        Ok(DbChoice::resolve(db).map_err(err)?.resource)
    }

    fn open_db(&self, resource: &str) -> PyResult<Arc<dyn Database>> {
        let mut dbs = self.dbs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(d) = dbs.get(resource) {
            return Ok(d.clone());
        }
        let d = db::open(resource, &game_key(&self.game)).map_err(err)?;
        dbs.insert(resource.to_string(), d.clone());
        Ok(d)
    }

    /// A database holding the variant, or the host's "solve it first" error.
    fn solved_db(&self, resource: &str) -> PyResult<Arc<dyn Database>> {
        let d = self.open_db(resource)?;
        if d.stored_tiers().map_err(err)?.is_empty() {
            return Err(GamesmanError::new_err(format!(
                "there is no database of {} ({}) at {}: nothing of it has been solved there. Solve it first with Game.solve({:?})",
                self.game.module_name(),
                self.game.variant(),
                d.describe(),
                resource
            )));
        }
        Ok(d)
    }
}

#[pymethods]
impl Game {
    /// The module's name.
    #[getter]
    fn name(&self) -> String {
        self.game.module_name().to_string()
    }

    /// The variant opened.
    #[getter]
    fn variant(&self) -> String {
        self.game.variant().to_string()
    }

    /// The module's variants, default first.
    #[getter]
    fn variants(&self) -> Vec<String> {
        self.module.variant_names()
    }

    /// The module's library file.
    #[getter]
    fn path(&self) -> String {
        self.module.path.display().to_string()
    }

    /// Solves the variant into `db` (default: `GAMESMAN_DB`, else the per-user data
    /// directory); tiers already there are kept unless `force`. Returns JSON.
    #[pyo3(signature = (db=None, force=false, wait=true))]
    fn solve(&self, py: Python<'_>, db: Option<&str>, force: bool, wait: bool) -> PyResult<String> {
        guarded(|| {
            let resource = Self::resource(db)?;
            let is_memory = matches!(db::parse_resource(&resource), Ok(db::Resource::Memory));
            let d = if is_memory {
                self.open_db(&resource)?
            } else {
                // Readers opened before see the new tiers only when opened again.
                self.dbs
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&resource);
                let wait = if wait {
                    LockWait::Wait
                } else {
                    LockWait::NoWait
                };
                // Waiting for another writer releases the GIL: other threads run on.
                let key = game_key(&self.game);
                py.detach(|| db::open_for_writing(&resource, &key, wait))
                    .map_err(err)?
            };
            let options = SolveOptions {
                force,
                ..SolveOptions::default()
            };
            let game = &self.game;
            let r = py
                .detach(|| solver::solve(game, d.as_ref(), &options, &Silent))
                .map_err(err)?;
            let players = game.properties().players;
            let v = serde_json::json!({
                "game": game.module_name(),
                "variant": game.variant(),
                "database": d.describe(),
                "tiers": r.tiers,
                "tiers_solved": r.tiers_solved,
                "positions": r.positions_total,
                "positions_solved": r.positions_solved,
                "seconds": r.elapsed.as_secs_f64(),
                "cpu_seconds": r.cpu_seconds,
                "value": gamesman_host::engine::outcome::value_name(r.initial_record.value, players),
                "remoteness": query::remoteness_of(&r.initial_record),
                "winby": r.initial_record.winby,
            });
            Ok(v.to_string())
        })
    }

    /// A position's answer as `host query --json` prints it (the initial position when
    /// `position` is None).
    #[pyo3(signature = (position=None, db=None))]
    fn query(&self, position: Option<&str>, db: Option<&str>) -> PyResult<String> {
        guarded(|| {
            let p = query::parse_position(&self.game, position).map_err(err)?;
            let d = self.solved_db(&Self::resource(db)?)?;
            let ranking = query::query(&self.game, d.as_ref(), p).map_err(err)?;
            let mut report = query::report(&self.game, &ranking).map_err(err)?;
            report.solution = query::shortest_solution(&self.game, d.as_ref(), p).map_err(err)?;
            serde_json::to_string(&report).map_err(err)
        })
    }

    /// Counts as `host analyze --json` prints them.
    #[pyo3(signature = (db=None))]
    fn analyze(&self, py: Python<'_>, db: Option<&str>) -> PyResult<String> {
        guarded(|| {
            let d = self.solved_db(&Self::resource(db)?)?;
            let game = &self.game;
            let a = py
                .detach(|| analyze::analyze(game, d.as_ref()))
                .map_err(err)?;
            serde_json::to_string(&a).map_err(err)
        })
    }

    /// Writes the solved positions to `out` as `host export` does; returns its report
    /// as JSON.
    #[pyo3(signature = (out, db=None, format=None, moves=false, reachable=false, tiers=None, all_positions=false))]
    #[allow(clippy::too_many_arguments)]
    fn export(
        &self,
        py: Python<'_>,
        out: PathBuf,
        db: Option<&str>,
        format: Option<&str>,
        moves: bool,
        reachable: bool,
        tiers: Option<Vec<u64>>,
        all_positions: bool,
    ) -> PyResult<String> {
        guarded(|| {
            let format = match format {
                Some(f) => Format::parse(f).ok_or_else(|| {
                    GamesmanError::new_err(format!(
                        "unknown export format {f:?}: use parquet, sqlite or csv"
                    ))
                })?,
                None => Format::of_path(&out).ok_or_else(|| {
                    GamesmanError::new_err(format!(
                        "cannot tell the format of {} from its name: pass format='parquet', 'sqlite' or 'csv'",
                        out.display()
                    ))
                })?,
            };
            let d = self.solved_db(&Self::resource(db)?)?;
            let options = ExportOptions {
                reachable,
                moves,
                tiers: tiers.map(|t| t.into_iter().map(Tier).collect()),
                all_positions,
            };
            let game = &self.game;
            let report = py
                .detach(|| export::export(game, d.as_ref(), format, &out, &options, &Quiet))
                .map_err(err)?;
            serde_json::to_string(&report).map_err(err)
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamesman.Game {} ({})>",
            self.game.module_name(),
            self.game.variant()
        )
    }
}

/// Opens `plugin` (a name on the plugin search path, or a path to the library) at
/// `variant` (default: the module's first).
#[pyfunction]
#[pyo3(signature = (plugin, variant=None))]
fn open(plugin: &str, variant: Option<&str>) -> PyResult<Game> {
    guarded(|| {
        let module = loader::load(plugin).map_err(err)?;
        let game = module.open(variant).map_err(err)?;
        Ok(Game {
            module,
            game,
            dbs: Mutex::new(HashMap::new()),
        })
    })
}

/// The variants of `plugin`, default first.
#[pyfunction]
fn variants(plugin: &str) -> PyResult<Vec<String>> {
    guarded(|| Ok(loader::load(plugin).map_err(err)?.variant_names()))
}

/// The modules on the plugin search path, as (name, path) pairs.
#[pyfunction]
fn modules() -> PyResult<Vec<(String, String)>> {
    guarded(|| {
        Ok(loader::discover()
            .iter()
            .map(|m| (m.name().to_string(), m.path.display().to_string()))
            .collect())
    })
}

/// The Python module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GamesmanError", m.py().get_type::<GamesmanError>())?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(modules, m)?)?;
    Ok(())
}
