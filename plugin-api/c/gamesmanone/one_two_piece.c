/*
 * one_two_piece.c: the two-piece hash of core/hash/x86_simd_two_piece.h. A board's
 * effective cells are numbered 0..n-1 row by row; X's cells are ranked among the
 * n-cell subsets of their size in colex order, O's among the cells X leaves free the
 * same way, and hash = (rank_x * C(n - x, o) + rank_o) * 2 + turn.
 *
 * Boards of at most 20 cells use tables (the colex rank of every pattern, and the
 * patterns of each size in rank order: 2 x 4 bytes x 2^n); larger ones compute ranks
 * bit by bit. Built only where the compiler targets BMI2 (build.sh's x86 flags).
 * Must not: know any game.
 */
#if defined(__BMI2__) && defined(__SSE4_1__)
#include <stdlib.h>

#include "core/hash/x86_simd_two_piece.h"

enum { kTableCellsMax = 20 };

static int cells = 0;
static uint64_t cell_mask = 0; /* the effective cells in the 8x8 layout */
static int64_t binomial[65][65];
static uint32_t *rank_of = NULL;           /* pattern -> colex rank among its size */
static uint32_t *pattern_at = NULL;        /* by size: patterns in rank order */
static int64_t size_start[kTableCellsMax + 2];

static int64_t colex_rank(uint64_t pattern) {
    if (rank_of != NULL) return rank_of[pattern];
    int64_t r = 0;
    for (int i = 1; pattern != 0; ++i, pattern &= pattern - 1) r += binomial[__builtin_ctzll(pattern)][i];
    return r;
}

static uint64_t colex_unrank(int64_t r, int k, int n) {
    if (pattern_at != NULL) return pattern_at[size_start[k] + r];
    uint64_t pattern = 0;
    for (int i = k, b = n - 1; i >= 1; --i) {
        while (binomial[b][i] > r) --b;
        r -= binomial[b][i];
        pattern |= (uint64_t)1 << b;
        --b;
    }
    return pattern;
}

void X86SimdTwoPieceHashFinalize(void) {
    free(rank_of), free(pattern_at);
    rank_of = NULL, pattern_at = NULL, cells = 0, cell_mask = 0;
}

static int init_cells(uint64_t mask);

int X86SimdTwoPieceHashInit(int rows, int cols) {
    if (rows < 1 || rows > 8 || cols < 1 || cols > 8 || rows * cols > 32) return kIllegalArgumentError;
    uint64_t mask = 0;
    for (int r = 0; r < rows; ++r) mask |= (((uint64_t)1 << cols) - 1) << (8 * r);
    return init_cells(mask);
}

int X86SimdTwoPieceHashInitIrregular(uint64_t board_mask) {
    if (board_mask == 0 || __builtin_popcountll(board_mask) > 32) return kIllegalArgumentError;
    return init_cells(board_mask);
}

static int init_cells(uint64_t mask) {
    X86SimdTwoPieceHashFinalize();
    for (int n = 0; n <= 64; ++n) {
        binomial[n][0] = 1;
        for (int k = 1; k <= 64; ++k) binomial[n][k] = n == 0 ? 0 : binomial[n - 1][k - 1] + binomial[n - 1][k];
    }
    cell_mask = mask;
    cells = __builtin_popcountll(mask);
    if (cells > kTableCellsMax) return kNoError;
    size_t patterns = (size_t)1 << cells;
    rank_of = malloc(patterns * sizeof *rank_of);
    pattern_at = malloc(patterns * sizeof *pattern_at);
    if (rank_of == NULL || pattern_at == NULL) {
        X86SimdTwoPieceHashFinalize();
        return kMallocFailureError;
    }
    size_start[0] = 0;
    for (int k = 0; k <= cells; ++k) size_start[k + 1] = size_start[k] + binomial[cells][k];
    int64_t next[kTableCellsMax + 1] = {0};
    /* Colex order of the subsets of one size is numeric order of their patterns. */
    for (uint64_t p = 0; p < patterns; ++p) {
        int k = __builtin_popcountll(p);
        rank_of[p] = (uint32_t)next[k];
        pattern_at[size_start[k] + next[k]] = (uint32_t)p;
        ++next[k];
    }
    return kNoError;
}

int64_t X86SimdTwoPieceHashGetNumPositions(int num_x, int num_o) {
    if (num_x < 0 || num_o < 0 || num_x + num_o > cells) return 0;
    return binomial[cells][num_x] * binomial[cells - num_x][num_o] * 2;
}

int64_t X86SimdTwoPieceHashGetNumPositionsFixedTurn(int num_x, int num_o) {
    return X86SimdTwoPieceHashGetNumPositions(num_x, num_o) / 2;
}

/* The position's number without the turn. */
static int64_t index_of(uint64_t x_pattern, uint64_t o_pattern) {
    uint64_t x = _pext_u64(x_pattern, cell_mask);
    uint64_t o = _pext_u64(o_pattern, cell_mask);
    uint64_t free_cells = ~x & ((((uint64_t)1) << cells) - 1);
    uint64_t o_rest = _pext_u64(o, free_cells);
    int nx = __builtin_popcountll(x), no = __builtin_popcountll(o_rest);
    return colex_rank(x) * binomial[cells - nx][no] + colex_rank(o_rest);
}

Position X86SimdTwoPieceHashHash(__m128i board, int turn) {
    int64_t index = index_of((uint64_t)_mm_cvtsi128_si64(board), (uint64_t)_mm_extract_epi64(board, 1));
    return index * 2 + (turn != 0);
}

Position X86SimdTwoPieceHashHashMem(const uint64_t patterns[2], int turn) {
    return index_of(patterns[0], patterns[1]) * 2 + (turn != 0);
}

Position X86SimdTwoPieceHashHashFixedTurn(__m128i board) {
    return index_of((uint64_t)_mm_cvtsi128_si64(board), (uint64_t)_mm_extract_epi64(board, 1));
}

Position X86SimdTwoPieceHashHashFixedTurnMem(const uint64_t patterns[2]) {
    return index_of(patterns[0], patterns[1]);
}

void X86SimdTwoPieceHashUnhashFixedTurnMem(Position index, int num_x, int num_o, uint64_t patterns[2]) {
    int64_t per_x = binomial[cells - num_x][num_o];
    uint64_t x = colex_unrank(index / per_x, num_x, cells);
    uint64_t o_rest = colex_unrank(index % per_x, num_o, cells - num_x);
    uint64_t o = _pdep_u64(o_rest, ~x & ((((uint64_t)1) << cells) - 1));
    patterns[0] = _pdep_u64(x, cell_mask);
    patterns[1] = _pdep_u64(o, cell_mask);
}

void X86SimdTwoPieceHashUnhashMem(Position hash, int num_x, int num_o, uint64_t patterns[2]) {
    X86SimdTwoPieceHashUnhashFixedTurnMem(hash >> 1, num_x, num_o, patterns);
}

__m128i X86SimdTwoPieceHashUnhashFixedTurn(Position index, int num_x, int num_o) {
    uint64_t p[2];
    X86SimdTwoPieceHashUnhashFixedTurnMem(index, num_x, num_o, p);
    return _mm_set_epi64x((long long)p[1], (long long)p[0]);
}

__m128i X86SimdTwoPieceHashUnhash(Position hash, int num_x, int num_o) {
    uint64_t p[2];
    X86SimdTwoPieceHashUnhashMem(hash, num_x, num_o, p);
    return _mm_set_epi64x((long long)p[1], (long long)p[0]);
}
#endif
