//! The human's side of a text game: reading a command, the commands themselves (`hint`,
//! `undo`, `w`, `help`, `quit`, a move), and what may follow the end of a game. It acts
//! on the `Session` of `play`; it must not solve, and typed text reaches the module only
//! through the module's own parser.

use super::*;

impl<W: Write> Session<'_, W> {
    /// Reads one command (trimmed); `Err(end)` when the input ended or the player
    /// pressed Ctrl-C.
    pub(super) fn read_command(
        &mut self,
        prompt: &str,
    ) -> Result<Result<String, GameEnd>, PlayError> {
        match self.input.read(prompt, &mut self.out)? {
            Line::Text(line) => Ok(Ok(line.trim().to_string())),
            Line::End => {
                writeln!(self.out, "\n(end of input: leaving the game)")?;
                Ok(Err(GameEnd::EndOfInput))
            }
            Line::Interrupted => {
                writeln!(self.out, "(interrupted: leaving the game)")?;
                Ok(Err(GameEnd::Quit))
            }
        }
    }

    pub(super) fn human_turn(&mut self, ranking: &Ranking) -> Result<Next, PlayError> {
        let prompt = format!("{}'s move (help for commands): ", ranking.mover);
        let mut words: Vec<String> = ranking.moves.iter().map(|m| m.text.clone()).collect();
        words.extend(["ps", "values", "hint", "undo", "w", "help", "quit"].map(String::from));
        self.input.set_completions(words);
        loop {
            let command = match self.read_command(&prompt)? {
                Ok(c) => c,
                Err(end) => return Ok(Next::Stop(end)),
            };
            // A module or database failure on one command is reported, and the
            // player types the next one.
            match self.command(ranking, &command) {
                Ok(ControlFlow::Break(next)) => return Ok(next),
                Ok(ControlFlow::Continue(())) => {}
                Err(e) if e.recoverable() => self.report(&e)?,
                Err(e) => return Err(e),
            }
        }
    }

    /// Carries out one command typed at a human's turn; `Break` when the turn is over.
    pub(super) fn command(
        &mut self,
        ranking: &Ranking,
        command: &str,
    ) -> Result<ControlFlow<Next>, PlayError> {
        match command {
            "" => {}
            "quit" | "q" | "exit" => return Ok(ControlFlow::Break(Next::Stop(GameEnd::Quit))),
            "help" | "?" => write!(self.out, "{HELP}")?,
            "ps" | "values" => {
                let table = moves_table(self.game, ranking)?;
                write!(self.out, "{table}")?;
            }
            "hint" => self.hint(ranking)?,
            "undo" | "u" => {
                if self.undo()? {
                    return Ok(ControlFlow::Break(Next::Continue));
                }
            }
            "w" => {
                if self.toggle_winby()? {
                    return Ok(ControlFlow::Break(Next::Continue));
                }
            }
            text => {
                if let Some(m) = self.parse_move(ranking, text)? {
                    self.make_move(m, ranking.mover, true)?;
                    return Ok(ControlFlow::Break(Next::Continue));
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    pub(super) fn after_end(&mut self) -> Result<Next, PlayError> {
        self.input
            .set_completions(["undo", "quit", "help"].map(String::from).to_vec());
        loop {
            let command = match self.read_command("undo or quit: ")? {
                Ok(c) => c,
                Err(end) => return Ok(Next::Stop(end)),
            };
            match command.as_str() {
                "" => {}
                "quit" | "q" | "exit" => return Ok(Next::Stop(GameEnd::Quit)),
                "help" | "?" => write!(self.out, "{HELP}")?,
                "undo" | "u" => {
                    if self.undo()? {
                        return Ok(Next::Continue);
                    }
                }
                _ => writeln!(
                    self.out,
                    "The game is over: type undo to take a move back, or quit."
                )?,
            }
        }
    }

    /// The legal move `text` names, or `None` after telling the player why not: the
    /// module's message (its echo of long or control-laden text shortened and
    /// escaped), then the legal moves, unless the message already lists them.
    pub(super) fn parse_move<'r>(
        &mut self,
        ranking: &'r Ranking,
        text: &str,
    ) -> Result<Option<&'r RankedMove>, PlayError> {
        let problem = match self.game.text_to_move(ranking.position, text)? {
            Ok(mv) => match ranking.moves.iter().find(|m| m.mv == mv) {
                Some(m) => return Ok(Some(m)),
                // The module parsed it, but it is not among the moves it generates.
                None => format!("{} is not a legal move here", quote(text)),
            },
            Err(message) => tame(&message, text),
        };
        let legal: Vec<&str> = ranking.moves.iter().map(|m| m.text.as_str()).collect();
        writeln!(self.out, "{problem}")?;
        if !lists_moves(&problem, &legal) {
            writeln!(self.out, "Legal moves: {}", legal.join(" "))?;
        }
        Ok(None)
    }

    pub(super) fn hint(&mut self, ranking: &Ranking) -> Result<(), PlayError> {
        if !ranking.record.is_solved() {
            writeln!(
                self.out,
                "No hint: this position is unsolved ({}).",
                ranking.unsolved_reason()
            )?;
            return Ok(());
        }
        let best = ranking.perfect_choices();
        let names: Vec<&str> = best.iter().map(|m| m.text.as_str()).collect();
        let after = best
            .first()
            .map(|m| {
                // What playing it gives, counted from this position (the move itself
                // included), as the prediction line counts.
                let r = Record {
                    value: m.move_value,
                    remoteness: m.record.remoteness + 1,
                    winby: m.record.winby,
                };
                describe(&r, self.players(), self.winby)
            })
            .unwrap_or_default();
        writeln!(self.out, "Hint: {} ({after})", names.join(" or "))?;
        Ok(())
    }

    /// Takes back moves up to and including the last one a human made; false (after
    /// saying so) when there is none.
    pub(super) fn undo(&mut self) -> Result<bool, PlayError> {
        let Some(i) = self.history.iter().rposition(|s| s.by_human) else {
            writeln!(self.out, "Nothing to undo.")?;
            return Ok(false);
        };
        let taken = self.rewind(i)?;
        writeln!(
            self.out,
            "Took back {taken} move{}.",
            if taken == 1 { "" } else { "s" }
        )?;
        Ok(true)
    }

    /// Switches WinBy play; true when the mode changed.
    pub(super) fn toggle_winby(&mut self) -> Result<bool, PlayError> {
        if !self.game.supports_winby() {
            writeln!(
                self.out,
                "{} does not store WinBy: the computer plays by remoteness.",
                self.game.module_name()
            )?;
            return Ok(false);
        }
        self.winby = !self.winby;
        writeln!(self.out, "The computer now plays {}.", self.mode_words())?;
        Ok(true)
    }
}
