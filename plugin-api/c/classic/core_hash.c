/*
 * core_hash.c: Classic's generic hash, written fresh. A context hashes boards of
 * `boardsize` cells holding each piece kind between its min and max times (all cells
 * filled: the blank is a kind too), for the configurations (piece counts) the module's
 * vcfg function accepts, densely onto 0 .. max_pos - 1. With player 0 both players'
 * turns are hashed (twice the boards; generic_hash_turn tells which), with 1 or 2 only
 * that player's.
 *
 * Numbering, as Classic numbers (so a module's literal hash numbers, such as a
 * gInitialPosition of 0, mean what they mean in Classic; tests/classic/
 * hash_reference.tsv holds values of Classic's own hash, checked by a test):
 *   - configurations in order of their counts read as a mixed-radix number whose
 *     least significant digit is the first kind's count (minus its min), each a block
 *     of its boards;
 *   - within a block, a board's rank is the lexicographic rank of the board read from
 *     its last cell to its first, among all arrangements of its pieces, the kinds
 *     ordered as in the pieces array;
 *   - with player 0, player 1's boards come first and player 2's follow (hash + the
 *     number of boards).
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
    size_t space;                /* count vectors within the ranges */
    int *counts;                 /* configs x kinds */
    POSITION *sizes;             /* configs: boards of each configuration */
    POSITION *offsets;           /* configs + 1: first board of each configuration */
    int *lookup;                 /* counts (mixed radix, first kind least significant) -> config or -1 */
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

    /* Every count vector within the ranges, in mixed radix (first kind fastest). */
    size_t space = 1;
    for (int k = 0; k < c->kinds; k++) {
        space *= (size_t)(c->maxs[k] - c->mins[k] + 1);
        if (space > (size_t)1 << 26) ExitStageRightErrorString("generic_hash_init: too many piece-count combinations");
    }
    c->space = space;
    c->lookup = SafeMalloc(space * sizeof *c->lookup);
    c->counts = SafeMalloc(space * (size_t)c->kinds * sizeof *c->counts);
    c->sizes = SafeMalloc(space * sizeof *c->sizes);
    c->offsets = SafeMalloc((space + 1) * sizeof *c->offsets);
    unsigned __int128 boards = 0;
    for (size_t code = 0; code < space; code++) {
        int cfg[GH_MAX_KINDS], sum = 0;
        size_t rest = code;
        for (int k = 0; k < c->kinds; k++) {
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
        /* boardsize! / prod(cfg[k]!) as a product of binomials. */
        unsigned __int128 size = 1;
        int left = boardsize;
        for (int k = 0; k < c->kinds; k++) {
            size = checked(size * binomial(left, cfg[k]));
            left -= cfg[k];
        }
        c->sizes[n] = (POSITION)size;
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
    for (int k = c->kinds - 1; k >= 0; k--) {
        if (count[k] < c->mins[k] || count[k] > c->maxs[k]) return -1;
        code = code * (size_t)(c->maxs[k] - c->mins[k] + 1) + (size_t)(count[k] - c->mins[k]);
    }
    return c->lookup[code];
}

/* Arrangements of `left` cells holding count[k] pieces of each kind, given `arrangements`
 * of them: those with kind k in the next cell. */
static POSITION with_kind_next(POSITION arrangements, int count_k, int left) {
    return (POSITION)((unsigned __int128)arrangements * (unsigned)count_k / (unsigned)left);
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
    POSITION arrangements = cfg >= 0 ? c->sizes[cfg] : 0, offset = cfg >= 0 ? c->offsets[cfg] : 0;
    if (cfg < 0) {
        /* Counts that are no valid configuration of this context: Classic numbers the
         * board anyway, from the offset of the last valid configuration whose code is
         * not above the counts' code (digits count - min, possibly negative), plus its
         * rank among boards of its own counts; only a number past the player's boards
         * is refused. Tier modules rely on it (a board hashed in another tier's
         * context). */
        long long code = 0;
        for (int k = c->kinds - 1; k >= 0; k--)
            code = code * (long long)(c->maxs[k] - c->mins[k] + 1) + (count[k] - c->mins[k]);
        int prior = -1;
        for (long long at = code < (long long)c->space ? code : (long long)c->space - 1; at >= 0 && prior < 0; at--)
            prior = c->lookup[at];
        if (prior < 0)
            ExitStageRightErrorString("generic_hash_hash: the board's piece counts are not a valid configuration");
        offset = c->offsets[prior];
        unsigned __int128 size = 1;
        for (int k = 0, left = c->boardsize; k < c->kinds; left -= count[k], k++)
            size = checked(size * binomial(left, count[k]));
        arrangements = (POSITION)size;
    }
    /* Lexicographic rank of the board read from its last cell. */
    POSITION rank = 0;
    int least[GH_MAX_KINDS]; /* a kind counts as placeable with at least max(1, min - placed) left */
    for (int k = 0; k < c->kinds; k++) least[k] = c->mins[k];
    for (int i = c->boardsize - 1, left = c->boardsize; i >= 0; i--, left--) {
        for (int k = 0; k < kind[i]; k++)
            if (count[k] > 0 && count[k] >= least[k]) rank += with_kind_next(arrangements, count[k], left);
        arrangements = with_kind_next(arrangements, count[kind[i]], left);
        count[kind[i]]--;
        least[kind[i]]--;
    }
    POSITION index = offset + rank;
    if (index > c->boards) ExitStageRightErrorString("generic_hash_hash: the board numbers past the player's boards");
    if (c->player != 0) return index;
    if (player != 1 && player != 2) ExitStageRightErrorString("generic_hash_hash: player must be 1 or 2");
    return index + (player == 2 ? c->boards : 0);
}

CLASSIC_CORE char *generic_hash_unhash(POSITION hashed, char *dest) {
    struct gh_context *c = need_current("generic_hash_unhash");
    if (hashed >= c->max_pos) ExitStageRightErrorString("generic_hash_unhash: the position is past generic_hash_max_pos()");
    POSITION index = hashed >= c->boards ? hashed - c->boards : hashed;
    int lo = 0, hi = c->configs - 1; /* the last configuration starting at or before index */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (c->offsets[mid] <= index) lo = mid;
        else hi = mid - 1;
    }
    int count[GH_MAX_KINDS];
    memcpy(count, c->counts + (size_t)lo * c->kinds, sizeof(int) * (size_t)c->kinds);
    POSITION rest = index - c->offsets[lo], arrangements = c->sizes[lo];
    for (int i = c->boardsize - 1, left = c->boardsize; i >= 0; i--, left--) {
        int k = 0;
        for (;; k++) {
            if (count[k] == 0) continue;
            POSITION here = with_kind_next(arrangements, count[k], left);
            if (rest < here || k == c->kinds - 1) {
                arrangements = here;
                break;
            }
            rest -= here;
        }
        dest[i] = c->pieces[k];
        count[k]--;
    }
    return dest;
}

CLASSIC_CORE int generic_hash_turn(POSITION hashed) {
    struct gh_context *c = need_current("generic_hash_turn");
    return c->player == 0 ? (hashed >= c->boards ? 2 : 1) : c->player;
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

CLASSIC_CORE int generic_hash_context_init(void) {
    /* An empty context that takes a number, as Classic's does; a generic_hash_init
     * that follows makes its own. */
    struct gh_context *c = SafeMalloc(sizeof *c);
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 256; i++) c->kind_of[i] = -1;
    c->number = custom_numbers ? -1 : context_count;
    contexts = SafeRealloc(contexts, sizeof *contexts * (size_t)(context_count + 1));
    contexts[context_count++] = c;
    return c->number;
}

/* ---- symmetries (generic_hash_init_sym) -------------------------------------------- */

/* The board images a canonical position is the least hash of: image cell i holds the
 * board's cell map[i]; `flip` also swaps the first two piece kinds and the player. */
struct gh_symmetry {
    int *map;
    int flip;
};
static struct gh_symmetry *symmetries = NULL;
static int symmetry_count = 0, symmetry_cells = 0;

static void add_symmetry(const int *map, int flip) {
    symmetries = SafeRealloc(symmetries, sizeof *symmetries * (size_t)(symmetry_count + 1));
    int *copy = SafeMalloc(sizeof(int) * (size_t)symmetry_cells);
    memcpy(copy, map, sizeof(int) * (size_t)symmetry_cells);
    symmetries[symmetry_count++] = (struct gh_symmetry){copy, flip};
}

/* The cell map of a reflection over the line at `angle` degrees or of a rotation by
 * it, on a rows x cols board, as Classic lays them out; other angles: the identity. */
static void symmetry_map(int *map, int rows, int cols, int reflection, int angle) {
    for (int j = 0; j < rows; j++) {
        for (int k = 0; k < cols; k++) {
            int to = j * cols + k;
            if (reflection && (angle == 0 || angle == 180)) to = (rows - j - 1) * cols + k;
            else if (reflection && (angle == 45 || angle == 315)) to = (rows - k - 1) * cols + (cols - j - 1);
            else if (reflection && (angle == 90 || angle == 270)) to = j * cols + (cols - k - 1);
            else if (reflection && (angle == 135 || angle == 225)) to = k * cols + j;
            else if (!reflection && angle == 90) to = (rows - k - 1) * cols + j;
            else if (!reflection && angle == 180) to = rows * cols - 1 - (j * cols + k);
            else if (!reflection && angle == 270) to = k * cols + (cols - j - 1);
            map[j * cols + k] = to;
        }
    }
}

CLASSIC_CORE void generic_hash_init_sym(int boardType, int numRows, int numCols, int *reflections, int numReflects,
                                        int *rotations, int numRots, int flippable) {
    if (boardType != 0)
        ExitStageRightErrorString("generic_hash_init_sym: only rectangular boards (boardType 0) are supported");
    if (numRows < 1 || numCols < 1 || numRows * numCols > GH_MAX_CELLS)
        ExitStageRightErrorString("generic_hash_init_sym: the board must have 1 to 64 cells");
    for (int i = 0; i < symmetry_count; i++) free(symmetries[i].map);
    symmetry_count = 0;
    symmetry_cells = numRows * numCols;
    int map[GH_MAX_CELLS];
    for (int flip = 0; flip <= (flippable == 1); flip++) {
        symmetry_map(map, numRows, numCols, 0, 0); /* the identity */
        add_symmetry(map, flip);
        for (int i = 0; i < numReflects; i++) {
            symmetry_map(map, numRows, numCols, 1, reflections[i]);
            add_symmetry(map, flip);
        }
        for (int i = 0; i < numRots; i++) {
            symmetry_map(map, numRows, numCols, 0, rotations[i]);
            add_symmetry(map, flip);
        }
    }
    gCanonicalPosition = generic_hash_canonicalPosition;
}

CLASSIC_CORE void generic_hash_add_sym(int *symToAdd) {
    if (symmetry_count == 0) ExitStageRightErrorString("generic_hash_add_sym before generic_hash_init_sym");
    add_symmetry(symToAdd, 0);
}

CLASSIC_CORE POSITION generic_hash_canonicalPosition(POSITION pos) {
    struct gh_context *c = need_current("generic_hash_canonicalPosition");
    if (symmetry_cells != c->boardsize)
        ExitStageRightErrorString("generic_hash_canonicalPosition: the symmetries' board is not the hash context's");
    char board[GH_MAX_CELLS + 1], image[GH_MAX_CELLS + 1];
    generic_hash_unhash(pos, board);
    int player = generic_hash_turn(pos);
    POSITION least = pos;
    for (int s = 0; s < symmetry_count; s++) {
        for (int i = 0; i < c->boardsize; i++) {
            char piece = board[symmetries[s].map[i]];
            if (symmetries[s].flip && c->kinds >= 2 && piece == c->pieces[0]) piece = c->pieces[1];
            else if (symmetries[s].flip && c->kinds >= 2 && piece == c->pieces[1]) piece = c->pieces[0];
            image[i] = piece;
        }
        POSITION h = generic_hash_hash(image, symmetries[s].flip ? 3 - player : player);
        if (h < least) least = h;
    }
    return least;
}

CLASSIC_CORE void generic_hash_destroy(void) {
    for (int i = 0; i < context_count; i++) {
        free(contexts[i]->lookup);
        free(contexts[i]->counts);
        free(contexts[i]->sizes);
        free(contexts[i]->offsets);
        free(contexts[i]);
    }
    free(contexts);
    contexts = NULL;
    context_count = 0;
    current = NULL;
    module_current = NULL;
}
