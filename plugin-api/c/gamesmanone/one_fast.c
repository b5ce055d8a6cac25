/*
 * one_fast.c: the solver's fast paths from a GamesmanOne game's own API (header
 * revision 2 of gamesman_plugin.h):
 *   - `children`: the game's GetCanonicalChildPositions, distinct canonical children
 *     (the module then sets GAMESMAN_FLAG_FAST_PATHS_CANONICAL, so the host takes them
 *     as they are instead of canonicalising every child and sorting out duplicates);
 *   - `scan_position`: Primitive and, for a position that is not primitive, the
 *     game's GetNumberOfCanonicalChildPositions (or the length of its canonical child
 *     list), the count the solver's scan needs;
 *   - `is_canonical`: GetCanonicalPosition(p) == p.
 * GamesmanOne's own solvers rely on the same functions meaning exactly this (a child
 * counter per position is the number of canonical children). Each answers
 * GAMESMAN_UNSUPPORTED where the game lacks the function it stands on.
 * Must not: know any particular game.
 */
#include "one_internal.h"

bool one_has_canonical_children(void) {
    return is_tier() ? tier_api()->GetCanonicalChildPositions != NULL : regular_api()->GetCanonicalChildPositions != NULL;
}

bool one_has_child_count(void) {
    return one_has_canonical_children() ||
           (is_tier() ? tier_api()->GetNumberOfCanonicalChildPositions != NULL
                      : regular_api()->GetNumberOfCanonicalChildPositions != NULL);
}

/* The game's canonical children of p into `out` (room for kTierSolverNumChildPositionsMax). */
static int canonical_children_of(gamesman_position p, TierPosition *out) {
    if (is_tier()) return tier_api()->GetCanonicalChildPositions(tp_of(p), out);
    Position scratch[kRegularSolverNumChildPositionsMax];
    int n = regular_api()->GetCanonicalChildPositions((Position)p.index, scratch);
    for (int i = 0; i < n; ++i) out[i] = (TierPosition){0, scratch[i]};
    return n;
}

int64_t one_children(gamesman_game *g, gamesman_position p, gamesman_position *out, uint32_t capacity,
                     gamesman_error *err) {
    (void)g;
    if (!one_has_canonical_children()) return GAMESMAN_UNSUPPORTED;
    TierPosition scratch[kTierSolverNumChildPositionsMax];
    int n = canonical_children_of(p, scratch);
    if (n < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GetCanonicalChildPositions returned %d", n);
    for (int i = 0; i < n && (uint32_t)i < capacity; ++i) out[i] = pos_of(scratch[i]);
    return n;
}

int one_scan_position(gamesman_game *g, gamesman_position p, uint32_t *children, gamesman_error *err) {
    (void)g;
    if (!one_has_child_count()) return GAMESMAN_UNSUPPORTED;
    Value v = is_tier() ? tier_api()->Primitive(tp_of(p)) : regular_api()->Primitive((Position)p.index);
    int code = one_value_of(v, err);
    if (code != GAMESMAN_UNDECIDED) return code;
    int n;
    if (is_tier() && tier_api()->GetNumberOfCanonicalChildPositions != NULL) {
        n = tier_api()->GetNumberOfCanonicalChildPositions(tp_of(p));
    } else if (!is_tier() && regular_api()->GetNumberOfCanonicalChildPositions != NULL) {
        n = regular_api()->GetNumberOfCanonicalChildPositions((Position)p.index);
    } else {
        TierPosition scratch[kTierSolverNumChildPositionsMax];
        n = canonical_children_of(p, scratch);
    }
    if (n < 0) return gamesman_fail(err, GAMESMAN_ERROR, "the game's count of canonical children is %d", n);
    *children = (uint32_t)n;
    return GAMESMAN_UNDECIDED;
}

int one_is_canonical(gamesman_game *g, gamesman_position p, gamesman_error *err) {
    (void)g;
    Position c = is_tier() ? tier_api()->GetCanonicalPosition(tp_of(p))
                           : regular_api()->GetCanonicalPosition((Position)p.index);
    if (c < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GetCanonicalPosition returned %" PRId64, c);
    return (uint64_t)c == p.index;
}
