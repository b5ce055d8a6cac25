/*
 * floor.c: the game calls any solver of a module must make, alone, for the
 * GamesmanOne bench (bench.py runs it beside both solvers, in the same run).
 *
 * For every tier reachable from the start through `tier_children`, it asks every
 * index whether it is legal and canonical, the primitive value of every legal
 * canonical position, and the children of every one that is not primitive. A solver
 * that stores the value of every legal canonical position (as GamesmanOne's tier
 * files do) learns which indices those are only through these calls, and cannot
 * give a position a value without its children; so no solver of the unchanged game
 * spends less CPU than this in the game. GamesmanOne makes these calls too (and asks
 * for parents on top).
 *
 *     floor LIBRARY VARIANT
 *
 * prints one line: tiers, indices, canonical positions, expanded positions, children.
 * Must not: solve, store or compare anything.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamesman_plugin.h"

#define TIER_CHILDREN_CAPACITY 4096

/* The children of p into `kids` (room for `room`), as the solver gets them: the
 * module's fast path, else every move's child (canonical where the game has
 * symmetry), each once. Returns how many, or -1 with `err` set. */
static int64_t children_of(const gamesman_module *m, gamesman_game *g, gamesman_position p, int symmetric,
                           gamesman_position *kids, uint64_t *moves, uint32_t room, gamesman_error *err) {
    if (m->children != NULL) return m->children(g, p, kids, room, err);
    int64_t n = m->generate_moves(g, p, moves, room, err);
    if (n < 0 || n > room) return -1;
    int64_t distinct = 0;
    for (int64_t i = 0; i < n; ++i) {
        gamesman_position c;
        if (m->do_move(g, p, moves[i], &c, err) != GAMESMAN_OK) return -1;
        if (symmetric && m->canonical_position(g, c, &c, err) != GAMESMAN_OK) return -1;
        int64_t k = 0;
        while (k < distinct && (kids[k].tier != c.tier || kids[k].index != c.index)) ++k;
        if (k == distinct) kids[distinct++] = c;
    }
    return distinct;
}

static void die(const char *what, const gamesman_error *err) {
    fprintf(stderr, "floor: %s%s%s\n", what, err ? ": " : "", err ? err->message : "");
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor LIBRARY VARIANT\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (lib == NULL) die(dlerror(), NULL);
    const gamesman_module *(*entry)(void) =
        (const gamesman_module *(*)(void))dlsym(lib, GAMESMAN_ENTRY_POINT);
    if (entry == NULL) die("no " GAMESMAN_ENTRY_POINT, NULL);
    const gamesman_module *m = entry();
    gamesman_error err;
    memset(&err, 0, sizeof err);
    gamesman_game *g = m->new_game(argv[2], &err);
    if (g == NULL) die("new_game", &err);
    gamesman_properties props = {m->flags, m->max_moves, m->max_undo_moves, m->max_tier_children, 0};
    if (m->properties != NULL && m->properties(g, &props, &err) != GAMESMAN_OK) die("properties", &err);
    if (props.max_moves == 0) props.max_moves = 64;
    gamesman_position start;
    if (m->initial_position(g, &start, &err) != GAMESMAN_OK) die("initial_position", &err);

    /* The tiers reachable from the start's, each once. */
    size_t count = 0, capacity = 64;
    uint64_t *tiers = malloc(capacity * sizeof *tiers);
    uint64_t *next = malloc(TIER_CHILDREN_CAPACITY * sizeof *next);
    if (tiers == NULL || next == NULL) die("out of memory", NULL);
    tiers[count++] = start.tier;
    for (size_t i = 0; i < count; ++i) {
        int64_t n = m->tier_children ? m->tier_children(g, tiers[i], next, TIER_CHILDREN_CAPACITY, &err) : 0;
        if (n < 0 || n > TIER_CHILDREN_CAPACITY) die("tier_children", &err);
        for (int64_t j = 0; j < n; ++j) {
            size_t k = 0;
            while (k < count && tiers[k] != next[j]) ++k;
            if (k < count) continue;
            if (count == capacity) {
                capacity *= 2;
                tiers = realloc(tiers, capacity * sizeof *tiers);
                if (tiers == NULL) die("out of memory", NULL);
            }
            tiers[count++] = next[j];
        }
    }

    uint32_t room = props.max_moves;
    gamesman_position *kids = malloc((size_t)room * sizeof *kids);
    uint64_t *moves = malloc((size_t)room * sizeof *moves);
    if (kids == NULL || moves == NULL) die("out of memory", NULL);
    uint64_t indices = 0, canonical = 0, expanded = 0, children = 0;
    int symmetric = (props.flags & GAMESMAN_FLAG_SYMMETRY) != 0;
    for (size_t i = 0; i < count; ++i) {
        uint64_t size;
        if (m->tier_size(g, tiers[i], &size, &err) != GAMESMAN_OK) die("tier_size", &err);
        for (uint64_t x = 0; x < size; ++x) {
            gamesman_position p = {tiers[i], x};
            ++indices;
            int legal = m->is_legal ? m->is_legal(g, p, &err) : 1;
            if (legal < 0) die("is_legal", &err);
            if (!legal) continue;
            if (symmetric) {
                int c;
                if (m->is_canonical != NULL) {
                    c = m->is_canonical(g, p, &err);
                } else {
                    gamesman_position form;
                    if (m->canonical_position(g, p, &form, &err) != GAMESMAN_OK) die("canonical_position", &err);
                    c = form.index == p.index;
                }
                if (c < 0) die("is_canonical", &err);
                if (!c) continue;
            }
            ++canonical;
            int v = m->primitive(g, p, &err);
            if (v < 0) die("primitive", &err);
            if (v != GAMESMAN_UNDECIDED) continue;
            int64_t n = children_of(m, g, p, symmetric, kids, moves, room, &err);
            if (n < 0) die("children", &err);
            ++expanded;
            children += (uint64_t)n;
        }
    }
    printf("tiers %zu indices %" PRIu64 " canonical %" PRIu64 " expanded %" PRIu64 " children %" PRIu64 "\n", count,
           indices, canonical, expanded, children);
    m->free_game(g);
    free(kids);
    free(moves);
    free(next);
    free(tiers);
    return 0;
}
