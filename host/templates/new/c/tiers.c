/*
 * @NAME@: a tiered game module written by `host new --lang c --tiers`, against
 * gamesman_plugin.h: Treblecross, complete and solvable as it stands, with undo moves
 * and a symmetry. Replace the rules with your game's, keeping `validate` happy at
 * every step (see README.md).
 *
 * The game: a row of 7 (or 6, or 9) empty cells; the players take turns putting an X
 * on an empty cell (both play X); whoever completes three X in a row wins. Tier t
 * holds the boards with t X on them (tier 0 is the empty row); every move goes from
 * tier t to tier t + 1. Within a tier a board is numbered densely: the cells of its X
 * as a combination of the row's cells (the Rust crate's `Ranker` numbers them the same
 * way). Player one moves at even tiers. A board and its mirror image have the same
 * value, so only one of them is stored. The functions are pure, so the module is
 * thread-safe.
 *
 * Build: make (cc -O2 -shared -fPIC -I. @NAME@.c -o lib@NAME@.so)
 */
#include "gamesman_plugin.h"

#include <string.h>

enum { BLANK = 0, X = 1, MAX_CELLS = 9 };

/* One variant: the row's length. */
struct gamesman_game {
    int cells;
};

static struct gamesman_game row7 = {7};
static struct gamesman_game row6 = {6};
static struct gamesman_game row9 = {9};

static const gamesman_variant VARIANTS[] = {
    {"7", "a row of 7 cells"},
    {"6", "a row of 6 cells"},
    {"9", "a row of 9 cells"},
};

/* ---- numbering boards -------------------------------------------------------------- */

static uint64_t binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

static uint64_t tier_positions(const gamesman_game *g, uint64_t tier) {
    return tier > (uint64_t)g->cells ? 0 : binomial(g->cells, (int)tier);
}

/* The rank of a board among those with as many X: its X cells as a combination. */
static uint64_t rank_board(const gamesman_game *g, const int *b) {
    uint64_t rank = 0;
    int seen = 0;
    for (int i = 0; i < g->cells; i++)
        if (b[i] == X) rank += binomial(i, ++seen);
    return rank;
}

static void unrank_board(const gamesman_game *g, uint64_t index, uint64_t tier, int *b) {
    for (int i = 0; i < g->cells; i++) b[i] = BLANK;
    int hi = g->cells;
    for (int k = (int)tier; k >= 1; k--) {
        int c = hi - 1;
        while (binomial(c, k) > index) c--;
        b[c] = X;
        index -= binomial(c, k);
        hi = c;
    }
}

/* ---- rules ------------------------------------------------------------------------- */

static int three_in_a_row(const gamesman_game *g, const int *b) {
    for (int i = 0; i + 2 < g->cells; i++)
        if (b[i] == X && b[i + 1] == X && b[i + 2] == X) return 1;
    return 0;
}

/* Play stops at three in a row, so a board with one must have one X (the last) whose
 * removal leaves none. */
static int legal_board(const gamesman_game *g, int *b) {
    if (!three_in_a_row(g, b)) return 1;
    for (int i = 0; i < g->cells; i++) {
        if (b[i] != X) continue;
        b[i] = BLANK;
        int none = !three_in_a_row(g, b);
        b[i] = X;
        if (none) return 1;
    }
    return 0;
}

/* Reads p's board into b, or fails for a position that does not exist. */
static int board(const gamesman_game *g, gamesman_position p, int *b, gamesman_error *err) {
    if (p.index >= tier_positions(g, p.tier))
        return gamesman_fail(err, GAMESMAN_ERROR, "no position %llu:%llu", (unsigned long long)p.tier,
                             (unsigned long long)p.index);
    unrank_board(g, p.index, p.tier, b);
    return GAMESMAN_OK;
}

/* ---- the ABI ----------------------------------------------------------------------- */

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    if (strcmp(variant, "7") == 0) return &row7;
    if (strcmp(variant, "6") == 0) return &row6;
    if (strcmp(variant, "9") == 0) return &row9;
    gamesman_fail(err, GAMESMAN_ERROR, "no variant '%s' (variants: 7, 6, 9)", variant);
    return NULL;
}

static int properties(gamesman_game *g, gamesman_properties *out, gamesman_error *err) {
    (void)err;
    out->flags = GAMESMAN_FLAG_TIERS | GAMESMAN_FLAG_SYMMETRY;
    out->max_moves = (uint32_t)g->cells;
    out->max_undo_moves = (uint32_t)g->cells;
    out->max_tier_children = 1;
    out->reserved = 0;
    return GAMESMAN_OK;
}

static int initial_position(gamesman_game *g, gamesman_position *out, gamesman_error *err) {
    (void)g, (void)err;
    out->tier = 0;
    out->index = 0;
    return GAMESMAN_OK;
}

static int primitive(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    /* The player who just moved completed three in a row. */
    return three_in_a_row(g, b) ? GAMESMAN_LOSE : GAMESMAN_UNDECIDED;
}

static int64_t generate_moves(gamesman_game *g, gamesman_position p, uint64_t *moves,
                              uint32_t capacity, gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    int64_t n = 0;
    for (int i = 0; i < g->cells; i++) {
        if (b[i] != BLANK) continue;
        if (n < capacity) moves[n] = (uint64_t)i;
        n++;
    }
    return n;
}

static int do_move(gamesman_game *g, gamesman_position p, uint64_t move, gamesman_position *child,
                   gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    if (move >= (uint64_t)g->cells || b[move] != BLANK)
        return gamesman_fail(err, GAMESMAN_ERROR, "move %llu is not legal here", (unsigned long long)move);
    b[move] = X;
    child->tier = p.tier + 1;
    child->index = rank_board(g, b);
    return GAMESMAN_OK;
}

static int turn(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
    return p.tier % 2 == 0 ? GAMESMAN_PLAYER_ONE : GAMESMAN_PLAYER_TWO;
}

static int64_t board_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                             gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    char text[128];
    int len = snprintf(text, sizeof text, " ");
    for (int i = 0; i < g->cells; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, " %c", b[i] == X ? 'X' : '-');
    len += snprintf(text + len, sizeof text - (size_t)len, "    (");
    for (int i = 0; i < g->cells; i++) len += snprintf(text + len, sizeof text - (size_t)len, " %d", i + 1);
    snprintf(text + len, sizeof text - (size_t)len, " )\n");
    return snprintf(buf, capacity, "%s", text);
}

static int64_t move_to_text(gamesman_game *g, gamesman_position p, uint64_t move, char *buf,
                            uint64_t capacity, gamesman_error *err) {
    (void)g, (void)p, (void)err;
    return snprintf(buf, capacity, "%llu", (unsigned long long)move + 1);
}

/* One character per cell, X or -: ---X---. */
static int64_t position_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                                gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    char text[MAX_CELLS + 1];
    for (int i = 0; i < g->cells; i++) text[i] = b[i] == X ? 'X' : '-';
    text[g->cells] = '\0';
    return snprintf(buf, capacity, "%s", text);
}

static int text_to_position(gamesman_game *g, const char *text, gamesman_position *out,
                            gamesman_error *err) {
    int b[MAX_CELLS], xs = 0;
    while (*text == ' ') text++;
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == ' ') len--;
    if (len != (size_t)g->cells)
        return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a board: give %d cells, each X or -",
                             text, g->cells);
    for (int i = 0; i < g->cells; i++) {
        if (text[i] == 'X' || text[i] == 'x') {
            b[i] = X;
            xs++;
        } else if (text[i] == '-') {
            b[i] = BLANK;
        } else {
            return gamesman_fail(err, GAMESMAN_REJECTED, "'%c' is not a cell: use X or -", text[i]);
        }
    }
    out->tier = (uint64_t)xs;
    out->index = rank_board(g, b);
    return GAMESMAN_OK;
}

static int64_t tier_children(gamesman_game *g, uint64_t tier, uint64_t *children, uint32_t capacity,
                             gamesman_error *err) {
    (void)err;
    if (tier >= (uint64_t)g->cells) return 0;
    if (capacity >= 1) children[0] = tier + 1;
    return 1;
}

static int tier_size(gamesman_game *g, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)err;
    *size = tier_positions(g, tier);
    return GAMESMAN_OK;
}

static int64_t tier_name(gamesman_game *g, uint64_t tier, char *buf, uint64_t capacity,
                         gamesman_error *err) {
    (void)g, (void)err;
    return snprintf(buf, capacity, "%llux", (unsigned long long)tier);
}

static int is_legal(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    return legal_board(g, b);
}

/* Taking back an X, when that gives a position play could have gone on from (no
 * three in a row: the game stops there). */
static int64_t generate_undo_moves_to_tier(gamesman_game *g, gamesman_position p, uint64_t tier,
                                           uint64_t *undo, uint32_t capacity, gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    if (tier + 1 != p.tier) return 0;
    int64_t n = 0;
    for (int i = 0; i < g->cells; i++) {
        if (b[i] != X) continue;
        b[i] = BLANK;
        if (!three_in_a_row(g, b)) {
            if (n < capacity) undo[n] = (uint64_t)i;
            n++;
        }
        b[i] = X;
    }
    return n;
}

static int undo_move(gamesman_game *g, gamesman_position p, uint64_t undo, gamesman_position *parent,
                     gamesman_error *err) {
    int b[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    if (undo >= (uint64_t)g->cells || b[undo] != X)
        return gamesman_fail(err, GAMESMAN_ERROR, "undo move %llu is not possible here", (unsigned long long)undo);
    b[undo] = BLANK;
    parent->tier = p.tier - 1;
    parent->index = rank_board(g, b);
    return GAMESMAN_OK;
}

/* A board and its mirror image: the one with the smaller number stands for both. */
static int canonical_position(gamesman_game *g, gamesman_position p, gamesman_position *out,
                              gamesman_error *err) {
    int b[MAX_CELLS], mirror[MAX_CELLS];
    if (board(g, p, b, err)) return GAMESMAN_ERROR;
    for (int i = 0; i < g->cells; i++) mirror[g->cells - 1 - i] = b[i];
    uint64_t m = rank_board(g, mirror);
    out->tier = p.tier;
    out->index = m < p.index ? m : p.index;
    return GAMESMAN_OK;
}

static const gamesman_module MODULE = {
    .abi_version = GAMESMAN_C_ABI_VERSION,
    .struct_size = sizeof(gamesman_module),
    .flags = GAMESMAN_FLAG_THREAD_SAFE | GAMESMAN_FLAG_TIERS | GAMESMAN_FLAG_SYMMETRY,
    .name = "@NAME@",
    .authors = "you",
    .description = "Treblecross: the players take turns putting an X on an empty cell of a row; "
                   "whoever completes three X in a row wins.",
    .variants = VARIANTS,
    .variant_count = sizeof VARIANTS / sizeof VARIANTS[0],
    .max_moves = MAX_CELLS,
    .max_undo_moves = MAX_CELLS,
    .max_tier_children = 1,
    .new_game = new_game,
    .properties = properties,
    .initial_position = initial_position,
    .primitive = primitive,
    .generate_moves = generate_moves,
    .do_move = do_move,
    .turn = turn,
    .board_to_text = board_to_text,
    .move_to_text = move_to_text,
    .position_to_text = position_to_text,
    .text_to_position = text_to_position,
    .tier_children = tier_children,
    .tier_size = tier_size,
    .is_legal = is_legal,
    .generate_undo_moves_to_tier = generate_undo_moves_to_tier,
    .undo_move = undo_move,
    .tier_name = tier_name,
    .canonical_position = canonical_position,
};

const gamesman_module *gamesman_module_v1(void) { return &MODULE; }
