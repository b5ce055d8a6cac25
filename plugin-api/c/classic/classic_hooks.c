/*
 * classic_hooks.c: the optional hooks of a GamesmanClassic module as functions of the
 * gamesman_plugin.h struct (WinBy, symmetries, AutoGUI strings); classic_module.c
 * puts them into the struct. Each calls the module inside a call frame, like the
 * functions there, and must not hold state of its own.
 */
#include "classic_internal.h"

/* ---- hooks ----------------------------------------------------------------------------- */

int classic_win_by(gamesman_game *game, gamesman_position p, int64_t *out, gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn, rc = GAMESMAN_ERROR;
    /* Classic's gPutWinBy gives the margin's size (unsigned since Classic's 2023 WinBy
     * rework); its sign here is player one's view: + when player one wins. */
    CLASSIC_RUN(err, "PutWinBy", GAMESMAN_ERROR, {
        rc = classic_position_in(p, &position, &turn, err);
        if (rc == GAMESMAN_OK) {
            long long size = gPutWinBy != NULL ? gPutWinBy(position) : 0;
            if (size < 0) size = -size;
            classic_note_function("Primitive");
            VALUE v = Primitive(position);
            int mover_wins = v == win, mover_loses = v == lose;
            int one_wins = (mover_wins && turn == 1) || (mover_loses && turn == 2);
            *out = mover_wins || mover_loses ? (one_wins ? size : -size) : 0;
        }
    });
    return rc;
}

int classic_canonical_position(gamesman_game *game, gamesman_position p, gamesman_position *out, gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int rc = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "GetCanonicalPosition", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            POSITION canonical = classic_symmetric() ? gCanonicalPosition(position) : position;
            rc = classic_position_out(canonical, turn, "GetCanonicalPosition", out, err);
        }
    });
    return rc;
}

/* ---- AutoGUI strings -------------------------------------------------------------------- */

int64_t classic_position_to_autogui(gamesman_game *game, gamesman_position p, char *buf, uint64_t capacity,
                                   gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "PositionToAutoGUIString", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            char text[1024] = {0};
            PositionToAutoGUIString(position, text);
            text[sizeof text - 1] = '\0';
            n = snprintf(buf, capacity, "%s", text);
        }
    });
    return n;
}

int64_t classic_move_to_autogui(gamesman_game *game, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                               gamesman_error *err) {
    (void)game;
    POSITION position;
    int turn;
    volatile int64_t n = GAMESMAN_ERROR;
    CLASSIC_RUN(err, "MoveToAutoGUIString", GAMESMAN_ERROR, {
        if (classic_position_in(p, &position, &turn, err) == GAMESMAN_OK) {
            char text[1024] = {0};
            MoveToAutoGUIString(position, classic_move_in(move), text);
            text[sizeof text - 1] = '\0';
            n = snprintf(buf, capacity, "%s", text);
        }
    });
    return n;
}

