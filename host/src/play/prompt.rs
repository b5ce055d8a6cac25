//! Where the player's commands come from: a terminal line editor (arrow keys, history
//! of this game's commands, Tab completion of the legal moves and the commands) when a
//! person types, or plain lines from any reader (pipes, scripts, tests), echoed after
//! the prompt so a transcript reads like the game.
//!
//! Both read any bytes: text that is not UTF-8 is read with replacement characters, it
//! never ends the game. This file reads lines; it must not interpret them.

use std::io::{BufRead, Write};

/// What one read produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (without its line break).
    Text(String),
    /// The input ended (end of file, Ctrl-D).
    End,
    /// The player pressed Ctrl-C at the prompt.
    Interrupted,
}

/// A source of commands for the player.
pub trait CommandInput {
    /// Shows `prompt` (through `out` or the terminal) and reads one line.
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Line>;
    /// The words Tab completes at the next prompts (legal moves, commands); sources
    /// without completion ignore them.
    fn set_completions(&mut self, _words: Vec<String>) {}
}

/// Lines from a reader, the prompt written to the output and, with `echo`, the line
/// read written after it.
pub struct Lines<R> {
    input: R,
    echo: bool,
}

impl<R: BufRead> Lines<R> {
    /// Reads from `input`; `echo` writes each line after its prompt.
    pub fn new(input: R, echo: bool) -> Self {
        Lines { input, echo }
    }
}

impl<R: BufRead> CommandInput for Lines<R> {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Line> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(Line::End);
        }
        let text = String::from_utf8_lossy(&bytes);
        let line = text.trim_end_matches(['\n', '\r']).to_string();
        if self.echo {
            // Shortened and escaped: a transcript must not carry terminal escapes.
            writeln!(out, "{}", crate::engine::messages::shorten(line.trim()))?;
        }
        Ok(Line::Text(line))
    }
}

/// Tab completion over the words of the current position.
#[derive(Default)]
struct Words {
    words: Vec<String>,
}

impl rustyline::completion::Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        // Complete the word under the cursor: from the last space before it.
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let typed = &line[start..pos];
        let found = self
            .words
            .iter()
            .filter(|w| w.starts_with(typed))
            .cloned()
            .collect();
        Ok((start, found))
    }
}

impl rustyline::hint::Hinter for Words {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Words {}
impl rustyline::validate::Validator for Words {}
impl rustyline::Helper for Words {}

/// The terminal line editor: editing keys, this session's history (up and down
/// arrows, Ctrl-R), Tab completion.
pub struct Editor {
    editor: rustyline::Editor<Words, rustyline::history::DefaultHistory>,
}

impl Editor {
    /// An editor on the terminal; fails when the terminal cannot be set up.
    pub fn new() -> rustyline::Result<Self> {
        let config = rustyline::Config::builder()
            .auto_add_history(true)
            .history_ignore_dups(true)?
            .history_ignore_space(true)
            .max_history_size(1000)?
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor = rustyline::Editor::with_config(config)?;
        editor.set_helper(Some(Words::default()));
        Ok(Editor { editor })
    }
}

impl CommandInput for Editor {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Line> {
        // What the game wrote must be on the screen before the editor draws its prompt.
        out.flush()?;
        match self.editor.readline(prompt) {
            Ok(line) => Ok(Line::Text(line)),
            Err(rustyline::error::ReadlineError::Eof) => Ok(Line::End),
            Err(rustyline::error::ReadlineError::Interrupted) => Ok(Line::Interrupted),
            Err(rustyline::error::ReadlineError::Io(e)) => Err(e),
            Err(e) => Err(std::io::Error::other(e)),
        }
    }

    fn set_completions(&mut self, words: Vec<String>) {
        if let Some(h) = self.editor.helper_mut() {
            h.words = words;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_any_bytes_and_echo() {
        let input: &[u8] = b"e\xe2\x82\xac\r\n\xff\xfeok\n  spaced  \n\x1b[2Jlast";
        let mut lines = Lines::new(input, true);
        let mut out = Vec::new();
        let mut got = Vec::new();
        loop {
            match lines.read("> ", &mut out).unwrap() {
                Line::Text(t) => got.push(t),
                other => {
                    assert_eq!(other, Line::End);
                    break;
                }
            }
        }
        assert_eq!(
            got,
            [
                "e\u{20ac}",
                "\u{fffd}\u{fffd}ok",
                "  spaced  ",
                "\x1b[2Jlast"
            ]
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "> e\u{20ac}\n> \u{fffd}\u{fffd}ok\n> spaced\n> \\u{1b}[2Jlast\n> "
        );
    }
}
