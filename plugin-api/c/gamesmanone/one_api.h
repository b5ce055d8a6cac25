/*
 * one_api.h: the types, constants and functions GamesmanOne's game modules use from
 * GamesmanOne's core (v1.3.0 and pull request 27), declared for this compatibility
 * layer. The headers under core/ (the paths the games include) only include this one.
 *
 * Written for this project from the API's documented behaviour (see docs/gamesmanone.md);
 * no GamesmanOne source is copied here. Every game is compiled together with the layer
 * in one library, so only the names and types of struct fields must match what the
 * games write (they use designated initializers), not GamesmanOne's field order. The
 * structs are the union of v1.3.0's and pull request 27's fields.
 *
 * Must not: hold any game's rules, or anything the games do not use.
 */
#ifndef GAMESMANONE_LAYER_ONE_API_H
#define GAMESMANONE_LAYER_ONE_API_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- base types --------------------------------------------------------------- */

typedef int64_t Tier;
typedef int64_t Position;
typedef int64_t Move;
#define PRITier PRId64
#define PRIPos PRId64
#define PRIMove PRId64

typedef struct TierPosition {
    Tier tier;
    Position position;
} TierPosition;

/* GamesmanOne's values: note the order (lose 1, draw 2, tie 3, win 4). */
typedef enum Value {
    kErrorValue = -1,
    kUndecided = 0,
    kLose,
    kDraw,
    kTie,
    kWin,
    kNumValues
} Value;

typedef enum TierType {
    kTierTypeImmediateTransition, /* no child of the tier's positions lies in it */
    kTierTypeLoopFree,
    kTierTypeLoopy /* the default when a game does not say */
} TierType;

typedef const char *ReadOnlyString;
typedef const ReadOnlyString ConstantReadOnlyString;

/* Error codes; both names of code 5 (v1.3.0's and pull request 27's). */
enum GamesmanError {
    kNoError = 0,
    kMallocFailureError,
    kNotImplementedError,
    kNotReachedError,
    kIntegerOverflowError,
    kMemoryOverflowError,
    kBufferOverflowError = kMemoryOverflowError,
    kFileSystemError,
    kIllegalArgumentError,
    kIllegalGameNameError,
    kIllegalGameVariantError,
    kIllegalGameTierError,
    kIllegalGamePositionError,
    kIllegalGamePositionValueError,
    kIllegalGameTierGraphError,
    kIllegalSolverOptionError,
    kIncompleteGameplayApiError,
    kGameInitFailureError,
    kUseBeforeInitializationError,
    kMpiError,
    kHeadlessError,
    kGenericHashError,
    kRuntimeError,
    kGameTestFailureError
};

/* ---- constants ------------------------------------------------------------------ */

enum IntBase10StringLengthLimits {
    kInt8Base10StringLengthMax = 4,
    kUint8Base10StringLengthMax = 3,
    kInt16Base10StringLengthMax = 6,
    kUint16Base10StringLengthMax = 5,
    kInt32Base10StringLengthMax = 11,
    kUint32Base10StringLengthMax = 10,
    kInt64Base10StringLengthMax = 20,
    kUint64Base10StringLengthMax = 20
};
enum { kBitsPerByte = 8 };
enum { kDbFileNameLengthMax = 63 };
enum { kErrorRemoteness = -1 };
enum RemotenessLimits { kRemotenessMax = 1023, kNumRemotenesses };
enum GameConstants { kGameNameLengthMax = 31, kGameFormalNameLengthMax = 127 };
enum GameVariantOptionConstants { kGameVariantOptionNameMax = 63 };

extern const Tier kDefaultTier;
extern const Tier kIllegalTier;
extern const Position kIllegalPosition;
extern const TierPosition kIllegalTierPosition;
extern const Move kIllegalMove;
extern ConstantReadOnlyString kValueStrings[kNumValues];

/* ---- containers ----------------------------------------------------------------- */

/* A growable array of int64 (GamesmanOne's Int64Array; moves, positions, tiers). */
typedef struct Int64Array {
    int64_t *array;
    int64_t size;
    int64_t capacity;
} Int64Array;
typedef Int64Array MoveArray;
typedef Int64Array PositionArray;
typedef Int64Array TierArray;

void Int64ArrayInit(Int64Array *array);
void Int64ArrayDestroy(Int64Array *array);
bool Int64ArrayPushBack(Int64Array *array, int64_t item);
void Int64ArrayPopBack(Int64Array *array);
int64_t Int64ArrayBack(const Int64Array *array);
bool Int64ArrayContains(const Int64Array *array, int64_t item);
bool Int64ArrayInitCopy(Int64Array *dest, const Int64Array *src);
void MoveArrayInit(MoveArray *array);
void MoveArrayDestroy(MoveArray *array);
bool MoveArrayAppend(MoveArray *array, Move move);
bool MoveArrayPopBack(MoveArray *array);
bool MoveArrayContains(const MoveArray *array, Move move);
void PositionArrayInit(PositionArray *array);
void PositionArrayDestroy(PositionArray *array);
bool PositionArrayAppend(PositionArray *array, Position position);
bool PositionArrayContains(const PositionArray *array, Position position);
void TierArrayInit(TierArray *array);
void TierArrayDestroy(TierArray *array);
bool TierArrayAppend(TierArray *array, Tier tier);

/* An open-addressing set of int64 keys. Add returns true when the key was new
 * (pull request 27's meaning, which v1.3.0's callers also accept). */
typedef struct Int64HashSet {
    int64_t *keys;
    bool *used;
    int64_t capacity;
    int64_t size;
    double max_load_factor;
} Int64HashSet;
typedef Int64HashSet PositionHashSet;
typedef Int64HashSet TierHashSet;

void PositionHashSetInit(PositionHashSet *set, double max_load_factor);
void PositionHashSetDestroy(PositionHashSet *set);
bool PositionHashSetReserve(PositionHashSet *set, int64_t size);
bool PositionHashSetContains(PositionHashSet *set, Position position);
bool PositionHashSetAdd(PositionHashSet *set, Position position);
void TierHashSetInit(TierHashSet *set, double max_load_factor);
void TierHashSetDestroy(TierHashSet *set);
bool TierHashSetReserve(TierHashSet *set, int64_t size);
bool TierHashSetContains(const TierHashSet *set, Tier tier);
bool TierHashSetAdd(TierHashSet *set, Tier tier);

typedef struct TierPositionHashSet {
    TierPosition *keys;
    bool *used;
    int64_t capacity;
    int64_t size;
    double max_load_factor;
} TierPositionHashSet;

void TierPositionHashSetInit(TierPositionHashSet *set, double max_load_factor);
void TierPositionHashSetDestroy(TierPositionHashSet *set);
bool TierPositionHashSetReserve(TierPositionHashSet *set, int64_t size);
bool TierPositionHashSetContains(TierPositionHashSet *set, TierPosition key);
bool TierPositionHashSetAdd(TierPositionHashSet *set, TierPosition key);

/* A heap string; `str` NULL is the null string (also the error string). */
typedef struct CString {
    char *str;
    int64_t length;
    int64_t capacity;
} CString;
extern const CString kNullCString;
extern const CString kErrorCString;
bool CStringInitEmpty(CString *cstring);
bool CStringInitCopy(CString *init, const CString *other);
bool CStringInitCopyCharArray(CString *cstring, const char *src);
void CStringInitMove(CString *init, CString *other);
bool CStringAppend(CString *dest, const char *src);
bool CStringResize(CString *cstring, int64_t size, char fill);
bool CStringIsNull(const CString *cstring);
bool CStringError(const CString *cstring);
void CStringDestroy(CString *cstring);

/* ---- UWAPI helpers -------------------------------------------------------------- */

typedef struct Partmove {
    CString autogui_move;
    CString formal_move;
    CString from;
    CString to;
    CString full;
} Partmove;
typedef struct PartmoveArray {
    Partmove *array;
    int64_t size;
    int64_t capacity;
} PartmoveArray;
void PartMoveDestroy(Partmove *p);
void PartmoveArrayInit(PartmoveArray *pa);
void PartmoveArrayDestroy(PartmoveArray *pa);
int PartmoveArrayEmplaceBack(PartmoveArray *pa, CString *autogui_move, CString *formal_move,
                             CString *from, CString *to, CString *full);

CString AutoGuiMakePosition(int turn, ReadOnlyString entities);
CString AutoGuiMakeMoveA(char token, int center, char sound);
CString AutoGuiMakeMoveM(int src, int dest, char sound);
CString AutoGuiMakeMoveL(int src, int dest, char sound);
CString AutoGuiMakeMoveT(ReadOnlyString text, int center, char sound);

/* ---- misc ------------------------------------------------------------------------ */

/* GamesmanOne ends the process here; the layer reports and aborts the same way. */
void NotReached(ReadOnlyString message);
int64_t NChooseR(int n, int r);
int Popcount32(uint32_t x);
int Popcount64(uint64_t x);
int64_t SafeAddNonNegativeInt64(int64_t a, int64_t b);
int64_t SafeMultiplyNonNegativeInt64(int64_t a, int64_t b);
int64_t RoundUpDivide(int64_t n, int64_t d);

/* ---- games, variants, APIs ------------------------------------------------------- */

typedef struct GameVariantOption {
    char name[kGameVariantOptionNameMax + 1];
    int num_choices;
    const ConstantReadOnlyString *choices;
} GameVariantOption;

/* options: ends with an all-zero option; selections: one per option. */
typedef struct GameVariant {
    const GameVariantOption *options;
    const int *selections;
} GameVariant;
int GameVariantToIndex(const GameVariant *variant);

typedef struct GameplayApiCommon {
    Position (*GetInitialPosition)(void);
    int position_string_length_max;
    int move_string_length_max;
    int (*MoveToString)(Move move, char *buffer);
    bool (*IsValidMoveString)(ReadOnlyString move_string);
    Move (*StringToMove)(ReadOnlyString move_string);
} GameplayApiCommon;

typedef struct GameplayApiRegular {
    int (*PositionToString)(Position position, char *buffer);
    MoveArray (*GenerateMoves)(Position position);
    Position (*DoMove)(Position position, Move move);
    Value (*Primitive)(Position position);
} GameplayApiRegular;

typedef struct GameplayApiTier {
    Tier (*GetInitialTier)(void);
    int (*TierPositionToString)(TierPosition tier_position, char *buffer);
    MoveArray (*GenerateMoves)(TierPosition tier_position);
    TierPosition (*DoMove)(TierPosition tier_position, Move move);
    Value (*Primitive)(TierPosition tier_position);
} GameplayApiTier;

typedef struct GameplayApi {
    const GameplayApiCommon *common;
    const GameplayApiRegular *regular;
    const GameplayApiTier *tier;
} GameplayApi;

typedef struct UwapiRegular {
    MoveArray (*GenerateMoves)(Position position);
    Position (*DoMove)(Position position, Move move);
    Value (*Primitive)(Position position);
    bool (*IsLegalFormalPosition)(ReadOnlyString formal_position);
    Position (*FormalPositionToPosition)(ReadOnlyString formal_position);
    CString (*PositionToFormalPosition)(Position position);
    CString (*PositionToAutoGuiPosition)(Position position);
    CString (*MoveToFormalMove)(Position position, Move move);
    CString (*MoveToAutoGuiMove)(Position position, Move move);
    PartmoveArray (*GeneratePartmoves)(Position position);
    Position (*GetInitialPosition)(void);
    Position (*GetRandomLegalPosition)(void);
} UwapiRegular;

typedef struct UwapiTier {
    Tier (*GetInitialTier)(void);
    Position (*GetInitialPosition)(void);
    TierPosition (*GetRandomLegalTierPosition)(void);
    MoveArray (*GenerateMoves)(TierPosition tier_position);
    TierPosition (*DoMove)(TierPosition tier_position, Move move);
    Value (*Primitive)(TierPosition tier_position);
    bool (*IsLegalFormalPosition)(ReadOnlyString formal_position);
    TierPosition (*FormalPositionToTierPosition)(ReadOnlyString formal_position);
    CString (*TierPositionToFormalPosition)(TierPosition tier_position);
    CString (*TierPositionToAutoGuiPosition)(TierPosition tier_position);
    CString (*MoveToFormalMove)(TierPosition tier_position, Move move);
    CString (*MoveToAutoGuiMove)(TierPosition tier_position, Move move);
    PartmoveArray (*GeneratePartmoves)(TierPosition tier_position);
} UwapiTier;

typedef struct Uwapi {
    const UwapiRegular *regular;
    const UwapiTier *tier;
} Uwapi;

/* A solver is only ever named by address (&kTierSolver, &kRegularSolver). */
typedef struct Solver {
    const char *name;
} Solver;
extern const Solver kTierSolver;
extern const Solver kRegularSolver;

typedef struct Game {
    char name[kGameNameLengthMax + 1];
    char formal_name[kGameFormalNameLengthMax + 1];
    const Solver *solver;
    const void *solver_api;
    const GameplayApi *gameplay_api;
    const Uwapi *uwapi;
    int (*Init)(void *aux);
    int (*Finalize)(void);
    const GameVariant *(*GetCurrentVariant)(void);
    int (*SetVariantOption)(int option, int selection);
} Game;

/* Tier solver: capacities of the arrays it hands the game. Pull request 27 raised the
 * move limit to 4096; the larger is given to every game (an upper bound for both). */
enum TierSolverConstants {
    kTierSolverNumMovesMax = 4096,
    kTierSolverNumChildPositionsMax = kTierSolverNumMovesMax,
    kTierSolverNumParentPositionsMax = kTierSolverNumMovesMax,
    kTierSolverNumChildTiersMax = 128
};

typedef struct TierSolverApi {
    Tier (*GetInitialTier)(void);
    Position (*GetInitialPosition)(void);
    int64_t (*GetTierSize)(Tier tier);
    int (*GenerateMoves)(TierPosition tier_position, Move moves[static kTierSolverNumMovesMax]);
    Value (*Primitive)(TierPosition tier_position);
    TierPosition (*DoMove)(TierPosition tier_position, Move move);
    bool (*IsLegalPosition)(TierPosition tier_position);
    Position (*GetCanonicalPosition)(TierPosition tier_position);
    int (*GetNumberOfCanonicalChildPositions)(TierPosition tier_position);
    int (*GetCanonicalChildPositions)(TierPosition tier_position,
                                      TierPosition children[static kTierSolverNumChildPositionsMax]);
    int (*GetCanonicalParentPositions)(TierPosition child, Tier parent_tier,
                                       Position parents[static kTierSolverNumParentPositionsMax]);
    Position (*GetPositionInSymmetricTier)(TierPosition tier_position, Tier symmetric);
    int (*GetChildTiers)(Tier tier, Tier child_tiers[static kTierSolverNumChildTiersMax]);
    TierType (*GetTierType)(Tier tier);
    Tier (*GetCanonicalTier)(Tier tier);
    int (*GetTierName)(Tier tier, char name[static kDbFileNameLengthMax + 1]);
    /* pull request 27 */
    int (*GetNumberOfSymmetries)(TierPosition tier_position);
    int position_string_length_max;
    int (*TierPositionToString)(TierPosition tier_position, char *buffer);
} TierSolverApi;

enum RegularSolverConstants {
    kRegularSolverNumMovesMax = 1024,
    kRegularSolverNumChildPositionsMax = kRegularSolverNumMovesMax,
    kRegularSolverNumParentPositionsMax = kRegularSolverNumMovesMax
};

typedef struct RegularSolverApi {
    int64_t (*GetNumPositions)(void);
    Position (*GetInitialPosition)(void);
    int (*GenerateMoves)(Position position, Move moves[static kRegularSolverNumMovesMax]);
    Value (*Primitive)(Position position);
    Position (*DoMove)(Position position, Move move);
    bool (*IsLegalPosition)(Position position);
    Position (*GetCanonicalPosition)(Position position);
    int (*GetNumberOfCanonicalChildPositions)(Position position);
    int (*GetCanonicalChildPositions)(Position position,
                                      Position children[static kRegularSolverNumChildPositionsMax]);
    int (*GetCanonicalParentPositions)(Position position,
                                       Position parents[static kRegularSolverNumParentPositionsMax]);
} RegularSolverApi;

/* ---- GamesmanOne's generic hash ---------------------------------------------------- */

void GenericHashReinitialize(void);
bool GenericHashAddContext(int player, int board_size, const int *pieces_init_array,
                           bool (*IsValidConfig)(const int *config), int64_t label);
Position GenericHashNumPositions(void);
Position GenericHashHash(const char *board, int turn);
bool GenericHashUnhash(Position hash, char *board);
int GenericHashGetTurn(Position hash);
Position GenericHashNumPositionsLabel(int64_t context_label);
Position GenericHashHashLabel(int64_t context_label, const char *board, int turn);
bool GenericHashUnhashLabel(int64_t context_label, Position hash, char *board);
int GenericHashGetTurnLabel(int64_t context_label, Position hash);

#ifdef __cplusplus
}
#endif

#endif /* GAMESMANONE_LAYER_ONE_API_H */
