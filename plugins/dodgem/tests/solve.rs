//! Dodgem checked against the independent brute force in `brute` (its own grid, move
//! generator, reachable graph and retrograde analysis): first the module's rules on
//! every reachable position, then the host's solve of the forward-only module, value
//! and remoteness of every reachable position.
//!
//! Published results: 3x3 Dodgem is a first-player win (Berlekamp, Conway and Guy,
//! *Winning Ways*, which tabulates every 3x3 position); David desJardins found in 1996
//! that 4x4 (and 5x5) never end with perfect play, a draw. Both the brute force and the
//! solver find exactly that; the position counts and remoteness figures asserted here
//! are the brute force's own.

mod brute;

use brute::{State, Val};
use dodgem::Dodgem;
use gamesman_host::engine::db::{self, GameKey};
use gamesman_host::engine::solver::{self, Silent, SolveOptions};
use gamesman_host::GameHandle;
use gamesman_plugin_api::{Game, List, Move, Player, TierPosition, Value};

fn value_of(v: Val) -> Value {
    match v {
        Val::Win => Value::WIN,
        Val::Lose => Value::LOSE,
        Val::Draw => Value::DRAW,
    }
}

/// The module's position for a brute-force state, checked to print back the same.
fn position(module: &Dodgem, s: &State) -> TierPosition {
    let text = s.text();
    let p = module
        .text_to_position(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(module.position_to_text(p), text);
    p
}

#[test]
fn the_brute_force_follows_the_rules() {
    let start = State::start(3);
    assert_eq!(start.text(), "B--/B--/-RR:B");
    // Blue: a3-b3, a2-b2, a2-a1.
    assert_eq!(start.moves().len(), 3);
    // Blue on the right edge may drive off; sideways off the board is not a move.
    let s = State {
        grid: vec![b"--B".to_vec(), b"---".to_vec(), b"-R-".to_vec()],
        turn: b'B',
    };
    let texts: Vec<String> = s.moves().iter().map(State::text).collect();
    assert_eq!(texts, ["---/---/-R-:R", "---/--B/-R-:R"]);
    // Blue drove its last car off: Red, to move, has lost.
    assert_eq!(
        State {
            turn: b'R',
            ..s.moves()[0].clone()
        }
        .terminal(),
        Some(Val::Lose)
    );
    // Red's only car on a1, boxed in by Blue on a2 and b1, has no move: Red, to move,
    // wins (Blue should not have blocked it in).
    let stuck = State {
        grid: vec![b"---".to_vec(), b"B--".to_vec(), b"RB-".to_vec()],
        turn: b'R',
    };
    assert!(stuck.moves().is_empty());
    assert_eq!(stuck.terminal(), Some(Val::Win));
}

/// Every reachable position: the module reads the brute force's text, gives the same
/// side to move, the same finished games, and exactly the same positions one move away.
fn module_agrees_with_brute_force(variant: &str, n: usize, solved: &brute::Solved) {
    let module = Dodgem::new_for_tests(variant);
    assert_eq!(
        position(&module, &State::start(n)),
        module.initial_position()
    );
    let mut buf = vec![Move::default(); module.properties().max_moves as usize];
    for (i, s) in solved.states.iter().enumerate() {
        let p = position(&module, s);
        assert!(module.is_legal(p), "{}", s.text());
        let turn = if s.turn == b'B' {
            Player::ONE
        } else {
            Player::TWO
        };
        assert_eq!(module.turn(p), turn, "{}", s.text());
        let primitive = match s.terminal() {
            Some(v) => value_of(v),
            None => Value::UNDECIDED,
        };
        assert_eq!(module.primitive(p), primitive, "{}", s.text());
        if primitive != Value::UNDECIDED {
            continue;
        }
        let mut moves = List::new(&mut buf);
        module.generate_moves(p, &mut moves);
        assert!(!moves.overflowed());
        let mut ours: Vec<String> = moves
            .as_slice()
            .iter()
            .map(|&m| module.position_to_text(module.do_move(p, m)))
            .collect();
        let mut theirs: Vec<String> = solved.children[i]
            .iter()
            .map(|&k| solved.states[k].text())
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "children of {}", s.text());
    }
}

/// Solves `variant` with the host's solver (in memory, through the same adapter a
/// plugin uses) and checks the value and remoteness of every position the brute force
/// reaches from the start.
fn solver_agrees_with_brute_force(variant: &str, n: usize, solved: &brute::Solved) {
    let game = GameHandle::from_static::<Dodgem>(variant).unwrap();
    assert!(!game.has_undo_moves(), "dodgem gives no undo moves");
    let key = GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: false,
        numbering: 0,
    };
    let database = db::open("memory:", &key).unwrap();
    let report =
        solver::solve(&game, database.as_ref(), &SolveOptions::default(), &Silent).unwrap();
    // Tiers: every (blue, red) car count but the empty board.
    assert_eq!(report.tiers, n * n - 1, "{variant}");

    let module = Dodgem::new_for_tests(variant);
    for (i, s) in solved.states.iter().enumerate() {
        let p = position(&module, s);
        let rec = database.lookup(p).unwrap().expect("every tier is stored");
        assert_eq!(
            (rec.value, rec.remoteness),
            (value_of(solved.value[i]), solved.remoteness[i]),
            "{variant} {}",
            s.text()
        );
    }
    let (v, r) = solved.get(&State::start(n));
    assert_eq!(
        (
            report.initial_record.value,
            report.initial_record.remoteness
        ),
        (value_of(v), r)
    );
}

#[test]
fn three_by_three_is_a_first_player_win_and_module_and_solver_match_the_brute_force() {
    let solved = brute::solve(3);
    // Winning Ways: the first player wins, here in 19 moves; no reachable 3x3 position
    // is drawn.
    assert_eq!(solved.get(&State::start(3)), (Val::Win, 19));
    assert_eq!(solved.states.len(), 1_963);
    assert_eq!(solved.counts(), (1_123, 840, 0));
    module_agrees_with_brute_force("3x3", 3, &solved);
    solver_agrees_with_brute_force("3x3", 3, &solved);
}

#[test]
fn four_by_four_is_a_draw_and_module_and_solver_match_the_brute_force() {
    let solved = brute::solve(4);
    // desJardins: 4x4 never ends with perfect play.
    assert_eq!(solved.get(&State::start(4)).0, Val::Draw);
    assert_eq!(solved.states.len(), 393_900);
    assert_eq!(solved.counts(), (209_489, 149_130, 35_281));
    module_agrees_with_brute_force("4x4", 4, &solved);
    solver_agrees_with_brute_force("4x4", 4, &solved);
}
