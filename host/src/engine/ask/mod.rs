//! The questions asked of solved positions: a position's value and moves (`query`), moves
//! ranked best first (`ranking`), finding positions (`search`), whole-game statistics
//! (`analyze`) and a module's description (`info`). Reads databases; it must not write them,
//! and must not import a front end (cli, play, serve, mpi, report).

pub mod analyze;
pub mod info;
pub mod query;
pub mod ranking;
pub mod search;
