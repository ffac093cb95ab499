/* The depth-first run of engine/_queens.c and engine/_sly.c, included by each after it defines: ``Search``
 * (with ``budget`` and ``max_entries``), ``Step`` (its first field ``src``, -1 in the root's frame), ``UNDO_T``
 * (what undoing a step needs), ``Frame`` (``child``, ``n``, ``next``, ``made``, ``undo``) and ``children``,
 * ``s_do``, ``s_undo``, ``s_key`` and ``s_won``. */
#ifndef CADOGAN_SEARCH_RUN_H
#define CADOGAN_SEARCH_RUN_H

#include <string.h>

/* A depth-first run from the position in ``s``: until a win (its steps in ``path``), the end of every position
 * reachable (UNSOLVABLE), ``cap`` new positions (-1: none), the budget or the table's room (UNKNOWN). The
 * position is put back. */
static int run(Search *s, long long cap, Step **path, int *path_len) {
    *path = NULL;
    *path_len = 0;
    if (s_won(s)) return SOLVED_V;
    PairSet seen = {0};
    seen.max_entries = s->max_entries;
    uint64_t k1, k2;
    s_key(s, &k1, &k2);
    int depth_cap = 256, top = 0, verdict = UNSOLVABLE_V;
    long long made = 0;
    Frame *stack = malloc((size_t)depth_cap * sizeof(Frame));
    if (!stack || pair_add(&seen, k1, k2) < 0) {
        free(stack);
        pair_clear(&seen);
        return FAILED_V;
    }
    memset(&stack[0].made, 0xff, sizeof(Step)); /* src -1: the root */
    children(s, &stack[0]);
    while (top >= 0) {
        Frame *f = &stack[top];
        if (f->next == f->n) {
            if (f->made.src >= 0) s_undo(s, f->made, f->undo);
            top--;
            continue;
        }
        if (budget_spent(&s->budget) || made == cap) {
            verdict = UNKNOWN_V;
            break;
        }
        Step st = f->child[f->next++];
        UNDO_T u = s_do(s, st);
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
        s_key(s, &k1, &k2);
        int added = pair_add(&seen, k1, k2);
        if (added <= 0) {
            s_undo(s, st, u);
            if (added == 0) continue;
            verdict = UNKNOWN_V; /* out of table: as if the budget were spent */
            break;
        }
        made++;
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
        stack[top].made = st;
        stack[top].undo = u;
        children(s, &stack[top]);
    }
    if (verdict != UNSOLVABLE_V)
        for (; top >= 1; top--) s_undo(s, stack[top].made, stack[top].undo);
    free(stack);
    pair_clear(&seen);
    return verdict;
}

/* Reads a position into ``s``: the pack and the turned card as codes bottom first, the foundations and the
 * packets as lists of bytes, the round's count; 0 where it is not a position of Sly. */

#endif
