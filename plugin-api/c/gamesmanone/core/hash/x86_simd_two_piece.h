/*
 * core/hash/x86_simd_two_piece.h: GamesmanOne's two-piece hash for boards of at most 8x8
 * cells (Quixo), as this layer provides it: a board is two 64-bit patterns in an SSE
 * register (X in bits 63:0, O in bits 127:64; row r of the board in byte r, column c in
 * bit c of that byte), a position's hash is (rank of the X cells, rank of the O cells
 * among the rest) with the turn in the low bit. Needs SSE4.1, BMI2 and POPCNT
 * (build.sh passes -msse4.1 -mbmi -mbmi2 -mpopcnt for the games that include this).
 *
 * Written for this layer from the API's behaviour; the board operations are the usual
 * bit-board flips. Numbers may differ from GamesmanOne's (sizes and values do not).
 */
#ifndef GAMESMANONE_LAYER_X86_SIMD_TWO_PIECE_H
#define GAMESMANONE_LAYER_X86_SIMD_TWO_PIECE_H

#include <stdbool.h>
#include <stdint.h>
#include <x86intrin.h>

#include "one_api.h"

/* (GamesmanOne's X86SimdTwoPieceHashGetMemoryRequired is left out: v1.3.0 and pull
 * request 27 declare it differently, and no game calls it.) */
/* Sets the board to rows x cols (each 1..8, at most 32 cells); kNoError or
 * kIllegalArgumentError / kMallocFailureError. */
int X86SimdTwoPieceHashInit(int rows, int cols);
/* Pull request 27: a board whose cells are the set bits of `board_mask` (Mills). */
int X86SimdTwoPieceHashInitIrregular(uint64_t board_mask);
void X86SimdTwoPieceHashFinalize(void);
/* Positions with num_x X's and num_o O's, both turns. */
int64_t X86SimdTwoPieceHashGetNumPositions(int num_x, int num_o);
/* turn: 0 for X to move, 1 for O. */
Position X86SimdTwoPieceHashHash(__m128i board, int turn);
__m128i X86SimdTwoPieceHashUnhash(Position hash, int num_x, int num_o);
void X86SimdTwoPieceHashUnhashMem(Position hash, int num_x, int num_o, uint64_t patterns[2]);
/* Pull request 27: the same from patterns in memory, and hashes without the turn bit
 * (for tiers where the turn is fixed). */
Position X86SimdTwoPieceHashHashMem(const uint64_t patterns[2], int turn);
int64_t X86SimdTwoPieceHashGetNumPositionsFixedTurn(int num_x, int num_o);
Position X86SimdTwoPieceHashHashFixedTurn(__m128i board);
Position X86SimdTwoPieceHashHashFixedTurnMem(const uint64_t patterns[2]);
__m128i X86SimdTwoPieceHashUnhashFixedTurn(Position hash, int num_x, int num_o);
void X86SimdTwoPieceHashUnhashFixedTurnMem(Position hash, int num_x, int num_o, uint64_t patterns[2]);

static inline int X86SimdTwoPieceHashGetTurn(Position hash) { return (int)(hash & 1); }

/* Transposes an 8x8 bit board in both halves (cell (r, c) to (c, r)). */
static inline __m128i X86SimdTwoPieceHashFlipDiag(__m128i b) {
    const __m128i m7 = _mm_set1_epi64x(0x00AA00AA00AA00AALL);
    const __m128i m14 = _mm_set1_epi64x(0x0000CCCC0000CCCCLL);
    const __m128i m28 = _mm_set1_epi64x(0x00000000F0F0F0F0LL);
    __m128i t = _mm_and_si128(_mm_xor_si128(b, _mm_srli_epi64(b, 7)), m7);
    b = _mm_xor_si128(b, _mm_xor_si128(t, _mm_slli_epi64(t, 7)));
    t = _mm_and_si128(_mm_xor_si128(b, _mm_srli_epi64(b, 14)), m14);
    b = _mm_xor_si128(b, _mm_xor_si128(t, _mm_slli_epi64(t, 14)));
    t = _mm_and_si128(_mm_xor_si128(b, _mm_srli_epi64(b, 28)), m28);
    return _mm_xor_si128(b, _mm_xor_si128(t, _mm_slli_epi64(t, 28)));
}

/* Reverses the order of the `rows` rows in both halves. */
static inline __m128i X86SimdTwoPieceHashFlipVertical(__m128i b, int rows) {
    const __m128i reverse_bytes = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    b = _mm_shuffle_epi8(b, reverse_bytes);
    return _mm_srli_epi64(b, (8 - rows) * 8);
}

/* Reverses the order of the `cols` columns of every row in both halves. */
static inline __m128i X86SimdTwoPieceHashMirrorHorizontal(__m128i b, int cols) {
    const __m128i m1 = _mm_set1_epi8(0x55), m2 = _mm_set1_epi8(0x33), m4 = _mm_set1_epi8(0x0F);
    b = _mm_or_si128(_mm_and_si128(_mm_srli_epi64(b, 1), m1), _mm_slli_epi64(_mm_and_si128(b, m1), 1));
    b = _mm_or_si128(_mm_and_si128(_mm_srli_epi64(b, 2), m2), _mm_slli_epi64(_mm_and_si128(b, m2), 2));
    b = _mm_or_si128(_mm_and_si128(_mm_srli_epi64(b, 4), m4), _mm_slli_epi64(_mm_and_si128(b, m4), 4));
    return _mm_srli_epi64(b, 8 - cols);
}

/* A strict total order on boards (O's pattern, then X's, as unsigned numbers): the
 * games keep the least of a board's images as its canonical form. */
static inline bool X86SimdTwoPieceHashBoardLessThan(__m128i a, __m128i b) {
    uint64_t ao = (uint64_t)_mm_extract_epi64(a, 1), bo = (uint64_t)_mm_extract_epi64(b, 1);
    if (ao != bo) return ao < bo;
    return (uint64_t)_mm_cvtsi128_si64(a) < (uint64_t)_mm_cvtsi128_si64(b);
}

/* Pull request 27: X's and O's exchanged. */
static inline __m128i X86SimdTwoPieceHashSwapPieces(__m128i b) { return _mm_shuffle_epi32(b, 0x4E); }

/* Pull request 27: the lesser of two boards in the order above. */
static inline __m128i X86SimdTwoPieceHashMinBoard(__m128i a, __m128i b) {
    return X86SimdTwoPieceHashBoardLessThan(a, b) ? a : b;
}

static inline bool cmplt_u128(__m128i a, __m128i b) { return X86SimdTwoPieceHashBoardLessThan(a, b); }

#endif /* GAMESMANONE_LAYER_X86_SIMD_TWO_PIECE_H */
