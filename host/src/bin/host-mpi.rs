//! `host-mpi`: the `host` command line built with the `mpi` feature, under its own
//! name so a default build's `host` stays free of MPI. `solve` started by `mpirun` or
//! `srun` spreads tiers over the ranks; everything else behaves as `host`.

#[path = "../main.rs"]
mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
