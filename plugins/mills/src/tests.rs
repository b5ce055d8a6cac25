//! The module's tests through the plugin API: tiers, numbers, moves and values of
//! every variant as `Mills` gives them to the host. It must not test `rules` or
//! `index` alone (their own files do).

use super::*;

#[test]
fn tiers_are_gamesmanones() {
    // GamesmanOne's pull request 27 has 47 tiers for five men's morris and 333 for
    // nine men's; its hash of five men's morris has 24,895,897 indices, every
    // board, as our numbers past the canonical prefix (numbered by orbits) have.
    let five = Mills::new_for_tests("5mm");
    assert_eq!(five.tier_list().len(), 47);
    let nine = Mills::new_for_tests("9mm");
    assert_eq!(nine.tier_list().len(), 333);
    let sizes: u64 = five.tier_list().iter().map(|&t| five.tier_size(t)).sum();
    let prefixes: u64 = five
        .tier_list()
        .iter()
        .map(|&t| five.canonical_prefix(t).unwrap())
        .sum();
    assert_eq!(prefixes, 1_825_493);
    assert_eq!(sizes, 24_895_897 + prefixes);
    // Every tier's children are tiers; loopy ones list themselves.
    for g in [&five, &nine] {
        for t in g.tier_list() {
            let info = g.info(t);
            assert_eq!(info.children.contains(&t), info.fixed.is_none());
            for c in &info.children {
                assert!(g.tiers.contains_key(&c.0));
            }
        }
    }
    assert!(Mills::new("10mm")
        .err()
        .expect("no such variant")
        .contains("variants: 9mm, 5mm"));
}

#[test]
fn positions_round_trip_through_text_and_moves_undo() {
    let g = Mills::new_for_tests("9mm");
    let mut p = g.initial_position();
    let mut buf = vec![Move::default(); g.properties().max_moves as usize];
    let mut ubuf = vec![UndoMove::default(); g.properties().max_undo_moves as usize];
    // A fixed walk: always the middle move, for 40 plies or until the game ends.
    for _ in 0..40 {
        if g.primitive(p) != Value::UNDECIDED {
            break;
        }
        let mut moves = List::new(&mut buf);
        g.generate_moves(p, &mut moves);
        let m = moves.as_slice()[moves.len() / 2];
        let q = g.do_move(p, m);
        assert_eq!(g.text_to_position(&g.position_to_text(q)), Ok(q));
        assert_eq!(g.text_to_move(p, &g.move_to_text(p, m)), Ok(m));
        let mut undo = List::new(&mut ubuf);
        g.generate_undo_moves_to_tier(q, p.tier, &mut undo);
        // A move changes only the points it names: no symmetry is applied.
        let (sp, sq) = (g.state(p), g.state(q));
        let m = MoveParts::decode(m.0).unwrap();
        assert_eq!(g.rules.apply(&sp, m), sq);
        assert!(
            undo.as_slice().iter().any(|&u| g.undo_move(q, u) == p),
            "{} undoes to {}",
            g.position_to_text(q),
            g.position_to_text(p)
        );
        assert_eq!(
            g.canonical_position(g.canonical_position(q)),
            g.canonical_position(q)
        );
        p = q;
    }
}

#[test]
fn is_canonical_answers_as_the_canonical_form_does() {
    for (variant, step) in [("5mm", 7), ("7mm", 101), ("9mm", 1009)] {
        let g = Mills::new_for_tests(variant);
        // Numbers that are not canonical: within the prefix (a symmetric X
        // representative) and past it.
        let (mut within, mut past) = (0, 0);
        for t in g.tier_list() {
            let info = g.info(t);
            if info.counts.board[0] + info.counts.board[1] > 12 {
                continue;
            }
            for i in (0..info.size()).step_by(step) {
                let p = TierPosition::new(t, i);
                let want = g.canonical_position(p) == p;
                assert_eq!(g.is_canonical(p), Some(want), "{variant} {p:?}");
                match (want, i < info.prefix()) {
                    (false, true) => within += 1,
                    (false, false) => past += 1,
                    _ => {}
                }
            }
            let beyond = TierPosition::new(t, info.size());
            assert_eq!(g.is_canonical(beyond), None);
        }
        assert!(within > 100 && past > 1000, "{variant}: {within} {past}");
    }
}

/// Children and parents numbered with X's orbit remembered from one to the next are
/// the states' own canonical numbers (each numbered alone, nothing remembered), on
/// every 997th position of each 9mm tier with 4 X and 4 O on the board or fewer,
/// and of each 5mm tier.
#[test]
fn remembered_orbits_number_as_the_states_do() {
    for variant in ["9mm", "5mm"] {
        let g = Mills::new_for_tests(variant);
        let mut checked = 0;
        for t in g.tier_list() {
            let info = g.info(t);
            if info.counts.board[0] > 4 || info.counts.board[1] > 4 {
                continue;
            }
            for i in (0..info.prefix()).step_by(997) {
                let s = g.state(TierPosition::new(t, i));
                let mut numbering = Numbering::new(&g);
                g.rules.for_each_move(&s, |m| {
                    let c = g.rules.apply(&s, m);
                    assert_eq!(numbering.canonical(&c), g.canonical_of_state(&c));
                    checked += 1;
                });
                for &parent in &info.children {
                    let pc = g.info(parent).counts;
                    let mut numbering = Numbering::new(&g);
                    g.rules.for_each_undo(&s, pc, |m| {
                        let q = g.rules.unapply(&s, m);
                        assert_eq!(numbering.canonical(&q), g.canonical_of_state(&q));
                        checked += 1;
                    });
                }
            }
        }
        assert!(checked > 5_000, "{variant}: {checked}");
    }
}
