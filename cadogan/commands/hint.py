"""``cadogan hint TABLE.json``: the best move of a live table, its sentence and the chance to win."""

from __future__ import annotations

import argparse

from cadogan.commands._common import SubParsers, add_command, read_table_arg
from cadogan.commands.solve import parse_duration
from engine.hint import hint, nodes_for_seconds


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "hint",
        "suggest the best move of a position, even with unknown face-down cards",
        "Print the best move (notation), the move in words, and the estimated chance to win after it.\n"
        "Unknown cards (??) are sampled from the cards seen nowhere on the table, and every move is judged by\n"
        "the solver on each sample. The budget is turned into a fixed number of solver steps, so the same\n"
        "--seed always gives the same hint. Earlier positions (--after) keep it from moving cards back and forth.",
        "  cadogan hint table.json\n  cadogan deal klondike --seed 4 | cadogan hint - --budget 3s --seed 1\n"
        "  cadogan hint now.json --after before.json",
    )
    parser.add_argument("table", help="table JSON file, or - for standard input")
    parser.add_argument("--budget", default="1s", help="thinking time, e.g. 1s, 500ms (default 1s)")
    parser.add_argument("--seed", type=int, default=0, help="seed for sampling the hidden cards (default 0)")
    parser.add_argument(
        "--after",
        action="append",
        default=[],
        metavar="TABLE.json",
        help="an earlier position of the same game (repeatable): moves back to one are not suggested",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    table, _ = read_table_arg(args.table)
    history = [read_table_arg(path)[0] for path in args.after]
    result = hint(table, nodes=nodes_for_seconds(parse_duration(args.budget)), seed=args.seed, history=history)
    if result.move is None:
        print("none")
        print(result.reason)
        return 0
    print(result.move)
    print(result.sentence)
    print(f"estimated chance to win: {result.chance:.0%} ({result.reason})")
    return 0
