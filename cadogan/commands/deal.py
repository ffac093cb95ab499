"""``cadogan deal GAME --seed N``: a seeded deal as table JSON."""

from __future__ import annotations

import argparse
import json

from cadogan.commands._common import SubParsers, add_command
from engine.formats import dumps, to_solvitaire
from engine.games import find_game
from engine.table import Table


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "deal",
        "print a seeded deal as table JSON",
        "Shuffle a pack with a seed and deal GAME by its rules; print the table as JSON (docs/formats.md).",
        "  cadogan deal klondike --seed 7 > deal.json\n  cadogan deal canfield --seed 7 --format solvitaire",
    )
    parser.add_argument("game", help="game or variant name (see `cadogan games`)")
    parser.add_argument("--seed", type=int, default=0, help="shuffle seed (default 0)")
    parser.add_argument(
        "--format", choices=("cadogan", "solvitaire"), default="cadogan", help="output format (default cadogan)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    table = Table.dealt(find_game(args.game), args.seed)
    if args.format == "solvitaire":
        print(json.dumps(to_solvitaire(table), indent=1))
    else:
        print(dumps(table), end="")
    return 0
