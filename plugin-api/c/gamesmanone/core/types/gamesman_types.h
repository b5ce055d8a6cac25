/* core/types/gamesman_types.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_TYPES_GAMESMAN_TYPES_H
#define GAMESMANONE_LAYER_CORE_TYPES_GAMESMAN_TYPES_H
#include "one_api.h"
#endif
