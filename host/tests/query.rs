//! `host query` on mtttier: the JSON object for the initial position and for a
//! position after two moves, checked against brute-force minimax; the order of the
//! moves; bad positions; the text form; `--depth` with leaves scored from the stored
//! tiers. Against `memory:` and a `file:` database.

mod harness;

use harness::{host, parse, show, solved_file_db, to_move, Minimax, V};
use serde_json::Value as Json;

fn query_json(db: &str, position: Option<&str>) -> Json {
    let mut args = vec!["query", "--db", db, "--json"];
    args.extend(position);
    let run = host(&args, "");
    assert!(run.success, "query {position:?} failed: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("query --json prints one JSON object")
}

/// Checks a query object against minimax: the position, every move, the order.
fn check_against_minimax(j: &Json, board_text: &str) {
    let board = parse(board_text);
    let mut mm = Minimax::new();
    let (v, r) = mm.solve(&board);
    assert_eq!(j["position"], board_text);
    let pieces = board.iter().filter(|&&c| c != 0).count() as u64;
    assert_eq!(
        j["tier"],
        9 - pieces,
        "tiers count the pieces left to place"
    );
    assert_eq!(j["value"], v.name());
    assert_eq!(j["remoteness"], r);
    assert_eq!(j["winby"], Json::Null, "tic-tac-toe has no WinBy");
    let moves = j["moves"].as_array().unwrap();
    let empty: Vec<usize> = (0..9).filter(|&c| board[c] == 0).collect();
    assert_eq!(moves.len(), empty.len(), "one entry per legal move");
    let mut previous: Option<(u8, i64)> = None;
    for m in moves {
        let cell: usize = m["move"].as_str().unwrap().parse::<usize>().unwrap() - 1;
        assert!(empty.contains(&cell), "move {m} is not a free cell");
        let mut child = board;
        child[cell] = to_move(&board);
        let (cv, cr) = mm.solve(&child);
        assert_eq!(m["position"], show(&child).as_str());
        assert_eq!(m["value"], cv.name(), "child value of {m}");
        assert_eq!(m["remoteness"], cr, "child remoteness of {m}");
        assert_eq!(m["winby"], Json::Null);
        // The turn always changes in tic-tac-toe, so the mover gets the inverse.
        assert_eq!(m["move_value"], cv.flip().name(), "move value of {m}");
        // Best first: wins shortest first, then ties, then losses longest first.
        let key = match cv.flip() {
            V::Win => (0, cr as i64),
            V::Tie => (1, cr as i64),
            V::Lose => (3, -(cr as i64)),
        };
        if let Some(p) = previous {
            assert!(p <= key, "moves are not best first at {m}");
        }
        previous = Some(key);
    }
    // The best move achieves the position's value, one move closer to the end.
    if let Some(first) = moves.first() {
        assert_eq!(first["move_value"], v.name());
        assert_eq!(first["remoteness"], r - 1);
    }
}

fn initial_position(db: &str) {
    let j = query_json(db, None);
    assert_eq!(j["position"], "---------");
    assert_eq!(j["tier"], 9);
    assert_eq!(j["tier_name"], "0X0O");
    assert_eq!(j["value"], "tie");
    assert_eq!(j["remoteness"], 9);
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    for m in moves {
        assert_eq!(m["value"], "tie");
        assert_eq!(m["move_value"], "tie");
        assert_eq!(m["remoteness"], 8);
    }
    let mut names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    check_against_minimax(&j, "---------");
}

fn after_two_moves(db: &str) {
    // X in a corner, O on the next edge: X wins.
    let j = query_json(db, Some("XO-------"));
    let (v, r) = Minimax::new().solve(&parse("XO-------"));
    assert_eq!(v, V::Win);
    assert_eq!(j["value"], "win");
    assert_eq!(j["remoteness"], r);
    assert_eq!(j["tier_name"], "1X1O");
    check_against_minimax(&j, "XO-------");
    // And a few more, with O to move and with losses among the moves.
    for p in ["X---O----", "XO--X----", "XX-OO----", "X-O-X--O-"] {
        check_against_minimax(&query_json(db, Some(p)), p);
    }
}

fn game_over(db: &str) {
    // X has a line: O is to move and has lost; no moves are listed.
    let j = query_json(db, Some("XXXOO----"));
    assert_eq!(j["value"], "lose");
    assert_eq!(j["remoteness"], 0);
    assert_eq!(j["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn queries_in_memory() {
    initial_position("memory:");
    after_two_moves("memory:");
    game_over("memory:");
}

#[test]
fn queries_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    initial_position(&db);
    after_two_moves(&db);
    game_over(&db);
}

#[test]
fn symmetric_variant_looks_up_canonical_positions() {
    // Only canonical boards are stored; every board must still get its value.
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "symmetric");
    for p in ["---------", "XO-------", "-------OX", "O-------X"] {
        let run = host(
            &["--variant", "symmetric", "query", "--db", &db, "--json", p],
            "",
        );
        assert!(run.success, "{}", run.stderr);
        let j: Json = serde_json::from_str(&run.stdout).unwrap();
        check_against_minimax(&j, p);
    }
}

#[test]
fn bad_positions_give_the_module_message_and_fail() {
    for (text, message) in [
        ("XXX------", "cannot occur"),
        ("abc", "is not a board"),
        ("XXXOOO---", "cannot occur in a game"),
    ] {
        let run = host(&["query", "--db", "memory:", text], "");
        assert!(!run.success, "query {text} should fail");
        assert!(
            run.stderr.contains(message),
            "query {text}: stderr lacks '{message}': {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn text_output_for_people() {
    let run = host(&["query", "--db", "memory:", "XO-------"], "");
    assert!(run.success, "{}", run.stderr);
    let out = run.stdout;
    assert!(
        out.contains("position XO-------  (tier 7 \"1X1O\""),
        "{out}"
    );
    assert!(out.contains("Player 1 to move: win in"), "{out}");
    assert!(out.contains("Moves for Player 1, best first"), "{out}");
    // Nine cells minus two pieces: seven rows after the header.
    let rows = out
        .lines()
        .skip_while(|l| !l.starts_with("Moves for"))
        .skip(2)
        .count();
    assert_eq!(rows, 7, "{out}");
}

#[test]
fn depth_search_scores_leaves_from_the_stored_tiers() {
    // Only the tiers with four or more pieces are stored: a two-ply search from a
    // two-piece board reaches them, and must find the exact result there, which no
    // search this shallow could find from the rules alone.
    let dir = tempfile::tempdir().unwrap();
    let db = solved_file_db(dir.path(), "regular");
    for tier in 6..=9 {
        let f = dir
            .path()
            .join(format!("mtttier_regular_tierdb/tier_{tier}.gz"));
        std::fs::remove_file(f).unwrap();
    }
    let mut mm = Minimax::new();
    let mut seen = [0usize; 3];
    for x in 0..9 {
        for o in (0..9).filter(|&o| o != x) {
            let mut b = [0u8; 9];
            b[x] = 1;
            b[o] = 2;
            let text = show(&b);
            let run = host(&["query", "--db", &db, "--depth", "2", &text], "");
            assert!(run.success, "{text}: {}", run.stderr);
            let line = run.stdout.lines().next().unwrap_or_default();
            let (v, r) = mm.solve(&b);
            let verdict = match v {
                V::Win => format!("forced win in {r} plies"),
                V::Lose => format!("forced loss in {r} plies"),
                V::Tie => "score 0 for the player to move".to_string(),
            };
            assert!(
                line.starts_with("search to depth 2: best move ") && line.contains(&verdict),
                "{text} is {} in {r}: {line}",
                v.name()
            );
            // The move it names keeps the result: the child is the mirror value,
            // one ply closer (a tie's length is fixed: the board fills up).
            let cell: usize = line["search to depth 2: best move ".len()..]
                .split(',')
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
                - 1;
            assert_eq!(b[cell], 0, "{text}: {line}");
            let mut child = b;
            child[cell] = 1;
            assert_eq!(mm.solve(&child), (v.flip(), r - 1), "{text}: {line}");
            seen[v as usize] += 1;
        }
    }
    // Of the 72 boards, X (to move) wins 48 and ties 24.
    assert_eq!(seen, [48, 0, 24]);
    // One ply short of the stored tiers, the search knows nothing: the heuristic 0.
    let run = host(&["query", "--db", &db, "--depth", "1", "X-O------"], "");
    assert!(run.success, "{}", run.stderr);
    let line = run.stdout.lines().next().unwrap_or_default();
    assert!(
        line.starts_with("search to depth 1: best move ")
            && line.contains(", score 0 for the player to move"),
        "{line}"
    );
    assert_eq!(mm.solve(&parse("X-O------")), (V::Win, 5));
}
