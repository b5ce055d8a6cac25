/*
 * classic_module.c: a GamesmanClassic module as a gamesman_plugin.h module. This file
 * defines gamesman_module_v1 and every function of the struct, each calling the
 * module's Classic functions and hooks inside a call frame (classic_guard.c).
 *
 * Positions. Classic's solvers work on the module's POSITION (a tier module's
 * TIERPOSITION) alone, the value being the mover's and every move inverting it; a
 * module encodes the turn in its positions when it matters (generic hash contexts of
 * both players, or the tier), impartial games do not. A module without go-again
 * moves and WinBy is solved that way ("turn-free", GAMESMAN_FLAG_TURN_FREE): index =
 * POSITION in one tier 0 of size gNumberOfPositions, or for a tier module index =
 * TIERPOSITION in a tier of size gNumberOfTierPositions(tier), so counts are
 * Classic's. The player to move shown is not part of the position: for a regular
 * module the one that reached it first in the exploration (classic_reach.c), for a
 * tier module player 1. Only where the host needs the turn (gGoAgain keeps it,
 * gPutWinBy is seen from player one), which Classic's API cannot tell from a
 * position, the layer tracks it in the index: index = 2 * p + (turn - 1), p being the
 * POSITION (size 2 * gNumberOfPositions) or the TIERPOSITION (size 2 *
 * gNumberOfTierPositions(tier)). Tier modules see window positions (core_window.c).
 * A regular module's legal positions are those reachable from the initial position
 * (classic_reach.c). Undo moves come from Tier Gamesman modules without go-again;
 * others are forward-only (the host expands positions forward).
 *
 * Variants are Classic's options: "N" runs setOption(N) and then InitializeGame(); the
 * first variant is the option the module starts with (getOption()). The globals hold
 * one variant at a time, so opening a second, different variant while one is open is
 * refused. Calls are not thread-safe (the module keeps scratch state in globals): the
 * host serialises them.
 */
#include "classic_internal.h"

static int tier_mode = 0;       /* InitializeGame set up the Tier Gamesman */
static int open_games = 0;      /* games handed out and not freed */
static int current_option = 0;  /* the option the module's globals hold */
static int initialized = 0;     /* InitializeGame ran for current_option */
static int turn_free = 0;       /* index = POSITION or TIERPOSITION (see above) */

struct gamesman_game {
    int option;
};
static struct gamesman_game the_game;

/* ---- positions -------------------------------------------------------------------- */

/* A host position as the module's position (a window position for tier modules) and
 * the player to move; fails on a position outside the game. */
int classic_position_in(gamesman_position p, POSITION *out, int *turn, gamesman_error *err) {
    /* Turn-free: 0, unknown (shown_turn() finds one where a text needs it). */
    *turn = turn_free ? 0 : (int)(p.index % 2) + 1;
    POSITION inner = turn_free ? p.index : p.index / 2;
    if (!tier_mode) {
        if (p.tier != 0 || inner >= gNumberOfPositions)
            return gamesman_fail(err, GAMESMAN_ERROR, "position %llu:%llu is outside the game's %llu positions",
                                 (unsigned long long)p.tier, (unsigned long long)p.index, gNumberOfPositions);
        *out = inner;
        return GAMESMAN_OK;
    }
    *out = classic_window_position(p.tier, inner);
    return GAMESMAN_OK;
}

/* The player to move named in a text: `turn`, or for a turn-free module the
 * exploration's if it ran already (texts never start it; turn() does), else 1. */
static int shown_turn(POSITION position, int turn) {
    if (turn != 0) return turn;
    int known = classic_turn_known(position);
    return known > 0 ? known : 1;
}

/* The module's position `position` with `turn` to move as a host position. */
int classic_position_out(POSITION position, int turn, const char *function, gamesman_position *out, gamesman_error *err) {
    POSITION inner = position;
    TIER tier = 0;
    if (!tier_mode) {
        if (position >= gNumberOfPositions)
            return gamesman_fail(err, GAMESMAN_ERROR, "%s returned position %llu, not below gNumberOfPositions (%llu)",
                                 function, position, gNumberOfPositions);
    } else if (!classic_window_split(position, &tier, &inner)) {
        return gamesman_fail(err, GAMESMAN_ERROR, "%s returned position %llu, which lies in no tier of the hash window",
                             function, position);
    }
    out->tier = tier;
    out->index = turn_free ? inner : 2 * inner + (POSITION)(turn - 1);
    return GAMESMAN_OK;
}

/* Moves cross the boundary as their 32 bits (Classic's MOVE is an int). */
static uint64_t move_out(MOVE m) { return (uint64_t)(uint32_t)m; }
MOVE classic_move_in(uint64_t m) { return (MOVE)(int32_t)(uint32_t)m; }

/* Copies a move list into the host's buffer and frees it; counts past the capacity
 * are an error naming the cc option that raises it. */
static int64_t take_moves(MOVELIST *list, uint64_t *out, uint32_t capacity, const char *what, const char *option,
                          gamesman_error *err) {
    int64_t n = 0;
    for (MOVELIST *m = list; m != NULL; m = m->next, n++)
        if (n < capacity) out[n] = move_out(m->move);
    FreeMoveList(list);
    if (n > capacity)
        return gamesman_fail(err, GAMESMAN_ERROR, "%s gave %lld items, more than the %u the layer declares; build with -D%s=%lld",
                             what, (long long)n, capacity, option, (long long)n);
    return n;
}

/* ---- life cycle --------------------------------------------------------------------- */

/* What a module must define to be run at all. */
static const char *missing_definition(void) {
    if (InitializeGame == NULL) return "InitializeGame()";
    if (Primitive == NULL) return "Primitive()";
    if (GenerateMoves == NULL) return "GenerateMoves()";
    if (DoMove == NULL) return "DoMove()";
    if (&gNumberOfPositions == NULL) return "gNumberOfPositions";
    if (&gInitialPosition == NULL) return "gInitialPosition";
    return NULL;
}

static int initialize(int option, gamesman_error *err) {
    if (option != current_option && setOption != NULL) setOption(option);
    current_option = option;
    InitializeGame();
    classic_window_reset();
    classic_reach_reset();
    tier_mode = kSupportsTierGamesman && gTierChildrenFunPtr != NULL && gNumberOfTierPositionsFunPtr != NULL;
    gTierGamesman = tier_mode;
    gHashWindowInitialized = tier_mode;
    turn_free = gGoAgain == NULL && gPutWinBy == NULL;
    if (!tier_mode && (gNumberOfPositions == 0 || gNumberOfPositions > UINT64_MAX / 2))
        return gamesman_fail(err, GAMESMAN_ERROR, "gNumberOfPositions is %llu after InitializeGame()", gNumberOfPositions);
    if (!tier_mode && gInitialPosition >= gNumberOfPositions)
        return gamesman_fail(err, GAMESMAN_ERROR, "gInitialPosition %llu is not below gNumberOfPositions %llu",
                             gInitialPosition, gNumberOfPositions);
    initialized = 1;
    return GAMESMAN_OK;
}

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    const char *missing = missing_definition();
    if (missing != NULL) {
        gamesman_fail(err, GAMESMAN_ERROR, "the module does not define %s", missing);
        return NULL;
    }
    char *end = NULL;
    long option = strtol(variant, &end, 10);
    if (end == variant || *end != '\0') {
        gamesman_fail(err, GAMESMAN_ERROR, "variant '%s' is not an option number", variant);
        return NULL;
    }
    if (open_games > 0 && option != current_option) {
        gamesman_fail(err, GAMESMAN_ERROR, "option %d is open: a GamesmanClassic module holds one variant at a time",
                      current_option);
        return NULL;
    }
    int rc = GAMESMAN_OK;
    if (open_games == 0 || !initialized) {
        initialized = 0;
        CLASSIC_RUN(err, "InitializeGame", NULL, rc = initialize((int)option, err));
    }
    if (rc != GAMESMAN_OK) return NULL;
    open_games++;
    the_game.option = (int)option;
    return &the_game;
}

static void free_game(gamesman_game *game) {
    (void)game;
    if (open_games > 0) open_games--;
}

static int properties(gamesman_game *game, gamesman_properties *out, gamesman_error *err) {
    (void)game, (void)err;
    out->flags = (tier_mode ? GAMESMAN_FLAG_TIERS : 0) | (gPutWinBy != NULL ? GAMESMAN_FLAG_WINBY : 0) |
                 (turn_free ? GAMESMAN_FLAG_TURN_FREE : 0) |
                 (gGoAgain != NULL ? GAMESMAN_FLAG_GO_AGAIN : 0) |
                 (classic_symmetric() ? GAMESMAN_FLAG_SYMMETRY : 0);
    out->max_moves = GAMESMAN_CLASSIC_MAX_MOVES;
    out->max_undo_moves = GAMESMAN_CLASSIC_MAX_UNDO_MOVES;
    out->max_tier_children = GAMESMAN_CLASSIC_MAX_TIER_CHILDREN;
    out->reserved = 0;
    return GAMESMAN_OK;
}

/* ---- the regular API --------------------------------------------------------------- */

static int tier_size(gamesman_game *game, uint64_t tier, uint64_t *size, gamesman_error *err);

static int initial_position(gamesman_game *game, gamesman_position *out, gamesman_error *err) {
    (void)game;
    if (!tier_mode) {
        out->tier = 0;
        out->index = turn_free ? gInitialPosition : 2 * gInitialPosition;
        return GAMESMAN_OK;
    }
    /* gInitialTier and gInitialTierPosition, as Classic's solvers start. The module's
     * gGetInitialTierPositionFunPtr is never called: in Classic it is the menu's
     * interactive "type a start position". */
    uint64_t size = 0;
    if (tier_size(game, gInitialTier, &size, err) != GAMESMAN_OK) return GAMESMAN_ERROR;
    uint64_t positions = turn_free ? size : size / 2;
    if (gInitialTierPosition >= positions)
        return gamesman_fail(err, GAMESMAN_ERROR,
                             "gInitialTierPosition %llu is past the size %llu of gInitialTier %llu (NumberOfTierPositions)",
                             gInitialTierPosition, (unsigned long long)positions, gInitialTier);
    out->tier = gInitialTier;
    out->index = turn_free ? gInitialTierPosition : 2 * gInitialTierPosition;
    return GAMESMAN_OK;
}

static int primitive(gamesman_game *game, gamesman_position p, gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn, rc = GAMESMAN_OK;
    VALUE v = undecided;
    CLASSIC_RUN(err, "Primitive", GAMESMAN_ERROR, {
        rc = classic_position_in(p, &position, &turn, err);
        if (rc == GAMESMAN_OK) v = Primitive(position);
    });
    if (rc != GAMESMAN_OK) return rc;
    if ((int)v < (int)undecided || (int)v > (int)tie)
        return gamesman_fail(err, GAMESMAN_ERROR, "Primitive returned the VALUE %d (only win, lose, tie or undecided)",
                             (int)v);
    return (int)v; /* undecided, win, lose, tie are gamesman_plugin.h's codes */
}

static int64_t generate_moves(gamesman_game *game, gamesman_position p, uint64_t *moves, uint32_t capacity,
                              gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "GenerateMoves", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK)
            n = take_moves(GenerateMoves(position), moves, capacity, "GenerateMoves", "GAMESMAN_CLASSIC_MAX_MOVES",
                           err);
    });
    return n;
}

static int do_move(gamesman_game *game, gamesman_position p, uint64_t move, gamesman_position *child,
                   gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int rc = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "DoMove", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            POSITION next = DoMove(position, classic_move_in(move));
            classic_note_function("GoAgain");
            rc = classic_position_out(next, classic_next_turn(position, classic_move_in(move), turn), "DoMove", child, err);
        }
    });
    return rc;
}

static int turn(gamesman_game *game, gamesman_position p, gamesman_error *err) {
    (void)game;
    if (!turn_free) return (int)(p.index % 2) + 1;
    /* A tier module's turn is not part of its TIERPOSITION as the layer sees it. */
    if (tier_mode) return GAMESMAN_PLAYER_ONE;
    POSITION position;
    volatile int t = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "GenerateMoves", GAMESMAN_ERROR, {
        int found = 0;
        if (classic_position_in(p, &position, &found, err) == GAMESMAN_OK) t = found != 0 ? found : classic_turn_of(position, err);
    });
    return t;
}

/* PrintPosition without its prediction line (GetPrediction is empty), captured. */
struct print_args {
    POSITION position;
    int turn;
    MOVE move;
};

static void print_position(void *a) {
    struct print_args *args = a;
    PrintPosition(args->position, gPlayerName[args->turn == 1 ? kPlayerOneTurn : kPlayerTwoTurn], TRUE);
}

static void print_move(void *a) { PrintMove(((struct print_args *)a)->move); }

static int64_t board_to_text(gamesman_game *game, gamesman_position p, char *buf, uint64_t capacity,
                             gamesman_error *err) {
    (void)game;
    struct print_args args = {0, 0, 0};
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "PrintPosition", GAMESMAN_ERROR, {
        if (classic_position_in(p, &args.position, &args.turn, err) == GAMESMAN_OK) {
            args.turn = shown_turn(args.position, args.turn);
            if (PrintPosition != NULL) n = classic_capture(buf, capacity, print_position, &args);
            if (n < 0) n = snprintf(buf, capacity, "position %llu\n", args.position);
        }
    });
    return n;
}

/* The module's text for a move (MoveToString, else PrintMove, else the number). */
static int64_t move_text(MOVE move, char *buf, uint64_t capacity) {
    if (MoveToString != NULL) {
        char text[1024] = {0};
        MoveToString(move, text);
        text[sizeof text - 1] = '\0';
        /* Empty: nothing written (a C++ module's older STRING MoveToString(MOVE)). */
        if (text[0] != '\0' || PrintMove == NULL) return snprintf(buf, capacity, "%s", text);
    }
    if (PrintMove != NULL) {
        struct print_args args = {0, 0, move};
        int64_t n = classic_capture(buf, capacity, print_move, &args);
        if (n >= 0) return n;
    }
    return snprintf(buf, capacity, "%d", move);
}

static int64_t move_to_text(gamesman_game *game, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                            gamesman_error *err) {
    (void)game, (void)p;
    int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "MoveToString", GAMESMAN_ERROR, n = move_text(classic_move_in(move), buf, capacity));
    return n;
}

/* Finds a typed move: the text of a legal move, else what ValidTextInput and
 * ConvertTextInputToMove make of it if that is legal. */
static int find_move(POSITION position, const char *text, uint64_t *out, gamesman_error *err) {
    char typed[MAXINPUTLENGTH * 4];
    while (isspace((unsigned char)*text)) text++;
    snprintf(typed, sizeof typed, "%s", text);
    for (size_t len = strlen(typed); len > 0 && isspace((unsigned char)typed[len - 1]); len--) typed[len - 1] = '\0';
    MOVELIST *moves = GenerateMoves(position);
    char names[512] = "", name[256];
    size_t used = 0;
    int found = 0;
    classic_note_function("MoveToString");
    for (MOVELIST *m = moves; m != NULL && !found; m = m->next) {
        move_text(m->move, name, sizeof name);
        for (size_t len = strlen(name); len > 0 && isspace((unsigned char)name[len - 1]); len--) name[len - 1] = '\0';
        /* Compared trimmed on both sides, as the typed text is ("%2d %2d" texts). */
        const char *bare = name;
        while (isspace((unsigned char)*bare)) bare++;
        if (strcasecmp(bare, typed) == 0) {
            *out = move_out(m->move);
            found = 1;
        } else if (used < sizeof names) {
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? " " : "", bare);
        }
    }
    classic_note_function("ValidTextInput");
    if (!found && ValidTextInput != NULL && ConvertTextInputToMove != NULL && ValidTextInput(typed)) {
        classic_note_function("ConvertTextInputToMove");
        MOVE converted = ConvertTextInputToMove(typed);
        for (MOVELIST *m = moves; m != NULL && !found; m = m->next) {
            if (m->move == converted) {
                *out = move_out(converted);
                found = 1;
            }
        }
    }
    FreeMoveList(moves);
    if (found) return GAMESMAN_OK;
    return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a legal move here; legal moves: %s", typed, names);
}

static int text_to_move(gamesman_game *game, gamesman_position p, const char *text, uint64_t *move,
                        gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int rc = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "GenerateMoves", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) rc = find_move(position, text, move, err);
    });
    return rc;
}

/* A position's text: the module's PositionToString ("<turn>_<board>") when it names the
 * same player to move, else "#TURN:POSITION" (tier modules: "#TURN:TIER:POSITION"). */
static int64_t position_to_text(gamesman_game *game, gamesman_position p, char *buf, uint64_t capacity,
                                gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "PositionToString", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            char text[1024] = {0};
            if (gPositionToStringFunPtr != NULL) gPositionToStringFunPtr(position, text);
            text[sizeof text - 1] = '\0';
            /* The module's text where it names the player to move the layer tracks
             * (any player for a turn-free module: its POSITION decides). */
            int named = turn == 0 ? text[0] - '0' : turn;
            if ((named == 1 || named == 2) && text[0] == (char)('0' + named) && text[1] == '_')
                n = snprintf(buf, capacity, "%s", text);
            else if (tier_mode && turn_free)
                n = snprintf(buf, capacity, "#%llu:%llu", (unsigned long long)p.tier, (unsigned long long)p.index);
            else if (tier_mode) n = snprintf(buf, capacity, "#%d:%llu:%llu", turn, (unsigned long long)p.tier,
                                             (unsigned long long)(p.index / 2));
            else if (turn_free) n = snprintf(buf, capacity, "#%llu", position);
            else n = snprintf(buf, capacity, "#%d:%llu", turn, position);
        }
    });
    return n;
}

static int text_to_position(gamesman_game *game, const char *text, gamesman_position *out, gamesman_error *err) {
    (void)game;
    int turn = 1, rc = GAMESMAN_ERROR;
    unsigned long long a = 0, b = 0;
    char rest = 0;
    if (text[0] == '#' && turn_free && tier_mode) {
        if (sscanf(text, "#%llu:%llu%c", &a, &b, &rest) != 2)
            return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a position: give #TIER:POSITION", text);
        uint64_t size = 0;
        if (tier_size(game, a, &size, err) != GAMESMAN_OK) return GAMESMAN_ERROR;
        if (b >= size)
            return gamesman_fail(err, GAMESMAN_REJECTED, "position %llu is not below the %llu positions of tier %llu", b,
                                 (unsigned long long)size, a);
        out->tier = a;
        out->index = b;
        return GAMESMAN_OK;
    }
    if (text[0] == '#' && turn_free) {
        if (sscanf(text, "#%llu%c", &a, &rest) != 1)
            return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a position: give #POSITION", text);
        if (a >= gNumberOfPositions)
            return gamesman_fail(err, GAMESMAN_REJECTED, "position %llu is not below gNumberOfPositions (%llu)", a,
                                 gNumberOfPositions);
        out->tier = 0;
        out->index = a;
        return GAMESMAN_OK;
    }
    if (text[0] == '#') {
        int fields = sscanf(text, "#%d:%llu:%llu%c", &turn, &a, &b, &rest);
        if ((turn != 1 && turn != 2) || fields < 2 || fields > 3 || (tier_mode ? fields != 3 : fields != 2))
            return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a position: give %s", text,
                                 tier_mode ? "#TURN:TIER:POSITION" : "#TURN:POSITION");
        if (!tier_mode && a >= gNumberOfPositions)
            return gamesman_fail(err, GAMESMAN_REJECTED, "position %llu is not below gNumberOfPositions (%llu)", a,
                                 gNumberOfPositions);
        out->tier = tier_mode ? a : 0;
        out->index = 2 * (tier_mode ? b : a) + (POSITION)(turn - 1);
        return GAMESMAN_OK;
    }
    if (StringToPosition == NULL)
        return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a position: the module has no StringToPosition; give %s",
                             text, turn_free ? (tier_mode ? "#TIER:POSITION" : "#POSITION")
                                             : (tier_mode ? "#TURN:TIER:POSITION" : "#TURN:POSITION"));
    if (text[0] == '2' && text[1] == '_') turn = 2;
    char copy[MAX_POSITION_STRING_LENGTH * 8];
    snprintf(copy, sizeof copy, "%s", text);
    CLASSIC_RUN(err, "StringToPosition", GAMESMAN_ERROR, {
        POSITION position = StringToPosition(copy);
        if (position == NULL_POSITION)
            rc = gamesman_fail(err, GAMESMAN_REJECTED, "the module's StringToPosition does not accept '%s'", text);
        else
            rc = classic_position_out(position, turn, "StringToPosition", out, err);
    });
    return rc;
}

/* ---- the tier API -------------------------------------------------------------------- */

static int64_t tier_children(gamesman_game *game, uint64_t tier, uint64_t *children, uint32_t capacity,
                             gamesman_error *err) {
    (void)game;
    if (!tier_mode) {
        if (capacity > 0) children[0] = tier;
        return 1;
    }
    volatile int64_t n = 0;
    CLASSIC_RUN(err, "TierChildren", GAMESMAN_ERROR, {
        TIERLIST *list = gTierChildrenFunPtr(tier);
        for (TIERLIST *t = list; t != NULL; t = t->next, n++)
            if (n < capacity) children[n] = t->tier;
        FreeTierList(list);
    });
    if (n > capacity)
        return gamesman_fail(err, GAMESMAN_ERROR,
                             "TierChildren gave %lld tiers, more than the %u the layer declares; build with -DGAMESMAN_CLASSIC_MAX_TIER_CHILDREN=%lld",
                             (long long)n, capacity, (long long)n);
    return n;
}

static int tier_size(gamesman_game *game, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)game;
    if (!tier_mode) {
        *size = tier != 0 ? 0 : turn_free ? gNumberOfPositions : 2 * gNumberOfPositions;
        return GAMESMAN_OK;
    }
    TIERPOSITION n = 0;
    CLASSIC_RUN(err, "NumberOfTierPositions", GAMESMAN_ERROR, n = gNumberOfTierPositionsFunPtr(tier));
    if (!turn_free && n > UINT64_MAX / 2)
        return gamesman_fail(err, GAMESMAN_ERROR, "tier %llu has %llu positions, too many", (unsigned long long)tier, n);
    *size = turn_free ? n : 2 * n;
    return GAMESMAN_OK;
}

static int is_legal(gamesman_game *game, gamesman_position p, gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int rc = GAMESMAN_ERROR;
    CLASSIC_RUN(err, tier_mode ? "IsLegal" : "GenerateMoves", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            if (!tier_mode) rc = classic_reachable(position, turn_free ? 0 : turn, err);
            else rc = gIsLegalFunPtr == NULL || gIsLegalFunPtr(position) ? 1 : 0;
        }
    });
    return rc;
}

/* Undo moves come from tier modules that give both hooks and have no go-again moves
 * (the turn before an undone move is then always the other player's). */
static int gives_undo_moves(void) {
    return tier_mode && gGenerateUndoMovesToTierFunPtr != NULL && gUnDoMoveFunPtr != NULL && gGoAgain == NULL;
}

static int64_t generate_undo_moves_to_tier(gamesman_game *game, gamesman_position p, uint64_t tier, uint64_t *undo,
                                           uint32_t capacity, gamesman_error *err) {
    (void)game;
    if (!gives_undo_moves()) return GAMESMAN_UNSUPPORTED;
    POSITION position;
    int turn;
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "GenerateUndoMovesToTier", GAMESMAN_ERROR, {
        /* None towards a tier that does not list the position's tier as a child:
         * Classic never asks there, and modules answer it with moves of their own. */
        if (!classic_tier_lists_child(tier, p.tier)) n = 0;
        else if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            UNDOMOVELIST *list = gGenerateUndoMovesToTierFunPtr(position, tier);
            n = 0;
            for (UNDOMOVELIST *u = list; u != NULL; u = u->next, n++)
                if (n < capacity) undo[n] = move_out(u->undomove);
            FreeUndoMoveList(list);
        }
    });
    if (n > capacity)
        return gamesman_fail(err, GAMESMAN_ERROR,
                             "GenerateUndoMovesToTier gave %lld undo moves, more than the %u the layer declares; build with -DGAMESMAN_CLASSIC_MAX_UNDO_MOVES=%lld",
                             (long long)n, capacity, (long long)n);
    return n;
}

static int undo_move(gamesman_game *game, gamesman_position p, uint64_t undo, gamesman_position *parent,
                     gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int rc = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "UnDoMove", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK)
            rc = classic_position_out(gUnDoMoveFunPtr(position, classic_move_in(undo)), 3 - turn, "UnDoMove", parent, err);
    });
    return rc;
}

static int64_t tier_name(gamesman_game *game, uint64_t tier, char *buf, uint64_t capacity, gamesman_error *err) {
    (void)game;
    int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "TierToString", GAMESMAN_ERROR, {
        STRING name = tier_mode && gTierToStringFunPtr != NULL ? gTierToStringFunPtr(tier) : NULL;
        if (name != NULL) n = snprintf(buf, capacity, "%s", name);
        else n = snprintf(buf, capacity, "%llu", (unsigned long long)tier);
        SafeFree(name);
    });
    return n;
}

/* ---- the module ----------------------------------------------------------------------- */

static gamesman_module module;
static char module_name[64], module_description[1024];

static int ask_options(int *count, int *start, gamesman_error *err) {
    CLASSIC_RUN(err, "NumberOfOptions", GAMESMAN_ERROR, {
        *count = NumberOfOptions != NULL ? NumberOfOptions() : 0;
        *start = getOption != NULL ? getOption() : 1;
    });
    return GAMESMAN_OK;
}

/* The options as variants: the module's starting option first, then 1..N. A module
 * that fails here offers its starting option only (new_game reports the failure). */
static void describe_variants(void) {
    gamesman_error err;
    int count = 0, start = 1;
    if (ask_options(&count, &start, &err) != GAMESMAN_OK) count = 0;
    if (count < 0) count = 0;
    if (count > 4096) count = 4096;
    current_option = start;
    gamesman_variant *variants = calloc((size_t)count + 1, sizeof *variants);
    char (*names)[16] = calloc((size_t)count + 1, sizeof *names);
    char (*notes)[64] = calloc((size_t)count + 1, sizeof *notes);
    if (variants == NULL || names == NULL || notes == NULL) return;
    int n = 0;
    for (int option = 0; option <= count; option++) {
        int value = option == 0 ? start : option;
        if (option > 0 && value == start) continue;
        snprintf(names[n], sizeof names[n], "%d", value);
        snprintf(notes[n], sizeof notes[n], "GamesmanClassic option %d%s", value,
                 option == 0 ? " (the module's starting option)" : "");
        variants[n] = (gamesman_variant){names[n], notes[n]};
        n++;
    }
    module.variants = variants;
    module.variant_count = (uint32_t)n;
}

/* A database name as the host's short module name: letters, digits, '_' and '-'. */
static void short_name(const char *from) {
    size_t n = 0;
    for (; from != NULL && from[n] != '\0' && n + 1 < sizeof module_name; n++) {
        char c = from[n];
        module_name[n] = isalnum((unsigned char)c) || c == '-' ? c : '_';
    }
    module_name[n] = '\0';
    if (n == 0) snprintf(module_name, sizeof module_name, "classic");
}

__attribute__((visibility("default"))) const gamesman_module *gamesman_module_v1(void) {
    if (module.abi_version != 0) return &module;
    short_name(&kDBName != NULL && kDBName != NULL && kDBName[0] != '\0' ? kDBName
               : &kGameName != NULL                                      ? kGameName
                                                                         : NULL);
    snprintf(module_description, sizeof module_description, "%s (GamesmanClassic module)%s%s",
             &kGameName != NULL && kGameName != NULL ? kGameName : module_name,
             &kHelpStandardObjective != NULL && kHelpStandardObjective != NULL ? ". Objective: " : "",
             &kHelpStandardObjective != NULL && kHelpStandardObjective != NULL ? kHelpStandardObjective : "");
    module.struct_size = sizeof module;
    module.flags = 0;
    module.name = module_name;
    module.authors = &kAuthorName != NULL ? kAuthorName : NULL;
    module.description = module_description;
    module.max_moves = GAMESMAN_CLASSIC_MAX_MOVES;
    module.max_undo_moves = GAMESMAN_CLASSIC_MAX_UNDO_MOVES;
    module.max_tier_children = GAMESMAN_CLASSIC_MAX_TIER_CHILDREN;
    describe_variants();
    module.new_game = new_game;
    module.free_game = free_game;
    module.properties = properties;
    module.initial_position = initial_position;
    module.primitive = primitive;
    module.generate_moves = generate_moves;
    module.do_move = do_move;
    module.turn = turn;
    module.board_to_text = board_to_text;
    module.move_to_text = move_to_text;
    module.text_to_move = text_to_move;
    module.position_to_text = position_to_text;
    module.text_to_position = text_to_position;
    module.tier_children = tier_children;
    module.tier_size = tier_size;
    module.is_legal = is_legal;
    module.generate_undo_moves_to_tier = generate_undo_moves_to_tier;
    module.undo_move = undo_move;
    module.tier_name = tier_name;
    module.win_by = classic_win_by;
    module.canonical_position = classic_canonical_position;
    module.position_to_autogui = PositionToAutoGUIString != NULL ? classic_position_to_autogui : NULL;
    module.move_to_autogui = MoveToAutoGUIString != NULL ? classic_move_to_autogui : NULL;
    module.abi_version = GAMESMAN_C_ABI_VERSION; /* last: marks the struct complete */
    return &module;
}
