/*
 * ctttier: tic-tac-toe with tiers, written in C directly against gamesman_plugin.h.
 *
 * The same game, tiers and position numbers as the Rust module mtttier: tier t holds
 * the boards with t pieces left to place (tier 9 is the empty board, tier 0 the full
 * boards), and a board is ranked densely within its tier as mtttier's Ranker does (the
 * cells of the X pieces as a combination of the 9 cells, then the cells of the O
 * pieces as a combination of the cells X left free). Every function of the ABI is
 * implemented, undo moves, both fast paths and header revision 2's scan_position and
 * is_canonical included; the `symmetric` variant also
 * reduces the board's eight symmetries. The functions are pure, so the module is
 * thread-safe.
 *
 * Build:  cc -O2 -shared -fPIC -I plugin-api/c plugins/c/ctttier/ctttier.c -o libctttier.so
 */
#include "gamesman_plugin.h"

#include <string.h>

enum { BLANK = 0, X = 1, O = 2, CELLS = 9 };

struct gamesman_game {
    int symmetric;
};

static struct gamesman_game regular_game = {0};
static struct gamesman_game symmetric_game = {1};

static const int LINES[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

/* SYMMETRIES[s][i]: where cell i goes under symmetry s. */
static const int SYMMETRIES[8][9] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8}, {2, 5, 8, 1, 4, 7, 0, 3, 6}, {8, 7, 6, 5, 4, 3, 2, 1, 0},
    {6, 3, 0, 7, 4, 1, 8, 5, 2}, {2, 1, 0, 5, 4, 3, 8, 7, 6}, {6, 7, 8, 3, 4, 5, 0, 1, 2},
    {0, 3, 6, 1, 4, 7, 2, 5, 8}, {8, 5, 2, 7, 4, 1, 6, 3, 0},
};

/* ---- ranking boards with fixed piece counts ------------------------------------- */

/* BINOMIAL[n][k] = C(n, k) for n, k <= 9. */
static const uint64_t BINOMIAL[10][10] = {
    {1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0, 0, 0, 0},
    {1, 5, 10, 10, 5, 1, 0, 0, 0, 0},
    {1, 6, 15, 20, 15, 6, 1, 0, 0, 0},
    {1, 7, 21, 35, 35, 21, 7, 1, 0, 0},
    {1, 8, 28, 56, 70, 56, 28, 8, 1, 0},
    {1, 9, 36, 84, 126, 126, 84, 36, 9, 1},
};

static uint64_t binomial(int n, int k) { return k < 0 || k > n ? 0 : BINOMIAL[n][k]; }

static int placed(uint64_t tier) { return CELLS - (int)tier; }
static int xs_in(uint64_t tier) { return (placed(tier) + 1) / 2; }
static int os_in(uint64_t tier) { return placed(tier) / 2; }

static uint64_t tier_positions(uint64_t tier) {
    int xs = xs_in(tier), os = os_in(tier);
    return binomial(CELLS, xs) * binomial(CELLS - xs, os);
}

/* The rank of a board of `tier` (its piece counts must match the tier). */
static uint64_t rank_board(const int *b, uint64_t tier) {
    int xs = xs_in(tier), os = os_in(tier);
    uint64_t xrank = 0, orank = 0;
    int xseen = 0, oseen = 0, not_x = 0;
    for (int i = 0; i < CELLS; i++) {
        if (b[i] == X) {
            xrank += binomial(i, ++xseen);
        } else {
            if (b[i] == O) orank += binomial(not_x, ++oseen);
            not_x++;
        }
    }
    return xrank * binomial(CELLS - xs, os) + orank;
}

/* Writes into `out` the k increasing members of the k-subset of rank `index`. */
static void unrank_combination(uint64_t index, int n, int k, int *out) {
    int hi = n;
    for (int i = k - 1; i >= 0; i--) {
        int c = hi - 1;
        while (binomial(c, i + 1) > index) c--;
        out[i] = c;
        index -= binomial(c, i + 1);
        hi = c;
    }
}

static void unrank_board(uint64_t index, uint64_t tier, int *b) {
    int xs = xs_in(tier), os = os_in(tier);
    uint64_t radix = binomial(CELLS - xs, os);
    int xcells[CELLS], ocells[CELLS];
    unrank_combination(index / radix, CELLS, xs, xcells);
    unrank_combination(index % radix, CELLS - xs, os, ocells);
    for (int i = 0; i < CELLS; i++) b[i] = BLANK;
    for (int i = 0; i < xs; i++) b[xcells[i]] = X;
    /* O's cells count among the cells X left free. */
    int free_seen = 0, next = 0;
    for (int i = 0; i < CELLS && next < os; i++) {
        if (b[i] != BLANK) continue;
        if (ocells[next] == free_seen) {
            b[i] = O;
            next++;
        }
        free_seen++;
    }
}

/* ---- rules ----------------------------------------------------------------------- */

static int to_move(uint64_t tier) { return placed(tier) % 2 == 0 ? X : O; }

static int has_line(const int *b, int piece) {
    for (int l = 0; l < 8; l++)
        if (b[LINES[l][0]] == piece && b[LINES[l][1]] == piece && b[LINES[l][2]] == piece)
            return 1;
    return 0;
}

static int count(const int *b, int piece) {
    int n = 0;
    for (int i = 0; i < CELLS; i++) n += b[i] == piece;
    return n;
}

static int legal_board(const int *b) {
    int xs = count(b, X), os = count(b, O);
    if (xs != os && xs != os + 1) return 0;
    int xl = has_line(b, X), ol = has_line(b, O);
    if (xl && ol) return 0;
    if (xl) return xs == os + 1;
    if (ol) return xs == os;
    return 1;
}

static int primitive_board(const int *b, int mover) {
    if (has_line(b, mover == X ? O : X)) return GAMESMAN_LOSE;
    for (int i = 0; i < CELLS; i++)
        if (b[i] == BLANK) return GAMESMAN_UNDECIDED;
    return GAMESMAN_TIE;
}

static int bad_position(gamesman_position p, gamesman_error *err) {
    if (p.tier > 9) return gamesman_fail(err, GAMESMAN_ERROR, "tier %llu does not exist", (unsigned long long)p.tier);
    if (p.index >= tier_positions(p.tier))
        return gamesman_fail(err, GAMESMAN_ERROR, "index %llu is past tier %llu's size",
                             (unsigned long long)p.index, (unsigned long long)p.tier);
    return GAMESMAN_OK;
}

/* ---- the ABI --------------------------------------------------------------------- */

static gamesman_game *new_game(const char *variant, gamesman_error *err) {
    if (strcmp(variant, "regular") == 0) return &regular_game;
    if (strcmp(variant, "symmetric") == 0) return &symmetric_game;
    gamesman_fail(err, GAMESMAN_ERROR, "no variant '%s'", variant);
    return NULL;
}

static int properties(gamesman_game *g, gamesman_properties *out, gamesman_error *err) {
    (void)err;
    out->flags = GAMESMAN_FLAG_TIERS | (g->symmetric ? GAMESMAN_FLAG_SYMMETRY : 0);
    out->max_moves = 9;
    out->max_undo_moves = 5;
    out->max_tier_children = 1;
    return GAMESMAN_OK;
}

static int initial_position(gamesman_game *g, gamesman_position *out, gamesman_error *err) {
    (void)g, (void)err;
    out->tier = 9;
    out->index = 0;
    return GAMESMAN_OK;
}

static int primitive(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    return primitive_board(b, to_move(p.tier));
}

static int64_t generate_moves(gamesman_game *g, gamesman_position p, uint64_t *moves,
                              uint32_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    int64_t n = 0;
    for (int i = 0; i < CELLS; i++) {
        if (b[i] != BLANK) continue;
        if (n < capacity) moves[n] = (uint64_t)i;
        n++;
    }
    return n;
}

static int do_move(gamesman_game *g, gamesman_position p, uint64_t move,
                   gamesman_position *child, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    if (move >= CELLS || b[move] != BLANK || p.tier == 0)
        return gamesman_fail(err, GAMESMAN_ERROR, "move %llu is not legal here", (unsigned long long)move);
    b[move] = to_move(p.tier);
    child->tier = p.tier - 1;
    child->index = rank_board(b, child->tier);
    return GAMESMAN_OK;
}

static int turn(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g, (void)err;
    return to_move(p.tier) == X ? GAMESMAN_PLAYER_ONE : GAMESMAN_PLAYER_TWO;
}

static char symbol(int c) { return c == X ? 'X' : c == O ? 'O' : '-'; }

static int64_t board_to_text(gamesman_game *g, gamesman_position p, char *buf,
                             uint64_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    char text[128];
    int len = 0;
    for (int r = 0; r < 3; r++)
        len += snprintf(text + len, sizeof text - (size_t)len, "  %c %c %c    ( %d %d %d )\n",
                        symbol(b[3 * r]), symbol(b[3 * r + 1]), symbol(b[3 * r + 2]),
                        3 * r + 1, 3 * r + 2, 3 * r + 3);
    return snprintf(buf, capacity, "%s", text);
}

static int64_t move_to_text(gamesman_game *g, gamesman_position p, uint64_t move, char *buf,
                            uint64_t capacity, gamesman_error *err) {
    (void)g, (void)p, (void)err;
    return snprintf(buf, capacity, "%llu", (unsigned long long)move + 1);
}

static int text_to_move(gamesman_game *g, gamesman_position p, const char *text,
                        uint64_t *move, gamesman_error *err) {
    (void)g;
    while (*text == ' ') text++;
    if (text[0] < '1' || text[0] > '9' || (text[1] != '\0' && text[1] != ' '))
        return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a move: type a cell number 1-9", text);
    int cell = text[0] - '1', b[CELLS];
    unrank_board(p.index, p.tier, b);
    if (b[cell] != BLANK)
        return gamesman_fail(err, GAMESMAN_REJECTED, "cell %d is already taken", cell + 1);
    *move = (uint64_t)cell;
    return GAMESMAN_OK;
}

static int64_t position_to_text(gamesman_game *g, gamesman_position p, char *buf,
                                uint64_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    char text[CELLS + 1];
    unrank_board(p.index, p.tier, b);
    for (int i = 0; i < CELLS; i++) text[i] = symbol(b[i]);
    text[CELLS] = '\0';
    return snprintf(buf, capacity, "%s", text);
}

static int text_to_position(gamesman_game *g, const char *text, gamesman_position *out,
                            gamesman_error *err) {
    (void)g;
    int b[CELLS];
    if (strlen(text) != CELLS)
        return gamesman_fail(err, GAMESMAN_REJECTED, "'%s' is not a board: give 9 cells row by row, each X, O or -", text);
    for (int i = 0; i < CELLS; i++) {
        switch (text[i]) {
        case 'X': case 'x': b[i] = X; break;
        case 'O': case 'o': b[i] = O; break;
        case '-': case '.': case '_': b[i] = BLANK; break;
        default: return gamesman_fail(err, GAMESMAN_REJECTED, "'%c' is not a cell: use X, O or -", text[i]);
        }
    }
    int xs = count(b, X), os = count(b, O);
    if (xs != os && xs != os + 1)
        return gamesman_fail(err, GAMESMAN_REJECTED, "%d X and %d O cannot occur: X moves first, so X has as many as O or one more", xs, os);
    out->tier = (uint64_t)(CELLS - xs - os);
    out->index = rank_board(b, out->tier);
    return GAMESMAN_OK;
}

static int64_t tier_children(gamesman_game *g, uint64_t tier, uint64_t *children,
                             uint32_t capacity, gamesman_error *err) {
    (void)g, (void)err;
    if (tier == 0) return 0;
    if (capacity >= 1) children[0] = tier - 1;
    return 1;
}

static int tier_size(gamesman_game *g, uint64_t tier, uint64_t *size, gamesman_error *err) {
    (void)g, (void)err;
    *size = tier <= 9 ? tier_positions(tier) : 0;
    return GAMESMAN_OK;
}

static int is_legal(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    return legal_board(b);
}

/* Undo moves are the cells of the last mover's pieces whose removal gives a legal,
 * non-primitive parent (a game stops at a primitive position). */
static int64_t undo_cells(gamesman_position p, uint64_t tier, int *cells) {
    if (tier != p.tier + 1 || tier > 9) return 0;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    int last = to_move(p.tier) == X ? O : X, n = 0;
    for (int i = 0; i < CELLS; i++) {
        if (b[i] != last) continue;
        b[i] = BLANK;
        if (legal_board(b) && primitive_board(b, last) == GAMESMAN_UNDECIDED) cells[n++] = i;
        b[i] = last;
    }
    return n;
}

static int64_t generate_undo_moves_to_tier(gamesman_game *g, gamesman_position p, uint64_t tier,
                                           uint64_t *undo, uint32_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int cells[CELLS];
    int64_t n = undo_cells(p, tier, cells);
    for (int64_t i = 0; i < n && i < capacity; i++) undo[i] = (uint64_t)cells[i];
    return n;
}

static int undo_move(gamesman_game *g, gamesman_position p, uint64_t undo,
                     gamesman_position *parent, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS];
    unrank_board(p.index, p.tier, b);
    if (undo >= CELLS || b[undo] == BLANK || p.tier >= 9)
        return gamesman_fail(err, GAMESMAN_ERROR, "undo move %llu is not possible here", (unsigned long long)undo);
    b[undo] = BLANK;
    parent->tier = p.tier + 1;
    parent->index = rank_board(b, parent->tier);
    return GAMESMAN_OK;
}

static int64_t tier_name(gamesman_game *g, uint64_t tier, char *buf, uint64_t capacity,
                         gamesman_error *err) {
    (void)g, (void)err;
    return snprintf(buf, capacity, "%dX%dO", xs_in(tier), os_in(tier));
}

static int64_t children(gamesman_game *g, gamesman_position p, gamesman_position *out,
                        uint32_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    if (p.tier == 0) return 0;
    int b[CELLS], piece = to_move(p.tier);
    unrank_board(p.index, p.tier, b);
    int64_t n = 0;
    for (int i = 0; i < CELLS; i++) {
        if (b[i] != BLANK) continue;
        b[i] = piece;
        if (n < capacity) out[n] = (gamesman_position){p.tier - 1, rank_board(b, p.tier - 1)};
        n++;
        b[i] = BLANK;
    }
    return n;
}

static int64_t parents(gamesman_game *g, gamesman_position p, uint64_t tier,
                       gamesman_position *out, uint32_t capacity, gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int cells[CELLS], b[CELLS];
    int64_t n = undo_cells(p, tier, cells);
    unrank_board(p.index, p.tier, b);
    for (int64_t i = 0; i < n && i < capacity; i++) {
        int piece = b[cells[i]];
        b[cells[i]] = BLANK;
        out[i] = (gamesman_position){tier, rank_board(b, tier)};
        b[cells[i]] = piece;
    }
    return n;
}

static int canonical_position(gamesman_game *g, gamesman_position p, gamesman_position *out,
                              gamesman_error *err) {
    (void)g;
    if (bad_position(p, err)) return GAMESMAN_ERROR;
    int b[CELLS], t[CELLS];
    unrank_board(p.index, p.tier, b);
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < 8; s++) {
        for (int i = 0; i < CELLS; i++) t[SYMMETRIES[s][i]] = b[i];
        uint64_t r = rank_board(t, p.tier);
        if (r < best) best = r;
    }
    out->tier = p.tier;
    out->index = best;
    return GAMESMAN_OK;
}

/* Header revision 2: the scan's primitive value with the number of distinct canonical
 * children, and the canonical test. */
static int scan_position(gamesman_game *g, gamesman_position p, uint32_t *count,
                         gamesman_error *err) {
    int v = primitive(g, p, err);
    if (v != GAMESMAN_UNDECIDED) return v;
    gamesman_position kids[CELLS];
    int64_t n = children(g, p, kids, CELLS, err);
    if (n < 0) return (int)n;
    uint32_t distinct = 0;
    for (int64_t i = 0; i < n; i++) {
        if (g->symmetric && canonical_position(g, kids[i], &kids[i], err) < 0) return GAMESMAN_ERROR;
        int seen = 0;
        for (int64_t j = 0; j < i; j++) seen |= kids[j].index == kids[i].index;
        distinct += !seen;
    }
    *count = distinct;
    return GAMESMAN_UNDECIDED;
}

static int is_canonical(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    gamesman_position c;
    if (canonical_position(g, p, &c, err) < 0) return GAMESMAN_ERROR;
    return c.index == p.index;
}

static const gamesman_variant VARIANTS[] = {
    {"regular", "every board is its own position"},
    {"symmetric", "boards equal under rotation and reflection are one position (symmetry hook)"},
};

static const gamesman_module MODULE = {
    .abi_version = GAMESMAN_C_ABI_VERSION,
    .struct_size = sizeof(gamesman_module),
    .flags = GAMESMAN_FLAG_THREAD_SAFE | GAMESMAN_FLAG_TIERS,
    .name = "ctttier",
    .authors = "the gamesman-rs team",
    .description = "Tic-tac-toe in C against gamesman_plugin.h, with mtttier's tiers and position numbers: X and O take turns placing a piece on a 3x3 board; three in a row wins, a full board without one is a tie.",
    .variants = VARIANTS,
    .variant_count = 2,
    .max_moves = 9,
    .max_undo_moves = 5,
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
    .text_to_move = text_to_move,
    .position_to_text = position_to_text,
    .text_to_position = text_to_position,
    .tier_children = tier_children,
    .tier_size = tier_size,
    .is_legal = is_legal,
    .generate_undo_moves_to_tier = generate_undo_moves_to_tier,
    .undo_move = undo_move,
    .tier_name = tier_name,
    .children = children,
    .parents = parents,
    .canonical_position = canonical_position,
    .scan_position = scan_position,
    .is_canonical = is_canonical,
};

const gamesman_module *gamesman_module_v1(void) { return &MODULE; }
