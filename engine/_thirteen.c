/* The exact solver's search for The Great Thirteen, compiled.
 *
 * engine/thirteen_search.py says what the search does and why each of its rules keeps every win; this file is
 * the search itself. Suit never matters in this game, so a card is its value (1..13). A position: the eight
 * ground packets (values, bottom first), the length of each numeral column (its cards follow from its balcony
 * card: the k-th numeral is worth (k + 1) times the balcony card, modulo thirteen) and how far the re-deal has
 * gone. The key: a 64-bit hash of the packets (in place while a re-deal may come; as a set once none can),
 * beside the columns' lengths (columns under balcony cards of one value sorted: they are interchangeable), the
 * re-deal's place and, before the last re-deal, the move just made (the rule that keeps two independent moves
 * in one order there depends on it).
 * Depth-first: a first run in order, paused after first_run positions; then shuffled runs of Luby lengths, each
 * with a fresh table (as engine/_cross.c), each followed by as many positions of the first run, resumed with its
 * own table: the shuffled runs find the wins a fixed order misses, the first run proves a loss.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_search_table.h"

#define NPACK 8
#define NCOL 8
#define FULL 12     /* numerals in a complete column, the last its king */
#define MAXPACK 104 /* every card of two packs */
#define MAXCHILD (NPACK * NCOL + 1)
enum { PLACE = 0, REDEAL = 1 };
enum { SOLVED_V = 0, UNSOLVABLE_V = 1, UNKNOWN_V = 2, FAILED_V = 3 };

/* A step: a packet's top card onto a column (PLACE; ``cls_len`` the column's length before it, for the
 * independence rule), or a packet re-dealt (REDEAL: column -1, ``cls_len`` the packet's cards). */
typedef struct {
    int8_t kind, packet, column, cls_len;
} Step;

typedef struct {
    Step child[MAXCHILD];
    int n, next, fills;
    int nall;
    uint16_t all[MAXCHILD]; /* every placement legal here, cut or not, as step_class keys */
    Step made;
    int undo; /* the re-deal's place before a re-deal */
} Frame;

typedef struct {
    /* the game */
    int bal[NCOL];
    int order[NCOL]; /* the columns by balcony value: columns of one value together */
    /* the position */
    uint8_t pk[NPACK][MAXPACK];
    uint64_t ph[NPACK][MAXPACK + 1]; /* a packet's hash after each of its cards (ph[p][0] = 0) */
    int plen[NPACK];
    int len[NCOL];
    int redealt; /* packets at places below it are never re-dealt again (the engine's hook state) */
    SearchBudget budget; /* shared by every run */
    size_t max_entries;
    /* the shuffled runs' order */
    uint64_t rng;
    int shuffle, independence;
} Search;

static inline int reduce13(int total) { return (total - 1) % 13 + 1; }

/* The value column ``c`` takes next: its (len + 2)-th multiple of the balcony card; 0 when complete. */
static inline int s_wanted(const Search *s, int c) {
    return s->len[c] >= FULL ? 0 : reduce13((s->len[c] + 2) * s->bal[c]);
}

static inline void push_card(Search *s, int p, int v) {
    int n = s->plen[p]++;
    s->pk[p][n] = (uint8_t)v;
    s->ph[p][n + 1] = mix64(s->ph[p][n] * 31 + (uint64_t)v + 1);
}

static inline int s_top(const Search *s, int p) { return s->plen[p] ? s->pk[p][s->plen[p] - 1] : 0; }

/* The packet the re-deal takes next: the first at or right of the re-deal's place holding cards; -1 for none. */
static inline int s_next_redeal(const Search *s) {
    for (int p = s->redealt; p < NPACK; p++)
        if (s->plen[p]) return p;
    return -1;
}

static inline int s_won(const Search *s) {
    for (int c = 0; c < NCOL; c++)
        if (s->len[c] < FULL) return 0;
    return 1;
}

static inline int step_class(const Search *s, Step st) {
    return st.packet << 8 | s->bal[(int)st.column] << 4 | st.cls_len;
}

/* The position's key: (1) the packets' hash, in place while a re-deal may come (the re-deal deals by place), as
 * a set once none can; (2) the columns' lengths (sorted within each balcony value), the re-deal's place and,
 * while a re-deal may come, the move just made (the independence rule depends on it there). */
static inline void s_key(const Search *s, Step last, uint64_t *k1, uint64_t *k2) {
    int endgame = s_next_redeal(s) < 0;
    uint64_t h = 0;
    for (int p = 0; p < NPACK; p++) h += mix64(s->ph[p][s->plen[p]] + (endgame ? 0 : (uint64_t)(p + 1) << 56));
    *k1 = h | (uint64_t)1 << 63;
    uint64_t k = 0;
    int i = 0;
    while (i < NCOL) {
        int j = i, lens[NCOL], n = 0;
        while (j < NCOL && s->bal[s->order[j]] == s->bal[s->order[i]]) lens[n++] = s->len[s->order[j++]];
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && lens[b - 1] > lens[b]; b--) {
                int t = lens[b];
                lens[b] = lens[b - 1];
                lens[b - 1] = t;
            }
        for (int a = 0; a < n; a++) k = k << 4 | (uint64_t)lens[a];
        i = j;
    }
    k |= (uint64_t)s->redealt << 32;
    if (s->independence && last.kind == PLACE && !endgame) k |= (uint64_t)(step_class(s, last) + 1) << 36;
    *k2 = k;
}

/* Whether ``b``, a placement here, is cut by the independence rule: the parent could make it too (the same
 * packet's top onto a column of the same class: balcony value and length), it comes before the move just made
 * (``a``) in the order, and the two commute. Then the parent's child ``b`` followed by ``a`` reaches the same
 * position, and the search keeps that order. Only what the position and ``a`` determine is asked (the parent's
 * legal placements, not those it kept), so the transposition table's key holds all the rule depends on. A
 * placement of a packet's last card is never cut: a conservative exception (the order argument does not need
 * it), kept as measured. */
static int s_cut(const Search *s, const Frame *parent, Step a, Step b) {
    if (b.packet == a.packet || s->plen[(int)b.packet] == 1) return 0;
    int bkey = step_class(s, b);
    if (bkey >= step_class(s, a)) return 0;
    int found = 0;
    for (int k = 0; k < parent->nall && !found; k++) found = parent->all[k] == bkey;
    if (!found) return 0;
    if (!parent->fills) {
        /* a was added to a column: b first must not open a vacancy's fill (Rule II would then forbid a) */
        int n = s->plen[(int)b.packet];
        if (n >= 2) {
            int under = s->pk[(int)b.packet][n - 2];
            for (int c = 0; c < NCOL; c++)
                if (!s->len[c] && reduce13(2 * s->bal[c]) == under) return 0;
        }
    }
    return 1;
}

static inline uint64_t next_random(Search *s) {
    s->rng += 0x9E3779B97F4A7C15ull;
    return mix64(s->rng);
}

/* The children of the position: the placements (Rule II: a vacancy's fills alone while there are any), one
 * column of each class, cut by the independence rule; where none, the re-deal of the next packet. */
static void children(Search *s, Frame *f, const Frame *parent) {
    f->n = 0;
    f->next = 0;
    f->fills = 0;
    f->nall = 0;
    /* After the last re-deal every placement is a child (see engine/thirteen_search.py) */
    int ordered = s->independence && s_next_redeal(s) >= 0, fills = 0;
    for (int c = 0; c < NCOL && !fills; c++) {
        if (s->len[c]) continue;
        int want = s_wanted(s, c);
        for (int p = 0; p < NPACK; p++)
            if (s_top(s, p) == want) fills = 1;
    }
    f->fills = fills;
    for (int i = 0; i < NCOL; i++) {
        int c = s->order[i];
        if (s->len[c] >= FULL || (fills && s->len[c])) continue;
        int dup = 0;
        for (int j = 0; j < i && !dup; j++) {
            int d = s->order[j];
            dup = s->bal[d] == s->bal[c] && s->len[d] == s->len[c];
        }
        if (dup) continue;
        int want = s_wanted(s, c);
        for (int p = 0; p < NPACK; p++) {
            if (s_top(s, p) != want) continue;
            Step st = {PLACE, (int8_t)p, (int8_t)c, (int8_t)s->len[c]};
            f->all[f->nall++] = (uint16_t)step_class(s, st);
            if (ordered && parent && f->made.kind == PLACE && s_cut(s, parent, f->made, st)) continue;
            f->child[f->n++] = st;
        }
    }
    if (f->nall == 0) { /* nothing can be placed (placements cut by the rule count): the re-deal */
        int p = s_next_redeal(s);
        if (p >= 0) f->child[f->n++] = (Step){REDEAL, (int8_t)p, -1, (int8_t)s->plen[p]};
    }
    if (s->shuffle)
        for (int i = f->n - 1; i > 0; i--) {
            int j = (int)(next_random(s) % (uint64_t)(i + 1));
            Step t = f->child[i];
            f->child[i] = f->child[j];
            f->child[j] = t;
        }
}

/* Makes a step; returns what undo needs (the re-deal's place before a re-deal). */
static int s_do(Search *s, Step st) {
    if (st.kind == PLACE) {
        s->plen[(int)st.packet]--;
        s->len[(int)st.column]++;
        return 0;
    }
    int p = st.packet, n = s->plen[p], before = s->redealt;
    uint8_t cards[MAXPACK];
    memcpy(cards, s->pk[p], (size_t)n);
    s->plen[p] = 0;
    /* turned face down and dealt out: its bottom card first, on the place to its right, round from No. 8 */
    for (int k = 0; k < n; k++) push_card(s, (p + 1 + k) % NPACK, cards[k]);
    s->redealt = p + 1;
    return before;
}

static void s_undo(Search *s, Step st, int undo) {
    if (st.kind == PLACE) { /* the card is put back (a re-deal since may have dealt over its old slot) */
        s->len[(int)st.column]--;
        push_card(s, st.packet, s_wanted(s, st.column));
        return;
    }
    int p = st.packet, n = st.cls_len;
    uint8_t cards[MAXPACK];
    for (int k = n - 1; k >= 0; k--) { /* the last card dealt lies on top of its place */
        int q = (p + 1 + k) % NPACK;
        cards[k] = s->pk[q][--s->plen[q]];
    }
    for (int k = 0; k < n; k++) push_card(s, p, cards[k]);
    s->redealt = undo;
}

/* A depth-first run: its stack of frames (their steps undone while the run is paused) and its table. */
typedef struct {
    Frame *stack;
    int depth_cap, top, live, full;
    PairSet seen;
} Run;

static void run_free(Run *r) {
    free(r->stack);
    r->stack = NULL;
    pair_clear(&r->seen);
    r->live = 0;
}

/* Starts run ``r`` from the position in ``s``, or resumes it where it paused: until a win (its steps in
 * ``path``), the end of every position reachable (UNSOLVABLE), ``cap`` new positions (-1: none) or the budget
 * (UNKNOWN: paused, to be resumed). The position is put back as it was in every case. */
static int run_go(Search *s, Run *r, long long cap, Step **path, int *path_len) {
    *path = NULL;
    *path_len = 0;
    if (s_won(s)) return SOLVED_V;
    if (r->full) return UNKNOWN_V;
    Step none = {-1, -1, -1, 0};
    if (!r->live) {
        r->seen.max_entries = s->max_entries;
        uint64_t k1, k2;
        s_key(s, none, &k1, &k2);
        if (pair_add(&r->seen, k1, k2) < 0) return FAILED_V;
        r->depth_cap = 128;
        r->top = 0;
        r->stack = malloc((size_t)r->depth_cap * sizeof(Frame));
        if (!r->stack) return FAILED_V;
        r->stack[0].made = none;
        children(s, &r->stack[0], NULL);
        r->live = 1;
    } else { /* the paused run's steps made again, in order */
        for (int k = 1; k <= r->top; k++) r->stack[k].undo = s_do(s, r->stack[k].made);
    }
    long long made_here = 0;
    int top = r->top, verdict = UNSOLVABLE_V;
    while (top >= 0) {
        Frame *f = &r->stack[top];
        if (f->next == f->n) {
            if (f->made.kind >= 0) s_undo(s, f->made, f->undo);
            top--;
            continue;
        }
        if (budget_spent(&s->budget) || made_here == cap) {
            verdict = UNKNOWN_V; /* paused before this frame's next child */
            break;
        }
        Step st = f->child[f->next++];
        int u = s_do(s, st);
        if (s_won(s)) {
            Step *out = malloc((size_t)(top + 1) * sizeof(Step));
            if (!out) {
                s_undo(s, st, u);
                verdict = FAILED_V;
                break;
            }
            for (int k = 1; k <= top; k++) out[k - 1] = r->stack[k].made;
            out[top] = st;
            *path = out;
            *path_len = top + 1;
            s_undo(s, st, u);
            verdict = SOLVED_V;
            break;
        }
        uint64_t k1, k2;
        s_key(s, st, &k1, &k2);
        int added = pair_add(&r->seen, k1, k2);
        if (added <= 0) {
            s_undo(s, st, u);
            if (added == 0) continue;
            r->full = 1; /* out of table: as if the budget were spent, for good */
            verdict = UNKNOWN_V;
            break;
        }
        made_here++;
        budget_count(&s->budget);
        if (top + 1 == r->depth_cap) {
            Frame *bigger = realloc(r->stack, (size_t)r->depth_cap * 2 * sizeof(Frame));
            if (!bigger) {
                s_undo(s, st, u);
                verdict = FAILED_V;
                break;
            }
            r->stack = bigger;
            r->depth_cap *= 2;
        }
        top++;
        r->stack[top].made = st;
        r->stack[top].undo = u;
        children(s, &r->stack[top], &r->stack[top - 1]);
    }
    r->top = top;
    /* a win, a pause or a stop leaves the frames' steps made: take them back, deepest first */
    if (verdict != UNSOLVABLE_V)
        for (; top >= 1; top--) s_undo(s, r->stack[top].made, r->stack[top].undo);
    if (verdict != UNKNOWN_V || r->full) run_free(r);
    return verdict;
}

/* Reads the position from solve's arguments into ``s``; 0 where one is out of range. */
static int s_load(Search *s, const char *balcony, Py_ssize_t blen, const char *lengths, Py_ssize_t llen,
                  PyObject *packets, int redealt) {
    int count[14] = {0};
    if (blen != NCOL || llen != NCOL || redealt < 0 || redealt > NPACK) return 0;
    if (!PyList_Check(packets) || PyList_Size(packets) != NPACK) return 0;
    for (int c = 0; c < NCOL; c++) {
        s->bal[c] = (uint8_t)balcony[c];
        s->len[c] = (uint8_t)lengths[c];
        if (s->bal[c] < 1 || s->bal[c] > 12 || s->len[c] > FULL) return 0;
        count[s->bal[c]]++;
        for (int k = 0; k < s->len[c]; k++) count[reduce13((k + 2) * s->bal[c])]++;
    }
    for (int p = 0; p < NPACK; p++) {
        char *buf;
        Py_ssize_t n;
        PyObject *item = PyList_GET_ITEM(packets, p);
        if (!PyBytes_Check(item) || PyBytes_AsStringAndSize(item, &buf, &n) < 0 || n > MAXPACK) return 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            int v = (uint8_t)buf[k];
            if (v < 1 || v > 13) return 0;
            count[v]++;
            push_card(s, p, v);
        }
    }
    for (int v = 1; v <= 13; v++)
        if (count[v] != 8) return 0; /* two packs: eight cards of each value */
    for (int i = 0; i < NCOL; i++) s->order[i] = i;
    for (int a = 1; a < NCOL; a++)
        for (int b = a; b > 0 && s->bal[s->order[b - 1]] > s->bal[s->order[b]]; b--) {
            int t = s->order[b];
            s->order[b] = s->order[b - 1];
            s->order[b - 1] = t;
        }
    s->redealt = redealt;
    return 1;
}

static PyObject *step_tuple(const void *steps, int k) {
    const Step *path = steps;
    return Py_BuildValue("(iiii)", path[k].kind, path[k].packet, path[k].column, path[k].cls_len);
}

PyDoc_STRVAR(solve_doc,
             "solve(balcony, lengths, packets, redealt, independence, first_run, restart_unit, max_nodes,\n"
             "      max_seconds, max_entries, progress, progress_every) -> (verdict, steps, nodes, seconds)\n\n"
             "balcony: 8 bytes, the balcony cards' values (1..12); lengths: 8 bytes, the numeral columns'\n"
             "lengths (0..12); packets: 8 bytes objects, the ground packets' values bottom first; every value\n"
             "eight times in all. redealt: the engine's re-deal place (0..8). independence: two independent\n"
             "placements in one order only. The first run takes the children in order for first_run positions\n"
             "(-1: no limit), then shuffled runs of restart_unit times Luby's sequence. max_nodes, max_seconds:\n"
             "-1 for no limit. progress(nodes, seconds) is called every progress_every positions (a multiple of\n"
             "1024). verdict: 0 solved, 1 unsolvable, 2 budget spent; steps: (kind, packet, column, count), kind\n"
             "0 the packet's top onto the column, 1 the packet re-dealt (count: its cards)\n"
             "(engine/thirteen_search.py).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    const char *balcony, *lengths;
    Py_ssize_t blen, llen;
    int redealt, independence;
    PyObject *packets, *progress;
    long long first_run, restart_unit, max_nodes, max_entries, progress_every;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "y#y#OipLLLdLOL", &balcony, &blen, &lengths, &llen, &packets, &redealt,
                          &independence, &first_run, &restart_unit, &max_nodes, &max_seconds, &max_entries,
                          &progress, &progress_every))
        return NULL;
    if (restart_unit < 1 || max_entries < 1 || progress_every < 1024 || progress_every % 1024) {
        PyErr_SetString(PyExc_ValueError, "a budget The Great Thirteen's search cannot take (see solve's doc)");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (!s_load(s, balcony, blen, lengths, llen, packets, redealt)) {
        free(s);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "a position The Great Thirteen's search cannot take: a value out of range, a column "
                            "or packet too long, or not eight cards of each value (see solve's doc)");
        return NULL;
    }
    s->independence = independence;
    s->max_entries = (size_t)max_entries;
    budget_begin(&s->budget, max_nodes, max_seconds, progress, progress_every);
    Step *path = NULL;
    int path_len = 0;
    /* The first run, in order, pauses after first_run positions; then each shuffled run of a Luby length is
     * followed by as many more positions of the first run, which alone can prove a loss (it keeps its table). */
    Run first = {0};
    int verdict = run_go(s, &first, first_run, &path, &path_len);
    for (long long run = 1; verdict == UNKNOWN_V && !budget_spent(&s->budget); run++) {
        long long length = restart_unit * luby(run);
        Run restart = {0};
        s->shuffle = 1;
        s->rng = (uint64_t)run;
        verdict = run_go(s, &restart, length, &path, &path_len);
        run_free(&restart);
        s->shuffle = 0;
        if (verdict == UNSOLVABLE_V) break; /* a restart that met every position proves it too */
        if (verdict == UNKNOWN_V && !budget_spent(&s->budget))
            verdict = run_go(s, &first, length, &path, &path_len);
    }
    run_free(&first);
    SearchBudget budget = s->budget;
    free(s);
    return search_answer(verdict, verdict == FAILED_V, &budget, path, path_len, step_tuple);
}

static PyMethodDef module_methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._thirteen",
    "The compiled search of The Great Thirteen (engine/thirteen_search.py).", -1, module_methods, NULL, NULL, NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__thirteen(void) { return PyModule_Create(&module); }
