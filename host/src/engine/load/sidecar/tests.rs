//! The sidecar's checks: a good file gives each variant's board; every bad one is
//! refused with the file and the entry named, and reading never blocks or follows a
//! link out of the folder.

use super::*;

const GOOD: &str = r#"{"format":1,"module":"ttt","variants":{"regular":{"defaultTheme":"a","themes":{"a":{"space":[3,3],"centers":[[0.5,0.5],[1.5,0.5],[2.5,0.5]],"background":"ttt/3x3grid.svg","charImages":{"x":{"image":"ttt/x.svg","scale":1},"o":{"image":"ttt/o.svg","scale":1}},"animationType":"entityFade"}}}}}"#;

fn variants() -> Vec<String> {
    vec!["regular".into(), "misere".into()]
}

fn err(text: &str) -> String {
    parse(
        Path::new("/m/libttt.so.autogui.json"),
        text.as_bytes(),
        "ttt",
        &variants(),
    )
    .unwrap_err()
    .to_string()
}

#[test]
fn a_good_sidecar_gives_a_board_per_variant() {
    let s = parse(Path::new("x"), GOOD.as_bytes(), "ttt", &variants()).unwrap();
    let v = s.variant("regular").unwrap();
    assert!(s.variant("misere").is_none());
    assert_eq!(v.board.centers, [(0.5, 0.5), (1.5, 0.5), (2.5, 0.5)]);
    assert_eq!((v.board.width, v.board.height), (3.0, 3.0));
    let chars: Vec<char> = v.board.tokens.iter().map(|t| t.ch).collect();
    assert_eq!(chars, ['o', 'x']);
    assert!(v.json.contains("\"ttt/x.svg\""));
    assert_eq!(check_position(v, "1_x-o"), Ok(()));
    assert!(check_position(v, "1_x-O")
        .unwrap_err()
        .contains("'O', which has no image"));
    assert_eq!(check_position(v, "1_x-"), Ok(()));
    assert!(check_position(v, "1_x--o")
        .unwrap_err()
        .contains("4 cells for the 3 centers"));
    assert!(check_position(v, "3_x--").unwrap_err().contains("1_ or 2_"));
}

#[test]
fn bad_entries_are_named() {
    let e = err(&GOOD.replace("[2.5,0.5]", "[3.5,0.5]"));
    assert!(
        e.contains("/m/libttt.so.autogui.json")
            && e.contains("variants.regular.themes.a.centers[2]")
            && e.contains("outside the board's space 3 x 3")
            && e.contains("served without boards"),
        "{e}"
    );
    assert!(
        err(&GOOD.replace("\"module\":\"ttt\"", "\"module\":\"other\"")).contains("at module:")
    );
    assert!(
        err(&GOOD.replace("\"regular\"", "\"huge\"")).contains("'huge' is not a variant of ttt")
    );
    assert!(err(&GOOD.replace("ttt/x.svg", "../x.svg")).contains("charImages.x.image"));
    assert!(err(&GOOD.replace("\"x\":{", "\"xy\":{")).contains("charImages.xy"));
    assert!(err(&GOOD.replace("\"scale\":1}", "\"scale\":0}")).contains("scale"));
    assert!(err(&GOOD.replace("[3,3]", "[0,3]")).contains("space[0]"));
    assert!(
        err(&GOOD.replace("\"defaultTheme\":\"a\"", "\"defaultTheme\":\"b\""))
            .contains("'b' is not among")
    );
    assert!(err(&GOOD.replace("entityFade", "spin")).contains("animationType"));
    assert!(err(&GOOD.replace("\"format\":1", "\"format\":2")).contains("at format"));
    assert!(err("[").contains("is not JSON"));
    // A second theme without an image for 'o': every character must map to an image.
    let two = GOOD.replace(
        "}}}}}",
        r#"},"b":{"space":[3,3],"centers":[[0.5,0.5],[1.5,0.5],[2.5,0.5]],"charImages":{"x":{"image":"ttt/x.svg","scale":1}}}}}}}"#,
    );
    let e = err(&two);
    assert!(
        e.contains("themes.b.charImages") && e.contains("no image for 'o'"),
        "{e}"
    );
}

#[test]
fn hostile_files_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("libttt.so");
    let side = path_for(&lib);
    assert_eq!(
        load(&lib, "ttt", &variants())
            .unwrap()
            .map(|s| s.variants.len()),
        None
    );
    // A FIFO: refused at once (a blocking open would wait for a writer forever).
    let c = std::ffi::CString::new(side.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let e = load(&lib, "ttt", &variants()).unwrap_err().to_string();
    assert!(e.contains("FIFO"), "{e}");
    std::fs::remove_file(&side).unwrap();
    // A link out of the folder.
    let other = tempfile::tempdir().unwrap();
    let outside = other.path().join("x.json");
    std::fs::write(&outside, GOOD).unwrap();
    std::os::unix::fs::symlink(&outside, &side).unwrap();
    let e = load(&lib, "ttt", &variants()).unwrap_err().to_string();
    assert!(
        e.contains("symbolic link out of the library's folder"),
        "{e}"
    );
    std::fs::remove_file(&side).unwrap();
    // A link inside the folder is followed.
    std::fs::write(dir.path().join("ttt.json"), GOOD).unwrap();
    std::os::unix::fs::symlink("ttt.json", &side).unwrap();
    assert_eq!(
        load(&lib, "ttt", &variants())
            .unwrap()
            .unwrap()
            .variants
            .len(),
        1
    );
    std::fs::remove_file(&side).unwrap();
    // A huge file: refused after reading at most MAX_BYTES + 1.
    let f = std::fs::File::create(&side).unwrap();
    f.set_len(MAX_BYTES * 4).unwrap();
    let e = load(&lib, "ttt", &variants()).unwrap_err().to_string();
    assert!(e.contains("larger than"), "{e}");
    std::fs::remove_file(&side).unwrap();
    // A directory.
    std::fs::create_dir(&side).unwrap();
    let e = load(&lib, "ttt", &variants()).unwrap_err().to_string();
    assert!(e.contains("directory"), "{e}");
}

#[test]
fn move_tokens_rename_a_moves_token_and_must_have_no_image() {
    let renamed = GOOD.replace(
        "\"variants\"",
        r#""moveTokens":{"x":"-","o":"t"},"variants""#,
    );
    let s = parse(Path::new("x"), renamed.as_bytes(), "ttt", &variants()).unwrap();
    let v = s.variant("regular").unwrap();
    assert_eq!(v.serve_move("A_x_4".into()), "A_-_4");
    assert_eq!(v.serve_move("A_o_0_y".into()), "A_t_0_y");
    // Other tokens, other kinds of moves and short strings are served as given.
    assert_eq!(v.serve_move("A_q_4".into()), "A_q_4");
    assert_eq!(v.serve_move("M_x_4_x".into()), "M_x_4_x");
    assert_eq!(v.serve_move("A_x".into()), "A_x");
    assert_eq!(v.serve_move("".into()), "");
    // Without moveTokens nothing is renamed.
    let plain = parse(Path::new("x"), GOOD.as_bytes(), "ttt", &variants()).unwrap();
    assert_eq!(
        plain.variant("regular").unwrap().serve_move("A_x_4".into()),
        "A_x_4"
    );
    // A token renamed to one with an image, or not one character, is refused by name.
    let e = err(&GOOD.replace("\"variants\"", r#""moveTokens":{"x":"o"},"variants""#));
    assert!(
        e.contains("at moveTokens.o") && e.contains("has an image"),
        "{e}"
    );
    let e = err(&GOOD.replace("\"variants\"", r#""moveTokens":{"x":"--"},"variants""#));
    assert!(
        e.contains("at moveTokens.x") && e.contains("one character"),
        "{e}"
    );
    let e = err(&GOOD.replace("\"variants\"", r#""moveTokens":{"_":"-"},"variants""#));
    assert!(e.contains("at moveTokens._"), "{e}");
    let e = err(&GOOD.replace("\"variants\"", r#""moveTokens":["x"],"variants""#));
    assert!(
        e.contains("at moveTokens:") && e.contains("at most 64"),
        "{e}"
    );
}
