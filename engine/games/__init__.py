"""The registry of games: a plain list, and ``find_game`` that matches names and aliases."""

from __future__ import annotations

from engine.errors import UnknownGameError
from engine.games import canfield, great_thirteen, klondike, louis, queens, sedgewick, sly
from engine.rules import Game

GAMES: list[Game] = [*klondike.GAMES, *canfield.GAMES, *sedgewick.GAMES, *queens.GAMES, *sly.GAMES, *louis.GAMES]
GAMES += great_thirteen.GAMES


def find_game(name: str) -> Game:
    """The game called ``name`` (case-insensitive; aliases and '_' for '-' accepted).

    >>> find_game("Klondike").name
    'klondike'
    """
    wanted = name.strip().lower().replace("_", "-")
    for game in GAMES:
        if wanted == game.name or wanted in game.aliases:
            return game
    known = ", ".join(game.name for game in GAMES)
    raise UnknownGameError(f"no game called {name!r}; known games: {known} (see `cadogan games`)")
