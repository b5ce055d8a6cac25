//! The engine: everything that knows games, and nothing that talks to a user. Modules are
//! loaded and checked in `load`, driven through the game handle (`game`), cut into tiers
//! (`tier`, `reach`), solved (`solver`), stored and read back (`db`, `verify_db`), and asked
//! questions in `ask`; `record`, `outcome`, `marks`, `numbers`, `threads` and `messages` are the
//! shared vocabulary. Front ends (cli, play, serve, mpi, report) build on its public calls;
//! no file under `engine/` may import a front end (host/tests/layering.rs checks it).

pub mod abort_report;
pub mod ask;
pub mod clock;
pub mod db;
pub mod floor;
pub mod game;
pub mod huge_pages;
pub mod load;
pub mod marks;
pub mod messages;
pub mod numbers;
pub mod outcome;
pub mod reach;
pub mod reach_every;
pub mod record;
pub mod signal_safe;
pub mod solver;
pub mod threads;
pub mod tier;
pub mod verify_db;
