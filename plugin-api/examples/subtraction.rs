//! A complete game module in one file: the subtraction game. Two players take turns
//! taking 1, 2 or 3 stones from one heap; whoever takes the last stone wins.
//!
//! It gives only the regular API (no tiers, no undo moves): the host finds every
//! position's parents itself. Build it with `cargo build --release --examples`, then
//! `host --plugin target/release/examples/libsubtraction.so solve`. A position's
//! index is the stones left times two, plus one when player two is to move: the
//! position must say whose turn it is, because the host inverts a child's value when
//! the turn changes. `query` takes positions as `0:INDEX` (tier 0, the only tier).

use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, Value, VariantInfo,
};

/// The subtraction game on a heap of `heap` stones.
pub struct Subtraction {
    heap: u64,
}

/// The index of the position with `stones` left and `player` to move.
fn index(stones: u64, player: Player) -> u64 {
    stones * 2 + u64::from(player == Player::TWO)
}

/// The stones left at `p`.
fn stones(p: TierPosition) -> u64 {
    p.position / 2
}

impl Game for Subtraction {
    const NAME: &'static str = "subtraction";
    const AUTHORS: &'static str = "the gamesman-rs team (the plugin-api example)";
    const DESCRIPTION: &'static str =
        "The subtraction game: take 1, 2 or 3 stones from a heap; taking the last stone wins.";

    fn variants() -> Vec<VariantInfo> {
        // The first is the default; `new` also accepts any other heap size.
        vec![
            VariantInfo::new("10", "a heap of 10 stones"),
            VariantInfo::new("21", "a heap of 21 stones"),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        let heap = variant
            .trim()
            .parse()
            .ok()
            .filter(|h| (1..=1_000_000).contains(h))
            .ok_or_else(|| format!("'{variant}' is not a heap size: give 1 to 1000000 stones"))?;
        Ok(Subtraction { heap })
    }

    fn properties(&self) -> Properties {
        // Two players, no tiers, no WinBy; at most three moves at a position.
        Properties {
            max_moves: 3,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        TierPosition::new(Tier(0), index(self.heap, Player::ONE))
    }

    fn primitive(&self, p: TierPosition) -> Value {
        // No stones left: the opponent took the last one, so the player to move lost.
        if stones(p) == 0 {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        for take in 1..=stones(p).min(3) {
            moves.push(Move(take));
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        let next = index(stones(p) - m.0, self.turn(p).other());
        TierPosition::new(p.tier, next)
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.position.is_multiple_of(2) {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        format!("{} stones left", stones(p))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        // The default `text_to_move` matches typed text against these names.
        m.0.to_string()
    }

    fn tier_size(&self, _tier: Tier) -> u64 {
        // A game without tiers is one tier 0 holding every position: 0..=heap stones,
        // either player to move.
        2 * (self.heap + 1)
    }
}

export_game!(Subtraction);
