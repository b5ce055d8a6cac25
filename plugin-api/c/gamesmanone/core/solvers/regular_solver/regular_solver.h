/* core/solvers/regular_solver/regular_solver.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_SOLVERS_REGULAR_SOLVER_REGULAR_SOLVER_H
#define GAMESMANONE_LAYER_CORE_SOLVERS_REGULAR_SOLVER_REGULAR_SOLVER_H
#include "one_api.h"
#endif
