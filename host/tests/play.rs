//! `host play` driven through stdin: a scripted game of mtttier with a bad move, `ps`,
//! `hint`, `undo` and the computer winning after a human blunder; computer against
//! computer; end of input; unsolved tiers; and, through the library, WinBy play on a
//! small hand-made game (prediction margins, the WinBy move vs the quickest win, `w`).

mod common;
mod harness;

use common::{register, Graph, GraphGame, Node};
use gamesman_host::engine::db;
use gamesman_host::engine::solver::{self, SolveOptions};
use gamesman_host::play::{play, GameEnd, PlayOptions, Side};
use gamesman_host::GameHandle;
use gamesman_plugin_api::Value;
use harness::{host, host_in, parse, solved_file_db, Minimax, V};

/// Human X: a bad move, ps, a corner, undo, the corner again, an edge, then a blunder
/// (9 instead of blocking at 7). The computer's replies are forced, so the game is the
/// same for every seed: O must take the centre, then block at 3, then wins at 7.
const SCRIPT: &str = "0\nps\n1\nundo\nhint\n1\n2\n9\n";

fn scripted_game(db: &str) {
    // The facts the script relies on, from brute force rather than the solver.
    let mut mm = Minimax::new();
    let only_tie = |mm: &mut Minimax, board: &str| -> Vec<usize> {
        let b = parse(board);
        (0..9)
            .filter(|&c| b[c] == 0)
            .filter(|&c| {
                let mut child = b;
                child[c] = 2;
                mm.solve(&child).0 != V::Win
            })
            .collect()
    };
    assert_eq!(
        only_tie(&mut mm, "X--------"),
        [4],
        "O must take the centre"
    );
    assert_eq!(only_tie(&mut mm, "XX--O----"), [2], "O must block at 3");
    assert_eq!(mm.solve(&parse("XXO-O---X")), (V::Win, 1), "O wins at 7");

    let run = host(&["play", "--db", db, "--seed", "7"], SCRIPT);
    assert!(run.success, "play failed: {}", run.stderr);
    let out = &run.stdout;
    let has = |s: &str| assert!(out.contains(s), "output lacks {s:?}:\n{out}");
    has("Player 1 (human) against Player 2 (computer)");
    has("Player 1 (human) to move   (Player 1 should tie in 9)");
    // The bad move: the module's message and the legal moves, then the prompt again.
    has("'0' is not a move: type a cell number 1-9\nLegal moves: 1 2 3 4 5 6 7 8 9\nPlayer 1's move");
    // ps: nine moves, all ties in 8.
    has("Moves for Player 1, best first (by remoteness):");
    let ps_rows = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 4 && w[1] == "tie" && w[2] == "8" && w[3].len() == 9)
        .count();
    assert_eq!(ps_rows, 9, "{out}");
    has("Took back 2 moves.");
    has("Hint: 1 or 2 or 3 or 4 or 5 or 6 or 7 or 8 or 9 (tie in 9)");
    assert_eq!(
        out.matches("Player 2 (computer) plays 5").count(),
        2,
        "{out}"
    );
    has("Player 2 (computer) plays 3");
    has("(Player 2 should win in 1)");
    has("Player 2 (computer) plays 7");
    has("  X X O    ( 1 2 3 )\n  - O -    ( 4 5 6 )\n  O - X    ( 7 8 9 )\n");
    has("Game over: Player 2 (computer) wins after 6 moves.");
    // The script ends there: end of input ends the player cleanly.
    assert!(
        out.trim_end().ends_with("(end of input: leaving the game)"),
        "{out}"
    );
}

#[test]
fn scripted_game_in_memory() {
    scripted_game("memory:");
}

#[test]
fn scripted_game_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    scripted_game(&db);
}

#[test]
fn computer_against_computer_ties_and_seeds_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "symmetric");
    let args = |seed: &'static str| {
        vec![
            "--variant",
            "symmetric",
            "play",
            "--db",
            db.as_str(),
            "--first",
            "computer",
            "--second",
            "computer",
            "--seed",
            seed,
        ]
    };
    let mut games = std::collections::HashSet::new();
    for seed in ["1", "2", "3", "4", "5"] {
        let a = host(&args(seed), "");
        assert!(a.success, "{}", a.stderr);
        assert!(
            a.stdout
                .contains("Game over: the game is a tie after 9 moves."),
            "{}",
            a.stdout
        );
        assert_eq!(a.stdout.matches("(computer) plays ").count(), 9);
        let b = host(&args(seed), "");
        assert_eq!(a.stdout, b.stdout, "the same seed plays the same game");
        games.insert(a.stdout);
    }
    assert!(games.len() > 1, "different seeds choose differently");
}

#[test]
fn end_of_input_and_quit_end_the_game() {
    for (script, last) in [
        ("", "(end of input: leaving the game)"),
        ("5\n", "(end of input: leaving the game)"),
        ("5\nquit\n", "Player 1's move (help for commands): quit"),
        ("help\nw\nquit\nmore lines that are never read\n", "quit"),
    ] {
        let run = host(&["play", "--db", "memory:", "--seed", "1"], script);
        assert!(run.success, "{}", run.stderr);
        assert!(
            run.stdout.trim_end().ends_with(last),
            "script {script:?}:\n{}",
            run.stdout
        );
    }
    let run = host(&["play", "--db", "memory:"], "help\nw\nquit\n");
    assert!(run.stdout.contains("undo          take back moves"));
    assert!(run
        .stdout
        .contains("mtttier does not store WinBy: the computer plays by remoteness."));
}

#[test]
fn unsolved_tiers_are_played_with_random_moves() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    // Without the initial tier the first position is unsolved; the rest are solved.
    std::fs::remove_file(dir.path().join("mtttier_regular_tierdb/tier_9.gz")).unwrap();
    let run = host(
        &[
            "play", "--db", &db, "--first", "computer", "--second", "computer", "--seed", "3",
        ],
        "",
    );
    assert!(run.success, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("(unsolved: tier 9 is not in the database)"),
        "{out}"
    );
    assert!(
        out.contains("(unsolved position: a random legal move)"),
        "{out}"
    );
    assert!(out.contains("should tie in 8"), "{out}");
    assert!(
        out.contains("Game over: the game is a tie after 9 moves."),
        "{out}"
    );
    // Nothing solved at all: the default database (an empty data directory) is an
    // error naming the solve command (issue 24), exit code 4 ...
    let empty = tempfile::tempdir().unwrap();
    let run = host_in(Some(empty.path()), &["play", "--seed", "1"], "hint\n5\n");
    assert!(!run.success);
    assert!(
        run.stderr
            .contains("there is no database of mtttier (regular)")
            && run.stderr.contains("--plugin")
            && run.stderr.contains("--variant regular solve`"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    // ... unless the computer searches where the database has nothing (--depth).
    let run = host_in(
        Some(empty.path()),
        &["play", "--seed", "1", "--depth", "2"],
        "hint\n5\n",
    );
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stderr.contains("holds nothing of mtttier (regular)"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("No hint: this position is unsolved"));
    assert!(
        run.stdout.contains("best move of a 2-ply search"),
        "{}",
        run.stdout
    );
}

/// A WinBy game: player one wins at once by 1 (n1), or in three moves by 3 (n2).
///   n0 (P1) -> n1 (P2, primitive lose, WinBy +1) | n2 (P2)
///   n2 -> n3 (P1) -> n4 (P2, primitive lose, WinBy +3)
fn winby_game() -> GameHandle {
    let node = |tier, turn, prim, winby, edges: &[usize]| Node {
        tier,
        turn,
        prim,
        winby,
        edges: edges.to_vec(),
    };
    let u = Value::UNDECIDED;
    register(
        "play-winby",
        Graph {
            nodes: vec![
                node(3, 1, u, 0, &[1, 2]),
                node(2, 2, Value::LOSE, 1, &[]),
                node(2, 2, u, 0, &[3]),
                node(1, 1, u, 0, &[4]),
                node(0, 2, Value::LOSE, 3, &[]),
            ],
            players: 2,
            winby: true,
            go_again: false,
        },
    );
    GameHandle::from_static::<GraphGame>("play-winby").unwrap()
}

fn play_script(
    game: &GameHandle,
    sides: [Side; 2],
    winby: bool,
    script: &str,
) -> (GameEnd, String) {
    let key = db::GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: true,
        numbering: 0,
    };
    let db = db::open("memory:", &key).unwrap();
    solver::solve(game, db.as_ref(), &SolveOptions::default(), &solver::Silent).unwrap();
    let options = PlayOptions {
        sides,
        seed: Some(1),
        winby,
        false_hope: false,
        echo: true,
        depth: None,
    };
    let mut out = Vec::new();
    let end = play(game, db.as_ref(), &options, script.as_bytes(), &mut out).unwrap();
    (end, String::from_utf8(out).unwrap())
}

#[test]
fn winby_play_prefers_the_margin() {
    let game = winby_game();
    let both = [Side::Computer, Side::Computer];
    let (end, out) = play_script(&game, both, true, "");
    // The stored remoteness is the quickest win's; the margin is the best line's.
    assert!(out.contains("(Player 1 should win by 3 in 1)"), "{out}");
    assert!(out.contains("Player 1 (computer) plays n2"), "{out}");
    assert!(out.contains("(Player 2 should lose by 3 in 2)"), "{out}");
    assert_eq!(
        end,
        GameEnd::Finished("Player 1 (computer) wins by 3 after 3 moves.".into())
    );
    // By remoteness the computer takes the quick win instead.
    let (end, out) = play_script(&game, both, false, "");
    assert!(out.contains("(Player 1 should win in 1)"), "{out}");
    assert!(out.contains("Player 1 (computer) plays n1"), "{out}");
    assert_eq!(
        end,
        GameEnd::Finished("Player 1 (computer) wins by 1 after 1 moves.".into())
    );
}

#[test]
fn winby_ps_and_toggle() {
    let game = winby_game();
    let (end, out) = play_script(
        &game,
        [Side::Human, Side::Computer],
        true,
        "ps\nw\nps\nhint\nw\nn2\n",
    );
    assert_eq!(end, GameEnd::EndOfInput);
    // In WinBy order the slower, larger win comes first; by remoteness the quick one.
    let by_winby = out.find("best first (by WinBy)").expect("ps by WinBy");
    let by_remoteness = out
        .find("best first (by remoteness)")
        .expect("ps by remoteness");
    let first_row = |at: usize| {
        out[at..]
            .lines()
            .nth(2)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first_row(by_winby), "n2", "{out}");
    assert_eq!(first_row(by_remoteness), "n1", "{out}");
    assert!(
        out[by_winby..].lines().nth(1).unwrap().contains("margin"),
        "{out}"
    );
    assert!(
        out.contains("The computer now plays by remoteness"),
        "{out}"
    );
    assert!(out.contains("Hint: n1 (win in 1)"), "{out}");
    assert!(out.contains("The computer now plays by WinBy"), "{out}");
    assert!(out.contains("Player 2 (computer) plays n3"), "{out}");
}

/// With nothing solved and `--depth 9`, the computer searches every move to the end of
/// tic-tac-toe: both sides play perfectly, so the game is a tie, and every move says
/// it came from the search.
#[test]
fn unsolved_positions_are_played_by_depth_limited_search() {
    let game = GameHandle::from_static::<mtttier::MttTier>("regular").unwrap();
    let key = db::GameKey {
        game: "mtttier".into(),
        variant: "regular".into(),
        winby: false,
        numbering: 0,
    };
    let empty = db::open("memory:", &key).unwrap();
    let options = PlayOptions {
        sides: [Side::Computer, Side::Computer],
        seed: Some(5),
        winby: false,
        false_hope: false,
        echo: true,
        depth: Some(9),
    };
    let mut out = Vec::new();
    let end = play(&game, empty.as_ref(), &options, "".as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        end,
        GameEnd::Finished("the game is a tie after 9 moves.".into()),
        "{text}"
    );
    assert_eq!(
        text.matches("best move of a 9-ply search").count(),
        9,
        "{text}"
    );
}

/// "False hope": player one can win by 3 or by 2 at once (n1, n5), or by 1 in three
/// moves (n2). Remoteness play takes a quick win, WinBy play the win by 3, and false
/// hope the slow win by 1.
///   n0 (P1) -> n1 (P2, lose, WinBy +3) | n2 (P2) | n5 (P2, lose, WinBy +2)
///   n2 -> n3 (P1) -> n4 (P2, lose, WinBy +1)
#[test]
fn false_hope_wins_by_the_smallest_margin() {
    let node = |tier, turn, prim, winby, edges: &[usize]| Node {
        tier,
        turn,
        prim,
        winby,
        edges: edges.to_vec(),
    };
    let u = Value::UNDECIDED;
    register(
        "play-false-hope",
        Graph {
            nodes: vec![
                node(3, 1, u, 0, &[1, 2, 5]),
                node(2, 2, Value::LOSE, 3, &[]),
                node(2, 2, u, 0, &[3]),
                node(1, 1, u, 0, &[4]),
                node(0, 2, Value::LOSE, 1, &[]),
                node(2, 2, Value::LOSE, 2, &[]),
            ],
            players: 2,
            winby: true,
            go_again: false,
        },
    );
    let game = GameHandle::from_static::<GraphGame>("play-false-hope").unwrap();
    let key = db::GameKey {
        game: game.module_name().into(),
        variant: game.variant().into(),
        winby: true,
        numbering: 0,
    };
    let db = db::open("memory:", &key).unwrap();
    solver::solve(
        &game,
        db.as_ref(),
        &SolveOptions::default(),
        &solver::Silent,
    )
    .unwrap();
    let start = game.initial_position().unwrap();
    let ranking =
        gamesman_host::engine::ask::ranking::Ranking::of(&game, db.as_ref(), start, true).unwrap();
    let names = |ms: Vec<&gamesman_host::engine::ask::ranking::RankedMove>| -> Vec<String> {
        ms.iter().map(|m| m.text.clone()).collect()
    };
    assert_eq!(names(ranking.perfect_choices()), ["n1"]);
    assert_eq!(names(ranking.false_hope_choices()), ["n2"]);
    let options = PlayOptions {
        sides: [Side::Computer, Side::Computer],
        seed: Some(1),
        winby: true,
        false_hope: true,
        echo: true,
        depth: None,
    };
    let mut out = Vec::new();
    let end = play(&game, db.as_ref(), &options, "".as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("The computer plays false hope"), "{text}");
    assert!(text.contains("Player 1 (computer) plays n2"), "{text}");
    assert_eq!(
        end,
        GameEnd::Finished("Player 1 (computer) wins by 1 after 3 moves.".into()),
        "{text}"
    );
}
