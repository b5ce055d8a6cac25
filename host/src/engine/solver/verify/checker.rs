//! One tier's check, position by position (`Checker`): the records under check
//! (`own::Own`), a position's moves and children found forward, and the rules of `derive`
//! applied to them. It must not change a record; it imports only `base`, `input`,
//! `tier` and `derive`.

use super::derive::{self, Child};
use super::own::Own;
use crate::engine::db::{DbError, RecordSource};
use crate::engine::game::{GameHandle, ModuleError};
use crate::engine::outcome;
use crate::engine::record::{pack, Record};
use crate::engine::solver::base::mismatch::{Mismatch, Stage};
use crate::engine::solver::tier::recipe::Flow;
use crate::engine::tier::TierNode;
use gamesman_plugin_api::ffi::{CallErrorKind, CallResult};
use gamesman_plugin_api::{Move, Player, Tier, TierPosition, Value};

/// Buffers reused by one thread.
pub(super) struct Scratch {
    /// The moves of a position.
    moves: Vec<Move>,
    /// Each distinct child with a move that leads there.
    kids: Vec<(TierPosition, Move)>,
    /// The children's records as the rules see them.
    seen: Vec<Child>,
}

impl Scratch {
    pub(super) fn new(max_moves: usize) -> Scratch {
        Scratch {
            moves: vec![Move::default(); max_moves],
            kids: Vec::with_capacity(max_moves),
            seen: Vec::with_capacity(max_moves),
        }
    }
}

/// One tier's check.
pub(super) struct Checker<'a> {
    pub(super) game: &'a GameHandle,
    pub(super) node: &'a TierNode,
    pub(super) records: Own<'a>,
    pub(super) children: &'a [(Tier, &'a dyn RecordSource)],
    pub(super) flow: Flow,
    pub(super) winby: bool,
    pub(super) symmetry: bool,
    pub(super) players: u8,
    pub(super) stage: Stage,
}

pub(super) type Outcome = Result<Option<Box<Mismatch>>, Fail>;

/// Why a position could not be checked.
pub(super) enum Fail {
    /// The module failed.
    Module(ModuleError),
    /// A child tier's records could not be read.
    Read(DbError),
}

impl From<ModuleError> for Fail {
    fn from(e: ModuleError) -> Self {
        Fail::Module(e)
    }
}

impl Checker<'_> {
    /// Checks position `i`: `Ok(None)` when its record follows from its children.
    pub(super) fn check(&self, i: u64, s: &mut Scratch) -> Outcome {
        let game = self.game;
        let p = TierPosition::new(self.node.tier, i);
        let packed = self.records.packed(i).map_err(Fail::Read)?;
        let raw_winby = self.records.winby(i) as i64;
        let legal = game.is_legal(p)?;
        let canonical = if self.symmetry && legal {
            self.canonical(p)?
        } else {
            p
        };
        if !legal || canonical != p {
            if packed == 0 && raw_winby == 0 {
                return Ok(None);
            }
            let because = if legal {
                format!(
                    "the position is not canonical (its canonical form is {}), and the solver gives such positions no record",
                    self.text(canonical)
                )
            } else {
                "is_legal rejects the position, and the solver gives illegal positions no record"
                    .to_string()
            };
            return Ok(Some(self.mismatch(
                p,
                None,
                i,
                because,
                Some("unsolved".into()),
            )));
        }

        let primitive = game.primitive(p)?;
        let moves = if primitive == Value::UNDECIDED {
            self.moves(p, &mut s.moves)?
        } else {
            &[]
        };
        if moves.is_empty() {
            let (value, because) = if primitive != Value::UNDECIDED {
                (primitive, format!("primitive says {primitive}"))
            } else {
                (Value::LOSE, "the position has no moves".to_string())
            };
            let module_winby = if self.winby { game.win_by(p)? } else { 0 };
            if packed != pack(value, 0) || raw_winby != module_winby {
                let derived = self.words_of(value, 0, module_winby);
                return Ok(Some(self.mismatch(p, None, i, because, Some(derived))));
            }
            return Ok(None);
        }

        // The distinct canonical children, each with a move that leads there.
        // Through the raw calls: the children's ranges are checked against the
        // records below, and the adapter checks canonical forms; `GameHandle`'s own
        // checks would look every tier's size up again for every child.
        s.kids.clear();
        for &m in moves {
            let c = self.call("do_move", game.raw().do_move(p, m))?;
            s.kids.push((self.canonical(c)?, m));
        }
        s.kids.sort_unstable_by_key(|&(c, m)| (c, m.0));
        s.kids.dedup_by_key(|&mut (c, _)| c);

        let needs_turn = self.winby || self.flow == Flow::ByTurn;
        let turn = if needs_turn {
            game.turn(p)?
        } else {
            Player::ONE
        };
        s.seen.clear();
        for &(c, m) in &s.kids {
            let Some(recs) = self.records_of(c.tier) else {
                let because = format!(
                    "its move {} leads to {} in tier {}, which tier_children({}) does not list{}",
                    self.move_text(p, m),
                    self.text(c),
                    c.tier,
                    self.node.tier,
                    if c.tier == self.node.tier {
                        " (a tier whose moves stay in it must list itself)"
                    } else {
                        ""
                    }
                );
                return Ok(Some(self.mismatch(p, Some(m), i, because, None)));
            };
            if c.position >= recs.positions() {
                let because = format!(
                    "its move {} leads to {c}, past the {} records of tier {}",
                    self.move_text(p, m),
                    recs.positions(),
                    c.tier
                );
                return Ok(Some(self.mismatch(p, Some(m), i, because, None)));
            }
            let rec = recs.record(c.position).map_err(Fail::Read)?;
            if !matches!(
                rec.value,
                Value::WIN | Value::LOSE | Value::TIE | Value::DRAW
            ) {
                let because = format!(
                    "its move {} leads to {}, which has no record (the solver gives none to positions that is_legal rejects or that are not canonical)",
                    self.move_text(p, m),
                    self.text(c)
                );
                return Ok(Some(self.mismatch(p, Some(m), i, because, None)));
            }
            let same_mover = match self.flow {
                Flow::Alternate => false,
                Flow::Puzzle => true,
                Flow::ByTurn => game.turn(c)? == turn,
            };
            s.seen.push(Child {
                value: rec.value,
                remoteness: rec.remoteness,
                winby: rec.winby.unwrap_or(0),
                same_mover,
                in_tier: c.tier == self.node.tier,
                itself: c == p,
            });
        }

        let d = derive::derive(&s.seen);
        if packed != pack(d.value, d.remoteness) {
            let (c, m) = s.kids[d.witness];
            let because = self.evidence(p, c, m, d.value, &s.seen[d.witness]);
            let derived = if self.winby && derive::decided(d.value) {
                let rule = derive::winby_rule(turn == Player::ONE, &s.seen);
                self.words_of(d.value, d.remoteness, rule.extreme)
            } else {
                self.words_of(d.value, d.remoteness, 0)
            };
            return Ok(Some(self.mismatch(p, Some(m), i, because, Some(derived))));
        }

        if self.winby {
            let maximizer = turn == Player::ONE;
            let rule = derive::winby_rule(maximizer, &s.seen);
            let wrong = if derive::decided(d.value) {
                !derive::winby_allowed(maximizer, &s.seen, &rule, raw_winby)
            } else {
                // Positions without a decided value keep the WinBy 0.
                raw_winby != 0
            };
            if wrong {
                let (mv, because) = match rule.witness {
                    Some(k) if derive::decided(d.value) => {
                        let (c, m) = s.kids[k];
                        let clause = format!(
                            "{} moves, so its WinBy is the {} over its decided children: {} after its move {} to {}{}",
                            Player(if maximizer { 1 } else { 2 }),
                            if maximizer { "largest" } else { "smallest" },
                            s.seen[k].winby,
                            self.move_text(p, m),
                            self.text(c),
                            if rule.maybe_cyclic {
                                " (or, on a cycle of decided positions, the extreme over the children that are not on it)"
                            } else {
                                ""
                            }
                        );
                        (Some(m), clause)
                    }
                    _ if derive::decided(d.value) => {
                        (None, "no child is decided, so the WinBy is 0".to_string())
                    }
                    _ => (None, format!("a {} position keeps the WinBy 0", d.value)),
                };
                let extreme = if derive::decided(d.value) {
                    rule.extreme
                } else {
                    0
                };
                let derived = self.words_of(d.value, d.remoteness, extreme);
                return Ok(Some(self.mismatch(p, mv, i, because, Some(derived))));
            }
        }
        Ok(None)
    }

    /// A raw call's result, its failure named like `GameHandle` names it.
    fn call<T>(&self, function: &'static str, r: CallResult<T>) -> Result<T, ModuleError> {
        r.into_result().map_err(|e| ModuleError {
            module: self.game.module_name().to_string(),
            function,
            kind: e.kind,
            message: e.message.into_string(),
        })
    }

    /// The canonical form of `p` (the adapter keeps it in `p`'s tier and range).
    fn canonical(&self, p: TierPosition) -> Result<TierPosition, ModuleError> {
        if !self.symmetry {
            return Ok(p);
        }
        let c = self.call("canonical_position", self.game.raw().canonical_position(p))?;
        if c.tier != p.tier {
            // A module built against an older adapter may not check this itself.
            return Err(ModuleError {
                module: self.game.module_name().to_string(),
                function: "canonical_position",
                kind: CallErrorKind::BAD_OUTPUT,
                message: format!("moved position {p} ({}) to tier {}", self.text(p), c.tier),
            });
        }
        Ok(c)
    }

    /// The moves of `p`, into `buf`.
    fn moves<'b>(&self, p: TierPosition, buf: &'b mut [Move]) -> Result<&'b [Move], ModuleError> {
        let n = self.call(
            "generate_moves",
            self.game.raw().generate_moves(p, (&mut *buf).into()),
        )? as usize;
        Ok(&buf[..n.min(buf.len())])
    }

    /// The records of tier `t`, if a child of this tier may lie there.
    fn records_of(&self, t: Tier) -> Option<&dyn RecordSource> {
        if t == self.node.tier {
            return self.node.loopy.then_some(self.records.source());
        }
        self.children.iter().find(|(c, _)| *c == t).map(|(_, r)| *r)
    }

    /// Why the children call for `value`, told by the child that decides it.
    fn evidence(
        &self,
        p: TierPosition,
        c: TierPosition,
        m: Move,
        value: Value,
        k: &Child,
    ) -> String {
        let rec = Record {
            value: k.value,
            remoteness: k.remoteness,
            winby: None,
        };
        let child = format!(
            "{} ({} for the player to move there{})",
            self.text(c),
            outcome::describe(&rec, 2, false),
            if k.same_mover && self.players > 1 {
                ", the same player"
            } else {
                ""
            }
        );
        let mv = self.move_text(p, m);
        match value {
            Value::WIN => format!("its move {mv} leads to {child}"),
            Value::LOSE => format!(
                "every move leads to a win for the player to move there, the slowest being move {mv} to {child}"
            ),
            Value::TIE => format!("no move wins and its move {mv} leads to {child}"),
            _ => format!(
                "no move wins or ties, and its move {mv} leads to {child}, which is not lost for the player moving"
            ),
        }
    }

    /// A record in words, with its WinBy where the game has one.
    fn words_of(&self, value: Value, remoteness: u32, winby: i64) -> String {
        let rec = Record {
            value,
            remoteness,
            winby: None,
        };
        let base = if matches!(value, Value::WIN | Value::LOSE | Value::TIE | Value::DRAW) {
            outcome::describe(&rec, self.players, false)
        } else if value == Value::UNDECIDED {
            "unsolved".into()
        } else {
            format!("an invalid value code {}", value.0)
        };
        if self.winby && derive::decided(value) {
            format!("{base} with WinBy {winby}")
        } else {
            base
        }
    }

    fn mismatch(
        &self,
        p: TierPosition,
        mv: Option<Move>,
        i: u64,
        because: String,
        derived: Option<String>,
    ) -> Box<Mismatch> {
        let stored_rec = self.records.get(i);
        let mut stored = self.words_of(
            stored_rec.value,
            stored_rec.remoteness,
            self.records.winby(i) as i64,
        );
        if !derive::decided(stored_rec.value) && self.records.winby(i) != 0 {
            stored = format!("{stored} with a stored WinBy of {}", self.records.winby(i));
        }
        Box::new(Mismatch {
            module: self.game.module_name().to_string(),
            variant: self.game.variant().to_string(),
            tier: self.node.tier,
            tier_name: self.node.name.clone(),
            position: self.text(p),
            mv: mv.map(|m| self.move_text(p, m)),
            stored,
            derived,
            because,
            stage: self.stage,
        })
    }

    /// The module's text of a position (its number when the module fails).
    fn text(&self, p: TierPosition) -> String {
        self.game
            .position_to_text(p)
            .unwrap_or_else(|_| format!("{p}"))
    }

    /// The module's text of a move (its code when the module fails).
    fn move_text(&self, p: TierPosition, m: Move) -> String {
        self.game
            .move_to_text(p, m)
            .unwrap_or_else(|_| format!("#{}", m.0))
    }
}
