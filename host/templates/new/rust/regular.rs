//! A game module written by `host new`: a subtraction game, complete and solvable as
//! it stands. Replace the rules with your game's, keeping `validate` happy at every
//! step (see README.md beside this crate).
//!
//! The game: a pile of stones; the players take turns taking 1, 2 or 3 stones; whoever
//! takes the last stone wins. It has one tier (tier 0) whose positions are numbered
//! `2 * stones + (player to move - 1)`, so `0..2 * (pile + 1)` covers every position.

use gamesman_plugin_api::{
    export_game, Game, List, Move, Player, Properties, Tier, TierPosition, Value, VariantInfo,
};

// ANCHOR: state
/// One variant of the game: how many stones the pile starts with.
pub struct Subtraction {
    pile: u64,
}

/// The most stones one move takes.
const MAX_TAKE: u64 = 3;

/// The stones left at `p`.
fn stones(p: TierPosition) -> u64 {
    p.position / 2
}

/// The position with `stones` left and `player` to move.
fn position(stones: u64, player: Player) -> TierPosition {
    TierPosition::new(Tier(0), 2 * stones + u64::from(player.0 - 1))
}
// ANCHOR_END: state

impl Game for Subtraction {
    // ANCHOR: metadata
    // The module's name is the crate's name: `host` keeps its databases under it.
    const NAME: &'static str = env!("CARGO_PKG_NAME");
    const AUTHORS: &'static str = "you";
    const DESCRIPTION: &'static str =
        "Take 1, 2 or 3 stones from a pile; whoever takes the last stone wins.";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("21", "a pile of 21 stones"),
            VariantInfo::new("10", "a pile of 10 stones"),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        match variant {
            "21" => Ok(Subtraction { pile: 21 }),
            "10" => Ok(Subtraction { pile: 10 }),
            other => Err(format!("no variant '{other}' (variants: 21, 10)")),
        }
    }

    fn properties(&self) -> Properties {
        Properties {
            max_moves: MAX_TAKE as u32,
            ..Properties::default()
        }
    }
    // ANCHOR_END: metadata

    // ANCHOR: rules
    fn initial_position(&self) -> TierPosition {
        position(self.pile, Player::ONE)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        // An empty pile: the other player took the last stone.
        if stones(p) == 0 {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        for take in 1..=stones(p).min(MAX_TAKE) {
            moves.push(Move(take));
        }
    }

    fn do_move(&self, p: TierPosition, m: Move) -> TierPosition {
        position(stones(p) - m.0, self.turn(p).other())
    }

    fn turn(&self, p: TierPosition) -> Player {
        Player(1 + (p.position % 2) as u8)
    }

    fn tier_size(&self, _tier: Tier) -> u64 {
        2 * (self.pile + 1)
    }
    // ANCHOR_END: rules

    // ANCHOR: text
    fn board_to_text(&self, p: TierPosition) -> String {
        let n = stones(p);
        format!("  {}  ({n} left)\n", "o".repeat(n as usize))
    }

    fn move_to_text(&self, _p: TierPosition, m: Move) -> String {
        m.0.to_string()
    }

    // `text_to_move` keeps its default: the typed text is matched against
    // `move_to_text` of every legal move.

    /// `STONES/PLAYER`, e.g. `21/1`: what `query` and `play` take on the command line.
    fn position_to_text(&self, p: TierPosition) -> String {
        format!("{}/{}", stones(p), self.turn(p).0)
    }

    fn text_to_position(&self, text: &str) -> Result<TierPosition, String> {
        let bad = || format!("'{text}' is not a position: give STONES/PLAYER, e.g. 7/2");
        let (n, player) = text.trim().split_once('/').ok_or_else(bad)?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        let player = match player.trim() {
            "1" => Player::ONE,
            "2" => Player::TWO,
            _ => return Err(bad()),
        };
        if n > self.pile {
            return Err(format!(
                "{n} stones is more than this variant's pile of {}",
                self.pile
            ));
        }
        Ok(position(n, player))
    }
    // ANCHOR_END: text
}

export_game!(Subtraction);

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(g: &Subtraction, p: TierPosition) -> Vec<Move> {
        let mut buf = [Move::default(); MAX_TAKE as usize];
        let mut list = List::new(&mut buf);
        g.generate_moves(p, &mut list);
        assert!(!list.overflowed(), "max_moves is too small");
        list.as_slice().to_vec()
    }

    #[test]
    fn the_start_has_three_moves_for_player_one() {
        let g = Subtraction::new("21").unwrap();
        let start = g.initial_position();
        assert_eq!(g.turn(start), Player::ONE);
        assert_eq!(moves(&g, start), [Move(1), Move(2), Move(3)]);
        assert_eq!(g.position_to_text(start), "21/1");
    }

    #[test]
    fn a_move_takes_stones_and_passes_the_turn() {
        let g = Subtraction::new("10").unwrap();
        let child = g.do_move(g.initial_position(), Move(3));
        assert_eq!(g.position_to_text(child), "7/2");
        assert_eq!(g.turn(child), Player::TWO);
        assert_eq!(
            moves(&g, g.text_to_position("2/1").unwrap()),
            [Move(1), Move(2)]
        );
    }

    #[test]
    fn every_position_lies_in_its_tier_and_reads_back() {
        let g = Subtraction::new("21").unwrap();
        for index in 0..g.tier_size(Tier(0)) {
            let p = TierPosition::new(Tier(0), index);
            assert_eq!(g.text_to_position(&g.position_to_text(p)), Ok(p));
            if g.primitive(p) == Value::UNDECIDED {
                for m in moves(&g, p) {
                    assert!(g.do_move(p, m).position < g.tier_size(Tier(0)));
                }
            }
        }
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let g = Subtraction::new("10").unwrap();
        assert!(g
            .text_to_position("11/1")
            .unwrap_err()
            .contains("more than"));
        assert!(g.text_to_position("3/3").is_err());
        assert!(Subtraction::new("7").is_err());
    }
}
