/* quickchess_capture.c: built with the layer and Classic's mquickchess.c (as cambio_turn.c);
 * prints one position of tier 1 (default 1320), each move, the child's tier position and whether
 * IsLegal accepts it, and the board of every child it rejects. */
#include "gamesman.h"
#include <stdio.h>
void InitializeGame(void); MOVELIST *GenerateMoves(POSITION); POSITION DoMove(POSITION, MOVE);
BOOLEAN IsLegal(POSITION); void PrintPosition(POSITION, STRING, BOOLEAN); void MoveToString(MOVE, char*);
VALUE Primitive(POSITION);
int main(int argc, char **argv) {
    InitializeGame();
    TIER tier = 1; TIERPOSITION tp = argc > 1 ? strtoull(argv[1], 0, 10) : 1320;
    gInitializeHashWindow(tier, FALSE);
    POSITION w = gHashToWindowPosition(tp, tier);
    printf("tier %llu size %llu pos %llu legal %d primitive %d\n", tier, gNumberOfTierPositionsFunPtr(tier), tp, IsLegal(w), Primitive(w));
    PrintPosition(w, "x", TRUE);
    for (MOVELIST *m = GenerateMoves(w); m; m = m->next) {
        char s[64] = {0}; MoveToString(m->move, s);
        POSITION c = DoMove(w, m->move); TIER ct; TIERPOSITION ctp; gUnhashToTierPosition(c, &ctp, &ct);
        printf("move %s -> tier %llu pos %llu legal %d\n", s, ct, ctp, IsLegal(c));
        if (!IsLegal(c)) PrintPosition(c, "y", TRUE);
    }
    return 0;
}
