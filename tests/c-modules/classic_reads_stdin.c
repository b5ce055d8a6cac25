/*
 * classic_reads_stdin.c: a GamesmanClassic-style module whose interactive parts run
 * where a host call reaches them, for the layer's "never read stdin" rule: option 1's
 * InitializeGame reads a line with fgets(stdin), option 2's Primitive asks GetMyInt,
 * option 3 is a plain countdown (take 1 or 2 of 5) that never reads. A test fixture,
 * not a game.
 */
#include "gamesman.h"

POSITION gNumberOfPositions = 6;
POSITION gInitialPosition = 5;
CONST_STRING kAuthorName = "gamesman-rs tests";
CONST_STRING kGameName = "Reads stdin";
CONST_STRING kDBName = "readsstdin";
BOOLEAN kPartizan = FALSE;
BOOLEAN kTieIsPossible = FALSE;
BOOLEAN kLoopy = FALSE;

static int option = 3;

int NumberOfOptions(void) { return 3; }
int getOption(void) { return option; }
void setOption(int o) { option = o; }

void InitializeGame(void) {
    if (option == 1) {
        char line[80];
        while (fgets(line, sizeof line, stdin) == NULL) {
            /* Classic's menus wait for input like this; end of file would spin. */
        }
    }
}

VALUE Primitive(POSITION p) {
    if (option == 2) return GetMyInt() == 0 ? lose : win;
    return p == 0 ? lose : undecided;
}

MOVELIST *GenerateMoves(POSITION p) {
    MOVELIST *moves = NULL;
    for (int take = 1; take <= 2 && take <= (int)p; take++) moves = CreateMovelistNode(take, moves);
    return moves;
}

POSITION DoMove(POSITION p, MOVE m) { return p - (POSITION)m; }

void PrintPosition(POSITION p, STRING name, BOOLEAN usersTurn) {
    (void)name, (void)usersTurn;
    printf("%llu left\n", p);
}

void MoveToString(MOVE m, char *buf) { sprintf(buf, "%d", m); }
