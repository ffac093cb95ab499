"""``cadogan demo``: the pipeline on a built-in default, no camera needed."""

from __future__ import annotations

import argparse

from cadogan.commands._common import SubParsers, add_command
from engine.autoplay import greedy_playout
from engine.games import find_game
from engine.status import problems
from engine.table import Outcome, Table


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "demo",
        "deal a game and play it out, printing every move",
        "Deal a seeded game, check the deal, and play it out with the engine's greedy player, printing\n"
        "each move in notation and in words, then the result and the 1914 score ($5 a card against $52).",
        "  cadogan demo\n  cadogan demo --game canfield --seed 12",
    )
    parser.add_argument("--game", default="klondike", help="game to play (default klondike)")
    parser.add_argument("--seed", type=int, default=2, help="shuffle seed (default 2)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    table = Table.dealt(game, args.seed)
    print(f"{game.title}, deal {args.seed}")
    found = problems(table)
    print("deal check: " + ("ok" if not found else "; ".join(map(str, found))))
    number = 0
    before = table.copy()
    for move in greedy_playout(table):
        number += 1
        print(f"{number:3}. {move!s:<9} {before.describe(move)}")
        before.push(move)
    outcome = table.outcome()
    result = "won" if outcome is Outcome.WON else "blocked" if outcome is Outcome.BLOCKED else "no new position"
    score = table.score()
    print(f"result: {result} after {number} moves, {table.foundation_count()} cards on the foundations")
    if score is not None:
        print(f"score: {'+' if score >= 0 else '-'}${abs(score)}")
    return 0
