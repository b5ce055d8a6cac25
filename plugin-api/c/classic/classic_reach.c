/*
 * classic_reach.c: which (position, player to move) pairs of a regular module occur
 * in play. Classic's solvers only ever visit positions reachable from the initial
 * one, and a module's hash often has room for boards that never occur (and that its
 * functions were never written for), so the layer declares exactly the reachable
 * pairs legal: the host then solves, counts and validates what Classic would.
 *
 * Explored once per variant, depth first from gInitialPosition with player 1 to move,
 * on the first legality question (solving, validating); play and queries on a stored
 * database never need it. Memory: two bits per position of gNumberOfPositions.
 *
 * With symmetries (classic_symmetric), Classic's solver works on canonical positions:
 * it starts from the initial position's canonical form and takes each child's. So do
 * the exploration and the legal set: canonical positions are explored, and a child
 * that is not canonical is legal too (the host asks about it before canonicalising)
 * but not explored.
 */
#include "classic_internal.h"

static unsigned char *seen = NULL; /* bit 2 * position + (turn - 1) */
static int complete = 0;           /* an exploration cut short by exit() is redone */

void classic_reach_reset(void) {
    free(seen);
    seen = NULL;
    complete = 0;
}

int classic_symmetric(void) { return gCanonicalPosition != NULL && gSymmetries; }

int classic_next_turn(POSITION position, MOVE move, int turn) {
    return gGoAgain != NULL && gGoAgain(position, move) ? turn : 3 - turn;
}

static int test_and_set(POSITION bit) {
    unsigned char mask = (unsigned char)(1u << (bit % 8));
    int was = (seen[bit / 8] & mask) != 0;
    seen[bit / 8] |= mask;
    return was;
}

/* Marks `position` (with `turn`) legal; returns the pair to explore, or -1 if it was
 * known already. Symmetric modules: the canonical form's pair is the one explored. */
static POSITION note(POSITION position, int turn, gamesman_error *err, int *failed) {
    POSITION pair = 2 * position + (POSITION)(turn - 1);
    if (!classic_symmetric()) return test_and_set(pair) ? (POSITION)-1 : pair;
    classic_note_function("GetCanonicalPosition");
    POSITION canonical = gCanonicalPosition(position);
    if (canonical >= gNumberOfPositions) {
        *failed = gamesman_fail(err, GAMESMAN_ERROR,
                                "gCanonicalPosition(%llu) returned %llu, not below gNumberOfPositions (%llu)", position,
                                canonical, gNumberOfPositions);
        return (POSITION)-1;
    }
    if (canonical != position) test_and_set(pair);
    pair = 2 * canonical + (POSITION)(turn - 1);
    return test_and_set(pair) ? (POSITION)-1 : pair;
}

static int explore(gamesman_error *err) {
    POSITION n = gNumberOfPositions;
    seen = calloc((size_t)(n / 4 + 1), 1);
    POSITION room = 1024, depth = 0;
    POSITION *stack = malloc(sizeof *stack * room);
    if (seen == NULL || stack == NULL) {
        free(stack);
        classic_reach_reset();
        return gamesman_fail(err, GAMESMAN_ERROR, "out of memory exploring the %llu positions of gNumberOfPositions", n);
    }
    int failed = GAMESMAN_OK;
    stack[depth++] = note(gInitialPosition, 1, err, &failed);
    if (failed != GAMESMAN_OK) {
        free(stack);
        classic_reach_reset();
        return failed;
    }
    while (depth > 0) {
        POSITION pair = stack[--depth], position = pair / 2;
        int turn = (int)(pair % 2) + 1;
        classic_note_function("Primitive");
        if (Primitive(position) != undecided) continue;
        classic_note_function("GenerateMoves");
        MOVELIST *moves = GenerateMoves(position);
        for (MOVELIST *m = moves; m != NULL; m = m->next) {
            classic_note_function("DoMove");
            POSITION child = DoMove(position, m->move);
            if (child >= n) {
                FreeMoveList(moves);
                free(stack);
                classic_reach_reset();
                return gamesman_fail(err, GAMESMAN_ERROR,
                                     "DoMove(%llu, %d) returned %llu, not below gNumberOfPositions (%llu)",
                                     position, m->move, child, n);
            }
            classic_note_function("GoAgain");
            POSITION next = note(child, classic_next_turn(position, m->move, turn), err, &failed);
            if (failed != GAMESMAN_OK) {
                FreeMoveList(moves);
                free(stack);
                classic_reach_reset();
                return failed;
            }
            if (next == (POSITION)-1) continue;
            if (depth == room) {
                room *= 2;
                POSITION *grown = realloc(stack, sizeof *stack * room);
                if (grown == NULL) {
                    FreeMoveList(moves);
                    free(stack);
                    classic_reach_reset();
                    return gamesman_fail(err, GAMESMAN_ERROR, "out of memory exploring the game");
                }
                stack = grown;
            }
            stack[depth++] = next;
        }
        FreeMoveList(moves);
    }
    free(stack);
    complete = 1;
    return GAMESMAN_OK;
}

int classic_reachable(POSITION position, int turn, gamesman_error *err) {
    if (!complete) {
        classic_reach_reset();
        if (explore(err) != GAMESMAN_OK) return GAMESMAN_ERROR;
    }
    POSITION bit = 2 * position + (POSITION)(turn - 1);
    return (seen[bit / 8] >> (bit % 8)) & 1;
}
