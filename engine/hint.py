"""Hints for live tables, whose face-down cards the camera cannot see.

Determinization: the cards seen nowhere on the table are shuffled into the unknown slots, many times over
(one ``random.Random(seed)``, so a hint is reproducible); each legal move is judged on every sample by the
exact solver with a small node budget, and the move with the best mean is the hint. A sample won counts 1,
lost 0, undecided 1/2. Budgets are counted in nodes, not seconds, so the same seed gives the same hint on any
machine; ``nodes_for_seconds`` converts a time budget at a fixed rate.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> table = Table.dealt(find_game("klondike/draw3"), seed=2)
>>> hint(table, nodes=3000, seed=1) == hint(table, nodes=3000, seed=1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.cards import UNKNOWN, full_deck
from engine.errors import CadoganError
from engine.moves import Move
from engine.solver import Budget, Verdict, solve
from engine.solver_rules import canonical_key, key_parts, order_moves, solver_rules
from engine.table import Table

NODES_PER_SECOND = 10_000
"""A conservative rate of the solver on one core of a 2020s laptop (see docs/solver.md)."""

_MAX_SAMPLES = 24


class HintError(CadoganError):
    """The table cannot be completed into a full pack (more unknown cards than cards unaccounted for)."""


@dataclass(frozen=True, slots=True)
class Hint:
    move: Move | None
    """None when no legal move is left."""
    sentence: str
    """The move in words (``Table.describe``)."""
    chance: float
    """Estimated chance to win after this move, 0..1."""
    reason: str
    """One sentence saying why this move."""
    samples: int
    """How many ways of placing the hidden cards were tried (1 when every card is known)."""


@dataclass(slots=True)
class _Tally:
    won: int = 0
    lost: int = 0
    open: int = 0

    @property
    def value(self) -> float:
        total = self.won + self.lost + self.open
        return (self.won + 0.5 * self.open) / total if total else 0.0


def nodes_for_seconds(seconds: float) -> int:
    return max(200, int(seconds * NODES_PER_SECOND))


def samples(table: Table, count: int, seed: int) -> list[Table]:
    """``count`` completions of ``table``: the unseen cards shuffled into the unknown slots."""
    slots = [(p, k) for p in table.pile_ids for k, c in enumerate(table.codes(p)) if c == UNKNOWN]
    if not slots:
        return [table.copy()]
    unseen = Counter(full_deck(table.game.packs))
    unseen.subtract(c for p in table.pile_ids for c in table.codes(p) if c != UNKNOWN)
    pool = sorted(unseen.elements())
    if len(pool) < len(slots):
        raise HintError(
            f"the table shows {len(slots)} unknown cards but only {len(pool)} cards of the pack are unaccounted"
            " for: some card is read twice"
        )
    rng = random.Random(seed)
    ids = table.pile_ids
    down = [table.face_down_count(p) for p in ids]
    out: list[Table] = []
    for _ in range(count):
        drawn = rng.sample(pool, len(slots))
        cards = {p: list(table.codes(p)) for p in ids}
        for (p, k), code in zip(slots, drawn, strict=True):
            cards[p][k] = code
        out.append(
            Table(
                table.game,
                [cards[p] for p in ids],
                down,
                passes=table.passes,
                waste_played=table.waste_played,
                stage=table.stage,
                faces=table.faces,
                hook_state=table.hook_state,
            )
        )
    return out


def hint(table: Table, nodes: int = NODES_PER_SECOND, seed: int = 0) -> Hint:
    """The move with the best estimated chance to win, judged within about ``nodes`` solver nodes in all."""
    moves = table.generate_moves()
    if not moves:
        return Hint(None, "", 0.0, "no legal move is left: the game is blocked", 0)
    hidden = any(UNKNOWN in table.codes(p) for p in table.pile_ids)
    worlds = samples(table, _sample_count(nodes, len(moves)) if hidden else 1, seed)
    rules = solver_rules(table.game)
    per_eval = max(50, nodes // (len(worlds) * (len(moves) + 1)))
    tallies = {move: _Tally() for move in moves}
    for world in worlds:
        # One search of the whole sample first: a lost sample is lost for every move, a won one names a move.
        whole = solve(world, Budget(nodes=per_eval * 2, seconds=None))
        if whole.verdict is Verdict.UNSOLVABLE:
            for tally in tallies.values():
                tally.lost += 1
            continue
        seen: dict[bytes, Verdict] = {}
        for move in moves:
            tally = tallies[move]
            if whole.verdict is Verdict.SOLVED and whole.moves and whole.moves[0] == move:
                tally.won += 1
                continue
            world.push(move)
            position = canonical_key(rules, world.key())
            verdict = seen.get(position)
            if verdict is None:
                verdict = solve(world, Budget(nodes=per_eval, seconds=None)).verdict
                seen[position] = verdict
            world.pop()
            if verdict is Verdict.SOLVED:
                tally.won += 1
            elif verdict is Verdict.UNSOLVABLE:
                tally.lost += 1
            else:
                tally.open += 1
    # Ties go to the earlier move in the solver's own order of preference (foundation, uncover, ...).
    order = {move: n for n, move in enumerate(_preference(table, moves))}
    best = max(moves, key=lambda m: (tallies[m].value, tallies[m].won, -order[m]))
    tally = tallies[best]
    return Hint(best, table.describe(best), tally.value, _reason(tally, len(worlds), hidden), len(worlds))


def _preference(table: Table, moves: list[Move]) -> list[Move]:
    cards, down = key_parts(table.key())
    ranked = order_moves(solver_rules(table.game), cards, down, moves)
    return ranked + [m for m in moves if m not in ranked]


def _sample_count(nodes: int, move_count: int) -> int:
    """Enough samples to estimate, few enough that each judgement still gets a real search."""
    return max(4, min(_MAX_SAMPLES, nodes // (500 * (move_count + 1))))


def _reason(tally: _Tally, worlds: int, hidden: bool) -> str:
    if not hidden:
        if tally.won:
            return "the solver finds a win that starts with this move"
        if tally.lost:
            return "no move wins; this one keeps the most play in the cards"
        return "the solver ran out of budget; this move looks most promising"
    decided = tally.won + tally.lost
    if tally.won:
        return (
            f"it leads to a win in {tally.won} of {worlds} ways the hidden cards may lie"
            + (f" ({worlds - decided} undecided)" if decided < worlds else "")
        )
    if decided == worlds:
        return f"no way of the {worlds} tried for the hidden cards can be won; this move does least harm"
    return f"no win found within the budget in {worlds} samples of the hidden cards; this move looks most promising"
