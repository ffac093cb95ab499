"""The ``cadogan`` command: one entry point, one module per subcommand in ``cadogan.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from cadogan import __version__
from engine.errors import CadoganError

# Subcommand modules in the order `cadogan --help` lists them.
COMMANDS = ("games", "deal", "check", "moves", "solve", "hint", "verify", "demo")
OPTIONAL_COMMANDS = ("render", "render-game", "see", "watch", "calibrate")


def build_parser() -> argparse.ArgumentParser:
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="cadogan",
        description="A companion for patience games played with real cards: it reads the table, knows the "
        "rules of the old books, and says what is legal, what is best and what went wrong.",
        epilog="Start with `cadogan demo`, or `cadogan games` to see what it plays. "
        "Every subcommand has its own --help with examples.",
    )
    parser.add_argument("--version", action="version", version=f"cadogan {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name in COMMANDS + OPTIONAL_COMMANDS:
        try:
            module = importlib.import_module(f"cadogan.commands.{name.replace('-', '_')}")
        except ModuleNotFoundError as error:
            # A command whose optional dependencies are not installed is left out, not a crash.
            missing = error.name or ""
            if name in OPTIONAL_COMMANDS and missing.startswith(("cv2", "cairosvg", "cadogan.commands")):
                continue
            raise
        module.add_parser(sub)
        modules[name] = module
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = _build()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = modules[args.command].run(args)
    except CadoganError as error:
        print(f"cadogan {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cadogan {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
