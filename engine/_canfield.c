/* The exact solver's search for Canfield (Foster's and the modern rules), compiled.
 *
 * engine/canfield_search.py says what the search does and why each of its rules keeps every win; this file is
 * the search itself. A position: the hand and waste as one line of cards in the order the hand turns them (a bit
 * mask of the cards still in it and a cursor, the waste being the cards before the cursor: a redeal only sets the
 * cursor back to 0), whether a card was played from the waste this pass (Foster's redeal rule), the reserve's
 * height, the foundations' heights by suit, and the four columns. The key: the line, cursor, reserve, heights and
 * flag exact in one 64-bit word, beside a 64-bit hash of the columns as a set (the sum of each column's hash: the
 * columns are interchangeable). Depth-first, a first run in order, then shuffled runs of Luby lengths, each with
 * a fresh table, as the cross games' search (engine/_cross.c).
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
static inline int red_of(int c) { return suit_of(c) == 1 || suit_of(c) == 2; }

#define MAX_LINE 36    /* the key's mask and cursor fit in 42 bits (a deal's line has 34 cards) */
#define MAX_RESERVE 15 /* the key's reserve height fits in 4 bits (a deal's reserve has 13) */
#define NPILE 4
#define MAXPILE 56
#define MAXCHILD 192
enum { WASTE = 1, RESERVE = 2, PILE = 3 }; /* no step turns the hand alone: a waste step's count is its turns */
#define UP (-1)
enum { SOLVED_V = 0, UNSOLVABLE_V = 1, UNKNOWN_V = 2, FAILED_V = 3 };

typedef struct {
    int8_t kind, source, target, count;
} Step;

/* What a step changed, to take it back: the card moved (a foundation move), the cursor and flag before it, and
 * whether the reserve filled the column it emptied. */
typedef struct {
    int8_t card, cursor, played, filled;
} Undo;

typedef struct {
    Step child[MAXCHILD];
    int n, next;
    Step made;
    Undo undo;
} Frame;


typedef struct {
    /* the game */
    int draw, needs_play, wrap, top_of_two, autofill, base;
    uint8_t line[MAX_LINE];
    int length;
    uint8_t reserve[MAX_RESERVE];
    /* the position */
    uint64_t mask; /* bit i: line[i] is still in the hand or the waste */
    int cursor;    /* the waste is the line's cards before it: always 0 or just after a card still there */
    int played;    /* a card was played from the waste this pass (kept 0 where the game has no such rule) */
    int rcount, h[4];
    uint8_t pk[NPILE][MAXPILE];
    uint64_t ph[NPILE][MAXPILE + 1]; /* a column's hash after each of its cards (ph[p][0] = 0) */
    int plen[NPILE];
    SearchBudget budget; /* shared by every run */
    size_t max_entries;
    /* this run */
    PairSet seen;
    uint64_t rng;
    int shuffle;
} Search;

/* The foundation place of a rank: 0 for the base rank, up to 12. */
static inline int place_of(const Search *s, int rank) { return (rank - s->base + 13) % 13; }

static inline int s_is_up(const Search *s, int suit, int rank) { return place_of(s, rank) < s->h[suit]; }

static inline int s_goes_up(const Search *s, int c) {
    int h = s->h[suit_of(c)];
    return h < 13 && place_of(s, rank_of(c)) == h;
}

/* A card may be put on a column whose top is ``under``: down by one in alternate colours (a king on an ace too
 * where the columns go round the corner). */
static inline int s_fits_on(const Search *s, int c, int under) {
    if (red_of(c) == red_of(under)) return 0;
    int r = rank_of(c), b = rank_of(under);
    return r + 1 == b || (s->wrap && r == 13 && b == 1);
}

/* Both cards that could be put on this one in a column (the next rank down, the other colour) are on their
 * foundations: it is of no more use anywhere but up. */
static inline int s_of_no_use(const Search *s, int c) {
    int r = rank_of(c), below;
    if (r == 1) {
        if (!s->wrap) return 1;
        below = 13;
    } else {
        below = r - 1;
    }
    int first = red_of(c) ? 0 : 1, second = red_of(c) ? 3 : 2; /* the other colour's suits (S H D C) */
    return s_is_up(s, first, below) && s_is_up(s, second, below);
}

static inline int s_top(const Search *s, int p) { return s->plen[p] ? s->pk[p][s->plen[p] - 1] : -1; }

static inline uint64_t below_cursor(const Search *s) {
    return s->cursor >= 64 ? s->mask : s->mask & (((uint64_t)1 << s->cursor) - 1);
}

static inline int s_waste_top(const Search *s) {
    uint64_t w = below_cursor(s);
    return w ? s->line[63 - __builtin_clzll(w)] : -1;
}

static inline int s_hand_left(const Search *s) { return (s->mask & ~below_cursor(s)) != 0; }

/* The cursor just after the waste's top card (0 for an empty waste): one cursor for each waste. */
static inline void settle_cursor(Search *s) {
    uint64_t w = below_cursor(s);
    s->cursor = w ? 64 - __builtin_clzll(w) : 0;
    if (!(s->mask & ~below_cursor(s))) s->cursor = s->length; /* nothing left to turn: the waste is every card */
    if (!s->mask) s->cursor = 0;
}

static inline int s_reserve_top(const Search *s) { return s->rcount ? s->reserve[s->rcount - 1] : -1; }

static inline int s_won(const Search *s) { return s->h[0] == 13 && s->h[1] == 13 && s->h[2] == 13 && s->h[3] == 13; }

static inline uint64_t s_key1(const Search *s) {
    return s->mask | (uint64_t)s->cursor << 36 | (uint64_t)s->rcount << 42 |
           (uint64_t)(s->h[0] | s->h[1] << 4 | s->h[2] << 8 | s->h[3] << 12) << 46 | (uint64_t)s->played << 62 |
           (uint64_t)1 << 63;
}

static inline uint64_t s_key2(const Search *s) {
    uint64_t k = 0;
    for (int p = 0; p < NPILE; p++) k += s->ph[p][s->plen[p]];
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

/* The top ``count`` cards of column ``p`` are in sequence by the columns' rule. */
static int s_run(const Search *s, int p, int count) {
    const uint8_t *cards = s->pk[p];
    for (int k = s->plen[p] - count + 1; k < s->plen[p]; k++)
        if (!s_fits_on(s, cards[k], cards[k - 1])) return 0;
    return 1;
}

/* How many top cards of column ``p`` may move onto another column: ``counts`` filled, their number returned. */
static int s_units(const Search *s, int p, int *counts) {
    int n = s->plen[p];
    if (n == 0) return 0;
    if (n == 1) {
        counts[0] = 1;
        return 1;
    }
    int k = 0;
    if (s->top_of_two) { /* Foster: the whole column, or the top card of a column of two */
        if (s_run(s, p, n)) counts[k++] = n;
        if (n == 2) counts[k++] = 1;
    } else { /* the modern rule: the top card, or the whole column */
        counts[k++] = 1;
        if (s_run(s, p, n)) counts[k++] = n;
    }
    return k;
}

static inline void add_step(Frame *f, int kind, int source, int target, int count) {
    if (f->n < MAXCHILD) f->child[f->n++] = (Step){(int8_t)kind, (int8_t)source, (int8_t)target, (int8_t)count};
}

static inline int s_may_turn(const Search *s) {
    if (s_hand_left(s)) return 1;
    return s->mask && (!s->needs_play || s->played); /* a redeal */
}

/* One turn of the hand (its next ``draw`` cards onto the waste), or the redeal where the hand is out; 0 where
 * neither may be made. */
static int s_turn(Search *s) {
    if (s_hand_left(s)) {
        uint64_t left = s->mask & ~below_cursor(s);
        for (int k = 0; k < s->draw && left; k++) {
            s->cursor = __builtin_ctzll(left) + 1;
            left &= left - 1;
        }
        if (!left) s->cursor = s->length;
        return 1;
    }
    if (!s_may_turn(s)) return 0;
    s->cursor = 0; /* the waste turned over: the next pass */
    s->played = 0;
    return 1;
}

/* Adds the plays of the waste's top card once the hand has been turned ``turns`` times (a redeal counting as
 * one): up, onto the columns, into a space. */
static void add_waste_plays(const Search *s, Frame *f, int w, int turns, int up, int empty, int reserve_out) {
    if (up && s_goes_up(s, w)) add_step(f, WASTE, -1, UP, turns);
    for (int j = 0; j < NPILE; j++)
        if (s->plen[j] && s_fits_on(s, w, s_top(s, j))) add_step(f, WASTE, -1, j, turns);
    /* a space takes the waste's top: always in the modern game, in Foster's once the reserve is out */
    if (empty >= 0 && (!s->top_of_two || reserve_out)) add_step(f, WASTE, -1, empty, turns);
}

/* The steps to try, in order: cards up, the reserve's top onto the columns, the waste's, the columns' moves, and
 * the hand turned last; a card nothing can use going up is the only one. */
static void children(Search *s, Frame *f) {
    f->n = 0;
    f->next = 0;
    int w = s_waste_top(s), r = s_reserve_top(s);
    /* Where a card goes up only as a gain (engine/canfield_search.py): not from the waste where the hand turns
     * more than one card (taking a card out of the line changes which cards later passes bring up) or a pass
     * needs a play; not from the reserve, nor a column's last card, where the reserve fills a space at once
     * (which card it gives changes). */
    int waste_gain = s->draw == 1 && !s->needs_play;
    if (w >= 0 && s_goes_up(s, w)) {
        if (waste_gain && s_of_no_use(s, w)) {
            add_step(f, WASTE, -1, UP, 0);
            return;
        }
        add_step(f, WASTE, -1, UP, 0);
    }
    if (r >= 0 && s_goes_up(s, r)) {
        if (!s->autofill && s_of_no_use(s, r)) {
            f->n = 0;
            add_step(f, RESERVE, -1, UP, 1);
            return;
        }
        add_step(f, RESERVE, -1, UP, 1);
    }
    for (int i = 0; i < NPILE; i++) {
        int c = s_top(s, i);
        if (c >= 0 && s_goes_up(s, c)) {
            if (!(s->autofill && s->plen[i] == 1) && s_of_no_use(s, c)) {
                f->n = 0;
                add_step(f, PILE, i, UP, 1);
                return;
            }
            add_step(f, PILE, i, UP, 1);
        }
    }
    int empty = -1;
    for (int i = 0; i < NPILE; i++)
        if (!s->plen[i]) {
            empty = i;
            break;
        }
    if (r >= 0) {
        for (int j = 0; j < NPILE; j++)
            if (s->plen[j] && s_fits_on(s, r, s_top(s, j))) add_step(f, RESERVE, -1, j, 1);
        if (empty >= 0) add_step(f, RESERVE, -1, empty, 1);
    }
    if (w >= 0) add_waste_plays(s, f, w, 0, 0, empty, r < 0);
    for (int i = 0; i < NPILE; i++) {
        int counts[2];
        int units = s_units(s, i, counts);
        for (int u = 0; u < units; u++) {
            int c = s->pk[i][s->plen[i] - counts[u]];
            for (int j = 0; j < NPILE; j++)
                if (j != i && s->plen[j] && s_fits_on(s, c, s_top(s, j))) add_step(f, PILE, i, j, counts[u]);
        }
    }
    /* Turning the hand changes nothing but which card the waste shows, so turns wait until just before the
     * waste card they are for is played: each card the turns bring to the waste's top (before the waste has come
     * round to where it is now) is a child, played with its turns. */
    int start_cursor = s->cursor, start_played = s->played;
    uint64_t offered = w >= 0 ? (uint64_t)1 << w : 0; /* cards already offered, by code */
    for (int turns = 1; turns < 127 && s_turn(s); turns++) {
        if (s->cursor == start_cursor && s->played == start_played) break;
        int t = s_waste_top(s);
        if (t < 0 || (offered >> t & 1)) continue;
        offered |= (uint64_t)1 << t;
        add_waste_plays(s, f, t, turns, 1, empty, r < 0);
    }
    s->cursor = start_cursor; /* the walk changed nothing else */
    s->played = start_played;
    if (s->shuffle)
        for (int i = f->n - 1; i > 0; i--) {
            int j = (int)(next_random(s) % (uint64_t)(i + 1));
            Step x = f->child[i];
            f->child[i] = f->child[j];
            f->child[j] = x;
        }
}

static Undo s_do(Search *s, Step st) {
    Undo u = {-1, (int8_t)s->cursor, (int8_t)s->played, 0};
    int card;
    if (st.kind == WASTE) {
        for (int k = 0; k < st.count; k++) s_turn(s);
        card = s_waste_top(s);
        for (int i = 0; i < s->length; i++)
            if (s->line[i] == card) {
                s->mask &= ~((uint64_t)1 << i);
                break;
            }
        settle_cursor(s);
        if (s->needs_play) s->played = 1;
    } else if (st.kind == RESERVE) {
        card = s->reserve[--s->rcount];
    } else {
        card = s->pk[st.source][s->plen[st.source] - st.count];
    }
    u.card = (int8_t)card;
    if (st.target == UP) {
        s->h[suit_of(card)]++;
        if (st.kind == PILE) s->plen[st.source]--;
    } else if (st.kind == PILE) {
        int from = s->plen[st.source] - st.count;
        for (int k = 0; k < st.count; k++) push_card(s, st.target, s->pk[st.source][from + k]);
        s->plen[st.source] = from;
    } else {
        push_card(s, st.target, card);
    }
    if (st.kind == PILE && s->autofill && !s->plen[st.source] && s->rcount) {
        push_card(s, st.source, s->reserve[--s->rcount]);
        u.filled = 1;
    }
    return u;
}

static void s_undo(Search *s, Step st, Undo u) {
    if (u.filled) s->reserve[s->rcount++] = s->pk[st.source][--s->plen[st.source]];
    int card = u.card;
    if (st.target == UP) {
        s->h[suit_of(card)]--;
    } else if (st.kind == PILE) {
        int from = s->plen[st.target] - st.count;
        for (int k = 0; k < st.count; k++) push_card(s, st.source, s->pk[st.target][from + k]);
        s->plen[st.target] = from;
        return;
    } else {
        s->plen[st.target]--;
    }
    if (st.kind == WASTE) {
        for (int i = 0; i < s->length; i++)
            if (s->line[i] == card) {
                s->mask |= (uint64_t)1 << i;
                break;
            }
        s->cursor = u.cursor;
        s->played = u.played;
    } else if (st.kind == RESERVE) {
        s->rcount++;
    } else {
        push_card(s, st.source, card);
    }
}

/* One run from the position in ``s``: until a win (its steps in ``path``), the end of every position reachable,
 * ``cap`` new positions (-1: none), or the budget. The position is put back as it was. */
static int run_search(Search *s, long long cap, Step **path, int *path_len) {
    *path = NULL;
    *path_len = 0;
    if (s_won(s)) return SOLVED_V;
    pair_clear(&s->seen);
    s->seen.max_entries = s->max_entries;
    if (pair_add(&s->seen, s_key1(s), s_key2(s)) < 0) return FAILED_V;
    long long made_here = 0;
    int depth_cap = 256, top = 0, verdict = UNSOLVABLE_V;
    Frame *stack = malloc((size_t)depth_cap * sizeof(Frame));
    if (!stack) return FAILED_V;
    children(s, &stack[0]);
    stack[0].made.kind = -1;
    while (top >= 0) {
        Frame *f = &stack[top];
        if (f->next == f->n) {
            if (f->made.kind >= 0) s_undo(s, f->made, f->undo);
            top--;
            continue;
        }
        Step st = f->child[f->next++];
        Undo u = s_do(s, st);
        if (s_won(s)) {
            Step *out = malloc((size_t)(top + 1) * sizeof(Step));
            if (!out) {
                s_undo(s, st, u);
                verdict = FAILED_V;
                break;
            }
            for (int k = 1; k <= top; k++) out[k - 1] = stack[k].made;
            out[top] = st;
            *path = out;
            *path_len = top + 1;
            s_undo(s, st, u);
            verdict = SOLVED_V;
            break;
        }
        if (budget_spent(&s->budget) || made_here == cap) {
            s_undo(s, st, u);
            verdict = UNKNOWN_V;
            break;
        }
        int added = pair_add(&s->seen, s_key1(s), s_key2(s));
        if (added <= 0) {
            s_undo(s, st, u);
            if (added == 0) continue;
            verdict = UNKNOWN_V; /* out of table: as if the budget were spent */
            break;
        }
        made_here++;
        budget_count(&s->budget);
        if (top + 1 == depth_cap) {
            Frame *bigger = realloc(stack, (size_t)depth_cap * 2 * sizeof(Frame));
            if (!bigger) {
                s_undo(s, st, u);
                verdict = FAILED_V;
                break;
            }
            stack = bigger;
            depth_cap *= 2;
        }
        top++;
        children(s, &stack[top]);
        stack[top].made = st;
        stack[top].undo = u;
    }
    /* a win or a stop leaves the frames' steps made: take them back, deepest first */
    if (verdict != UNSOLVABLE_V)
        for (; top >= 1; top--) s_undo(s, stack[top].made, stack[top].undo);
    free(stack);
    pair_clear(&s->seen);
    return verdict;
}


/* Reads the position and the game from solve's arguments into ``s``; 0 where one is out of range. */
static int s_load(Search *s, const char *line, Py_ssize_t length, int cursor, int played, const char *reserve,
                  Py_ssize_t rlen, const char *hb, Py_ssize_t hlen, PyObject *piles) {
    int seen[52] = {0};
    if (length > MAX_LINE || cursor < 0 || cursor > length || rlen > MAX_RESERVE || hlen != 4) return 0;
    if (s->base < 1 || s->base > 13 || s->draw < 1 || !PyList_Check(piles) || PyList_Size(piles) != NPILE) return 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        uint8_t c = (uint8_t)line[i];
        if (c >= 52 || seen[c]++) return 0;
        s->line[i] = c;
    }
    for (Py_ssize_t i = 0; i < rlen; i++) {
        uint8_t c = (uint8_t)reserve[i];
        if (c >= 52 || seen[c]++) return 0;
        s->reserve[i] = c;
    }
    for (int p = 0; p < NPILE; p++) {
        char *buf;
        Py_ssize_t n;
        PyObject *item = PyList_GET_ITEM(piles, p);
        if (!PyBytes_Check(item) || PyBytes_AsStringAndSize(item, &buf, &n) < 0 || n > MAXPILE - 1) return 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            uint8_t c = (uint8_t)buf[k];
            if (c >= 52 || seen[c]++) return 0;
            push_card(s, p, c);
        }
    }
    for (int su = 0; su < 4; su++) {
        s->h[su] = (uint8_t)hb[su];
        if (s->h[su] > 13) return 0;
        for (int k = 0; k < s->h[su]; k++) {
            int c = su * 13 + (s->base - 1 + k) % 13;
            if (seen[c]++) return 0;
        }
    }
    s->length = (int)length;
    s->mask = length ? (length == 64 ? ~(uint64_t)0 : ((uint64_t)1 << length) - 1) : 0;
    s->cursor = cursor;
    settle_cursor(s);
    s->played = s->needs_play && played;
    s->rcount = (int)rlen;
    return 1;
}

static PyObject *step_tuple(const void *steps, int k) {
    const Step *path = steps;
    return Py_BuildValue("(iiii)", path[k].kind, path[k].source, path[k].target, path[k].count);
}

PyDoc_STRVAR(solve_doc,
             "solve(line, cursor, played, reserve, heights, base, piles, draw, needs_play, wrap, top_of_two,\n"
             "      autofill, first_run, restart_unit, max_nodes, max_seconds, max_entries, progress,\n"
             "      progress_every) -> (verdict, steps, nodes, seconds)\n\n"
             "line: the waste's cards bottom first, then the hand's top first (at most 36); cursor: how many of\n"
             "them are the waste; played: a card was played from the waste this pass; reserve: bottom first (at\n"
             "most 15); heights: 4 bytes by suit (S H D C); base: the foundations' base rank (1..13); piles: 4\n"
             "bytes objects, bottom first. draw: cards a turn; needs_play: a redeal needs a card played from the\n"
             "waste that pass; wrap: a king goes on an ace in the columns; top_of_two: a column gives its whole\n"
             "self or the top card of two (Foster), else its top card or its whole self, and the waste fills a\n"
             "space only once the reserve is out; autofill: the reserve's top fills a column a move empties.\n"
             "The first run takes the children in order for first_run positions, then shuffled runs of\n"
             "restart_unit times Luby's sequence. max_nodes, max_seconds: -1 for no limit. progress(nodes,\n"
             "seconds) is called every progress_every positions (a multiple of 1024). verdict: 0 solved, 1\n"
             "unsolvable, 2 budget spent; steps: (kind, source, target, count), kinds 1 the waste's top after\n"
             "count turns of the hand (a redeal counting as one), 2 the reserve's top, 3 a column's top count\n"
             "cards; target -1 a foundation (engine/canfield_search.py).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    const char *line, *reserve, *hb;
    Py_ssize_t length, rlen, hlen;
    int cursor, played, base, draw, needs_play, wrap, top_of_two, autofill;
    PyObject *piles, *progress;
    long long first_run, restart_unit, max_nodes, max_entries, progress_every;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "y#ipy#y#iOippppLLLdLOL", &line, &length, &cursor, &played, &reserve, &rlen, &hb,
                          &hlen, &base, &piles, &draw, &needs_play, &wrap, &top_of_two, &autofill, &first_run,
                          &restart_unit, &max_nodes, &max_seconds, &max_entries, &progress, &progress_every))
        return NULL;
    if (restart_unit < 1 || max_entries < 1 || progress_every < 1024 || progress_every % 1024) {
        PyErr_SetString(PyExc_ValueError, "a budget the Canfield search cannot take (see solve's doc)");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->base = base;
    s->draw = draw;
    s->needs_play = needs_play;
    s->wrap = wrap;
    s->top_of_two = top_of_two;
    s->autofill = autofill;
    if (!s_load(s, line, length, cursor, played, reserve, rlen, hb, hlen, piles)) {
        free(s);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "a position the Canfield search cannot take: a card twice or out of 0..51, a line, "
                            "reserve or column too long, or a height above 13 (see solve's doc)");
        return NULL;
    }
    s->max_entries = (size_t)max_entries;
    budget_begin(&s->budget, max_nodes, max_seconds, progress, progress_every);
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
    PyModuleDef_HEAD_INIT, "engine._canfield",
    "The compiled search of Canfield (engine/canfield_search.py).", -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__canfield(void) { return PyModule_Create(&module); }
