/*
 * bad_header_module.c: a small correct game written against gamesman_plugin.h, and,
 * with one -D flag each, the ways a C module can be wrong that the host must report:
 *
 *   -DBAD_NULL_PRIMITIVE   a required function left NULL
 *   -DBAD_SMALL_STRUCT     struct_size smaller than the version's fields
 *   -DBAD_ABI_VERSION      another ABI version
 *   -DBAD_NO_ENTRY         no gamesman_module_v1 at all
 *   -DBAD_WINBY_WITHOUT_FN GAMESMAN_FLAG_WINBY without win_by
 *   -DBAD_OVERFLOW         generate_moves returns more moves than the capacity
 *   -DBAD_EXIT             do_move calls exit(3)
 *   -DBAD_ERROR            do_move fails with a message
 *   -DBAD__EXIT0           do_move calls _exit(0) (which skips atexit handlers)
 *   -DBAD_SEGV             do_move writes through a null pointer
 *   -DBAD_FPE              do_move divides an integer by zero
 *   -DBAD_ABORT            do_move calls abort()
 *   -DBAD_HUGE_TEXT        board_to_text says its text is 2^50 bytes long
 *   -DBAD_TURN7            turn returns 7 (players are 1 and 2)
 *   -DBAD_SLOW             do_move takes 3 seconds
 *   -DBAD_HANG             do_move does not return for 10 minutes (a stuck call; the
 *                          test that loads it kills the process)
 *   -DBAD_BUDGET           memory_budget fails with a message
 * and flags that are not faults:
 *   -DBUDGET_KEEPS_MIB=N   memory_budget (header revision 3) keeps at most N MiB of
 *                          what it is offered
 *   -DOLD_REVISION         a module of header revision 1: struct_size ends before
 *                          scan_position, which is set (to a wrong count) past it, so a
 *                          host that read past struct_size would solve it wrongly
 *
 * The game: a pile of 7 tokens; a move takes 1 or 2; who cannot move loses (the
 * first player wins: 7 is not a multiple of 3). A position is 2 * tokens + (turn - 1).
 */
#include "gamesman_plugin.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOKENS 7

struct gamesman_game {
    int unused;
};
static struct gamesman_game game;

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    (void)variant, (void)err;
    return &game;
}

static int initial_position(gamesman_game *g, gamesman_position *out, gamesman_error *err) {
    (void)g, (void)err;
    out->tier = 0;
    out->index = 2 * TOKENS;
    return GAMESMAN_OK;
}

static int primitive(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
    return p.index / 2 == 0 ? GAMESMAN_LOSE : GAMESMAN_UNDECIDED;
}

static int64_t generate_moves(gamesman_game *g, gamesman_position p, uint64_t *moves, uint32_t capacity,
                              gamesman_error *err) {
    (void)g, (void)err;
    int64_t n = 0;
    for (uint64_t take = 1; take <= 2 && take <= p.index / 2; take++) {
        if (n < capacity) moves[n] = take;
        n++;
    }
#ifdef BAD_OVERFLOW
    /* Writes nothing past the buffer, but claims one move more than fits. */
    return capacity + 1;
#endif
    return n;
}

static int do_move(gamesman_game *g, gamesman_position p, uint64_t move, gamesman_position *child,
                   gamesman_error *err) {
    (void)g;
#ifdef BAD_EXIT
    exit(3);
#endif
#ifdef BAD__EXIT0
    _exit(0);
#endif
#ifdef BAD_SEGV
    *(volatile int *)(uintptr_t)(p.index >> 62) = 1;
#endif
#ifdef BAD_ABORT
    abort();
#endif
#ifdef BAD_FPE
    {
        volatile int zero = (int)(p.index >> 62);
        volatile int one = 1;
        one = one / zero;
    }
#endif
#ifdef BAD_SLOW
    sleep(3);
#endif
#ifdef BAD_HANG
    sleep(600);
#endif
#ifdef BAD_ERROR
    return gamesman_fail(err, GAMESMAN_ERROR, "the pile of %llu tokens fell over", (unsigned long long)(p.index / 2));
#endif
    if (move < 1 || move > 2 || move > p.index / 2) return gamesman_fail(err, GAMESMAN_ERROR, "cannot take %llu", (unsigned long long)move);
    child->tier = 0;
    child->index = 2 * (p.index / 2 - move) + (1 - p.index % 2);
    return GAMESMAN_OK;
}

static int turn(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
#ifdef BAD_TURN7
    return 7;
#endif
    return (int)(p.index % 2) + 1;
}

static int64_t board_to_text(gamesman_game *g, gamesman_position p, char *buf, uint64_t capacity,
                             gamesman_error *err) {
    (void)g, (void)err;
#ifdef BAD_HUGE_TEXT
    if (capacity < 4096) return (int64_t)1 << 50;
#endif
    return snprintf(buf, capacity, "%llu tokens\n", (unsigned long long)(p.index / 2));
}

static int64_t move_to_text(gamesman_game *g, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                            gamesman_error *err) {
    (void)g, (void)p, (void)err;
    return snprintf(buf, capacity, "%llu", (unsigned long long)move);
}

static int tier_size(gamesman_game *g, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)g, (void)err;
    *size = tier == 0 ? 2 * (TOKENS + 1) : 0;
    return GAMESMAN_OK;
}

#if defined(BUDGET_KEEPS_MIB) || defined(BAD_BUDGET)
static int64_t memory_budget(gamesman_game *g, uint64_t bytes, gamesman_error *err) {
    (void)g;
#ifdef BAD_BUDGET
    return gamesman_fail(err, GAMESMAN_ERROR, "no budget for a pile of %d", TOKENS);
#else
    (void)err;
    uint64_t most = (uint64_t)(BUDGET_KEEPS_MIB) << 20;
    return (int64_t)(bytes < most ? bytes : most);
#endif
}
#endif

#ifdef OLD_REVISION
/* Counts one child too many: never read, as it lies past struct_size. */
static int scan_position(gamesman_game *g, gamesman_position p, uint32_t *children, gamesman_error *err) {
    (void)g, (void)err;
    *children = (uint32_t)(p.index / 2 < 2 ? p.index / 2 : 2) + 1;
    return p.index / 2 == 0 ? GAMESMAN_LOSE : GAMESMAN_UNDECIDED;
}
#endif

static const gamesman_module MODULE = {
#ifdef BAD_ABI_VERSION
    .abi_version = 2,
#else
    .abi_version = GAMESMAN_C_ABI_VERSION,
#endif
#ifdef BAD_SMALL_STRUCT
    .struct_size = 64,
#elif defined(OLD_REVISION)
    .struct_size = offsetof(gamesman_module, scan_position),
#else
    .struct_size = sizeof(gamesman_module),
#endif
#ifdef BAD_WINBY_WITHOUT_FN
    .flags = GAMESMAN_FLAG_WINBY,
#endif
    .name = "pile",
    .description = "Take 1 or 2 tokens from a pile of 7; who cannot move loses.",
    .max_moves = 2,
    .new_game = new_game,
    .initial_position = initial_position,
#ifndef BAD_NULL_PRIMITIVE
    .primitive = primitive,
#endif
    .generate_moves = generate_moves,
    .do_move = do_move,
    .turn = turn,
    .board_to_text = board_to_text,
    .move_to_text = move_to_text,
    .tier_size = tier_size,
#ifdef OLD_REVISION
    .scan_position = scan_position,
#endif
#if defined(BUDGET_KEEPS_MIB) || defined(BAD_BUDGET)
    .memory_budget = memory_budget,
#endif
};

#ifdef BAD_NO_ENTRY
const gamesman_module *some_other_name(void) { return &MODULE; }
#else
const gamesman_module *gamesman_module_v1(void) { return &MODULE; }
#endif
