//! End-to-end: game modules written in C, built with the book's `cc` commands and
//! driven through the real `host` and `validate` binaries exactly like Rust modules:
//! the GamesmanClassic tic-tac-toe (plugins/c/mttt, unchanged Classic code with the
//! compatibility layer, regular API only, so forward-only), the tier game written
//! against gamesman_plugin.h (plugins/c/ctttier, mtttier's numbering, undo moves) and a
//! Classic Tier Gamesman module (tests/c-modules/classic_tier.c: hash window, undo
//! moves). Their numbers are checked against mtttier and against the independent
//! reference in `e2e_tests::tictactoe`.

use e2e_tests::cbuild::{
    build_classic_module, build_header_module, workspace_root, CLASSIC_COMMAND, HEADER_COMMAND,
};
use e2e_tests::module_cli::{analyze, host, json, path, query, validate};
use e2e_tests::run::{run, run_host, run_with_input, DEFAULT_TIMEOUT};
use e2e_tests::tictactoe::{reachable_by_pieces, reachable_classes_by_pieces};
use e2e_tests::workspace::{artifact_dir, host_binary, plugin};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Command;

fn mttt() -> PathBuf {
    build_classic_module("plugins/c/mttt/mttt.c", "mttt", &[])
}

fn ctttier() -> PathBuf {
    build_header_module("plugins/c/ctttier/ctttier.c", "ctttier", &[])
}

fn classic_tier() -> PathBuf {
    build_classic_module("tests/c-modules/classic_tier.c", "classic_tier", &[])
}

fn check_status<'a>(report: &'a Json, name: &str) -> &'a Json {
    report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == name)
        .map(|c| &c["status"])
        .unwrap_or_else(|| panic!("no check {name}"))
}

fn reachable_boards() -> u64 {
    reachable_by_pieces().iter().map(|s| s.len() as u64).sum()
}

fn reachable_classes() -> u64 {
    reachable_classes_by_pieces()
        .iter()
        .map(|s| s.len() as u64)
        .sum()
}

/// A query's moves as (move text, value, remoteness), sorted by move.
fn moves(q: &Json) -> Vec<(String, String, u64)> {
    let mut out: Vec<(String, String, u64)> = q["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["move"].as_str().expect("move text").to_string(),
                m["move_value"].as_str().expect("move value").to_string(),
                m["remoteness"].as_u64().expect("remoteness"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn classic_tic_tac_toe_is_a_tie_in_9_with_mtttiers_counts() {
    let q = query(&mttt(), "1", None);
    assert_eq!(q["position"], "1_---------");
    assert_eq!(q["value"], "tie");
    assert_eq!(q["remoteness"], 9);
    let m = moves(&q);
    assert_eq!(m.len(), 9);
    assert!(m.iter().all(|(_, v, r)| v == "tie" && *r == 8), "{m:?}");

    let classic = analyze(&mttt(), "1");
    let rust = analyze(&plugin("mtttier"), "regular");
    assert_eq!(classic["reachable"]["counts"]["total"], reachable_boards());
    assert_eq!(reachable_boards(), 5478);
    // Every value and remoteness count of the reachable positions agrees.
    assert_eq!(classic["reachable"]["counts"], rust["reachable"]["counts"]);
    // The layer declares exactly the reachable positions legal, as Classic solves them.
    // Classic's mttt keeps no turn in its positions (turn-free, plugin-api 0.1.5), so
    // its counts are not split by the player to move as mtttier's are.
    assert_eq!(classic["legal"]["counts"]["by_turn"], Json::Null);
    let mut rust_legal = rust["legal"]["counts"].clone();
    rust_legal
        .as_object_mut()
        .expect("counts")
        .remove("by_turn");
    assert_eq!(classic["legal"]["counts"], rust_legal);
}

#[test]
fn classic_tic_tac_toe_validates_in_all_four_options() {
    for (variant, reachable) in [
        ("1", reachable_boards()),
        ("2", reachable_boards()),
        ("3", reachable_classes()),
        ("4", reachable_classes()),
    ] {
        let j = validate(&mttt(), variant);
        assert_eq!(
            j["summary"]["reachable_positions"], reachable,
            "option {variant}"
        );
        assert_eq!(j["summary"]["tiers"], 1);
        for name in ["children", "primitive", "text-round-trip", "turn"] {
            assert_eq!(
                check_status(&j, name),
                "pass",
                "option {variant}, check {name}"
            );
        }
        if variant == "3" || variant == "4" {
            assert_eq!(check_status(&j, "symmetry"), "pass", "option {variant}");
        }
    }
    assert_eq!(reachable_classes(), 765);
}

#[test]
fn classic_tic_tac_toe_answers_queries_like_mtttier() {
    // Positions from the start, in the middle, one move from a win, and finished.
    for board in [
        "x--------",
        "x---o----",
        "xx--o-o--",
        "xo-xo-x--",
        "xxo-o----",
    ] {
        let xs = board.matches('x').count();
        let os = board.matches('o').count();
        let turn = if xs == os { 1 } else { 2 };
        let classic = query(&mttt(), "1", Some(&format!("{turn}_{board}")));
        let rust = query(&plugin("mtttier"), "regular", Some(&board.to_uppercase()));
        assert_eq!(classic["value"], rust["value"], "{board}");
        assert_eq!(classic["remoteness"], rust["remoteness"], "{board}");
        assert_eq!(moves(&classic), moves(&rust), "{board}");
    }
    // The misere option: completing a line loses, so the player to move at a board
    // where the opponent just did wins at once.
    let q = query(&mttt(), "2", Some("2_xxx-oo---"));
    assert_eq!(q["value"], "win");
    assert_eq!(q["remoteness"], 0);
}

#[test]
fn classic_tic_tac_toe_plays_perfectly_and_rejects_bad_moves() {
    let r = host(
        &mttt(),
        &[
            "play", "--db", "memory:", "--first", "computer", "--second", "computer", "--seed", "7",
        ],
    );
    assert!(
        r.stdout
            .contains("Game over: the game is a tie after 9 moves."),
        "{}",
        r.describe()
    );
    // A human's input: a move that does not exist, then a real one.
    let mut cmd = Command::new(host_binary());
    cmd.args([
        "--plugin",
        path(&mttt()),
        "play",
        "--db",
        "memory:",
        "--seed",
        "1",
    ]);
    let r = run_with_input(cmd, b"10\n5\nquit\n", DEFAULT_TIMEOUT);
    assert!(
        r.stdout
            .contains("'10' is not a legal move here; legal moves: 1 2 3 4 5 6 7 8 9"),
        "{}",
        r.describe()
    );
    // The board after 5, printed by the module's PrintPosition.
    assert!(
        r.stdout.contains("( 4 5 6 )           : - x -"),
        "{}",
        r.describe()
    );
}

#[test]
fn classic_module_solves_into_files_and_answers_from_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("file:{}", dir.path().display());
    let r = host(&mttt(), &["solve", "--db", &db]);
    assert!(r.stdout.contains("solved mttt (1)"), "{}", r.describe());
    let r = host(&mttt(), &["query", "--db", &db, "--json", "1_x---o----"]);
    let q = json(&r);
    assert_eq!(q["value"], "tie");
    assert_eq!(q["remoteness"], 7);
}

#[test]
fn header_module_matches_mtttier_position_by_position() {
    for (variant, reachable) in [
        ("regular", reachable_boards()),
        ("symmetric", reachable_classes()),
    ] {
        let j = validate(&ctttier(), variant);
        assert_eq!(j["summary"]["reachable_positions"], reachable);
        assert_eq!(j["summary"]["tiers"], 10);
        for name in [
            "children",
            "undo-moves",
            "primitive",
            "text-round-trip",
            "turn",
        ] {
            assert_eq!(check_status(&j, name), "pass", "{variant}, check {name}");
        }
        // The same numbering as mtttier: every count, per tier, legal and reachable.
        let c = analyze(&ctttier(), variant);
        let rust = analyze(&plugin("mtttier"), variant);
        for key in ["reachable", "legal", "tiers"] {
            assert_eq!(c[key], rust[key], "{variant}: {key}");
        }
    }
    let q = query(&ctttier(), "regular", None);
    assert_eq!(q["value"], "tie");
    assert_eq!(q["remoteness"], 9);
    let rust = query(&plugin("mtttier"), "regular", Some("X---O----"));
    let c = query(&ctttier(), "regular", Some("X---O----"));
    assert_eq!(c, rust);
    // Play: the module's own text_to_move rejects input with its message.
    let mut cmd = Command::new(host_binary());
    cmd.args([
        "--plugin",
        path(&ctttier()),
        "play",
        "--db",
        "memory:",
        "--seed",
        "2",
    ]);
    let r = run_with_input(cmd, b"0\n5\nquit\n", DEFAULT_TIMEOUT);
    assert!(
        r.stdout
            .contains("'0' is not a move: type a cell number 1-9"),
        "{}",
        r.describe()
    );
    assert!(
        r.stdout.contains("  - X -    ( 4 5 6 )"),
        "{}",
        r.describe()
    );
}

#[test]
fn classic_tier_module_solves_through_its_undo_moves() {
    let j = validate(&classic_tier(), "1");
    assert_eq!(j["summary"]["reachable_positions"], reachable_boards());
    assert_eq!(j["summary"]["tiers"], 10);
    assert_eq!(check_status(&j, "undo-moves"), "pass");
    // Parents from the module's undo moves, and again from the reverse graph.
    for parents in ["undo-moves", "forward"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = format!("file:{}", dir.path().display());
        host(
            &classic_tier(),
            &["solve", "--db", &db, "--parents", parents],
        );
        let q = json(&host(&classic_tier(), &["query", "--db", &db, "--json"]));
        assert_eq!(q["value"], "tie", "{parents}");
        assert_eq!(q["remoteness"], 9, "{parents}");
        let a = json(&host(&classic_tier(), &["analyze", "--db", &db, "--json"]));
        let rust = analyze(&plugin("mtttier"), "regular");
        assert_eq!(
            a["reachable"]["counts"], rust["reachable"]["counts"],
            "{parents}"
        );
    }
    let info = host(&classic_tier(), &["info", "--json"]);
    let info = json(&info);
    assert_eq!(info["properties"]["tier_game"], true);
    assert_eq!(info["initial_position"]["tier_name"], "0 pieces");
    // Indexed by TIERPOSITION alone, as Classic's tier solver counts: every legal board
    // once (its IsLegal accepts the reachable ones), the turn not part of the index.
    assert_eq!(info["properties"]["turn_free"], true);
    let a = analyze(&classic_tier(), "1");
    assert_eq!(a["legal"]["counts"]["total"], reachable_boards());
}
#[test]
fn a_c_module_loads_by_bare_name_next_to_the_host() {
    let name = format!("ctttier_bare_{}", std::process::id());
    let beside = artifact_dir().join(format!("lib{name}.so"));
    std::fs::copy(ctttier(), &beside).expect("copy next to the host");
    let r = run_host(&host_binary(), &["--plugin", &name, "info"]);
    std::fs::remove_file(&beside).expect("remove the copy");
    r.assert_success();
    assert!(r.stdout.starts_with("ctttier: "), "{}", r.describe());
    assert!(r.stdout.contains("C ABI 1"), "{}", r.describe());
}

#[test]
fn the_book_documents_both_c_builds() {
    let book = |chapter: &str| {
        let path = workspace_root().join("docs/book/src/guide").join(chapter);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let classic = CLASSIC_COMMAND
        .replace("{source}", "mymodule.c")
        .replace("{output}", "libmymodule.so");
    assert!(
        book("classic.md").contains(&classic),
        "the book's Classic chapter must show `{classic}`"
    );
    let header = HEADER_COMMAND
        .replace("{source}", "mygame.c")
        .replace("{output}", "libmygame.so");
    assert!(
        book("c-modules.md").contains(&header),
        "the book's C chapter must show `{header}`"
    );
}

/// The offsets of `CModuleStruct`'s fields, by name.
macro_rules! offsets {
    ($ty:ty: $($field:ident),* $(,)?) => {
        vec![$((stringify!($field), std::mem::offset_of!($ty, $field))),*]
    };
}

#[test]
fn the_host_reads_the_header_struct_at_the_compilers_offsets() {
    use gamesman_host::engine::load::cmodule::abi::{
        CError, CModuleStruct, CPosition, CProperties, CVariant,
    };
    let fields = offsets!(CModuleStruct:
        abi_version, struct_size, flags, name, authors, description, variants, variant_count,
        max_moves, max_undo_moves, max_tier_children, new_game, free_game, properties,
        initial_position, primitive, generate_moves, do_move, turn, board_to_text,
        move_to_text, text_to_move, position_to_text, text_to_position, tier_children,
        tier_size, is_legal, generate_undo_moves_to_tier, undo_move, tier_name, children,
        parents, win_by, canonical_position, score, position_to_autogui, move_to_autogui,
        scan_position, is_canonical, memory_budget,
    );
    let mut expected: Vec<String> = fields
        .iter()
        .map(|(f, o)| format!("gamesman_module.{f} {o}"))
        .collect();
    let sizes = [
        ("gamesman_module", std::mem::size_of::<CModuleStruct>()),
        ("gamesman_position", std::mem::size_of::<CPosition>()),
        ("gamesman_error", std::mem::size_of::<CError>()),
        ("gamesman_properties", std::mem::size_of::<CProperties>()),
        ("gamesman_variant", std::mem::size_of::<CVariant>()),
    ];
    expected.extend(sizes.iter().map(|(t, s)| format!("sizeof {t} {s}")));
    // A C program printing the same facts as the compiler sees them in the header.
    let mut program =
        String::from("#include <stddef.h>\n#include \"gamesman_plugin.h\"\nint main(void) {\n");
    for (f, _) in &fields {
        program.push_str(&format!(
            "  printf(\"gamesman_module.{f} %zu\\n\", offsetof(gamesman_module, {f}));\n"
        ));
    }
    for (t, _) in &sizes {
        program.push_str(&format!("  printf(\"sizeof {t} %zu\\n\", sizeof({t}));\n"));
    }
    program.push_str("  return 0;\n}\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("layout.c");
    let exe = dir.path().join("layout");
    std::fs::write(&source, program).expect("write the program");
    let mut cc = Command::new("cc");
    cc.arg("-I")
        .arg(workspace_root().join("plugin-api/c"))
        .arg(&source)
        .arg("-o")
        .arg(&exe);
    let r = run(cc, DEFAULT_TIMEOUT);
    assert!(r.status.success(), "{}", r.describe());
    let r = run(Command::new(&exe), DEFAULT_TIMEOUT);
    assert!(r.status.success(), "{}", r.describe());
    let printed: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    assert_eq!(printed, expected);
}

/// The go-again pile of tests/c-modules/classic_goagain.c, solved here by plain
/// recursion: (value for the mover, remoteness, WinBy from player one's view) as the
/// host defines them (WinBy: the maximum over the children when player one moves, the
/// minimum when player two does).
fn pile_reference(
    tokens: i64,
    difference: i64,
    turn: u8,
    memo: &mut std::collections::HashMap<(i64, i64, u8), (&'static str, u64, i64)>,
) -> (&'static str, u64, i64) {
    if let Some(&r) = memo.get(&(tokens, difference, turn)) {
        return r;
    }
    let r = if tokens == 0 {
        let won = (turn == 1) == (difference > 0);
        (if won { "win" } else { "lose" }, 0, difference)
    } else {
        let mut wins = Vec::new();
        let mut losses = Vec::new();
        let mut margins = Vec::new();
        for take in 1..=tokens.min(3) {
            let again = take == 2;
            let next = if again { turn } else { 3 - turn };
            let d = difference + if turn == 1 { take } else { -take };
            let (v, r, w) = pile_reference(tokens - take, d, next, memo);
            let for_mover_wins = if again { v == "win" } else { v == "lose" };
            if for_mover_wins {
                wins.push(r);
            } else {
                losses.push(r);
            }
            margins.push(w);
        }
        let winby = if turn == 1 {
            *margins.iter().max().expect("moves")
        } else {
            *margins.iter().min().expect("moves")
        };
        match wins.iter().min() {
            Some(r) => ("win", r + 1, winby),
            None => ("lose", losses.iter().max().expect("moves") + 1, winby),
        }
    };
    memo.insert((tokens, difference, turn), r);
    r
}

#[test]
fn classic_go_again_and_winby_follow_the_turn_the_layer_tracks() {
    let lib = build_classic_module("tests/c-modules/classic_goagain.c", "classic_goagain", &[]);
    let j = validate(&lib, "1");
    assert_eq!(check_status(&j, "primitive"), "pass");
    let info = json(&host(&lib, &["info", "--json"]));
    assert_eq!(info["properties"]["go_again"], true);
    assert_eq!(info["properties"]["winby"], true);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("file:{}", dir.path().display());
    host(&lib, &["solve", "--db", &db]);
    // Every position reachable from the start, against the reference.
    let mut memo = std::collections::HashMap::new();
    let mut todo = vec![(7i64, 0i64, 1u8)];
    let mut seen = std::collections::HashSet::new();
    while let Some((tokens, difference, turn)) = todo.pop() {
        if !seen.insert((tokens, difference, turn)) {
            continue;
        }
        let position = ((tokens * 15 + difference + 7) * 2 + i64::from(turn) - 1) as u64;
        let q = json(&host(
            &lib,
            &[
                "query",
                "--db",
                &db,
                "--json",
                &format!("#{turn}:{position}"),
            ],
        ));
        let (v, r, w) = pile_reference(tokens, difference, turn, &mut memo);
        let at = format!("{tokens} tokens, difference {difference}, player {turn}");
        assert_eq!(q["value"], v, "{at}");
        assert_eq!(q["remoteness"], r, "{at}");
        assert_eq!(q["winby"], w, "{at}");
        for take in 1..=tokens.min(3) {
            let next = if take == 2 { turn } else { 3 - turn };
            let d = difference + if turn == 1 { take } else { -take };
            todo.push((tokens - take, d, next));
        }
    }
    // The layer's reachable pairs are exactly the game's reachable positions.
    let a = json(&host(&lib, &["analyze", "--db", &db, "--json"]));
    assert_eq!(a["reachable"]["counts"]["total"], seen.len() as u64);
    assert_eq!(a["legal"]["counts"]["total"], seen.len() as u64);
    let start = pile_reference(7, 0, 1, &mut memo);
    assert_eq!(start.0, "win");
}
