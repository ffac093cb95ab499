/* The exact solver's search for the cross games (General Sedgewick, Four Seasons), compiled.
 *
 * The same search as engine/cross_search.py's ``_Cross``, which says why each of its rules keeps every win: the
 * same children in the same order, a card nothing can use going up as the only child, the rule after a
 * packet-to-packet move, no lone card into a space, fresh tables for each run, a first run in order and then
 * shuffled runs of Luby lengths. Only the shuffles differ (their own random numbers, the same every time), and a
 * position's key: here the stock's cursor, the talon (a bit mask over the line of cards the stock turns: the
 * talon is a stack, its top the highest bit) and the foundations' heights, exact in one 64-bit word, beside a
 * 64-bit hash of the five packets (a sum of each packet's hash, so the order of the packets does not matter),
 * with the rule folded in. About 60 times the Python search's positions a second.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_search_table.h"

static inline int rank_of(int c) { return c % 13 + 1; }
static inline int suit_of(int c) { return c / 13; }

/* The line holds at most this many cards: the key's cursor bit and talon mask fit in 48 bits. */
#define MAX_LINE 47

/* The key's exact half: the talon mask with a bit set just above it at the cursor (bits 0..47), the heights above
 * (4 bits each). */
static inline uint64_t key_of(int cursor, uint64_t mask, const int *h) {
    return (mask | (uint64_t)1 << cursor) | (uint64_t)(h[0] | h[1] << 4 | h[2] << 8 | h[3] << 12) << 48;
}

#define NPACK 5
#define MAXPACK 64
#define MAXCHILD 64
enum { TURN = 0, TALON = 1, PACKET = 2 };
#define UP (-1)
enum { SOLVED_V = 0, UNSOLVABLE_V = 1, UNKNOWN_V = 2, FAILED_V = 3 };

typedef struct {
    int8_t kind, source, target;
} Step;

typedef struct {
    Step child[MAXCHILD];
    int n, next;
    Step made;
    int card;
} Frame;


typedef struct {
    uint8_t line[MAX_LINE];
    int8_t line_index[52]; /* a card's place in the line, -1 for none */
    int length, base, wrap, space_from_cross;
    /* the position */
    int cursor;
    uint64_t mask;
    int h[4], up_by_rank[14];
    uint8_t pk[NPACK][MAXPACK];
    uint64_t ph[NPACK][MAXPACK + 1]; /* a packet's hash after each of its cards (ph[p][0] = 0) */
    int plen[NPACK];
    SearchBudget budget; /* shared by every run */
    size_t max_entries;
    /* this run */
    PairSet seen;
    uint64_t rng;
    int shuffle;
} Search;

static inline int s_goes_up(const Search *s, int c) {
    int h = s->h[suit_of(c)];
    return h < 13 && rank_of(c) == (s->base - 1 + h) % 13 + 1;
}

static inline int s_fits_on(const Search *s, int c, int under) {
    int r = rank_of(c), b = rank_of(under);
    return r + 1 == b || (s->wrap && r == 13 && b == 1);
}

static inline int s_of_no_use(const Search *s, int c) {
    int r = rank_of(c);
    if (r == 1) return !s->wrap || s->up_by_rank[13] == 4;
    return s->up_by_rank[r - 1] == 4;
}

static inline int s_top(const Search *s, int p) { return s->plen[p] ? s->pk[p][s->plen[p] - 1] : -1; }

static inline int s_talon_top(const Search *s) {
    return s->mask ? s->line[63 - __builtin_clzll(s->mask)] : -1;
}

static inline int s_won(const Search *s) { return s->h[0] == 13 && s->h[1] == 13 && s->h[2] == 13 && s->h[3] == 13; }

static inline uint64_t s_key1(const Search *s) { return key_of(s->cursor, s->mask, s->h); }

static inline uint64_t s_key2(const Search *s, int ruled, int uncovered, int moved) {
    uint64_t k = 0;
    for (int p = 0; p < NPACK; p++) k += s->ph[p][s->plen[p]];
    if (ruled) k ^= mix64(0x5EED0000ull + (uint64_t)(uncovered + 1) * 64 + (uint64_t)moved);
    return k;
}

static inline void push_card(Search *s, int p, int c) {
    int n = s->plen[p];
    s->pk[p][n] = (uint8_t)c;
    s->ph[p][n + 1] = mix64(s->ph[p][n] * 0x100000001B3ull + (uint64_t)c + 1);
    s->plen[p] = n + 1;
}

static inline uint64_t next_random(Search *s) {
    s->rng += 0x9E3779B97F4A7C15ull;
    return mix64(s->rng);
}

static inline void add_step(Frame *f, int kind, int source, int target) {
    if (f->n < MAXCHILD) f->child[f->n++] = (Step){(int8_t)kind, (int8_t)source, (int8_t)target};
}

/* The steps to try, in the Python search's order; a card nothing can use going up is the only one. */
static void children(Search *s, Frame *f, int ruled, int uncovered, int moved) {
    f->n = 0;
    f->next = 0;
    int t = s_talon_top(s);
    if (t >= 0 && s_goes_up(s, t)) {
        if (s_of_no_use(s, t)) {
            add_step(f, TALON, -1, UP);
            return;
        }
        add_step(f, TALON, -1, UP);
    }
    for (int i = 0; i < NPACK; i++) {
        int c = s_top(s, i);
        if (c >= 0 && s_goes_up(s, c)) {
            if (s_of_no_use(s, c)) {
                f->n = 0;
                add_step(f, PACKET, i, UP);
                return;
            }
            add_step(f, PACKET, i, UP);
        }
    }
    int empty = -1;
    for (int i = 0; i < NPACK; i++)
        if (!s->plen[i]) {
            empty = i;
            break;
        }
    if (t >= 0) {
        for (int j = 0; j < NPACK; j++)
            if (s->plen[j] && s_fits_on(s, t, s_top(s, j))) add_step(f, TALON, -1, j);
        if (empty >= 0) add_step(f, TALON, -1, empty);
    }
    for (int i = 0; i < NPACK; i++) {
        if (!s->plen[i]) continue;
        int c = s_top(s, i);
        for (int j = 0; j < NPACK; j++)
            if (j != i && s->plen[j] && s_fits_on(s, c, s_top(s, j))) add_step(f, PACKET, i, j);
        if (empty >= 0 && s->space_from_cross && s->plen[i] > 1) add_step(f, PACKET, i, empty);
    }
    if (s->cursor < s->length) add_step(f, TURN, -1, -1);
    if (s->shuffle)
        for (int i = f->n - 1; i > 0; i--) {
            int j = (int)(next_random(s) % (uint64_t)(i + 1));
            Step x = f->child[i];
            f->child[i] = f->child[j];
            f->child[j] = x;
        }
    if (!ruled) return;
    int kept = 0;
    for (int k = 0; k < f->n; k++) {
        Step st = f->child[k];
        if (st.kind == TURN || (st.kind == PACKET && s_top(s, st.source) == moved)) continue;
        int uses = (st.kind == PACKET && s_top(s, st.source) == uncovered) ||
                   (st.target >= 0 && (s_top(s, st.target) == uncovered || s_top(s, st.target) == moved));
        /* a move of two other packets commutes with the one made: kept after it only where its card is higher */
        int commutes_after = st.kind == PACKET && st.target != UP && s_top(s, st.source) > moved;
        if (uses || commutes_after) f->child[kept++] = st;
    }
    f->n = kept;
}

static int s_do(Search *s, Step st) {
    int card;
    if (st.kind == TURN) {
        s->mask |= (uint64_t)1 << s->cursor;
        s->cursor++;
        return -1;
    }
    if (st.kind == TALON) {
        card = s_talon_top(s);
        s->mask &= ~((uint64_t)1 << s->line_index[card]);
    } else {
        card = s->pk[st.source][--s->plen[st.source]];
    }
    if (st.target == UP) {
        s->h[suit_of(card)]++;
        s->up_by_rank[rank_of(card)]++;
    } else {
        push_card(s, st.target, card);
    }
    return card;
}

static void s_undo(Search *s, Step st, int card) {
    if (st.kind == TURN) {
        s->cursor--;
        s->mask &= ~((uint64_t)1 << s->cursor);
        return;
    }
    if (st.target == UP) {
        s->h[suit_of(card)]--;
        s->up_by_rank[rank_of(card)]--;
    } else {
        s->plen[st.target]--;
    }
    if (st.kind == TALON)
        s->mask |= (uint64_t)1 << s->line_index[card];
    else
        push_card(s, st.source, card);
}

/* One run from the position in ``s``: until a win (its steps in ``path``), the end of every position reachable,
 * ``cap`` new positions (-1: none), or the budget. The position is put back as it was. */
static int run_search(Search *s, long long cap, Step **path, int *path_len) {
    *path = NULL;
    *path_len = 0;
    if (s_won(s)) return SOLVED_V;
    pair_clear(&s->seen);
    s->seen.max_entries = s->max_entries;
    if (pair_add(&s->seen, s_key1(s), s_key2(s, 0, 0, 0)) < 0) return FAILED_V;
    long long made_here = 0;
    int depth_cap = 256, top = 0, verdict = UNSOLVABLE_V;
    Frame *stack = malloc((size_t)depth_cap * sizeof(Frame));
    if (!stack) return FAILED_V;
    children(s, &stack[0], 0, 0, 0);
    stack[0].made.kind = -1;
    while (top >= 0) {
        Frame *f = &stack[top];
        if (f->next == f->n) {
            if (f->made.kind >= 0) s_undo(s, f->made, f->card);
            top--;
            continue;
        }
        Step st = f->child[f->next++];
        int ruled = st.kind == PACKET && st.target != UP;
        int uncovered = -1;
        if (ruled && s->plen[st.source] > 1) uncovered = s->pk[st.source][s->plen[st.source] - 2];
        int card = s_do(s, st);
        if (s_won(s)) {
            Step *out = malloc((size_t)(top + 1) * sizeof(Step));
            if (!out) {
                s_undo(s, st, card);
                verdict = FAILED_V;
                break;
            }
            for (int k = 1; k <= top; k++) out[k - 1] = stack[k].made;
            out[top] = st;
            *path = out;
            *path_len = top + 1;
            s_undo(s, st, card);
            verdict = SOLVED_V;
            break;
        }
        uint64_t k1 = s_key1(s), k2 = s_key2(s, ruled, uncovered, card);
        if (pair_has(&s->seen, k1, k2) || (ruled && pair_has(&s->seen, k1, s_key2(s, 0, 0, 0)))) {
            s_undo(s, st, card);
            continue;
        }
        if (budget_spent(&s->budget) || made_here == cap) {
            s_undo(s, st, card);
            verdict = UNKNOWN_V;
            break;
        }
        if (pair_add(&s->seen, k1, k2) < 0) {
            s_undo(s, st, card);
            verdict = UNKNOWN_V; /* out of table: as if the budget were spent */
            break;
        }
        made_here++;
        budget_count(&s->budget);
        if (top + 1 == depth_cap) {
            Frame *bigger = realloc(stack, (size_t)depth_cap * 2 * sizeof(Frame));
            if (!bigger) {
                s_undo(s, st, card);
                verdict = FAILED_V;
                break;
            }
            stack = bigger;
            depth_cap *= 2;
        }
        top++;
        children(s, &stack[top], ruled, uncovered, card);
        stack[top].made = st;
        stack[top].card = card;
    }
    /* a win or a stop leaves the frames' steps made: take them back, deepest first */
    if (verdict != UNSOLVABLE_V)
        for (; top >= 1; top--) s_undo(s, stack[top].made, stack[top].card);
    free(stack);
    pair_clear(&s->seen);
    return verdict;
}


static PyObject *step_tuple(const void *steps, int k) {
    const Step *path = steps;
    return Py_BuildValue("(iii)", path[k].kind, path[k].source, path[k].target);
}

PyDoc_STRVAR(solve_doc,
             "solve(line, cursor, mask, heights, base, packets, wrap, space_from_cross, first_run, restart_unit,\n"
             "      max_nodes, max_seconds, max_entries, progress, progress_every) -> (verdict, steps, nodes, seconds)\n\n"
             "line: the talon's cards bottom first, then the stock's top first (at most 47); cursor: the cards of\n"
             "the line turned; mask: bit i set where line[i] is on the talon; heights: 4 bytes by suit (S H D C);\n"
             "base: the foundations' base rank (0: none dealt yet, nothing goes up); packets: 5 bytes objects,\n"
             "bottom first. The first run takes the children in order for first_run positions, then shuffled\n"
             "runs of restart_unit times Luby's sequence. max_nodes, max_seconds: -1 for no limit. progress(nodes,\n"
             "seconds) is called every progress_every positions (a multiple of 1024). verdict: 0\n"
             "solved, 1 unsolvable, 2 budget spent; steps: (kind, source, target), kinds 0 turn, 1 talon card,\n"
             "2 packet card; target -1 a foundation (engine/cross_search.py).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    const char *line, *hb;
    Py_ssize_t length, hlen;
    int cursor, base, wrap, space_from_cross;
    unsigned long long mask;
    PyObject *packets, *progress;
    long long first_run, restart_unit, max_nodes, max_entries, progress_every;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "y#iKy#iOppLLLdLOL", &line, &length, &cursor, &mask, &hb, &hlen, &base, &packets,
                          &wrap, &space_from_cross, &first_run, &restart_unit, &max_nodes, &max_seconds,
                          &max_entries, &progress, &progress_every))
        return NULL;
    if (length > MAX_LINE || cursor < 0 || cursor > length || (mask >> cursor) || hlen != 4 || base < 0 ||
        base > 13 || !PyList_Check(packets) || PyList_Size(packets) != NPACK || restart_unit < 1 ||
        max_entries < 1 || progress_every < 1024 || progress_every % 1024) {
        PyErr_SetString(PyExc_ValueError, "a position the cross search cannot take (see solve's doc)");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    memset(s->line_index, -1, sizeof s->line_index);
    int bad = 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        uint8_t c = (uint8_t)line[i];
        if (c >= 52 || s->line_index[c] >= 0) bad = 1;
        else {
            s->line[i] = c;
            s->line_index[c] = (int8_t)i;
        }
    }
    for (int p = 0; p < NPACK && !bad; p++) {
        char *buf;
        Py_ssize_t n;
        if (PyBytes_AsStringAndSize(PyList_GET_ITEM(packets, p), &buf, &n) < 0) {
            free(s);
            return NULL;
        }
        if (n > MAXPACK - 1) bad = 1;
        for (Py_ssize_t k = 0; k < n && !bad; k++) {
            if ((uint8_t)buf[k] >= 52) bad = 1;
            else push_card(s, p, (uint8_t)buf[k]);
        }
    }
    for (int su = 0; su < 4 && !bad; su++) {
        if ((uint8_t)hb[su] > 13) bad = 1;
        s->h[su] = (uint8_t)hb[su];
        for (int k = 0; k < s->h[su] && base; k++) s->up_by_rank[(base - 1 + k) % 13 + 1]++;
    }
    if (bad) {
        free(s);
        PyErr_SetString(PyExc_ValueError, "a card code out of 0..51, twice in the line, or a height above 13");
        return NULL;
    }
    s->length = (int)length;
    s->cursor = cursor;
    s->mask = mask;
    s->base = base;
    s->wrap = wrap;
    s->space_from_cross = space_from_cross;
    s->max_entries = (size_t)max_entries;
    budget_begin(&s->budget, max_nodes, max_seconds, progress, progress_every);
    if (!base) s->h[0] = s->h[1] = s->h[2] = s->h[3] = 13 + 1; /* nothing goes up (never "won" either) */
    Step *path = NULL;
    int path_len = 0;
    int verdict = run_search(s, first_run, &path, &path_len);
    for (long long run = 1; verdict == UNKNOWN_V && !budget_spent(&s->budget); run++) {
        s->shuffle = 1;
        s->rng = (uint64_t)run;
        verdict = run_search(s, restart_unit * luby(run), &path, &path_len);
    }
    SearchBudget budget = s->budget;
    free(s);
    return search_answer(verdict, verdict == FAILED_V, &budget, path, path_len, step_tuple);
}

static PyMethodDef module_methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._cross",
    "The compiled search of the cross games (engine/cross_search.py).", -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cross(void) { return PyModule_Create(&module); }
