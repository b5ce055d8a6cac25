/*
 * @NAME@: a game module written by `host new --lang c`, against gamesman_plugin.h: a
 * subtraction game, complete and solvable as it stands. Replace the rules with your
 * game's, keeping `validate` happy at every step (see README.md).
 *
 * The game: a pile of stones; the players take turns taking 1, 2 or 3 stones; whoever
 * takes the last stone wins. It has one tier (tier 0) whose positions are numbered
 * 2 * stones + (player to move - 1). The functions are pure, so the module is
 * thread-safe.
 *
 * Build: make (cc -O2 -shared -fPIC -I. @NAME@.c -o lib@NAME@.so)
 */
#include "gamesman_plugin.h"

#include <string.h>

enum { MAX_TAKE = 3 };

/* One variant: the pile's size. */
struct gamesman_game {
    uint64_t pile;
};

static struct gamesman_game pile21 = {21};
static struct gamesman_game pile10 = {10};

static const gamesman_variant VARIANTS[] = {
    {"21", "a pile of 21 stones"},
    {"10", "a pile of 10 stones"},
};

static uint64_t stones(gamesman_position p) { return p.index / 2; }
static int player(gamesman_position p) { return 1 + (int)(p.index % 2); }

static gamesman_position position(uint64_t n, int player_to_move) {
    gamesman_position p = {0, 2 * n + (uint64_t)(player_to_move - 1)};
    return p;
}

static int check(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    if (p.tier != 0 || stones(p) > g->pile)
        return gamesman_fail(err, GAMESMAN_ERROR, "no position %llu:%llu", (unsigned long long)p.tier,
                             (unsigned long long)p.index);
    return GAMESMAN_OK;
}

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    if (strcmp(variant, "21") == 0) return &pile21;
    if (strcmp(variant, "10") == 0) return &pile10;
    gamesman_fail(err, GAMESMAN_ERROR, "no variant '%s' (variants: 21, 10)", variant);
    return NULL;
}

static int initial_position(gamesman_game *g, gamesman_position *out, gamesman_error *err) {
    (void)err;
    *out = position(g->pile, GAMESMAN_PLAYER_ONE);
    return GAMESMAN_OK;
}

static int primitive(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    if (check(g, p, err)) return GAMESMAN_ERROR;
    /* An empty pile: the other player took the last stone. */
    return stones(p) == 0 ? GAMESMAN_LOSE : GAMESMAN_UNDECIDED;
}

static int64_t generate_moves(gamesman_game *g, gamesman_position p, uint64_t *moves,
                              uint32_t capacity, gamesman_error *err) {
    if (check(g, p, err)) return GAMESMAN_ERROR;
    int64_t n = 0;
    for (uint64_t take = 1; take <= MAX_TAKE && take <= stones(p); take++) {
        if (n < capacity) moves[n] = take;
        n++;
    }
    return n;
}

static int do_move(gamesman_game *g, gamesman_position p, uint64_t move, gamesman_position *child,
                   gamesman_error *err) {
    if (check(g, p, err)) return GAMESMAN_ERROR;
    if (move < 1 || move > MAX_TAKE || move > stones(p))
        return gamesman_fail(err, GAMESMAN_ERROR, "cannot take %llu here", (unsigned long long)move);
    *child = position(stones(p) - move, 3 - player(p));
    return GAMESMAN_OK;
}

static int turn(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
    return player(p);
}

static int64_t board_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                             gamesman_error *err) {
    if (check(g, p, err)) return GAMESMAN_ERROR;
    char pile[64 + 1];
    uint64_t n = stones(p) < 64 ? stones(p) : 64;
    memset(pile, 'o', n);
    pile[n] = '\0';
    return snprintf(buf, capacity, "  %s  (%llu left)\n", pile, (unsigned long long)stones(p));
}

static int64_t move_to_text(gamesman_game *g, gamesman_position p, uint64_t move, char *buf,
                            uint64_t capacity, gamesman_error *err) {
    (void)g, (void)p, (void)err;
    return snprintf(buf, capacity, "%llu", (unsigned long long)move);
}

/* STONES/PLAYER, e.g. 21/1: what `query` and `play` take on the command line. */
static int64_t position_to_text(gamesman_game *g, gamesman_position p, char *buf,
                                uint64_t capacity, gamesman_error *err) {
    if (check(g, p, err)) return GAMESMAN_ERROR;
    return snprintf(buf, capacity, "%llu/%d", (unsigned long long)stones(p), player(p));
}

static int text_to_position(gamesman_game *g, const char *text, gamesman_position *out,
                            gamesman_error *err) {
    unsigned long long n;
    int who, used = 0;
    if (sscanf(text, " %llu/%d %n", &n, &who, &used) != 2 || text[used] != '\0' ||
        (who != 1 && who != 2))
        return gamesman_fail(err, GAMESMAN_REJECTED,
                             "'%s' is not a position: give STONES/PLAYER, e.g. 7/2", text);
    if (n > g->pile)
        return gamesman_fail(err, GAMESMAN_REJECTED, "%llu stones is more than this variant's pile of %llu",
                             n, (unsigned long long)g->pile);
    *out = position(n, who);
    return GAMESMAN_OK;
}

static int tier_size(gamesman_game *g, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)err;
    *size = tier == 0 ? 2 * (g->pile + 1) : 0;
    return GAMESMAN_OK;
}

static const gamesman_module MODULE = {
    .abi_version = GAMESMAN_C_ABI_VERSION,
    .struct_size = sizeof(gamesman_module),
    .flags = GAMESMAN_FLAG_THREAD_SAFE,
    .name = "@NAME@",
    .authors = "you",
    .description = "Take 1, 2 or 3 stones from a pile; whoever takes the last stone wins.",
    .variants = VARIANTS,
    .variant_count = sizeof VARIANTS / sizeof VARIANTS[0],
    .max_moves = MAX_TAKE,
    .new_game = new_game,
    .initial_position = initial_position,
    .primitive = primitive,
    .generate_moves = generate_moves,
    .do_move = do_move,
    .turn = turn,
    .board_to_text = board_to_text,
    .move_to_text = move_to_text,
    .position_to_text = position_to_text,
    .text_to_position = text_to_position,
    .tier_size = tier_size,
    /* Everything left out is NULL: the host does what gamesman_plugin.h says (one
     * tier, forward-only: parents are found by expanding positions forward). */
};

const gamesman_module *gamesman_module_v1(void) { return &MODULE; }
