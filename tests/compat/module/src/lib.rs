//! A module built against the frozen plugin-api 0.1.0: the subtraction game "take 1, 2
//! or 3 from a heap of 21; whoever takes the last counter wins", one tier per heap
//! size (index 0: player 1 to move, 1: player 2), with undo moves (required in 0.1.0). Every later host must load and solve it:
//! the heap is lost for the player to move exactly when it is a multiple of 4, in
//! 2 * (n / 4) plies; otherwise won in 2 * (n / 4) + 1.
//!
//! It exists only for the binary-compatibility test and must keep compiling against
//! the 0.1.0 sources next to it, unchanged.

use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value,
    VariantInfo,
};

/// The subtraction game on one heap.
pub struct Subtraction {
    heap: u64,
}

fn at(n: u64, player: u64) -> TierPosition {
    TierPosition::new(Tier(n), player - 1)
}

impl Game for Subtraction {
    const NAME: &'static str = "compat_subtraction";
    const AUTHORS: &'static str = "the gamesman-rs team";
    const DESCRIPTION: &'static str =
        "Take 1, 2 or 3 counters from one heap; whoever takes the last wins. Built against plugin-api 0.1.0.";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("21", "a heap of 21"),
            VariantInfo::new("8", "a heap of 8"),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        match variant {
            "21" => Ok(Subtraction { heap: 21 }),
            "8" => Ok(Subtraction { heap: 8 }),
            other => Err(format!("no variant '{other}'")),
        }
    }

    fn properties(&self) -> Properties {
        Properties {
            is_tier_game: true,
            max_moves: 3,
            max_undo_moves: 3,
            max_tier_children: 3,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        at(self.heap, 1)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        if p.tier.0 == 0 {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        for k in 1..=3u64.min(p.tier.0) {
            moves.push(Move(k));
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        TierPosition::new(Tier(p.tier.0 - m.0), 1 - p.position)
    }

    fn turn(&self, p: TierPosition) -> Player {
        Player(p.position as u8 + 1)
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        format!("heap of {}, player {} to move", p.tier.0, p.position + 1)
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        m.0.to_string()
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        format!("{}/{}", p.tier.0, p.position + 1)
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let parsed = text.trim().split_once('/').and_then(|(n, p)| {
            Some((n.trim().parse::<u64>().ok()?, p.trim().parse::<u64>().ok()?))
        });
        match parsed {
            Some((n, p)) if n <= self.heap && (p == 1 || p == 2) => Ok(at(n, p)),
            _ => Err(format!(
                "'{text}' is not HEAP/PLAYER with a heap of 0 to {} and player 1 or 2",
                self.heap
            )),
        }
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        for k in 1..=3u64.min(tier.0) {
            children.push(Tier(tier.0 - k));
        }
    }

    fn tier_size(&self, _tier: Tier) -> u64 {
        2
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        let n = p.tier.0;
        if tier.0 > n && tier.0 - n <= 3 && tier.0 <= self.heap {
            undo.push(UndoMove(tier.0 - n));
        }
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> TierPosition {
        TierPosition::new(Tier(p.tier.0 + u.0), 1 - p.position)
    }

    fn tier_name(&self, tier: Tier) -> String {
        format!("heap {}", tier.0)
    }
}

export_game!(Subtraction);
