/* What the compiled searches of engine/_cross.c, _canfield.c, _thirteen.c, _queens.c and _sly.c share: the CPU
 * clock, the budget (positions, CPU seconds, progress reports, Ctrl-C), a transposition table of 128-bit keys, a
 * 64-bit mixer, Luby's restart lengths, card codes read from Python and the answer handed back to it. Included by
 * each (one extension each), after Python.h. */
#ifndef CADOGAN_SEARCH_TABLE_H
#define CADOGAN_SEARCH_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* A search's budget, shared by all its runs: positions made, the limits (-1: none), the progress callback. */
typedef struct {
    long long nodes, max_nodes, progress_every;
    double start, deadline;
    PyObject *progress;
    int out_of_time, interrupted;
} SearchBudget;

static inline void budget_begin(SearchBudget *b, long long max_nodes, double max_seconds, PyObject *progress,
                                long long progress_every) {
    b->nodes = 0;
    b->max_nodes = max_nodes;
    b->progress = progress;
    b->progress_every = progress_every;
    b->start = cpu_now();
    b->deadline = max_seconds >= 0 ? b->start + max_seconds : -1;
    b->out_of_time = b->interrupted = 0;
}

static inline int budget_spent(const SearchBudget *b) {
    return b->out_of_time || (b->max_nodes >= 0 && b->nodes >= b->max_nodes);
}

/* One more position: the clock read every 1,024, and every progress_every the callback called and Ctrl-C
 * looked for (either stops the search, its error kept for the caller). */
static void budget_count(SearchBudget *b) {
    b->nodes++;
    if ((b->nodes & 1023) == 0) {
        double now = cpu_now();
        b->out_of_time = b->deadline >= 0 && now >= b->deadline;
        if (b->nodes % b->progress_every == 0) {
            if (PyErr_CheckSignals() < 0) {
                b->interrupted = 1;
                b->out_of_time = 1;
                return;
            }
            if (b->progress && b->progress != Py_None) {
                PyObject *r = PyObject_CallFunction(b->progress, "Ld", b->nodes, now - b->start);
                if (!r) {
                    b->interrupted = 1;
                    b->out_of_time = 1;
                    return;
                }
                Py_DECREF(r);
            }
        }
    }
}

/* A list of ``n`` steps of ``steps``, each made a tuple by ``step_tuple``; NULL with the error set. */
static PyObject *steps_list(const void *steps, int n, PyObject *(*step_tuple)(const void *path, int k)) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *t = step_tuple(steps, k);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, t);
    }
    return out;
}

/* Reads a bytes object of at most ``max`` card codes (0..51) into ``out`` and its length into ``len``, counting
 * each code in ``count``; 0 where it is no such thing. */
static inline int read_codes(PyObject *obj, uint8_t *out, int *len, int max, int count[52]) {
    char *buf;
    Py_ssize_t n;
    if (!PyBytes_Check(obj) || PyBytes_AsStringAndSize(obj, &buf, &n) < 0 || n > max) return 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        int c = (uint8_t)buf[k];
        if (c >= 52) return 0;
        count[c]++;
        out[k] = (uint8_t)c;
    }
    *len = (int)n;
    return 1;
}

/* The search's answer to Python, (verdict, steps, nodes, seconds), each step of ``path`` (``path_len`` of
 * them, freed here) made a tuple by ``step_tuple``; NULL with the error set where the progress callback or
 * Ctrl-C stopped the search, or ``failed`` (memory ran out). */
static PyObject *search_answer(int verdict, int failed, const SearchBudget *b, void *path, int path_len,
                               PyObject *(*step_tuple)(const void *path, int k)) {
    double seconds = cpu_now() - b->start;
    if (b->interrupted && PyErr_Occurred()) {
        free(path);
        return NULL;
    }
    if (failed) {
        free(path);
        return PyErr_NoMemory();
    }
    PyObject *steps = steps_list(path, path_len, step_tuple);
    free(path);
    if (!steps) return NULL;
    return Py_BuildValue("(iNLd)", verdict, steps, b->nodes, seconds);
}

/* A transposition table of (k1, k2) pairs; k1 is never 0 (each search keeps a bit of it set), 0 marks a free
 * slot. */
typedef struct {
    uint64_t *keys;
    size_t cap, count, max_entries;
} PairSet;

static inline size_t pair_slot(const uint64_t *keys, size_t mask, uint64_t k1, uint64_t k2) {
    uint64_t x = (k1 ^ (k2 * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
    size_t j = (size_t)(x >> 17) & mask;
    while (keys[2 * j] && !(keys[2 * j] == k1 && keys[2 * j + 1] == k2)) j = (j + 1) & mask;
    return j;
}

static inline int pair_has(const PairSet *s, uint64_t k1, uint64_t k2) {
    return s->cap && s->keys[2 * pair_slot(s->keys, s->cap - 1, k1, k2)];
}

/* 1: added, 0: there already, -1: full (past max_entries or out of memory). */
static inline int pair_add(PairSet *s, uint64_t k1, uint64_t k2) {
    if (s->count * 2 >= s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1 << 12;
        if (cap > 2 * s->max_entries) return -1;
        uint64_t *keys = calloc(cap * 2, sizeof(uint64_t));
        if (!keys) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->keys[2 * i]) {
                size_t j = pair_slot(keys, cap - 1, s->keys[2 * i], s->keys[2 * i + 1]);
                keys[2 * j] = s->keys[2 * i];
                keys[2 * j + 1] = s->keys[2 * i + 1];
            }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    size_t j = pair_slot(s->keys, s->cap - 1, k1, k2);
    if (s->keys[2 * j]) return 0;
    s->keys[2 * j] = k1;
    s->keys[2 * j + 1] = k2;
    s->count++;
    return 1;
}

static inline void pair_clear(PairSet *s) {
    free(s->keys);
    s->keys = NULL;
    s->cap = s->count = 0;
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x;
}

/* The i-th term (from 1) of Luby, Sinclair and Zuckerman's sequence 1, 1, 2, 1, 1, 2, 4, ... */
static inline long long luby(long long i) {
    int k = 1;
    while (((long long)1 << k) - 1 < i) k++;
    if (i == ((long long)1 << k) - 1) return (long long)1 << (k - 1);
    return luby(i - ((long long)1 << (k - 1)) + 1);
}

#endif
