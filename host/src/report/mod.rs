//! What a run shows besides answers: charts of a game's statistics (`plot`) and progress lines
//! and bars while solving or verifying (`progress`). A front end: it reads the engine's
//! results and must not change them; the engine must not import it.

pub mod plot;
pub mod progress;
