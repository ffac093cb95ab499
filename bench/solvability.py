"""Solvability estimate: how many seeded deals of each game our solver wins, proves lost, or leaves open.

Run: .venv/bin/python -m bench.solvability [--deals 2000] [--budget 10] [--games klondike/draw3,...]

Every card is known (thoughtful play). A deal left open by the budget counts toward neither side, so the
solvable fraction is bracketed: at least solved / deals, at most (solved + unknown) / deals; the point
estimate solved / decided carries a 95 % (Wilson) interval over the decided deals. Published figures where
one is known: Blake & Gent (Solvitaire, arXiv:1906.12314), thoughtful Klondike with unlimited passes.
Every solution is replayed through the engine; the exit status is 1 if one does not replay.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time

from engine.errors import CadoganError
from engine.games import find_game
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Table

GAMES = ("klondike/draw3", "klondike/modern", "klondike", "canfield", "canfield/modern", "general-sedgewick")

PUBLISHED = {
    "klondike/draw3": "81.945 % ± 0.084 % (Blake & Gent)",
    "klondike/modern": "81.956 % ± 0.096 % (Blake & Gent, draw 1)",
}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per deal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--verbose", action="store_true", help="a line per deal")
    args = parser.parse_args(argv)
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"deals {args.first_seed}..{args.first_seed + args.deals - 1}, budget {args.budget:g} s CPU each")
    print()
    print(
        "| game | deals | solved | unsolvable | unknown | solvable (bounds) | solved / decided (95 %) | median s |"
        " published |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failures = 0
    start = time.process_time()
    for name in args.games.split(","):
        game = find_game(name)
        counts = dict.fromkeys(Verdict, 0)
        seconds: list[float] = []
        for seed in range(args.first_seed, args.first_seed + args.deals):
            table = Table.dealt(game, seed)
            result = solve(table, Budget(nodes=None, seconds=args.budget))
            counts[result.verdict] += 1
            seconds.append(result.seconds)
            if result.verdict is Verdict.SOLVED:
                try:
                    failures += replay(table, result.moves).foundation_count() != game.card_count
                except CadoganError:
                    failures += 1
            if args.verbose:
                print(f"  {name} {seed}: {result.verdict.value} {result.seconds:.2f} s", file=sys.stderr, flush=True)
        n = args.deals
        won, lost, open_ = counts[Verdict.SOLVED], counts[Verdict.UNSOLVABLE], counts[Verdict.UNKNOWN]
        low, high = wilson(won, won + lost)
        estimate = f"{won / (won + lost):.1%} ({low:.1%}-{high:.1%})" if won + lost else "-"
        print(
            f"| {name} | {n} | {won} | {lost} | {open_} | {won / n:.1%}-{(won + open_) / n:.1%} | {estimate} |"
            f" {statistics.median(seconds):.2f} | {PUBLISHED.get(name, '-')} |",
            flush=True,
        )
    print()
    print(f"{time.process_time() - start:.0f} s CPU in all; solutions that do not replay: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
