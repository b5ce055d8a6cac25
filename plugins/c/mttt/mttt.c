/************************************************************************
**
** NAME:        mttt.c
**
** DESCRIPTION: Tic-Tac-Toe, written the GamesmanClassic way (the regular
**              API: one global hash, Primitive, GenerateMoves, DoMove,
**              text input and output, options), for gamesman-rs's
**              GamesmanClassic compatibility layer, which builds it
**              unchanged (see the build line below this comment).
**
** OPTIONS:     1 standard, 2 misere (three in a row loses), 3 and 4 the
**              same with the board's symmetries reduced (gCanonicalPosition).
**
** AUTHOR:      the gamesman-rs team (written fresh for this repository)
**
************************************************************************/

// cc -O2 -shared -fPIC -DNO_GRAPHICS -I plugin-api/c/classic plugins/c/mttt/mttt.c plugin-api/c/classic/*.c -o libmttt.so

#include "gamesman.h"

/*************************************************************************
** Game-specific constants and globals the core reads
*************************************************************************/

CONST_STRING kGameName = "Tic-Tac-Toe";
CONST_STRING kAuthorName = "the gamesman-rs team";
CONST_STRING kDBName = "mttt";

POSITION gNumberOfPositions = 0; /* set by InitializeGame */
POSITION gInitialPosition = 0;   /* set by InitializeGame */
POSITION kBadPosition = -1;
POSITION gMinimalPosition = 0;

BOOLEAN kPartizan = TRUE;
BOOLEAN kDebugMenu = FALSE;
BOOLEAN kGameSpecificMenu = TRUE;
BOOLEAN kTieIsPossible = TRUE;
BOOLEAN kLoopy = FALSE;
BOOLEAN kDebugDetermineValue = FALSE;
BOOLEAN kSupportsSymmetries = TRUE;
void *gGameSpecificTclInit = NULL;

CONST_STRING kHelpGraphicInterface = "";
CONST_STRING kHelpTextInterface =
    "Type the number of an empty cell (1-9, row by row from the top left) to put your piece there.";
CONST_STRING kHelpOnYourTurn = "Pick an empty cell, 1 to 9.";
CONST_STRING kHelpStandardObjective = "Get three of your pieces in a row, column or diagonal.";
CONST_STRING kHelpReverseObjective = "Force your opponent to get three in a row.";
CONST_STRING kHelpTieOccursWhen = "the board fills up without three in a row.";
CONST_STRING kHelpExample = "";

/*************************************************************************
** Internal representation
*************************************************************************/

#define BOARDSIZE 9
#define X_PIECE 'x'
#define O_PIECE 'o'
#define BLANK_PIECE '-'

static int option = 1;          /* 1..4, see OPTIONS above */
static char scratch[BOARDSIZE]; /* the board unhashed last, as Classic modules do */

static const int kLines[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

static const int kSymmetries[8][BOARDSIZE] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8}, {2, 5, 8, 1, 4, 7, 0, 3, 6}, {8, 7, 6, 5, 4, 3, 2, 1, 0},
    {6, 3, 0, 7, 4, 1, 8, 5, 2}, {2, 1, 0, 5, 4, 3, 8, 7, 6}, {6, 7, 8, 3, 4, 5, 0, 1, 2},
    {0, 3, 6, 1, 4, 7, 2, 5, 8}, {8, 5, 2, 7, 4, 1, 6, 3, 0},
};

/* X moves first, so X has as many pieces as O or one more. */
static int ValidCounts(int *counts) { return counts[0] == counts[1] || counts[0] == counts[1] + 1; }

static BOOLEAN ThreeInARow(char *board, char piece) {
    int line;
    for (line = 0; line < 8; line++)
        if (board[kLines[line][0]] == piece && board[kLines[line][1]] == piece && board[kLines[line][2]] == piece)
            return TRUE;
    return FALSE;
}

static BOOLEAN AllFilledIn(char *board) {
    int i;
    for (i = 0; i < BOARDSIZE; i++)
        if (board[i] == BLANK_PIECE) return FALSE;
    return TRUE;
}

static POSITION GetCanonicalPosition(POSITION position) {
    char turned[BOARDSIZE];
    POSITION best = position, candidate;
    int s, i, player = generic_hash_turn(position);
    generic_hash_unhash(position, scratch);
    for (s = 1; s < 8; s++) {
        for (i = 0; i < BOARDSIZE; i++) turned[kSymmetries[s][i]] = scratch[i];
        candidate = generic_hash_hash(turned, player);
        if (candidate < best) best = candidate;
    }
    return best;
}

void PositionToString(POSITION position, char *positionStringBuffer);

/*************************************************************************
** Initialization
*************************************************************************/

void InitializeGame(void) {
    int pieces[] = {X_PIECE, 0, 5, O_PIECE, 0, 4, BLANK_PIECE, 0, 9, -1};
    char board[BOARDSIZE];
    int i;

    generic_hash_destroy();
    gNumberOfPositions = generic_hash_init(BOARDSIZE, pieces, ValidCounts, 0);
    for (i = 0; i < BOARDSIZE; i++) board[i] = BLANK_PIECE;
    gInitialPosition = generic_hash_hash(board, 1);
    gPositionToStringFunPtr = &PositionToString;
    gCanonicalPosition = option > 2 ? &GetCanonicalPosition : NULL;
    gSymmetries = option > 2; /* Classic's core uses gCanonicalPosition only then */
}

/*************************************************************************
** The game
*************************************************************************/

MOVELIST *GenerateMoves(POSITION position) {
    MOVELIST *moves = NULL;
    int i;
    generic_hash_unhash(position, scratch);
    for (i = BOARDSIZE - 1; i >= 0; i--)
        if (scratch[i] == BLANK_PIECE) moves = CreateMovelistNode(i, moves);
    return moves;
}

POSITION DoMove(POSITION position, MOVE move) {
    int player = generic_hash_turn(position);
    generic_hash_unhash(position, scratch);
    if (move < 0 || move >= BOARDSIZE || scratch[move] != BLANK_PIECE) BadElse("DoMove");
    scratch[move] = player == 1 ? X_PIECE : O_PIECE;
    return generic_hash_hash(scratch, player == 1 ? 2 : 1);
}

VALUE Primitive(POSITION position) {
    char last;
    generic_hash_unhash(position, scratch);
    last = generic_hash_turn(position) == 1 ? O_PIECE : X_PIECE;
    if (ThreeInARow(scratch, last)) return gStandardGame ? lose : win;
    if (AllFilledIn(scratch)) return tie;
    return undecided;
}

/*************************************************************************
** Text
*************************************************************************/

void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    int row;
    generic_hash_unhash(position, scratch);
    printf("\n");
    for (row = 0; row < 3; row++)
        printf("         ( %d %d %d )           : %c %c %c\n", 3 * row + 1, 3 * row + 2, 3 * row + 3,
               scratch[3 * row], scratch[3 * row + 1], scratch[3 * row + 2]);
    printf("%s\n", GetPrediction(position, playerName, usersTurn));
}

void PrintComputersMove(MOVE computersMove, STRING computersName) {
    printf("%8s's move              : %d\n", computersName, computersMove + 1);
}

void PrintMove(MOVE move) { printf("%d", move + 1); }

void MoveToString(MOVE move, char *moveStringBuffer) { snprintf(moveStringBuffer, MAX_MOVE_STRING_LENGTH, "%d", move + 1); }

USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING playerName) {
    USERINPUT input;
    for (;;) {
        printf("%8s's move [(u)ndo/1-9] : ", playerName);
        input = HandleDefaultTextInput(position, move, playerName);
        if (input != Continue) return input;
    }
}

BOOLEAN ValidTextInput(STRING input) { return input[0] >= '1' && input[0] <= '9' && input[1] == '\0'; }

MOVE ConvertTextInputToMove(STRING input) { return input[0] - '1'; }

void PositionToString(POSITION position, char *positionStringBuffer) {
    generic_hash_unhash(position, scratch);
    snprintf(positionStringBuffer, MAX_POSITION_STRING_LENGTH, "%d_%.9s", generic_hash_turn(position), scratch);
}

POSITION StringToPosition(char *positionString) {
    int turn, i;
    char *board;
    if (!ParseStandardOnelinePositionString(positionString, &turn, &board)) return NULL_POSITION;
    if (strlen(board) != BOARDSIZE || turn < 1) return NULL_POSITION;
    int counts[2] = {0, 0};
    for (i = 0; i < BOARDSIZE; i++) {
        if (board[i] == X_PIECE) counts[0]++;
        else if (board[i] == O_PIECE) counts[1]++;
        else if (board[i] != BLANK_PIECE) return NULL_POSITION;
    }
    if (!ValidCounts(counts)) return NULL_POSITION;
    return generic_hash_hash(board, turn);
}

void PositionToAutoGUIString(POSITION position, char *autoguiPositionStringBuffer) {
    char board[BOARDSIZE + 1];
    generic_hash_unhash(position, board);
    board[BOARDSIZE] = '\0';
    AutoGUIMakePositionString(generic_hash_turn(position), board, autoguiPositionStringBuffer);
}

void MoveToAutoGUIString(POSITION position, MOVE move, char *autoguiMoveStringBuffer) {
    (void)position;
    AutoGUIMakeMoveButtonStringA('-', move, 'x', autoguiMoveStringBuffer);
}

/*************************************************************************
** Options
*************************************************************************/

int NumberOfOptions(void) { return 4; }

int getOption(void) { return option; }

void setOption(int theOption) {
    if (theOption < 1 || theOption > NumberOfOptions()) BadElse("setOption");
    option = theOption;
    gStandardGame = option % 2 == 1;
}

void GameSpecificMenu(void) {}

void DebugMenu(void) {}

void SetTclCGameSpecificOptions(int theOptions[]) { (void)theOptions; }
