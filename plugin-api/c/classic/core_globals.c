/*
 * core_globals.c: the globals the Classic core defines and modules read or set: the
 * hooks a module sets in InitializeGame (read by classic_module.c) and the core's
 * settings a module reads. All weak (CLASSIC_CORE): a module that defines one itself
 * keeps its own definition.
 */
#include "classic_internal.h"

/* Hooks a module sets. */
CLASSIC_CORE POSITION (*gCanonicalPosition)(POSITION) = NULL;
CLASSIC_CORE void (*gUndoMove)(MOVE) = NULL;
CLASSIC_CORE POSITION (*gActualNumberOfPositionsOptFunPtr)(int) = NULL;
CLASSIC_CORE void (*gPositionToStringFunPtr)(POSITION, char *) = NULL;
CLASSIC_CORE STRING (*gCustomUnhash)(POSITION) = NULL;
CLASSIC_CORE char (*gReturnTurn)(POSITION) = NULL;
CLASSIC_CORE void *(*linearUnhash)(POSITION) = NULL;
CLASSIC_CORE WINBY (*gPutWinBy)(POSITION) = NULL;
CLASSIC_CORE BOOLEAN (*gGoAgain)(POSITION, MOVE) = NULL;
CLASSIC_CORE BOOLEAN gSupportsMex = FALSE;
CLASSIC_CORE STRING (*gGetVarStringPtr)(void) = NULL;
CLASSIC_CORE POSITION (*gRandomInitialPositionFunPtr)(void) = NULL;
CLASSIC_CORE MULTIPARTEDGELIST *(*gGenerateMultipartMoveEdgesFunPtr)(POSITION, MOVELIST *, POSITIONLIST *) = NULL;
CLASSIC_CORE void (*gPositionStringToAutoGUIPositionStringFunPtr)(char *, char *) = NULL;
CLASSIC_CORE void (*gPositionStringDoMoveFunPtr)(char *, MOVE, char *) = NULL;
CLASSIC_CORE int (*gGenerateMovesEfficientFunPtr)(POSITION) = NULL;
CLASSIC_CORE MOVE *gGenerateMovesArray = NULL;
CLASSIC_CORE POSITIONLIST *(*gEnumerateWithinStage)(int) = NULL;
CLASSIC_CORE BOOLEAN kUsePureDraw = FALSE;
CLASSIC_CORE BOOLEAN kUsesQuartoGamesman = FALSE;

/* The Tier Gamesman. */
CLASSIC_CORE BOOLEAN kSupportsTierGamesman = FALSE;
CLASSIC_CORE BOOLEAN kExclusivelyTierGamesman = FALSE;
CLASSIC_CORE BOOLEAN kSupportsShardGamesman = FALSE;
CLASSIC_CORE BOOLEAN kDebugTierMenu = FALSE;
CLASSIC_CORE TIERLIST *(*gTierChildrenFunPtr)(TIER) = NULL;
CLASSIC_CORE TIERPOSITION (*gNumberOfTierPositionsFunPtr)(TIER) = NULL;
CLASSIC_CORE void (*gGetInitialTierPositionFunPtr)(TIER *, TIERPOSITION *) = NULL;
CLASSIC_CORE BOOLEAN (*gIsLegalFunPtr)(POSITION) = NULL;
CLASSIC_CORE UNDOMOVELIST *(*gGenerateUndoMovesToTierFunPtr)(POSITION, TIER) = NULL;
CLASSIC_CORE POSITION (*gUnDoMoveFunPtr)(POSITION, UNDOMOVE) = NULL;
CLASSIC_CORE STRING (*gTierToStringFunPtr)(TIER) = NULL;
CLASSIC_CORE TIER gInitialTier = 0;
CLASSIC_CORE TIERPOSITION gInitialTierPosition = 0;

/* The core's settings. */
CLASSIC_CORE BOOLEAN gStandardGame = TRUE;
CLASSIC_CORE BOOLEAN gSymmetries = FALSE; /* as in Classic: a module turns them on */
CLASSIC_CORE BOOLEAN gUseGPS = FALSE;
CLASSIC_CORE BOOLEAN gWinBy = TRUE;
CLASSIC_CORE BOOLEAN gPrintHints = FALSE;
CLASSIC_CORE BOOLEAN gHashWindowInitialized = FALSE;
CLASSIC_CORE BOOLEAN gTierGamesman = FALSE;
CLASSIC_CORE BOOLEAN gCurrentTierIsLoopy = FALSE;
CLASSIC_CORE TIER gCurrentTier = 0;
CLASSIC_CORE TIERPOSITION gCurrentTierSize = 0;
CLASSIC_CORE TIER kBadTier = (TIER)-1;
CLASSIC_CORE char gPlayerName[2][MAXNAME] = {"Player 2", "Player 1"};
CLASSIC_CORE VALUE gValue = undecided;
CLASSIC_CORE MENU gMenuMode = BeforeEvaluation;
CLASSIC_CORE OPPONENT gOpponent = AgainstHuman;
CLASSIC_CORE int gTurnNumber = 0;
CLASSIC_CORE Tcl_Interp *gTclInterp = NULL;
CLASSIC_CORE STRING gValueString[] = {"undecided", "win", "lose", "tie", "draw (win)", "draw (lose)", "draw"};
CLASSIC_CORE BOOLEAN gIsInteract = FALSE;
CLASSIC_CORE BOOLEAN gLoadTierdbArray = FALSE;
CLASSIC_CORE BOOLEAN gPrintPredictions = FALSE;
CLASSIC_CORE BOOLEAN gPrintSEvalPredictions = FALSE;
CLASSIC_CORE BOOLEAN gUnsolved = FALSE;
CLASSIC_CORE BOOLEAN gHints = FALSE;
