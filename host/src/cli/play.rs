//! `host play`: the text player on stdin and stdout, or with `--json` a JSON line per
//! event on stdout (`start`, every `move` and `undo`, and a final `end` object) while
//! the board, prompts and messages go to stderr, so a human can still play and a
//! program reads only JSON.

use super::{open_solved, DbChoice, Invocation};
use crate::engine::ask::query::remoteness_of;
use crate::engine::ask::ranking::RankedMove;
use crate::engine::game::GameHandle;
use crate::engine::outcome::{margin_for, value_name};
use crate::play::prompt::{Editor, Lines};
use crate::play::{self, GameEnd, PlayError, PlayObserver, PlayOptions, Side};
use anyhow::Context;
use gamesman_plugin_api::{Player, TierPosition, Value};
use serde_json::json;
use std::io::{IsTerminal, Write};

/// Writes the JSON lines of a game and keeps where it stands.
pub struct JsonLines<'a, W: Write> {
    game: &'a GameHandle,
    out: W,
    position: TierPosition,
    plies: usize,
}

fn side_name(by_human: bool) -> &'static str {
    if by_human {
        "human"
    } else {
        "computer"
    }
}

impl<'a, W: Write> JsonLines<'a, W> {
    /// Starts a game's lines with its `start` object.
    pub fn start(game: &'a GameHandle, mut out: W, sides: [Side; 2]) -> Result<Self, PlayError> {
        let position = game.initial_position()?;
        let players = game.properties().players;
        let side = |s: Side| side_name(s == Side::Human);
        let line = json!({
            "event": "start",
            "game": game.module_name(),
            "variant": game.variant(),
            "players": players,
            "first": side(sides[0]),
            "second": if players > 1 { Some(side(sides[1])) } else { None },
            "position": game.position_to_text(position)?,
        });
        writeln!(out, "{line}")?;
        Ok(JsonLines {
            game,
            out,
            position,
            plies: 0,
        })
    }

    /// The final `end` object: how the game ended, where, and (when it is over) who
    /// won, by how much, or whether the puzzle is solved.
    pub fn end(&mut self, end: &GameEnd) -> Result<(), PlayError> {
        let game = self.game;
        let p = self.position;
        // Turn-free positions do not say whose turn it is: the players alternated
        // from player one, one move each (as the play loop counts them).
        let mover = if game.turn_free() && game.properties().players > 1 {
            if self.plies.is_multiple_of(2) {
                Player::ONE
            } else {
                Player::TWO
            }
        } else {
            game.turn(p)?
        };
        let primitive = game.primitive(p)?;
        let over = primitive != Value::UNDECIDED || game.moves(p)?.is_empty();
        // No legal move counts as a loss for the player to move, as the solver says.
        let value = if primitive == Value::UNDECIDED {
            Value::LOSE
        } else {
            primitive
        };
        let mut line = json!({
            "event": "end",
            "end": match end {
                GameEnd::Finished(_) => "finished",
                GameEnd::Quit => "quit",
                GameEnd::EndOfInput => "end_of_input",
            },
            "moves": self.plies,
            "position": game.position_to_text(p)?,
            "over": over,
        });
        if let GameEnd::Finished(words) = end {
            line["result"] = json!(words);
        }
        if over {
            if game.properties().players == 1 {
                line["solved"] = json!(value == Value::WIN);
            } else {
                let winner = match value {
                    Value::WIN => Some(mover),
                    Value::LOSE => Some(mover.other()),
                    _ => None,
                };
                line["winner"] = json!(winner.map(|w| w.0));
                if game.supports_winby() {
                    let w = game.win_by(p)?;
                    line["margin"] = json!(margin_for(w, winner.unwrap_or(Player::ONE)));
                }
            }
        }
        writeln!(self.out, "{line}")?;
        Ok(())
    }
}

impl<W: Write> PlayObserver for JsonLines<'_, W> {
    fn moved(
        &mut self,
        _before: TierPosition,
        m: &RankedMove,
        by: Player,
        by_human: bool,
    ) -> Result<(), PlayError> {
        self.plies += 1;
        self.position = m.child;
        let players = self.game.properties().players;
        let line = json!({
            "event": "move",
            "ply": self.plies,
            "player": by.0,
            "by": side_name(by_human),
            "move": m.text,
            "position": self.game.position_to_text(m.child)?,
            "value": value_name(m.move_value, players),
            "remoteness": remoteness_of(&m.record),
            "winby": m.record.winby,
        });
        writeln!(self.out, "{line}")?;
        self.out.flush()?;
        Ok(())
    }

    fn took_back(&mut self, moves: usize, now: TierPosition) -> Result<(), PlayError> {
        self.plies = self.plies.saturating_sub(moves);
        self.position = now;
        let line = json!({
            "event": "undo",
            "moves": moves,
            "position": self.game.position_to_text(now)?,
        });
        writeln!(self.out, "{line}")?;
        self.out.flush()?;
        Ok(())
    }
}

/// What `play` was asked.
#[derive(Clone, Debug)]
pub struct PlayArgs {
    /// How to play (sides, seed, WinBy, echo, depth); `echo` is set from stdin here.
    pub options: PlayOptions,
    /// JSON lines on stdout, the text on stderr.
    pub json: bool,
}

/// Runs `play` on stdin and stdout.
pub fn run(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    args: &PlayArgs,
) -> anyhow::Result<()> {
    let db = open_solved(game, inv, choice, args.options.depth.is_some())?;
    let stdin = std::io::stdin();
    let mut options = args.options.clone();
    options.echo = !stdin.is_terminal();
    if args.json {
        let mut lines = JsonLines::start(game, std::io::stdout().lock(), options.sides)?;
        let end = play::play_observed(
            game,
            db.as_ref(),
            &options,
            &mut Lines::new(stdin.lock(), options.echo),
            std::io::stderr().lock(),
            &mut lines,
        )?;
        lines.end(&end)?;
    } else if stdin.is_terminal() && std::io::stdout().is_terminal() {
        // A person at a terminal: line editing, history and Tab completion.
        let mut editor = Editor::new().context("setting up the terminal")?;
        play::play_with(
            game,
            db.as_ref(),
            &options,
            &mut editor,
            std::io::stdout().lock(),
        )?;
    } else {
        play::play(
            game,
            db.as_ref(),
            &options,
            stdin.lock(),
            std::io::stdout().lock(),
        )?;
    }
    Ok(())
}
