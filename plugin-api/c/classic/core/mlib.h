/*
 * core/mlib.h: Classic's "module library" of board-pattern helpers (n-in-a-row and
 * the like), declared so modules that include it build (mwin4.c). The layer does not
 * implement the helpers: each ends the running call with an error naming it
 * (core_mlib.c). Classic's own modules reach them only from debug menus.
 */
#ifndef GAMESMAN_CLASSIC_MLIB_H
#define GAMESMAN_CLASSIC_MLIB_H

#include "../gamesman.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(hidden)

#define MLIB_MAXBOARDSIZE 64
#define MLIB_MAXPATTERN 16

typedef struct lb {
    int eltSize;
    int rows;
    int cols;
    int size;
    BOOLEAN diagonals;
    void *blankPiece;
    void *opponentPlayerPiece;
    void *initialPlayerPiece;
    int directionMap[8];
    int scratchBoard[MLIB_MAXBOARDSIZE];
    int overflowBoards[MLIB_MAXPATTERN][MLIB_MAXBOARDSIZE];
} LocalBoard;

extern LocalBoard lBoard;

void LibInitialize(int eltSize, int rows, int cols, BOOLEAN diagonals);
BOOLEAN NinaRow(void *board, void *piece, int at, int n);
BOOLEAN statelessNinaRow(void *board, void *piece, int n);
BOOLEAN amountOfWhat(void *board, void *piece, int amount, BOOLEAN exactly);
BOOLEAN OneDMatch(void *board, void *pattern, BOOLEAN *wildcards, BOOLEAN circular, int length);
BOOLEAN TwoDMatch(void *board, void *pattern);
void Test(void);
BOOLEAN mymemcmp(void *a, void *b, int length);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* GAMESMAN_CLASSIC_MLIB_H */
