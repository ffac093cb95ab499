"""Engine speed: legal-move generation and push+pop on positions from seeded Klondike playouts.

Run: .venv/bin/python -m bench.engine [--positions 10000] [--game klondike]
Targets (one core): >= 50,000 legal-move generations/s, >= 200,000 push+pop/s.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from engine.games import find_game
from engine.table import Table


def collect_positions(game_name: str, count: int, seed: int = 0) -> list[Table]:
    """``count`` distinct positions met along seeded random playouts (copies, so each stands alone)."""
    game = find_game(game_name)
    rng = random.Random(seed)
    positions: list[Table] = []
    deal = 0
    while len(positions) < count:
        table = Table.dealt(game, deal)
        deal += 1
        for _ in range(120):
            positions.append(table.copy())
            moves = table.generate_moves()
            if not moves or len(positions) >= count:
                break
            table.push(rng.choice(moves))
    return positions


def bench_generation(positions: list[Table], repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for table in positions:
            table.generate_moves()
    return repeat * len(positions) / (time.process_time() - start)


def bench_push_pop(positions: list[Table], repeat: int) -> tuple[float, int]:
    pairs = [(table, table.generate_moves()) for table in positions]
    total = sum(len(moves) for _, moves in pairs)
    start = time.process_time()
    for _ in range(repeat):
        for table, moves in pairs:
            push, pop = table.push, table.pop
            for move in moves:
                push(move)
                pop()
    return repeat * total / (time.process_time() - start), total


def bench_playouts(game_name: str, seconds: float) -> float:
    game = find_game(game_name)
    rng = random.Random(1)
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        table = Table.dealt(game, done)
        for _ in range(300):
            moves = table.generate_moves()
            if not moves:
                break
            table.push(moves[rng.randrange(len(moves))])
        done += 1
    return done / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--game", default="klondike")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    positions = collect_positions(args.game, args.positions)
    generation = bench_generation(positions, args.repeat)
    push_pop, total = bench_push_pop(positions, args.repeat)
    playouts = bench_playouts(args.game, 3.0)
    print(f"machine: {platform.machine()} {platform.processor() or ''} Python {platform.python_version()}")
    print(f"game {args.game}, {len(positions)} positions, {total} legal moves, CPU time, one core")
    print(f"legal-move generations/s: {generation:,.0f}")
    print(f"push+pop pairs/s:         {push_pop:,.0f}")
    print(f"random playouts/s (<= 300 moves): {playouts:,.1f}")


if __name__ == "__main__":
    main()
