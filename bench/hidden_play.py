"""Play Klondike draw 3 seeing only what the camera sees, one hint per move: the companion's win rate.

Run: .venv/bin/python -m bench.hidden_play --deals 300 --budget 1.0
Each move is the hint for the table with every face-down card unknown (cards are read as they turn up);
the real table then makes that move. A game ends won, blocked, when a position comes back a third time,
or after --max-moves. Prints the win rate with its 95 % (Wilson) interval.
Anchors: Bjarnason et al. 2009, 36.97 %; lonelybot, 44.52 %. Target: >= 45 %.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from engine.games import find_game
from engine.hint import hint, nodes_for_seconds
from engine.table import Outcome, Stage, Table
from engine.testing import hide_face_down


def play(game: str, seed: int, nodes: int, max_moves: int) -> bool:
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    seen: Counter[tuple[object, ...]] = Counter()
    for _ in range(max_moves):
        if table.outcome() is Outcome.WON:
            return True
        seen[table.key()] += 1
        if seen[table.key()] >= 3:
            return False
        advice = hint(hide_face_down(table), nodes, seed)
        if advice.move is None:
            return False
        table.push(advice.move)
    return table.outcome() is Outcome.WON


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="klondike/draw3")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of hint per move (as solver nodes)")
    parser.add_argument("--max-moves", type=int, default=400)
    args = parser.parse_args()
    nodes = nodes_for_seconds(args.budget)
    wins = 0
    start = time.process_time()
    for n, seed in enumerate(range(args.first, args.first + args.deals), start=1):
        won = play(args.game, seed, nodes, args.max_moves)
        wins += won
        low, high = wilson(wins, n)
        print(
            f"deal {seed}: {'won' if won else 'lost'}  ({wins}/{n} = {wins / n:.1%}, 95% {low:.1%}-{high:.1%})",
            flush=True,
        )
    low, high = wilson(wins, args.deals)
    cpu = time.process_time() - start
    print(f"{args.game}: won {wins} of {args.deals} = {wins / max(1, args.deals):.1%} (95% {low:.1%}-{high:.1%}),")
    print(f"hint budget {args.budget:g} s ({nodes} nodes) a move, {cpu:.0f} s CPU in all")


if __name__ == "__main__":
    main()
