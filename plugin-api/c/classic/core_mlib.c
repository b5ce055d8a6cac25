/*
 * core_mlib.c: the functions core/mlib.h declares (Classic's board-pattern helpers).
 * Not implemented: each ends the running call with an error naming it, so a module
 * that reaches one gets a clear message instead of a missing symbol at load time.
 * Must not grow a partial implementation that answers wrongly.
 */
#include "classic_internal.h"
#include "core/mlib.h"

CLASSIC_CORE LocalBoard lBoard;

static void missing(const char *function) {
    char why[160];
    snprintf(why, sizeof why, "%s (Classic's core/mlib board helpers) is not provided by the layer", function);
    ExitStageRightErrorString(why);
}

CLASSIC_CORE void LibInitialize(int eltSize, int rows, int cols, BOOLEAN diagonals) {
    (void)eltSize, (void)rows, (void)cols, (void)diagonals;
    missing("LibInitialize");
}

CLASSIC_CORE BOOLEAN NinaRow(void *board, void *piece, int at, int n) {
    (void)board, (void)piece, (void)at, (void)n;
    missing("NinaRow");
    return FALSE;
}

CLASSIC_CORE BOOLEAN statelessNinaRow(void *board, void *piece, int n) {
    (void)board, (void)piece, (void)n;
    missing("statelessNinaRow");
    return FALSE;
}

CLASSIC_CORE BOOLEAN amountOfWhat(void *board, void *piece, int amount, BOOLEAN exactly) {
    (void)board, (void)piece, (void)amount, (void)exactly;
    missing("amountOfWhat");
    return FALSE;
}

CLASSIC_CORE BOOLEAN OneDMatch(void *board, void *pattern, BOOLEAN *wildcards, BOOLEAN circular, int length) {
    (void)board, (void)pattern, (void)wildcards, (void)circular, (void)length;
    missing("OneDMatch");
    return FALSE;
}

CLASSIC_CORE BOOLEAN TwoDMatch(void *board, void *pattern) {
    (void)board, (void)pattern;
    missing("TwoDMatch");
    return FALSE;
}

CLASSIC_CORE void Test(void) { missing("Test"); }

CLASSIC_CORE BOOLEAN mymemcmp(void *a, void *b, int length) {
    (void)a, (void)b, (void)length;
    missing("mymemcmp");
    return FALSE;
}
