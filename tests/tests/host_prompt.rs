//! End-to-end: the play prompt on a real terminal. The `host` binary runs in a
//! pseudo-terminal (util-linux `script`, part of every Debian system); keys are typed
//! one step at a time, each after the prompt they answer has appeared: a move, then
//! the up arrow and Enter (history brings the move back, and the module refuses it as
//! taken), then `qu` and Tab (completion makes it `quit`).
//!
//! This file drives the built binaries only; it must not link the host library.

use e2e_tests::run::{assert_no_panic_noise, run_host};
use e2e_tests::workspace::{host_binary, plugin};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const PROMPT: &str = "Player 1's move (help for commands): ";

#[test]
fn the_prompt_has_history_and_completion_on_a_terminal() {
    let mtttier = plugin("mtttier").display().to_string();
    let db = tempfile::tempdir().unwrap();
    let resource = format!("file:{}", db.path().display());
    // Solved first, off the terminal, so the game starts at once.
    run_host(
        &host_binary(),
        &["--plugin", &mtttier, "solve", "--db", &resource],
    )
    .assert_success();
    let command = format!(
        "{} --plugin {mtttier} play --db {resource} --seed 1",
        host_binary().display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs the host in a pseudo-terminal");
    let screen = Arc::new(Mutex::new(String::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = screen.clone();
    let reader = std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&chunk[..n]));
        }
    });
    let mut keys = child.stdin.take().unwrap();
    let started = Instant::now();
    let wait_for_prompts = |n: usize| {
        while screen.lock().unwrap().matches(PROMPT).count() < n {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "prompt {n} never came:\n{}",
                screen.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for_prompts(1);
    keys.write_all(b"5\r").unwrap();
    // The computer answers; then the second prompt. Up arrow: the last command.
    wait_for_prompts(2);
    keys.write_all(b"\x1b[A\r").unwrap();
    // The editor redraws the prompt with the recalled line, then the game refuses the
    // move and asks again.
    let refused = |s: &str| s.contains("cell 5 is already taken");
    while !refused(&screen.lock().unwrap()) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the recalled move was not played:\n{}",
            screen.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    keys.write_all(b"qu\t\r").unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the game did not end:\n{}",
            screen.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(keys);
    reader.join().unwrap();
    let text = screen.lock().unwrap().clone();
    assert!(status.success(), "{text}");
    assert_no_panic_noise(&text, &text);
    assert_eq!(text.matches("cell 5 is already taken").count(), 1, "{text}");
    // Legal moves once after the refusal.
    assert_eq!(
        text.matches("Legal moves: 1 2 3 4 6 7 8").count(),
        1,
        "{text}"
    );
    // Tab completed `qu` to `quit`, which ended the game: no further board.
    let after = &text[text.rfind("cell 5 is already taken").unwrap()..];
    assert!(after.contains("quit"), "{text}");
    assert!(
        !after.contains("( 1 2 3 )"),
        "the game went on after quit: {text}"
    );
}
