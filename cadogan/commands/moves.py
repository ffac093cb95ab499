"""``cadogan moves TABLE.json``: the legal moves, one per line."""

from __future__ import annotations

import argparse

from cadogan.commands._common import SubParsers, add_command, read_table_arg


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "moves",
        "list the legal moves of a position, one per line",
        "Print every legal move of a table in move notation (SRC>DST, SRC:N>DST for N cards),\n"
        "with --explain followed by the move in words.",
        "  cadogan deal klondike --seed 1 | cadogan moves -\n  cadogan moves --explain table.json",
    )
    parser.add_argument("table", help="table JSON file, or - for standard input")
    parser.add_argument("--explain", action="store_true", help="add each move in words")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    table, _ = read_table_arg(args.table)
    for move in table.legal_moves:
        print(f"{move!s:<10} {table.describe(move)}" if args.explain else move)
    return 0
