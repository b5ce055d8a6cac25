//! The solver's base: the types every layer shares and none owns. Why a solve fails
//! (`error`, and `mismatch` for a failed verification) and what a tier needs in memory,
//! with sizes as people read them (`need`). Files here import nothing of the solver
//! outside `base`.

pub mod error;
pub mod mismatch;
pub mod need;

pub use error::{MemoryError, SolveError};
pub use need::{bytes, parse_size, TierNeed};
