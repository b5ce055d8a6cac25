//! Plain values that cross the plugin boundary: tiers, positions, moves, values, players.
//!
//! Every type here is `#[repr(C)]` or `#[repr(transparent)]` over an integer so that it
//! has one fixed layout on both sides of the boundary. Nothing here allocates.

use abi_stable::StableAbi;
use std::fmt;

/// A tier number. Tiers form a DAG (apart from self-loops); children are solved first.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tier(pub u64);

/// The seed's `kBadTier`: positions in it are never touched by a solver.
pub const BAD_TIER: Tier = Tier(u64::MAX);

impl fmt::Debug for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BAD_TIER {
            write!(f, "BAD_TIER")
        } else {
            write!(f, "Tier({})", self.0)
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BAD_TIER {
            write!(f, "BAD_TIER")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A position: its tier and its index in that tier's own dense hash (`0..tier_size`).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct TierPosition {
    /// The tier the position lies in.
    pub tier: Tier,
    /// The index of the position within its tier.
    pub position: u64,
}

impl TierPosition {
    /// A position from a tier and an index; it prints as `TIER:INDEX`.
    ///
    /// ```
    /// use gamesman_plugin_api::{Tier, TierPosition};
    /// let p = TierPosition::new(Tier(3), 17);
    /// assert_eq!(p.to_string(), "3:17");
    /// assert!(p < TierPosition::new(Tier(4), 0));
    /// ```
    pub const fn new(tier: Tier, position: u64) -> Self {
        TierPosition { tier, position }
    }
}

impl fmt::Display for TierPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.tier, self.position)
    }
}

/// A move, in the module's own encoding.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct Move(pub u64);

/// An undo move (the seed's `UNDOMOVE`), in the module's own encoding; it may differ
/// from `Move` (an undone capture must say which piece comes back).
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
pub struct UndoMove(pub u64);

/// A game-theoretic value, always from the view of the player to move.
///
/// Modules return `UNDECIDED`, `WIN`, `LOSE` or `TIE` from `primitive`; the solver adds
/// `DRAW` (never resolves in a loopy game) and stores `UNSOLVED` for positions it did
/// not solve (illegal, non-canonical, or in unsolved tiers).
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Value(pub u8);

impl Value {
    /// Not a primitive position (from `primitive`), or not solved (in a database).
    pub const UNDECIDED: Value = Value(0);
    /// The player to move wins with perfect play.
    pub const WIN: Value = Value(1);
    /// The player to move loses against perfect play.
    pub const LOSE: Value = Value(2);
    /// The game ends in a tie with perfect play.
    pub const TIE: Value = Value(3);
    /// Perfect play never ends the game (loopy games only; set by the solver).
    pub const DRAW: Value = Value(4);

    /// The value for the other player (win and lose swap; tie and draw stay).
    ///
    /// ```
    /// use gamesman_plugin_api::Value;
    /// assert_eq!(Value::WIN.invert(), Value::LOSE);
    /// assert_eq!(Value::TIE.invert(), Value::TIE);
    /// assert_eq!(Value::LOSE.to_string(), "lose");
    /// ```
    pub const fn invert(self) -> Value {
        match self.0 {
            1 => Value::LOSE,
            2 => Value::WIN,
            _ => self,
        }
    }

    /// Lower-case name: `undecided`, `win`, `lose`, `tie`, `draw`, or `invalid`.
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "undecided",
            1 => "win",
            2 => "lose",
            3 => "tie",
            4 => "draw",
            _ => "invalid",
        }
    }

    /// Whether this is one of the five codes above.
    pub const fn is_valid(self) -> bool {
        self.0 <= 4
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whose turn it is: player one (`1`) or player two (`2`). Puzzles have only player one.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Player(pub u8);

impl Player {
    /// The first player (moves first; WinBy is counted from this player's view).
    pub const ONE: Player = Player(1);
    /// The second player.
    pub const TWO: Player = Player(2);

    /// The other player.
    pub const fn other(self) -> Player {
        if self.0 == 1 {
            Player::TWO
        } else {
            Player::ONE
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player {}", self.0)
    }
}
