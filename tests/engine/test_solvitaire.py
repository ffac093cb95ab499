"""Solvitaire deal JSON: export and import round-trip for Klondike and Canfield, face-down cards kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import TableFormatError
from engine.formats import from_solvitaire, to_solvitaire
from engine.games import find_game
from engine.table import Table


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(["klondike", "klondike/draw3", "canfield", "canfield/modern"]), seed=st.integers(0, 10**6))
def test_solvitaire_round_trip(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    data = json.loads(json.dumps(to_solvitaire(table)))
    back = from_solvitaire(data, table.game)
    assert back.key() == table.key()


def test_solvitaire_writes_face_down_cards_in_lower_case() -> None:
    data = to_solvitaire(Table.dealt(find_game("klondike"), 3))
    assert data["tableau piles"][1] == ["Qd", "2C"]
    assert all(card[-1].isupper() for card in data["stock"])
    assert len(data["stock"]) == 24


def test_reads_a_solvitaire_file_as_they_write_it() -> None:
    deal = {
        "tableau piles": [["3d", "2c", "4c", "2H"], ["Ah", "3h", "2S"], ["Ad", "3C"], ["4S"], [], [], []],
        "stock": ["3S", "AS", "AC", "2D", "4H", "4D"],
    }
    table = from_solvitaire(deal, find_game("klondike"))
    assert table.face_down_count("t1") == 3
    assert str(table.top("t1")) == "2H"
    assert table.face_down_count("s") == 6


@pytest.mark.parametrize("data", [[], {"stock": []}, {"tableau piles": [["KH"]]}])
def test_not_a_solvitaire_deal_is_a_format_error(data: object) -> None:
    with pytest.raises(TableFormatError):
        from_solvitaire(data, find_game("klondike"))
