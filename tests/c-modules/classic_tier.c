/************************************************************************
**
** NAME:        classic_tier.c
**
** DESCRIPTION: Tic-Tac-Toe as a GamesmanClassic Tier Gamesman module, the
**              test of the compatibility layer's tier path: a generic hash
**              context per tier (custom context numbers), hash-window
**              positions (gUnhashToTierPosition, gHashToWindowPosition),
**              TierChildren, NumberOfTierPositions, IsLegal, undo moves
**              (GenerateUndoMovesToTier, UnDoMove) and TierToString.
**
**              Tier t holds the boards with t pieces placed; X moves
**              first. Written fresh for gamesman-rs's tests.
**
**              With -DCLASSIC_QUIRKS it also does two things Classic's own
**              modules do and Classic tolerates: undo moves answered towards
**              the position's own (non-loopy) tier, which Classic's tier
**              solver never asks (mbaghchal, mtttwo), and move texts padded
**              with a leading space, "%2d", that no ValidTextInput reads
**              (mbeeline).
**
************************************************************************/

// cc -O2 -shared -fPIC -DNO_GRAPHICS -I plugin-api/c/classic tests/c-modules/classic_tier.c plugin-api/c/classic/*.c -o libclassic_tier.so

#include "gamesman.h"

CONST_STRING kGameName = "Tic-Tac-Toe by tiers";
CONST_STRING kAuthorName = "the gamesman-rs team";
CONST_STRING kDBName = "classic_tier";

POSITION gNumberOfPositions = 0;
POSITION gInitialPosition = 0;
POSITION kBadPosition = -1;
POSITION gMinimalPosition = 0;
BOOLEAN kPartizan = TRUE;
BOOLEAN kDebugMenu = FALSE;
BOOLEAN kGameSpecificMenu = FALSE;
BOOLEAN kTieIsPossible = TRUE;
BOOLEAN kLoopy = FALSE;
BOOLEAN kDebugDetermineValue = FALSE;
BOOLEAN kSupportsSymmetries = FALSE;
void *gGameSpecificTclInit = NULL;
CONST_STRING kHelpGraphicInterface = "";
CONST_STRING kHelpTextInterface = "";
CONST_STRING kHelpOnYourTurn = "";
CONST_STRING kHelpStandardObjective = "Three in a row.";
CONST_STRING kHelpReverseObjective = "";
CONST_STRING kHelpTieOccursWhen = "the board is full.";
CONST_STRING kHelpExample = "";

#define BOARDSIZE 9

static const int kLines[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

static char PieceToMove(TIER tier) { return tier % 2 == 0 ? 'x' : 'o'; }

static BOOLEAN Line(char *b, char piece) {
    int l;
    for (l = 0; l < 8; l++)
        if (b[kLines[l][0]] == piece && b[kLines[l][1]] == piece && b[kLines[l][2]] == piece) return TRUE;
    return FALSE;
}

/* The board and tier of a window position (switching to the tier's hash context). */
static TIER Unhash(POSITION position, char *board) {
    TIERPOSITION tp;
    TIER tier;
    gUnhashToTierPosition(position, &tp, &tier);
    generic_hash_context_switch((int)tier);
    generic_hash_unhash(tp, board);
    return tier;
}

static POSITION Hash(char *board, TIER tier) {
    generic_hash_context_switch((int)tier);
    return gHashToWindowPosition(generic_hash_hash(board, tier % 2 == 0 ? 1 : 2), tier);
}

static VALUE BoardValue(char *board, TIER tier) {
    int i;
    if (Line(board, tier % 2 == 0 ? 'o' : 'x')) return lose;
    for (i = 0; i < BOARDSIZE; i++)
        if (board[i] == '-') return undecided;
    return tie;
}

static BOOLEAN LegalBoard(char *b) {
    BOOLEAN xl = Line(b, 'x'), ol = Line(b, 'o');
    int xs = 0, os = 0, i;
    for (i = 0; i < BOARDSIZE; i++) {
        xs += b[i] == 'x';
        os += b[i] == 'o';
    }
    if (xl && ol) return FALSE;
    if (xl) return xs == os + 1;
    if (ol) return xs == os;
    return TRUE;
}

static TIERLIST *TierChildren(TIER tier) { return tier < 9 ? CreateTierlistNode(tier + 1, NULL) : NULL; }

static TIERPOSITION NumberOfTierPositions(TIER tier) {
    generic_hash_context_switch((int)tier);
    return generic_hash_max_pos();
}

static BOOLEAN IsLegal(POSITION position) {
    char board[BOARDSIZE];
    Unhash(position, board);
    return LegalBoard(board);
}

static UNDOMOVELIST *GenerateUndoMovesToTier(POSITION position, TIER tier) {
    char board[BOARDSIZE];
    TIER own = Unhash(position, board);
    UNDOMOVELIST *undo = NULL;
    int i;
#ifdef CLASSIC_QUIRKS
    if (own == 0 || (tier != own - 1 && tier != own)) return NULL;
#else
    if (own == 0 || tier != own - 1) return NULL;
#endif
    char last = PieceToMove(own - 1);
    for (i = 0; i < BOARDSIZE; i++) {
        if (board[i] != last) continue;
        board[i] = '-';
        if (LegalBoard(board) && BoardValue(board, own - 1) == undecided) undo = CreateUndoMovelistNode(i, undo);
        board[i] = last;
    }
    return undo;
}

static POSITION UnDoMove(POSITION position, UNDOMOVE undo) {
    char board[BOARDSIZE];
    TIER tier = Unhash(position, board);
    if (tier == 0 || board[undo] == '-') BadElse("UnDoMove");
    board[undo] = '-';
    return Hash(board, tier - 1);
}

static STRING TierToString(TIER tier) {
    STRING name = SafeMalloc(32);
    snprintf(name, 32, "%llu pieces", tier);
    return name;
}

#ifdef CLASSIC_TIER_WINBY
/* Built with -DCLASSIC_TIER_WINBY, the module has a WinBy hook (a margin of 1 for
 * every win), and the layer then keeps the turn in its tier index. */
static WINBY PutWinBy(POSITION position) {
    (void)position;
    return 1;
}
#endif

void InitializeGame(void) {
    char board[BOARDSIZE];
    int tier, i;
    generic_hash_destroy();
    generic_hash_custom_context_mode(TRUE);
    for (tier = 0; tier <= 9; tier++) {
        int xs = (tier + 1) / 2, os = tier / 2;
        int pieces[] = {'x', xs, xs, 'o', os, os, '-', 9 - tier, 9 - tier, -1};
        generic_hash_init(BOARDSIZE, pieces, NULL, tier % 2 == 0 ? 1 : 2);
        generic_hash_set_context(tier);
    }
    kSupportsTierGamesman = TRUE;
    kExclusivelyTierGamesman = TRUE;
    gTierChildrenFunPtr = &TierChildren;
    gNumberOfTierPositionsFunPtr = &NumberOfTierPositions;
    gIsLegalFunPtr = &IsLegal;
    gGenerateUndoMovesToTierFunPtr = &GenerateUndoMovesToTier;
    gUnDoMoveFunPtr = &UnDoMove;
    gTierToStringFunPtr = &TierToString;
#ifdef CLASSIC_TIER_WINBY
    gPutWinBy = &PutWinBy;
#endif
    for (i = 0; i < BOARDSIZE; i++) board[i] = '-';
    generic_hash_context_switch(0);
    gInitialTier = 0;
    gInitialTierPosition = generic_hash_hash(board, 1);
}

VALUE Primitive(POSITION position) {
    char board[BOARDSIZE];
    TIER tier = Unhash(position, board);
    return BoardValue(board, tier);
}

MOVELIST *GenerateMoves(POSITION position) {
    char board[BOARDSIZE];
    MOVELIST *moves = NULL;
    int i;
    Unhash(position, board);
    for (i = BOARDSIZE - 1; i >= 0; i--)
        if (board[i] == '-') moves = CreateMovelistNode(i, moves);
    return moves;
}

POSITION DoMove(POSITION position, MOVE move) {
    char board[BOARDSIZE];
    TIER tier = Unhash(position, board);
    if (board[move] != '-') BadElse("DoMove");
    board[move] = PieceToMove(tier);
    return Hash(board, tier + 1);
}

void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    char board[BOARDSIZE];
    int r;
    Unhash(position, board);
    for (r = 0; r < 3; r++) printf("  %c %c %c\n", board[3 * r], board[3 * r + 1], board[3 * r + 2]);
    printf("%s", GetPrediction(position, playerName, usersTurn));
}

void PrintComputersMove(MOVE computersMove, STRING computersName) { printf("%s: %d\n", computersName, computersMove + 1); }
USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING playerName) {
    return HandleDefaultTextInput(position, move, playerName);
}
#ifdef CLASSIC_QUIRKS
/* Typed moves are taken only as the module prints them. */
BOOLEAN ValidTextInput(STRING input) { return input == NULL; }
#else
BOOLEAN ValidTextInput(STRING input) { return input[0] >= '1' && input[0] <= '9' && input[1] == '\0'; }
#endif
MOVE ConvertTextInputToMove(STRING input) { return input[0] - '1'; }
#ifdef CLASSIC_QUIRKS
void MoveToString(MOVE move, char *buffer) { snprintf(buffer, MAX_MOVE_STRING_LENGTH, "%2d", move + 1); }
#else
void MoveToString(MOVE move, char *buffer) { snprintf(buffer, MAX_MOVE_STRING_LENGTH, "%d", move + 1); }
#endif
int NumberOfOptions(void) { return 1; }
int getOption(void) { return 1; }
void setOption(int option) { (void)option; }
void GameSpecificMenu(void) {}
void DebugMenu(void) {}
void SetTclCGameSpecificOptions(int theOptions[]) { (void)theOptions; }

POSITION StringToPosition(char *positionString) {
    int turn, i, placed = 0;
    char *board;
    if (!ParseStandardOnelinePositionString(positionString, &turn, &board) || strlen(board) != BOARDSIZE)
        return NULL_POSITION;
    for (i = 0; i < BOARDSIZE; i++) placed += board[i] != '-';
    return Hash(board, (TIER)placed);
}

void PositionToAutoGUIString(POSITION position, char *buffer) {
    char board[BOARDSIZE + 1];
    TIER tier = Unhash(position, board);
    board[BOARDSIZE] = '\0';
    AutoGUIMakePositionString(tier % 2 == 0 ? 1 : 2, board, buffer);
}

void MoveToAutoGUIString(POSITION position, MOVE move, char *buffer) {
    (void)position;
    AutoGUIMakeMoveButtonStringA('-', move, 'x', buffer);
}
