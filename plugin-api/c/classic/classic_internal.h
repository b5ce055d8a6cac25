/*
 * classic_internal.h: what the files of the GamesmanClassic layer share. Not for
 * modules (they include gamesman.h only).
 *
 * The layer's own functions and state are hidden (see gamesman.h); what a module
 * defines is referenced weakly, so a module that leaves something out still links and
 * gets a clear error (or the documented default) at run time instead of a load failure.
 */
#ifndef GAMESMAN_CLASSIC_INTERNAL_H
#define GAMESMAN_CLASSIC_INTERNAL_H

#include "gamesman.h"

#include "../gamesman_plugin.h"

#include <setjmp.h>

#pragma GCC visibility push(hidden)

/* Definitions of the Classic core: weak, so a module that defines one of them itself
 * (as some older modules do) keeps its own. */
#define CLASSIC_CORE __attribute__((weak))

/* List capacities handed to the host; a module with more moves (undo moves, tier
 * children) for one position is reported, and needs -D of these on its cc line. */
#ifndef GAMESMAN_CLASSIC_MAX_MOVES
#define GAMESMAN_CLASSIC_MAX_MOVES 256
#endif
#ifndef GAMESMAN_CLASSIC_MAX_UNDO_MOVES
#define GAMESMAN_CLASSIC_MAX_UNDO_MOVES 256
#endif
#ifndef GAMESMAN_CLASSIC_MAX_TIER_CHILDREN
#define GAMESMAN_CLASSIC_MAX_TIER_CHILDREN 1024
#endif

/* ---- what a module may define (weak references) ---------------------------------- */

#pragma weak InitializeGame
#pragma weak DoMove
#pragma weak Primitive
#pragma weak PrintPosition
#pragma weak GenerateMoves
#pragma weak ValidTextInput
#pragma weak ConvertTextInputToMove
#pragma weak MoveToString
#pragma weak NumberOfOptions
#pragma weak getOption
#pragma weak setOption
#pragma weak StringToPosition
#pragma weak PositionToAutoGUIString
#pragma weak MoveToAutoGUIString
#pragma weak gNumberOfPositions
#pragma weak gInitialPosition
#pragma weak kAuthorName
#pragma weak kGameName
#pragma weak kDBName
#pragma weak kHelpStandardObjective

/* Not in Classic's gamesman.h, but defined (non-static) by many modules. */
void PrintMove(MOVE move);
#pragma weak PrintMove

/* ---- calls into the module ------------------------------------------------------- */

/* One call into the module: where exit() jumps back to, and what to restore. */
struct classic_call {
    jmp_buf jump;
    const char *function;       /* the Classic function running, for messages */
    struct classic_call *outer; /* a call running around this one on the thread */
    FILE *saved_stdout;         /* the real stdout, restored when the call ends */
    FILE *saved_stdin;          /* the real stdin, likewise */
    FILE *capture;              /* the stream of a text being captured, if any */
    char *capture_text;         /* its buffer */
    size_t capture_len;
    char reason[256];           /* set by exit() & co. before jumping */
};

/* Starts a call on this thread (stdout goes to stderr, the hash context is the
 * module's current one). Use CLASSIC_RUN, which also arms the jump. */
void classic_enter(struct classic_call *call, const char *function);
/* Ends the call started by classic_enter. */
void classic_leave(struct classic_call *call);
/* Ends a call that exit() & co. jumped out of: writes the reason into `err`. */
int classic_caught(struct classic_call *call, gamesman_error *err);
/* The innermost call on this thread, or NULL. */
struct classic_call *classic_current_call(void);
/* Names the Classic function now running (for messages about exit()); returns the
 * name it replaces, to be noted again when that function's turn comes back. */
const char *classic_note_function(const char *function);

/* Runs `body` as one call into the module; returns `on_exit` (after writing the
 * reason into err) if the module calls exit(), BadElse or ExitStageRight. */
#define CLASSIC_RUN(err, name, on_exit, ...)                                             \
    do {                                                                                 \
        struct classic_call classic_call_;                                               \
        classic_enter(&classic_call_, (name));                                           \
        if (setjmp(classic_call_.jump) != 0) {                                           \
            classic_caught(&classic_call_, (err));                                       \
            return (on_exit);                                                            \
        }                                                                                \
        __VA_ARGS__;                                                                     \
        classic_leave(&classic_call_);                                                   \
    } while (0)

/* Ends the running call: the module asked for typed input through `helper`
 * (GetMyChar & co.), which the host never gives. */
void classic_no_input(const char *helper) __attribute__((noreturn));

/* Captures what `print` writes to stdout into buf (snprintf-style); returns the
 * length, or -1 if the capture could not be set up. Must run inside CLASSIC_RUN. */
int64_t classic_capture(char *buf, uint64_t capacity, void (*print)(void *), void *arg);

/* ---- the hash context handed between calls -------------------------------------- */

/* Makes this thread's current generic hash context the one the module used last. */
void classic_hash_enter(void);
/* Records this thread's current context as the module's. */
void classic_hash_leave(void);

/* ---- the hash window of tier modules --------------------------------------------- */

/* The window position of (tier, tierposition), opening a window on `tier` (and its
 * children) for this thread if none is open on it. */
POSITION classic_window_position(TIER tier, TIERPOSITION tierposition);
/* Forgets this thread's window (after InitializeGame). */
void classic_window_reset(void);
/* Splits a window position; FALSE if it lies in no tier of the window. */
BOOLEAN classic_window_split(POSITION position, TIER *tier, TIERPOSITION *tierposition);
/* Whether gTierChildrenFunPtr(tier) lists `child`: Classic's tier solver asks a module
 * for undo moves of a position towards a tier only then. */
BOOLEAN classic_tier_lists_child(TIER tier, TIER child);

/* ---- reachability of regular modules --------------------------------------------- */

/* Whether (position, turn) is reachable from the initial position (player 1 to move),
 * exploring the game on first use (turn 0: with either player to move); negative with
 * a message in err on failure. */
int classic_reachable(POSITION position, int turn, gamesman_error *err);
/* The player to move shown for modules whose positions do not carry it: 1 if the
 * exploration reached `position` with player 1 to move (or never reached it), else 2;
 * negative on failure. */
int classic_turn_of(POSITION position, gamesman_error *err);
/* The same without exploring: 0 while the exploration has not run. */
int classic_turn_known(POSITION position);
/* Forgets the explored set (after InitializeGame). */
void classic_reach_reset(void);

/* Whether the module reduces symmetries: gCanonicalPosition set and gSymmetries TRUE
 * (Classic's default is FALSE; modules that use symmetries turn it on). */
int classic_symmetric(void);

/* The player to move after `move` at `position` by `turn` (gGoAgain keeps it). */
int classic_next_turn(POSITION position, MOVE move, int turn);

/* ---- between classic_module.c and classic_hooks.c ---------------------------------- */

/* A host position as the module's position and the player to move (0: a turn-free
 * module's, not tracked); fails on a position outside the game. */
int classic_position_in(gamesman_position p, POSITION *out, int *turn, gamesman_error *err);
/* The module's position with `turn` to move as a host position; `function` names the
 * Classic function that returned it, for messages. */
int classic_position_out(POSITION position, int turn, const char *function, gamesman_position *out, gamesman_error *err);
/* A host move as the module's MOVE. */
MOVE classic_move_in(uint64_t m);

/* The hooks of the struct (classic_hooks.c). */
int classic_win_by(gamesman_game *game, gamesman_position p, int64_t *out, gamesman_error *err);
int classic_canonical_position(gamesman_game *game, gamesman_position p, gamesman_position *out, gamesman_error *err);
int64_t classic_position_to_autogui(gamesman_game *game, gamesman_position p, char *buf, uint64_t capacity,
                            gamesman_error *err);
int64_t classic_move_to_autogui(gamesman_game *game, gamesman_position p, uint64_t move, char *buf, uint64_t capacity,
                        gamesman_error *err);

#pragma GCC visibility pop

#endif /* GAMESMAN_CLASSIC_INTERNAL_H */
