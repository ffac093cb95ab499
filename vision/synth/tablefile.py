"""Read the renderer's input from a Cadogan table JSON (docs/formats.md) without the engine's Table.

Notation: ``"10H"`` face up, ``"10h"`` face down, ``"??"`` unknown face down; ``T`` is accepted for ten.
The lead's adapter from ``engine.table.Table`` yields the same mapping.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.errors import CadoganError
from vision.synth.layout import Piles

_CARD = re.compile(r"(A|a|[2-9]|10|J|j|Q|q|K|k|T|t)([SHDCshdc])")


def parse_card(text: str) -> tuple[str | None, bool]:
    """``"10h"`` -> ("10H", False); ``"??"`` -> (None, False)."""
    if text == "??":
        return None, False
    m = _CARD.fullmatch(text)
    if m is None:
        raise CadoganError(f"card {text!r} is not in Cadogan notation (e.g. '10H' face up, '10h' face down, '??')")
    rank = m.group(1).upper()
    return ("10" if rank == "T" else rank) + m.group(2).upper(), m.group(2).isupper()


def piles_from_json(data: object) -> tuple[str, Piles]:
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or not isinstance(data.get("piles"), dict):
        raise CadoganError("the JSON is not a table: expected an object with 'game' and 'piles'")
    piles: Piles = {}
    for pile, cards in data["piles"].items():
        if not isinstance(pile, str) or not re.fullmatch(r"[a-z]+[0-9]*", pile):
            raise CadoganError(f"pile id {pile!r} is not a role letter plus a number, e.g. 't3'")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise CadoganError(f"pile {pile!r} is not a list of cards")
        piles[pile] = [parse_card(c) for c in cards]
    return str(data["game"]), piles


def load_piles(path: str) -> tuple[str, Piles]:
    p = Path(path)
    if not p.is_file():
        raise CadoganError(f"{path} does not exist")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CadoganError(f"{path} is not JSON: {error}") from None
    return piles_from_json(data)
