/*
 * core_hash.c: Classic's generic hash, written fresh. A context hashes boards of
 * `boardsize` cells holding each piece kind between its min and max times (all cells
 * filled: the blank is a kind too), for the configurations (piece counts) the module's
 * vcfg function accepts, densely onto 0 .. max_pos - 1. With player 0 both players'
 * turns are hashed (twice the boards; generic_hash_turn tells which), with 1 or 2 only
 * that player's.
 *
 * Layout: configurations in order of their counts (the first kind's count varying
 * slowest), each a block of its boards; within a block, a board's rank is the kinds'
 * cell combinations (colex) one after another, each among the cells the earlier kinds
 * left free. With player 0, a board's hash is 2 * index + (turn - 1).
 *
 * Contexts live as long as the module (until generic_hash_destroy); which one is
 * current is per thread, handed from call to call (classic_hash_enter/leave).
 */
#include "classic_internal.h"

#define GH_MAX_KINDS 16
#define GH_MAX_CELLS 64

struct gh_context {
    int number;                  /* what generic_hash_context_switch names it by */
    int boardsize, kinds, player;
    char pieces[GH_MAX_KINDS];
    int mins[GH_MAX_KINDS], maxs[GH_MAX_KINDS];
    int kind_of[256];            /* piece char -> kind, or -1 */
    int configs;                 /* valid configurations */
    int *counts;                 /* configs x kinds */
    POSITION *radix;             /* configs x kinds: weight of each kind's rank */
    POSITION *offsets;           /* configs + 1: first board of each configuration */
    int *lookup;                 /* counts (mixed radix over the ranges) -> config or -1 */
    POSITION boards, max_pos;
};

static struct gh_context **contexts = NULL;
static int context_count = 0;
static BOOLEAN custom_numbers = FALSE;
/* The module's current context between calls, and this thread's during one. */
static struct gh_context *module_current = NULL;
static _Thread_local struct gh_context *current = NULL;

void classic_hash_enter(void) { current = module_current; }
void classic_hash_leave(void) { module_current = current; }

static POSITION binomial(int n, int k) {
    static POSITION table[GH_MAX_CELLS + 1][GH_MAX_CELLS + 1];
    static int built = 0;
    if (!built) {
        for (int i = 0; i <= GH_MAX_CELLS; i++) {
            table[i][0] = 1;
            for (int j = 1; j <= i; j++) {
                POSITION a = table[i - 1][j - 1], b = j < i ? table[i - 1][j] : 0;
                table[i][j] = a > ~(POSITION)0 - b ? ~(POSITION)0 : a + b; /* saturating */
            }
        }
        built = 1;
    }
    return k < 0 || k > n || n > GH_MAX_CELLS ? 0 : table[n][k];
}

static struct gh_context *need_current(const char *function) {
    if (current == NULL) {
        char why[128];
        snprintf(why, sizeof why, "%s called with no generic hash context (call generic_hash_init first)", function);
        ExitStageRightErrorString(why);
    }
    return current;
}

/* Multiplies or adds, ending the call on overflow past 64 bits. */
static POSITION checked(unsigned __int128 v) {
    if (v > (unsigned __int128)(~(POSITION)0))
        ExitStageRightErrorString("generic_hash_init: the number of positions does not fit in 64 bits");
    return (POSITION)v;
}

CLASSIC_CORE POSITION generic_hash_init(int boardsize, int pieces_array[], int (*vcfg_function_ptr)(int *cfg), int player) {
    if (boardsize < 1 || boardsize > GH_MAX_CELLS)
        ExitStageRightErrorString("generic_hash_init: the board must have 1 to 64 cells");
    if (player < 0 || player > 2)
        ExitStageRightErrorString("generic_hash_init: player must be 0 (both), 1 or 2");
    struct gh_context *c = SafeMalloc(sizeof *c);
    memset(c, 0, sizeof *c);
    c->boardsize = boardsize;
    c->player = player;
    for (int i = 0; i < 256; i++) c->kind_of[i] = -1;
    for (int i = 0; pieces_array[i] != -1; i += 3) {
        if (c->kinds == GH_MAX_KINDS) ExitStageRightErrorString("generic_hash_init: more than 16 piece kinds");
        int k = c->kinds++;
        c->pieces[k] = (char)pieces_array[i];
        c->mins[k] = pieces_array[i + 1];
        c->maxs[k] = pieces_array[i + 2];
        c->kind_of[(unsigned char)c->pieces[k]] = k;
        if (c->mins[k] < 0 || c->maxs[k] < c->mins[k])
            ExitStageRightErrorString("generic_hash_init: a piece's min and max are out of order");
    }
    if (c->kinds == 0) ExitStageRightErrorString("generic_hash_init: no pieces");

    /* Every count vector within the ranges, in mixed radix (first kind slowest). */
    size_t space = 1;
    for (int k = 0; k < c->kinds; k++) {
        space *= (size_t)(c->maxs[k] - c->mins[k] + 1);
        if (space > (size_t)1 << 26) ExitStageRightErrorString("generic_hash_init: too many piece-count combinations");
    }
    c->lookup = SafeMalloc(space * sizeof *c->lookup);
    c->counts = SafeMalloc(space * (size_t)c->kinds * sizeof *c->counts);
    c->radix = SafeMalloc(space * (size_t)c->kinds * sizeof *c->radix);
    c->offsets = SafeMalloc((space + 1) * sizeof *c->offsets);
    unsigned __int128 boards = 0;
    for (size_t code = 0; code < space; code++) {
        int cfg[GH_MAX_KINDS], sum = 0;
        size_t rest = code;
        for (int k = c->kinds - 1; k >= 0; k--) {
            int range = c->maxs[k] - c->mins[k] + 1;
            cfg[k] = c->mins[k] + (int)(rest % (size_t)range);
            rest /= (size_t)range;
            sum += cfg[k];
        }
        c->lookup[code] = -1;
        if (sum != boardsize || (vcfg_function_ptr != NULL && !vcfg_function_ptr(cfg))) continue;
        int n = c->configs++;
        c->lookup[code] = n;
        memcpy(c->counts + (size_t)n * c->kinds, cfg, sizeof(int) * (size_t)c->kinds);
        unsigned __int128 size = 1;
        int free_cells[GH_MAX_KINDS], left = boardsize;
        for (int k = 0; k < c->kinds; k++) {
            free_cells[k] = left;
            left -= cfg[k];
        }
        for (int k = c->kinds - 1; k >= 0; k--) {
            c->radix[(size_t)n * c->kinds + k] = checked(size);
            size = checked(size * binomial(free_cells[k], cfg[k]));
        }
        c->offsets[n] = checked(boards);
        boards += size;
    }
    c->offsets[c->configs] = checked(boards);
    c->boards = checked(boards);
    c->max_pos = checked(boards * (player == 0 ? 2 : 1));

    c->number = custom_numbers ? -1 : context_count;
    contexts = SafeRealloc(contexts, sizeof *contexts * (size_t)(context_count + 1));
    contexts[context_count++] = c;
    current = c;
    return c->max_pos;
}

/* The configuration of a board's counts, or -1. */
static int config_of(const struct gh_context *c, const int *count) {
    size_t code = 0;
    for (int k = 0; k < c->kinds; k++) {
        if (count[k] < c->mins[k] || count[k] > c->maxs[k]) return -1;
        code = code * (size_t)(c->maxs[k] - c->mins[k] + 1) + (size_t)(count[k] - c->mins[k]);
    }
    return c->lookup[code];
}

CLASSIC_CORE POSITION generic_hash_hash(char *board, int player) {
    struct gh_context *c = need_current("generic_hash_hash");
    int count[GH_MAX_KINDS] = {0}, kind[GH_MAX_CELLS];
    for (int i = 0; i < c->boardsize; i++) {
        kind[i] = c->kind_of[(unsigned char)board[i]];
        if (kind[i] < 0) ExitStageRightErrorString("generic_hash_hash: the board holds a piece the context does not know");
        count[kind[i]]++;
    }
    int cfg = config_of(c, count);
    if (cfg < 0) ExitStageRightErrorString("generic_hash_hash: the board's piece counts are not a valid configuration");
    const POSITION *radix = c->radix + (size_t)cfg * c->kinds;
    int seen[GH_MAX_KINDS] = {0}, compact[GH_MAX_KINDS] = {0};
    POSITION rank = 0;
    for (int i = 0; i < c->boardsize; i++) {
        int b = kind[i];
        /* The cell is free for every kind before b (they are placed first). */
        for (int k = 0; k < b; k++) compact[k]++;
        rank += binomial(compact[b], ++seen[b]) * radix[b];
        compact[b]++;
    }
    POSITION index = c->offsets[cfg] + rank;
    if (c->player != 0) return index;
    if (player != 1 && player != 2) ExitStageRightErrorString("generic_hash_hash: player must be 1 or 2");
    return 2 * index + (POSITION)(player - 1);
}

CLASSIC_CORE char *generic_hash_unhash(POSITION hashed, char *dest) {
    struct gh_context *c = need_current("generic_hash_unhash");
    if (hashed >= c->max_pos) ExitStageRightErrorString("generic_hash_unhash: the position is past generic_hash_max_pos()");
    POSITION index = c->player == 0 ? hashed / 2 : hashed;
    int lo = 0, hi = c->configs - 1; /* the last configuration starting at or before index */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (c->offsets[mid] <= index) lo = mid;
        else hi = mid - 1;
    }
    const int *count = c->counts + (size_t)lo * c->kinds;
    const POSITION *radix = c->radix + (size_t)lo * c->kinds;
    POSITION rest = index - c->offsets[lo];
    int filled[GH_MAX_CELLS] = {0};
    int free_cells = c->boardsize;
    for (int k = 0; k < c->kinds; k++) {
        POSITION r = rest / radix[k];
        rest %= radix[k];
        /* The cells (among the free ones) of the combination of rank r, largest first. */
        int chosen[GH_MAX_CELLS], hi_cell = free_cells;
        for (int j = count[k] - 1; j >= 0; j--) {
            int cell = hi_cell - 1;
            while (binomial(cell, j + 1) > r) cell--;
            chosen[j] = cell;
            r -= binomial(cell, j + 1);
            hi_cell = cell;
        }
        int seen_free = 0, next = 0;
        for (int i = 0; i < c->boardsize && next < count[k]; i++) {
            if (filled[i]) continue;
            if (chosen[next] == seen_free) {
                dest[i] = c->pieces[k];
                filled[i] = 1;
                next++;
            }
            seen_free++;
        }
        free_cells -= count[k];
    }
    return dest;
}

CLASSIC_CORE int generic_hash_turn(POSITION hashed) {
    struct gh_context *c = need_current("generic_hash_turn");
    return c->player == 0 ? (int)(hashed % 2) + 1 : c->player;
}

CLASSIC_CORE POSITION generic_hash_max_pos(void) { return need_current("generic_hash_max_pos")->max_pos; }

CLASSIC_CORE int generic_hash_cur_context(void) { return need_current("generic_hash_cur_context")->number; }

CLASSIC_CORE void generic_hash_custom_context_mode(BOOLEAN on) { custom_numbers = on; }

CLASSIC_CORE void generic_hash_set_context(int context) { need_current("generic_hash_set_context")->number = context; }

CLASSIC_CORE void generic_hash_context_switch(int context) {
    /* The newest context of that number (a module may initialise again). */
    for (int i = context_count - 1; i >= 0; i--) {
        if (contexts[i]->number == context) {
            current = contexts[i];
            return;
        }
    }
    char why[96];
    snprintf(why, sizeof why, "generic_hash_context_switch(%d): no such context", context);
    ExitStageRightErrorString(why);
}

CLASSIC_CORE void generic_hash_destroy(void) {
    for (int i = 0; i < context_count; i++) {
        free(contexts[i]->lookup);
        free(contexts[i]->counts);
        free(contexts[i]->radix);
        free(contexts[i]->offsets);
        free(contexts[i]);
    }
    free(contexts);
    contexts = NULL;
    context_count = 0;
    current = NULL;
    module_current = NULL;
}
