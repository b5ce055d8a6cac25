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
 * With symmetries (classic_symmetric), Classic's solver works on canonical positions
 * (from the initial position's canonical form, each child's), while the host asks
 * about positions before canonicalising them and the validator checks the children
 * of every legal position: the legal set is then closed under both moves and
 * gCanonicalPosition (every reachable position and the canonical form of each).
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

/* The pairs to explore: a growing stack. */
static POSITION *stack = NULL;
static POSITION depth = 0, room = 0;

static int push(POSITION pair, gamesman_error *err) {
    if (test_and_set(pair)) return GAMESMAN_OK;
    if (depth == room) {
        POSITION *grown = realloc(stack, sizeof *stack * (room == 0 ? 1024 : 2 * room));
        if (grown == NULL) return gamesman_fail(err, GAMESMAN_ERROR, "out of memory exploring the game");
        stack = grown;
        room = room == 0 ? 1024 : 2 * room;
    }
    stack[depth++] = pair;
    return GAMESMAN_OK;
}

/* Marks `position` (with `turn`) legal and to explore, and its canonical form with it
 * for a symmetric module. */
static int note(POSITION position, int turn, gamesman_error *err) {
    if (push(2 * position + (POSITION)(turn - 1), err) != GAMESMAN_OK) return GAMESMAN_ERROR;
    if (!classic_symmetric()) return GAMESMAN_OK;
    classic_note_function("GetCanonicalPosition");
    POSITION canonical = gCanonicalPosition(position);
    if (canonical >= gNumberOfPositions)
        return gamesman_fail(err, GAMESMAN_ERROR,
                             "gCanonicalPosition(%llu) returned %llu, not below gNumberOfPositions (%llu)", position,
                             canonical, gNumberOfPositions);
    return push(2 * canonical + (POSITION)(turn - 1), err);
}

static void drop_stack(void) {
    free(stack);
    stack = NULL;
    depth = room = 0;
}

static int explore(gamesman_error *err) {
    POSITION n = gNumberOfPositions;
    seen = calloc((size_t)(n / 4 + 1), 1);
    if (seen == NULL) {
        classic_reach_reset();
        return gamesman_fail(err, GAMESMAN_ERROR, "out of memory exploring the %llu positions of gNumberOfPositions", n);
    }
    drop_stack();
    if (note(gInitialPosition, 1, err) != GAMESMAN_OK) {
        drop_stack();
        classic_reach_reset();
        return GAMESMAN_ERROR;
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
            int rc = child < n ? GAMESMAN_OK
                               : gamesman_fail(err, GAMESMAN_ERROR,
                                               "DoMove(%llu, %d) returned %llu, not below gNumberOfPositions (%llu)",
                                               position, m->move, child, n);
            classic_note_function("GoAgain");
            if (rc == GAMESMAN_OK) rc = note(child, classic_next_turn(position, m->move, turn), err);
            if (rc != GAMESMAN_OK) {
                FreeMoveList(moves);
                drop_stack();
                classic_reach_reset();
                return GAMESMAN_ERROR;
            }
        }
        FreeMoveList(moves);
    }
    drop_stack();
    complete = 1;
    return GAMESMAN_OK;
}
static int bit(POSITION b) { return (seen[b / 8] >> (b % 8)) & 1; }

int classic_reachable(POSITION position, int turn, gamesman_error *err) {
    if (!complete) {
        classic_reach_reset();
        if (explore(err) != GAMESMAN_OK) return GAMESMAN_ERROR;
    }
    if (turn == 0) return bit(2 * position) | bit(2 * position + 1);
    return bit(2 * position + (POSITION)(turn - 1));
}

int classic_turn_known(POSITION position) {
    if (!complete) return 0;
    return bit(2 * position) || !bit(2 * position + 1) ? 1 : 2;
}

int classic_turn_of(POSITION position, gamesman_error *err) {
    if (!complete) {
        classic_reach_reset();
        if (explore(err) != GAMESMAN_OK) return GAMESMAN_ERROR;
    }
    return bit(2 * position) || !bit(2 * position + 1) ? 1 : 2;
}
