/*
 * one_core.c: the small core GamesmanOne games call besides the hash: constants,
 * growable arrays, hash sets, CString, AutoGUI strings, partmoves, variant indices and
 * arithmetic helpers, written for this layer from the API's behaviour.
 *
 * Must not: know any game, or call into the host (one_module.c does that).
 */
#include <stdlib.h>
#include <string.h>

#include "one_api.h"

const Tier kDefaultTier = 0;
const Tier kIllegalTier = -1;
const Position kIllegalPosition = -1;
const TierPosition kIllegalTierPosition = {-1, -1};
const Move kIllegalMove = -1;
ConstantReadOnlyString kValueStrings[kNumValues] = {"undecided", "lose", "draw", "tie", "win"};
const Solver kTierSolver = {"tier"};
const Solver kRegularSolver = {"regular"};

/* ---- arrays ------------------------------------------------------------------------ */

void Int64ArrayInit(Int64Array *a) { a->array = NULL, a->size = 0, a->capacity = 0; }

void Int64ArrayDestroy(Int64Array *a) {
    free(a->array);
    Int64ArrayInit(a);
}

bool Int64ArrayPushBack(Int64Array *a, int64_t item) {
    if (a->size == a->capacity) {
        int64_t capacity = a->capacity == 0 ? 8 : a->capacity * 2;
        int64_t *grown = realloc(a->array, (size_t)capacity * sizeof *grown);
        if (grown == NULL) return false;
        a->array = grown, a->capacity = capacity;
    }
    a->array[a->size++] = item;
    return true;
}

void Int64ArrayPopBack(Int64Array *a) {
    if (a->size > 0) --a->size;
}

int64_t Int64ArrayBack(const Int64Array *a) { return a->array[a->size - 1]; }

bool Int64ArrayContains(const Int64Array *a, int64_t item) {
    for (int64_t i = 0; i < a->size; ++i) {
        if (a->array[i] == item) return true;
    }
    return false;
}

bool Int64ArrayInitCopy(Int64Array *dest, const Int64Array *src) {
    Int64ArrayInit(dest);
    for (int64_t i = 0; i < src->size; ++i) {
        if (!Int64ArrayPushBack(dest, src->array[i])) {
            Int64ArrayDestroy(dest);
            return false;
        }
    }
    return true;
}

void MoveArrayInit(MoveArray *a) { Int64ArrayInit(a); }
void MoveArrayDestroy(MoveArray *a) { Int64ArrayDestroy(a); }
bool MoveArrayAppend(MoveArray *a, Move m) { return Int64ArrayPushBack(a, m); }
bool MoveArrayPopBack(MoveArray *a) {
    if (a->size == 0) return false;
    --a->size;
    return true;
}
bool MoveArrayContains(const MoveArray *a, Move m) { return Int64ArrayContains(a, m); }
void PositionArrayInit(PositionArray *a) { Int64ArrayInit(a); }
void PositionArrayDestroy(PositionArray *a) { Int64ArrayDestroy(a); }
bool PositionArrayAppend(PositionArray *a, Position p) { return Int64ArrayPushBack(a, p); }
bool PositionArrayContains(const PositionArray *a, Position p) { return Int64ArrayContains(a, p); }
void TierArrayInit(TierArray *a) { Int64ArrayInit(a); }
void TierArrayDestroy(TierArray *a) { Int64ArrayDestroy(a); }
bool TierArrayAppend(TierArray *a, Tier t) { return Int64ArrayPushBack(a, t); }

/* ---- hash sets (open addressing, linear probing, capacity a power of two) ---------- */

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static double load_factor(double wanted) { return wanted > 0.05 && wanted < 0.95 ? wanted : 0.5; }

/* The first slot of `capacity` for `hash`, as a bit mask. */
#define SLOT(hash, capacity) ((int64_t)((hash) & (uint64_t)((capacity) - 1)))

/* A table is one block: `capacity` keys, then `capacity` used flags. The games make
 * and destroy a small set in nearly every child and parent call, so each thread keeps
 * a few freed blocks of each small capacity for its next set instead of returning
 * them to malloc (at most kCachedPerSize per capacity up to 2^kCachedLog2Max slots:
 * under 300 KiB a thread). That spared a Quixo 4x4 solve about a tenth of its CPU,
 * which malloc, calloc and free took. Keys of 8 bytes (kind 0) and 16 (kind 1). */
enum { kCachedLog2Max = 12, kCachedPerSize = 2 };

static __thread void *cached[2][kCachedLog2Max + 1][kCachedPerSize];
static __thread int cached_count[2][kCachedLog2Max + 1];

static int log2_of(int64_t capacity) { return 63 - __builtin_clzll((uint64_t)capacity); }

/* A block for `capacity` keys of `key_size` bytes, its used flags clear; NULL when
 * memory runs out. */
static void *table_take(int kind, int64_t capacity, size_t key_size) {
    int k = log2_of(capacity);
    void *block = NULL;
    if (k <= kCachedLog2Max && cached_count[kind][k] > 0) {
        block = cached[kind][k][--cached_count[kind][k]];
    } else {
        block = malloc((size_t)capacity * (key_size + 1));
        if (block == NULL) return NULL;
    }
    memset((char *)block + (size_t)capacity * key_size, 0, (size_t)capacity);
    return block;
}

/* Gives back the block of a table of `capacity` keys (NULL for none). */
static void table_give(int kind, int64_t capacity, void *block) {
    if (block == NULL) return;
    int k = log2_of(capacity);
    if (k <= kCachedLog2Max && cached_count[kind][k] < kCachedPerSize) {
        cached[kind][k][cached_count[kind][k]++] = block;
    } else {
        free(block);
    }
}

static void int64_set_init(Int64HashSet *s, double max_load_factor) {
    s->keys = NULL, s->used = NULL, s->capacity = 0, s->size = 0;
    s->max_load_factor = load_factor(max_load_factor);
}

static void int64_set_destroy(Int64HashSet *s) {
    table_give(0, s->capacity, s->keys);
    int64_set_init(s, s->max_load_factor);
}

static bool int64_set_contains(const Int64HashSet *s, int64_t key) {
    if (s->capacity == 0) return false;
    for (int64_t i = SLOT(mix((uint64_t)key), s->capacity);; i = (i + 1) & (s->capacity - 1)) {
        if (!s->used[i]) return false;
        if (s->keys[i] == key) return true;
    }
}

static bool int64_set_insert_new(Int64HashSet *s, int64_t key) {
    int64_t i = SLOT(mix((uint64_t)key), s->capacity);
    while (s->used[i]) {
        if (s->keys[i] == key) return false;
        i = (i + 1) & (s->capacity - 1);
    }
    s->used[i] = true, s->keys[i] = key, ++s->size;
    return true;
}

static bool int64_set_grow(Int64HashSet *s, int64_t capacity) {
    Int64HashSet bigger = *s;
    bigger.capacity = capacity, bigger.size = 0;
    bigger.keys = table_take(0, capacity, sizeof *bigger.keys);
    if (bigger.keys == NULL) return false;
    bigger.used = (bool *)(bigger.keys + capacity);
    for (int64_t i = 0; i < s->capacity; ++i) {
        if (s->used[i]) int64_set_insert_new(&bigger, s->keys[i]);
    }
    table_give(0, s->capacity, s->keys);
    *s = bigger;
    return true;
}

static int64_t capacity_for(int64_t size, double load) {
    int64_t capacity = 8;
    while ((double)capacity * load < (double)(size + 1)) capacity *= 2;
    return capacity;
}

/* Whether `capacity` slots hold `size` keys within the load factor (what capacity_for
 * asks of the capacity it picks). */
static bool fits(int64_t size, int64_t capacity, double load) {
    return capacity > 0 && (double)capacity * load >= (double)(size + 1);
}

static bool int64_set_reserve(Int64HashSet *s, int64_t size) {
    if (fits(size, s->capacity, s->max_load_factor)) return true;
    int64_t capacity = capacity_for(size, s->max_load_factor);
    return capacity <= s->capacity || int64_set_grow(s, capacity);
}

static bool int64_set_add(Int64HashSet *s, int64_t key) {
    /* With room for one more, one probe sequence finds the key or its slot. */
    if (fits(s->size + 1, s->capacity, s->max_load_factor)) return int64_set_insert_new(s, key);
    if (int64_set_contains(s, key)) return false;
    if (!int64_set_reserve(s, s->size + 1)) return false;
    return int64_set_insert_new(s, key);
}

void PositionHashSetInit(PositionHashSet *s, double f) { int64_set_init(s, f); }
void PositionHashSetDestroy(PositionHashSet *s) { int64_set_destroy(s); }
bool PositionHashSetReserve(PositionHashSet *s, int64_t n) { return int64_set_reserve(s, n); }
bool PositionHashSetContains(PositionHashSet *s, Position p) { return int64_set_contains(s, p); }
bool PositionHashSetAdd(PositionHashSet *s, Position p) { return int64_set_add(s, p); }
void TierHashSetInit(TierHashSet *s, double f) { int64_set_init(s, f); }
void TierHashSetDestroy(TierHashSet *s) { int64_set_destroy(s); }
bool TierHashSetReserve(TierHashSet *s, int64_t n) { return int64_set_reserve(s, n); }
bool TierHashSetContains(const TierHashSet *s, Tier t) { return int64_set_contains(s, t); }
bool TierHashSetAdd(TierHashSet *s, Tier t) { return int64_set_add(s, t); }

static uint64_t tp_hash(TierPosition k) { return mix((uint64_t)k.position ^ ((uint64_t)k.tier * 0x9e3779b97f4a7c15ULL)); }
static bool tp_equal(TierPosition a, TierPosition b) { return a.tier == b.tier && a.position == b.position; }

void TierPositionHashSetInit(TierPositionHashSet *s, double max_load_factor) {
    s->keys = NULL, s->used = NULL, s->capacity = 0, s->size = 0;
    s->max_load_factor = load_factor(max_load_factor);
}

void TierPositionHashSetDestroy(TierPositionHashSet *s) {
    table_give(1, s->capacity, s->keys);
    TierPositionHashSetInit(s, s->max_load_factor);
}

bool TierPositionHashSetContains(TierPositionHashSet *s, TierPosition key) {
    if (s->capacity == 0) return false;
    for (int64_t i = SLOT(tp_hash(key), s->capacity);; i = (i + 1) & (s->capacity - 1)) {
        if (!s->used[i]) return false;
        if (tp_equal(s->keys[i], key)) return true;
    }
}

static bool tp_insert_new(TierPositionHashSet *s, TierPosition key) {
    int64_t i = SLOT(tp_hash(key), s->capacity);
    while (s->used[i]) {
        if (tp_equal(s->keys[i], key)) return false;
        i = (i + 1) & (s->capacity - 1);
    }
    s->used[i] = true, s->keys[i] = key, ++s->size;
    return true;
}

bool TierPositionHashSetReserve(TierPositionHashSet *s, int64_t size) {
    if (fits(size, s->capacity, s->max_load_factor)) return true;
    int64_t capacity = capacity_for(size, s->max_load_factor);
    if (capacity <= s->capacity) return true;
    TierPositionHashSet bigger = *s;
    bigger.capacity = capacity, bigger.size = 0;
    bigger.keys = table_take(1, capacity, sizeof *bigger.keys);
    if (bigger.keys == NULL) return false;
    bigger.used = (bool *)(bigger.keys + capacity);
    for (int64_t i = 0; i < s->capacity; ++i) {
        if (s->used[i]) tp_insert_new(&bigger, s->keys[i]);
    }
    table_give(1, s->capacity, s->keys);
    *s = bigger;
    return true;
}

bool TierPositionHashSetAdd(TierPositionHashSet *s, TierPosition key) {
    if (fits(s->size + 1, s->capacity, s->max_load_factor)) return tp_insert_new(s, key);
    if (TierPositionHashSetContains(s, key)) return false;
    if (!TierPositionHashSetReserve(s, s->size + 1)) return false;
    return tp_insert_new(s, key);
}

/* ---- CString ------------------------------------------------------------------------ */

const CString kNullCString = {NULL, 0, 0};
const CString kErrorCString = {NULL, -1, -1};

bool CStringInitEmpty(CString *c) { return CStringInitCopyCharArray(c, ""); }

bool CStringInitCopyCharArray(CString *c, const char *src) {
    size_t n = strlen(src);
    c->str = malloc(n + 1);
    if (c->str == NULL) {
        *c = kNullCString;
        return false;
    }
    memcpy(c->str, src, n + 1);
    c->length = (int64_t)n, c->capacity = (int64_t)n + 1;
    return true;
}

bool CStringInitCopy(CString *init, const CString *other) {
    if (other->str == NULL) {
        *init = kNullCString;
        return true;
    }
    return CStringInitCopyCharArray(init, other->str);
}

void CStringInitMove(CString *init, CString *other) {
    *init = *other;
    *other = kNullCString;
}

bool CStringAppend(CString *dest, const char *src) {
    size_t n = strlen(src);
    size_t need = (size_t)(dest->str == NULL ? 0 : dest->length) + n + 1;
    if (dest->str == NULL || (int64_t)need > dest->capacity) {
        size_t capacity = need * 2;
        char *grown = realloc(dest->str, capacity);
        if (grown == NULL) return false;
        if (dest->str == NULL) grown[0] = '\0', dest->length = 0;
        dest->str = grown, dest->capacity = (int64_t)capacity;
    }
    memcpy(dest->str + dest->length, src, n + 1);
    dest->length += (int64_t)n;
    return true;
}

bool CStringResize(CString *c, int64_t size, char fill) {
    if (c->str == NULL && !CStringInitEmpty(c)) return false;
    if (size + 1 > c->capacity) {
        char *grown = realloc(c->str, (size_t)size + 1);
        if (grown == NULL) return false;
        c->str = grown, c->capacity = size + 1;
    }
    for (int64_t i = c->length; i < size; ++i) c->str[i] = fill;
    c->str[size] = '\0', c->length = size;
    return true;
}

bool CStringIsNull(const CString *c) { return c->str == NULL; }
bool CStringError(const CString *c) { return c->str == NULL && c->length < 0; }

void CStringDestroy(CString *c) {
    free(c->str);
    *c = kNullCString;
}

/* ---- partmoves and AutoGUI strings ---------------------------------------------------- */

void PartMoveDestroy(Partmove *p) {
    CStringDestroy(&p->autogui_move), CStringDestroy(&p->formal_move);
    CStringDestroy(&p->from), CStringDestroy(&p->to), CStringDestroy(&p->full);
}

void PartmoveArrayInit(PartmoveArray *pa) { pa->array = NULL, pa->size = 0, pa->capacity = 0; }

void PartmoveArrayDestroy(PartmoveArray *pa) {
    for (int64_t i = 0; i < pa->size; ++i) PartMoveDestroy(&pa->array[i]);
    free(pa->array);
    PartmoveArrayInit(pa);
}

/* Takes the strings over (they are left null); NULL pointers stand for null strings. */
int PartmoveArrayEmplaceBack(PartmoveArray *pa, CString *autogui_move, CString *formal_move,
                             CString *from, CString *to, CString *full) {
    if (pa->size == pa->capacity) {
        int64_t capacity = pa->capacity == 0 ? 4 : pa->capacity * 2;
        Partmove *grown = realloc(pa->array, (size_t)capacity * sizeof *grown);
        if (grown == NULL) return kMallocFailureError;
        pa->array = grown, pa->capacity = capacity;
    }
    Partmove *p = &pa->array[pa->size++];
    CString *parts[5] = {autogui_move, formal_move, from, to, full};
    CString *slots[5] = {&p->autogui_move, &p->formal_move, &p->from, &p->to, &p->full};
    for (int i = 0; i < 5; ++i) {
        if (parts[i] == NULL) {
            *slots[i] = kNullCString;
        } else {
            CStringInitMove(slots[i], parts[i]);
        }
    }
    return kNoError;
}

static CString formatted(const char *text) {
    CString c;
    if (!CStringInitCopyCharArray(&c, text)) return kErrorCString;
    return c;
}

/* "<turn>_<entities>". */
CString AutoGuiMakePosition(int turn, ReadOnlyString entities) {
    size_t n = strlen(entities) + 16;
    char *buf = malloc(n);
    if (buf == NULL) return kErrorCString;
    snprintf(buf, n, "%d_%s", turn, entities);
    CString c = formatted(buf);
    free(buf);
    return c;
}

/* "A_<token>_<center>" and the like, with "_<sound>" when a sound is given. */
static CString move_string(const char *body, char sound) {
    size_t n = strlen(body) + 4;
    char *buf = malloc(n);
    if (buf == NULL) return kErrorCString;
    if (sound != '\0') {
        snprintf(buf, n, "%s_%c", body, sound);
    } else {
        snprintf(buf, n, "%s", body);
    }
    CString c = formatted(buf);
    free(buf);
    return c;
}

CString AutoGuiMakeMoveA(char token, int center, char sound) {
    char buf[64];
    snprintf(buf, sizeof buf, "A_%c_%d", token, center);
    return move_string(buf, sound);
}

CString AutoGuiMakeMoveM(int src, int dest, char sound) {
    char buf[64];
    snprintf(buf, sizeof buf, "M_%d_%d", src, dest);
    return move_string(buf, sound);
}

CString AutoGuiMakeMoveL(int src, int dest, char sound) {
    char buf[64];
    snprintf(buf, sizeof buf, "L_%d_%d", src, dest);
    return move_string(buf, sound);
}

CString AutoGuiMakeMoveT(ReadOnlyString text, int center, char sound) {
    size_t n = strlen(text) + 32;
    char *buf = malloc(n);
    if (buf == NULL) return kErrorCString;
    snprintf(buf, n, "T_%s_%d", text, center);
    CString c = move_string(buf, sound);
    free(buf);
    return c;
}

/* ---- variants and arithmetic ------------------------------------------------------------ */

/* Mixed radix, the first option most significant (GamesmanOne's variant ids). */
int GameVariantToIndex(const GameVariant *variant) {
    int index = 0;
    for (int i = 0; variant->options[i].num_choices > 0; ++i) {
        index = index * variant->options[i].num_choices + variant->selections[i];
    }
    return index;
}

void NotReached(ReadOnlyString message) {
    fprintf(stderr, "GamesmanOne module: NotReached: %s\n", message);
    abort();
}

int64_t NChooseR(int n, int r) {
    if (r < 0 || n < 0 || r > n) return 0;
    if (r > n - r) r = n - r;
    int64_t out = 1;
    for (int i = 1; i <= r; ++i) out = out * (n - r + i) / i;
    return out;
}

int Popcount32(uint32_t x) { return __builtin_popcount(x); }
int Popcount64(uint64_t x) { return __builtin_popcountll(x); }

int64_t SafeAddNonNegativeInt64(int64_t a, int64_t b) {
    if (a < 0 || b < 0 || a > INT64_MAX - b) return -1;
    return a + b;
}

int64_t SafeMultiplyNonNegativeInt64(int64_t a, int64_t b) {
    if (a < 0 || b < 0 || (a != 0 && b > INT64_MAX / a)) return -1;
    return a * b;
}

int64_t RoundUpDivide(int64_t n, int64_t d) { return (n + d - 1) / d; }
