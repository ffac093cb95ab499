"""Solvability estimate: how many seeded deals of each game our solver wins, proves lost, or leaves open.

Run: .venv/bin/python -m bench.solvability [--deals 2000] [--budget 10] [--games klondike/draw3,...] [--jobs 2]
     [--record runs.jsonl]   then, to merge runs:  python -m bench.solvability --table-from runs.jsonl ...

Every card is known (thoughtful play). A deal left open by the budget counts toward neither side, so the
solvable fraction is bracketed: at least solved / deals, at most (solved + unknown) / deals; the point
estimate solved / decided carries a 95 % (Wilson) interval over the decided deals. Published figures where
one is known: Blake & Gent (Solvitaire, arXiv:1906.12314), thoughtful Klondike with unlimited passes.
Every solution is replayed through the engine; the exit status is 1 if one does not replay.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from engine.errors import CadoganError
from engine.games import find_game
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Outcome, Table

GAMES = ("klondike/draw3", "klondike/modern", "klondike", "canfield", "canfield/modern", "general-sedgewick")

# Blake & Gent's abstract gives 81.956 % +- 0.096 % for thoughtful "Klondike", as far as we can tell draw 3.
# We know of no published draw-1 figure for this variant: our 2,000 deals prove at least 86.8 % solvable.
PUBLISHED = {
    "klondike/draw3": "81.945 % ± 0.084 % (Blake & Gent)",
}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def solve_deal(job: tuple[str, int, float]) -> dict[str, object]:
    """One deal: the solver's verdict, its CPU seconds and nodes, and whether a solution replays (a record)."""
    name, seed, budget = job
    game = find_game(name)
    table = Table.dealt(game, seed)
    result = solve(table, Budget(nodes=None, seconds=budget))
    replays = True
    if result.verdict is Verdict.SOLVED:
        try:
            replays = replay(table, result.moves).outcome() is Outcome.WON  # The Great Thirteen has no foundations
        except CadoganError:
            replays = False
    return {
        "game": name,
        "seed": seed,
        "budget": budget,
        "verdict": result.verdict.value,
        "seconds": round(result.seconds, 4),
        "nodes": result.nodes,
        "replays": replays,
    }


def table_rows(records: Sequence[dict[str, object]]) -> list[str]:
    """The issue's table, one row per (game, budget) in first-seen order; a seed counted once per row."""
    groups: dict[tuple[str, float], dict[int, dict[str, object]]] = {}
    for record in records:
        key = (str(record["game"]), float(cast(float, record["budget"])))
        groups.setdefault(key, {})[int(cast(int, record["seed"]))] = record
    rows = []
    for (name, budget), by_seed in groups.items():
        verdicts = [str(r["verdict"]) for r in by_seed.values()]
        n = len(verdicts)
        won, lost = verdicts.count(Verdict.SOLVED.value), verdicts.count(Verdict.UNSOLVABLE.value)
        open_ = n - won - lost
        low, high = wilson(won, won + lost)
        estimate = f"{won / (won + lost):.1%} ({low:.1%}-{high:.1%})" if won + lost else "-"
        seconds = statistics.median(float(cast(float, r["seconds"])) for r in by_seed.values())
        rows.append(
            f"| {name} | {budget:g} | {n} | {won} | {lost} | {open_} | {won / n:.1%}-{(won + open_) / n:.1%} |"
            f" {estimate} | {seconds:.2f} | {PUBLISHED.get(name, '-')} |"
        )
    return rows


def print_table(records: Sequence[dict[str, object]]) -> int:
    """Print the table and the replay check; the number of solutions that do not replay."""
    print(
        "| game | budget s | deals | solved | unsolvable | unknown | solvable (bounds) | solved / decided (95 %) |"
        " median s | published |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in table_rows(records):
        print(row)
    failures = sum(1 for r in records if not r["replays"])
    cpu = sum(float(cast(float, r["seconds"])) for r in records)
    print()
    print(f"{cpu:.0f} s CPU in the solver over {len(records)} deals; solutions that do not replay: {failures}")
    return failures


def read_records(paths: Sequence[str]) -> list[dict[str, object]]:
    records = []
    for path in paths:
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                # A run killed mid-line leaves a partial last line: skip it, keep the rest.
                print(f"{path}:{number}: not a record, skipped", file=sys.stderr)
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per deal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--jobs", type=int, default=1, help="deals solved side by side (processes)")
    parser.add_argument("--record", help="append a JSON line per deal to this file (kept if the run is stopped)")
    parser.add_argument("--table-from", nargs="+", metavar="RECORDS", help="print the table of earlier records")
    parser.add_argument("--verbose", action="store_true", help="a line per deal")
    args = parser.parse_args(argv)
    if args.table_from:
        return 1 if print_table(read_records(args.table_from)) else 0
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {args.jobs} jobs"
    )
    print(f"deals {args.first_seed}..{args.first_seed + args.deals - 1}, budget {args.budget:g} s CPU each")
    print()
    jobs = [
        (name, seed, args.budget)
        for name in args.games.split(",")
        for seed in range(args.first_seed, args.first_seed + args.deals)
    ]
    for name in {job[0] for job in jobs}:
        find_game(name)  # an unknown game fails here, before any work
    records: list[dict[str, object]] = []
    sink = open(args.record, "a") if args.record else None  # noqa: SIM115 - closed below
    # Fork, not spawn: the solver is pure Python and the workers need nothing but the engine.
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    try:
        results = pool.imap_unordered(solve_deal, jobs) if pool else map(solve_deal, jobs)
        for record in results:
            records.append(record)
            if sink:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
            if args.verbose:
                print(
                    f"  {record['game']} {record['seed']}: {record['verdict']} {record['seconds']:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if pool:
            pool.terminate()
        if sink:
            sink.close()
    return 1 if print_table(records) else 0


if __name__ == "__main__":
    sys.exit(main())
