/* core/constants.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_CONSTANTS_H
#define GAMESMANONE_LAYER_CORE_CONSTANTS_H
#include "one_api.h"
#endif
