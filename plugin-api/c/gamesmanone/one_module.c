/*
 * one_module.c: the adapter that turns one GamesmanOne game (its `Game` object, named
 * at compile time by -DGAMESMANONE_GAME=kName) into a gamesman module
 * (gamesman_plugin.h). build.sh compiles it together with the game's sources.
 *
 * What it maps:
 *   - variants: GamesmanOne's option grid, one variant per variant id (mixed radix,
 *     the first option most significant), named by the id as GamesmanOne's own
 *     command line names it ("6" for FSVP's size 10; "0" for a game without
 *     variants); the game's default first;
 *   - regular games (RegularSolverApi) are one tier, 0; tier games (TierSolverApi)
 *     give their tiers, children tiers plus the tier itself unless GetTierType says
 *     the tier is an immediate transition;
 *   - values (GamesmanOne: lose 1, draw 2, tie 3, win 4) to ours; GamesmanOne's
 *     positions carry no turn the solver asks for, so every variant is TURN_FREE;
 *   - text: boards from the gameplay API's position strings, moves from its move
 *     strings (typed moves are matched against them by the host), positions as the
 *     UWAPI formal position where the game has one that reads back to the same
 *     position, else "TIER:INDEX"; AutoGUI strings from the UWAPI.
 *   - children and the scan's count (one_fast.c): the game's canonical children
 *     (GetCanonicalChildPositions) as the `children` fast path, declared canonical and
 *     distinct (GAMESMAN_FLAG_FAST_PATHS_CANONICAL, which the parents below also are),
 *     and GetNumberOfCanonicalChildPositions as `scan_position`;
 *   - parents: where the game gives GetCanonicalParentPositions, the host's `parents`
 *     fast path gives them (only the legal, non-primitive ones), so the solver needs
 *     no reverse graph. Our ABI asks for undo moves before it uses `parents`, so the
 *     layer also gives undo moves that name those parents: an undo move is the
 *     parent's index times 256 plus the parent tier's slot among the tiers that lead
 *     to the child's tier (a reverse tier map built when a variant opens).
 * Not mapped: tier symmetry (no game uses it),
 * multipart moves (the host plays whole moves), random positions (no game has them).
 *
 * GamesmanOne games keep their variant in globals: one variant is open at a time in a
 * process; opening another while one is open is refused with a message. The game's
 * own output (FSVP prints when its size is set) goes to stderr while it is set up.
 * Must not: know any particular game.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "one_internal.h"

static const Game *const game = &GAMESMANONE_GAME;

struct gamesman_game {
    int variant;
};

static int initialized = 0;
static gamesman_variant *variants = NULL;
static uint32_t variant_count = 0;
static int default_variant = 0;
static int open_count = 0;
static struct gamesman_game current = {-1};
static void probe_formal_names(void);


/* Runs the game's set-up with its stdout sent to stderr (the host's stdout carries
 * answers). Returns the game's status. */
static int quietly(int (*call)(int, int), int a, int b, int (*init)(void *)) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
    int status = init != NULL ? init(NULL) : call(a, b);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    return status;
}

/* The option grid: number of options and of variants. */
static const GameVariant *grid(void) {
    return game->GetCurrentVariant != NULL ? game->GetCurrentVariant() : NULL;
}

static int option_count(const GameVariant *v) {
    int n = 0;
    while (v != NULL && v->options[n].num_choices > 0) ++n;
    return n;
}

static char *variant_description(const GameVariant *v, int id) {
    char buf[1024] = "";
    size_t used = 0;
    int options = option_count(v);
    int rest = id;
    int selection[64] = {0};
    for (int i = options - 1; i >= 0 && i < 64; --i) {
        selection[i] = rest % v->options[i].num_choices;
        rest /= v->options[i].num_choices;
    }
    for (int i = 0; i < options && i < 64 && used < sizeof buf; ++i) {
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s: %s", i > 0 ? ", " : "",
                                 v->options[i].name, v->options[i].choices[selection[i]]);
    }
    return strdup(buf);
}

static int init_module(void) {
    if (initialized) return initialized > 0;
    initialized = -1;
    if (quietly(NULL, 0, 0, game->Init) != kNoError) return 0;
    const GameVariant *v = grid();
    int total = 1;
    for (int i = 0; i < option_count(v); ++i) total *= v->options[i].num_choices;
    variants = calloc((size_t)total, sizeof *variants);
    if (variants == NULL) return 0;
    if (v == NULL) {
        /* GamesmanOne's id of a game without variants: 0. */
        variants[0].name = "0";
        variants[0].description = "the only variant";
        variant_count = 1;
        initialized = 1;
        return 1;
    }
    default_variant = GameVariantToIndex(v);
    /* The default first, then the others in id order. */
    for (int k = 0, id = default_variant; k < total; ++k, id = (k <= default_variant ? k - 1 : k)) {
        char name[16];
        snprintf(name, sizeof name, "%d", id);
        variants[k].name = strdup(name);
        variants[k].description = variant_description(v, id);
    }
    variant_count = (uint32_t)total;
    initialized = 1;
    return 1;
}

static int set_variant(int id, gamesman_error *err) {
    const GameVariant *v = grid();
    int options = option_count(v);
    int rest = id;
    int selection[64] = {0};
    if (options > 64) return gamesman_fail(err, GAMESMAN_ERROR, "%d options: more than the layer handles", options);
    for (int i = options - 1; i >= 0; --i) {
        selection[i] = rest % v->options[i].num_choices;
        rest /= v->options[i].num_choices;
    }
    for (int i = 0; i < options; ++i) {
        int status = quietly(game->SetVariantOption, i, selection[i], NULL);
        if (status != kNoError) {
            return gamesman_fail(err, GAMESMAN_ERROR, "%s refused choice %d of option %d (\"%s\"): code %d",
                                 game->name, selection[i], i, v->options[i].name, status);
        }
    }
    return GAMESMAN_OK;
}

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    if (!init_module()) {
        gamesman_fail(err, GAMESMAN_ERROR, "the GamesmanOne game %s failed to initialise", game->name);
        return NULL;
    }
    int id = 0;
    if (strcmp(variant, "default") == 0) {
        id = default_variant;
    } else {
        char *end = NULL;
        errno = 0;
        long parsed = strtol(variant, &end, 10);
        if (errno != 0 || end == variant || *end != '\0' || parsed < 0 || (uint32_t)parsed >= variant_count) {
            gamesman_fail(err, GAMESMAN_ERROR, "%s has no variant \"%s\"", game->name, variant);
            return NULL;
        }
        id = (int)parsed;
    }
    if (open_count > 0 && current.variant != id) {
        gamesman_fail(err, GAMESMAN_ERROR,
                      "variant %d of %s is open: a GamesmanOne game keeps its variant in globals, so one "
                      "variant at a time in a process",
                      current.variant, game->name);
        return NULL;
    }
    if (open_count == 0 && grid() != NULL && set_variant(id, err) != GAMESMAN_OK) return NULL;
    if (open_count == 0 && has_parents() && one_build_parent_map(err) != GAMESMAN_OK) return NULL;
    probe_formal_names();
    ++open_count;
    current.variant = id;
    return &current;
}

static void free_game(gamesman_game *g) {
    (void)g;
    if (open_count > 0) --open_count;
}

/* ---- the regular API -------------------------------------------------------------- */

static int initial_position(gamesman_game *g, gamesman_position *out, gamesman_error *err) {
    (void)g, (void)err;
    if (is_tier()) {
        out->tier = (uint64_t)tier_api()->GetInitialTier();
        out->index = (uint64_t)tier_api()->GetInitialPosition();
    } else {
        out->tier = 0;
        out->index = (uint64_t)regular_api()->GetInitialPosition();
    }
    return GAMESMAN_OK;
}

int one_value_of(Value v, gamesman_error *err) {
    switch (v) {
        case kUndecided: return GAMESMAN_UNDECIDED;
        case kWin: return GAMESMAN_WIN;
        case kLose: return GAMESMAN_LOSE;
        case kTie: return GAMESMAN_TIE;
        default: return gamesman_fail(err, GAMESMAN_ERROR, "Primitive returned value %d (not win, lose, tie or undecided)", (int)v);
    }
}

static int primitive(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g;
    return one_value_of(is_tier() ? tier_api()->Primitive(tp_of(p)) : regular_api()->Primitive((Position)p.index), err);
}

static int64_t generate_moves(gamesman_game *g, gamesman_position p, uint64_t *moves, uint32_t capacity,
                              gamesman_error *err) {
    (void)g;
    Move scratch[kTierSolverNumMovesMax];
    int n = is_tier() ? tier_api()->GenerateMoves(tp_of(p), scratch)
                      : regular_api()->GenerateMoves((Position)p.index, scratch);
    if (n < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GenerateMoves returned %d", n);
    for (int i = 0; i < n && (uint32_t)i < capacity; ++i) moves[i] = (uint64_t)scratch[i];
    return n;
}

static int do_move(gamesman_game *g, gamesman_position p, uint64_t move, gamesman_position *child,
                   gamesman_error *err) {
    (void)g;
    if (is_tier()) {
        TierPosition c = tier_api()->DoMove(tp_of(p), (Move)move);
        if (c.tier < 0 || c.position < 0) return gamesman_fail(err, GAMESMAN_ERROR, "DoMove returned an illegal position");
        *child = pos_of(c);
    } else {
        Position c = regular_api()->DoMove((Position)p.index, (Move)move);
        if (c < 0) return gamesman_fail(err, GAMESMAN_ERROR, "DoMove returned an illegal position");
        child->tier = 0, child->index = (uint64_t)c;
    }
    return GAMESMAN_OK;
}

/* GamesmanOne's solver never asks whose turn it is (TURN_FREE): a name for display. */
static int turn(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)p, (void)err;
    return GAMESMAN_PLAYER_ONE;
}

/* Copies `text` into the host's buffer with snprintf's rules. */
static int64_t put(const char *text, char *buf, uint64_t capacity) {
    size_t n = strlen(text);
    if (capacity > 0) {
        size_t k = n < capacity - 1 ? n : (size_t)capacity - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    return (int64_t)n;
}

static int64_t put_number_pair(gamesman_position p, char *buf, uint64_t capacity) {
    char text[48];
    snprintf(text, sizeof text, "%" PRIu64 ":%" PRIu64, p.tier, p.index);
    return put(text, buf, capacity);
}

static int64_t board_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                             gamesman_error *err) {
    (void)g;
    const GameplayApi *gp = game->gameplay_api;
    int length = gp != NULL && gp->common != NULL ? gp->common->position_string_length_max : 0;
    int (*tier_text)(TierPosition, char *) = gp != NULL && gp->tier != NULL ? gp->tier->TierPositionToString : NULL;
    if (is_tier() && tier_text == NULL && tier_api()->TierPositionToString != NULL) {
        tier_text = tier_api()->TierPositionToString;
        length = tier_api()->position_string_length_max;
    }
    int (*regular_text)(Position, char *) = gp != NULL && gp->regular != NULL ? gp->regular->PositionToString : NULL;
    if ((is_tier() ? tier_text == NULL : regular_text == NULL) || length <= 0) return put_number_pair(p, buf, capacity);
    char *text = calloc((size_t)length + 64, 1);
    if (text == NULL) return gamesman_fail(err, GAMESMAN_ERROR, "out of memory");
    /* The status is ignored: v1.3.0 games return a length or an error code here. */
    if (is_tier()) {
        tier_text(tp_of(p), text);
    } else {
        regular_text((Position)p.index, text);
    }
    int64_t n = put(text, buf, capacity);
    free(text);
    return n;
}

static int64_t move_to_text(gamesman_game *g, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                            gamesman_error *err) {
    (void)g, (void)p;
    const GameplayApi *gp = game->gameplay_api;
    if (gp == NULL || gp->common == NULL || gp->common->MoveToString == NULL) {
        char text[32];
        snprintf(text, sizeof text, "%" PRId64, (int64_t)move);
        return put(text, buf, capacity);
    }
    int length = gp->common->move_string_length_max;
    char *text = calloc((size_t)(length > 0 ? length : 0) + 64, 1);
    if (text == NULL) return gamesman_fail(err, GAMESMAN_ERROR, "out of memory");
    gp->common->MoveToString((Move)move, text);
    int64_t n = put(text, buf, capacity);
    free(text);
    return n;
}

/* ---- positions as text: the UWAPI formal position when it reads back ------------------ */

static bool formal_of(gamesman_position p, CString *out) {
    const Uwapi *u = game->uwapi;
    *out = kNullCString;
    if (u == NULL) return false;
    if (is_tier()) {
        if (u->tier == NULL || u->tier->TierPositionToFormalPosition == NULL) return false;
        *out = u->tier->TierPositionToFormalPosition(tp_of(p));
    } else {
        if (u->regular == NULL || u->regular->PositionToFormalPosition == NULL) return false;
        *out = u->regular->PositionToFormalPosition((Position)p.index);
    }
    return out->str != NULL;
}

/* Parses a formal position; false if the game has none or rejects it. */
static bool parse_formal(const char *text, gamesman_position *out) {
    const Uwapi *u = game->uwapi;
    if (u == NULL) return false;
    if (is_tier()) {
        const UwapiTier *t = u->tier;
        if (t == NULL || t->IsLegalFormalPosition == NULL || t->FormalPositionToTierPosition == NULL) return false;
        if (!t->IsLegalFormalPosition(text)) return false;
        TierPosition tp = t->FormalPositionToTierPosition(text);
        if (tp.tier < 0 || tp.position < 0) return false;
        *out = pos_of(tp);
    } else {
        const UwapiRegular *r = u->regular;
        if (r == NULL || r->IsLegalFormalPosition == NULL || r->FormalPositionToPosition == NULL) return false;
        if (!r->IsLegalFormalPosition(text)) return false;
        Position pos = r->FormalPositionToPosition(text);
        if (pos < 0) return false;
        out->tier = 0, out->index = (uint64_t)pos;
    }
    return true;
}

/* Whether the game's formal positions name positions: 1 yes, 0 no, -1 not yet probed.
 * Decided once, when the first variant opens (`probe_formal_names`). */
static int formal_names = -1;

/* Writes `fill` over the stack just below the caller, so that a formal position that
 * reads past its own bytes finds no NUL there (v1.3.0 mtttier's copies a board of nine
 * characters without one: what it names then depends on what the stack held before). */
static __attribute__((noinline)) void dirty_stack(unsigned char fill) {
    volatile unsigned char area[16384];
    for (size_t i = 0; i < sizeof area; ++i) area[i] = fill;
}

/* Whether p's formal position exists, has no ':' (the host's TIER:INDEX form) and names
 * p again. */
static __attribute__((noinline)) bool formal_names_itself(gamesman_position p) {
    CString formal;
    if (!formal_of(p, &formal)) return false;
    gamesman_position back;
    bool ok = strchr(formal.str, ':') == NULL && parse_formal(formal.str, &back) && back.tier == p.tier &&
              back.index == p.index;
    CStringDestroy(&formal);
    return ok;
}

/* Formal positions name positions only if the initial one names itself whatever lies on
 * the stack: otherwise one position would get two names, its formal one in one answer
 * and TIER:INDEX in the next, and a client following names would get lost. */
static void probe_formal_names(void) {
    if (formal_names != -1) return;
    gamesman_position start;
    initial_position(NULL, &start, NULL);
    static const unsigned char fills[] = {0xa5, 0x5a, 0xff, 0x01};
    formal_names = 1;
    for (size_t k = 0; k < sizeof fills; ++k) {
        dirty_stack(fills[k]);
        if (!formal_names_itself(start)) formal_names = 0;
    }
}

static int64_t position_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                                gamesman_error *err) {
    (void)g, (void)err;
    CString formal;
    if (formal_names == 1 && formal_of(p, &formal)) {
        gamesman_position back;
        /* Only a formal position that names p again (mtttier's lacks its terminating
         * NUL in v1.3.0 and does not), and one without the host's ':' form. */
        bool ok = strchr(formal.str, ':') == NULL && parse_formal(formal.str, &back) && back.tier == p.tier &&
                  back.index == p.index;
        if (ok) {
            int64_t n = put(formal.str, buf, capacity);
            CStringDestroy(&formal);
            return n;
        }
        CStringDestroy(&formal);
    }
    return put_number_pair(p, buf, capacity);
}

static int tier_size_of(uint64_t tier, uint64_t *size) {
    int64_t n = is_tier() ? tier_api()->GetTierSize((Tier)tier) : (tier == 0 ? regular_api()->GetNumPositions() : -1);
    if (n < 0) return 0;
    *size = (uint64_t)n;
    return 1;
}

static int text_to_position(gamesman_game *g, const char *text, gamesman_position *out, gamesman_error *err) {
    (void)g;
    if (parse_formal(text, out)) return GAMESMAN_OK;
    uint64_t tier = 0, index = 0, size = 0;
    int used = 0;
    if (sscanf(text, "%" SCNu64 ":%" SCNu64 "%n", &tier, &index, &used) == 2 && text[used] == '\0') {
        if (!tier_size_of(tier, &size) || index >= size) {
            return gamesman_fail(err, GAMESMAN_REJECTED, "no position %" PRIu64 " in tier %" PRIu64, index, tier);
        }
        out->tier = tier, out->index = index;
        return GAMESMAN_OK;
    }
    return gamesman_fail(err, GAMESMAN_REJECTED,
                         "\"%s\" is neither a position of %s (its formal position) nor TIER:INDEX", text, game->name);
}

/* ---- the tier API ---------------------------------------------------------------------- */

int64_t one_tier_children(gamesman_game *g, uint64_t tier, uint64_t *children, uint32_t capacity,
                          gamesman_error *err) {
    (void)g;
    Tier scratch[kTierSolverNumChildTiersMax];
    int n = tier_api()->GetChildTiers((Tier)tier, scratch);
    if (n < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GetChildTiers returned %d", n);
    bool loopy = tier_api()->GetTierType == NULL || tier_api()->GetTierType((Tier)tier) != kTierTypeImmediateTransition;
    int64_t total = 0;
    if (loopy && (uint32_t)total < capacity) children[total] = tier;
    total += loopy;
    for (int i = 0; i < n; ++i, ++total) {
        if ((uint64_t)total < capacity) children[total] = (uint64_t)scratch[i];
    }
    return total;
}

static int tier_size(gamesman_game *g, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)g;
    if (!tier_size_of(tier, size)) return gamesman_fail(err, GAMESMAN_ERROR, "no tier %" PRIu64, tier);
    return GAMESMAN_OK;
}

static int is_legal(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
    return is_tier() ? tier_api()->IsLegalPosition(tp_of(p)) : regular_api()->IsLegalPosition((Position)p.index);
}

static int64_t tier_name(gamesman_game *g, uint64_t tier, char *buf, uint64_t capacity, gamesman_error *err) {
    (void)g, (void)err;
    char name[kDbFileNameLengthMax + 1] = "";
    /* v1.3.0's mtttier returns sprintf's count here, not a status: the name is used
     * whatever the return value. */
    if (is_tier() && tier_api()->GetTierName != NULL) tier_api()->GetTierName((Tier)tier, name);
    name[kDbFileNameLengthMax] = '\0';
    if (name[0] == '\0') snprintf(name, sizeof name, "%" PRIu64, tier);
    return put(name, buf, capacity);
}

static int canonical_position(gamesman_game *g, gamesman_position p, gamesman_position *out, gamesman_error *err) {
    (void)g;
    Position c = is_tier() ? tier_api()->GetCanonicalPosition(tp_of(p))
                           : regular_api()->GetCanonicalPosition((Position)p.index);
    if (c < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GetCanonicalPosition returned %" PRId64, c);
    out->tier = p.tier, out->index = (uint64_t)c;
    return GAMESMAN_OK;
}

/* ---- AutoGUI -------------------------------------------------------------------------- */

static int64_t put_cstring(CString c, char *buf, uint64_t capacity, gamesman_error *err, const char *what) {
    if (c.str == NULL) return gamesman_fail(err, GAMESMAN_ERROR, "%s gave no string", what);
    int64_t n = put(c.str, buf, capacity);
    CStringDestroy(&c);
    return n;
}

static int64_t position_to_autogui(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                                   gamesman_error *err) {
    (void)g;
    const Uwapi *u = game->uwapi;
    if (is_tier() && u != NULL && u->tier != NULL && u->tier->TierPositionToAutoGuiPosition != NULL) {
        return put_cstring(u->tier->TierPositionToAutoGuiPosition(tp_of(p)), buf, capacity, err, "TierPositionToAutoGuiPosition");
    }
    if (!is_tier() && u != NULL && u->regular != NULL && u->regular->PositionToAutoGuiPosition != NULL) {
        return put_cstring(u->regular->PositionToAutoGuiPosition((Position)p.index), buf, capacity, err, "PositionToAutoGuiPosition");
    }
    return gamesman_fail(err, GAMESMAN_UNSUPPORTED, "%s has no AutoGUI positions", game->name);
}

/* A move without a string (Mills' moves with a removal: GamesmanOne draws their parts,
 * not the whole move) is GAMESMAN_UNSUPPORTED: the host lists it by its text. */
static int64_t put_move_cstring(CString c, char *buf, uint64_t capacity, gamesman_error *err) {
    if (c.str == NULL) return gamesman_fail(err, GAMESMAN_UNSUPPORTED, "%s gives this move no AutoGUI string", game->name);
    return put_cstring(c, buf, capacity, err, "MoveToAutoGuiMove");
}

static int64_t move_to_autogui(gamesman_game *g, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                               gamesman_error *err) {
    (void)g;
    const Uwapi *u = game->uwapi;
    if (is_tier() && u != NULL && u->tier != NULL && u->tier->MoveToAutoGuiMove != NULL) {
        return put_move_cstring(u->tier->MoveToAutoGuiMove(tp_of(p), (Move)move), buf, capacity, err);
    }
    if (!is_tier() && u != NULL && u->regular != NULL && u->regular->MoveToAutoGuiMove != NULL) {
        return put_move_cstring(u->regular->MoveToAutoGuiMove((Position)p.index, (Move)move), buf, capacity, err);
    }
    return gamesman_fail(err, GAMESMAN_UNSUPPORTED, "%s has no AutoGUI moves", game->name);
}

/* ---- the module --------------------------------------------------------------------------- */

static gamesman_module module;

const gamesman_module *gamesman_module_v1(void) {
    if (module.name != NULL) return &module;
    init_module();
    bool symmetric = is_tier() ? tier_api()->GetCanonicalPosition != NULL : regular_api()->GetCanonicalPosition != NULL;
    module.abi_version = GAMESMAN_C_ABI_VERSION;
    module.struct_size = sizeof module;
    module.flags = GAMESMAN_FLAG_THREAD_SAFE | GAMESMAN_FLAG_TURN_FREE | (is_tier() ? GAMESMAN_FLAG_TIERS : 0) |
                   (symmetric ? GAMESMAN_FLAG_SYMMETRY : 0) |
                   /* children and parents are the game's canonical, distinct ones */
                   GAMESMAN_FLAG_FAST_PATHS_CANONICAL |
                   /* a game's canonical parents cost about a child expansion (it
                    * canonicalises every candidate board), and the scan expands every
                    * position anyway: solving by the children calls the game less */
                   GAMESMAN_FLAG_SOLVE_FORWARD;
    module.authors = "GamesCrafters (GamesmanOne), through the GamesmanOne compatibility layer";
    module.description = game->formal_name;
    module.variants = variants;
    module.variant_count = variant_count;
    module.max_moves = GAMESMANONE_MAX_MOVES;
    module.max_undo_moves = has_parents() ? GAMESMANONE_MAX_MOVES : 0;
    module.max_tier_children = kTierSolverNumChildTiersMax + 1;
    module.new_game = new_game;
    module.free_game = free_game;
    module.initial_position = initial_position;
    module.primitive = primitive;
    module.generate_moves = generate_moves;
    module.do_move = do_move;
    module.turn = turn;
    module.board_to_text = board_to_text;
    module.move_to_text = move_to_text;
    module.position_to_text = position_to_text;
    module.text_to_position = text_to_position;
    module.tier_children = is_tier() ? one_tier_children : NULL;
    module.tier_size = tier_size;
    module.is_legal = is_legal;
    module.tier_name = tier_name;
    module.generate_undo_moves_to_tier = has_parents() ? one_generate_undo_moves_to_tier : NULL;
    module.undo_move = has_parents() ? one_undo_move : NULL;
    module.parents = has_parents() ? one_parents : NULL;
    module.canonical_position = symmetric ? canonical_position : NULL;
    module.children = one_has_canonical_children() ? one_children : NULL;
    module.scan_position = one_has_child_count() ? one_scan_position : NULL;
    module.is_canonical = symmetric ? one_is_canonical : NULL;
    module.position_to_autogui = position_to_autogui;
    module.move_to_autogui = move_to_autogui;
    module.name = game->name;
    return &module;
}
