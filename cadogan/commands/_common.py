"""Helpers shared by subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.errors import CadoganError
from engine.formats import load_table, read_table
from engine.games import GAMES
from engine.status import Problem
from engine.table import Table

SubParsers = Any  # argparse's _SubParsersAction is private; its type adds nothing here.


def add_command(sub: SubParsers, name: str, help_text: str, description: str, examples: str) -> argparse.ArgumentParser:
    return sub.add_parser(  # type: ignore[no-any-return]
        name,
        help=help_text,
        description=description,
        epilog="examples:\n" + examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def read_table_arg(path: str) -> tuple[Table, tuple[Problem, ...]]:
    """A table from a file path, or from standard input when the path is '-'."""
    if path == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise CadoganError(
                "standard input is empty: pipe a table in, e.g. `cadogan deal klondike | cadogan check -`"
            )
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CadoganError(f"standard input is not JSON: {error.msg} at line {error.lineno}") from None
        return read_table(data)
    if not Path(path).exists():
        if path in {game.name for game in GAMES}:  # a game's name where a table is wanted: say how to get one
            raise CadoganError(
                f"{path} is a game, not a table file: deal one with `cadogan deal {path} --seed 1 > table.json`"
                " (or pipe it in: `cadogan deal ... | cadogan COMMAND -`)"
            )
        raise CadoganError(f"{path} does not exist")
    return load_table(path)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720), for every --size option."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CadoganError(f"--size {text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise CadoganError(f"--size {text!r}: each side must be between 64 and 8192 pixels")
    return width, height
