"""``cadogan games``: the games and variants, with their source."""

from __future__ import annotations

import argparse

from cadogan.commands._common import SubParsers, add_command
from engine.games import GAMES
from engine.idoubtit import VARIANTS as REFEREE_VARIANTS


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "games",
        "list the games and variants with their source",
        "List every game and variant Cadogan knows, with the book and chapter its rules come from.",
        "  cadogan games\n  cadogan games --names   # names only, one per line",
    )
    parser.add_argument("--names", action="store_true", help="print only the names, one per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for game in GAMES:
        if args.names:
            print(game.name)
            continue
        indent = "  " if game.variant_of else ""
        print(f"{indent}{game.name:<22} {game.title}")
        print(f"{indent}{'':<22} {game.summary}")
        print(f"{indent}{'':<22} source: {game.source}")
    for number, rules in enumerate(REFEREE_VARIANTS):
        if args.names:
            print(rules.name)
            continue
        indent = "  " if number else ""
        print(f"{indent}{rules.name:<22} I Doubt It, a referee for the bluffing game (any number of players)")
        print(f"{indent}{'':<22} source: {rules.source}")
    return 0
