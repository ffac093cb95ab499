"""Narrow error types. Each derives from ValueError; the CLI turns them into one clear line."""


class CadoganError(ValueError):
    """Base of every error Cadogan reports to a user as one line (exit 2)."""


class NotationError(CadoganError):
    """A card, pile or move written in a notation we do not understand."""


class UnknownGameError(CadoganError):
    """A game or variant name that is not in the registry."""


class TableFormatError(CadoganError):
    """A table file that is not valid JSON, or not a table of the named game."""


class IllegalMoveError(CadoganError):
    """A move that the rules of the game do not allow in this position."""
