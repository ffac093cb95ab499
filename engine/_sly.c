/* The exact solver's search for Sly, compiled.
 *
 * engine/sly_search.py says what the search does and why; this file is the search itself. A card is its code
 * (suit * 13 + rank - 1; two packs, so each code twice). A position: the pack (codes, bottom first: its last card
 * is turned next), the turned card (or none), the eight foundations (0-3 the ace foundations, built up; 4-7 the
 * king foundations, built down; each a suit and a height), the twenty promenade packets (codes, bottom first) and
 * the cards placed in the current round. The key: a hash of the packets as a set (a packet's place on the table
 * never matters: any card may go on any packet) beside the foundations' heights by suit, the pack's length, the
 * turned card and the round's count.
 * Moves are the engine's own (engine/games/sly.py's hooks) with steps as (source, destination): pile numbers 0
 * the pack, 1 the turned card, 2..9 the foundations, 10..29 the packets. Children skip moves that reach a
 * position another child reaches (a second empty packet, a packet like another, a second empty foundation).
 * A card is placed first where the packet's top is wanted later than it (see engine/sly_search.py).
 * Depth-first runs (engine/_search_run.h): the first in that order for first_run positions, then runs of Luby
 * lengths whose order has random noise added, each with a fresh table; every run takes every child, so a run that
 * meets every position proves the deal lost.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_search_table.h"

#define NF 8
#define NACE 4
#define NP 20
#define ROUND 20
#define MAXC 104
#define FULL 13
#define MAXCHILD 48
#define FAR 1000    /* a card no foundation can take yet by either way */
#define VACANCY 20000 /* a vacancy's place in the order: after every fit, before covering a card */
enum { P_S = 0, P_W = 1, P_F = 2, P_P = 2 + NF };
enum { SOLVED_V = 0, UNSOLVABLE_V = 1, UNKNOWN_V = 2, FAILED_V = 3 };

typedef struct {
    int8_t src, dst;
} Step;

typedef struct {
    Step child[MAXCHILD];
    int n, next;
    Step made;
    int undo; /* the round's count before the step */
} Frame;

typedef struct {
    uint8_t pack[MAXC];
    int plen, turned; /* the turned card, -1 for none */
    int fsuit[NF], fh[NF];
    uint8_t pk[NP][MAXC];
    int len[NP];
    uint64_t ph[NP][MAXC + 1]; /* a packet's hash after each of its cards */
    int placed;
    int dedup;
    SearchBudget budget;
    size_t max_entries;
    uint64_t rng;
    int noise; /* random noise added to the placements' order (0 in the first run) */
} Search;

static inline int c_suit(int c) { return c / 13; }
static inline int c_rank(int c) { return c % 13 + 1; }

static inline int suit_started(const Search *s, int from, int suit) {
    for (int f = from; f < from + NACE; f++)
        if (s->fh[f] && s->fsuit[f] == suit) return 1;
    return 0;
}

/* Whether foundation ``f`` takes card ``c``: an ace foundation its suit's next card up, a king foundation the
 * next down; an empty one an ace (a king) of a suit without an ace (a king) foundation yet. */
static inline int f_takes(const Search *s, int f, int c) {
    int ace = f < NACE;
    if (!s->fh[f]) return c_rank(c) == (ace ? 1 : 13) && !suit_started(s, ace ? 0 : NACE, c_suit(c));
    if (s->fh[f] >= FULL || s->fsuit[f] != c_suit(c)) return 0;
    return c_rank(c) == (ace ? s->fh[f] + 1 : 13 - s->fh[f]);
}

static inline int p_top(const Search *s, int p) { return s->len[p] ? s->pk[p][s->len[p] - 1] : -1; }

static inline void push_card(Search *s, int p, int c) {
    int n = s->len[p]++;
    s->pk[p][n] = (uint8_t)c;
    s->ph[p][n + 1] = mix64(s->ph[p][n] * 31 + (uint64_t)c + 1);
}

static inline int same_packet(const Search *s, int a, int b) {
    return s->len[a] == s->len[b] && s->ph[a][s->len[a]] == s->ph[b][s->len[b]];
}

static inline int s_won(const Search *s) {
    for (int f = 0; f < NF; f++)
        if (s->fh[f] < FULL) return 0;
    return 1;
}

static inline uint64_t next_random(Search *s) {
    s->rng += 0x9E3779B97F4A7C15ull;
    return mix64(s->rng);
}

/* How soon card code ``c`` can go up: the latest of the cards its foundation needs first (by the nearer of its
 * two ways, up from its suit's ace foundation or down from its king foundation), each as soon as its first copy
 * comes free (``avail``: 0 on a packet's top or turned, the turns until it is turned, more under other cards);
 * times 16, plus how many cards its foundation needs first (so that of two cards free at once, the one the
 * other needs comes first: the 4 before the 5 of spades). */
static int eta(const Search *s, const int avail[52], int c) {
    int suit = c_suit(c), r = c_rank(c), up = 0, down = 0;
    for (int f = 0; f < NF; f++)
        if (s->fh[f] && s->fsuit[f] == suit) {
            if (f < NACE)
                up = s->fh[f];
            else
                down = s->fh[f];
        }
    int best = FAR * 16, next_down = 13 - down;
    if (r > up) {
        int t = 0;
        for (int q = up + 1; q < r; q++)
            if (avail[suit * 13 + q - 1] > t) t = avail[suit * 13 + q - 1];
        best = t * 16 + (r - up - 1);
    }
    if (r <= next_down) {
        int t = 0;
        for (int q = r + 1; q <= next_down; q++)
            if (avail[suit * 13 + q - 1] > t) t = avail[suit * 13 + q - 1];
        if (t * 16 + (next_down - r) < best) best = t * 16 + (next_down - r);
    }
    return best;
}

static void availability(const Search *s, int avail[52]) {
    for (int c = 0; c < 52; c++) avail[c] = FAR;
    if (s->turned >= 0) avail[s->turned] = 0;
    for (int p = 0; p < NP; p++)
        for (int k = 0; k < s->len[p]; k++) {
            int c = s->pk[p][k], v = k == s->len[p] - 1 ? 0 : 200 + (s->len[p] - 1 - k);
            if (v < avail[c]) avail[c] = v;
        }
    for (int k = 0; k < s->plen; k++) {
        int c = s->pack[k], v = s->plen - k;
        if (v < avail[c]) avail[c] = v;
    }
}

/* The moves the rules allow here (engine/games/sly.py's hooks), each once or (``dedup``) once per position
 * reached; the turned card's placements by how well they fit (noise added but in the first run). */
static int legal(Search *s, Step *out) {
    int n = 0, turned = s->turned >= 0;
    int pack_left = turned || s->plen;
    int in_round = s->placed > 0 && pack_left, vacancy = 0, plays = 0;
    for (int p = 0; p < NP; p++) vacancy |= !s->len[p];
    int turn = s->plen && !turned;
    if (turned) {
        for (int f = 0; f < NF; f++)
            if (f_takes(s, f, s->turned)) {
                out[n++] = (Step){P_W, (int8_t)(P_F + f)};
                if (s->dedup && !s->fh[f]) f = f < NACE ? NACE - 1 : NF; /* one empty foundation of a kind */
            }
    }
    if (!in_round)
        for (int p = 0; p < NP; p++) {
            if (!s->len[p]) continue;
            int twin = 0;
            for (int q = 0; q < p && s->dedup && !twin; q++) twin = same_packet(s, p, q);
            if (twin) continue;
            int c = p_top(s, p);
            for (int f = 0; f < NF; f++)
                if (f_takes(s, f, c)) {
                    out[n++] = (Step){(int8_t)(P_P + p), (int8_t)(P_F + f)};
                    plays = 1;
                    if (s->dedup && !s->fh[f]) f = f < NACE ? NACE - 1 : NF;
                }
        }
    int plays_left = s->placed == 0 && plays;
    if (turn && !(plays_left && !vacancy)) out[n++] = (Step){P_S, P_W};
    if (turned) {
        int first = n;
        for (int p = 0; p < NP; p++) /* a vacancy takes it at any time */
            if (!s->len[p]) {
                out[n++] = (Step){P_W, (int8_t)(P_P + p)};
                if (s->dedup) break;
            }
        if (s->placed > 0 || !(vacancy || plays_left)) /* a covered packet only in a round, or to open one */
            for (int p = 0; p < NP; p++) {
                if (!s->len[p]) continue;
                int twin = 0;
                for (int q = 0; q < p && s->dedup && !twin; q++) twin = same_packet(s, p, q);
                if (!twin) out[n++] = (Step){P_W, (int8_t)(P_P + p)};
            }
        if (n - first > 1) {
            /* a packet whose top is wanted later than the turned card first (the nearest such), then a vacancy,
             * then covering the top wanted latest */
            int avail[52], score[MAXCHILD];
            availability(s, avail);
            int mine = eta(s, avail, s->turned);
            for (int i = first; i < n; i++) {
                int top = p_top(s, out[i].dst - P_P), theirs = top < 0 ? 0 : eta(s, avail, top);
                score[i] = top < 0 ? VACANCY : theirs > mine ? 100 + (theirs - mine) : 3 * VACANCY / 2 + (FAR * 16 - theirs) / 4;
                if (s->noise) score[i] += (int)(next_random(s) % (uint64_t)s->noise);
            }
            for (int i = first + 1; i < n; i++)
                for (int j = i; j > first && score[j - 1] > score[j]; j--) {
                    int t = score[j];
                    score[j] = score[j - 1];
                    score[j - 1] = t;
                    Step u = out[j];
                    out[j] = out[j - 1];
                    out[j - 1] = u;
                }
        }
    }
    return n;
}

static void children(Search *s, Frame *f) {
    f->next = 0;
    f->n = legal(s, f->child);
}

static int s_do(Search *s, Step st) {
    int before = s->placed;
    if (st.src == P_S) {
        s->turned = s->pack[--s->plen];
        return before;
    }
    int c;
    if (st.src == P_W) {
        c = s->turned;
        s->turned = -1;
    } else {
        int p = st.src - P_P;
        c = s->pk[p][--s->len[p]];
    }
    if (st.dst < P_P) {
        int f = st.dst - P_F;
        s->fsuit[f] = c_suit(c);
        s->fh[f]++;
    } else {
        int p = st.dst - P_P;
        if (s->placed > 0 || s->len[p]) s->placed = (s->placed + 1) % ROUND; /* a refilled vacancy does not count */
        push_card(s, p, c);
    }
    return before;
}

static void s_undo(Search *s, Step st, int before) {
    s->placed = before;
    if (st.src == P_S) {
        s->pack[s->plen++] = (uint8_t)s->turned;
        s->turned = -1;
        return;
    }
    int c;
    if (st.dst < P_P) {
        int f = st.dst - P_F;
        c = s->fsuit[f] * 13 + (f < NACE ? s->fh[f] : 14 - s->fh[f]) - 1;
        if (--s->fh[f] == 0) s->fsuit[f] = -1;
    } else {
        int p = st.dst - P_P;
        c = s->pk[p][--s->len[p]];
    }
    if (st.src == P_W)
        s->turned = c;
    else
        push_card(s, st.src - P_P, c);
}

/* The position's key: (1) the packets as a set; (2) each suit's heights up and down, the pack's length, the
 * turned card and the round's count. */
static inline void s_key(const Search *s, uint64_t *k1, uint64_t *k2) {
    uint64_t h = 0;
    for (int p = 0; p < NP; p++) h += mix64(s->ph[p][s->len[p]] + (uint64_t)s->len[p]);
    *k1 = h | (uint64_t)1 << 63;
    uint64_t k = 0;
    for (int suit = 0; suit < 4; suit++) {
        int up = 0, down = 0;
        for (int f = 0; f < NF; f++)
            if (s->fh[f] && s->fsuit[f] == suit) {
                if (f < NACE)
                    up = s->fh[f];
                else
                    down = s->fh[f];
            }
        k = k << 8 | (uint64_t)(up << 4 | down);
    }
    k |= (uint64_t)s->plen << 32 | (uint64_t)(s->turned + 1) << 39 | (uint64_t)s->placed << 46;
    *k2 = k;
}

#define UNDO_T int
#include "_search_run.h"

static int s_load(Search *s, PyObject *pack, PyObject *turned, PyObject *founds, PyObject *packets, int placed) {
    int count[52] = {0}, n = 0;
    uint8_t codes[MAXC] = {0};
    if (!read_codes(pack, s->pack, &s->plen, MAXC, count) || !read_codes(turned, codes, &n, 1, count)) return 0;
    s->turned = n ? codes[0] : -1;
    if (!PyList_Check(founds) || PyList_Size(founds) != NF || !PyList_Check(packets) || PyList_Size(packets) != NP)
        return 0;
    for (int f = 0; f < NF; f++) {
        if (!read_codes(PyList_GET_ITEM(founds, f), codes, &n, FULL, count)) return 0;
        s->fh[f] = n;
        s->fsuit[f] = n ? c_suit(codes[0]) : -1;
        for (int k = 0; k < n; k++)
            if (c_suit(codes[k]) != s->fsuit[f] || c_rank(codes[k]) != (f < NACE ? k + 1 : 13 - k)) return 0;
    }
    for (int f = 0; f < NF; f++)
        for (int g = f + 1; g < (f < NACE ? NACE : NF); g++)
            if (s->fh[f] && s->fh[g] && s->fsuit[f] == s->fsuit[g]) return 0; /* one of each kind a suit */
    for (int p = 0; p < NP; p++) {
        if (!read_codes(PyList_GET_ITEM(packets, p), codes, &n, MAXC, count)) return 0;
        s->len[p] = 0;
        for (int k = 0; k < n; k++) push_card(s, p, codes[k]);
    }
    for (int c = 0; c < 52; c++)
        if (count[c] != 2) return 0;
    if (placed < 0 || placed >= ROUND) return 0;
    s->placed = placed;
    return 1;
}

static PyObject *step_tuple(const void *steps, int k) {
    const Step *path = steps;
    return Py_BuildValue("(ii)", path[k].src, path[k].dst);
}

static const char *bad_position =
    "a position Sly's search cannot take: a pile out of shape or not every card twice (see solve's doc)";

static Search *loaded(PyObject *pack, PyObject *turned, PyObject *founds, PyObject *packets, int placed) {
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    if (!s_load(s, pack, turned, founds, packets, placed)) {
        free(s);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, bad_position);
        return NULL;
    }
    return s;
}

PyDoc_STRVAR(moves_doc,
             "moves(pack, turned, foundations, packets, placed, dedup) -> steps\n\n"
             "The moves the rules allow in the position (as solve reads it), as (source, destination), in the\n"
             "search's order; dedup: one move per position reached.");

static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *pack, *turned, *founds, *packets;
    int placed, dedup;
    if (!PyArg_ParseTuple(args, "OOOOip", &pack, &turned, &founds, &packets, &placed, &dedup)) return NULL;
    Search *s = loaded(pack, turned, founds, packets, placed);
    if (!s) return NULL;
    s->dedup = dedup;
    Frame f;
    children(s, &f);
    free(s);
    return steps_list(f.child, f.n, step_tuple);
}

PyDoc_STRVAR(solve_doc,
             "solve(pack, turned, foundations, packets, placed, first_run, restart_unit, noise, max_nodes,\n"
             "      max_seconds, max_entries, progress, progress_every) -> (verdict, steps, nodes, seconds)\n\n"
             "pack, turned: bytes of card codes (suit * 13 + rank - 1), bottom first; foundations: 8 bytes objects\n"
             "(4 ace foundations built up, 4 king foundations built down); packets: 20 bytes objects; every card\n"
             "twice in all. placed: the engine's hook state. The first run takes the children in order for\n"
             "first_run positions (-1: no limit), then runs of restart_unit times Luby's sequence with noise added\n"
             "to the placements' order. max_nodes, max_seconds: -1 for no limit. progress(nodes, seconds) is called\n"
             "every progress_every positions (a multiple of 1024). verdict: 0 solved, 1 unsolvable, 2 budget spent;\n"
             "steps: (source, destination), piles 0 pack, 1 turned card, 2-9 foundations, 10-29 packets\n"
             "(engine/sly_search.py).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *pack, *turned, *founds, *packets, *progress;
    int placed, noise;
    long long first_run, restart_unit, max_nodes, max_entries, progress_every;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "OOOOiLLiLdLOL", &pack, &turned, &founds, &packets, &placed, &first_run,
                          &restart_unit, &noise, &max_nodes, &max_seconds, &max_entries, &progress, &progress_every))
        return NULL;
    if (restart_unit < 1 || noise < 1 || max_entries < 1 || progress_every < 1024 || progress_every % 1024) {
        PyErr_SetString(PyExc_ValueError, "a budget Sly's search cannot take (see solve's doc)");
        return NULL;
    }
    Search *s = loaded(pack, turned, founds, packets, placed);
    if (!s) return NULL;
    s->dedup = 1;
    s->max_entries = (size_t)max_entries;
    budget_begin(&s->budget, max_nodes, max_seconds, progress, progress_every);
    Step *path = NULL;
    int path_len = 0;
    int verdict = run(s, first_run, &path, &path_len);
    for (long long r = 1; verdict == UNKNOWN_V && !budget_spent(&s->budget); r++) {
        s->noise = noise;
        s->rng = (uint64_t)r;
        verdict = run(s, restart_unit * luby(r), &path, &path_len);
    }
    SearchBudget budget = s->budget;
    free(s);
    return search_answer(verdict, verdict == FAILED_V, &budget, path, path_len, step_tuple);
}

static PyMethodDef module_methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"moves", py_moves, METH_VARARGS, moves_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._sly", "The compiled search of Sly (engine/sly_search.py).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sly(void) { return PyModule_Create(&module); }
