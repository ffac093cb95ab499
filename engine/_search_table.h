/* What the compiled searches of engine/_cross.c and engine/_canfield.c share: the CPU clock, a transposition
 * table of 128-bit keys, a 64-bit mixer and Luby's restart lengths. Included by each (one extension each). */
#ifndef CADOGAN_SEARCH_TABLE_H
#define CADOGAN_SEARCH_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

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
