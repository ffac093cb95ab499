"""``cadogan solve TABLE.json`` / ``cadogan solve GAME --seed N``: solve a fully known position exactly."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from cadogan.commands._common import SubParsers, add_command, read_table_arg
from engine.errors import CadoganError
from engine.games import find_game
from engine.solver import Budget, solve
from engine.table import Table

_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m|min)?\s*$")


def parse_duration(text: str) -> float:
    """Seconds from '10s', '500ms', '2m' or a bare number of seconds."""
    match = _DURATION.match(text)
    if match is None:
        raise CadoganError(f"budget {text!r} is not a duration: write e.g. 10s, 500ms or 2m")
    value = float(match.group(1))
    unit = match.group(2) or "s"
    return value / 1000 if unit == "ms" else value * 60 if unit in ("m", "min") else value


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "solve",
        "solve a fully known position: solved / unsolvable / unknown, then the moves",
        "Search a position whose every card is known for a win. The first line is `solved`, `unsolvable`\n"
        "(the whole space was searched) or `unknown` (the budget ran out); after `solved`, the winning moves\n"
        "follow one per line. A game name instead of a file solves that game's seeded deal. Progress goes\n"
        "to standard error. Where one rule proves the position lost whatever is played (The Queens' key), a\n"
        "line says why (on standard output with --explain). A live table with unknown cards needs\n"
        "`cadogan hint` instead.",
        "  cadogan solve klondike/draw3 --seed 7\n"
        "  cadogan solve table.json --budget 30s --explain\n"
        "  cadogan deal canfield --seed 3 | cadogan solve -\n"
        "  cadogan solve general-sedgewick --seed 12",
    )
    parser.add_argument("target", help="table JSON file, - for standard input, or a game name (with --seed)")
    parser.add_argument("--seed", type=int, default=None, help="deal seed when TARGET is a game (default 0)")
    parser.add_argument("--budget", default="10s", help="CPU time limit, e.g. 10s, 500ms, 2m (default 10s)")
    parser.add_argument("--nodes", type=int, default=None, help="limit on positions searched (default none)")
    parser.add_argument("--explain", action="store_true", help="add each move in words")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.set_defaults(run=run)


def load_target(target: str, seed: int | None) -> Table:
    if target == "-" or Path(target).exists():
        if seed is not None:
            raise CadoganError("--seed goes with a game name, not with a table file")
        return read_table_arg(target)[0]
    if target.endswith(".json"):
        raise CadoganError(f"{target} does not exist")
    return Table.dealt(find_game(target), 0 if seed is None else seed)


def run(args: argparse.Namespace) -> int:
    table = load_target(args.target, args.seed)
    seconds = parse_duration(args.budget)

    def progress(nodes: int, spent: float) -> None:
        print(f"searched {nodes:,} positions in {spent:.1f} s of {seconds:g} s", file=sys.stderr)

    result = solve(table, Budget(nodes=args.nodes, seconds=seconds), None if args.quiet else progress)
    print(result.verdict.value)
    if result.reason:  # why it is lost whatever is played: in words with --explain, else beside the progress
        print(f"lost whatever is played: {result.reason}", file=sys.stdout if args.explain else sys.stderr)
    replay = table.copy()
    for move in result.moves:
        print(f"{move!s:<10} {replay.describe(move)}" if args.explain else move)
        replay.push(move)
    if not args.quiet:
        print(f"{result.nodes:,} positions, {result.seconds:.2f} s CPU", file=sys.stderr)
    return 0
