//! A scripted game through the real `host play`: both sides are the perfect computer in
//! WinBy mode (the default for a WinBy game), so every move keeps the margin and the
//! game ends with the initial position's WinBy: white ahead by 8 discs on 4x4.

use std::path::PathBuf;
use std::process::Command;

fn release_dir() -> PathBuf {
    // The test executable lives in <target>/release/deps.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// The disc counts on a board line `Black (B): x  White (W): y ...`.
fn counts(line: &str) -> Option<(i64, i64)> {
    let rest = line.trim().strip_prefix("Black (B): ")?;
    let (black, rest) = rest.split_once("  White (W): ")?;
    let white = rest.split_whitespace().next()?;
    Some((black.parse().ok()?, white.parse().ok()?))
}

#[test]
fn computer_against_computer_keeps_the_margin() {
    let dir = release_dir();
    let host = dir.join("host");
    let plugin = dir.join("libmothello.so");
    assert!(
        host.exists() && plugin.exists(),
        "build first: cargo build --release --workspace (looked in {})",
        dir.display()
    );
    let script = format!(
        "timeout 600 '{}' --plugin '{}' play --db memory: --first computer --second computer --seed 1 </dev/null 2>/dev/null | head -c 200000",
        host.display(),
        plugin.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // The last board shown is the final one: black 8 discs behind white.
    let last = text
        .lines()
        .rev()
        .find_map(counts)
        .unwrap_or_else(|| panic!("no board in the output:\n{text}"));
    assert_eq!(last.0 - last.1, -8, "{text}");
    assert!(text.contains("wins by 8 after"), "{text}");
    // Both computers moved: at least the 4 plies of the shortest possible game.
    assert!(text.matches(" plays ").count() >= 4, "{text}");
}
