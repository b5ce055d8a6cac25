//! Adapts a game object (every module writer's `Game`, or a host's wrapper of a C
//! module) to the stable ABI of `ffi`, and exports a `Game` as a plugin.
//!
//! Every entry point runs the module inside `catch_unwind`, so a panicking module turns
//! into a `CallError` naming the function instead of aborting the host; an error the
//! game object reports itself is passed on as it is. The batch entry points loop inside
//! the plugin, where the game's code is inlined. This file must not change what a
//! module computes: it only checks and forwards.

use crate::ffi::{
    CallError, CallErrorKind, CallResult, FfiAutoGuiBoard, FfiGame, FfiGame_TO, FfiModuleInfo,
    FfiProperties, FfiVariant, GameBox, GameModule, GameModuleRef, ScanRecord, ABI_VERSION,
};
use crate::game::{Game, List, Properties};
use crate::object::GameObject;
use crate::types::{Move, Player, Tier, TierPosition, UndoMove, Value};
use abi_stable::{
    prefix_type::PrefixTypeTrait,
    sabi_trait::TD_Opaque,
    std_types::{RBox, RErr, ROk, RResult, RSlice, RSliceMut, RStr, RString, RVec},
};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The symbol abi_stable looks up in a plugin (its mangled root-module loader name).
/// Checked against abi_stable's own constant in this crate's tests.
pub const ROOT_MODULE_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The module function running on this thread, so a panic inside a batch call
    /// names it ("do_move") and not only the batch ("scan_batch").
    static CURRENT: std::cell::Cell<&'static str> = const { std::cell::Cell::new("") };
}

/// Calls into the game object, noting which function runs, and returns early with
/// the error it reports.
macro_rules! module_call {
    ($name:literal, $call:expr) => {{
        CURRENT.with(|c| c.set($name));
        $call?
    }};
}

/// Installs a panic hook (in the plugin's own copy of std) that records where a panic
/// happened instead of printing it; the adapter turns it into a `CallError` message.
pub fn install_quiet_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = panic_message(info.payload());
            let text = match info.location() {
                Some(l) => format!("{msg} (at {}:{})", l.file(), l.line()),
                None => msg,
            };
            LAST_PANIC.with(|c| *c.borrow_mut() = Some(text));
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

fn err(kind: CallErrorKind, message: String) -> CallError {
    CallError {
        kind,
        message: message.into(),
    }
}

/// Runs `f`, turning a panic into a `CallError` that names `what`.
fn guard<T>(what: &str, f: impl FnOnce() -> Result<T, CallError>) -> CallResult<T> {
    CURRENT.with(|c| c.set(""));
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => ROk(v),
        Ok(Err(mut e)) => {
            // A game object's own error inside a batch call: say which function.
            let inner = CURRENT.with(|c| c.get());
            if e.kind == CallErrorKind::MODULE_ERROR && !inner.is_empty() && inner != what {
                e.message = format!("{inner} failed: {}", e.message).into();
            }
            RErr(e)
        }
        Err(payload) => {
            let recorded = LAST_PANIC.with(|c| c.borrow_mut().take());
            let msg = recorded.unwrap_or_else(|| panic_message(payload.as_ref()));
            let inner = CURRENT.with(|c| c.get());
            // The host names the entry point (`what`); say the inner function only
            // when a batch call was running a different one.
            let text = if inner.is_empty() || inner == what {
                format!("panicked: {msg}")
            } else {
                format!("panicked in {inner}: {msg}")
            };
            RErr(err(CallErrorKind::PANIC, text))
        }
    }
}

fn to_ffi_properties(p: &Properties) -> FfiProperties {
    FfiProperties {
        players: p.players,
        is_tier_game: p.is_tier_game,
        supports_winby: p.supports_winby,
        go_again: p.go_again,
        has_symmetry: p.has_symmetry,
        has_score: p.has_score,
        max_moves: p.max_moves.max(1),
        max_undo_moves: p.max_undo_moves.max(1),
        max_tier_children: p.max_tier_children.max(1),
    }
}

/// A game object behind the stable ABI.
pub struct Adapter<G: GameObject> {
    game: G,
    props: FfiProperties,
    /// Whether the module implements undo moves (probed once at construction).
    has_undo: bool,
    /// Whether the fast paths give canonical positions without duplicates (asked once).
    fast_canonical: bool,
}

/// Whether `game` implements `generate_undo_moves_to_tier`: the trait's default marks
/// its list unsupported. A module that panics here is taken to have undo moves, so the
/// panic is reported where the host first uses them.
fn probe_undo_moves<G: GameObject>(game: &G, props: &FfiProperties) -> bool {
    catch_unwind(AssertUnwindSafe(|| -> Result<bool, CallError> {
        let p = game.initial_position()?;
        let mut buf = vec![UndoMove::default(); props.max_undo_moves as usize];
        let mut list = List::new(&mut buf);
        game.generate_undo_moves_to_tier(p, p.tier, &mut list)?;
        Ok(!list.is_unsupported())
    }))
    .map_or(true, |r| r.unwrap_or(true))
}

fn unsupported_undo(p: TierPosition) -> CallError {
    err(
        CallErrorKind::UNSUPPORTED,
        format!("the module gives no undo moves (it is forward-only), asked at position {p}"),
    )
}

impl<G: GameObject> Adapter<G> {
    /// Checks an undo move's result and returns its canonical form (`p` itself when
    /// `canonical` says it already is one).
    fn check_parent(
        &self,
        c: TierPosition,
        p: TierPosition,
        tier: Tier,
        size: u64,
        canonical: bool,
    ) -> Result<TierPosition, CallError> {
        if p.tier != tier || p.position >= size {
            return Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "undo move at {} towards tier {tier} returned {p}, outside tier {tier} (size {size})",
                    self.describe(c)
                ),
            ));
        }
        if canonical {
            return Ok(p);
        }
        self.canonical(p, size)
    }

    /// The canonical form of `p` (of a tier with `size` positions), checked to stay in
    /// `p`'s tier and below its size: a symmetry hook that leaves the tier would make
    /// the host index past a tier's records, or solve a position in the wrong tier.
    fn canonical(&self, p: TierPosition, size: u64) -> Result<TierPosition, CallError> {
        if !self.props.has_symmetry {
            return Ok(p);
        }
        let c = module_call!("canonical_position", self.game.canonical_position(p));
        self.check_canonical(p, c, size)
    }

    /// Whether `p` (of a tier with `size` positions) is canonical: the module's own
    /// answer where it gives one, else its checked canonical form compared with `p`.
    fn is_canonical(&self, p: TierPosition, size: u64) -> Result<bool, CallError> {
        match module_call!("is_canonical", self.game.is_canonical(p)) {
            Some(answer) => Ok(answer),
            None => Ok(self.canonical(p, size)? == p),
        }
    }

    /// Fails unless `c`, the canonical form of `p`, lies in `p`'s tier of `size`.
    fn check_canonical(
        &self,
        p: TierPosition,
        c: TierPosition,
        size: u64,
    ) -> Result<TierPosition, CallError> {
        if c.tier != p.tier || c.position >= size {
            return Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "canonical_position of {} returned {c}, outside tier {} (size {size}): a canonical form must stay in its tier",
                    self.describe(p),
                    p.tier
                ),
            ));
        }
        Ok(c)
    }

    fn overflow(&self, what: &str, p: TierPosition, cap: u32) -> CallError {
        err(
            CallErrorKind::OVERFLOW,
            format!(
                "{what} at {} gave more than the {cap} items the module declares in its properties",
                self.describe(p)
            ),
        )
    }

    /// `tier:index (text)`, for error messages; survives a panicking `position_to_text`.
    fn describe(&self, p: TierPosition) -> String {
        let text = catch_unwind(AssertUnwindSafe(|| self.game.position_to_text(p)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_else(|| "?".to_string());
        format!("position {p} ({text})")
    }

    fn check_in_tier(&self, p: TierPosition) -> Result<(), CallError> {
        let size = module_call!("tier_size", self.game.tier_size(p.tier));
        if p.position >= size {
            return Err(err(
                CallErrorKind::BAD_INPUT,
                format!(
                    "index {} is past the size {} of tier {}",
                    p.position, size, p.tier
                ),
            ));
        }
        Ok(())
    }

    fn moves_of(&self, p: TierPosition, buf: &mut [Move]) -> Result<usize, CallError> {
        let mut list = List::new(buf);
        module_call!("generate_moves", self.game.generate_moves(p, &mut list));
        if list.overflowed() {
            return Err(self.overflow("generate_moves", p, self.props.max_moves));
        }
        Ok(list.len())
    }

    fn child_tiers(&self, tier: Tier) -> Result<Vec<(Tier, u64)>, CallError> {
        let mut buf = vec![Tier::default(); self.props.max_tier_children as usize];
        let mut list = List::new(&mut buf);
        module_call!("tier_children", self.game.tier_children(tier, &mut list));
        if list.overflowed() {
            return Err(err(
                CallErrorKind::OVERFLOW,
                format!(
                    "tier_children({tier}) gave more than the {} tiers the module declares",
                    self.props.max_tier_children
                ),
            ));
        }
        let mut out: Vec<(Tier, u64)> = Vec::with_capacity(list.len());
        for &t in list.as_slice() {
            out.push((t, module_call!("tier_size", self.game.tier_size(t))));
        }
        // A tier that does not list itself is not loopy: the solver never looks for
        // parents inside it, so a child there would silently become a draw. It is
        // refused like a child in any other undeclared tier.
        Ok(out)
    }

    /// The distinct canonical children of a non-primitive `p`, checked against the
    /// declared child tiers, into `kids`: sorted when `sorted`, else in any order (the
    /// scan only counts them). A fast path the module declares canonical and free of
    /// duplicates is taken as it is, and checked for duplicates when sorted.
    fn children_of(
        &self,
        p: TierPosition,
        allowed: &[(Tier, u64)],
        moves: &mut [Move],
        kids: &mut Vec<TierPosition>,
        sorted: bool,
    ) -> Result<(), CallError> {
        kids.clear();
        kids.resize(self.props.max_moves as usize, TierPosition::default());
        let mut list = List::new(kids.as_mut_slice());
        let fast = module_call!("children", self.game.children(p, &mut list));
        let (n, overflowed) = (list.len(), list.overflowed());
        if fast {
            if overflowed {
                return Err(self.overflow("children", p, self.props.max_moves));
            }
            kids.truncate(n);
            for &c in kids.iter() {
                self.check_child(p, None, c, allowed)?;
            }
            if self.fast_canonical {
                if sorted {
                    kids.sort_unstable();
                    if let Some(w) = kids.windows(2).find(|w| w[0] == w[1]) {
                        return Err(err(
                            CallErrorKind::BAD_OUTPUT,
                            format!(
                                "children at {} gave {} twice, but the module declares its fast paths free of duplicates (fast_paths_canonical)",
                                self.describe(p),
                                w[0]
                            ),
                        ));
                    }
                }
                return Ok(());
            }
        } else {
            kids.clear();
            let n = self.moves_of(p, moves)?;
            for &m in &moves[..n] {
                let c = module_call!("do_move", self.game.do_move(p, m));
                self.check_child(p, Some(m), c, allowed)?;
                kids.push(c);
            }
        }
        if self.props.has_symmetry {
            for c in kids.iter_mut() {
                // `check_child` put every child in a declared tier.
                let size = allowed
                    .iter()
                    .find(|&&(t, _)| t == c.tier)
                    .map_or(0, |&(_, s)| s);
                *c = self.canonical(*c, size)?;
            }
        }
        kids.sort_unstable();
        kids.dedup();
        Ok(())
    }

    /// Fails unless child `c` of `p` (reached by `m`, if known) lies in a declared tier
    /// and below that tier's size.
    fn check_child(
        &self,
        p: TierPosition,
        m: Option<Move>,
        c: TierPosition,
        allowed: &[(Tier, u64)],
    ) -> Result<(), CallError> {
        // Only built on the error paths: this runs for every child the solver sees.
        let how = || match m {
            Some(m) => format!(
                "do_move at {} with move '{}'",
                self.describe(p),
                self.game
                    .move_to_text(p, m)
                    .unwrap_or_else(|_| format!("#{}", m.0))
            ),
            None => format!("children at {}", self.describe(p)),
        };
        match allowed.iter().find(|&&(t, _)| t == c.tier) {
            Some(&(_, size)) if c.position < size => Ok(()),
            Some(&(_, size)) => Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "{} returned index {} of tier {}, past its size {size}",
                    how(),
                    c.position,
                    c.tier
                ),
            )),
            None => Err(err(
                CallErrorKind::BAD_OUTPUT,
                format!(
                    "{} leads to tier {}, which tier_children({}) does not declare",
                    how(),
                    c.tier,
                    p.tier
                ),
            )),
        }
    }
}

fn check_value(v: Value, what: &str) -> Result<Value, CallError> {
    crate::ffi::primitive_value(v).ok_or_else(|| {
        err(
            CallErrorKind::BAD_OUTPUT,
            format!(
                "{what} returned the value code {}, which is not win, lose, tie or undecided",
                v.0
            ),
        )
    })
}

impl<G: GameObject> FfiGame for Adapter<G> {
    fn properties(&self) -> FfiProperties {
        self.props
    }

    fn initial_position(&self) -> CallResult<TierPosition> {
        guard("initial_position", || {
            Ok(module_call!(
                "initial_position",
                self.game.initial_position()
            ))
        })
    }

    fn primitive(&self, p: TierPosition) -> CallResult<Value> {
        guard("primitive", || {
            check_value(
                module_call!("primitive", self.game.primitive(p)),
                "primitive",
            )
        })
    }

    fn generate_moves(&self, p: TierPosition, mut out: RSliceMut<'_, Move>) -> CallResult<u32> {
        guard("generate_moves", || Ok(self.moves_of(p, &mut out)? as u32))
    }

    fn do_move(&self, p: TierPosition, m: Move) -> CallResult<TierPosition> {
        guard("do_move", || {
            Ok(module_call!("do_move", self.game.do_move(p, m)))
        })
    }

    fn turn(&self, p: TierPosition) -> CallResult<Player> {
        guard("turn", || {
            let t = module_call!("turn", self.game.turn(p));
            if t.0 == 1 || t.0 == 2 {
                Ok(t)
            } else {
                Err(err(
                    CallErrorKind::BAD_OUTPUT,
                    format!("turn returned player {}", t.0),
                ))
            }
        })
    }

    fn is_legal(&self, p: TierPosition) -> CallResult<bool> {
        guard("is_legal", || {
            Ok(module_call!("is_legal", self.game.is_legal(p)))
        })
    }

    fn win_by(&self, p: TierPosition) -> CallResult<i64> {
        guard("win_by", || Ok(module_call!("win_by", self.game.win_by(p))))
    }

    fn canonical_position(&self, p: TierPosition) -> CallResult<TierPosition> {
        guard("canonical_position", || {
            let c = module_call!("canonical_position", self.game.canonical_position(p));
            let size = module_call!("tier_size", self.game.tier_size(p.tier));
            self.check_canonical(p, c, size)
        })
    }

    fn score(&self, p: TierPosition) -> CallResult<i64> {
        guard("score", || Ok(module_call!("score", self.game.score(p))))
    }

    fn tier_children(&self, tier: Tier, mut out: RSliceMut<'_, Tier>) -> CallResult<u32> {
        guard("tier_children", || {
            let mut list = List::new(&mut out);
            module_call!("tier_children", self.game.tier_children(tier, &mut list));
            if list.overflowed() {
                return Err(err(
                    CallErrorKind::OVERFLOW,
                    format!(
                        "tier_children({tier}) gave more than the {} tiers the module declares",
                        self.props.max_tier_children
                    ),
                ));
            }
            Ok(list.len() as u32)
        })
    }

    fn tier_size(&self, tier: Tier) -> CallResult<u64> {
        guard("tier_size", || {
            Ok(module_call!("tier_size", self.game.tier_size(tier)))
        })
    }

    fn tier_name(&self, tier: Tier) -> CallResult<RString> {
        guard("tier_name", || {
            Ok(module_call!("tier_name", self.game.tier_name(tier)).into())
        })
    }

    fn undo_moves_to_tier(
        &self,
        p: TierPosition,
        tier: Tier,
        mut out: RSliceMut<'_, UndoMove>,
    ) -> CallResult<u32> {
        guard("generate_undo_moves_to_tier", || {
            let mut list = List::new(&mut out);
            module_call!(
                "generate_undo_moves_to_tier",
                self.game.generate_undo_moves_to_tier(p, tier, &mut list)
            );
            if list.is_unsupported() {
                return Err(unsupported_undo(p));
            }
            if list.overflowed() {
                return Err(self.overflow(
                    "generate_undo_moves_to_tier",
                    p,
                    self.props.max_undo_moves,
                ));
            }
            Ok(list.len() as u32)
        })
    }

    fn undo_move(&self, p: TierPosition, u: UndoMove) -> CallResult<TierPosition> {
        guard("undo_move", || {
            Ok(module_call!("undo_move", self.game.undo_move(p, u)))
        })
    }

    fn board_to_text(&self, p: TierPosition) -> CallResult<RString> {
        guard("board_to_text", || {
            Ok(module_call!("board_to_text", self.game.board_to_text(p)).into())
        })
    }

    fn move_to_text(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        guard("move_to_text", || {
            Ok(module_call!("move_to_text", self.game.move_to_text(p, m)).into())
        })
    }

    fn text_to_move(&self, p: TierPosition, text: RStr<'_>) -> CallResult<RResult<Move, RString>> {
        guard("text_to_move", || {
            Ok(
                match module_call!("text_to_move", self.game.text_to_move(p, text.as_str())) {
                    Ok(m) => ROk(m),
                    Err(e) => RErr(e.into()),
                },
            )
        })
    }

    fn position_to_text(&self, p: TierPosition) -> CallResult<RString> {
        guard("position_to_text", || {
            Ok(module_call!("position_to_text", self.game.position_to_text(p)).into())
        })
    }

    fn text_to_position(&self, text: RStr<'_>) -> CallResult<RResult<TierPosition, RString>> {
        guard("text_to_position", || {
            Ok(
                match module_call!(
                    "text_to_position",
                    self.game.text_to_position(text.as_str())
                ) {
                    Ok(p) => ROk(p),
                    Err(e) => RErr(e.into()),
                },
            )
        })
    }

    fn scan_batch(
        &self,
        tier: Tier,
        first: u64,
        mut out: RSliceMut<'_, ScanRecord>,
    ) -> CallResult<()> {
        guard("scan_batch", || {
            let size = module_call!("tier_size", self.game.tier_size(tier));
            if first
                .checked_add(out.len() as u64)
                .is_none_or(|end| end > size)
            {
                return Err(err(
                    CallErrorKind::BAD_INPUT,
                    format!(
                        "scan of {} positions from {first} is past the size {size} of tier {tier}",
                        out.len()
                    ),
                ));
            }
            let allowed = self.child_tiers(tier)?;
            let mut moves = vec![Move::default(); self.props.max_moves as usize];
            let mut kids = Vec::with_capacity(self.props.max_moves as usize);
            for (i, rec) in out.iter_mut().enumerate() {
                let p = TierPosition::new(tier, first + i as u64);
                *rec = ScanRecord::default();
                if !module_call!("is_legal", self.game.is_legal(p))
                    || (self.props.has_symmetry && !self.is_canonical(p, size)?)
                {
                    rec.value = ScanRecord::SKIP;
                    continue;
                }
                let v = check_value(
                    module_call!("primitive", self.game.primitive(p)),
                    "primitive",
                )?;
                rec.value = v.0;
                rec.turn = module_call!("turn", self.game.turn(p)).0;
                if v == Value::UNDECIDED {
                    self.children_of(p, &allowed, &mut moves, &mut kids, false)?;
                    rec.children = kids.len() as u32;
                }
                if self.props.supports_winby && rec.children == 0 {
                    rec.winby = module_call!("win_by", self.game.win_by(p));
                }
            }
            Ok(())
        })
    }

    fn parents_batch(
        &self,
        child_tier: Tier,
        children: RSlice<'_, u64>,
        parent_tier: Tier,
        mut parents: RSliceMut<'_, u64>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        guard("parents_batch", || {
            let cap = self.props.max_undo_moves as usize;
            if parents.len() < children.len() * cap || counts.len() < children.len() {
                return Err(err(
                    CallErrorKind::BAD_INPUT,
                    "parents_batch buffers too small".into(),
                ));
            }
            let parent_size = module_call!("tier_size", self.game.tier_size(parent_tier));
            let mut undo = vec![UndoMove::default(); cap];
            let mut fast = vec![TierPosition::default(); cap];
            let mut found: Vec<u64> = Vec::with_capacity(cap);
            let mut written = 0usize;
            for (i, &c) in children.iter().enumerate() {
                let cp = TierPosition::new(child_tier, c);
                found.clear();
                let mut list = List::new(fast.as_mut_slice());
                let used_fast =
                    module_call!("parents", self.game.parents(cp, parent_tier, &mut list));
                let (n, overflowed) = (list.len(), list.overflowed());
                if used_fast {
                    if overflowed {
                        return Err(self.overflow("parents", cp, cap as u32));
                    }
                    for &p in &fast[..n] {
                        found.push(
                            self.check_parent(
                                cp,
                                p,
                                parent_tier,
                                parent_size,
                                self.fast_canonical,
                            )?
                            .position,
                        );
                    }
                } else {
                    let mut list = List::new(&mut undo);
                    module_call!(
                        "generate_undo_moves_to_tier",
                        self.game
                            .generate_undo_moves_to_tier(cp, parent_tier, &mut list)
                    );
                    if list.is_unsupported() {
                        return Err(unsupported_undo(cp));
                    }
                    if list.overflowed() {
                        return Err(self.overflow("generate_undo_moves_to_tier", cp, cap as u32));
                    }
                    for &u in list.as_slice() {
                        let p = module_call!("undo_move", self.game.undo_move(cp, u));
                        found.push(
                            self.check_parent(cp, p, parent_tier, parent_size, false)?
                                .position,
                        );
                    }
                }
                // Declared distinct: the validator checks that promise.
                if !(used_fast && self.fast_canonical) {
                    found.sort_unstable();
                    found.dedup();
                }
                parents[written..written + found.len()].copy_from_slice(&found);
                written += found.len();
                counts[i] = found.len() as u32;
            }
            Ok(())
        })
    }

    fn children_batch(
        &self,
        tier: Tier,
        positions: RSlice<'_, u64>,
        mut children: RSliceMut<'_, TierPosition>,
        mut counts: RSliceMut<'_, u32>,
    ) -> CallResult<()> {
        guard("children_batch", || {
            let cap = self.props.max_moves as usize;
            if children.len() < positions.len() * cap || counts.len() < positions.len() {
                return Err(err(
                    CallErrorKind::BAD_INPUT,
                    "children_batch buffers too small".into(),
                ));
            }
            let allowed = self.child_tiers(tier)?;
            let mut moves = vec![Move::default(); cap];
            let mut kids = Vec::with_capacity(cap);
            let mut written = 0usize;
            for (i, &pos) in positions.iter().enumerate() {
                let p = TierPosition::new(tier, pos);
                self.check_in_tier(p)?;
                kids.clear();
                if check_value(
                    module_call!("primitive", self.game.primitive(p)),
                    "primitive",
                )? == Value::UNDECIDED
                {
                    self.children_of(p, &allowed, &mut moves, &mut kids, true)?;
                }
                children[written..written + kids.len()].copy_from_slice(&kids);
                written += kids.len();
                counts[i] = kids.len() as u32;
            }
            Ok(())
        })
    }

    fn has_undo_moves(&self) -> bool {
        self.has_undo
    }

    fn autogui_board(&self) -> CallResult<FfiAutoGuiBoard> {
        guard("autogui_board", || {
            Ok(
                match module_call!("autogui_board", self.game.autogui_board()) {
                    Some(b) => FfiAutoGuiBoard::from(&b),
                    None => FfiAutoGuiBoard::default(),
                },
            )
        })
    }

    fn autogui_position(&self, p: TierPosition) -> CallResult<RString> {
        guard("autogui_position", || {
            Ok(
                module_call!("autogui_position", self.game.autogui_position(p))
                    .unwrap_or_default()
                    .into(),
            )
        })
    }

    fn autogui_move(&self, p: TierPosition, m: Move) -> CallResult<RString> {
        guard("autogui_move", || {
            Ok(module_call!("autogui_move", self.game.autogui_move(p, m))
                .unwrap_or_default()
                .into())
        })
    }
}

/// The module's metadata in its boundary form.
pub fn module_info<G: Game>() -> FfiModuleInfo {
    FfiModuleInfo {
        name: G::NAME.into(),
        authors: G::AUTHORS.into(),
        description: G::DESCRIPTION.into(),
        variants: G::variants()
            .into_iter()
            .map(|v| FfiVariant {
                name: v.name.into(),
                description: v.description.into(),
            })
            .collect::<RVec<_>>(),
        api_version: crate::ffi::API_VERSION.into(),
    }
}

/// Creates the game for `variant` (empty: the default) behind the stable ABI. Also
/// used by the host to run a statically linked game through the very same adapter.
pub fn new_game<G: Game>(variant: &str) -> CallResult<GameBox> {
    guard("new", || {
        let variants = G::variants();
        let name = if variant.is_empty() {
            variants.first().map(|v| v.name.clone()).unwrap_or_default()
        } else {
            variant.to_string()
        };
        let game = G::new(&name).map_err(|e| err(CallErrorKind::BAD_VARIANT, e))?;
        Ok(adapt(game))
    })
}

/// Puts any game object behind the stable ABI, with the adapter's checks and batch
/// loops: how a host runs a game described at run time (a C module) exactly like a
/// plugin's `Game`.
pub fn game_box<O: GameObject>(game: O) -> GameBox {
    adapt(game)
}

fn adapt<O: GameObject>(game: O) -> GameBox {
    let props = to_ffi_properties(&GameObject::properties(&game));
    let has_undo = probe_undo_moves(&game, &props);
    // A module that panics here is taken to make no promise.
    let fast_canonical =
        catch_unwind(AssertUnwindSafe(|| game.fast_paths_canonical())).unwrap_or(false);
    FfiGame_TO::from_value(
        Adapter {
            game,
            props,
            has_undo,
            fast_canonical,
        },
        TD_Opaque,
    )
}

extern "C" fn info_entry<G: Game>() -> CallResult<FfiModuleInfo> {
    guard("info", || Ok(module_info::<G>()))
}

extern "C" fn new_game_entry<G: Game>(variant: RStr<'_>) -> CallResult<GameBox> {
    new_game::<G>(variant.as_str())
}

/// The root module of a plugin whose game is `G` (called by `export_game!`).
pub fn root_module<G: Game>() -> GameModuleRef {
    install_quiet_panic_hook();
    GameModule {
        abi_version: ABI_VERSION,
        info: info_entry::<G>,
        new_game: new_game_entry::<G>,
    }
    .leak_into_prefix()
}

/// Keeps `RBox` nameable for the macro below without an abi_stable dependency.
#[doc(hidden)]
pub type __RBoxUnit = RBox<()>;

/// Exports `$game` (a type implementing `Game`) as this `cdylib`'s game module.
///
/// Write `gamesman_plugin_api::export_game!(MyGame);` once in the crate root.
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        #[doc(hidden)]
        pub fn __gamesman_root_module() -> $crate::ffi::GameModuleRef {
            $crate::export::root_module::<$game>()
        }

        // What abi_stable's `#[export_root_module]` expands to, with paths through this
        // crate so that a module needs no direct abi_stable dependency.
        #[doc(hidden)]
        #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
        pub static __GAMESMAN_LIB_HEADER: $crate::abi_stable::library::LibHeader = {
            pub extern "C" fn __erased_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(__gamesman_root_module)
            }
            unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<$crate::ffi::GameModuleRef>(
                    __erased_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn root_module_symbol_matches_abi_stable() {
        assert_eq!(
            super::ROOT_MODULE_SYMBOL,
            abi_stable::library::ROOT_MODULE_LOADER_NAME
        );
    }
}
