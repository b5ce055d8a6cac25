/* nomoves.c: built with the layer and one regular module (cc -DNO_GRAPHICS -I LAYER nomoves.c
 * MODULE.c LAYER/*.c); walks the positions reachable from gInitialPosition and counts those
 * that are not primitive but have no moves. */
#include "gamesman.h"
void InitializeGame(void); MOVELIST *GenerateMoves(POSITION); POSITION DoMove(POSITION, MOVE); VALUE Primitive(POSITION);
int main(void) {
    InitializeGame();
    unsigned char *seen = calloc(gNumberOfPositions, 1);
    POSITION *stack = malloc(sizeof(POSITION) * gNumberOfPositions); size_t top = 0;
    stack[top++] = gInitialPosition; seen[gInitialPosition] = 1; long n = 0, none = 0; char buf[256];
    while (top) {
        POSITION p = stack[--top]; n++;
        if (Primitive(p) != undecided) continue;
        MOVELIST *h = GenerateMoves(p); int k = 0;
        for (MOVELIST *m = h; m; m = m->next, k++) { POSITION c = DoMove(p, m->move); if (!seen[c]) { seen[c] = 1; stack[top++] = c; } }
        if (k == 0) { if (none++ < 3) { memset(buf, 0, sizeof buf); generic_hash_unhash(p, buf); printf("no moves: %llu [%s] turn %d\n", p, buf, generic_hash_turn(p)); } }
    }
    printf("reached %ld; non-primitive positions without moves: %ld\n", n, none);
}
