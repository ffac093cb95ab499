"""Our exact solver against pyksolve (Klondike-Solver) on the same thoughtful Klondike draw-3 deals.

Thoughtful: every card known (``Table.dealt`` keeps the face-down cards), unlimited passes, any run moves
and foundation cards may come back (``klondike/draw3``), as in Klondike-Solver. Both get the same deal;
each of our ``solved`` answers is replayed through ``Table.play``; CPU seconds are ``time.process_time``.

Run: .venv/bin/python -m bench.solver_vs_pyksolve [--deals 40] [--budget 3] [--first-seed 0]
Needs ``pip install pyksolve`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from typing import Any

from engine.cards import RANK_OF, SUIT_OF
from engine.games import find_game
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Table

# Klondike-Solver's card text is two rank digits then a suit digit: clubs 1, diamonds 2, hearts 3, spades 4.
_SUIT_DIGIT = {0: 4, 1: 3, 2: 2, 3: 1}  # our suit order is spades, hearts, diamonds, clubs


def klondike_solver_deal(table: Table) -> str:
    """The deal in Klondike-Solver's ``load_solitaire`` format: the columns row by row as dealt, then the
    stock from its top card down (checked against its own shuffles: the first talon card is turned first)."""

    def text(code: int) -> str:
        return f"{RANK_OF[code]:02d}{_SUIT_DIGIT[SUIT_OF[code]]}"

    columns = [table.codes(f"t{n}") for n in range(1, 8)]
    cards = [columns[col][row] for row in range(7) for col in range(row, 7)]
    cards += reversed(table.codes("s"))
    return "".join(text(code) for code in cards)


def run_pyksolve(solver: Any, table: Table, max_closed: int) -> tuple[Verdict, float]:
    solver.load_solitaire(klondike_solver_deal(table))
    solver.reset_game(3)
    start = time.process_time()
    result = solver.solve_fast(max_closed_count=max_closed)
    spent = time.process_time() - start
    verdict = {1: Verdict.SOLVED, -1: Verdict.SOLVED, 0: Verdict.UNSOLVABLE}.get(result.value, Verdict.UNKNOWN)
    return verdict, spent


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--budget", type=float, default=3.0, help="our CPU seconds per deal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-closed", type=int, default=5_000_000, help="pyksolve's state budget")
    args = parser.parse_args(argv)
    try:
        from pyksolve import solver as pyksolve  # optional: the bench extra
    except ImportError:
        print("pyksolve is not installed: pip install pyksolve (the bench extra)", file=sys.stderr)
        return 2
    game = find_game("klondike/draw3")
    theirs_solver = pyksolve.Solitaire()
    ours_t: list[float] = []
    theirs_t: list[float] = []
    ours_v: list[Verdict] = []
    theirs_v: list[Verdict] = []
    disagree: list[int] = []
    bad_replay: list[int] = []
    print("seed  ours        cpu_s  nodes     pyksolve    cpu_s")
    for seed in range(args.first_seed, args.first_seed + args.deals):
        table = Table.dealt(game, seed)
        ours = solve(table, Budget(nodes=None, seconds=args.budget))
        if ours.verdict is Verdict.SOLVED and replay(table, ours.moves).foundation_count() != 52:
            bad_replay.append(seed)
        verdict, spent = run_pyksolve(theirs_solver, table, args.max_closed)
        decided = {ours.verdict, verdict} - {Verdict.UNKNOWN}
        if len(decided) == 2:
            disagree.append(seed)
        ours_t.append(ours.seconds)
        theirs_t.append(spent)
        ours_v.append(ours.verdict)
        theirs_v.append(verdict)
        print(
            f"{seed:<5} {ours.verdict.value:<11} {ours.seconds:6.2f} {ours.nodes:<9} {verdict.value:<11} {spent:6.2f}",
            flush=True,
        )
    n = args.deals

    def decided(verdicts: list[Verdict]) -> str:
        solved = verdicts.count(Verdict.SOLVED)
        lost = verdicts.count(Verdict.UNSOLVABLE)
        return f"{(solved + lost) / n:.0%} decided ({solved} solved, {lost} unsolvable)"

    print()
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"deals {args.first_seed}..{args.first_seed + n - 1}, our budget {args.budget:g} s CPU per deal")
    print(f"ours:     {decided(ours_v)}; median {statistics.median(ours_t):.2f} s, p90 {p90(ours_t):.2f} s")
    print(f"pyksolve: {decided(theirs_v)}; median {statistics.median(theirs_t):.2f} s, p90 {p90(theirs_t):.2f} s")
    ratio = statistics.median(ours_t) / max(statistics.median(theirs_t), 1e-9)
    print(f"median CPU ratio ours/pyksolve: {ratio:.1f}")
    both = [i for i in range(n) if ours_v[i] is Verdict.SOLVED and theirs_v[i] is Verdict.SOLVED]
    if both:
        theirs_median = max(statistics.median(theirs_t[i] for i in both), 1e-9)
        ratio_solved = statistics.median(ours_t[i] for i in both) / theirs_median
        print(f"median CPU ratio on the {len(both)} deals both solved: {ratio_solved:.1f}")
    print(f"solved/unsolvable disagreements: {disagree or 'none'}; bad replays: {bad_replay or 'none'}")
    return 1 if disagree or bad_replay else 0


if __name__ == "__main__":
    sys.exit(main())
