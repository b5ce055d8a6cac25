/*
 * core_window.c: the hash window of the Tier Gamesman. A tier module's functions take
 * and return "window positions": one POSITION space laid over the tier being worked on
 * followed by its child tiers (each at an offset, indices in their tier's order, so
 * comparing positions of one tier with < compares their indices). The module converts
 * with gUnhashToTierPosition and gHashToWindowPosition; the layer converts the host's
 * (tier, index) pairs the same way.
 *
 * Each thread has its own window, opened on the tier of the position a call is about
 * and rebuilt when that tier changes; a position of a tier outside the window gets a
 * slot at the end. InitializeGame (a variant change) closes every window.
 *
 * Also here: which tiers list which as children (classic_tier_lists_child), the
 * question Classic's tier solver answers before it asks a module for undo moves.
 */
#include "classic_internal.h"

struct window_slot {
    TIER tier;
    POSITION offset;
    TIERPOSITION size;
};

static unsigned generation = 1; /* bumped by classic_window_reset */
static _Thread_local unsigned window_generation = 0;
static _Thread_local TIER window_tier = 0;
static _Thread_local struct window_slot *slots = NULL;
static _Thread_local int slot_count = 0, slot_room = 0;

void classic_window_reset(void) { generation++; }

static struct window_slot *add_slot(TIER tier) {
    if (gNumberOfTierPositionsFunPtr == NULL)
        ExitStageRightErrorString("the module uses the hash window but sets no gNumberOfTierPositionsFunPtr");
    const char *caller = classic_note_function("NumberOfTierPositions");
    TIERPOSITION size = gNumberOfTierPositionsFunPtr(tier);
    classic_note_function(caller);
    POSITION offset = slot_count == 0 ? 0 : slots[slot_count - 1].offset + slots[slot_count - 1].size;
    if (offset + size < offset) ExitStageRightErrorString("the hash window's tiers hold more than 2^64 positions");
    if (slot_count == slot_room) {
        slot_room = slot_room == 0 ? 8 : 2 * slot_room;
        slots = SafeRealloc(slots, sizeof *slots * (size_t)slot_room);
    }
    slots[slot_count] = (struct window_slot){tier, offset, size};
    return &slots[slot_count++];
}

static struct window_slot *find_slot(TIER tier) {
    for (int i = 0; i < slot_count; i++)
        if (slots[i].tier == tier) return &slots[i];
    return NULL;
}

static void open_window(TIER tier) {
    slot_count = 0;
    window_generation = generation;
    window_tier = tier;
    struct window_slot *own = add_slot(tier);
    if (gTierChildrenFunPtr != NULL) {
        const char *caller = classic_note_function("TierChildren");
        TIERLIST *children = gTierChildrenFunPtr(tier);
        classic_note_function(caller);
        for (TIERLIST *t = children; t != NULL; t = t->next)
            if (find_slot(t->tier) == NULL) add_slot(t->tier);
        FreeTierList(children);
        own = &slots[0];
    }
    gCurrentTier = tier;
    gCurrentTierSize = own->size;
    gHashWindowInitialized = TRUE;
}

POSITION classic_window_position(TIER tier, TIERPOSITION tierposition) {
    if (window_generation != generation || window_tier != tier) open_window(tier);
    return gHashToWindowPosition(tierposition, tier);
}

BOOLEAN classic_window_split(POSITION position, TIER *tier, TIERPOSITION *tierposition) {
    if (window_generation != generation) return FALSE;
    for (int i = 0; i < slot_count; i++) {
        if (position >= slots[i].offset && position - slots[i].offset < slots[i].size) {
            *tier = slots[i].tier;
            *tierposition = position - slots[i].offset;
            return TRUE;
        }
    }
    return FALSE;
}

CLASSIC_CORE POSITION gHashToWindowPosition(TIERPOSITION tierposition, TIER tier) {
    if (window_generation != generation) open_window(tier);
    struct window_slot *slot = find_slot(tier);
    if (slot == NULL) slot = add_slot(tier);
    if (tierposition >= slot->size) {
        char why[160];
        snprintf(why, sizeof why, "gHashToWindowPosition: tier position %llu is past the size %llu of tier %llu",
                 tierposition, slot->size, tier);
        ExitStageRightErrorString(why);
    }
    return slot->offset + tierposition;
}

CLASSIC_CORE void gUnhashToTierPosition(POSITION position, TIERPOSITION *tierposition, TIER *tier) {
    if (!classic_window_split(position, tier, tierposition)) {
        char why[128];
        snprintf(why, sizeof why, "gUnhashToTierPosition: position %llu lies in no tier of the hash window", position);
        ExitStageRightErrorString(why);
    }
}

CLASSIC_CORE void gInitializeHashWindow(TIER tier, BOOLEAN loadDB) {
    (void)loadDB;
    open_window(tier);
}

/* The children of the tier last asked about, on this thread (TierChildren is called
 * once per tier, not once per position). */
static _Thread_local unsigned lists_generation = 0;
static _Thread_local TIER lists_tier = 0;
static _Thread_local TIER *lists = NULL;
static _Thread_local int lists_count = 0, lists_room = 0;

BOOLEAN classic_tier_lists_child(TIER tier, TIER child) {
    if (gTierChildrenFunPtr == NULL) return tier == child;
    if (lists_generation != generation || lists_tier != tier || lists == NULL) {
        const char *caller = classic_note_function("TierChildren");
        TIERLIST *children = gTierChildrenFunPtr(tier);
        classic_note_function(caller);
        lists_count = 0;
        for (TIERLIST *t = children; t != NULL; t = t->next) {
            if (lists_count == lists_room) {
                lists_room = lists_room == 0 ? 16 : 2 * lists_room;
                lists = SafeRealloc(lists, sizeof *lists * (size_t)lists_room);
            }
            lists[lists_count++] = t->tier;
        }
        FreeTierList(children);
        if (lists == NULL) lists = SafeRealloc(lists, sizeof *lists); /* marks the cache filled */
        lists_generation = generation;
        lists_tier = tier;
    }
    for (int i = 0; i < lists_count; i++)
        if (lists[i] == child) return TRUE;
    return FALSE;
}
