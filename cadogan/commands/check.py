"""``cadogan check TABLE.json``: every problem of a position (the misdeal report)."""

from __future__ import annotations

import argparse
import json

from cadogan.commands._common import SubParsers, add_command, read_table_arg
from engine.status import problems


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "check",
        "list every problem with a position (misdeal report)",
        "Check a table against the rules of its game and list every problem at once: duplicate or missing\n"
        'cards, wrong pile sizes or face-down counts for the deal (when "stage" is "deal"), foundations out\n'
        "of sequence, cards where the rules could never have put them.\n\n"
        "exit status: 0 the position is valid, 1 it has problems, 2 the file is unreadable.",
        "  cadogan deal klondike --seed 3 > deal.json && cadogan check deal.json\n  cadogan check --json table.json",
    )
    parser.add_argument("table", help="table JSON file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the problems as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    table, loading = read_table_arg(args.table)
    found = problems(table, loading)
    if args.json:
        print(
            json.dumps(
                [
                    {"kind": p.kind.name.lower(), "message": p.message, "piles": p.piles, "cards": p.cards}
                    for p in found
                ],
                indent=1,
            )
        )
    elif not found:
        print(f"ok: a valid {table.game.title} position" + (" (a correct deal)" if table.stage.value == "deal" else ""))
    else:
        print(f"{len(found)} problem{'s' if len(found) != 1 else ''} with this {table.game.title} position:")
        for problem in found:
            print(f"- {problem}")
    return 1 if found else 0
