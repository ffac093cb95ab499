"""How many seeded deals of each game our solver decides, and how many are won.

Run: .venv/bin/python -m bench.solvability [--deals 20] [--budget 2] [--games klondike/draw3,klondike,...]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys

from engine.games import find_game
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Table

GAMES = ("klondike/draw3", "klondike", "canfield", "canfield/modern")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per deal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args(argv)
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"deals {args.first_seed}..{args.first_seed + args.deals - 1}, budget {args.budget:g} s CPU each")
    print(f"{'game':<18} {'solved':>7} {'unsolvable':>11} {'unknown':>8} {'median s':>9}")
    failures = 0
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
                failures += replay(table, result.moves).foundation_count() != game.card_count
        print(
            f"{name:<18} {counts[Verdict.SOLVED]:>7} {counts[Verdict.UNSOLVABLE]:>11} {counts[Verdict.UNKNOWN]:>8}"
            f" {statistics.median(seconds):>9.2f}",
            flush=True,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
