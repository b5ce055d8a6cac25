//! The text player: a human or the perfect computer on each side, the board and a
//! prediction line every turn, and the commands `ps`/`values`, `hint`, `undo`, `w`,
//! `help` and `quit`, in the spirit of GamesmanClassic's text interface.
//!
//! Commands come from a `CommandInput` (the terminal's line editor, or lines from any
//! `BufRead`) and everything goes to any `Write`, so tests and scripts drive whole
//! games through stdin; end of input always ends the game. A module that fails on a
//! command (a panic in `text_to_move`, say) is reported at the prompt and the game goes
//! on; a position the module cannot describe takes back the move that led there. This
//! file plays what the database says; it must not solve, and it never trusts typed
//! input to the module without the module's own check.

mod human;
pub mod prompt;

use crate::engine::ask::query::moves_table;
use crate::engine::ask::ranking::{RankError, RankedMove, Ranking};
use crate::engine::db::Database;
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::messages::{error_paragraph, quote, tame};
use crate::engine::outcome::{describe, margin_for, prediction};
use crate::engine::record::Record;
use crate::play::prompt::{CommandInput, Line, Lines};
use gamesman_plugin_api::{Player, TierPosition, Value};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use std::ops::ControlFlow;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Moves are read from the input.
    Human,
    /// The perfect player (random legal moves where unsolved).
    Computer,
}

/// How to play.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Who plays player one and player two (puzzles use only the first).
    pub sides: [Side; 2],
    /// Seed of the computer's choices among equally good moves (random when `None`).
    pub seed: Option<u64>,
    /// Start in WinBy mode (ignored for games without WinBy).
    pub winby: bool,
    /// The computer plays "false hope": a winning move with the smallest margin that
    /// still wins (`Ranking::false_hope_choices`; games without WinBy play as usual).
    pub false_hope: bool,
    /// Write each command read after its prompt, so a scripted game reads as a
    /// transcript (stdin is not a terminal).
    pub echo: bool,
    /// At unsolved positions the computer searches this many plies (alpha-beta over
    /// the module's moves, leaves scored by the database or the module's `score`);
    /// without it the computer plays a random legal move there.
    pub depth: Option<u32>,
}

/// How a game of `play` ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The game reached its end; the words announce the result.
    Finished(String),
    /// A player typed `quit` (or pressed Ctrl-C at the prompt).
    Quit,
    /// The input ended.
    EndOfInput,
}

/// Told about every move and take-back of a game, as it happens (`play --json` writes
/// them as JSON lines). The default methods do nothing.
pub trait PlayObserver {
    /// `m` was played from `before` by `by` (a human when `by_human`).
    fn moved(
        &mut self,
        _before: TierPosition,
        _m: &RankedMove,
        _by: Player,
        _by_human: bool,
    ) -> Result<(), PlayError> {
        Ok(())
    }
    /// `moves` moves were taken back; the game is at `now`.
    fn took_back(&mut self, _moves: usize, _now: TierPosition) -> Result<(), PlayError> {
        Ok(())
    }
}

/// An observer that ignores everything.
pub struct Unobserved;

impl PlayObserver for Unobserved {}

/// Why the player stopped with an error. Module and ranking errors end the game only
/// where there is nothing to go back to (the first position); elsewhere they are
/// reported at the prompt.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The module failed.
    #[error(transparent)]
    Module(#[from] ModuleError),
    /// Looking up records failed.
    #[error(transparent)]
    Rank(#[from] RankError),
    /// Reading commands or writing the game failed.
    #[error("playing: {0}")]
    Io(#[from] std::io::Error),
    /// The depth-limited search failed.
    #[error("searching for the computer's move: {0}")]
    Search(String),
}

/// A move made, to take it back: the position before it and who made it.
struct Step {
    before: TierPosition,
    by_human: bool,
}

/// What the main loop does after a human's turn.
enum Next {
    /// Show the (new) position.
    Continue,
    /// End the game.
    Stop(GameEnd),
}

const HELP: &str = "\
Commands:
  <move>        play a move in the game's own notation
  ps, values    every legal move with its value for you, remoteness (and margin), best first
  hint          the best moves
  undo          take back moves to your previous decision
  w             switch the computer between WinBy and remoteness play
  help          this list
  quit          leave the game
";

impl PlayError {
    /// Whether the game can go on after this error: the module or the database failed
    /// on one command or one position, not the player's input or output.
    fn recoverable(&self) -> bool {
        !matches!(self, PlayError::Io(_))
    }
}

/// Whether a module's message already lists the legal moves (the plugin API's default
/// `text_to_move` and some modules end theirs with "legal moves: a b c"), in any order.
fn lists_moves(message: &str, legal: &[&str]) -> bool {
    let lower = message.to_ascii_lowercase();
    let Some(at) = lower.find("legal moves") else {
        return false;
    };
    let words: std::collections::HashSet<&str> = message[at + "legal moves".len()..]
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.trim_matches(|c: char| matches!(c, ':' | ';' | '.' | '\'' | '"')))
        .collect();
    legal.iter().all(|m| words.contains(m))
}

struct Session<'a, W> {
    game: &'a GameHandle,
    observer: &'a mut dyn PlayObserver,
    db: &'a dyn Database,
    sides: [Side; 2],
    rng: StdRng,
    winby: bool,
    false_hope: bool,
    depth: Option<u32>,
    input: &'a mut dyn CommandInput,
    out: W,
    position: TierPosition,
    history: Vec<Step>,
}

/// Plays one game from the initial position, reading commands line by line from
/// `input` (echoed when `options.echo`) and writing the game to `out`.
pub fn play<R: BufRead, W: Write>(
    game: &GameHandle,
    db: &dyn Database,
    options: &PlayOptions,
    input: R,
    out: W,
) -> Result<GameEnd, PlayError> {
    play_with(game, db, options, &mut Lines::new(input, options.echo), out)
}

/// Plays one game from the initial position, reading commands from any
/// `CommandInput` (the terminal's line editor, for one) and writing the game to `out`.
pub fn play_with<W: Write>(
    game: &GameHandle,
    db: &dyn Database,
    options: &PlayOptions,
    input: &mut dyn CommandInput,
    out: W,
) -> Result<GameEnd, PlayError> {
    play_observed(game, db, options, input, out, &mut Unobserved)
}

/// `play_with`, telling `observer` about every move and take-back.
pub fn play_observed<W: Write>(
    game: &GameHandle,
    db: &dyn Database,
    options: &PlayOptions,
    input: &mut dyn CommandInput,
    out: W,
    observer: &mut dyn PlayObserver,
) -> Result<GameEnd, PlayError> {
    let mut s = Session {
        game,
        observer,
        db,
        sides: options.sides,
        rng: match options.seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => StdRng::from_entropy(),
        },
        winby: options.winby && game.supports_winby(),
        false_hope: options.false_hope && game.supports_winby(),
        depth: options.depth,
        input,
        out,
        position: game.initial_position()?,
        history: Vec::new(),
    };
    s.run()
}

impl<W: Write> Session<'_, W> {
    fn players(&self) -> u8 {
        self.game.properties().players
    }

    fn side_of(&self, p: Player) -> Side {
        if p == Player::TWO && self.players() > 1 {
            self.sides[1]
        } else {
            self.sides[0]
        }
    }

    fn name(&self, p: Player) -> String {
        match self.side_of(p) {
            Side::Human => format!("{p} (human)"),
            Side::Computer => format!("{p} (computer)"),
        }
    }

    /// The ranking with the player to move a game of turn-free positions has reached
    /// (`GameHandle::turn_free`): such a position does not say whose turn it is, so, as
    /// GamesmanClassic does, the players alternate from player one at the start, one
    /// move each.
    fn alternate(&self, mut ranking: Ranking) -> Ranking {
        if self.game.turn_free() && self.players() > 1 {
            ranking.mover = if self.history.len().is_multiple_of(2) {
                Player::ONE
            } else {
                Player::TWO
            };
        }
        ranking
    }

    fn any_human(&self) -> bool {
        let used = if self.players() > 1 { 2 } else { 1 };
        self.sides[..used].contains(&Side::Human)
    }

    fn mode_words(&self) -> &'static str {
        if self.false_hope {
            "false hope (a win by the smallest margin that still wins)"
        } else if self.winby {
            "by WinBy (the largest margin; w switches to remoteness)"
        } else if self.game.supports_winby() {
            "by remoteness (w switches to WinBy)"
        } else {
            "by remoteness"
        }
    }

    fn run(&mut self) -> Result<GameEnd, PlayError> {
        let who = if self.players() > 1 {
            format!(
                "{} against {}",
                self.name(Player::ONE),
                self.name(Player::TWO)
            )
        } else {
            format!("a puzzle for {}", self.name(Player::ONE))
        };
        writeln!(
            self.out,
            "{} ({}): {who}. The computer plays {}. Type help for commands.",
            self.game.module_name(),
            self.game.variant(),
            self.mode_words()
        )?;
        loop {
            let ranking = match Ranking::of(self.game, self.db, self.position, self.winby)
                .map_err(PlayError::from)
                .map(|r| self.alternate(r))
                .and_then(|r| self.show(&r).map(|()| r))
            {
                Ok(r) => r,
                Err(e) => {
                    self.take_back_after(e)?;
                    continue;
                }
            };
            if ranking.is_over() {
                let result = match self.result(&ranking) {
                    Ok(r) => r,
                    Err(e) if e.recoverable() => {
                        self.report(&e)?;
                        "the game is over.".to_string()
                    }
                    Err(e) => return Err(e),
                };
                writeln!(self.out, "Game over: {result}")?;
                if !self.any_human() {
                    return Ok(GameEnd::Finished(result));
                }
                // A human may still take moves back after the end.
                match self.after_end()? {
                    Next::Continue => continue,
                    Next::Stop(end) => return Ok(end),
                }
            }
            match self.side_of(ranking.mover) {
                Side::Computer => self.computer_turn(&ranking)?,
                Side::Human => match self.human_turn(&ranking)? {
                    Next::Continue => {}
                    Next::Stop(end) => return Ok(end),
                },
            }
        }
    }

    /// Writes a recoverable error where the player sees it, as one paragraph.
    fn report(&mut self, e: &PlayError) -> Result<(), PlayError> {
        writeln!(self.out, "error: {}", error_paragraph(e))?;
        Ok(())
    }

    /// Takes the game back to before move `i` of the history, tells the observer, and
    /// returns how many moves were taken back.
    fn rewind(&mut self, i: usize) -> Result<usize, PlayError> {
        let taken = self.history.len() - i;
        self.position = self.history[i].before;
        self.history.truncate(i);
        self.observer.took_back(taken, self.position)?;
        Ok(taken)
    }

    /// The module or database failed on the position reached: report it and take
    /// back moves up to the last human decision, so the player can choose another
    /// move. With no human move to go back to, the error ends the game.
    fn take_back_after(&mut self, e: PlayError) -> Result<(), PlayError> {
        if !e.recoverable() {
            return Err(e);
        }
        let Some(i) = self.history.iter().rposition(|s| s.by_human) else {
            return Err(e);
        };
        self.report(&e)?;
        let taken = self.rewind(i)?;
        writeln!(
            self.out,
            "The game cannot go on from that position: took back {taken} move{}.",
            if taken == 1 { "" } else { "s" }
        )?;
        Ok(())
    }

    fn show(&mut self, ranking: &Ranking) -> Result<(), PlayError> {
        let board = self.game.board_to_text(ranking.position)?;
        writeln!(self.out)?;
        write!(self.out, "{board}")?;
        if !board.ends_with('\n') {
            writeln!(self.out)?;
        }
        if !ranking.is_over() {
            let predicted = if ranking.record.is_solved() {
                prediction(&ranking.record, self.players(), ranking.mover, self.winby)
            } else {
                format!("unsolved: {}", ranking.unsolved_reason())
            };
            writeln!(
                self.out,
                "{} to move   ({predicted})",
                self.name(ranking.mover)
            )?;
        }
        Ok(())
    }

    /// The result at the end of the game, in words.
    fn result(&mut self, ranking: &Ranking) -> Result<String, PlayError> {
        let moves = self.history.len();
        let value = if ranking.primitive == Value::UNDECIDED {
            // No legal move: the solver counts that as a loss for the player to move.
            Value::LOSE
        } else {
            ranking.primitive
        };
        if self.players() == 1 {
            return Ok(if value == Value::WIN {
                format!("the puzzle is solved in {moves} moves.")
            } else {
                format!("the puzzle ends unsolved after {moves} moves.")
            });
        }
        let winner = match value {
            Value::WIN => ranking.mover,
            Value::LOSE => ranking.mover.other(),
            _ => return Ok(format!("the game is a tie after {moves} moves.")),
        };
        let margin = if self.game.supports_winby() {
            let w = self.game.win_by(ranking.position)?;
            format!(" by {}", margin_for(w, winner))
        } else {
            String::new()
        };
        Ok(format!(
            "{} wins{margin} after {moves} moves.",
            self.name(winner)
        ))
    }

    fn computer_turn(&mut self, ranking: &Ranking) -> Result<(), PlayError> {
        let searched = match self.depth {
            Some(depth) if !ranking.record.is_solved() => {
                match crate::engine::ask::search::search(
                    self.game,
                    Some(self.db),
                    self.position,
                    depth,
                ) {
                    Ok(r) => r
                        .best
                        .and_then(|b| ranking.moves.iter().find(|m| m.mv == b))
                        .map(|m| (m, depth)),
                    Err(e) => {
                        // The computer still has its legal moves: play one of them.
                        self.report(&PlayError::Search(e.to_string()))?;
                        None
                    }
                }
            }
            _ => None,
        };
        let (m, note) = match searched {
            Some((m, depth)) => (
                m,
                format!(" (unsolved position: best move of a {depth}-ply search)"),
            ),
            None => {
                let choices = if self.false_hope {
                    ranking.false_hope_choices()
                } else {
                    ranking.perfect_choices()
                };
                let m = *choices
                    .choose(&mut self.rng)
                    .expect("a position that is not over has moves");
                let note = if ranking.record.is_solved() {
                    String::new()
                } else {
                    " (unsolved position: a random legal move)".to_string()
                };
                (m, note)
            }
        };
        writeln!(
            self.out,
            "{} plays {}{note}",
            self.name(ranking.mover),
            m.text
        )?;
        self.make_move(m, ranking.mover, false)
    }

    /// Plays `m` for `by`, remembering how to take it back.
    fn make_move(&mut self, m: &RankedMove, by: Player, by_human: bool) -> Result<(), PlayError> {
        self.observer.moved(self.position, m, by, by_human)?;
        self.history.push(Step {
            before: self.position,
            by_human,
        });
        self.position = m.child;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::lists_moves;

    #[test]
    fn a_message_listing_the_moves_is_not_followed_by_the_list() {
        let legal = ["e1d1", "f1b5", "e1e2"];
        assert!(lists_moves(
            "'e\u{20ac}' is not one legal move here; legal moves: e1e2 e1d1 f1b5",
            &legal
        ));
        assert!(lists_moves(
            "'x' is not a legal move here; legal moves: e1d1, f1b5, e1e2.",
            &legal
        ));
        // A list that lacks a legal move, or no list at all.
        assert!(!lists_moves("legal moves: e1d1 f1b5", &legal));
        assert!(!lists_moves(
            "'0' is not a move: type a cell number 1-9",
            &["1"]
        ));
    }
}
