//! The adapter checks a module's canonical forms on every path that asks for one
//! (issue 22 item 3): the scan, the children of a position, the parents of a position,
//! and the single `canonical_position` call. A canonical form past its tier's size or
//! in another tier becomes a `BAD_OUTPUT` error naming the position, never a panic or
//! an index the host would read past a tier's records with.

use gamesman_plugin_api::export::new_game;
use gamesman_plugin_api::ffi::{CallErrorKind, CallResult, GameBox, ScanRecord};
use gamesman_plugin_api::{
    Game, List, Move, Player, Properties, Tier, TierPosition, UndoMove, Value, VariantInfo,
};

/// Two tiers of four positions: position `i` of tier 1 moves to position `i` of tier
/// 0, where the game is over. The symmetry hook is broken at index 2 of each tier: in
/// the `range` variant it returns index 6 (past the size), in `tier` it moves the
/// position to the other tier.
struct Bent {
    leave_tier: bool,
}

const SIZE: u64 = 4;

impl Game for Bent {
    const NAME: &'static str = "bent";
    const AUTHORS: &'static str = "tests";
    const DESCRIPTION: &'static str = "a game with a broken symmetry hook";

    fn variants() -> Vec<VariantInfo> {
        vec![
            VariantInfo::new("range", "canonical index past the tier"),
            VariantInfo::new("tier", "canonical form in another tier"),
        ]
    }

    fn new(variant: &str) -> Result<Self, String> {
        Ok(Bent {
            leave_tier: variant == "tier",
        })
    }

    fn properties(&self) -> Properties {
        Properties {
            players: 2,
            is_tier_game: true,
            has_symmetry: true,
            max_moves: 1,
            max_undo_moves: 1,
            max_tier_children: 1,
            ..Properties::default()
        }
    }

    fn initial_position(&self) -> TierPosition {
        TierPosition::new(Tier(1), 0)
    }

    fn primitive(&self, p: TierPosition) -> Value {
        if p.tier == Tier(0) {
            Value::LOSE
        } else {
            Value::UNDECIDED
        }
    }

    fn generate_moves(&self, p: TierPosition, moves: &mut List<'_, Move>) {
        if p.tier == Tier(1) {
            moves.push(Move(0));
        }
    }

    fn do_move(&self, p: TierPosition, _m: Move) -> TierPosition {
        TierPosition::new(Tier(0), p.position)
    }

    fn turn(&self, p: TierPosition) -> Player {
        if p.tier == Tier(1) {
            Player::ONE
        } else {
            Player::TWO
        }
    }

    fn board_to_text(&self, p: TierPosition) -> String {
        self.position_to_text(p)
    }

    fn position_to_text(&self, p: TierPosition) -> String {
        format!("t{}i{}", p.tier.0, p.position)
    }

    fn move_to_text(&self, _p: TierPosition, _m: Move) -> String {
        "go".into()
    }

    fn tier_children(&self, tier: Tier, children: &mut List<'_, Tier>) {
        if tier == Tier(1) {
            children.push(Tier(0));
        }
    }

    fn tier_size(&self, _tier: Tier) -> u64 {
        SIZE
    }

    fn generate_undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        undo: &mut List<'_, UndoMove>,
    ) {
        if p.tier == Tier(0) && tier == Tier(1) {
            undo.push(UndoMove(0));
        }
    }

    fn undo_move(&self, p: TierPosition, _u: UndoMove) -> TierPosition {
        TierPosition::new(Tier(1), p.position)
    }

    fn canonical_position(&self, p: TierPosition) -> TierPosition {
        match (p.position, self.leave_tier) {
            (2, false) => TierPosition::new(p.tier, SIZE + 2),
            (2, true) => TierPosition::new(Tier(1 - p.tier.0), 2),
            _ => p,
        }
    }
}

fn open(variant: &str) -> GameBox {
    new_game::<Bent>(variant)
        .into_result()
        .expect("the game opens")
}

/// Asserts `r` failed with `BAD_OUTPUT` and a message naming `position` (as
/// `tier:index (text)`) and what the hook returned.
fn assert_bad_canonical<T: std::fmt::Debug>(r: CallResult<T>, position: &str, returned: &str) {
    let e = r
        .into_result()
        .expect_err("a bad canonical form must fail the call");
    assert_eq!(e.kind, CallErrorKind::BAD_OUTPUT, "{}", e.message);
    let m = e.message.as_str();
    assert!(
        m.contains(&format!(
            "canonical_position of position {position} returned {returned}"
        )),
        "{m}"
    );
}

fn pos(tier: u64, i: u64) -> TierPosition {
    TierPosition::new(Tier(tier), i)
}

#[test]
fn every_path_refuses_a_canonical_form_past_its_tier() {
    for (variant, bad1, bad0) in [("range", "1:6", "0:6"), ("tier", "0:2", "1:2")] {
        let g = open(variant);
        // The scan of tier 1 reaches its position 2.
        let mut scan = vec![ScanRecord::default(); SIZE as usize];
        assert_bad_canonical(
            g.scan_batch(Tier(1), 0, scan.as_mut_slice().into()),
            "1:2 (t1i2)",
            bad1,
        );
        // The children of 1:2: its child 0:2 is canonicalised.
        let mut kids = vec![TierPosition::default(); 1];
        let mut counts = vec![0u32; 1];
        assert_bad_canonical(
            g.children_batch(
                Tier(1),
                [2u64].as_slice().into(),
                kids.as_mut_slice().into(),
                counts.as_mut_slice().into(),
            ),
            "0:2 (t0i2)",
            bad0,
        );
        // The parents of 0:2: its parent 1:2 is canonicalised.
        let mut parents = vec![0u64; 1];
        assert_bad_canonical(
            g.parents_batch(
                Tier(0),
                [2u64].as_slice().into(),
                Tier(1),
                parents.as_mut_slice().into(),
                counts.as_mut_slice().into(),
            ),
            "1:2 (t1i2)",
            bad1,
        );
        // The single call.
        assert_bad_canonical(g.canonical_position(pos(1, 2)), "1:2 (t1i2)", bad1);

        // Everywhere else the hook is fine and nothing fails.
        assert_eq!(
            g.canonical_position(pos(1, 3)).into_result().unwrap(),
            pos(1, 3)
        );
        g.children_batch(
            Tier(1),
            [3u64].as_slice().into(),
            kids.as_mut_slice().into(),
            counts.as_mut_slice().into(),
        )
        .into_result()
        .unwrap();
        assert_eq!((kids[0], counts[0]), (pos(0, 3), 1));
        g.parents_batch(
            Tier(0),
            [1u64].as_slice().into(),
            Tier(1),
            parents.as_mut_slice().into(),
            counts.as_mut_slice().into(),
        )
        .into_result()
        .unwrap();
        assert_eq!((parents[0], counts[0]), (1, 1));
        let mut two = vec![ScanRecord::default(); 2];
        g.scan_batch(Tier(1), 0, two.as_mut_slice().into())
            .into_result()
            .unwrap();
        assert_eq!(two[1].children, 1);
    }
}
