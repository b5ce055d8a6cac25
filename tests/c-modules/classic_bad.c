/************************************************************************
**
** NAME:        classic_bad.c
**
** DESCRIPTION: A small GamesmanClassic module (a pile of 7 tokens, take 1
**              or 2, who cannot move loses) and, with one -D flag each,
**              the ways a Classic module ends or breaks the program, which
**              the compatibility layer must turn into reported errors:
**
**   -DEXIT_IN_DOMOVE        DoMove calls exit(3)
**   -DBADELSE_IN_PRIMITIVE  Primitive calls BadElse
**   -DASSERT_IN_GENERATE    GenerateMoves fails an assert()
**   -DABORT_IN_PRINT        PrintPosition calls abort()
**   -DNO_PRIMITIVE          the module defines no Primitive
**   -DMANY_MOVES            GenerateMoves lists 300 moves (all take one)
**
************************************************************************/

#include "gamesman.h"

CONST_STRING kGameName = "Pile";
CONST_STRING kAuthorName = "the gamesman-rs team";
CONST_STRING kDBName = "classic_bad";
POSITION gNumberOfPositions = 8;
POSITION gInitialPosition = 7;
POSITION kBadPosition = -1;
POSITION gMinimalPosition = 0;
BOOLEAN kPartizan = FALSE;
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
CONST_STRING kHelpStandardObjective = "Take the last token.";
CONST_STRING kHelpReverseObjective = "";
CONST_STRING kHelpTieOccursWhen = "";
CONST_STRING kHelpExample = "";

void InitializeGame(void) {}

#ifndef NO_PRIMITIVE
VALUE Primitive(POSITION position) {
#ifdef BADELSE_IN_PRIMITIVE
    if (position == 5) BadElse("Primitive");
#endif
    return position == 0 ? lose : undecided;
}
#endif

MOVELIST *GenerateMoves(POSITION position) {
    MOVELIST *moves = NULL;
#ifdef ASSERT_IN_GENERATE
    assert(position != 4);
#endif
#ifdef MANY_MOVES
    for (int i = 0; i < 300; i++) moves = CreateMovelistNode(1, moves);
    return moves;
#endif
    if (position >= 2) moves = CreateMovelistNode(2, moves);
    if (position >= 1) moves = CreateMovelistNode(1, moves);
    return moves;
}

POSITION DoMove(POSITION position, MOVE move) {
#ifdef EXIT_IN_DOMOVE
    if (position == 6) exit(3);
#endif
    return position - (POSITION)move;
}

void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn) {
#ifdef ABORT_IN_PRINT
    abort();
#endif
    printf("%llu tokens%s\n", position, GetPrediction(position, playerName, usersTurn));
}

void PrintComputersMove(MOVE computersMove, STRING computersName) { printf("%s takes %d\n", computersName, computersMove); }
USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING playerName) {
    return HandleDefaultTextInput(position, move, playerName);
}
BOOLEAN ValidTextInput(STRING input) { return input[0] == '1' || input[0] == '2'; }
MOVE ConvertTextInputToMove(STRING input) { return input[0] - '0'; }
void MoveToString(MOVE move, char *buffer) { snprintf(buffer, MAX_MOVE_STRING_LENGTH, "%d", move); }
int NumberOfOptions(void) { return 1; }
int getOption(void) { return 1; }
void setOption(int option) { (void)option; }
void GameSpecificMenu(void) {}
void DebugMenu(void) {}
void SetTclCGameSpecificOptions(int theOptions[]) { (void)theOptions; }
POSITION StringToPosition(char *positionString) { (void)positionString; return NULL_POSITION; }
void PositionToAutoGUIString(POSITION position, char *buffer) { AutoGUIMakePositionString(1, "", buffer); (void)position; }
void MoveToAutoGUIString(POSITION position, MOVE move, char *buffer) {
    (void)position;
    AutoGUIMakeMoveButtonStringA('-', move, 'x', buffer);
}
