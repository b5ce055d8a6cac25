/*
 * core/data_structures/x86_m128i_hash_set.h: pull request 27's small fixed-size set of
 * 128-bit boards (Mills counts a board's distinct images with it), as this layer
 * provides it. The includer sets the number of slots, a power of two, with
 * X86_M128I_HASH_SET_SIZE before including (default 1024) and reads `.size`.
 * Needs SSE4.1. Written for this layer from the API's behaviour.
 */
#ifndef GAMESMANONE_LAYER_X86_M128I_HASH_SET_H
#define GAMESMANONE_LAYER_X86_M128I_HASH_SET_H

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifndef X86_M128I_HASH_SET_SIZE
#define X86_M128I_HASH_SET_SIZE 1024ULL
#endif

typedef struct {
    __m128i keys[X86_M128I_HASH_SET_SIZE];
    uint8_t state[X86_M128I_HASH_SET_SIZE]; /* 1: the slot holds a key */
    int size;
} X86M128iHashSet;

static inline uint64_t X86M128iHashSetSlot_(__m128i key) {
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(key), hi = (uint64_t)_mm_extract_epi64(key, 1);
    uint64_t h = (lo ^ (hi * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    return (h ^ (h >> 31)) & (X86_M128I_HASH_SET_SIZE - 1ULL);
}

static inline bool X86M128iHashSetEqual_(__m128i a, __m128i b) {
    __m128i d = _mm_xor_si128(a, b);
    return _mm_testz_si128(d, d);
}

static inline void X86M128iHashSetInit(X86M128iHashSet *set) {
    set->size = 0;
    memset(set->state, 0, sizeof set->state);
}

/* Adds `key`; true if it was not in the set. The set must not fill up. */
static inline bool X86M128iHashSetAdd(X86M128iHashSet *set, __m128i key) {
    uint64_t i = X86M128iHashSetSlot_(key);
    while (set->state[i]) {
        if (X86M128iHashSetEqual_(set->keys[i], key)) return false;
        i = (i + 1) & (X86_M128I_HASH_SET_SIZE - 1ULL);
    }
    set->state[i] = 1, set->keys[i] = key, ++set->size;
    return true;
}

static inline bool X86M128iHashSetContains(const X86M128iHashSet *set, __m128i key) {
    uint64_t i = X86M128iHashSetSlot_(key);
    while (set->state[i]) {
        if (X86M128iHashSetEqual_(set->keys[i], key)) return true;
        i = (i + 1) & (X86_M128I_HASH_SET_SIZE - 1ULL);
    }
    return false;
}

#endif /* GAMESMANONE_LAYER_X86_M128I_HASH_SET_H */
