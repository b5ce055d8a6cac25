//! The host's view of one game variant: every module call, with typed errors.
//!
//! `GameHandle` wraps the stable-ABI game object, turning each `CallError` into a
//! `ModuleError` that names the module and the function, and checking what the module
//! returns where a wrong answer would otherwise become silent garbage (positions past a
//! tier's size). It must not contain solving, storage or presentation logic.

use gamesman_plugin_api::autogui::Board as AutoGuiBoard;
use gamesman_plugin_api::ffi::{CallErrorKind, CallResult, FfiProperties, GameBox, ScanRecord};
use gamesman_plugin_api::{Game, Move, Player, Tier, TierPosition, UndoMove, Value};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A module call that failed: which module, which function, and why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("game module '{module}' failed in {function}: {message}")]
pub struct ModuleError {
    /// The module's name.
    pub module: String,
    /// The API function that failed.
    pub function: &'static str,
    /// The kind of failure.
    pub kind: CallErrorKind,
    /// The message from the module or the adapter.
    pub message: String,
}

/// Result of a module call.
pub type ModuleResult<T> = Result<T, ModuleError>;

/// One variant of a loaded (or statically linked) game. Cheap to clone; thread-safe.
#[derive(Clone)]
pub struct GameHandle {
    inner: Arc<Inner>,
}

struct Inner {
    module: String,
    variant: String,
    game: GameBox,
    props: FfiProperties,
    sizes: RwLock<HashMap<Tier, u64>>,
}

impl std::fmt::Debug for GameHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "GameHandle({} {})",
            self.inner.module, self.inner.variant
        )
    }
}

impl GameHandle {
    /// Wraps a game object handed out by a module.
    pub fn new(module: String, variant: String, game: GameBox) -> Self {
        let props = game.properties();
        GameHandle {
            inner: Arc::new(Inner {
                module,
                variant,
                game,
                props,
                sizes: RwLock::new(HashMap::new()),
            }),
        }
    }

    /// Runs a statically linked `Game` through the same adapter a plugin uses (tests,
    /// benchmarks). `variant` empty selects the default.
    pub fn from_static<G: Game>(variant: &str) -> ModuleResult<Self> {
        let game = match gamesman_plugin_api::export::new_game::<G>(variant) {
            abi_stable::std_types::ROk(g) => g,
            abi_stable::std_types::RErr(e) => {
                return Err(ModuleError {
                    module: G::NAME.into(),
                    function: "new",
                    kind: e.kind,
                    message: e.message.into_string(),
                })
            }
        };
        let name = if variant.is_empty() {
            G::variants()
                .first()
                .map(|v| v.name.clone())
                .unwrap_or_default()
        } else {
            variant.to_string()
        };
        Ok(GameHandle::new(G::NAME.into(), name, game))
    }

    fn check<T>(&self, function: &'static str, r: CallResult<T>) -> ModuleResult<T> {
        r.into_result().map_err(|e| ModuleError {
            module: self.inner.module.clone(),
            function,
            kind: e.kind,
            message: e.message.into_string(),
        })
    }

    pub(crate) fn bad_output(&self, function: &'static str, message: String) -> ModuleError {
        ModuleError {
            module: self.inner.module.clone(),
            function,
            kind: CallErrorKind::BAD_OUTPUT,
            message,
        }
    }

    /// The module's name.
    pub fn module_name(&self) -> &str {
        &self.inner.module
    }

    /// The variant's name.
    pub fn variant(&self) -> &str {
        &self.inner.variant
    }

    /// What the variant declares about itself.
    pub fn properties(&self) -> &FfiProperties {
        &self.inner.props
    }

    /// Whether WinBy is stored and shown.
    pub fn supports_winby(&self) -> bool {
        self.inner.props.supports_winby
    }

    /// Whether the module gives undo moves; a forward-only module does not, and the
    /// solver builds its parents by expanding positions forward.
    pub fn has_undo_moves(&self) -> bool {
        self.inner.game.has_undo_moves()
    }

    /// Whether the module asks to be solved by its children although it gives undo
    /// moves (plugin-api 0.1.8; `false` for older modules).
    pub fn prefers_forward(&self) -> bool {
        self.inner.game.prefers_forward()
    }

    /// Whether the variant's positions do not record whose turn it is (plugin-api
    /// 0.1.5; `false` for older modules): `turn` then names a player for display only,
    /// and front ends say "the player to move" instead of naming one.
    pub fn turn_free(&self) -> bool {
        self.inner.game.turn_free()
    }

    /// The version of the module's numbering of positions (0 for modules before
    /// plugin-api 0.1.3): tier files record it, and files of another numbering are
    /// solved again instead of misread.
    pub fn index_version(&self) -> u32 {
        self.inner.game.index_version()
    }

    /// How many indices at the start of `tier` hold all its canonical positions, when
    /// the module numbers them first and says so (`canonical_prefix`), checked to be
    /// at most the tier's size; `None` otherwise (and for games without symmetry).
    pub fn canonical_prefix(&self, tier: Tier) -> ModuleResult<Option<u64>> {
        if !self.inner.props.has_symmetry {
            return Ok(None);
        }
        let n = self.check("canonical_prefix", self.inner.game.canonical_prefix(tier))?;
        if n == u64::MAX {
            return Ok(None);
        }
        let size = self.tier_size(tier)?;
        if n > size {
            return Err(self.bad_output(
                "canonical_prefix",
                format!("tier {tier} has {size} positions, but its canonical prefix is {n}"),
            ));
        }
        Ok(Some(n))
    }

    /// The number of indices of `tier` the solver solves and the database stores: its
    /// canonical prefix where the module gives one, else its size.
    pub fn stored_size(&self, tier: Tier) -> ModuleResult<u64> {
        match self.canonical_prefix(tier)? {
            Some(n) => Ok(n),
            None => self.tier_size(tier),
        }
    }

    /// The number of positions the canonical position `p` stands for (1 for games
    /// without symmetry), checked to be at least 1.
    pub fn orbit_size(&self, p: TierPosition) -> ModuleResult<u64> {
        if !self.inner.props.has_symmetry {
            return Ok(1);
        }
        let n = self.check("orbit_size", self.inner.game.orbit_size(p))?;
        if n == 0 {
            return Err(self.bad_output("orbit_size", format!("gave 0 for position {p}")));
        }
        Ok(n)
    }

    /// The raw stable-ABI object, for batch calls.
    pub fn raw(&self) -> &GameBox {
        &self.inner.game
    }

    /// The starting position, checked to lie in its tier.
    pub fn initial_position(&self) -> ModuleResult<TierPosition> {
        let p = self.check("initial_position", self.inner.game.initial_position())?;
        self.check_position("initial_position", p)?;
        Ok(p)
    }

    /// `tier_size(tier)`, cached.
    pub fn tier_size(&self, tier: Tier) -> ModuleResult<u64> {
        if let Some(&s) = self.inner.sizes.read().expect("size cache").get(&tier) {
            return Ok(s);
        }
        let s = self.check("tier_size", self.inner.game.tier_size(tier))?;
        self.inner
            .sizes
            .write()
            .expect("size cache")
            .insert(tier, s);
        Ok(s)
    }

    /// Fails unless `p` is an index below its tier's size.
    pub fn check_position(&self, function: &'static str, p: TierPosition) -> ModuleResult<()> {
        let size = self.tier_size(p.tier)?;
        if p.position >= size {
            return Err(self.bad_output(
                function,
                format!(
                    "returned position {} of tier {}, past the tier's size {size}",
                    p.position, p.tier
                ),
            ));
        }
        Ok(())
    }

    /// `primitive(p)`.
    pub fn primitive(&self, p: TierPosition) -> ModuleResult<Value> {
        self.check("primitive", self.inner.game.primitive(p))
    }

    /// `generate_moves(p)`, into a fresh vector (play, queries).
    pub fn moves(&self, p: TierPosition) -> ModuleResult<Vec<Move>> {
        let mut buf = vec![Move::default(); self.inner.props.max_moves as usize];
        let n = self.check(
            "generate_moves",
            self.inner.game.generate_moves(p, buf.as_mut_slice().into()),
        )?;
        buf.truncate(n as usize);
        Ok(buf)
    }

    /// `do_move(p, m)`, checked to land inside its tier.
    pub fn do_move(&self, p: TierPosition, m: Move) -> ModuleResult<TierPosition> {
        let c = self.check("do_move", self.inner.game.do_move(p, m))?;
        self.check_position("do_move", c)?;
        Ok(c)
    }

    /// `turn(p)`.
    pub fn turn(&self, p: TierPosition) -> ModuleResult<Player> {
        self.check("turn", self.inner.game.turn(p))
    }

    /// `is_legal(p)`.
    pub fn is_legal(&self, p: TierPosition) -> ModuleResult<bool> {
        self.check("is_legal", self.inner.game.is_legal(p))
    }

    /// `win_by(p)`.
    pub fn win_by(&self, p: TierPosition) -> ModuleResult<i64> {
        self.check("win_by", self.inner.game.win_by(p))
    }

    /// `score(p)`.
    pub fn score(&self, p: TierPosition) -> ModuleResult<i64> {
        self.check("score", self.inner.game.score(p))
    }

    /// The canonical form of `p` (identity when the game declares no symmetry).
    pub fn canonical(&self, p: TierPosition) -> ModuleResult<TierPosition> {
        if !self.inner.props.has_symmetry {
            return Ok(p);
        }
        let c = self.check("canonical_position", self.inner.game.canonical_position(p))?;
        if c.tier != p.tier {
            return Err(self.bad_output(
                "canonical_position",
                format!("moved position {p} to another tier ({})", c.tier),
            ));
        }
        self.check_position("canonical_position", c)?;
        Ok(c)
    }

    /// Whether `p` is its own canonical form (always, for a game without symmetry).
    /// Unlike `canonical`, a form outside `p`'s tier is not reported here: it is not
    /// `p`, so `p` is simply not canonical (the validator checks canonical forms).
    pub fn is_canonical(&self, p: TierPosition) -> ModuleResult<bool> {
        if !self.inner.props.has_symmetry {
            return Ok(true);
        }
        let c = self.check("canonical_position", self.inner.game.canonical_position(p))?;
        Ok(c == p)
    }

    /// The canonical form of `p` under the symmetries that keep the player to move
    /// and reachability (`Game::reach_canonical`; identity for games without
    /// symmetry and for modules that do not say), checked to stay in its tier.
    pub fn reach_canonical(&self, p: TierPosition) -> ModuleResult<TierPosition> {
        if !self.inner.props.has_symmetry {
            return Ok(p);
        }
        let c = self.check("reach_canonical", self.inner.game.reach_canonical(p))?;
        if c.tier != p.tier {
            return Err(self.bad_output(
                "reach_canonical",
                format!("moved position {p} to another tier ({})", c.tier),
            ));
        }
        self.check_position("reach_canonical", c)?;
        Ok(c)
    }

    /// The size of `p`'s class under the symmetries of `reach_canonical` (1 for
    /// games without symmetry and modules that do not say).
    pub fn reach_orbit_size(&self, p: TierPosition) -> ModuleResult<u64> {
        if !self.inner.props.has_symmetry {
            return Ok(1);
        }
        let n = self.check("reach_orbit_size", self.inner.game.reach_orbit_size(p))?;
        if n == 0 {
            return Err(self.bad_output("reach_orbit_size", format!("gave 0 for position {p}")));
        }
        Ok(n)
    }

    /// How many positions of the canonical position `p`'s class have player one and
    /// player two to move (`Game::orbit_by_turn`), checked to add up to `orbit`;
    /// `None` when the module does not say (or has no symmetry: then it is `[1, 0]`
    /// or `[0, 1]` by `p`'s turn, which the caller knows).
    pub fn orbit_by_turn(&self, p: TierPosition, orbit: u64) -> ModuleResult<Option<[u64; 2]>> {
        if !self.inner.props.has_symmetry {
            return Ok(None);
        }
        let n = self.check("orbit_by_turn", self.inner.game.orbit_by_turn(p))?;
        if n == [0, 0] {
            return Ok(None);
        }
        if n[0].checked_add(n[1]) != Some(orbit) {
            return Err(self.bad_output(
                "orbit_by_turn",
                format!(
                    "gave {} + {} positions by turn for position {p}, whose orbit_size is {orbit}",
                    n[0], n[1]
                ),
            ));
        }
        Ok(Some(n))
    }

    /// Gives the module `bytes` for its own caches while it solves; returns the most
    /// it says it will keep (0 for modules before plugin-api 0.1.8).
    pub fn memory_budget(&self, bytes: u64) -> ModuleResult<u64> {
        self.check("memory_budget", self.inner.game.memory_budget(bytes))
    }

    /// `tier_children(tier)`.
    pub fn tier_children(&self, tier: Tier) -> ModuleResult<Vec<Tier>> {
        let mut buf = vec![Tier::default(); self.inner.props.max_tier_children as usize];
        let n = self.check(
            "tier_children",
            self.inner
                .game
                .tier_children(tier, buf.as_mut_slice().into()),
        )?;
        buf.truncate(n as usize);
        Ok(buf)
    }

    /// `tier_name(tier)`.
    pub fn tier_name(&self, tier: Tier) -> ModuleResult<String> {
        Ok(self
            .check("tier_name", self.inner.game.tier_name(tier))?
            .into_string())
    }

    /// `generate_undo_moves_to_tier(p, tier)`.
    pub fn undo_moves(&self, p: TierPosition, tier: Tier) -> ModuleResult<Vec<UndoMove>> {
        let mut buf = vec![UndoMove::default(); self.inner.props.max_undo_moves as usize];
        let n = self.check(
            "generate_undo_moves_to_tier",
            self.inner
                .game
                .undo_moves_to_tier(p, tier, buf.as_mut_slice().into()),
        )?;
        buf.truncate(n as usize);
        Ok(buf)
    }

    /// `undo_move(p, u)` (unchecked: the validator inspects raw results).
    pub fn undo_move(&self, p: TierPosition, u: UndoMove) -> ModuleResult<TierPosition> {
        self.check("undo_move", self.inner.game.undo_move(p, u))
    }

    /// Undo move `u` at `p` as the module writes it (plugin-api 0.1.9), one line of
    /// at most 200 characters; `None` when the module gives none (every module before
    /// 0.1.9) or the call fails.
    pub fn undo_move_text(&self, p: TierPosition, u: UndoMove) -> Option<String> {
        let s = self
            .check("undo_move_to_text", self.inner.game.undo_move_to_text(p, u))
            .ok()?;
        one_line(s.as_str(), 200)
    }

    /// The game's display name as the module gives it (plugin-api 0.1.9), one line of
    /// at most 80 characters; `None` when it gives none (every module before 0.1.9).
    pub fn display_name(&self) -> Option<String> {
        one_line(self.inner.game.display_name().as_str(), 80)
    }

    /// `board_to_text(p)`.
    pub fn board_to_text(&self, p: TierPosition) -> ModuleResult<String> {
        Ok(self
            .check("board_to_text", self.inner.game.board_to_text(p))?
            .into_string())
    }

    /// `move_to_text(p, m)`.
    pub fn move_to_text(&self, p: TierPosition, m: Move) -> ModuleResult<String> {
        Ok(self
            .check("move_to_text", self.inner.game.move_to_text(p, m))?
            .into_string())
    }

    /// `text_to_move(p, text)`: the outer error is a module failure, the inner one the
    /// module's message about bad input.
    pub fn text_to_move(&self, p: TierPosition, text: &str) -> ModuleResult<Result<Move, String>> {
        let r = self.check("text_to_move", self.inner.game.text_to_move(p, text.into()))?;
        Ok(r.into_result().map_err(|e| e.into_string()))
    }

    /// `position_to_text(p)`.
    pub fn position_to_text(&self, p: TierPosition) -> ModuleResult<String> {
        Ok(self
            .check("position_to_text", self.inner.game.position_to_text(p))?
            .into_string())
    }

    /// `text_to_position(text)`, checked to lie in its tier.
    pub fn text_to_position(&self, text: &str) -> ModuleResult<Result<TierPosition, String>> {
        let r = self.check(
            "text_to_position",
            self.inner.game.text_to_position(text.into()),
        )?;
        match r.into_result() {
            Ok(p) => {
                self.check_position("text_to_position", p)?;
                Ok(Ok(p))
            }
            Err(e) => Ok(Err(e.into_string())),
        }
    }

    /// The variant's AutoGUI board; `None` when the module gives no AutoGUI data (as
    /// every module built before plugin-api 0.1.2). Refuses a board a front end could
    /// not draw: coordinates or sizes that are not finite, a token character used
    /// twice or the empty cell `-` given a style.
    pub fn autogui_board(&self) -> ModuleResult<Option<AutoGuiBoard>> {
        let raw = self.check("autogui_board", self.inner.game.autogui_board())?;
        if raw.centers.is_empty() {
            return Ok(None);
        }
        let board = AutoGuiBoard::from(&raw);
        let bad = |message: String| Err(self.bad_output("autogui_board", message));
        let numbers = [board.width, board.height]
            .into_iter()
            .chain(board.centers.iter().flat_map(|&(x, y)| [x, y]))
            .chain(board.fixed.iter().flat_map(|f| [f.x, f.y, f.w, f.h]))
            .chain(board.tokens.iter().map(|t| t.size));
        if numbers.into_iter().any(|v| !v.is_finite()) || board.width <= 0.0 || board.height <= 0.0
        {
            return bad(
                "the board has a size or coordinate that is not a positive finite number".into(),
            );
        }
        let mut seen = std::collections::HashSet::new();
        for t in &board.tokens {
            if t.ch == '-' || t.ch == char::REPLACEMENT_CHARACTER || !seen.insert(t.ch) {
                return bad(format!(
                    "token character {:?} is reserved or styled twice",
                    t.ch
                ));
            }
        }
        Ok(Some(board))
    }

    /// `p` as an AutoGUI position string (`1_X-O------`); `None` when the module
    /// gives none.
    pub fn autogui_position(&self, p: TierPosition) -> ModuleResult<Option<String>> {
        let s = self.check("autogui_position", self.inner.game.autogui_position(p))?;
        Ok((!s.is_empty()).then(|| s.into_string()))
    }

    /// Move `m` at `p` as an AutoGUI move string (`A_x_4_x`); `None` when the module
    /// gives none.
    pub fn autogui_move(&self, p: TierPosition, m: Move) -> ModuleResult<Option<String>> {
        let s = self.check("autogui_move", self.inner.game.autogui_move(p, m))?;
        Ok((!s.is_empty()).then(|| s.into_string()))
    }

    /// GamesmanUni's `imageAutoGUIData` as JSON text (plugin-api 0.1.4); `None` when
    /// the module gives none (every module before 0.1.4).
    pub fn image_autogui_data(&self) -> ModuleResult<Option<String>> {
        let s = self.check("image_autogui_data", self.inner.game.image_autogui_data())?;
        Ok((!s.is_empty()).then(|| s.into_string()))
    }

    /// The solver's scan of `out.len()` positions of `tier` from index `first`.
    pub fn scan_batch(&self, tier: Tier, first: u64, out: &mut [ScanRecord]) -> ModuleResult<()> {
        self.check(
            "scan_batch",
            self.inner.game.scan_batch(tier, first, out.into()),
        )?;
        self.check_scan(tier, first, out)
    }

    /// `scan_batch`, with the children of each expanded position one list after
    /// another in `children` (room for `max_moves` a position of `out`; each record's
    /// `children` says how many). `false` when the module cannot (plugin-api before
    /// 0.1.8): nothing was written.
    pub fn scan_children_batch(
        &self,
        tier: Tier,
        first: u64,
        out: &mut [ScanRecord],
        children: &mut [TierPosition],
    ) -> ModuleResult<bool> {
        let done = self.check(
            "scan_children_batch",
            self.inner
                .game
                .scan_children_batch(tier, first, out.into(), children.into()),
        )?;
        if done {
            self.check_scan(tier, first, out)?;
        }
        Ok(done)
    }

    /// Refuses a scan's value codes beyond the four a module may give.
    fn check_scan(&self, tier: Tier, first: u64, out: &[ScanRecord]) -> ModuleResult<()> {
        for (i, r) in out.iter().enumerate() {
            if r.value != ScanRecord::SKIP && r.value > Value::TIE.0 {
                return Err(self.bad_output(
                    "primitive",
                    format!(
                        "returned value code {} at {}:{}",
                        r.value,
                        tier,
                        first + i as u64
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Distinct canonical parents in `parent_tier` of each of `children` (of
    /// `child_tier`); `parents` must hold `max_undo_moves` per child.
    pub fn parents_batch(
        &self,
        child_tier: Tier,
        children: &[u64],
        parent_tier: Tier,
        parents: &mut [u64],
        counts: &mut [u32],
    ) -> ModuleResult<()> {
        self.check(
            "parents_batch",
            self.inner.game.parents_batch(
                child_tier,
                children.into(),
                parent_tier,
                parents.into(),
                counts.into(),
            ),
        )
    }

    /// Distinct canonical children of each of `positions` (of `tier`); `children`
    /// must hold `max_moves` per position.
    pub fn children_batch(
        &self,
        tier: Tier,
        positions: &[u64],
        children: &mut [TierPosition],
        counts: &mut [u32],
    ) -> ModuleResult<()> {
        self.check(
            "children_batch",
            self.inner
                .game
                .children_batch(tier, positions.into(), children.into(), counts.into()),
        )
    }

    /// The distinct canonical children of one position (empty for primitives).
    pub fn children(&self, p: TierPosition) -> ModuleResult<Vec<TierPosition>> {
        let mut buf = vec![TierPosition::default(); self.inner.props.max_moves as usize];
        let mut count = [0u32];
        self.children_batch(p.tier, &[p.position], &mut buf, &mut count)?;
        buf.truncate(count[0] as usize);
        Ok(buf)
    }
}

/// `text`'s first line without control characters, trimmed and cut to `max`
/// characters; `None` when nothing is left. A module's names for people go through it,
/// so that a name cannot break a table, a log line or a page's layout.
pub fn one_line(text: &str, max: usize) -> Option<String> {
    let line: String = text
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect();
    let line = line.trim();
    (!line.is_empty()).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn names_from_modules_are_one_short_clean_line() {
        assert_eq!(
            one_line("  Three Men's Morris ", 80).as_deref(),
            Some("Three Men's Morris")
        );
        assert_eq!(one_line("Quixo\n<script>", 80).as_deref(), Some("Quixo"));
        assert_eq!(one_line("a\u{1b}[31mb\u{7}", 80).as_deref(), Some("a[31mb"));
        assert_eq!(one_line(&"x".repeat(10_000), 80).map(|s| s.len()), Some(80));
        assert_eq!(
            one_line("é".repeat(100).as_str(), 3).as_deref(),
            Some("ééé")
        );
        assert_eq!(one_line("", 80), None);
        assert_eq!(one_line(" \t\n name", 80), None);
    }
}
