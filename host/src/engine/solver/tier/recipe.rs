//! How one tier is solved, decided in one place: `Recipe::choose`. From the way the
//! run asks for (`SolveMode`), the child tiers as given (whole or streamed), the
//! parents asked for (`ParentMode`) and the module's capabilities, probed once here
//! (`scan_children_batch`, `prefers_forward`, undo moves, WinBy, its largest number
//! of moves), it picks: by the children in one pass or retrograde; the cell layout;
//! the source of parents (undo moves, for a small tier within the tier only with the
//! child tiers' values read by the scan; or a reverse graph: built from a second
//! expansion, from kept moves, or from the scan's own expansion, seeded with the child
//! tiers' values); and whether a WinBy pass follows. A way a game cannot take never
//! reaches it (the planner gives only ways the game serves): a debug assertion.
//!
//! This file decides; it must not allocate or solve. It imports only `base`, `input`
//! and its siblings' constants.

use super::counters::{MERGED_MOVES, NARROW_MOVES};
use super::need::{extra_bytes, scanned_graph_bytes, SEED_BYTES};
use super::onebyte;
use crate::engine::game::GameHandle;
use crate::engine::solver::base::need::SLACK_FIXED;
use crate::engine::solver::base::SolveError;
use crate::engine::solver::input::{ChildTier, Shape};
use crate::engine::tier::TierNode;
use gamesman_plugin_api::Tier;
use std::path::PathBuf;

/// A way of solving a tier, from the fastest to the leanest. Every way stores the
/// same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SolveMode {
    /// Child tiers read whole into memory and sorted by remoteness (6 B a child
    /// position, 10 B above 2^32 positions).
    Whole,
    /// Child tiers spilled once, block by block, into level runs in a scratch file
    /// and read back a level at a time; verification reads child records through a
    /// bounded block cache. About nothing in memory per child position.
    Streamed,
    /// Streamed children, and each position's child counter merged into its record
    /// (one 16-bit cell: 2.25 B a position instead of 3.25 for one-byte counters).
    /// Games of at most `counters::MERGED_MOVES` moves a position.
    Compact,
    /// Streamed children, and counter and value in one byte a position; the
    /// remoteness of each level written out to a scratch file and merged in when the
    /// tier is written, block by block (`onebyte`): 1.25 B a position. Games of at most
    /// `counters::BYTE_MOVES` moves a position, without WinBy.
    Byte,
}

impl SolveMode {
    /// Every way, fastest first.
    pub const ALL: [SolveMode; 4] = [
        SolveMode::Whole,
        SolveMode::Streamed,
        SolveMode::Compact,
        SolveMode::Byte,
    ];

    /// The name `--solve-mode` takes and the plan prints.
    pub fn name(self) -> &'static str {
        match self {
            SolveMode::Whole => "whole",
            SolveMode::Streamed => "streamed",
            SolveMode::Compact => "compact",
            SolveMode::Byte => "byte",
        }
    }

    /// Whether `game` can be solved this way.
    pub fn serves(self, game: &GameHandle) -> bool {
        match self {
            SolveMode::Whole | SolveMode::Streamed => true,
            SolveMode::Compact => game.properties().max_moves <= MERGED_MOVES,
            SolveMode::Byte => onebyte::serves(game),
        }
    }

    /// The next leaner way `game` can be solved, if any.
    pub fn leaner_for(self, game: &GameHandle) -> Option<SolveMode> {
        let mut m = self.leaner()?;
        while !m.serves(game) {
            m = m.leaner()?;
        }
        Some(m)
    }

    /// This way, or the nearest richer one `game` can be solved in (a way forced on a
    /// game it cannot serve).
    pub fn nearest_for(self, game: &GameHandle) -> SolveMode {
        let mut m = self;
        while !m.serves(game) {
            m = match m {
                SolveMode::Byte => SolveMode::Compact,
                _ => SolveMode::Streamed,
            };
        }
        m
    }

    /// The next leaner way, if any.
    pub fn leaner(self) -> Option<SolveMode> {
        match self {
            SolveMode::Whole => Some(SolveMode::Streamed),
            SolveMode::Streamed => Some(SolveMode::Compact),
            SolveMode::Compact => Some(SolveMode::Byte),
            SolveMode::Byte => None,
        }
    }
}

impl std::fmt::Display for SolveMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SolveMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        SolveMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("'{s}' is not a way of solving: use whole, streamed, compact or byte")
            })
    }
}

impl SolveMode {
    /// The shape a tier solved this way reads its child tiers in (a child tier already
    /// held whole is used whole whatever the way).
    pub fn child_shape(self) -> Shape {
        match self {
            SolveMode::Whole => Shape::Whole,
            SolveMode::Streamed | SolveMode::Compact | SolveMode::Byte => Shape::Streamed,
        }
    }
}

/// Whether tiers of `game` may be solved through a reverse graph with parents asked
/// for as `mode` (what the memory plan counts): with `Auto`, for a module without undo
/// moves or one that asks to be solved by its children (`prefers_forward`; the tier is
/// then still solved by its parents where its scan cannot read the child tiers' values).
pub fn may_use_graph(game: &GameHandle, mode: ParentMode) -> bool {
    match mode {
        ParentMode::Forward => true,
        ParentMode::Auto => !game.has_undo_moves() || game.prefers_forward(),
        ParentMode::UndoMoves | ParentMode::UndoWithin => false,
    }
}

/// The most bytes the seeds of a tier solved by undo moves may take (`seeds`): the
/// plan does not count them, so they must fit in a quarter of the fixed slack it adds
/// to every tier's need.
const SEEDS_ROOM: u64 = SLACK_FIXED / 4;

/// How values flow from a child to a parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Two players alternate on every move: always invert.
    Alternate,
    /// A puzzle: never invert.
    Puzzle,
    /// Go-again moves: invert only when the player to move changes.
    ByTurn,
}

impl Flow {
    /// The flow a game's properties call for.
    pub fn of(game: &GameHandle) -> Flow {
        let p = game.properties();
        if p.players == 1 {
            Flow::Puzzle
        } else if p.go_again {
            Flow::ByTurn
        } else {
            Flow::Alternate
        }
    }
}

/// Which way parents are found, as asked for on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ParentMode {
    /// Undo moves when the module gives them, else the reverse graph.
    #[default]
    Auto,
    /// Always build the reverse graph (checks a module's undo moves by comparison).
    Forward,
    /// Always use undo moves (an error for a forward-only module).
    UndoMoves,
    /// Undo moves, only within the tier where the scan reads the child tiers' values
    /// (small tiers, as `Auto` does where the plan leaves no room for a graph); the
    /// leanest way for a module with undo moves.
    UndoWithin,
}

impl ParentMode {
    /// Whether tiers may be solved through a reverse graph (what the memory plan
    /// counts): with `Auto`, for a module without undo moves or one that asks to be
    /// solved by its children (`prefers_forward`; the solver then still takes the
    /// parents for a tier whose child tiers' values its scan cannot read).
    pub fn uses_graph(self, game: &GameHandle) -> bool {
        may_use_graph(game, self)
    }
}

/// How a tier's counters and records are laid out while it is solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One-byte counters beside 16-bit records (at most `NARROW_MOVES` moves).
    Narrow,
    /// Four-byte counters beside 16-bit records.
    Wide,
    /// Counter and record in one 16-bit cell (games of at most `MERGED_MOVES` moves).
    Merged,
    /// Counter and value in one byte, the remoteness written out level by level to a
    /// scratch file in the directory given (the system's when `None`); games of at
    /// most `BYTE_MOVES` moves without WinBy. The records are then assembled when the
    /// tier is stored (`onebyte`), not returned.
    Byte(Option<PathBuf>),
}

/// Where the moves of a reverse graph come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphMoves {
    /// The scan's own expansion keeps them (`scan_children_batch`).
    Scanned,
    /// One expansion keeps them for the second pass.
    Kept,
    /// Kept when graph and moves together (`parents::graph_bytes` of the moves the scan
    /// counts, and 8 B a move) take at most these bytes, else the tier is expanded twice.
    KeptWithin(u64),
}

/// Where a retrograde tier's parents come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parents {
    /// The module's undo moves (`parents_batch`).
    UndoMoves {
        /// Whether the scan expands each position and reads the values of its
        /// children in child tiers (`seeds`): undo moves are then asked only for the
        /// parents within the tier, and no child tier's positions are sent up.
        seeded: bool,
    },
    /// A reverse graph of the tier's moves into `parts` (the tiers it holds parents
    /// for, with their sizes: the child tiers and the tier itself when loopy; seeded,
    /// the tier itself only).
    Graph {
        /// The tiers the graph holds parents for.
        parts: Vec<(Tier, u64)>,
        /// Whether the scan reads the child tiers' values (`seeds`).
        seeded: bool,
        /// Where its moves come from.
        moves: GraphMoves,
    },
}

/// How a tier is solved retrograde.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retrograde {
    /// How values flow from child to parent.
    pub flow: Flow,
    /// The cell layout.
    pub layout: Layout,
    /// Where parents come from.
    pub parents: Parents,
    /// Whether the module gives WinBy (a pass after the values, which keeps the
    /// scan's children counts and leaf margins).
    pub winby: bool,
    /// Whether the player to move of every position is kept (WinBy, go-again moves).
    pub keep_turns: bool,
}

/// How one tier is solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// One pass over the tier's positions (`by_children`): a tier that is not loopy,
    /// every child tier whole, no WinBy, no go-again moves.
    ByChildren {
        /// Whether the module gives leaf values and children in one call.
        fused: bool,
    },
    /// The retrograde passes (`retrograde`).
    Retrograde(Retrograde),
}

impl Recipe {
    /// How `node` of `game` is solved in `mode` from `children`, its parents found as
    /// `parents` says; `room` is what the memory plan leaves the tier beyond its own
    /// need (bytes), `scratch` where a one-byte tier writes its remoteness log.
    /// The only place a way of solving a tier is decided. Fails only when the module
    /// fails a probe or cannot give what `parents` asks for (undo moves).
    pub fn choose(
        game: &GameHandle,
        node: &TierNode,
        children: &[ChildTier],
        mode: SolveMode,
        parents: ParentMode,
        room: u64,
        scratch: impl FnOnce() -> Option<PathBuf>,
    ) -> Result<Recipe, SolveError> {
        debug_assert!(
            mode.serves(game),
            "{mode} planned for a game it does not serve"
        );
        let p = game.properties();
        let flow = Flow::of(game);
        let winby = p.supports_winby;
        let all_whole = children.iter().all(|c| matches!(c, ChildTier::Whole(_)));
        let layout = match mode {
            SolveMode::Byte => Layout::Byte(scratch()),
            // A tier that is not loopy needs no parents: one pass over its positions.
            _ if !node.loopy && !winby && flow != Flow::ByTurn && all_whole => {
                let fused = game.scan_children_batch(node.tier, 0, &mut [], &mut [])?;
                return Ok(Recipe::ByChildren { fused });
            }
            // Counters merged into the records save a byte (or four) a position; each
            // update is then one compare-and-swap on one cell.
            SolveMode::Compact => Layout::Merged,
            _ if p.max_moves <= NARROW_MOVES => Layout::Narrow,
            _ => Layout::Wide,
        };
        // A tier solved through a reverse graph the fastest way (separate counters,
        // every child tier whole in memory) keeps the scan's expansion for the graph,
        // when the module can give both at once (`scan_children_batch`). In a
        // two-player game without WinBy, the values of the children in child tiers are
        // then read as the scan expands each position (`seeds`), and the graph holds
        // only the tier's moves within itself. A module that gives undo moves is solved
        // through the graph too, when its scan gives the moves and the graph (with the
        // kept moves, and the seeds where they are read) fits in the room the plan left
        // (`need::scanned_graph_bytes`); seeded always, for a module that asks for it
        // (`prefers_forward`). One expansion of each position then serves the scan and
        // the parents, where undo moves expand the tier a second time, backward.
        // Otherwise it is solved by its parents.
        let whole = all_whole && matches!(layout, Layout::Narrow | Layout::Wide);
        let fusable = whole && game.scan_children_batch(node.tier, 0, &mut [], &mut [])?;
        let seedable =
            fusable && flow == Flow::Alternate && !winby && node.stored <= u32::MAX as u64;
        let graph = match parents {
            ParentMode::UndoMoves | ParentMode::UndoWithin if !game.has_undo_moves() => {
                return Err(SolveError::NoUndoMoves(game.module_name().to_string()))
            }
            ParentMode::Auto if game.has_undo_moves() => {
                (seedable && game.prefers_forward())
                    || (fusable && scanned_graph_bytes(game, node, seedable) <= room)
            }
            _ => may_use_graph(game, parents),
        };
        let parents = if !graph {
            // Seeded, each position is expanded once by the scan instead of each child
            // tier's positions asking for their parents here: the module's undo moves
            // then run only within the tier (`--parents undo-moves` keeps them all).
            // The plan counts no seeds: only a tier whose seeds fit in a share of the
            // slack every tier's need carries is seeded.
            Parents::UndoMoves {
                seeded: seedable
                    && matches!(parents, ParentMode::Auto | ParentMode::UndoWithin)
                    && node.stored.saturating_mul(SEED_BYTES) <= SEEDS_ROOM,
            }
        } else {
            let seeded = seedable;
            let parts = match (seeded, node.loopy) {
                (false, _) => graph_tiers(game, node)?,
                (true, true) => vec![(node.tier, node.stored)],
                (true, false) => Vec::new(),
            };
            // Keeping the first pass's moves (8 bytes each) saves expanding the tier a
            // second time. It is done when the plan left room: the tier is solved the
            // fastest way, or graph and moves together stay within what the plan
            // counted for the graph (`need::extra_bytes`). An allocation that fails
            // still ends in a leaner way, as any other array's would.
            let moves = if fusable {
                GraphMoves::Scanned
            } else if whole {
                GraphMoves::Kept
            } else {
                GraphMoves::KeptWithin(extra_bytes(game, node, true))
            };
            Parents::Graph {
                parts,
                seeded,
                moves,
            }
        };
        Ok(Recipe::Retrograde(Retrograde {
            flow,
            layout,
            parents,
            winby,
            keep_turns: winby || flow == Flow::ByTurn,
        }))
    }
}

/// The tiers a reverse graph of `node` holds parents for: its child tiers, and itself
/// when loopy (last), with their stored sizes. Only stored positions have records, so
/// only they are ever sent to their parents: a module that numbers its canonical
/// positions first needs offsets for those alone (a 5x5 Quixo tier's 15.6 M of its
/// 250 M indices).
fn graph_tiers(game: &GameHandle, node: &TierNode) -> Result<Vec<(Tier, u64)>, SolveError> {
    let mut child_tiers = Vec::with_capacity(node.children.len() + 1);
    for &c in &node.children {
        child_tiers.push((c, game.stored_size(c)?));
    }
    if node.loopy {
        child_tiers.push((node.tier, node.stored));
    }
    Ok(child_tiers)
}
