// gamesman.h: the GamesmanClassic module API, for building an unchanged Classic game
// module as a gamesman-rs C module:
//
//   cc -O2 -shared -fPIC -DNO_GRAPHICS -I plugin-api/c/classic mymodule.c plugin-api/c/classic/*.c -o libmymodule.so
//
// and a C++ module (the layer stays C; cc compiles each file by its extension):
//
//   cc -O2 -shared -fPIC -DNO_GRAPHICS -I plugin-api/c/classic mymodule.cc plugin-api/c/classic/*.c -lstdc++ -o libmymodule.so
//
/*
 * Written fresh for gamesman-rs from the documented names and behaviour of Classic's
 * module API (types, the globals and hooks a module defines and sets, the core
 * functions it calls). The .c files beside this header are the "core" side: they
 * implement those functions and export the module through gamesman_plugin.h.
 *
 * Everything declared here has hidden visibility: the module's own functions and
 * globals bind inside its library (two Classic modules in one process never mix), and
 * the library exports only gamesman_module_v1.
 */
#ifndef GAMESMAN_CLASSIC_GAMESMAN_H
#define GAMESMAN_CLASSIC_GAMESMAN_H

/* The system headers Classic's gamesman.h brings in, which modules rely on. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(hidden)

/* ---- types ----------------------------------------------------------------------- */

/* No Tcl/Tk in the host: the graphical types are plain ints (Classic's NO_GRAPHICS). */
typedef int Tcl_Interp;
typedef int Tk_Window;
typedef int ClientData;
#define TCL_OK 0
#define TCL_ERROR 1

typedef unsigned long long POSITION;
typedef unsigned long long TIER;
typedef POSITION TIERPOSITION;
typedef int MOVE;
typedef int MOVES;
typedef int UNDOMOVE;
typedef signed char MEX;
typedef unsigned long int MEXCALC;
typedef int WINBY;
typedef int REMOTENESS;
typedef int DRAWLEVEL;
typedef char *STRING;
typedef const char *CONST_STRING;
typedef void *GENERIC_PTR;
typedef unsigned char BYTE;
typedef unsigned char UINT8;
typedef unsigned int UINT32;
typedef long long int INT64;
typedef unsigned long long int UINT64;
typedef unsigned long long int BITBOARD;
typedef UINT32 GMSTATUS;
#ifndef BOOLEAN
typedef int BOOLEAN;
#endif

#define INVALID_POSITION (~((POSITION)0))
#define NULL_POSITION (~((POSITION)0))

typedef enum value_enum { undecided, win, lose, tie, drawwin, drawlose, drawdraw } VALUE;
typedef enum menu_enum { BeforeEvaluation, Evaluated, Analysis } MENU;
typedef enum user_input_enum { Undo, Abort, Continue, Move, Configure, Switch } USERINPUT;
typedef enum play_opponent { AgainstComputer, AgainstHuman, ComputerComputer, AgainstEvaluator } OPPONENT;

typedef struct movelist_item {
    MOVE move;
    struct movelist_item *next;
} MOVELIST;

typedef struct tierlist_item {
    TIER tier;
    struct tierlist_item *next;
} TIERLIST;

typedef struct undomovelist_item {
    UNDOMOVE undomove;
    struct undomovelist_item *next;
} UNDOMOVELIST;

typedef struct positionlist_item {
    POSITION position;
    struct positionlist_item *next;
} POSITIONLIST, FRnode, POSITIONQUEUE;

typedef struct booleanlist_item {
    BOOLEAN value;
    struct booleanlist_item *next;
} BOOLEANLIST;

/* An edge of a multipart move (Classic's GamesmanUni support): the layer keeps the
 * type and its helpers so modules build; the host plays whole moves. */
typedef struct multipartedgelist_item {
    POSITION from;
    POSITION to;
    MOVE partMove;
    MOVE fullMove;
    BOOLEAN isTerminal;
    struct multipartedgelist_item *next;
} MULTIPARTEDGELIST;

typedef struct remotenesslist_item {
    REMOTENESS remoteness;
    struct remotenesslist_item *next;
} REMOTENESSLIST;

/* ---- constants ------------------------------------------------------------------- */

#ifndef FALSE
#define FALSE 0
#endif
#ifndef TRUE
#define TRUE 1
#endif
#define POSITION_FORMAT "%llu"
#define MAXINT2 1073741823
#define MAXNAME 15
#define MAXINPUTLENGTH 80
#define kPlayerOneTurn 1
#define kPlayerTwoTurn 0
#define kHumansTurn 1
#define kComputersTurn 0
#define MAX_POSITION_STRING_LENGTH 128
#define MAX_MOVE_STRING_LENGTH 32
#define MAX_MOVE_BUTTON_STRING_LENGTH 32

/* ---- globals a module defines ---------------------------------------------------- */

extern POSITION gNumberOfPositions;
extern POSITION gInitialPosition;
extern POSITION kBadPosition;
extern POSITION gMinimalPosition;
extern CONST_STRING kAuthorName;
extern CONST_STRING kGameName;
extern CONST_STRING kDBName;
extern BOOLEAN kPartizan;
extern BOOLEAN kDebugMenu;
extern BOOLEAN kGameSpecificMenu;
extern BOOLEAN kTieIsPossible;
extern BOOLEAN kLoopy;
extern BOOLEAN kDebugDetermineValue;
extern BOOLEAN kSupportsSymmetries;
extern void *gGameSpecificTclInit;
extern CONST_STRING kHelpGraphicInterface;
extern CONST_STRING kHelpTextInterface;
extern CONST_STRING kHelpOnYourTurn;
extern CONST_STRING kHelpStandardObjective;
extern CONST_STRING kHelpReverseObjective;
extern CONST_STRING kHelpTieOccursWhen;
extern CONST_STRING kHelpExample;

/* ---- hooks a module sets (in InitializeGame) ------------------------------------- */

extern POSITION (*gCanonicalPosition)(POSITION);
extern void (*gUndoMove)(MOVE);
extern POSITION (*gActualNumberOfPositionsOptFunPtr)(int);
extern void (*gPositionToStringFunPtr)(POSITION, char *);
extern STRING (*gCustomUnhash)(POSITION);
extern char (*gReturnTurn)(POSITION);
extern void *(*linearUnhash)(POSITION);
extern WINBY (*gPutWinBy)(POSITION);
extern BOOLEAN (*gGoAgain)(POSITION, MOVE);
extern BOOLEAN gSupportsMex;
extern STRING (*gGetVarStringPtr)(void);
extern POSITION (*gRandomInitialPositionFunPtr)(void);
extern MULTIPARTEDGELIST *(*gGenerateMultipartMoveEdgesFunPtr)(POSITION, MOVELIST *, POSITIONLIST *);
extern void (*gPositionStringToAutoGUIPositionStringFunPtr)(char *, char *);
extern void (*gPositionStringDoMoveFunPtr)(char *, MOVE, char *);
extern int (*gGenerateMovesEfficientFunPtr)(POSITION);
extern MOVE *gGenerateMovesArray;
extern POSITIONLIST *(*gEnumerateWithinStage)(int);
extern BOOLEAN kUsePureDraw;
extern BOOLEAN kUsesQuartoGamesman;

/* The Tier Gamesman. */
extern BOOLEAN kSupportsTierGamesman;
extern BOOLEAN kExclusivelyTierGamesman;
extern BOOLEAN kSupportsShardGamesman;
extern BOOLEAN kDebugTierMenu;
extern TIERLIST *(*gTierChildrenFunPtr)(TIER);
extern TIERPOSITION (*gNumberOfTierPositionsFunPtr)(TIER);
extern void (*gGetInitialTierPositionFunPtr)(TIER *, TIERPOSITION *);
extern BOOLEAN (*gIsLegalFunPtr)(POSITION);
extern UNDOMOVELIST *(*gGenerateUndoMovesToTierFunPtr)(POSITION, TIER);
extern POSITION (*gUnDoMoveFunPtr)(POSITION, UNDOMOVE);
extern STRING (*gTierToStringFunPtr)(TIER);
extern TIER gInitialTier;
extern TIERPOSITION gInitialTierPosition;

/* ---- core globals a module reads --------------------------------------------------- */

extern BOOLEAN gStandardGame;     /* FALSE: the misere variant */
extern BOOLEAN gSymmetries;
extern BOOLEAN gUseGPS;
extern BOOLEAN gWinBy;
extern BOOLEAN gPrintHints;
extern BOOLEAN gHashWindowInitialized;
extern BOOLEAN gTierGamesman;
extern BOOLEAN gCurrentTierIsLoopy;
extern TIER gCurrentTier;
extern TIERPOSITION gCurrentTierSize;
extern TIER kBadTier;
extern char gPlayerName[2][MAXNAME];
extern VALUE gValue;
extern MENU gMenuMode;
extern OPPONENT gOpponent;
extern int gTurnNumber;
extern Tcl_Interp *gTclInterp;
extern STRING gValueString[]; /* a VALUE's name, indexed by the VALUE */
extern BOOLEAN gIsInteract;      /* Classic's server mode: never, here */
extern BOOLEAN gLoadTierdbArray;
extern BOOLEAN gPrintPredictions;
extern BOOLEAN gPrintSEvalPredictions;
extern BOOLEAN gUnsolved;
extern BOOLEAN gHints;

/* ---- functions a module defines (the core calls them) ---------------------------- */

void InitializeGame(void);
POSITION DoMove(POSITION thePosition, MOVE theMove);
void PrintComputersMove(MOVE computersMove, STRING computersName);
VALUE Primitive(POSITION position);
void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn);
MOVELIST *GenerateMoves(POSITION position);
USERINPUT GetAndPrintPlayersMove(POSITION thePosition, MOVE *theMove, STRING playerName);
BOOLEAN ValidTextInput(STRING input);
MOVE ConvertTextInputToMove(STRING input);
#ifndef __cplusplus
void MoveToString(MOVE move, char *moveStringBuffer);
#else
/* C++ modules (Classic's mcon.cc) may still define the older STRING MoveToString(MOVE)
 * themselves, and call their PrintMove before defining it. */
void PrintMove(MOVE move);
#endif
int NumberOfOptions(void);
int getOption(void);
void setOption(int option);
void SetTclCGameSpecificOptions(int theOptions[]);
void GameSpecificMenu(void);
void DebugMenu(void);
POSITION StringToPosition(char *positionString);
void PositionToAutoGUIString(POSITION position, char *autoguiPositionStringBuffer);
void MoveToAutoGUIString(POSITION position, MOVE move, char *autoguiMoveStringBuffer);

/* ---- core functions a module calls ----------------------------------------------- */

/* Memory and lists. */
GENERIC_PTR SafeMalloc(size_t amount);
GENERIC_PTR SafeRealloc(GENERIC_PTR ptr, size_t amount);
void SafeFree(GENERIC_PTR ptr);
MOVELIST *CreateMovelistNode(MOVE theMove, MOVELIST *theNextMove);
MOVELIST *CopyMovelist(MOVELIST *list);
size_t MoveListLength(MOVELIST *ptr);
void FreeMoveList(MOVELIST *ptr);
TIERLIST *CreateTierlistNode(TIER theTier, TIERLIST *theNextTier);
void FreeTierList(TIERLIST *ptr);
BOOLEAN TierInList(TIER theTier, TIERLIST *theTierlist);
UNDOMOVELIST *CreateUndoMovelistNode(UNDOMOVE theUndoMove, UNDOMOVELIST *theNextUndoMove);
void FreeUndoMoveList(UNDOMOVELIST *ptr);
POSITIONLIST *StorePositionInList(POSITION thePosition, POSITIONLIST *thePositionList);
void FreePositionList(POSITIONLIST *ptr);
REMOTENESSLIST *CreateRemotenesslistNode(REMOTENESS theRemoteness, REMOTENESSLIST *theNextRemoteness);
void FreeRemotenessList(REMOTENESSLIST *ptr);

/* The generic hash: boards of `boardsize` cells with bounded counts of each piece. A
 * context per generic_hash_init; the current one is per thread. */
POSITION generic_hash_init(int boardsize, int pieces_array[], int (*vcfg_function_ptr)(int *cfg), int player);
POSITION generic_hash_hash(char *board, int player);
char *generic_hash_unhash(POSITION hashed, char *dest);
int generic_hash_turn(POSITION hashed);
void generic_hash_context_switch(int context);
int generic_hash_cur_context(void);
POSITION generic_hash_max_pos(void);
void generic_hash_destroy(void);
void generic_hash_custom_context_mode(BOOLEAN on);
void generic_hash_set_context(int context);
int generic_hash_context_init(void);
/* Symmetries of a rectangular board (boardType 0) for generic_hash_canonicalPosition,
 * which this sets as gCanonicalPosition (used only when gSymmetries is TRUE). */
void generic_hash_init_sym(int boardType, int numRows, int numCols, int *reflections, int numReflects, int *rotations,
                           int numRots, int flippable);
POSITION generic_hash_canonicalPosition(POSITION pos);
void generic_hash_add_sym(int *symToAdd);

/* The hash window of the Tier Gamesman. */
void gUnhashToTierPosition(POSITION position, TIERPOSITION *tierposition, TIER *tier);
POSITION gHashToWindowPosition(TIERPOSITION tierposition, TIER tier);
void gInitializeHashWindow(TIER tier, BOOLEAN loadDB);

/* Text and play. */
STRING GetPrediction(POSITION position, STRING playerName, BOOLEAN usersTurn);
STRING GetSEvalPrediction(POSITION position, STRING playerName, BOOLEAN usersTurn);
USERINPUT HandleDefaultTextInput(POSITION thePosition, MOVE *theMove, STRING playerName);
char GetMyChar(void);
int GetMyInt(void);
unsigned int GetMyUInt(void);
void GetMyStr(STRING str, int len);
void HitAnyKeyToContinue(void);
void BadMenuChoice(void);
void HelpMenus(void);
void BadElse(STRING function);
void ExitStageRight(void);
void ExitStageRightErrorString(STRING errorMsg);
BOOLEAN ValidMove(POSITION thePosition, MOVE theMove);
/* Reading "key=value" fields of a position string (",turn=1,board=..."); these parse
 * text and never read stdin, unlike GetMyChar & co. */
typedef BOOLEAN (*get_value_func_t)(char *, void *);
BOOLEAN GetValueInner(char *board_string, char *key, get_value_func_t func, void *target);
#define GetValue(board_string, key, func, target) GetValueInner((board_string), (key), (get_value_func_t)(func), (void *)(target))
BOOLEAN GetInt(char *value, int *placeholder);
BOOLEAN GetUnsignedLongLong(char *value, unsigned long long *placeholder);
BOOLEAN GetChar(char *value, char *placeholder);
STRING copyString(const char *s);
void PrintValueMoves(POSITION pos);
BOOLEAN PrintPossibleMoves(POSITION pos);
MULTIPARTEDGELIST *CreateMultipartEdgeListNode(POSITION from, POSITION to, MOVE partMove, MOVE fullMove,
                                               MULTIPARTEDGELIST *next);
void FreeMultipartEdgeList(MULTIPARTEDGELIST *ptr);
void FreeBooleanList(BOOLEANLIST *ptr);
int GetRandomNumber(int n);
int GetSmallRandomNumber(int n);
BOOLEAN DefaultGoAgain(POSITION pos, MOVE move);
VALUE DetermineValue(POSITION position);
void Initialize(void);
void InitializeDatabases(void);
VALUE GetValueOfPosition(POSITION position);
REMOTENESS Remoteness(POSITION position);

/* Position strings ("<turn>_<board>") and AutoGUI strings. */
BOOLEAN ParseStandardOnelinePositionString(char *positionString, int *turn, char **board);
BOOLEAN ParseAutoGUIFormattedPositionString(char *positionString, int *turn, char **entityString);
void AutoGUIMakePositionString(int turn, char *board, char *buf);
void AutoGUIMakeMoveButtonStringA(char token, unsigned int at, char sound, char *buf);
void AutoGUIMakeMoveButtonStringT(char *text, unsigned int at, char sound, char *buf);
void AutoGUIMakeMoveButtonStringM(unsigned int from, unsigned int to, char sound, char *buf);
void AutoGUIMakeMoveButtonStringL(unsigned int p1, unsigned int p2, char sound, char *buf);
void AutoGUIWriteEmptyString(char *buf);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* GAMESMAN_CLASSIC_GAMESMAN_H */
