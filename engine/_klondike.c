/* A compiled core of the exact solver for Klondike-shaped games (engine/klondike_core.py wraps it).
 *
 * The same search as engine/solver.py, made fast: depth-first search with a transposition table of canonical
 * positions (columns sorted, so mirror-image positions meet), safe foundation moves played at once as the
 * only child, the same sound pruning (engine/solver_rules.py: Keller's rule where foundation cards come back,
 * Blake & Gent's incomplete-pile dominance for split runs, one of several empty columns), and the same move
 * order. The stock and waste are one list, the talon, in the order the cards come off the stock; a child
 * plays any talon card the stock can bring to the top of the waste (the turns are implied, as Klondike-Solver
 * does), so positions between turns never enter the table. With unlimited passes every waste size on the
 * draw's grid (0, d, 2d, .., all turned) reaches every other, so they are one canonical position.
 *
 * Positions are told apart by two independent 64-bit hashes (128 bits): a false "seen" needs a collision of
 * both, about 1 in 10^20 for a search of 10^9 positions.
 *
 * Twin-blind (where any run moves): positions are keyed without where the face-up cards lie (``twin_key``), the
 * runs off face-up cards are not moved, and a card goes up from under a run by trading the run onto its twin
 * (``T2F_TWIN``); docs/solver.md argues why the same keys have the same children.
 *
 * Card codes as engine/cards.py: suit * 13 + rank - 1, suits S H D C (H and D red).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define NCOL 7
#define MAXUP 40
#define MAXDOWN 40
#define MAXTALON 52
#define MAXMOVES 256 /* a position has at most 56 children: each column top takes 2 cards, kings 1 space, ... */

enum { T2F, W2F, W2T, T2T, F2T, T2F_TWIN };
/* T2F_TWIN (the twin-blind search only): a card goes up from under a run, the run first moved onto the card's
 * twin (same rank and colour) at the end of another column; told to Python as the two moves it is. */
/* What the last move asks of the next one. Each is a reordering argument: a winning line can always be
 * rearranged to obey it, and a position's key includes it (the rule changes the position's children). */
enum {
    RULE_NONE,
    RULE_USE,    /* a foundation card was just brought down: build on it, or bring down its suit's next card */
    RULE_KING,   /* a column was just emptied: a king goes into a space next */
    RULE_REVEAL, /* a card was just turned face up: no foundation move but of that card */
};
/* Move-ordering classes, lowest tried first (engine/solver_rules.py). */
enum { TO_FOUNDATION, UNCOVERS, FROM_WASTE, EMPTIES, STOCK, BUILD, FROM_FOUNDATION };

typedef struct {
    uint8_t kind, a, b, n; /* T2F a=col; W2F a=talon index, n=1 if a new pass is needed; W2T a=index b=col n;
                              T2T a=src b=dst n=count; F2T a=suit b=col */
    int32_t order;         /* class * 100000 + tie: sorted ascending */
} Move;

typedef struct {
    uint8_t nup[NCOL];
    uint8_t down[NCOL];
    uint8_t h[4];
    uint8_t ntalon, pos;
    int16_t passes_left; /* -1: unlimited */
    uint8_t rule, rcard; /* what the last move asks of the next one (RULE_*), and its card */
    uint8_t dirty;       /* columns whose hashes below are out of date (a bit each) */
    uint64_t ch1[NCOL], ch2[NCOL]; /* each column's two hashes */
    uint64_t tmask;      /* bit k: the talon card first at index k of the root's talon is still there */
    uint8_t up[NCOL][MAXUP];
    uint8_t talon[MAXTALON];
    uint8_t tid[MAXTALON]; /* root index of each talon card, for tmask */
} State;

typedef struct {
    State s;
    int n, next;
    Move mv[MAXMOVES];
    uint64_t k1[MAXMOVES], k2[MAXMOVES]; /* twin-blind: each child's key, worked out with the children */
} Frame;

typedef struct {
    uint8_t dcards[NCOL][MAXDOWN];
    int draw, any_run, gives_back, draw_one_auto;
    int twin_blind; /* positions keyed by what is where up to twins (``twin_key``), see ``search`` */
    size_t max_entries;
    size_t first_slots; /* each walk's table starts this large (tests: a table that never grows) */
    long long nodes, max_nodes;
    int closest; /* the lowest ``guide`` met */
    double deadline;
    PyObject *progress;
    double start;
    int interrupted;
} Ctx;

static inline int rank_of(int c) { return c % 13 + 1; }
static inline int suit_of(int c) { return c / 13; }
static inline int red_of(int c) { int s = c / 13; return s == 1 || s == 2; }
static inline int fits_on(int card, int under) {
    return rank_of(card) + 1 == rank_of(under) && red_of(card) != red_of(under);
}
/* The card of the same rank and colour (spades with clubs, hearts with diamonds). */
static inline int twin_of(int c) { return (3 - suit_of(c)) * 13 + c % 13; }

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Keller's rule (engine/solver_rules.up_for_good): both suits of the other colour up to at least rank - 2 and
 * the other suit of the card's colour to at least rank - 3. */
static int up_for_good(int card, const uint8_t *h) {
    int r = rank_of(card), s = suit_of(card), red = red_of(card);
    for (int o = 0; o < 4; o++) {
        if (o == s) continue;
        int need = (((o == 1 || o == 2) == red) ? r - 3 : r - 2);
        if (h[o] < need) return 0;
    }
    return 1;
}

/* A card that may go up at once as the only child (engine/solver_rules.safe_move). */
static int safe_up(const Ctx *ctx, int card, const uint8_t *h) {
    int r = rank_of(card);
    if (ctx->gives_back) return r <= 2 || up_for_good(card, h);
    /* Nothing comes back: safe when every card that could be built on it is up. */
    int red = red_of(card);
    for (int o = 0; o < 4; o++) {
        if (((o == 1 || o == 2) != red) && h[o] < r - 1) return 0;
    }
    return 1;
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* The parts of a position's key other than its piles: the foundations, the waste size (canonical), the passes
 * left and the rule. With unlimited passes every waste size on the draw's grid is one position; with passes
 * counted, all turned is not a new pass not yet turned: the waste's top card is still there to play without
 * spending a pass. */
static inline uint64_t key_extra(const Ctx *ctx, const uint8_t *h, int pos, int ntalon, int passes_left, int rule,
                                 int rcard) {
    if (passes_left < 0 && (pos % ctx->draw == 0 || pos == ntalon)) pos = 0;
    return (uint64_t)h[0] | (uint64_t)h[1] << 4 | (uint64_t)h[2] << 8 | (uint64_t)h[3] << 12 | (uint64_t)pos << 16 |
           (uint64_t)(passes_left + 1) << 24 | (uint64_t)rule << 40 | (uint64_t)rcard << 44;
}

/* The twin-blind key: the foundations, the talon, each column's face-down count and whether a card other than
 * a king lies at the bottom of a column with none face down, and the rule. Where the face-up cards lie is left
 * out: every face-up card off a column's bottom lies on one of the two cards of the next rank and the other
 * colour, and which one does not matter (``search``). */
static inline uint64_t column_code(int down, int nup, int bottom) {
    if (down) return (uint64_t)down << 2 | (nup ? 2u : 0u);
    return nup && rank_of(bottom) != 13 ? 1u : 0u;
}

static inline void twin_key_of(uint64_t extra, uint64_t tmask, uint64_t cols, uint64_t *out1, uint64_t *out2) {
    uint64_t x = mix64(extra ^ 0x243f6a8885a308d3ULL), y = mix64(extra * 0x9e3779b97f4a7c15ULL + 1);
    x = mix64(x ^ tmask);
    y = mix64(y + tmask * 0xff51afd7ed558ccdULL);
    x = mix64(x ^ cols);
    y = mix64(y + cols * 0xc4ceb9fe1a85ec53ULL);
    *out1 = x | 1; /* 0 marks a free slot */
    *out2 = y;
}

static inline uint64_t columns_code(const State *s) {
    uint64_t cols = 0;
    for (int c = 0; c < NCOL; c++)
        cols = cols << 8 | column_code(s->down[c], s->nup[c], s->nup[c] ? s->up[c][0] : 0);
    return cols;
}

/* The twin-blind key of ``s`` were it under ``rule`` (its own, or none for ``walk_run``'s check). */
static void twin_key(const Ctx *ctx, const State *s, int rule, int rcard, uint64_t *out1, uint64_t *out2) {
    twin_key_of(key_extra(ctx, s->h, s->pos, s->ntalon, s->passes_left, rule, rcard), s->tmask, columns_code(s),
                out1, out2);
}

/* The twin-blind key of the child ``m`` makes, without making it (most children are positions met before). */
static void child_key(const Ctx *ctx, const State *s, uint64_t cols, Move m, uint64_t *out1, uint64_t *out2) {
    uint8_t h[4] = {s->h[0], s->h[1], s->h[2], s->h[3]};
    int pos = s->pos, ntalon = s->ntalon, passes_left = s->passes_left, rule = RULE_NONE, rcard = 0;
    uint64_t tmask = s->tmask;
    int from = -1, left = 0; /* the column a move takes cards from, and the face-up cards it leaves there */
    switch (m.kind) {
    case T2F:
        h[suit_of(s->up[m.a][s->nup[m.a] - 1])]++;
        from = m.a;
        left = s->nup[m.a] - 1;
        break;
    case T2F_TWIN:
        h[suit_of(s->up[m.a][s->nup[m.a] - m.n - 1])]++;
        from = m.a;
        left = s->nup[m.a] - m.n - 1;
        break;
    case T2T:
        from = m.a;
        left = s->nup[m.a] - m.n;
        break;
    case W2F:
    case W2T:
        if (m.kind == W2F) h[suit_of(s->talon[m.a])]++;
        tmask &= ~((uint64_t)1 << s->tid[m.a]);
        ntalon--;
        pos = m.a;
        if (m.n && passes_left > 0) passes_left--;
        break;
    case F2T:
        h[m.a]--;
        rule = RULE_USE;
        rcard = m.a * 13 + h[m.a];
        break;
    }
    if (from >= 0 && left == 0) { /* a turn, or an emptied column (the cards a move puts down change no code) */
        int shift = 8 * (NCOL - 1 - from), down = s->down[from];
        uint64_t code;
        if (down) {
            code = column_code(down - 1, 1, ctx->dcards[from][down - 1]);
        } else {
            code = 0;
            if (m.kind == T2T) rule = RULE_KING;
        }
        cols = (cols & ~((uint64_t)0xff << shift)) | code << shift;
    }
    twin_key_of(key_extra(ctx, h, pos, ntalon, passes_left, rule, rcard), tmask, cols, out1, out2);
}

static void state_hash(const Ctx *ctx, State *s, uint64_t *out1, uint64_t *out2) {
    if (ctx->twin_blind) {
        twin_key(ctx, s, s->rule, s->rcard, out1, out2);
        return;
    }
    uint64_t a[NCOL], b[NCOL];
    for (int c = 0; c < NCOL; c++) {
        if (s->dirty >> c & 1) {
            uint64_t x = s->down[c] ? (uint64_t)(c + 1) * 64 + s->down[c] : 0;
            uint64_t y = x ^ 0x5bd1e995ULL;
            x = mix64(x + 0x9e3779b97f4a7c15ULL);
            y = mix64(y + 0xc2b2ae3d27d4eb4fULL);
            for (int k = 0; k < s->nup[c]; k++) {
                x = mix64(x ^ (uint64_t)(s->up[c][k] + 1));
                y = mix64((y + (uint64_t)(s->up[c][k] + 7)) * 0x100000001b3ULL);
            }
            s->ch1[c] = x;
            s->ch2[c] = y;
        }
        a[c] = s->ch1[c];
        b[c] = s->ch2[c];
    }
    s->dirty = 0;
    /* Sort the columns by their first hash (insertion sort of 7), carrying the second along. */
    for (int i = 1; i < NCOL; i++) {
        uint64_t ka = a[i], kb = b[i];
        int j = i - 1;
        while (j >= 0 && a[j] > ka) {
            a[j + 1] = a[j];
            b[j + 1] = b[j];
            j--;
        }
        a[j + 1] = ka;
        b[j + 1] = kb;
    }
    uint64_t extra = key_extra(ctx, s->h, s->pos, s->ntalon, s->passes_left, s->rule, s->rcard);
    uint64_t x = mix64(extra ^ 0x243f6a8885a308d3ULL), y = mix64(extra * 0x9e3779b97f4a7c15ULL + 1);
    x = mix64(x ^ s->tmask);
    y = mix64(y + s->tmask * 0xff51afd7ed558ccdULL);
    for (int c = 0; c < NCOL; c++) {
        x = mix64(x ^ a[c]);
        y = mix64(y + b[c] * 0xc4ceb9fe1a85ec53ULL);
    }
    *out1 = x | 1; /* 0 marks a free slot */
    *out2 = y;
}

/* A transposition table: pairs (h1, h2) by open addressing; h1 == 0 marks a free slot. */
typedef struct {
    uint64_t *keys;
    size_t cap, count;
    size_t first; /* slots of the table's first allocation (a power of two) */
} Seen;

/* The table's memory: zeroed pages from the kernel, asked to be huge pages where the kernel allows it (a probe
 * of a table of gigabytes lands on a new page nearly every time: huge pages spare most of the page-table walks). */
static void want_huge_pages(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

static uint64_t *keys_alloc(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    want_huge_pages(p, bytes);
    return p;
}

/* The slot of (k1, k2) in a table of ``mask + 1`` slots: where it is, or the free slot that ends its probe. */
static inline size_t slot_of(const uint64_t *keys, size_t mask, uint64_t k1, uint64_t k2) {
    size_t j = (size_t)(k1 >> 7) & mask;
    while (keys[2 * j] && !(keys[2 * j] == k1 && keys[2 * j + 1] == k2)) j = (j + 1) & mask;
    return j;
}

/* Puts an entry known not to be in the table into it. */
static inline void put(uint64_t *keys, size_t mask, uint64_t k1, uint64_t k2) {
    size_t j = slot_of(keys, mask, k1, k2);
    keys[2 * j] = k1;
    keys[2 * j + 1] = k2;
}

static void keys_free(uint64_t *keys, size_t cap) {
    if (keys) munmap(keys, cap * 2 * sizeof(uint64_t));
}

#ifdef MREMAP_MAYMOVE
/* The entries of a table of ``half`` slots, just grown to twice that (the new half empty), moved to their places
 * under the new mask in place. Each entry is taken out and put in again, in slot order from the first empty slot
 * on: it lands in its old slot or before it, or in the new half, and a slot before the scan is never emptied
 * again, so every probe chain stays whole. The run of entries before the first empty slot (it may have wrapped
 * round from the end) is put back last. 0: out of memory. */
static int rehash_doubled(uint64_t *keys, size_t half) {
    size_t mask = 2 * half - 1, start = 0;
    while (start < half && keys[2 * start]) start++;
    uint64_t *wrapped = NULL;
    if (start) {
        wrapped = malloc(start * 2 * sizeof(uint64_t));
        if (!wrapped) return 0;
        memcpy(wrapped, keys, start * 2 * sizeof(uint64_t));
        memset(keys, 0, start * 2 * sizeof(uint64_t));
    }
    for (size_t i = start; i < half; i++) {
        uint64_t k1 = keys[2 * i];
        if (!k1) continue;
        keys[2 * i] = 0;
        put(keys, mask, k1, keys[2 * i + 1]);
    }
    for (size_t i = 0; i < start; i++) put(keys, mask, wrapped[2 * i], wrapped[2 * i + 1]);
    free(wrapped);
    return 1;
}
#endif

/* Twice the slots. Where the kernel can grow a mapping (mremap), the old table's pages are kept and its entries
 * moved within the larger table: only the new half is fresh memory, which the kernel must clear (the clearing of
 * fresh pages was a fifth of a 33-million-position search's time when every growth mapped a new table). */
static int table_grow(Seen *t) {
    size_t cap = t->cap ? t->cap * 2 : t->first;
#ifdef MREMAP_MAYMOVE
    if (t->cap) {
        size_t bytes = cap * 2 * sizeof(uint64_t);
        void *p = mremap(t->keys, t->cap * 2 * sizeof(uint64_t), bytes, MREMAP_MAYMOVE);
        if (p == MAP_FAILED) return 0;
        want_huge_pages(p, bytes);
        t->keys = p;
        if (!rehash_doubled(t->keys, t->cap)) {
            /* the entries still sit under the old mask in the first half: shrink back */
            void *q = mremap(t->keys, bytes, t->cap * 2 * sizeof(uint64_t), 0);
            if (q != MAP_FAILED) t->keys = q;
            return 0;
        }
        t->cap = cap;
        return 1;
    }
#endif
    uint64_t *keys = keys_alloc(cap * 2 * sizeof(uint64_t));
    if (!keys) return 0;
    size_t mask = cap - 1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->keys[2 * i]) put(keys, mask, t->keys[2 * i], t->keys[2 * i + 1]);
    keys_free(t->keys, t->cap);
    t->keys = keys;
    t->cap = cap;
    return 1;
}

/* 1: new (inserted), 0: seen before, -1: out of memory (or past ``max_entries``). */
static int table_insert(Seen *t, size_t max_entries, uint64_t k1, uint64_t k2) {
    if (t->count * 2 >= t->cap) {
        if (t->cap >= max_entries || !table_grow(t)) return -1;
    }
    size_t j = slot_of(t->keys, t->cap - 1, k1, k2);
    if (t->keys[2 * j]) return 0;
    t->keys[2 * j] = k1;
    t->keys[2 * j + 1] = k2;
    t->count++;
    return 1;
}

/* Whether (k1, k2) is in the table. */
static int table_has(const Seen *t, uint64_t k1, uint64_t k2) {
    return t->cap && t->keys[2 * slot_of(t->keys, t->cap - 1, k1, k2)] != 0;
}

/* Twin-blind: the children's keys, worked out with the children, and their table slots fetched from memory
 * side by side (about 15 % faster than one child at a time: a probe of a large table is a cache miss). */
static void child_keys(const Ctx *ctx, const Seen *t, Frame *f) {
    uint64_t cols = columns_code(&f->s);
    size_t mask = t->cap - 1;
    for (int k = 0; k < f->n; k++) {
        child_key(ctx, &f->s, cols, f->mv[k], &f->k1[k], &f->k2[k]);
        __builtin_prefetch(&t->keys[2 * ((size_t)(f->k1[k] >> 7) & mask)]);
    }
}

static inline int flip_if_needed(const Ctx *ctx, State *s, int c) {
    if (s->nup[c] == 0 && s->down[c] > 0) {
        s->down[c]--;
        s->up[c][0] = ctx->dcards[c][s->down[c]];
        s->nup[c] = 1;
        return 1;
    }
    return 0;
}

/* The rule a run moved off column c to another column leaves for the next move (none after a card goes up
 * from it: the next move may need that card up). */
static inline void after_column_move(const Ctx *ctx, State *s, int c) {
    if (flip_if_needed(ctx, s, c)) {
        /* Not twin-blind: there a turned card may let its twin go up by a trade, and the rule's positions cost
         * more than it saves (seed 69 of draw 3: 7.5 million positions without it, 8.2 million with it). */
        if (!ctx->twin_blind) {
            s->rule = RULE_REVEAL;
            s->rcard = s->up[c][0];
        }
    } else if (s->nup[c] == 0) {
        s->rule = RULE_KING;
    }
}

static int take_talon(State *s, int i, int new_pass) {
    int card = s->talon[i];
    s->tmask &= ~((uint64_t)1 << s->tid[i]);
    memmove(s->talon + i, s->talon + i + 1, (size_t)(s->ntalon - i - 1));
    memmove(s->tid + i, s->tid + i + 1, (size_t)(s->ntalon - i - 1));
    s->ntalon--;
    s->pos = (uint8_t)i;
    if (new_pass && s->passes_left > 0) s->passes_left--;
    return card;
}

static void apply(const Ctx *ctx, State *s, Move m) {
    int card;
    s->rule = RULE_NONE;
    s->rcard = 0;
    s->dirty |= (uint8_t)((m.kind == T2F || m.kind == T2T || m.kind == T2F_TWIN ? 1u << m.a : 0) |
                          (m.kind >= W2T ? 1u << m.b : 0));
    switch (m.kind) {
    case T2F:
        card = s->up[m.a][--s->nup[m.a]];
        s->h[suit_of(card)]++;
        flip_if_needed(ctx, s, m.a);
        break;
    case W2F:
        card = take_talon(s, m.a, m.n);
        s->h[suit_of(card)]++;
        break;
    case W2T:
        card = take_talon(s, m.a, m.n);
        s->up[m.b][s->nup[m.b]++] = (uint8_t)card;
        break;
    case T2T:
        memcpy(&s->up[m.b][s->nup[m.b]], &s->up[m.a][s->nup[m.a] - m.n], m.n);
        s->nup[m.b] += m.n;
        s->nup[m.a] -= m.n;
        after_column_move(ctx, s, m.a);
        break;
    case F2T:
        card = m.a * 13 + s->h[m.a] - 1;
        s->h[m.a]--;
        s->up[m.b][s->nup[m.b]++] = (uint8_t)card;
        s->rule = RULE_USE;
        s->rcard = (uint8_t)card;
        break;
    case T2F_TWIN:
        memcpy(&s->up[m.b][s->nup[m.b]], &s->up[m.a][s->nup[m.a] - m.n], m.n);
        s->nup[m.b] += m.n;
        s->nup[m.a] -= m.n;
        card = s->up[m.a][--s->nup[m.a]];
        s->h[suit_of(card)]++;
        flip_if_needed(ctx, s, m.a);
        break;
    }
}

/* An estimate of the moves still needed: each card not up needs a move, each face-down card a turn. */
static inline int guide(const State *s) {
    int h = 52 - (s->h[0] + s->h[1] + s->h[2] + s->h[3]);
    for (int c = 0; c < NCOL; c++) h += s->down[c];
    return h;
}

static inline int is_won(const State *s) { return s->h[0] == 13 && s->h[1] == 13 && s->h[2] == 13 && s->h[3] == 13; }

static inline void add(Move *mv, int *n, int kind, int a, int b, int cnt, int order) {
    if (*n >= MAXMOVES) return;
    /* The position in the list breaks ties: qsort is not stable. */
    Move m = {(uint8_t)kind, (uint8_t)a, (uint8_t)b, (uint8_t)cnt, order * MAXMOVES + *n};
    mv[(*n)++] = m;
}

static int cmp_moves(const void *x, const void *y) {
    const Move *p = x, *q = y;
    return (p->order > q->order) - (p->order < q->order);
}

/* Where each card may be played: for each card, the columns whose top it fits (a bit each), worked out once
 * per position; and the first empty column, for a king. */
typedef struct {
    uint8_t want[52];
    int first_empty, one;
} Targets;

static void targets_init(const Ctx *ctx, const State *s, Targets *t) {
    memset(t->want, 0, sizeof t->want);
    t->first_empty = -1;
    t->one = ctx->twin_blind;
    for (int d = 0; d < NCOL; d++) {
        if (s->nup[d]) {
            int top = s->up[d][s->nup[d] - 1], r = rank_of(top);
            if (r < 2) continue;
            for (int su = 0; su < 4; su++)
                if (((su == 1 || su == 2) != red_of(top))) t->want[su * 13 + r - 2] |= (uint8_t)(1u << d);
        } else if (s->down[d] == 0 && t->first_empty < 0) {
            t->first_empty = d;
        }
    }
}

/* The columns ``card`` may be played on, lowest first, leaving out column ``skip``. */
static int targets_for(const Targets *t, int card, int skip, int *out) {
    unsigned m = t->want[card];
    if (rank_of(card) == 13 && t->first_empty >= 0) m |= 1u << t->first_empty;
    if (skip >= 0) m &= ~(1u << skip);
    if (t->one && m) m &= -m; /* twin-blind: a card on either twin is the same position */
    int n = 0;
    while (m) {
        out[n++] = __builtin_ctz(m);
        m &= m - 1;
    }
    return n;
}

/* Children of a position in the order to try them; 0 when there are none. A safe move is the only child. */
static int gen_moves(const Ctx *ctx, const State *s, Move *mv) {
    int n = 0;
    const uint8_t *h = s->h;
    /* RULE_USE: a foundation card c was just brought down. Any winning line can bring it down just before its
     * first use instead (a card built on it, or its suit's next card brought down): the moves between neither
     * touch it nor need it off the foundation. So the next move uses it. Nothing becomes safe by it.
     * RULE_KING: a column was just emptied. A move that puts no king into a space does not need the space,
     * and could have come before the emptying: so the next move puts a king into a space.
     * RULE_REVEAL: a card was just turned face up. A foundation move of another card could have been made
     * before the turn (the turn changed neither the foundations nor that card's place): so the only
     * foundation move now is the new card's. */
    int only = -1, use_suit = -1, king_only = s->rule == RULE_KING;
    int up_ok = s->rule == RULE_NONE;      /* any foundation move */
    int up_card = s->rule == RULE_REVEAL ? s->rcard : -1; /* else only this card's */
    int onto = -1; /* twin-blind RULE_USE: a card built on the card brought down or on its twin */
    if (s->rule == RULE_USE) {
        if (ctx->twin_blind) onto = s->rcard;
        else
            for (int c = 0; c < NCOL; c++)
                if (s->nup[c] && s->up[c][s->nup[c] - 1] == s->rcard) only = c;
        use_suit = suit_of(s->rcard);
    }
    for (int c = 0; c < NCOL && (up_ok || up_card >= 0); c++) {
        if (!s->nup[c]) continue;
        int card = s->up[c][s->nup[c] - 1];
        if (!up_ok && card != up_card) continue;
        if (h[suit_of(card)] + 1 == rank_of(card) && safe_up(ctx, card, h)) {
            add(mv, &n, T2F, c, 0, 1, 0);
            return n;
        }
    }
    /* Twin-blind: a card under a run goes up, the run first moved onto its twin at the end of another column.
     * Under RULE_USE only the twin of the card brought down, by a trade onto it. */
    Move twins[8];
    int ntwins = 0;
    if (ctx->twin_blind && (up_ok || onto >= 0)) {
        int at_end[52];
        for (int k = 0; k < 52; k++) at_end[k] = -1;
        for (int d = 0; d < NCOL; d++)
            if (s->nup[d]) at_end[s->up[d][s->nup[d] - 1]] = d;
        for (int c = 0; c < NCOL; c++) {
            for (int j = 0; j + 1 < s->nup[c]; j++) {
                int card = s->up[c][j];
                if (h[suit_of(card)] + 1 != rank_of(card)) continue;
                if (!up_ok && card != twin_of(onto)) continue;
                int d = at_end[twin_of(card)];
                if (d < 0 || d == c) continue;
                if (up_ok && safe_up(ctx, card, h)) {
                    add(mv, &n, T2F_TWIN, c, d, s->nup[c] - j - 1, 0);
                    return n;
                }
                Move m = {T2F_TWIN, (uint8_t)c, (uint8_t)d, (uint8_t)(s->nup[c] - j - 1), 0};
                twins[ntwins++] = m;
            }
        }
    }
    if (ctx->draw_one_auto && s->pos > 0 && up_ok) {
        int card = s->talon[s->pos - 1];
        if (h[suit_of(card)] + 1 == rank_of(card) && safe_up(ctx, card, h)) {
            add(mv, &n, W2F, s->pos - 1, 0, 0, 0);
            return n;
        }
    }
    int tg[NCOL];
    Targets targets;
    targets_init(ctx, s, &targets);
    /* Column tops to the foundations. */
    for (int c = 0; c < NCOL && (up_ok || up_card >= 0); c++) {
        if (!s->nup[c]) continue;
        int card = s->up[c][s->nup[c] - 1];
        if (!up_ok && card != up_card) continue;
        if (h[suit_of(card)] + 1 == rank_of(card)) add(mv, &n, T2F, c, 0, 1, TO_FOUNDATION * 100000);
    }
    for (int k = 0; k < ntwins; k++)
        add(mv, &n, T2F_TWIN, twins[k].a, twins[k].b, twins[k].n, TO_FOUNDATION * 100000 + 1);
    /* Runs between columns. */
    for (int c = 0; c < NCOL; c++) {
        int nup = s->nup[c];
        if (!nup) continue;
        /* The movable run: the longest top part in sequence. */
        int run = 1;
        while (run < nup && fits_on(s->up[c][nup - run], s->up[c][nup - run - 1])) run++;
        if (!ctx->any_run && run != nup) continue; /* only the whole face-up part moves, and it is no run */
        int lowest = nup - run; /* the deepest card that may lead a run */
        /* Twin-blind, a run moved off a face-up card only trades it for its twin: the same key. */
        for (int j = ctx->any_run && !ctx->twin_blind ? nup - 1 : lowest; j >= lowest; j--) {
            int lead = s->up[c][j];
            int count = nup - j;
            int left_up = j; /* face-up cards left behind */
            int k = targets_for(&targets, lead, c, tg);
            for (int t = 0; t < k; t++) {
                int d = tg[t];
                if (only >= 0 && d != only) continue;
                if (onto >= 0 && !fits_on(lead, onto)) continue;
                if (king_only && s->nup[d]) continue;
                int onto_empty = s->nup[d] == 0;
                int cls, tie = 0;
                if (onto_empty && left_up == 0 && s->down[c] == 0) continue; /* a whole column trades places */
                if (left_up > 0) {
                    int under = s->up[c][j - 1];
                    int split = fits_on(lead, under);
                    if (split && !onto_empty && h[suit_of(under)] != rank_of(under) - 1)
                        continue; /* Blake & Gent's Theorem 4: the split can wait */
                    cls = BUILD;
                } else if (s->down[c] > 0) {
                    cls = UNCOVERS;
                    tie = -s->down[c];
                } else {
                    cls = EMPTIES;
                }
                add(mv, &n, T2T, c, d, count, cls * 100000 + tie + 50);
            }
            if (!ctx->any_run) break;
        }
    }
    /* Talon cards: the waste top as it is, then every card the stock can bring up. */
    if (s->ntalon) {
        uint64_t done = 0;
        int turns = 0;
        for (int phase = 0; phase < 2; phase++) {
            int p;
            if (phase == 0) {
                p = s->pos;
            } else {
                if (s->passes_left == 0) break;
                p = 0;
                turns++; /* the new pass */
            }
            for (;;) {
                if (p > 0 && !(done >> (p - 1) & 1)) {
                    done |= (uint64_t)1 << (p - 1);
                    int i = p - 1;
                    int card = s->talon[i];
                    int now = phase == 0 && p == s->pos;
                    int base = now ? 0 : STOCK * 100000;
                    int scale = now ? 100000 : 1000;
                    if (h[suit_of(card)] + 1 == rank_of(card) && up_ok)
                        add(mv, &n, W2F, i, 0, phase, base + TO_FOUNDATION * scale + turns);
                    int skip = ctx->gives_back && h[suit_of(card)] + 1 == rank_of(card) && up_for_good(card, h);
                    if (!skip) {
                        int k = targets_for(&targets, card, -1, tg);
                        for (int t = 0; t < k; t++)
                            if ((only < 0 || tg[t] == only) && (onto < 0 || fits_on(card, onto)) &&
                                !(king_only && s->nup[tg[t]]))
                                add(mv, &n, W2T, i, tg[t], phase, base + FROM_WASTE * scale + turns);
                    }
                }
                if (p >= s->ntalon) break;
                p = p + ctx->draw < s->ntalon ? p + ctx->draw : s->ntalon;
                turns++;
            }
        }
    }
    /* Foundation cards back down, where the game allows it and the card is not up for good. */
    if (ctx->gives_back) {
        for (int su = 0; su < 4; su++) {
            if (!h[su]) continue;
            int card = su * 13 + h[su] - 1;
            if (up_for_good(card, h)) continue;
            int k = targets_for(&targets, card, -1, tg);
            for (int t = 0; t < k; t++)
                if ((only < 0 || tg[t] == only || su == use_suit) && (onto < 0 || fits_on(card, onto) || su == use_suit) &&
                    !(king_only && s->nup[tg[t]]))
                    add(mv, &n, F2T, su, tg[t], 0, FROM_FOUNDATION * 100000);
        }
    }
    qsort(mv, (size_t)n, sizeof(Move), cmp_moves);
    return n;
}

enum { SOLVED = 0, UNSOLVABLE = 1, UNKNOWN_VERDICT = 2, FAILED = 3 };

static int check_budget(Ctx *ctx) {
    if (ctx->max_nodes >= 0 && ctx->nodes >= ctx->max_nodes) return 1;
    if ((ctx->nodes & 4095) == 0) {
        double now = cpu_now();
        if (ctx->deadline > 0 && now >= ctx->deadline) return 1;
        if ((ctx->nodes & ((1 << 20) - 1)) == 0 && ctx->nodes) {
            if (PyErr_CheckSignals() < 0) {
                ctx->interrupted = 1;
                return 1;
            }
            if (ctx->progress && ctx->progress != Py_None) {
                PyObject *r = PyObject_CallFunction(ctx->progress, "Ld", ctx->nodes, now - ctx->start);
                if (!r) {
                    ctx->interrupted = 1;
                    return 1;
                }
                Py_DECREF(r);
            }
        }
    }
    return 0;
}

/* One depth-first search, resumable: the search runs several in turns (``search``). */
typedef struct {
    Frame *stack;
    size_t depth_cap;
    int top;
    Seen seen;
    int steer;           /* 0: the move order of gen_moves; else children ordered by this steer (``steered``) */
    long long nodes, cap; /* positions it made, and how many it may make (-1: no limit) */
    int done;
} Walk;

enum { GOING = 4 };

/* Children ordered by an estimate of the moves still needed after each (lowest first, the move order breaking
 * ties): steer 1 counts cards not up and cards face down; steer 2 also the talon's cards, a third each. */
static void steered(const Ctx *ctx, Frame *f, int steer) {
    if (f->n < 2) return;
    for (int k = 0; k < f->n; k++) {
        State t = f->s;
        apply(ctx, &t, f->mv[k]);
        int h = guide(&t) + (steer == 2 ? t.ntalon / 3 : 0);
        f->mv[k].order = h * 1000000 + (f->mv[k].order / MAXMOVES / 1000) * MAXMOVES + k;
    }
    qsort(f->mv, (size_t)f->n, sizeof(Move), cmp_moves);
}

static int walk_start(Ctx *ctx, Walk *w, const State *root, int steer, long long cap) {
    memset(w, 0, sizeof *w);
    w->depth_cap = 256;
    w->stack = malloc(w->depth_cap * sizeof(Frame));
    if (!w->stack) return FAILED;
    w->steer = steer;
    w->cap = cap;
    w->seen.first = ctx->first_slots;
    uint64_t k1, k2;
    w->stack[0].s = *root;
    state_hash(ctx, &w->stack[0].s, &k1, &k2);
    if (table_insert(&w->seen, ctx->max_entries, k1, k2) < 0) return FAILED;
    w->stack[0].n = gen_moves(ctx, &w->stack[0].s, w->stack[0].mv);
    w->stack[0].next = 0;
    if (steer) steered(ctx, &w->stack[0], steer);
    if (ctx->twin_blind) child_keys(ctx, &w->seen, &w->stack[0]);
    return GOING;
}

static void walk_end(Walk *w) {
    free(w->stack);
    keys_free(w->seen.keys, w->seen.cap);
    w->stack = NULL;
    w->seen.keys = NULL;
    w->done = 1;
}

/* Runs ``w`` for up to ``slice`` positions: GOING, or its verdict (on SOLVED, *path holds *path_len moves). */
static int walk_run(Ctx *ctx, Walk *w, long long slice, Move **path, int *path_len) {
    uint64_t k1, k2;
    long long stop = w->nodes + slice;
    while (w->top >= 0) {
        Frame *f = &w->stack[w->top];
        if (f->next >= f->n) {
            w->top--;
            continue;
        }
        if (w->nodes >= stop || (w->cap >= 0 && w->nodes >= w->cap)) return GOING;
        if (check_budget(ctx)) return ctx->interrupted ? FAILED : UNKNOWN_VERDICT;
        int k = f->next++;
        Move m = f->mv[k];
        ctx->nodes++;
        w->nodes++;
        if ((size_t)w->top + 1 >= w->depth_cap) {
            Frame *bigger = realloc(w->stack, w->depth_cap * 2 * sizeof(Frame));
            if (!bigger) return UNKNOWN_VERDICT;
            w->stack = bigger;
            w->depth_cap *= 2;
            f = &w->stack[w->top];
        }
        Frame *child = &w->stack[w->top + 1];
        int fresh;
        if (ctx->twin_blind) {
            k1 = f->k1[k];
            k2 = f->k2[k];
            fresh = table_insert(&w->seen, ctx->max_entries, k1, k2);
            if (fresh > 0) {
                child->s = f->s;
                apply(ctx, &child->s, m);
#ifdef TWIN_CHECK
                uint64_t c1, c2;
                state_hash(ctx, &child->s, &c1, &c2);
                if (c1 != k1 || c2 != k2) {
                    fprintf(stderr, "child_key differs from the key of the child made: move %d %d %d %d\n", m.kind,
                            m.a, m.b, m.n);
                    abort();
                }
#endif
            }
        } else {
            child->s = f->s;
            apply(ctx, &child->s, m);
            state_hash(ctx, &child->s, &k1, &k2);
            fresh = table_insert(&w->seen, ctx->max_entries, k1, k2);
        }
        if (fresh < 0) return UNKNOWN_VERDICT; /* the transposition table is full */
        if (!fresh) continue;
        if (ctx->twin_blind && child->s.rule != RULE_NONE) {
            /* A rule only takes children away: where the same position was met under no rule, every child of
             * this one was (or will be) searched from there. */
            uint64_t f1, f2;
            twin_key(ctx, &child->s, RULE_NONE, 0, &f1, &f2);
            if (table_has(&w->seen, f1, f2)) continue;
        }
        int guess = guide(&child->s);
        if (guess < ctx->closest) ctx->closest = guess;
        if (is_won(&child->s)) {
            *path_len = w->top + 1;
            *path = malloc(sizeof(Move) * (size_t)(w->top + 1));
            if (!*path) return FAILED;
            for (int k = 0; k <= w->top; k++) (*path)[k] = w->stack[k].mv[w->stack[k].next - 1];
            return SOLVED;
        }
        child->n = gen_moves(ctx, &child->s, child->mv);
        child->next = 0;
        if (w->steer) steered(ctx, child, w->steer);
        if (ctx->twin_blind) child_keys(ctx, &w->seen, child);
        w->top++;
    }
    return UNSOLVABLE; /* this walk searched the whole space: no win anywhere */
}

#define WALKS 3
/* Nodes each steered walk may make before it stops, and the turns: the plain walk gets two slices of
 * SLICE_NODES for each one of a steered walk's. */
#define STEERED_NODES (3LL << 20)
/* Twin-blind, the plain walk finds most buried wins itself (draw-3 seeds 29, 146, 213, 295) and the steered
 * walks find the others within a million positions (seed 165: 49,240). */
#define TWIN_STEERED_NODES (1LL << 20)
#define SLICE_NODES (1LL << 14)

/* The search: a plain depth-first walk in the move order of gen_moves, and while they last two steered walks
 * that order each position's children by what is left to do after them, in turns. Every walk is exhaustive
 * with its own transposition table, so the first verdict of any walk is the answer; the steered walks find
 * the wins that the plain order buries under an early wrong move, and stop after STEERED_NODES each, so a
 * lost deal costs at most that much more. On SOLVED, *path (malloc'd) holds *path_len moves from the root. */
static int search(Ctx *ctx, const State *root, Move **path, int *path_len) {
    *path = NULL;
    *path_len = 0;
    if (is_won(root)) return SOLVED;
    Walk walks[WALKS];
    int started[WALKS] = {0};
    int verdict = GOING;
    for (int turn = 0; verdict == GOING; turn++) {
        int i = turn % (WALKS + 1);
        i = i < 2 ? 0 : i - 1; /* plain, plain, steer 1, steer 2 */
        Walk *w = &walks[i];
        if (!started[i]) { /* a walk starts on its first turn: a short search never pays for the others */
            started[i] = 1;
            verdict = walk_start(ctx, w, root, i, i ? (ctx->twin_blind ? TWIN_STEERED_NODES : STEERED_NODES) : -1);
            if (verdict != GOING) break;
        }
        if (w->done) continue;
        verdict = walk_run(ctx, w, SLICE_NODES, path, path_len);
        if (verdict == GOING && w->cap >= 0 && w->nodes >= w->cap) walk_end(w);
    }
    for (int i = 0; i < WALKS; i++)
        if (started[i] && !walks[i].done) walk_end(&walks[i]);
    return verdict;
}

static int read_cards(PyObject *obj, uint8_t *out, int cap, const char *what) {
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(obj, &buf, &len) < 0) return -1;
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd cards, more than %d", what, len, cap);
        return -1;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        if ((uint8_t)buf[k] >= 52) {
            PyErr_Format(PyExc_ValueError, "%s holds a card code %d (0..51 expected)", what, (uint8_t)buf[k]);
            return -1;
        }
        out[k] = (uint8_t)buf[k];
    }
    return (int)len;
}

PyDoc_STRVAR(solve_doc,
             "solve(down, up, heights, talon, pos, draw, passes_left, any_run, gives_back, draw_one_auto,\n"
             "      max_nodes, max_seconds, max_entries, progress[, twin_blind[, first_bits]])\n"
             "  -> (verdict, moves, nodes, seconds, closest, start)\n\n"
             "down, up: 7 bytes objects each (a column's face-down cards and face-up cards, bottom first);\n"
             "heights: 4 foundation heights by suit (S H D C); talon: the waste bottom first then the stock top\n"
             "first; pos: waste size; passes_left: -1 unlimited. max_nodes, max_seconds: -1 for no limit.\n"
             "verdict: 0 solved, 1 unsolvable, 2 budget spent. moves: (kind, a, b, n) tuples, kinds 0 column to\n"
             "foundation, 1 talon card to foundation, 2 talon card to column, 3 run between columns, 4\n"
             "foundation to column (see engine/klondike_core.py). closest: the lowest guide met (cards not up + cards\n"
             "face down; 0 when solved), start: the guide of the position given.");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *down_list, *up_list, *heights_obj, *talon_obj, *progress;
    int pos, draw, passes_left, any_run, gives_back, draw_one_auto, twin_blind = 0, first_bits = 16;
    long long max_nodes, max_entries;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "OOOOiiippp" "LdLO|pi", &down_list, &up_list, &heights_obj, &talon_obj, &pos, &draw,
                          &passes_left, &any_run, &gives_back, &draw_one_auto, &max_nodes, &max_seconds,
                          &max_entries, &progress, &twin_blind, &first_bits))
        return NULL;
    if (first_bits < 4 || first_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "first_bits must be 4..30");
        return NULL;
    }
    if (!PyList_Check(down_list) || !PyList_Check(up_list) || PyList_Size(down_list) != NCOL ||
        PyList_Size(up_list) != NCOL) {
        PyErr_SetString(PyExc_ValueError, "down and up must be lists of 7 bytes objects");
        return NULL;
    }
    if (draw < 1 || draw > 52) {
        PyErr_SetString(PyExc_ValueError, "draw must be 1..52");
        return NULL;
    }
    Ctx *ctx = calloc(1, sizeof(Ctx));
    State *root = calloc(1, sizeof(State));
    if (!ctx || !root) {
        free(ctx);
        free(root);
        return PyErr_NoMemory();
    }
    int ok = 1;
    for (int c = 0; c < NCOL && ok; c++) {
        int nd = read_cards(PyList_GET_ITEM(down_list, c), ctx->dcards[c], MAXDOWN, "a column's face-down part");
        int nu = read_cards(PyList_GET_ITEM(up_list, c), root->up[c], MAXUP - 13, "a column's face-up part");
        if (nd < 0 || nu < 0) ok = 0;
        root->down[c] = (uint8_t)(nd < 0 ? 0 : nd);
        root->nup[c] = (uint8_t)(nu < 0 ? 0 : nu);
        /* A column given with face-down cards only stays so, as in the engine: it never turns by itself. */
    }
    uint8_t hb[4] = {0, 0, 0, 0};
    if (ok && read_cards(heights_obj, hb, 4, "heights") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "heights must be 4 bytes");
        ok = 0;
    }
    int nt = ok ? read_cards(talon_obj, root->talon, MAXTALON, "the talon") : -1;
    if (nt < 0) ok = 0;
    if (ok && (pos < 0 || pos > nt)) {
        PyErr_SetString(PyExc_ValueError, "pos must be 0..len(talon)");
        ok = 0;
    }
    if (!ok) {
        free(ctx);
        free(root);
        return NULL;
    }
    for (int su = 0; su < 4; su++) root->h[su] = hb[su] > 13 ? 13 : hb[su];
    root->ntalon = (uint8_t)nt;
    root->pos = (uint8_t)pos;
    root->passes_left = (int16_t)(passes_left < 0 ? -1 : passes_left);
    for (int k = 0; k < nt; k++) root->tid[k] = (uint8_t)k;
    root->tmask = nt >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << nt) - 1);
    root->dirty = (1u << NCOL) - 1;
    ctx->draw = draw;
    ctx->any_run = any_run;
    ctx->gives_back = gives_back;
    ctx->draw_one_auto = draw_one_auto;
    /* Twin-blind search needs every run to move (a twin's trade moves part of a column) and every column's
     * face-up part in sequence (each card lies on a card of the next rank and the other colour). */
    ctx->twin_blind = twin_blind && any_run;
    for (int c = 0; c < NCOL && ctx->twin_blind; c++)
        for (int k = 1; k < root->nup[c]; k++)
            if (!fits_on(root->up[c][k], root->up[c][k - 1])) ctx->twin_blind = 0;
    ctx->max_nodes = max_nodes;
    ctx->max_entries = max_entries > 0 ? (size_t)max_entries : ((size_t)1 << 26);
    ctx->first_slots = (size_t)1 << first_bits;
    ctx->start = cpu_now();
    ctx->deadline = max_seconds >= 0 ? ctx->start + max_seconds : -1;
    ctx->progress = progress;
    int start_guide = guide(root);
    ctx->closest = start_guide;
    Move *path = NULL;
    int path_len = 0;
    int verdict = search(ctx, root, &path, &path_len);
    double seconds = cpu_now() - ctx->start;
    long long nodes = ctx->nodes;
    int closest = verdict == SOLVED ? 0 : ctx->closest;
    int interrupted = ctx->interrupted;
    free(ctx);
    free(root);
    if (verdict == FAILED) {
        free(path);
        if (interrupted && PyErr_Occurred()) return NULL;
        return PyErr_NoMemory();
    }
    PyObject *moves = PyList_New(0);
    if (!moves) {
        free(path);
        return NULL;
    }
    for (int k = 0; k < path_len; k++) {
        Move m = path[k];
        /* A twin's trade is told as the two moves it is: the run onto the twin, then the card up. */
        PyObject *t = m.kind == T2F_TWIN ? Py_BuildValue("(iiii)", T2T, m.a, m.b, m.n)
                                         : Py_BuildValue("(iiii)", m.kind, m.a, m.b, m.n);
        if (t && m.kind == T2F_TWIN) {
            int ok = PyList_Append(moves, t) == 0;
            Py_DECREF(t);
            t = ok ? Py_BuildValue("(iiii)", T2F, m.a, 0, 1) : NULL;
        }
        if (!t || PyList_Append(moves, t) < 0) {
            Py_XDECREF(t);
            free(path);
            Py_DECREF(moves);
            return NULL;
        }
        Py_DECREF(t);
    }
    free(path);
    return Py_BuildValue("(iNLdii)", verdict, moves, nodes, seconds, closest, start_guide);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._klondike", "The compiled core of the exact solver for Klondike-shaped games.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__klondike(void) { return PyModule_Create(&module); }
