/*
 * core_text.c: the core functions Classic modules call for text and play: position
 * strings ("<turn>_<board>") and AutoGUI strings, and harmless stand-ins for the
 * interactive and solver-side functions whose work the host does itself.
 *
 * The stand-ins never read stdin (the host owns it; the input helpers end the call
 * with an error instead) and never solve: GetPrediction is
 * empty (the host prints its own prediction line below the board), DetermineValue and
 * GetValueOfPosition answer `undecided`, the menus do nothing.
 */
#include "classic_internal.h"

/* ---- position strings and AutoGUI strings ---------------------------------------- */

CLASSIC_CORE BOOLEAN ParseStandardOnelinePositionString(char *positionString, int *turn, char **board) {
    if (positionString == NULL) return FALSE;
    size_t len = strnlen(positionString, MAX_POSITION_STRING_LENGTH + 1);
    if (len < 2 || len > MAX_POSITION_STRING_LENGTH) return FALSE;
    char t = positionString[0];
    if ((t != '0' && t != '1' && t != '2') || positionString[1] != '_') return FALSE;
    for (size_t i = 2; i < len; i++)
        if (positionString[i] == ':' || positionString[i] == ';') return FALSE;
    if (turn != NULL) *turn = t - '0';
    if (board != NULL) *board = positionString + 2;
    return TRUE;
}

CLASSIC_CORE BOOLEAN ParseAutoGUIFormattedPositionString(char *positionString, int *turn, char **entityString) {
    return ParseStandardOnelinePositionString(positionString, turn, entityString);
}

CLASSIC_CORE void AutoGUIMakePositionString(int turn, char *board, char *buf) {
    snprintf(buf, MAX_POSITION_STRING_LENGTH, "%d_%s", turn, board != NULL ? board : "");
}

CLASSIC_CORE void AutoGUIMakeMoveButtonStringA(char token, unsigned int at, char sound, char *buf) {
    snprintf(buf, MAX_MOVE_STRING_LENGTH, "A_%c_%u_%c", token, at, sound);
}

CLASSIC_CORE void AutoGUIMakeMoveButtonStringT(char *text, unsigned int at, char sound, char *buf) {
    snprintf(buf, MAX_MOVE_STRING_LENGTH, "T_%s_%u_%c", text != NULL ? text : "", at, sound);
}

CLASSIC_CORE void AutoGUIMakeMoveButtonStringM(unsigned int from, unsigned int to, char sound, char *buf) {
    snprintf(buf, MAX_MOVE_STRING_LENGTH, "M_%u_%u_%c", from, to, sound);
}

CLASSIC_CORE void AutoGUIMakeMoveButtonStringL(unsigned int p1, unsigned int p2, char sound, char *buf) {
    snprintf(buf, MAX_MOVE_STRING_LENGTH, "L_%u_%u_%c", p1, p2, sound);
}

CLASSIC_CORE void AutoGUIWriteEmptyString(char *buf) { buf[0] = '\0'; }

/* ---- "key=value" fields of position strings ------------------------------------------ */

/* Finds ",KEY=" in `board_string` and parses what follows up to the next ',' with
 * `func`; FALSE if the key is absent, the value does not parse, or the key repeats. */
CLASSIC_CORE BOOLEAN GetValueInner(char *board_string, char *key, get_value_func_t func, void *target) {
    size_t klen = strlen(key);
    for (char *at = strchr(board_string, ','); at != NULL; at = strchr(at + 1, ',')) {
        char *name = at + 1;
        if (strncmp(name, key, klen) != 0 || (name[klen] != '=' && name[klen] != '\0')) continue;
        char *value = name[klen] == '=' ? name + klen + 1 : name + klen;
        char *comma = strchr(value, ',');
        if (comma != NULL) *comma = '\0';
        BOOLEAN ok = func(value, target);
        if (comma != NULL) *comma = ',';
        if (ok && comma != NULL) ok = !GetValueInner(comma, key, func, target);
        return ok;
    }
    return FALSE;
}

CLASSIC_CORE BOOLEAN GetInt(char *value, int *placeholder) {
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value) return FALSE;
    *placeholder = (int)v;
    return TRUE;
}

CLASSIC_CORE BOOLEAN GetUnsignedLongLong(char *value, unsigned long long *placeholder) {
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    if (end == value) return FALSE;
    *placeholder = v;
    return TRUE;
}

CLASSIC_CORE BOOLEAN GetChar(char *value, char *placeholder) {
    if (value[0] == '\0') return FALSE;
    *placeholder = value[0];
    return TRUE;
}

/* ---- play helpers ------------------------------------------------------------------ */

CLASSIC_CORE STRING GetPrediction(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    (void)position, (void)playerName, (void)usersTurn;
    static char empty[1] = "";
    return empty;
}

CLASSIC_CORE STRING GetSEvalPrediction(POSITION position, STRING playerName, BOOLEAN usersTurn) {
    return GetPrediction(position, playerName, usersTurn);
}

CLASSIC_CORE BOOLEAN ValidMove(POSITION thePosition, MOVE theMove) {
    if (GenerateMoves == NULL) return FALSE;
    MOVELIST *moves = GenerateMoves(thePosition);
    BOOLEAN found = FALSE;
    for (MOVELIST *m = moves; m != NULL; m = m->next)
        if (m->move == theMove) found = TRUE;
    FreeMoveList(moves);
    return found;
}

CLASSIC_CORE BOOLEAN DefaultGoAgain(POSITION pos, MOVE move) {
    (void)pos, (void)move;
    return FALSE;
}

CLASSIC_CORE int GetRandomNumber(int n) { return n > 0 ? rand() % n : 0; }

CLASSIC_CORE int GetSmallRandomNumber(int n) { return GetRandomNumber(n); }

/* ---- stand-ins: the host plays, solves and reads input itself ---------------------- */

CLASSIC_CORE USERINPUT HandleDefaultTextInput(POSITION thePosition, MOVE *theMove, STRING playerName) {
    (void)thePosition, (void)theMove, (void)playerName;
    return Abort;
}

/* Classic's input helpers read what a user types: inside a call from the host there
 * is no user, so each ends the call with an error naming it (classic_no_input). */
CLASSIC_CORE char GetMyChar(void) { classic_no_input("GetMyChar"); }
CLASSIC_CORE int GetMyInt(void) { classic_no_input("GetMyInt"); }
CLASSIC_CORE unsigned int GetMyUInt(void) { classic_no_input("GetMyUInt"); }
CLASSIC_CORE void GetMyStr(STRING str, int len) {
    (void)str, (void)len;
    classic_no_input("GetMyStr");
}
CLASSIC_CORE void HitAnyKeyToContinue(void) { classic_no_input("HitAnyKeyToContinue"); }
CLASSIC_CORE void BadMenuChoice(void) {}
CLASSIC_CORE void PrintValueMoves(POSITION pos) { (void)pos; }
CLASSIC_CORE BOOLEAN PrintPossibleMoves(POSITION pos) {
    (void)pos;
    return FALSE;
}
CLASSIC_CORE void HelpMenus(void) {}
CLASSIC_CORE void Initialize(void) {}
CLASSIC_CORE void InitializeDatabases(void) {}

CLASSIC_CORE VALUE DetermineValue(POSITION position) {
    (void)position;
    return undecided;
}

CLASSIC_CORE VALUE GetValueOfPosition(POSITION position) {
    (void)position;
    return undecided;
}

CLASSIC_CORE REMOTENESS Remoteness(POSITION position) {
    (void)position;
    return 0;
}
