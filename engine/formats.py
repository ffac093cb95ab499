"""Table files: Cadogan's JSON format (see docs/formats.md and schema/table.schema.json) and Solvitaire's.

Cards use one notation everywhere: ``"10H"`` face up, ``"10h"`` face down, ``"??"`` unknown face down.
Piles are listed bottom first (the top card is last).

>>> from engine.games import find_game
>>> from engine.table import Table
>>> table = Table.dealt(find_game("canfield"), seed=3)
>>> table_from_json(table_to_json(table)) == table
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.cards import UNKNOWN, code_text, is_face_down_text, parse_code
from engine.errors import CadoganError, NotationError, TableFormatError
from engine.games import find_game
from engine.layout import game_index
from engine.rules import Game, Role
from engine.status import Problem, ProblemKind
from engine.table import Stage, Table

FORMAT = "cadogan-table"
VERSION = 1


def table_to_json(table: Table) -> dict[str, Any]:
    piles: dict[str, list[str]] = {}
    for pile_id in table.pile_ids:
        codes = table.codes(pile_id)
        piles[pile_id] = [code_text(c, table.is_face_up(pile_id, k)) for k, c in enumerate(codes)]
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": table.game.name,
        "stage": table.stage.value,
        "piles": piles,
    }
    if table.game.piles_with_role(Role.STOCK):
        data["pass"] = table.passes
        if table.game.stock.redeal_needs_play:
            data["waste_played"] = table.waste_played
    hooks = table.game.hooks
    if hooks is not None and hooks.state_fields:  # e.g. Sly: cards placed in the current round of twenty
        data["state"] = dict(zip(hooks.state_fields, table.hook_state, strict=True))
    return data


def dumps(table: Table) -> str:
    """The table as pretty JSON with one pile per line."""
    data = table_to_json(table)
    piles = data.pop("piles")
    head = json.dumps(data)[:-1]
    lines = [f"    {json.dumps(pile_id)}: {json.dumps(cards)}" for pile_id, cards in piles.items()]
    return head + ',\n  "piles": {\n' + ",\n".join(lines) + "\n  }\n}\n"


def table_from_json(data: object) -> Table:
    return read_table(data)[0]


def read_table(data: object) -> tuple[Table, tuple[Problem, ...]]:
    """A table and the structural problems found while reading it (unknown or missing piles).

    Raises ``TableFormatError`` for anything that is not a table at all, or a card we cannot read.
    """
    if not isinstance(data, dict):
        raise TableFormatError("the JSON is not a table: expected an object with 'game' and 'piles'")
    if data.get("format", FORMAT) != FORMAT:
        raise TableFormatError(f"the file is a {data.get('format')!r} file, not a {FORMAT!r} table")
    if data.get("version", VERSION) != VERSION:
        raise TableFormatError(f"table format version {data.get('version')!r} is not supported (only {VERSION})")
    game_name = data.get("game")
    if not isinstance(game_name, str):
        raise TableFormatError('the table names no game: add "game": "klondike" (see `cadogan games`)')
    game = find_game(game_name)
    piles = data.get("piles")
    if not isinstance(piles, dict):
        raise TableFormatError("the table has no 'piles' object mapping pile ids to lists of cards")
    stage_text = data.get("stage", Stage.PLAY.value)
    try:
        stage = Stage(stage_text)
    except ValueError:
        raise TableFormatError(f"stage {stage_text!r} is neither 'deal' nor 'play'") from None
    passes = data.get("pass", 1)
    if not isinstance(passes, int) or isinstance(passes, bool) or passes < 1:
        raise TableFormatError(f"'pass' must be a whole number from 1, not {passes!r}")
    waste_played = data.get("waste_played", False)
    if not isinstance(waste_played, bool):
        raise TableFormatError(f"'waste_played' must be true or false, not {waste_played!r}")
    return _build(game, piles, stage, passes, waste_played, _hook_state(game, data.get("state")))


def _hook_state(game: Game, state: object) -> tuple[int, ...] | None:
    """The game's hook state from the table's ``"state"`` object (missing fields are 0)."""
    hooks = game.hooks
    if hooks is None or state is None:
        return None
    if not isinstance(state, dict):
        raise TableFormatError("'state' must be an object of whole numbers")
    values: list[int] = []
    for name in hooks.state_fields:
        value = state.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TableFormatError(f"state {name!r} must be a whole number from 0, not {value!r}")
        values.append(value)
    return tuple(values)


def _build(
    game: Game,
    piles: dict[Any, Any],
    stage: Stage,
    passes: int,
    waste_played: bool,
    hook_state: tuple[int, ...] | None = None,
) -> tuple[Table, tuple[Problem, ...]]:
    g = game_index(game)
    cards: list[list[int]] = [[] for _ in g.ids]
    down = [0] * len(g.ids)
    faces: dict[str, tuple[bool, ...]] = {}
    problems: list[Problem] = []
    errors: list[str] = []
    for pile_id, listed in piles.items():
        if not isinstance(listed, list):
            errors.append(f"pile {pile_id!r} is not a list of cards")
            continue
        if pile_id not in g.index:
            problems.append(
                Problem(
                    ProblemKind.WRONG_PILES,
                    f"{game.title} has no pile {pile_id!r}; its piles are {', '.join(g.ids)}",
                    (str(pile_id),),
                    tuple(str(c) for c in listed),
                )
            )
            continue
        i = g.index[pile_id]
        flags: list[bool] = []
        for text in listed:
            if not isinstance(text, str):
                errors.append(f"pile {pile_id}: {text!r} is not a card")
                continue
            try:
                cards[i].append(parse_code(text))
            except NotationError as error:
                errors.append(f"pile {pile_id}: {error}")
                continue
            flags.append(not is_face_down_text(text))
        leading = next((k for k, up in enumerate(flags) if up), len(flags))
        if any(not up for up in flags[leading:]):
            faces[pile_id] = tuple(flags)
        down[i] = leading
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise TableFormatError(errors[0] + more)
    absent = [pile_id for pile_id in g.ids if pile_id not in piles]
    if absent:
        problems.append(
            Problem(
                ProblemKind.WRONG_PILES,
                f"the table lists no pile {', '.join(absent)} (an empty pile is written as [])",
                tuple(absent),
            )
        )
    table = Table(
        game, cards, down, passes=passes, waste_played=waste_played, stage=stage, faces=faces, hook_state=hook_state
    )
    return table, tuple(problems)


def load_table(path: str | Path) -> tuple[Table, tuple[Problem, ...]]:
    """Read a table file; every way it can be unreadable becomes one ``TableFormatError`` line."""
    file = Path(path)
    if file.is_dir():
        raise TableFormatError(f"{file} is a directory, not a table file")
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TableFormatError(f"{file} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise TableFormatError(f"cannot read {file}: {error}") from None
    if not text.strip():
        raise TableFormatError(f"{file} is empty: a table file is JSON, e.g. the output of `cadogan deal klondike`")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TableFormatError(f"{file} is not JSON: {error.msg} at line {error.lineno}") from None
    try:
        return read_table(data)
    except CadoganError as error:
        raise type(error)(f"{file}: {error}") from None


# ------------------------------------------------------------------------------------------- Solvitaire
def to_solvitaire(table: Table) -> dict[str, Any]:
    """Solvitaire's deal JSON (``tableau piles``, ``foundations``, ``stock``, ``waste``, ``reserve``).

    Piles bottom first, lower-case suit for face-down cards, as in Solvitaire's own deal files; the stock is
    written in our order too (its top card last). Unknown cards cannot be written: fill them in first.
    """
    g = game_index(table.game)

    def texts(i: int) -> list[str]:
        codes = table.codes(g.ids[i])
        if UNKNOWN in codes:
            raise TableFormatError(f"{g.ids[i]} holds unknown cards, which Solvitaire cannot take")
        return [code_text(c, table.is_face_up(g.ids[i], k)) for k, c in enumerate(codes)]

    data: dict[str, Any] = {"tableau piles": [texts(i) for i in g.tableau]}
    data["foundations"] = [texts(i) for i in g.foundations]
    if g.stock >= 0:
        data["stock"] = [text.upper() for text in texts(g.stock)]
    if g.waste >= 0:
        data["waste"] = texts(g.waste)
    if g.reserve >= 0:
        data["reserve"] = texts(g.reserve)
    return data


def from_solvitaire(data: object, game: Game) -> Table:
    """A table of ``game`` from Solvitaire deal JSON (stock cards are face down, whatever their case)."""
    if not isinstance(data, dict) or "tableau piles" not in data:
        raise TableFormatError("not a Solvitaire deal: expected an object with 'tableau piles'")
    g = game_index(game)
    piles: dict[str, list[str]] = {pile_id: [] for pile_id in g.ids}
    tableau = data["tableau piles"]
    if not isinstance(tableau, list) or len(tableau) != len(g.tableau):
        raise TableFormatError(f"{game.name} has {len(g.tableau)} tableau piles")
    for i, pile in zip(g.tableau, tableau, strict=True):
        piles[g.ids[i]] = list(pile)
    foundations = data.get("foundations", [])
    if not isinstance(foundations, list):
        raise TableFormatError("'foundations' must be a list")
    for i, pile in zip(g.foundations, foundations, strict=False):
        piles[g.ids[i]] = [pile] if isinstance(pile, str) else list(pile)
    for key, index in (("stock", g.stock), ("waste", g.waste), ("reserve", g.reserve)):
        if key in data and index >= 0:
            listed = [str(c) for c in data[key]]
            piles[g.ids[index]] = [c[:-1] + c[-1].lower() for c in listed] if key == "stock" else listed
    return read_table({"game": game.name, "piles": piles})[0]


def schema_path() -> Path:
    return Path(__file__).with_name("schema") / "table.schema.json"
