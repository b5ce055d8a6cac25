//! Every position reachable from the initial position, for `analyze --every-position`
//! on games with symmetry: a forward search over the classes of the module's
//! `reach_canonical` (the symmetries that keep the player to move and reachability;
//! none for a module that does not say, and then every position is searched), tier by
//! tier, parents first, loopy tiers round by round.
//!
//! Why not the canonical search (`reach`) weighted by orbit sizes: a symmetry that also
//! swaps the player to move (Quixo's colour swap) maps a reachable position to one
//! that may be unreachable (X moves first, so a board with no X cube and X to move
//! never occurs), and weighting a canonical position by its whole orbit counted those.
//! Here a class is reached only when one of its own positions is, and every member of
//! it then is, with the same player to move.
//!
//! A position's children are its moves' results (`do_move`), none for a primitive, as
//! the solver expands it. This file knows nothing of values or databases.

use crate::engine::game::GameHandle;
use crate::engine::reach::{self, ReachError, Reachable};
use crate::engine::tier::TierGraph;
use gamesman_plugin_api::{TierPosition, Value};

/// Positions expanded per parallel task.
const CHUNK: usize = 256;

/// The reachable classes of `reach_canonical`, per tier: each marked index is a
/// class's representative, standing for `reach_orbit_size` positions.
pub fn search(game: &GameHandle, graph: &TierGraph) -> Result<Reachable, ReachError> {
    let start = game.reach_canonical(game.initial_position()?)?;
    reach::mark_forward(
        graph,
        start,
        CHUNK,
        || (),
        |_, tier, chunk, out| {
            for &i in chunk {
                let p = TierPosition::new(tier, i);
                if game.primitive(p)? != Value::UNDECIDED {
                    continue;
                }
                for m in game.moves(p)? {
                    out.push(game.reach_canonical(game.do_move(p, m)?)?);
                }
            }
            Ok(())
        },
        &|_, _| {},
    )
}
