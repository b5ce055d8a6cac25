/* core/solvers/tier_solver/tier_solver.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_SOLVERS_TIER_SOLVER_TIER_SOLVER_H
#define GAMESMANONE_LAYER_CORE_SOLVERS_TIER_SOLVER_TIER_SOLVER_H
#include "one_api.h"
#endif
