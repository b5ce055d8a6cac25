/*
 * one_generic_hash.c: GamesmanOne's generic hash as its games use it, written for this
 * layer from the API's behaviour: contexts keyed by an int64 label, each a board of
 * `board_size` cells over a set of piece characters with a count range per piece,
 * optional "unordered" piece counts stored after the board, an optional validity test
 * of piece configurations, and a turn bit in the low bit of the hash for two-player
 * contexts (player 0).
 *
 * A context numbers its positions configuration by configuration (configurations in
 * mixed radix, the first piece's count least significant; only configurations whose
 * board counts fill the board and that the game's test accepts), and within a
 * configuration ranks boards as multiset permutations. GamesmanOne ranks boards in
 * another order, so positions may get other numbers than there: every size, value
 * and count is the same, only the numbers differ.
 *
 * Contexts are built single-threaded (the games' Init); hashing is read-only and safe
 * from many threads. Must not: know any game.
 */
#include <stdlib.h>
#include <string.h>

#include "one_api.h"

enum { kPiecesMax = 64 };

typedef struct Context {
    int64_t label;
    int player;     /* 0: both players, turn in the low bit; 1 or 2: that player only */
    int board_size; /* cells on the board */
    int board_pieces;
    int unordered; /* unordered counts after the board */
    char piece[kPiecesMax];
    int8_t index_of[128]; /* piece character -> piece number, -1 if not a piece */
    int min[kPiecesMax], max[kPiecesMax];
    int64_t stride[kPiecesMax];
    int64_t configs; /* product of the count ranges */
    int64_t *offset; /* per configuration: first number, -1 if invalid */
    int64_t *valid;  /* valid configurations in order */
    int64_t *valid_offset;
    int64_t num_valid;
    int64_t positions; /* without the turn bit */
} Context;

static Context *contexts = NULL;
static int64_t num_contexts = 0, contexts_capacity = 0;
static int64_t *slots = NULL; /* label map: context number + 1, 0 empty */
static int64_t slots_capacity = 0;

static uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    return x ^ (x >> 33);
}

static const Context *find(int64_t label) {
    if (slots_capacity == 0) return NULL;
    for (int64_t i = (int64_t)(mix((uint64_t)label) & (uint64_t)(slots_capacity - 1));;
         i = (i + 1) & (slots_capacity - 1)) {
        if (slots[i] == 0) return NULL;
        if (contexts[slots[i] - 1].label == label) return &contexts[slots[i] - 1];
    }
}

static bool index_label(int64_t number) {
    if ((number + 1) * 2 > slots_capacity) {
        int64_t capacity = slots_capacity == 0 ? 64 : slots_capacity * 2;
        int64_t *grown = calloc((size_t)capacity, sizeof *grown);
        if (grown == NULL) return false;
        free(slots);
        slots = grown, slots_capacity = capacity;
        for (int64_t n = 0; n < number; ++n) {
            int64_t i = (int64_t)(mix((uint64_t)contexts[n].label) & (uint64_t)(capacity - 1));
            while (slots[i] != 0) i = (i + 1) & (capacity - 1);
            slots[i] = n + 1;
        }
    }
    int64_t i = (int64_t)(mix((uint64_t)contexts[number].label) & (uint64_t)(slots_capacity - 1));
    while (slots[i] != 0) i = (i + 1) & (slots_capacity - 1);
    slots[i] = number + 1;
    return true;
}

void GenericHashReinitialize(void) {
    for (int64_t i = 0; i < num_contexts; ++i) {
        free(contexts[i].offset), free(contexts[i].valid), free(contexts[i].valid_offset);
    }
    free(contexts), free(slots);
    contexts = NULL, slots = NULL;
    num_contexts = contexts_capacity = slots_capacity = 0;
}

/* The number of boards of `cells` cells holding exactly counts[0..n-1] of each piece
 * (the counts add up to cells), or -1 past int64. */
static int64_t arrangements(int cells, const int *counts, int n) {
    __int128 total = 1;
    int left = cells;
    for (int p = 0; p < n; ++p) {
        /* total *= C(left, counts[p]) */
        __int128 c = 1;
        for (int i = 1; i <= counts[p]; ++i) c = c * (left - counts[p] + i) / i;
        total *= c;
        if (total > INT64_MAX) return -1;
        left -= counts[p];
    }
    return (int64_t)total;
}

static void decode_config(const Context *c, int64_t config, int *counts) {
    for (int p = 0; p < c->board_pieces + c->unordered; ++p) {
        int64_t range = c->max[p] - c->min[p] + 1;
        counts[p] = c->min[p] + (int)(config % range);
        config /= range;
    }
}

bool GenericHashAddContext(int player, int board_size, const int *pieces_init_array,
                           bool (*IsValidConfig)(const int *config), int64_t label) {
    if (player < 0 || player > 2 || board_size < 0 || pieces_init_array == NULL) return false;
    if (find(label) != NULL) return false;
    Context c;
    memset(&c, 0, sizeof c);
    memset(c.index_of, -1, sizeof c.index_of);
    c.label = label, c.player = player, c.board_size = board_size;
    int i = 0, n = 0;
    for (; pieces_init_array[i] >= 0; i += 3) {
        int piece = pieces_init_array[i];
        if (piece > 127 || n >= kPiecesMax || c.index_of[piece] >= 0) return false;
        c.piece[n] = (char)piece, c.index_of[piece] = (int8_t)n;
        c.min[n] = pieces_init_array[i + 1], c.max[n] = pieces_init_array[i + 2];
        if (c.min[n] < 0 || c.max[n] < c.min[n] || c.max[n] > board_size) return false;
        ++n;
    }
    c.board_pieces = n;
    if (pieces_init_array[i] == -2) {
        for (++i; pieces_init_array[i] >= 0; i += 2) {
            if (n >= kPiecesMax) return false;
            c.min[n] = pieces_init_array[i], c.max[n] = pieces_init_array[i + 1];
            if (c.min[n] < 0 || c.max[n] < c.min[n] || c.max[n] > 127) return false;
            ++n, ++c.unordered;
        }
    }
    if (pieces_init_array[i] != -1) return false;
    c.configs = 1;
    for (int p = 0; p < n; ++p) {
        c.stride[p] = c.configs;
        c.configs *= c.max[p] - c.min[p] + 1;
        if (c.configs > ((int64_t)1 << 32)) return false;
    }
    c.offset = malloc((size_t)c.configs * sizeof *c.offset);
    c.valid = malloc((size_t)c.configs * sizeof *c.valid);
    c.valid_offset = malloc((size_t)c.configs * sizeof *c.valid_offset);
    if (c.offset == NULL || c.valid == NULL || c.valid_offset == NULL) goto fail;
    int counts[kPiecesMax];
    for (int64_t config = 0; config < c.configs; ++config) {
        decode_config(&c, config, counts);
        int sum = 0;
        for (int p = 0; p < c.board_pieces; ++p) sum += counts[p];
        c.offset[config] = -1;
        if (sum != board_size || (IsValidConfig != NULL && !IsValidConfig(counts))) continue;
        int64_t boards = arrangements(board_size, counts, c.board_pieces);
        if (boards < 0 || c.positions > INT64_MAX / 2 - boards) goto fail;
        c.offset[config] = c.positions;
        c.valid[c.num_valid] = config, c.valid_offset[c.num_valid] = c.positions;
        ++c.num_valid;
        c.positions += boards;
    }
    if (num_contexts == contexts_capacity) {
        int64_t capacity = contexts_capacity == 0 ? 16 : contexts_capacity * 2;
        Context *grown = realloc(contexts, (size_t)capacity * sizeof *grown);
        if (grown == NULL) goto fail;
        contexts = grown, contexts_capacity = capacity;
    }
    contexts[num_contexts] = c;
    if (!index_label(num_contexts)) goto fail;
    ++num_contexts;
    return true;
fail:
    free(c.offset), free(c.valid), free(c.valid_offset);
    return false;
}

static Position num_positions(const Context *c) {
    if (c == NULL) return -1;
    return c->player == 0 ? c->positions * 2 : c->positions;
}

static Position hash(const Context *c, const char *board, int turn) {
    if (c == NULL || (c->player == 0 && turn != 1 && turn != 2)) return -1;
    int counts[kPiecesMax] = {0};
    for (int i = 0; i < c->board_size; ++i) {
        int ch = (unsigned char)board[i];
        int p = ch < 128 ? c->index_of[ch] : -1;
        if (p < 0) return -1;
        ++counts[p];
    }
    for (int u = 0; u < c->unordered; ++u) counts[c->board_pieces + u] = (int8_t)board[c->board_size + u];
    int64_t config = 0;
    for (int p = 0; p < c->board_pieces + c->unordered; ++p) {
        if (counts[p] < c->min[p] || counts[p] > c->max[p]) return -1;
        config += (counts[p] - c->min[p]) * c->stride[p];
    }
    int64_t offset = c->offset[config];
    if (offset < 0) return -1;
    /* Rank the board among the arrangements of its counts, cell 0 most significant. */
    __int128 m = arrangements(c->board_size, counts, c->board_pieces);
    int64_t rank = 0;
    for (int i = 0, left = c->board_size; i < c->board_size; ++i, --left) {
        int here = c->index_of[(unsigned char)board[i]];
        for (int p = 0; p < here; ++p) rank += (int64_t)(m * counts[p] / left);
        m = m * counts[here] / left;
        --counts[here];
    }
    Position index = offset + rank;
    return c->player == 0 ? (index << 1) | (turn == 2) : index;
}

static bool unhash(const Context *c, Position h, char *board) {
    if (c == NULL || h < 0 || h >= num_positions(c)) return false;
    int64_t index = c->player == 0 ? h >> 1 : h;
    /* The last valid configuration starting at or before index. */
    int64_t lo = 0, hi = c->num_valid - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (c->valid_offset[mid] <= index) lo = mid; else hi = mid - 1;
    }
    int counts[kPiecesMax];
    decode_config(c, c->valid[lo], counts);
    int64_t rank = index - c->valid_offset[lo];
    __int128 m = arrangements(c->board_size, counts, c->board_pieces);
    for (int i = 0, left = c->board_size; i < c->board_size; ++i, --left) {
        for (int p = 0; p < c->board_pieces; ++p) {
            if (counts[p] == 0) continue;
            int64_t block = (int64_t)(m * counts[p] / left);
            if (rank < block) {
                board[i] = c->piece[p];
                m = block, --counts[p];
                break;
            }
            rank -= block;
        }
    }
    for (int u = 0; u < c->unordered; ++u) board[c->board_size + u] = (char)counts[c->board_pieces + u];
    return true;
}

static int turn_of(const Context *c, Position h) {
    if (c == NULL) return -1;
    return c->player == 0 ? ((h & 1) ? 2 : 1) : c->player;
}

static const Context *only(void) { return num_contexts == 1 ? &contexts[0] : NULL; }

Position GenericHashNumPositions(void) { return num_positions(only()); }
Position GenericHashHash(const char *board, int turn) { return hash(only(), board, turn); }
bool GenericHashUnhash(Position h, char *board) { return unhash(only(), h, board); }
int GenericHashGetTurn(Position h) { return turn_of(only(), h); }
Position GenericHashNumPositionsLabel(int64_t label) { return num_positions(find(label)); }
Position GenericHashHashLabel(int64_t label, const char *board, int turn) {
    return hash(find(label), board, turn);
}
bool GenericHashUnhashLabel(int64_t label, Position h, char *board) {
    return unhash(find(label), h, board);
}
int GenericHashGetTurnLabel(int64_t label, Position h) { return turn_of(find(label), h); }
