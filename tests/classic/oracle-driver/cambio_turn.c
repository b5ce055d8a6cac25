/* cambio_turn.c: built with the layer and Classic's mcambio.c (cc -DNO_GRAPHICS -I LAYER
 * cambio_turn.c mcambio.c LAYER/*.c); calls Primitive on one position (tier 166, tier
 * position 1024) after leaving different tiers' hash contexts current: mcambio's Primitive
 * reads generic_hash_turn before switching to the position's context, so its answer changes. */
#include "gamesman.h"
#include <stdio.h>
void InitializeGame(void);
VALUE Primitive(POSITION);
int main(void) {
    InitializeGame();
    TIER tier = 166;
    TIERPOSITION tp = 1024;
    gInitializeHashWindow(tier, FALSE);
    POSITION w = gHashToWindowPosition(tp, tier);
    TIER before[] = {166, 167, 247};
    for (unsigned i = 0; i < sizeof before / sizeof *before; i++) {
        generic_hash_context_switch(before[i]);
        int turn = generic_hash_turn(w);
        VALUE v = Primitive(w);
        printf("context %llu current before the call: generic_hash_turn(%llu) = %d, Primitive = %d\n", before[i], w,
               turn, (int)v);
    }
    return 0;
}
