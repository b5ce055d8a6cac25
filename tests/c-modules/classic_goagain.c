/************************************************************************
**
** NAME:        classic_goagain.c
**
** DESCRIPTION: A GamesmanClassic module with go-again moves and WinBy, the
**              test of the compatibility layer's turn tracking: a pile of
**              7 tokens; a move takes 1, 2 or 3 of them, and taking 2 lets
**              the same player move again (gGoAgain). When the pile is
**              empty, whoever took more tokens wins, by the difference
**              (gPutWinBy: player one's tokens minus player two's).
**
**              POSITION = ((tokens * 15) + (difference + 7)) * 2 + (turn - 1)
**
************************************************************************/

#include "gamesman.h"

CONST_STRING kGameName = "Pile with go-again";
CONST_STRING kAuthorName = "the gamesman-rs team";
CONST_STRING kDBName = "classic_goagain";
POSITION gNumberOfPositions = 8 * 15 * 2;
POSITION gInitialPosition = ((7 * 15) + 7) * 2;
POSITION kBadPosition = -1;
POSITION gMinimalPosition = 0;
BOOLEAN kPartizan = TRUE;
BOOLEAN kDebugMenu = FALSE;
BOOLEAN kGameSpecificMenu = FALSE;
BOOLEAN kTieIsPossible = FALSE;
BOOLEAN kLoopy = FALSE;
BOOLEAN kDebugDetermineValue = FALSE;
BOOLEAN kSupportsSymmetries = FALSE;
void *gGameSpecificTclInit = NULL;
CONST_STRING kHelpGraphicInterface = "";
CONST_STRING kHelpTextInterface = "";
CONST_STRING kHelpOnYourTurn = "";
CONST_STRING kHelpStandardObjective = "Take more tokens than your opponent.";
CONST_STRING kHelpReverseObjective = "";
CONST_STRING kHelpTieOccursWhen = "";
CONST_STRING kHelpExample = "";

static int Tokens(POSITION p) { return (int)(p / 2 / 15); }
static int Difference(POSITION p) { return (int)(p / 2 % 15) - 7; }
static int Turn(POSITION p) { return (int)(p % 2) + 1; }
static POSITION Make(int tokens, int difference, int turn) {
    return ((POSITION)(tokens * 15 + difference + 7)) * 2 + (POSITION)(turn - 1);
}

static BOOLEAN GoAgain(POSITION position, MOVE move) {
    (void)position;
    return move == 2;
}

static WINBY PutWinBy(POSITION position) { return Difference(position); }

void InitializeGame(void) {
    gGoAgain = &GoAgain;
    gPutWinBy = &PutWinBy;
}

VALUE Primitive(POSITION position) {
    if (Tokens(position) > 0) return undecided;
    int one_ahead = Difference(position) > 0;
    return (Turn(position) == 1) == one_ahead ? win : lose;
}

MOVELIST *GenerateMoves(POSITION position) {
    MOVELIST *moves = NULL;
    int take;
    for (take = 3; take >= 1; take--)
        if (take <= Tokens(position)) moves = CreateMovelistNode(take, moves);
    return moves;
}

POSITION DoMove(POSITION position, MOVE move) {
    int turn = Turn(position);
    int difference = Difference(position) + (turn == 1 ? move : -move);
    int next = move == 2 ? turn : 3 - turn;
    return Make(Tokens(position) - move, difference, next);
}

void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    printf("%d tokens, player one ahead by %d%s\n", Tokens(position), Difference(position),
           GetPrediction(position, playerName, usersTurn));
}

void PrintComputersMove(MOVE computersMove, STRING computersName) { printf("%s takes %d\n", computersName, computersMove); }
USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING playerName) {
    return HandleDefaultTextInput(position, move, playerName);
}
BOOLEAN ValidTextInput(STRING input) { return input[0] >= '1' && input[0] <= '3' && input[1] == '\0'; }
MOVE ConvertTextInputToMove(STRING input) { return input[0] - '0'; }
void MoveToString(MOVE move, char *buffer) { snprintf(buffer, MAX_MOVE_STRING_LENGTH, "%d", move); }
int NumberOfOptions(void) { return 1; }
int getOption(void) { return 1; }
void setOption(int option) { (void)option; }
void GameSpecificMenu(void) {}
void DebugMenu(void) {}
void SetTclCGameSpecificOptions(int theOptions[]) { (void)theOptions; }
POSITION StringToPosition(char *positionString) { (void)positionString; return NULL_POSITION; }
void PositionToAutoGUIString(POSITION position, char *buffer) { (void)position; AutoGUIWriteEmptyString(buffer); }
void MoveToAutoGUIString(POSITION position, MOVE move, char *buffer) {
    (void)position, (void)move;
    AutoGUIWriteEmptyString(buffer);
}
