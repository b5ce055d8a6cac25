/*
 * one_internal.h: what the adapter's files (one_module.c, one_fast.c, one_parents.c) share: the
 * game being adapted (named at compile time by -DGAMESMANONE_GAME=kName, as build.sh
 * does) and small conversions. Not for games.
 */
#ifndef GAMESMANONE_LAYER_ONE_INTERNAL_H
#define GAMESMANONE_LAYER_ONE_INTERNAL_H

#include "gamesman_plugin.h"
#include "one_api.h"

#ifndef GAMESMANONE_GAME
#error "compile with -DGAMESMANONE_GAME=<the game's Game object>, as build.sh does"
#endif
#ifndef GAMESMANONE_MAX_MOVES
/* GamesmanOne v1.3.0's limit on moves (and parents) a position (pull request 27: 4096). */
#define GAMESMANONE_MAX_MOVES 1024
#endif

extern const Game GAMESMANONE_GAME;

static inline bool is_tier(void) { return GAMESMANONE_GAME.solver == &kTierSolver; }
static inline const TierSolverApi *tier_api(void) { return (const TierSolverApi *)GAMESMANONE_GAME.solver_api; }
static inline const RegularSolverApi *regular_api(void) {
    return (const RegularSolverApi *)GAMESMANONE_GAME.solver_api;
}
static inline TierPosition tp_of(gamesman_position p) { return (TierPosition){(Tier)p.tier, (Position)p.index}; }
static inline gamesman_position pos_of(TierPosition tp) {
    return (gamesman_position){(uint64_t)tp.tier, (uint64_t)tp.position};
}
static inline bool has_parents(void) {
    return is_tier() ? tier_api()->GetCanonicalParentPositions != NULL
                     : regular_api()->GetCanonicalParentPositions != NULL;
}

/* one_module.c */
int64_t one_tier_children(gamesman_game *g, uint64_t tier, uint64_t *children, uint32_t capacity,
                          gamesman_error *err);

int one_value_of(Value v, gamesman_error *err);

/* one_fast.c */
bool one_has_canonical_children(void);
bool one_has_child_count(void);
int64_t one_children(gamesman_game *g, gamesman_position p, gamesman_position *out, uint32_t capacity,
                     gamesman_error *err);
int one_scan_position(gamesman_game *g, gamesman_position p, uint32_t *children, gamesman_error *err);
int one_is_canonical(gamesman_game *g, gamesman_position p, gamesman_error *err);

/* one_parents.c */
int one_build_parent_map(gamesman_error *err);
int64_t one_parents(gamesman_game *g, gamesman_position p, uint64_t tier, gamesman_position *out, uint32_t capacity,
                    gamesman_error *err);
int64_t one_generate_undo_moves_to_tier(gamesman_game *g, gamesman_position p, uint64_t tier, uint64_t *undo,
                                        uint32_t capacity, gamesman_error *err);
int one_undo_move(gamesman_game *g, gamesman_position p, uint64_t undo, gamesman_position *parent,
                  gamesman_error *err);

#endif /* GAMESMANONE_LAYER_ONE_INTERNAL_H */
