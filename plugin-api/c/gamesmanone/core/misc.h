/* core/misc.h: the path GamesmanOne games include; everything is in one_api.h. */
#ifndef GAMESMANONE_LAYER_CORE_MISC_H
#define GAMESMANONE_LAYER_CORE_MISC_H
#include "one_api.h"
#endif
