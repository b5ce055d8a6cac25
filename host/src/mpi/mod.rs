//! Solving past one machine: tiers spread over MPI ranks (feature `mpi`, binary
//! `host-mpi`, started by `mpirun` or `srun`).
//!
//! Rank 0 is the manager: it checks that every rank loaded the same game and sees the
//! same database directory, finds what the database already holds, and hands out
//! tiers whose children are solved. Every other rank is a worker: it solves the tier
//! it is given with the ordinary solver (`solver::solve_and_store`, rayon threads
//! inside the rank), reading the children from the shared `file:` database and
//! storing the tier there atomically, then reports back. No records cross MPI. With
//! one rank it is the ordinary one-process solve.
//!
//! This folder is a front end: it decides who solves which tier and when, never how a
//! tier is solved. `schedule`, `checks` and `journal` are plain logic without MPI and
//! are built (and tested) without the feature too.

pub mod checks;
pub mod journal;
pub mod schedule;

#[cfg(feature = "mpi")]
mod manager;
#[cfg(feature = "mpi")]
mod messages;
#[cfg(feature = "mpi")]
mod worker;

use crate::engine::db::DbError;
use crate::engine::solver::SolveError;

/// Why a distributed solve failed.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// MPI could not be started.
    #[error("MPI could not be initialised (is this binary started by mpirun or srun from the same MPI it was built against?)")]
    Init,
    /// The launcher started several processes, but each is an MPI job of its own.
    #[error("the launcher started {0} processes, but MPI sees each as a job of one rank, so each would solve everything: start host-mpi with the mpirun of the MPI it was built with, or give srun the matching --mpi= plugin (e.g. --mpi=pmix)")]
    Singletons(usize),
    /// The database is not a directory every rank can share.
    #[error("solving over {ranks} MPI ranks needs a file:DIRECTORY database on a filesystem every rank sees, not '{resource}'")]
    NotFileDb {
        /// The resource given.
        resource: String,
        /// The number of ranks.
        ranks: usize,
    },
    /// A rank could not set up (load the game's tier graph, open the database).
    #[error("{rank} cannot take part: {reason}")]
    RankSetup {
        /// Which rank, as "rank 2 (pid 7 on node3)".
        rank: String,
        /// What went wrong there.
        reason: String,
    },
    /// A rank loaded a different game than rank 0.
    #[error("{rank} loaded {difference}; every rank must load the same module and variant (rank 0 has {module} {variant}), refusing to start")]
    Mismatch {
        /// Which rank.
        rank: String,
        /// What differs.
        difference: String,
        /// Rank 0's module.
        module: String,
        /// Rank 0's variant.
        variant: String,
    },
    /// The database directory is not the same directory on every rank.
    #[error("the database directory {dir} is not shared between the ranks: {detail}. Put it on a filesystem every node mounts at the same path (for a slow network filesystem, raise GAMESMAN_MPI_SHARED_WAIT in seconds)")]
    NotShared {
        /// Rank 0's database directory.
        dir: String,
        /// Which rank saw what.
        detail: String,
    },
    /// A worker failed to solve a tier.
    #[error("{rank} failed on tier {tier} ({name}): {message}. Tiers already stored are kept: run the same command again to resume")]
    WorkerFailed {
        /// Which rank.
        rank: String,
        /// The tier.
        tier: u64,
        /// Its name.
        name: String,
        /// The worker's error.
        message: String,
    },
    /// The ranks disagree about the protocol (a bug or mixed builds).
    #[error("MPI protocol error: {0}")]
    Protocol(String),
    /// The manager's own bookkeeping file could not be written.
    #[error("cannot write {path}: {source}")]
    Journal {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Solving failed on rank 0 (finding what the database holds, reading back the result).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A database error on rank 0.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Whether this process was started by an MPI launcher (`mpirun`, `mpiexec`, `srun`):
/// only then does `host-mpi solve` start MPI; run by hand it is one process.
pub fn launched() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "PMI_SIZE",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

/// How many processes the launcher started together, as its environment says
/// (`OMPI_COMM_WORLD_SIZE`, `PMI_SIZE`, Slurm's `SLURM_STEP_NUM_TASKS`), if any.
/// Several copies of a host without MPI would each solve everything into the same
/// directory; a host that sees this above 1 but one MPI rank is misconfigured.
pub fn launcher_tasks() -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .filter_map(|s| s.trim().parse().ok())
        .max()
}

/// What this rank did in a distributed solve.
#[cfg(feature = "mpi")]
#[derive(Debug)]
pub enum RankOutcome {
    /// Rank 0 (or the only rank): the solve's report.
    Manager(crate::engine::solver::SolveReport),
    /// A worker: its part is done; rank 0 reports.
    Worker,
}

/// Solves `game` over the ranks of the MPI job this process belongs to, into the
/// `file:` database `resource`. Every rank calls this with the same arguments.
/// `api_version` is the plugin-api version the module was built against.
#[cfg(feature = "mpi")]
pub fn solve(
    game: &crate::GameHandle,
    api_version: &str,
    resource: &str,
    options: &crate::engine::solver::SolveOptions,
) -> Result<RankOutcome, MpiError> {
    use ::mpi::topology::Communicator;
    let (universe, threading) =
        ::mpi::initialize_with_threading(::mpi::Threading::Funneled).ok_or(MpiError::Init)?;
    if threading < ::mpi::Threading::Funneled {
        log::warn!("this MPI offers only single-threaded use ({threading:?}); solver threads never call MPI, so the run goes on");
    }
    let world = universe.world();
    let (rank, size) = (world.rank() as usize, world.size() as usize);
    // Every path returns here, so the universe is dropped (MPI finalised) on every
    // rank whatever happened, after the manager has stopped every worker.
    if size == 1 {
        if let Some(n) = launcher_tasks().filter(|&n| n > 1) {
            return Err(MpiError::Singletons(n));
        }
        log::info!("one MPI rank: solving as one process");
        let key = crate::engine::db::GameKey::of(game);
        let db = crate::engine::db::open(resource, &key)?;
        let progress = crate::report::progress::for_stderr();
        let report = crate::engine::solver::solve(game, db.as_ref(), options, progress.as_ref())?;
        return Ok(RankOutcome::Manager(report));
    }
    let setup = Setup::new(game, api_version, resource, rank, size, &options.scope);
    if rank == 0 {
        manager::run(&world, game, setup, resource, options).map(RankOutcome::Manager)
    } else {
        worker::run(&world, game, setup, options).map(|()| RankOutcome::Worker)
    }
}

/// What each rank prepares before talking to the others: its tier graph, fingerprint
/// and database (or why it could not).
#[cfg(feature = "mpi")]
struct Setup {
    pid: u32,
    host: String,
    threads: usize,
    /// Ready to take part, or why not (sent to rank 0 as text by workers).
    prepared: Result<Prepared, MpiError>,
}

#[cfg(feature = "mpi")]
struct Prepared {
    graph: crate::engine::tier::TierGraph,
    fingerprint: checks::Fingerprint,
    db: crate::engine::db::file::FileDb,
}

#[cfg(feature = "mpi")]
impl Setup {
    fn new(
        game: &crate::GameHandle,
        api_version: &str,
        resource: &str,
        rank: usize,
        ranks: usize,
        scope: &crate::engine::solver::Scope,
    ) -> Setup {
        let prepared = (|| -> Result<Prepared, MpiError> {
            let root = match crate::engine::db::parse_resource(resource) {
                Ok(crate::engine::db::Resource::Dir(root)) => root,
                _ => {
                    return Err(MpiError::NotFileDb {
                        resource: resource.to_string(),
                        ranks,
                    })
                }
            };
            let key = crate::engine::db::GameKey::of(game);
            // Rank 0 holds the directory's writer lock for the whole job (another solve
            // of the same database waits for it); workers write under it.
            let db = if rank == 0 {
                crate::engine::db::file::FileDb::open(root, key)?
            } else {
                crate::engine::db::file::FileDb::open_for_job(root, key)?
            };
            let graph = crate::engine::solver::graph_of(game, scope)?;
            let fingerprint = checks::Fingerprint::of(game, api_version, &graph);
            Ok(Prepared {
                graph,
                fingerprint,
                db,
            })
        })();
        Setup {
            pid: std::process::id(),
            host: ::mpi::environment::processor_name().unwrap_or_else(|_| "?".into()),
            threads: rayon::current_num_threads(),
            prepared,
        }
    }
}
