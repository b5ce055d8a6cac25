/************************************************************************
**
** NAME:        classic_impartial.c
**
** DESCRIPTION: An impartial GamesmanClassic module, the test of the
**              compatibility layer's turn-free positions: a pile of 10
**              tokens; a move takes 1 or 2 of them; whoever cannot move
**              loses. Written as Classic's impartial modules are: the
**              POSITION is the number of tokens left and keeps no turn,
**              so the same position is reached with either player to move
**              (8 tokens: after 1 + 1 by player two, after 2 by player one).
**
**              POSITION = tokens left (0 .. 10)
**
************************************************************************/

#include "gamesman.h"

CONST_STRING kGameName = "Impartial pile";
CONST_STRING kAuthorName = "the gamesman-rs team";
CONST_STRING kDBName = "classic_impartial";
POSITION gNumberOfPositions = 11;
POSITION gInitialPosition = 10;
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

VALUE Primitive(POSITION position) { return position == 0 ? lose : undecided; }

MOVELIST *GenerateMoves(POSITION position) {
    MOVELIST *moves = NULL;
    int take;
    for (take = 2; take >= 1; take--)
        if ((POSITION)take <= position) moves = CreateMovelistNode(take, moves);
    return moves;
}

POSITION DoMove(POSITION position, MOVE move) { return position - (POSITION)move; }

void PrintPosition(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    printf("%llu tokens left%s\n", position, GetPrediction(position, playerName, usersTurn));
}

void PrintComputersMove(MOVE computersMove, STRING computersName) { printf("%s takes %d\n", computersName, computersMove); }
USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING playerName) {
    return HandleDefaultTextInput(position, move, playerName);
}
BOOLEAN ValidTextInput(STRING input) { return input[0] >= '1' && input[0] <= '2' && input[1] == '\0'; }
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
