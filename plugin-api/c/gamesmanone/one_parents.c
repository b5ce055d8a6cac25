/*
 * one_parents.c: GamesmanOne's canonical parents as the host's `parents` fast path,
 * and undo moves that name the same parents (our ABI uses `parents` only for a
 * module with undo moves). An undo move is the parent's index times 256 plus the
 * parent tier's slot among the tiers leading to the child's tier, from a reverse tier
 * map built when a variant opens (the tier graph walked from the initial tier). Only
 * legal, non-primitive parents are given (pull request 27 allows games to list
 * others). GamesmanOne's own solver takes every parent given as one move, so the
 * parents are canonical and distinct, as the module declares
 * (GAMESMAN_FLAG_FAST_PATHS_CANONICAL; the validator checks it). Used only for games that give
 * GetCanonicalParentPositions, and only in variants without immediate-transition
 * tiers: GamesmanOne solves such tiers by their children alone and never asks for
 * parents into them, and at least one game's parents are wrong there (pull request
 * 27's Mills hashes parents in its fixed-turn tiers with the turn bit, outside the
 * tier). In other variants every undo-move call says GAMESMAN_UNSUPPORTED, which makes
 * the host treat the variant as forward-only (it solves a tier that does not list
 * itself by a scan of its children, and builds a reverse graph for the others).
 * Must not: know any particular game.
 */
#include <stdlib.h>

#include "one_internal.h"

/* The reverse tier map: for each tier, the tiers whose positions lead into it. */
typedef struct {
    Tier tier;
    Tier parents[255];
    int count;
} ParentTiers;

static ParentTiers *parent_map = NULL;
static bool usable = false; /* parents given in the open variant */
static int64_t parent_map_size = 0, parent_map_capacity = 0; /* open addressing */

static uint64_t tier_slot_hash(Tier t) {
    uint64_t x = (uint64_t)t * 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

static ParentTiers *parent_entry(Tier t, bool add) {
    if (parent_map_capacity == 0) return NULL;
    for (int64_t i = (int64_t)(tier_slot_hash(t) & (uint64_t)(parent_map_capacity - 1));;
         i = (i + 1) & (parent_map_capacity - 1)) {
        if (parent_map[i].tier == t) return &parent_map[i];
        if (parent_map[i].tier == -1) {
            if (!add) return NULL;
            parent_map[i].tier = t, parent_map[i].count = 0;
            ++parent_map_size;
            return &parent_map[i];
        }
    }
}

static bool grow_parent_map(void) {
    int64_t capacity = parent_map_capacity == 0 ? 1024 : parent_map_capacity * 2;
    ParentTiers *old = parent_map;
    int64_t old_capacity = parent_map_capacity;
    parent_map = malloc((size_t)capacity * sizeof *parent_map);
    if (parent_map == NULL) {
        parent_map = old;
        return false;
    }
    for (int64_t i = 0; i < capacity; ++i) parent_map[i].tier = -1;
    parent_map_capacity = capacity, parent_map_size = 0;
    for (int64_t i = 0; i < old_capacity; ++i) {
        if (old[i].tier != -1) *parent_entry(old[i].tier, true) = old[i];
    }
    free(old);
    return true;
}

/* Walks the tier graph from the initial tier (every tier the solver can meet). */
int one_build_parent_map(gamesman_error *err) {
    free(parent_map);
    parent_map = NULL, parent_map_size = 0, parent_map_capacity = 0;
    usable = has_parents();
    if (!is_tier() || !usable) return GAMESMAN_OK;
    Int64Array queue;
    Int64ArrayInit(&queue);
    if (!grow_parent_map() || !Int64ArrayPushBack(&queue, tier_api()->GetInitialTier())) goto oom;
    parent_entry(queue.array[0], true);
    for (int64_t head = 0; head < queue.size; ++head) {
        Tier tier = queue.array[head];
        if (tier_api()->GetTierType != NULL && tier_api()->GetTierType(tier) == kTierTypeImmediateTransition) {
            usable = false;
        }
        uint64_t children[kTierSolverNumChildTiersMax + 1];
        int64_t n = one_tier_children(NULL, (uint64_t)tier, children, kTierSolverNumChildTiersMax + 1, err);
        if (n < 0) goto fail;
        for (int64_t i = 0; i < n; ++i) {
            Tier child = (Tier)children[i];
            if ((parent_map_size + 1) * 2 > parent_map_capacity && !grow_parent_map()) goto oom;
            ParentTiers *e = parent_entry(child, false);
            if (e == NULL) {
                e = parent_entry(child, true);
                if (!Int64ArrayPushBack(&queue, child)) goto oom;
            }
            if (e->count == 255) {
                gamesman_fail(err, GAMESMAN_ERROR, "tier %" PRId64 " has more than 255 parent tiers", child);
                goto fail;
            }
            e->parents[e->count++] = tier;
        }
    }
    Int64ArrayDestroy(&queue);
    return GAMESMAN_OK;
oom:
    gamesman_fail(err, GAMESMAN_ERROR, "out of memory building the reverse tier graph");
fail:
    Int64ArrayDestroy(&queue);
    return GAMESMAN_ERROR;
}

/* The slot of `parent_tier` among the tiers leading to `tier`, or -1. */
static int parent_slot(Tier tier, Tier parent_tier) {
    if (!is_tier()) return tier == 0 && parent_tier == 0 ? 0 : -1;
    const ParentTiers *e = parent_entry(tier, false);
    if (e == NULL) return -1;
    for (int i = 0; i < e->count; ++i) {
        if (e->parents[i] == parent_tier) return i;
    }
    return -1;
}

/* The game's canonical parents of p in `tier` that are legal and not primitive (each
 * once: GamesmanOne's solver counts every parent it is given as one move). */
static int64_t canonical_parents(gamesman_position p, uint64_t tier, Position *out, gamesman_error *err) {
    int n;
    if (is_tier()) {
        if (parent_slot((Tier)p.tier, (Tier)tier) < 0) return 0;
        n = tier_api()->GetCanonicalParentPositions(tp_of(p), (Tier)tier, out);
    } else {
        if (tier != 0) return 0;
        n = regular_api()->GetCanonicalParentPositions((Position)p.index, out);
    }
    if (n < 0) return gamesman_fail(err, GAMESMAN_ERROR, "GetCanonicalParentPositions returned %d", n);
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        TierPosition parent = {(Tier)tier, out[i]};
        bool legal = is_tier() ? tier_api()->IsLegalPosition(parent) : regular_api()->IsLegalPosition(out[i]);
        Value v = !legal ? kUndecided : is_tier() ? tier_api()->Primitive(parent) : regular_api()->Primitive(out[i]);
        if (legal && v == kUndecided) out[kept++] = out[i];
    }
    return kept;
}

int64_t one_parents(gamesman_game *g, gamesman_position p, uint64_t tier, gamesman_position *out, uint32_t capacity,
                       gamesman_error *err) {
    (void)g;
    if (!usable) return GAMESMAN_UNSUPPORTED;
    Position scratch[kTierSolverNumParentPositionsMax];
    int64_t n = canonical_parents(p, tier, scratch, err);
    for (int64_t i = 0; i < n && (uint64_t)i < capacity; ++i) out[i] = (gamesman_position){tier, (uint64_t)scratch[i]};
    return n;
}

int64_t one_generate_undo_moves_to_tier(gamesman_game *g, gamesman_position p, uint64_t tier, uint64_t *undo,
                                           uint32_t capacity, gamesman_error *err) {
    (void)g;
    if (!usable) return GAMESMAN_UNSUPPORTED;
    Position scratch[kTierSolverNumParentPositionsMax];
    int64_t n = canonical_parents(p, tier, scratch, err);
    int slot = parent_slot((Tier)p.tier, (Tier)tier);
    for (int64_t i = 0; i < n; ++i) {
        if ((uint64_t)scratch[i] >> 56 != 0) return gamesman_fail(err, GAMESMAN_ERROR, "parent index too large for an undo move");
        if ((uint64_t)i < capacity) undo[i] = ((uint64_t)scratch[i] << 8) | (uint64_t)slot;
    }
    return n;
}

int one_undo_move(gamesman_game *g, gamesman_position p, uint64_t undo, gamesman_position *parent, gamesman_error *err) {
    (void)g;
    int slot = (int)(undo & 255);
    if (!is_tier()) {
        parent->tier = 0;
    } else {
        const ParentTiers *e = parent_entry((Tier)p.tier, false);
        if (e == NULL || slot >= e->count) return gamesman_fail(err, GAMESMAN_ERROR, "not an undo move of this position");
        parent->tier = (uint64_t)e->parents[slot];
    }
    parent->index = undo >> 8;
    return GAMESMAN_OK;
}

