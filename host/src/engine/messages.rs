//! How user-facing messages show what a user typed and what went wrong: typed input is
//! shortened and escaped before it is echoed (a pasted megabyte or a terminal escape
//! sequence must not come back at the user raw), a module's message about bad input is
//! tamed the same way, and an error chain becomes one paragraph without repeating a
//! cause its context already quoted.
//!
//! This file only formats text; it must not decide what is an error.

use std::fmt::Write as _;

/// The most characters of typed input echoed in a message; the rest is counted.
pub const ECHO_CHARS: usize = 40;
/// The most characters of a module's message shown for one bad input.
pub const MODULE_MESSAGE_CHARS: usize = 2000;

/// Whether `c` must not reach a terminal as itself: control characters (C0, DEL, C1)
/// and the bidirectional overrides and isolates that reorder what follows them.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if needs_escape(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `input` as it may be echoed inside quotes: control characters escaped (`\n`,
/// `\u{1b}`), at most `ECHO_CHARS` characters, and when longer an ellipsis and the
/// full length (`abc… (1048576 characters)`).
pub fn shorten(input: &str) -> String {
    let mut out = String::new();
    let mut chars = input.chars();
    for c in chars.by_ref().take(ECHO_CHARS) {
        push_escaped(&mut out, c);
    }
    if chars.next().is_some() {
        let _ = write!(out, "… ({} characters)", input.chars().count());
    }
    out
}

/// `input` shortened and escaped, in single quotes, for an error message.
pub fn quote(input: &str) -> String {
    format!("'{}'", shorten(input))
}

/// A module's message about the bad input `input`, safe to print: each place it
/// echoes `input` is shortened the way `shorten` does, control characters other than
/// line breaks are escaped, and at most `MODULE_MESSAGE_CHARS` characters are kept.
pub fn tame(message: &str, input: &str) -> String {
    let short = shorten(input);
    let replaced;
    let message = if !input.is_empty() && short != input {
        replaced = message.replace(input, &short);
        replaced.as_str()
    } else {
        message
    };
    let mut out = String::new();
    let mut chars = message.chars();
    for c in chars.by_ref().take(MODULE_MESSAGE_CHARS) {
        if c == '\n' {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    if chars.next().is_some() {
        out.push_str("… (message cut)");
    }
    out
}

/// An error and its causes as one paragraph (`context: cause: cause`), leaving out a
/// cause whose text the message already holds: error types that quote their source
/// (`creating DIR: Permission denied (os error 13)`) would otherwise say it twice.
pub fn error_paragraph(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !more.is_empty() && !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        cause = c.source();
    }
    text
}

/// Whether an error was caused by writing to a closed pipe (`host query | head -1`):
/// the reader has all it wanted, so the program ends quietly.
pub fn is_broken_pipe(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                return true;
            }
        }
        cause = c.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_kept_and_controls_are_escaped() {
        assert_eq!(quote("e4"), "'e4'");
        assert_eq!(quote("e\u{20ac}"), "'e\u{20ac}'");
        assert_eq!(quote("a\x1b[2Jb\n\t\0"), "'a\\u{1b}[2Jb\\n\\t\\u{0}'");
        assert_eq!(quote("x\u{202e}y"), "'x\\u{202e}y'");
        assert_eq!(quote("\u{7f}\u{85}"), "'\\u{7f}\\u{85}'");
    }

    #[test]
    fn long_input_is_cut_at_a_character_with_its_length() {
        let long = "\u{20ac}".repeat(100_000);
        let q = quote(&long);
        assert_eq!(
            q,
            format!("'{}… (100000 characters)'", "\u{20ac}".repeat(ECHO_CHARS))
        );
        assert_eq!(shorten(&"a".repeat(ECHO_CHARS)), "a".repeat(ECHO_CHARS));
    }

    #[test]
    fn module_messages_echo_the_short_form() {
        let input = format!("{}\x1b", "q".repeat(5000));
        let m = format!("'{input}' is not a move\nLegal moves: 1 2");
        let t = tame(&m, &input);
        assert_eq!(
            t,
            format!(
                "'{}… (5001 characters)' is not a move\nLegal moves: 1 2",
                "q".repeat(ECHO_CHARS)
            )
        );
        assert_eq!(tame("bad \x1b[31mred", "x"), "bad \\u{1b}[31mred");
        let huge = "m".repeat(3 * MODULE_MESSAGE_CHARS);
        assert_eq!(
            tame(&huge, "").chars().count(),
            MODULE_MESSAGE_CHARS + "… (message cut)".chars().count()
        );
    }

    #[derive(Debug, thiserror::Error)]
    #[error("creating /x: {source}")]
    struct Quoting {
        source: std::io::Error,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("opening the database")]
    struct Context(#[source] Quoting);

    #[test]
    fn a_cause_already_quoted_is_not_repeated() {
        let e = Context(Quoting {
            source: std::io::Error::from_raw_os_error(13),
        });
        assert_eq!(
            error_paragraph(&e),
            "opening the database: creating /x: Permission denied (os error 13)"
        );
        assert!(!is_broken_pipe(&e));
        let pipe = Context(Quoting {
            source: std::io::Error::from(std::io::ErrorKind::BrokenPipe),
        });
        assert!(is_broken_pipe(&pipe));
    }
}
