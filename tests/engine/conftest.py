"""Fixtures for engine tests; the builders live in ``engine.testing``."""

from __future__ import annotations

import pytest

from engine.games import GAMES, find_game
from engine.rules import Game


@pytest.fixture(params=[game.name for game in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    return find_game(request.param)
