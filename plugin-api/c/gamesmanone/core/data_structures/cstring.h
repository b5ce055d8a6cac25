/* core/data_structures/cstring.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_DATA_STRUCTURES_CSTRING_H
#define GAMESMANONE_LAYER_CORE_DATA_STRUCTURES_CSTRING_H
#include "one_api.h"
#endif
