/*
 * gamesman_plugin.h: the plain C ABI of gamesman game modules (ABI version 1).
 *
 * A game module in C is a shared library that exports one function,
 *
 *     const gamesman_module *gamesman_module_v1(void);
 *
 * returning a pointer to a constant struct that lives as long as the library: the
 * module's metadata, its list capacities, and function pointers. The host loads it
 * exactly like a Rust module (`host --plugin ./libfoo.so ...`, or a bare name for a
 * library next to the host binary), checks it, and runs every command, the validator
 * and the solver's batch paths through it.
 *
 * Build a module with
 *
 *     cc -O2 -shared -fPIC -I plugin-api/c mygame.c -o libmygame.so
 *
 * Rules that hold for every function below:
 *   - A NULL function pointer means "absent": the host then does what the Rust trait's
 *     default does (written next to each function). Functions marked REQUIRED must be
 *     set; the host refuses to load a module without them.
 *   - Positions are (tier, index) pairs; `index` runs over 0 .. tier_size(tier) - 1.
 *     A game without tiers has one tier, 0.
 *   - Lists (moves, tiers, undo moves, positions) are written into a buffer the host
 *     owns, with its capacity in items. The function returns the number of items; if
 *     that is more than the capacity, it must have written no more than `capacity`
 *     items, and the host reports an overflow (declare enough in max_moves & co.).
 *   - Strings are written into a host buffer of `capacity` bytes, NUL-terminated and
 *     truncated like snprintf; the function returns the full length (without the NUL).
 *     When that is not below the capacity, the host calls again with a larger buffer.
 *     Texts are UTF-8.
 *   - A negative return value is an error status (GAMESMAN_ERROR, GAMESMAN_REJECTED);
 *     the function then writes a message into `err` (see gamesman_fail). The host
 *     reports it as an error of the module, naming the function.
 *   - Without GAMESMAN_FLAG_THREAD_SAFE the host never runs two calls into the module
 *     at once. With it, calls come from many threads at once.
 *   - The struct only ever grows at its end, and `struct_size` says how much of it a
 *     module has: a module built against an older version of this header (same ABI
 *     version) keeps working, and the functions it lacks count as NULL.
 *
 * Header revisions (GAMESMAN_C_HEADER_REVISION; all of ABI version 1):
 *   1  the struct up to move_to_autogui.
 *   2  scan_position, is_canonical appended; GAMESMAN_FLAG_FAST_PATHS_CANONICAL.
 *   3  memory_budget appended; GAMESMAN_FLAG_SOLVE_FORWARD.
 */
#ifndef GAMESMAN_PLUGIN_H
#define GAMESMAN_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes; `abi_version` of the struct. A host refuses
 * a module of another ABI version. */
#define GAMESMAN_C_ABI_VERSION 1u

/* The revision of this header within ABI version 1 (see the list above); for
 * information only: the host reads struct_size, not this. */
#define GAMESMAN_C_HEADER_REVISION 3u

/* The name of the entry point the host looks up. */
#define GAMESMAN_ENTRY_POINT "gamesman_module_v1"

/* A position: its tier and its index in that tier's own dense hash. */
typedef struct gamesman_position {
    /* The tier the position lies in (0 in a game without tiers). */
    uint64_t tier;
    /* Its index in the tier's own numbering, below tier_size(tier). */
    uint64_t index;
} gamesman_position;

/* A tier of "bad" positions the solver never touches (the seed's kBadTier). */
#define GAMESMAN_BAD_TIER UINT64_MAX

/* Values of positions, always from the view of the player to move. */
enum gamesman_value {
    GAMESMAN_UNDECIDED = 0, /* not primitive: play goes on */
    GAMESMAN_WIN = 1,
    GAMESMAN_LOSE = 2,
    GAMESMAN_TIE = 3
};

/* Players: player one moves first; a puzzle has only player one. */
enum gamesman_player { GAMESMAN_PLAYER_ONE = 1, GAMESMAN_PLAYER_TWO = 2 };

/* Status codes. Success is 0 (or a count, a length, a value code); errors are
 * negative. */
enum gamesman_status {
    GAMESMAN_OK = 0,
    /* The call failed; `err` says why. */
    GAMESMAN_ERROR = -1,
    /* text_to_move / text_to_position only: the text is not valid input; `err` says
     * why, and the host shows that to the user as a normal answer. */
    GAMESMAN_REJECTED = -2,
    /* generate_undo_moves_to_tier, children, parents, scan_position and is_canonical
     * only: this variant does not implement the function; the host does what it does
     * when the pointer is NULL. */
    GAMESMAN_UNSUPPORTED = -3
};

/* Flags, in `flags` of the module (all variants) and of gamesman_properties (one
 * variant). */
/* Calls may run concurrently (module-wide only; otherwise the host serialises). */
#define GAMESMAN_FLAG_THREAD_SAFE ((uint64_t)1 << 0)
/* The game has real tiers (else one tier 0, which is its own child). */
#define GAMESMAN_FLAG_TIERS ((uint64_t)1 << 1)
/* canonical_position reduces symmetric positions (it must then be set). */
#define GAMESMAN_FLAG_SYMMETRY ((uint64_t)1 << 2)
/* win_by gives the margin of primitive positions (it must then be set). */
#define GAMESMAN_FLAG_WINBY ((uint64_t)1 << 3)
/* A move of a two-player game may leave the same player to move. */
#define GAMESMAN_FLAG_GO_AGAIN ((uint64_t)1 << 4)
/* A one-player puzzle: every move keeps player one to move. */
#define GAMESMAN_FLAG_PUZZLE ((uint64_t)1 << 5)
/* score gives a heuristic for depth-limited search (it must then be set). */
#define GAMESMAN_FLAG_SCORE ((uint64_t)1 << 6)
/* The positions do not record whose turn it is (plugin-api 0.1.5): the value is
 * always the mover's, every move hands the turn over, and a position may be reached
 * with either player to move (an impartial game; a GamesmanClassic module solved on
 * its POSITION alone). `turn` then names a player for display only; front ends say
 * "the player to move" and the validator does not require the turn to change on
 * every move. Not with GAMESMAN_FLAG_GO_AGAIN, _WINBY or _PUZZLE (they need the
 * turn). A host before 0.1.5 ignores the flag. */
#define GAMESMAN_FLAG_TURN_FREE ((uint64_t)1 << 7)
/* `children` and `parents` give canonical positions (the forms canonical_position
 * returns), each at most once per call, instead of every move's child and every
 * undo move's parent (the Rust trait's fast_paths_canonical, header revision 2). The
 * solver then takes them as they are, without canonicalising and sorting out
 * duplicates; the validator compares them, as sets of canonical positions, with
 * generate_moves + do_move and the undo moves. A host before revision 2 ignores the
 * flag and canonicalises them again (same values). */
#define GAMESMAN_FLAG_FAST_PATHS_CANONICAL ((uint64_t)1 << 8)
/* Solve by the children even though `parents` or undo moves are given: the host
 * builds each tier's reverse graph from its scan and reads the child tiers' values
 * as it scans, as for a module without undo moves (header revision 3). For a module
 * whose parents cost about what its children do (a GamesmanOne game finds each
 * canonical parent by canonicalising boards), since the scan expands every position
 * anyway. The parents stay for `--parents undo-moves`, `validate` and the checks.
 * A host before revision 3 ignores the flag. */
#define GAMESMAN_FLAG_SOLVE_FORWARD ((uint64_t)1 << 9)

/* Room for an error message, including its NUL. */
#define GAMESMAN_MESSAGE_CAPACITY 1024

/* Where a failing function writes its message (the host clears it before the call). */
typedef struct gamesman_error {
    /* The message, NUL-terminated UTF-8 (gamesman_fail writes it). */
    char message[GAMESMAN_MESSAGE_CAPACITY];
} gamesman_error;

/* Writes a printf-style message into `err` and returns `status`, so a function fails
 * with `return gamesman_fail(err, GAMESMAN_ERROR, "no cell %d", cell);`. */
static inline int gamesman_fail(gamesman_error *err, int status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline int gamesman_fail(gamesman_error *err, int status, const char *format, ...) {
    if (err != NULL) {
        va_list args;
        va_start(args, format);
        vsnprintf(err->message, sizeof err->message, format, args);
        va_end(args);
    }
    return status;
}

/* A variant the module offers: the name typed after --variant (no spaces) and one
 * line about it. */
typedef struct gamesman_variant {
    /* The name typed after --variant, without spaces. */
    const char *name;
    /* One line saying what the variant is. */
    const char *description;
} gamesman_variant;

/* What one variant declares about itself (see `properties` below). */
typedef struct gamesman_properties {
    /* GAMESMAN_FLAG_* of this variant (GAMESMAN_FLAG_THREAD_SAFE is ignored here). */
    uint64_t flags;
    /* The most moves generate_moves (and positions children) ever writes. */
    uint32_t max_moves;
    /* The most undo moves (and positions parents) ever written for one position. */
    uint32_t max_undo_moves;
    /* The most tiers tier_children ever writes. */
    uint32_t max_tier_children;
    /* Zero. */
    uint32_t reserved;
} gamesman_properties;

/* One opened variant; the module defines what it points to. */
typedef struct gamesman_game gamesman_game;

/* The module: returned by gamesman_module_v1(). */
typedef struct gamesman_module {
    /* ---- header: these three fields never move --------------------------------- */

    /* GAMESMAN_C_ABI_VERSION. */
    uint32_t abi_version;
    /* sizeof(gamesman_module) as the module was compiled. */
    uint32_t struct_size;
    /* GAMESMAN_FLAG_*, for every variant unless `properties` says otherwise. */
    uint64_t flags;

    /* ---- metadata --------------------------------------------------------------- */

    /* REQUIRED. The short name (letters, digits, '_' and '-'), used for the database
     * directory: "mygame". */
    const char *name;
    /* Who wrote the module. NULL: none given. */
    const char *authors;
    /* One paragraph about the game. NULL: none given. */
    const char *description;
    /* The variants; the first is the default. NULL with variant_count 0: one variant,
     * named "default". */
    const gamesman_variant *variants;
    /* The number of entries in `variants`. */
    uint32_t variant_count;

    /* List capacities for every variant unless `properties` says otherwise; 0 means
     * the Rust trait's defaults (64 moves, 64 undo moves, 16 tier children). */
    /* The most moves generate_moves (and positions children) ever writes. */
    uint32_t max_moves;
    /* The most undo moves (and positions parents) ever written for one position. */
    uint32_t max_undo_moves;
    /* The most tiers tier_children ever writes. */
    uint32_t max_tier_children;

    /* ---- life cycle ------------------------------------------------------------- */

    /* REQUIRED. Opens the named variant (always one of `variants`, or "default").
     * Returns the game, or NULL with a message in `err`. */
    gamesman_game *(*new_game)(const char *variant, gamesman_error *err);
    /* Frees a game new_game returned. NULL: nothing to free. */
    void (*free_game)(gamesman_game *game);
    /* Writes the variant's own properties. NULL: the module's flags and capacities
     * above hold for every variant. */
    int (*properties)(gamesman_game *game, gamesman_properties *out, gamesman_error *err);

    /* ---- the regular API -------------------------------------------------------- */

    /* REQUIRED. Writes the starting position. */
    int (*initial_position)(gamesman_game *game, gamesman_position *out,
                            gamesman_error *err);
    /* REQUIRED. Whether the game is over at p: returns GAMESMAN_WIN, _LOSE or _TIE
     * from the view of the player to move, or GAMESMAN_UNDECIDED if play goes on. A
     * position that is not primitive but has no moves counts as a loss. */
    int (*primitive)(gamesman_game *game, gamesman_position p, gamesman_error *err);
    /* REQUIRED. Writes every legal move at p (never called on primitives); returns
     * their number. Moves are the module's own 64-bit codes. */
    int64_t (*generate_moves)(gamesman_game *game, gamesman_position p, uint64_t *moves,
                              uint32_t capacity, gamesman_error *err);
    /* REQUIRED. Writes the position after making `move` at p. */
    int (*do_move)(gamesman_game *game, gamesman_position p, uint64_t move,
                   gamesman_position *child, gamesman_error *err);
    /* REQUIRED. Whose turn it is at p: GAMESMAN_PLAYER_ONE or _TWO. The solver keeps a
     * child's value as it is when the same player moves there (go-again moves, every
     * move of a puzzle) and inverts it otherwise. */
    int (*turn)(gamesman_game *game, gamesman_position p, gamesman_error *err);
    /* REQUIRED. The board for display, several lines, without the prediction line. */
    int64_t (*board_to_text)(gamesman_game *game, gamesman_position p, char *buf,
                             uint64_t capacity, gamesman_error *err);
    /* REQUIRED. A move in the text form a player types. */
    int64_t (*move_to_text)(gamesman_game *game, gamesman_position p, uint64_t move,
                            char *buf, uint64_t capacity, gamesman_error *err);
    /* Parses a typed move at p into `move`, or returns GAMESMAN_REJECTED with a message
     * for the user. NULL: the text is matched (trimmed, case-insensitive) against
     * move_to_text of every legal move. */
    int (*text_to_move)(gamesman_game *game, gamesman_position p, const char *text,
                        uint64_t *move, gamesman_error *err);
    /* A one-line text naming p, accepted back by text_to_position. NULL: "TIER:INDEX". */
    int64_t (*position_to_text)(gamesman_game *game, gamesman_position p, char *buf,
                                uint64_t capacity, gamesman_error *err);
    /* Parses a position named on the command line, or returns GAMESMAN_REJECTED with a
     * message for the user. NULL: "TIER:INDEX", checked against the tier's size. */
    int (*text_to_position)(gamesman_game *game, const char *text, gamesman_position *out,
                            gamesman_error *err);

    /* ---- the tier API ----------------------------------------------------------- */

    /* Writes the tiers positions of `tier` lead to, `tier` itself included when its
     * positions can lead to each other (a loopy tier). NULL: [tier], the one-tier
     * game. */
    int64_t (*tier_children)(gamesman_game *game, uint64_t tier, uint64_t *children,
                             uint32_t capacity, gamesman_error *err);
    /* REQUIRED. Writes the number of positions in `tier`'s hash. */
    int (*tier_size)(gamesman_game *game, uint64_t tier, uint64_t *size,
                     gamesman_error *err);
    /* Whether p can really occur: returns 1 (legal) or 0; the solver skips illegal
     * positions. NULL: every position is legal. */
    int (*is_legal)(gamesman_game *game, gamesman_position p, gamesman_error *err);
    /* Writes the undo moves that lead from p back to positions in `tier` (only parents
     * that are legal, not primitive, and have p as a child); none for a tier that is
     * not a parent of p's tier. NULL: the module is forward-only, and the host finds
     * parents by expanding positions forward (generate_moves, do_move). */
    int64_t (*generate_undo_moves_to_tier)(gamesman_game *game, gamesman_position p,
                                           uint64_t tier, uint64_t *undo_moves,
                                           uint32_t capacity, gamesman_error *err);
    /* Writes the parent reached by undoing `undo_move` at p. REQUIRED when
     * generate_undo_moves_to_tier is set; never called otherwise. */
    int (*undo_move)(gamesman_game *game, gamesman_position p, uint64_t undo_move,
                     gamesman_position *parent, gamesman_error *err);
    /* A readable tier name. NULL: the tier number. */
    int64_t (*tier_name)(gamesman_game *game, uint64_t tier, char *buf, uint64_t capacity,
                         gamesman_error *err);

    /* ---- optional fast paths ---------------------------------------------------- */

    /* Writes the child of every move of the non-primitive p (duplicates allowed, any
     * order); returns their number. Must give exactly what generate_moves + do_move
     * give (the validator checks). NULL: the host uses generate_moves and do_move. */
    int64_t (*children)(gamesman_game *game, gamesman_position p, gamesman_position *out,
                        uint32_t capacity, gamesman_error *err);
    /* Writes the result of every undo move from p towards `tier`; returns their
     * number. Must give exactly what generate_undo_moves_to_tier + undo_move give.
     * NULL: the host uses those two. */
    int64_t (*parents)(gamesman_game *game, gamesman_position p, uint64_t tier,
                       gamesman_position *out, uint32_t capacity, gamesman_error *err);

    /* ---- optional hooks --------------------------------------------------------- */

    /* Writes the margin of a primitive position from player one's view (the seed's
     * gPutWinBy). Only called with GAMESMAN_FLAG_WINBY, which requires it. NULL: 0. */
    int (*win_by)(gamesman_game *game, gamesman_position p, int64_t *out,
                  gamesman_error *err);
    /* Writes the representative of p's symmetry class, in p's tier (every position of
     * a class has the same value for its player to move, and with go-again or WinBy
     * the same player to move). Only called with GAMESMAN_FLAG_SYMMETRY, which
     * requires it. NULL: p itself. */
    int (*canonical_position)(gamesman_game *game, gamesman_position p,
                              gamesman_position *out, gamesman_error *err);
    /* Writes a heuristic score of a non-primitive position for depth-limited search,
     * positive when player one stands better. Only called with GAMESMAN_FLAG_SCORE,
     * which requires it. NULL: 0. */
    int (*score)(gamesman_game *game, gamesman_position p, int64_t *out,
                 gamesman_error *err);

    /* ---- text for graphical front ends ------------------------------------------ */

    /* The position in GamesmanUni's AutoGUI format ("<turn>_<board>"). `host serve`
     * calls it when the library's AutoGUI sidecar (libNAME.so.autogui.json, see the
     * serving guide) gives the variant image data. NULL or GAMESMAN_UNSUPPORTED: none. */
    int64_t (*position_to_autogui)(gamesman_game *game, gamesman_position p, char *buf,
                                   uint64_t capacity, gamesman_error *err);
    /* A move in AutoGUI's move-button format ("A_x_4_y"), called as position_to_autogui
     * is. NULL or GAMESMAN_UNSUPPORTED: none. */
    int64_t (*move_to_autogui)(gamesman_game *game, gamesman_position p, uint64_t move,
                               char *buf, uint64_t capacity, gamesman_error *err);

    /* ---- header revision 2: fast paths of the solver's scan ----------------------- */
    /* (A module built against revision 1 ends before these; the host treats them as
     * NULL. Same GAMESMAN_C_ABI_VERSION.) */

    /* The primitive value of the legal canonical position p (as `primitive` returns
     * it) and, when that is GAMESMAN_UNDECIDED, the number of its distinct canonical
     * children in *children (what generate_moves + do_move give, canonicalised, each
     * once), counted without writing them: the solver's scan needs only the count.
     * The validator compares it with generate_moves + do_move. May return
     * GAMESMAN_UNSUPPORTED. NULL: the host calls primitive and the children path. */
    int (*scan_position)(gamesman_game *game, gamesman_position p, uint32_t *children,
                         gamesman_error *err);
    /* Whether p is the canonical position of its class: returns 1 or 0, faster than
     * canonical_position finds the form. Only called with GAMESMAN_FLAG_SYMMETRY; may
     * return GAMESMAN_UNSUPPORTED. NULL: the host compares canonical_position(p) with
     * p. */
    int (*is_canonical)(gamesman_game *game, gamesman_position p, gamesman_error *err);

    /* ---- header revision 3: the module's share of the memory budget -------------- */

    /* The host's budget for the module's own caches while it solves (tables,
     * numberings), in bytes: keep them within about `bytes`, and return the most you
     * will keep (>= 0), which the host counts in its estimate of every tier's peak
     * (the Rust trait's memory_budget, plugin-api 0.1.8). May be called again with
     * another figure. An error status is reported as a warning and nothing is
     * counted. NULL: 0, nothing worth counting. */
    int64_t (*memory_budget)(gamesman_game *game, uint64_t bytes, gamesman_error *err);

    /* New fields are only ever appended here. */
} gamesman_module;

/* The entry point every C module exports. */
const gamesman_module *gamesman_module_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* GAMESMAN_PLUGIN_H */
