/* The exact solver's search for The Queens, compiled.
 *
 * engine/queens_search.py says what the search does and why its rules keep every win; this file is the search
 * itself. A card is its code (suit * 13 + rank - 1; two packs, so each code twice). A position: the key (codes,
 * bottom first), the pack and the talon (codes, bottom first: the pack's last card is dealt next, the talon's
 * last card is its top), the eight foundations (suit and height: 0 empty, 1 its king, 2 its ace ... 13 complete
 * at its queen), the seven shutter piles (a shutter pile is always one suit's run down from its bottom card: suit,
 * bottom rank and length say it all) and the hooks' two flags (a card played since the last talon payment; the
 * talon's top card just turned from the pack). The key: a hash of the key's height, the pack and the talon in
 * order and the flags, beside a hash of the foundations' heights by suit (a suit's two foundations as a set) and
 * the shutter piles as a set.
 * Moves are the engine's own (engine/games/queens.py's hooks) with steps as (source, destination, count): pile
 * numbers 0 the pack, 1 the talon, 2 the key, 3..10 the foundations, 11..17 the shutter. Children skip moves
 * that reach a position another child reaches (a second foundation of one suit and height, a second empty
 * space, a shutter pile like another) or the position itself (a marriage between piles of one bottom card), and
 * a card that is of no use on the shutter goes up alone (see engine/queens_search.py).
 * A position the key makes lost has no children (key_blocked): that proves nearly every deal lost at once.
 * Depth-first, in one run (engine/_search_run.h): the deals the key lets through are won within a few hundred
 * positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_search_table.h"

#define NF 8
#define NH 7
#define MAXC 104
#define KEY_SIZE 32
#define KEY_PAYMENT 14
#define TALON_PAYMENT 3
#define QUEEN 12
#define KING 13
#define FULL 13 /* a complete foundation: king, ace ... queen */
#define MAXCHILD 96
enum { P_S = 0, P_W = 1, P_K = 2, P_F = 3, P_H = 3 + NF };
enum { SOLVED_V = 0, UNSOLVABLE_V = 1, UNKNOWN_V = 2, FAILED_V = 3 };

typedef struct {
    int8_t src, dst;
    int16_t count;
} Step;

/* What undoing a step needs: the flags before it and, for a talon payment, the talon's length before it and the
 * places (bits) of the cards it took. */
typedef struct {
    int8_t played, turned;
    int16_t tlen;
    uint64_t taken[2];
} Undo;

typedef struct {
    Step child[MAXCHILD];
    int n, next;
    Step made;
    Undo undo;
} Frame;

typedef struct {
    uint8_t key[MAXC], pack[MAXC], tal[MAXC];
    int klen, plen, tlen;
    uint64_t ph[MAXC + 1], th[MAXC + 1]; /* the pack's and the talon's hash after each of their cards */
    int fsuit[NF], fh[NF];               /* a foundation's suit (-1 while empty) and height */
    int hsuit[NH], hbot[NH], hlen[NH];   /* a shutter pile's suit, bottom rank and length (0: a space) */
    int played, turned;
    int dedup, safe; /* children that reach another child's position skipped; safe cards up alone */
    int blocked;     /* positions the key makes lost have no children */
    SearchBudget budget;
    size_t max_entries;
} Search;

static inline int c_suit(int c) { return c / 13; }
static inline int c_rank(int c) { return c % 13 + 1; }

/* The rank foundation ``f`` takes next (0: complete). */
static inline int f_next(const Search *s, int f) { return s->fh[f] == 0 ? KING : s->fh[f] < FULL ? s->fh[f] : 0; }

static inline int f_takes(const Search *s, int f, int c) {
    int want = f_next(s, f);
    return want && c_rank(c) == want && (s->fh[f] == 0 || s->fsuit[f] == c_suit(c));
}

static inline int h_top(const Search *s, int h) {
    return s->hlen[h] ? s->hsuit[h] * 13 + (s->hbot[h] - s->hlen[h] + 1) - 1 : -1;
}

/* Whether card ``c`` marries onto shutter pile ``h`` (the next lower card of the same suit). */
static inline int h_takes(const Search *s, int h, int c) {
    return s->hlen[h] && s->hsuit[h] == c_suit(c) && s->hbot[h] - s->hlen[h] + 1 == c_rank(c) + 1;
}

static inline int same_pile(const Search *s, int a, int b) {
    return s->hlen[a] == s->hlen[b] && (!s->hlen[a] || (s->hsuit[a] == s->hsuit[b] && s->hbot[a] == s->hbot[b]));
}

static void rehash(Search *s) {
    for (int k = 0; k < s->plen; k++) s->ph[k + 1] = mix64(s->ph[k] * 31 + s->pack[k] + 1);
    for (int k = 0; k < s->tlen; k++) s->th[k + 1] = mix64(s->th[k] * 37 + s->tal[k] + 1);
}

static inline void tal_push(Search *s, int c) {
    int n = s->tlen++;
    s->tal[n] = (uint8_t)c;
    s->th[n + 1] = mix64(s->th[n] * 37 + (uint64_t)c + 1);
}

static inline void pack_push(Search *s, int c) {
    int n = s->plen++;
    s->pack[n] = (uint8_t)c;
    s->ph[n + 1] = mix64(s->ph[n] * 31 + (uint64_t)c + 1);
}

static inline int s_won(const Search *s) {
    for (int f = 0; f < NF; f++)
        if (s->fh[f] < FULL) return 0;
    return 1;
}

static inline int any_founded(const Search *s) {
    for (int f = 0; f < NF; f++)
        if (s->fh[f]) return 1;
    return 0;
}

static inline int any_space(const Search *s) {
    for (int h = 0; h < NH; h++)
        if (!s->hlen[h]) return 1;
    return 0;
}

static inline int talon_queens(const Search *s) {
    int q = 0;
    for (int k = 0; k < s->tlen; k++) q += c_rank(s->tal[k]) == QUEEN;
    return q;
}

/* Rule V: the talon cards that make the fresh pack (every queen and three others each, counted from the
 * bottom), as bits of their places; returns how many. */
static int talon_payment(const Search *s, uint64_t taken[2]) {
    int queens = talon_queens(s), others = TALON_PAYMENT * queens, n = 0;
    taken[0] = taken[1] = 0;
    for (int k = 0; k < s->tlen; k++) {
        int q = c_rank(s->tal[k]) == QUEEN;
        if (q || others > 0) {
            if (!q) others--;
            taken[k >> 6] |= (uint64_t)1 << (k & 63);
            n++;
        }
    }
    return n;
}

/* Where card ``c`` from ``src`` may go: each foundation that takes it, and (from the shutter or the talon) each
 * shutter pile it marries onto or, from the talon, each space. With ``dedup`` one foundation and one space only,
 * and no second pile like one already taken. */
static void add_moves(const Search *s, int src, int c, Step *out, int *n) {
    for (int f = 0; f < NF; f++)
        if (f_takes(s, f, c)) {
            out[(*n)++] = (Step){(int8_t)src, (int8_t)(P_F + f), 1};
            if (s->dedup) break;
        }
    if (src == P_K) return; /* Rule III: key cards go to the foundations only */
    for (int h = 0; h < NH; h++) {
        if (P_H + h == src) continue;
        if (!(h_takes(s, h, c) || (src == P_W && !s->hlen[h]))) continue;
        int twin = 0;
        for (int g = 0; g < h && s->dedup && !twin; g++) twin = P_H + g != src && same_pile(s, g, h);
        /* a marriage between two piles of one bottom card only swaps their lengths: the same piles as a set */
        if (s->dedup && src >= P_H && s->hbot[h] == s->hbot[src - P_H]) twin = 1;
        if (!twin) out[(*n)++] = (Step){(int8_t)src, (int8_t)(P_H + h), 1};
    }
}

/* Whether a move to a foundation loses nothing and goes up alone: an ace (no card marries onto it), or a card
 * whose one marriage partner (the other copy of the card below it) is on a foundation already, from the talon
 * or from a shutter pile it does not empty. See engine/queens_search.py. */
static int is_safe(const Search *s, Step st) {
    if (st.dst < P_F || st.dst >= P_H || st.src == P_K) return 0;
    int c = st.src == P_W ? s->tal[s->tlen - 1] : h_top(s, st.src - P_H);
    if (st.src >= P_H && s->hlen[st.src - P_H] < 2) return 0;
    int r = c_rank(c);
    if (r == 1) return 1;
    if (r == KING) return 0;
    int copies = 0; /* cards of the suit and rank below on the foundations */
    for (int f = 0; f < NF; f++)
        if (s->fh[f] && s->fsuit[f] == c_suit(c) && s->fh[f] >= r) copies++;
    return copies == 2;
}

/* A card's place in its foundation's order: the king 0, the ace 1 ... the queen 12. */
static inline int f_index(int c) { return c_rank(c) == KING ? 0 : c_rank(c); }

/* Whether suit ``suit``'s copies still to go up can make two foundations (``h`` their heights; 0 for one still to
 * come) without a key card going up after a card it needs: a copy of a rank lies in the key at ``pos`` (-1 for
 * none there, 2 copies a rank), and every copy in the key a chain takes must lie above every key card the chain
 * has taken at higher ranks, its requirement ``req``. From rank ``j`` down. */
static int chains_fit(const int pos[13][2], const int npos[13], const int h[2], int j, int req0, int req1) {
    for (; j >= 0; j--) {
        int need0 = h[0] <= j, need1 = h[1] <= j;
        if (!need0 && !need1) return 1; /* lower ranks are on both foundations */
        /* the copies still to go up at rank j: those in the key at their places, the others anywhere (none) */
        int a = npos[j] > 0 ? pos[j][0] : -1, b = npos[j] > 1 ? pos[j][1] : -1;
        if (need0 && need1) {
            /* two copies, two chains: a copy in the key must lie above its chain's requirement */
            int ok1 = (a < 0 || a > req0) && (b < 0 || b > req1);
            int ok2 = (a < 0 || a > req1) && (b < 0 || b > req0);
            int n1a = a < 0 ? req0 : a, n1b = b < 0 ? req1 : b;
            int n2a = a < 0 ? req1 : a, n2b = b < 0 ? req0 : b;
            if (ok1 && ok2 && !(n1a == n2b && n1b == n2a)) { /* two ways that differ: try both */
                if (chains_fit(pos, npos, h, j - 1, n1a, n1b)) return 1;
                req0 = n2b;
                req1 = n2a;
                continue;
            }
            if (ok1) {
                req0 = n1a;
                req1 = n1b;
            } else if (ok2) {
                req0 = n2b;
                req1 = n2a;
            } else {
                return 0;
            }
        } else { /* one chain needs it: the copy not on the other foundation */
            int *req = need0 ? &req0 : &req1;
            if (a >= 0 && a <= *req) return 0;
            if (a >= 0) *req = a;
        }
    }
    return 1;
}

/* Whether the key makes the position lost: some suit's cards cannot make two foundations without a key card
 * needing a card that lies under it in the key (see engine/queens_search.py); that suit plus one, else 0. Not
 * asked while the key may still pay for a queen (its cards would leave it). */
static int key_blocked(const Search *s) {
    if (!s->klen || (c_rank(s->key[s->klen - 1]) == QUEEN && !any_founded(s))) return 0;
    int pos[4][13][2], npos[4][13] = {{0}};
    for (int k = 0; k < s->klen; k++) {
        int c = s->key[k], suit = c_suit(c), j = f_index(c);
        pos[suit][j][npos[suit][j]++] = k;
    }
    for (int suit = 0; suit < 4; suit++) {
        int h[2] = {0, 0}, n = 0;
        for (int f = 0; f < NF; f++)
            if (s->fh[f] && s->fsuit[f] == suit) h[n++] = s->fh[f];
        if (!chains_fit((const int(*)[2])pos[suit], npos[suit], h, 12, -1, -1)) return suit + 1;
    }
    return 0;
}

/* The moves the rules allow here (engine/games/queens.py's hooks), each once or (``dedup``) once per position
 * reached. */
static int legal(const Search *s, Step *out) {
    int n = 0;
    if (s->klen && c_rank(s->key[s->klen - 1]) == QUEEN && !any_founded(s)) {
        out[n++] = (Step){P_K, P_S, (int16_t)(s->klen < KEY_PAYMENT ? s->klen : KEY_PAYMENT)};
        return n; /* Rule IV, before any play */
    }
    if (s->klen) add_moves(s, P_K, s->key[s->klen - 1], out, &n);
    if (n) return n; /* the key first */
    if (any_space(s)) { /* spaces refilled at once, from the pack */
        if (s->tlen && s->turned) {
            add_moves(s, P_W, s->tal[s->tlen - 1], out, &n);
            return n;
        }
        if (s->plen) {
            out[n++] = (Step){P_S, P_W, 1};
            return n;
        }
    }
    for (int h = 0; h < NH; h++) {
        if (!s->hlen[h]) continue;
        int twin = 0;
        for (int g = 0; g < h && s->dedup && !twin; g++) twin = same_pile(s, g, h);
        if (!twin) add_moves(s, P_H + h, h_top(s, h), out, &n);
    }
    if (s->tlen) add_moves(s, P_W, s->tal[s->tlen - 1], out, &n);
    if (s->plen) out[n++] = (Step){P_S, P_W, 1};
    if (!s->plen && s->played && talon_queens(s)) {
        uint64_t taken[2];
        out[n++] = (Step){P_W, P_S, (int16_t)talon_payment(s, taken)};
    }
    return n;
}

static void children(Search *s, Frame *f) {
    f->next = 0;
    if (s->blocked && key_blocked(s)) {
        f->n = 0;
        return;
    }
    f->n = legal(s, f->child);
    if (s->safe)
        for (int i = 0; i < f->n; i++)
            if (is_safe(s, f->child[i])) {
                f->child[0] = f->child[i];
                f->n = 1;
                return;
            }
}

/* The card leaving ``src`` (its top), taken off. */
static int take(Search *s, int src) {
    if (src == P_K) return s->key[--s->klen];
    if (src == P_W) return s->tal[--s->tlen];
    int h = src - P_H, c = h_top(s, h);
    s->hlen[h]--;
    return c;
}

static void put(Search *s, int dst, int c) {
    if (dst == P_W) {
        tal_push(s, c);
    } else if (dst == P_K) {
        s->key[s->klen++] = (uint8_t)c;
    } else if (dst < P_H) {
        int f = dst - P_F;
        s->fsuit[f] = c_suit(c);
        s->fh[f]++;
    } else {
        int h = dst - P_H;
        if (!s->hlen[h]) {
            s->hsuit[h] = c_suit(c);
            s->hbot[h] = c_rank(c);
        }
        s->hlen[h]++;
    }
}

static Undo s_do(Search *s, Step st) {
    Undo u = {(int8_t)s->played, (int8_t)s->turned, (int16_t)s->tlen, {0, 0}};
    if (st.src == P_K && st.dst == P_S) { /* Rule IV: turned face down under the pack, the queen at the bottom */
        int n = st.count;
        memmove(s->pack + n, s->pack, (size_t)s->plen);
        for (int k = 0; k < n; k++) s->pack[k] = s->key[s->klen - 1 - k];
        s->klen -= n;
        s->plen += n;
        rehash(s);
        return u;
    }
    if (st.src == P_W && st.dst == P_S) { /* Rule V: the chosen cards turned over, the talon's bottom one first */
        talon_payment(s, u.taken);
        uint8_t fresh[MAXC];
        int nf = 0, nt = 0;
        for (int k = 0; k < s->tlen; k++) {
            if (u.taken[k >> 6] >> (k & 63) & 1)
                fresh[nf++] = s->tal[k];
            else
                s->tal[nt++] = s->tal[k];
        }
        s->tlen = nt;
        for (int k = nf - 1; k >= 0; k--) s->pack[s->plen++] = fresh[k];
        rehash(s);
        s->played = s->turned = 0;
        return u;
    }
    if (st.src == P_S) {
        tal_push(s, s->pack[--s->plen]);
        s->turned = 1;
        return u;
    }
    int c = take(s, st.src);
    put(s, st.dst, c);
    if (st.src == P_W) s->turned = 0;
    if (st.dst < P_H || st.src == P_W) s->played = 1;
    return u;
}

static void s_undo(Search *s, Step st, Undo u) {
    s->played = u.played;
    s->turned = u.turned;
    if (st.src == P_K && st.dst == P_S) {
        int n = st.count;
        for (int k = n - 1; k >= 0; k--) s->key[s->klen++] = s->pack[k];
        memmove(s->pack, s->pack + n, (size_t)(s->plen - n));
        s->plen -= n;
        rehash(s);
        return;
    }
    if (st.src == P_W && st.dst == P_S) {
        int nf = st.count, nt = s->tlen;
        uint8_t fresh[MAXC], rest[MAXC];
        for (int k = 0; k < nf; k++) fresh[k] = s->pack[s->plen - 1 - k];
        s->plen -= nf;
        memcpy(rest, s->tal, (size_t)nt);
        int a = 0, b = 0;
        for (int k = 0; k < u.tlen; k++) s->tal[k] = (u.taken[k >> 6] >> (k & 63) & 1) ? fresh[a++] : rest[b++];
        s->tlen = u.tlen;
        rehash(s);
        return;
    }
    if (st.src == P_S) {
        s->pack[s->plen] = s->tal[--s->tlen];
        s->plen++;
        return;
    }
    int c;
    if (st.dst == P_W) {
        c = s->tal[--s->tlen];
    } else if (st.dst < P_H) {
        int f = st.dst - P_F;
        c = s->fsuit[f] * 13 + (s->fh[f] == 1 ? KING : s->fh[f] - 1) - 1;
        if (--s->fh[f] == 0) s->fsuit[f] = -1;
    } else {
        int h = st.dst - P_H;
        c = h_top(s, h);
        s->hlen[h]--;
    }
    put(s, st.src, c);
}

/* The position's key: (1) the key's height, the pack and the talon in order, the flags; (2) each suit's
 * foundation heights as a set, and the shutter piles as a set. */
static inline void s_key(const Search *s, uint64_t *k1, uint64_t *k2) {
    uint64_t flags = (uint64_t)s->klen << 2 | (uint64_t)s->played << 1 | (uint64_t)s->turned;
    *k1 = mix64(s->th[s->tlen] ^ mix64(s->ph[s->plen] + flags * 0x9E3779B97F4A7C15ull)) | (uint64_t)1 << 63;
    uint64_t found = 0;
    for (int suit = 0; suit < 4; suit++) {
        int hi = 0, lo = 0;
        for (int f = 0; f < NF; f++)
            if (s->fh[f] && s->fsuit[f] == suit) {
                if (s->fh[f] > hi) {
                    lo = hi;
                    hi = s->fh[f];
                } else {
                    lo = s->fh[f];
                }
            }
        found = found << 8 | (uint64_t)(hi << 4 | lo);
    }
    uint64_t piles = 0;
    for (int h = 0; h < NH; h++)
        piles += mix64(s->hlen[h] ? (uint64_t)(s->hsuit[h] << 8 | s->hbot[h] << 4 | s->hlen[h]) : 0);
    *k2 = mix64(piles ^ found * 0xC2B2AE3D27D4EB4Full);
}

#define UNDO_T Undo
#include "_search_run.h"

/* Reads a position into ``s``: key, pack and talon as codes bottom first, the foundations and the shutter as
 * lists of bytes (codes bottom first), the flags; 0 where it is not a position of The Queens (a pile out of
 * shape, or not every card twice). */
static int s_load(Search *s, PyObject *key, PyObject *pack, PyObject *talon, PyObject *founds, PyObject *shutter,
                  int played, int turned) {
    int count[52] = {0};
    uint8_t codes[MAXC];
    int n;
    if (!read_codes(key, s->key, &s->klen, KEY_SIZE, count) || !read_codes(pack, s->pack, &s->plen, MAXC, count) ||
        !read_codes(talon, s->tal, &s->tlen, MAXC, count))
        return 0;
    if (!PyList_Check(founds) || PyList_Size(founds) != NF || !PyList_Check(shutter) || PyList_Size(shutter) != NH)
        return 0;
    for (int f = 0; f < NF; f++) {
        if (!read_codes(PyList_GET_ITEM(founds, f), codes, &n, FULL, count)) return 0;
        s->fh[f] = n;
        s->fsuit[f] = n ? c_suit(codes[0]) : -1;
        for (int k = 0; k < n; k++)
            if (c_suit(codes[k]) != s->fsuit[f] || c_rank(codes[k]) != (k == 0 ? KING : k)) return 0;
    }
    for (int h = 0; h < NH; h++) {
        if (!read_codes(PyList_GET_ITEM(shutter, h), codes, &n, KING, count)) return 0;
        s->hlen[h] = n;
        s->hsuit[h] = n ? c_suit(codes[0]) : 0;
        s->hbot[h] = n ? c_rank(codes[0]) : 0;
        for (int k = 0; k < n; k++)
            if (c_suit(codes[k]) != s->hsuit[h] || c_rank(codes[k]) != s->hbot[h] - k) return 0;
    }
    for (int c = 0; c < 52; c++)
        if (count[c] != 2) return 0;
    s->played = played != 0;
    s->turned = turned != 0;
    rehash(s);
    return 1;
}

static PyObject *step_tuple(const void *steps, int k) {
    const Step *path = steps;
    return Py_BuildValue("(iii)", path[k].src, path[k].dst, path[k].count);
}

static const char *bad_position =
    "a position The Queens' search cannot take: a pile out of shape or not every card twice (see solve's doc)";

/* A position read from the arguments of moves, blocked and solve; NULL with the error set. */
static Search *loaded(PyObject *key, PyObject *pack, PyObject *talon, PyObject *founds, PyObject *shutter,
                      int played, int turned) {
    Search *s = calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    if (!s_load(s, key, pack, talon, founds, shutter, played, turned)) {
        free(s);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, bad_position);
        return NULL;
    }
    return s;
}

PyDoc_STRVAR(moves_doc,
             "moves(key, pack, talon, foundations, shutter, played, turned, dedup, safe) -> steps\n\n"
             "The moves the rules allow in the position (as solve reads it), as (source, destination, count);\n"
             "dedup: one move per position reached; safe: a safe card's move up alone.");

static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *key, *pack, *talon, *founds, *shutter;
    int played, turned, dedup, safe;
    if (!PyArg_ParseTuple(args, "OOOOOiipp", &key, &pack, &talon, &founds, &shutter, &played, &turned, &dedup,
                          &safe))
        return NULL;
    Search *s = loaded(key, pack, talon, founds, shutter, played, turned);
    if (!s) return NULL;
    s->dedup = dedup;
    s->safe = safe;
    Frame f;
    children(s, &f);
    free(s);
    return steps_list(f.child, f.n, step_tuple);
}

PyDoc_STRVAR(blocked_doc,
             "blocked(key, pack, talon, foundations, shutter, played, turned) -> int\n\n"
             "Whether the key makes the position (as solve reads it) lost: the first suit (0..3) whose cards\n"
             "cannot make two foundations without a key card going up after a card under it in the key; -1 none.");

static PyObject *py_blocked(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *key, *pack, *talon, *founds, *shutter;
    int played, turned;
    if (!PyArg_ParseTuple(args, "OOOOOii", &key, &pack, &talon, &founds, &shutter, &played, &turned)) return NULL;
    Search *s = loaded(key, pack, talon, founds, shutter, played, turned);
    if (!s) return NULL;
    int blocked = key_blocked(s);
    free(s);
    return PyLong_FromLong(blocked - 1);
}

PyDoc_STRVAR(solve_doc,
             "solve(key, pack, talon, foundations, shutter, played, turned, safe, max_nodes, max_seconds,\n"
             "      max_entries, progress, progress_every) -> (verdict, steps, nodes, seconds)\n\n"
             "key, pack, talon: bytes of card codes (suit * 13 + rank - 1), bottom first; foundations: 8 bytes\n"
             "objects (a king, then ace up, one suit); shutter: 7 bytes objects (one suit's run down); every card\n"
             "twice in all. played, turned: the engine's hook state. safe: a safe card's move up alone. max_nodes,\n"
             "max_seconds: -1 for no limit. progress(nodes, seconds) is called every progress_every positions (a\n"
             "multiple of 1024). verdict: 0 solved, 1 unsolvable, 2 budget spent; steps: (source, destination,\n"
             "count), piles 0 pack, 1 talon, 2 key, 3-10 foundations, 11-17 shutter (engine/queens_search.py).");

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *key, *pack, *talon, *founds, *shutter, *progress;
    int played, turned, safe;
    long long max_nodes, max_entries, progress_every;
    double max_seconds;
    if (!PyArg_ParseTuple(args, "OOOOOiipLdLOL", &key, &pack, &talon, &founds, &shutter, &played, &turned, &safe,
                          &max_nodes, &max_seconds, &max_entries, &progress, &progress_every))
        return NULL;
    if (max_entries < 1 || progress_every < 1024 || progress_every % 1024) {
        PyErr_SetString(PyExc_ValueError, "a budget The Queens' search cannot take (see solve's doc)");
        return NULL;
    }
    Search *s = loaded(key, pack, talon, founds, shutter, played, turned);
    if (!s) return NULL;
    s->dedup = s->blocked = 1;
    s->safe = safe;
    s->max_entries = (size_t)max_entries;
    budget_begin(&s->budget, max_nodes, max_seconds, progress, progress_every);
    Step *path = NULL;
    int path_len = 0;
    int verdict = run(s, -1, &path, &path_len);
    SearchBudget budget = s->budget;
    free(s);
    return search_answer(verdict, verdict == FAILED_V, &budget, path, path_len, step_tuple);
}

static PyMethodDef module_methods[] = {
    {"solve", py_solve, METH_VARARGS, solve_doc},
    {"moves", py_moves, METH_VARARGS, moves_doc},
    {"blocked", py_blocked, METH_VARARGS, blocked_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._queens", "The compiled search of The Queens (engine/queens_search.py).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__queens(void) { return PyModule_Create(&module); }
