//! Shared helpers for the end-to-end tests and the benchmarks: where the built binaries
//! and plugins are, how to run them safely, an independent reference tic-tac-toe to
//! check mtttier against, running `host serve` and a browser against it (our page, and GamesmanUni in `uni`).
//!
//! Nothing here may depend on the host or on a game module: the reference must stay
//! independent of the code it checks, and the runner of the code it runs.

pub mod browser;
pub mod cbuild;
pub mod classic_corpus;
pub mod gamesmanone_corpus;
pub mod hostile;
pub mod module_cli;
pub mod run;
pub mod serve;
pub mod tictactoe;
pub mod tierdb;
pub mod uni;
pub mod workspace;
