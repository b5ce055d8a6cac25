/*
 * core_lists.c: Classic's memory helpers and linked lists (moves, tiers, undo moves,
 * positions, remoteness, multipart edges) and copyString. SafeMalloc ends the call (not the host) when memory runs
 * out, as Classic's ends the program.
 */
#include "classic_internal.h"

CLASSIC_CORE GENERIC_PTR SafeMalloc(size_t amount) {
    void *p = malloc(amount == 0 ? 1 : amount);
    if (p == NULL) ExitStageRightErrorString("out of memory in SafeMalloc");
    return p;
}

CLASSIC_CORE GENERIC_PTR SafeRealloc(GENERIC_PTR ptr, size_t amount) {
    void *p = realloc(ptr, amount == 0 ? 1 : amount);
    if (p == NULL) ExitStageRightErrorString("out of memory in SafeRealloc");
    return p;
}

CLASSIC_CORE void SafeFree(GENERIC_PTR ptr) { free(ptr); }

CLASSIC_CORE MOVELIST *CreateMovelistNode(MOVE theMove, MOVELIST *theNextMove) {
    MOVELIST *node = SafeMalloc(sizeof *node);
    node->move = theMove;
    node->next = theNextMove;
    return node;
}

CLASSIC_CORE MOVELIST *CopyMovelist(MOVELIST *list) {
    MOVELIST *head = NULL, **tail = &head;
    for (; list != NULL; list = list->next) {
        *tail = CreateMovelistNode(list->move, NULL);
        tail = &(*tail)->next;
    }
    return head;
}

CLASSIC_CORE size_t MoveListLength(MOVELIST *ptr) {
    size_t n = 0;
    for (; ptr != NULL; ptr = ptr->next) n++;
    return n;
}

CLASSIC_CORE void FreeMoveList(MOVELIST *ptr) {
    while (ptr != NULL) {
        MOVELIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE TIERLIST *CreateTierlistNode(TIER theTier, TIERLIST *theNextTier) {
    TIERLIST *node = SafeMalloc(sizeof *node);
    node->tier = theTier;
    node->next = theNextTier;
    return node;
}

CLASSIC_CORE void FreeTierList(TIERLIST *ptr) {
    while (ptr != NULL) {
        TIERLIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE BOOLEAN TierInList(TIER theTier, TIERLIST *theTierlist) {
    for (; theTierlist != NULL; theTierlist = theTierlist->next)
        if (theTierlist->tier == theTier) return TRUE;
    return FALSE;
}

CLASSIC_CORE UNDOMOVELIST *CreateUndoMovelistNode(UNDOMOVE theUndoMove, UNDOMOVELIST *theNextUndoMove) {
    UNDOMOVELIST *node = SafeMalloc(sizeof *node);
    node->undomove = theUndoMove;
    node->next = theNextUndoMove;
    return node;
}

CLASSIC_CORE void FreeUndoMoveList(UNDOMOVELIST *ptr) {
    while (ptr != NULL) {
        UNDOMOVELIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE POSITIONLIST *StorePositionInList(POSITION thePosition, POSITIONLIST *thePositionList) {
    POSITIONLIST *node = SafeMalloc(sizeof *node);
    node->position = thePosition;
    node->next = thePositionList;
    return node;
}

CLASSIC_CORE void FreePositionList(POSITIONLIST *ptr) {
    while (ptr != NULL) {
        POSITIONLIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE REMOTENESSLIST *CreateRemotenesslistNode(REMOTENESS theRemoteness, REMOTENESSLIST *theNextRemoteness) {
    REMOTENESSLIST *node = SafeMalloc(sizeof *node);
    node->remoteness = theRemoteness;
    node->next = theNextRemoteness;
    return node;
}

CLASSIC_CORE void FreeRemotenessList(REMOTENESSLIST *ptr) {
    while (ptr != NULL) {
        REMOTENESSLIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE MULTIPARTEDGELIST *CreateMultipartEdgeListNode(POSITION from, POSITION to, MOVE partMove, MOVE fullMove,
                                                            MULTIPARTEDGELIST *next) {
    MULTIPARTEDGELIST *node = SafeMalloc(sizeof *node);
    node->from = from;
    node->to = to;
    node->partMove = partMove;
    node->fullMove = fullMove;
    node->isTerminal = to == NULL_POSITION;
    node->next = next;
    return node;
}

CLASSIC_CORE void FreeMultipartEdgeList(MULTIPARTEDGELIST *ptr) {
    while (ptr != NULL) {
        MULTIPARTEDGELIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE void FreeBooleanList(BOOLEANLIST *ptr) {
    while (ptr != NULL) {
        BOOLEANLIST *next = ptr->next;
        free(ptr);
        ptr = next;
    }
}

CLASSIC_CORE STRING copyString(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy = SafeMalloc(n);
    memcpy(copy, s, n);
    return copy;
}
