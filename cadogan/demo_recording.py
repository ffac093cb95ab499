"""The demo's built-in recording: a Klondike game rendered with an unseen deck, one illegal move in it.

Rendered on first use (the renderer and the artwork are part of the set-up) and kept in the user's cache,
so later demos start at once. The truth file beside it holds the table after each move and which move
was the illegal one.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine.autoplay import greedy_playout
from engine.formats import table_to_json
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table
from engine.verify import why_illegal

VERSION = 1
GAME, SEED, DECK = "klondike", 2, "standard"  # deal 2 is one the greedy player wins; 'standard' is a KDE deck


@dataclass(frozen=True, slots=True)
class Recording:
    video: Path
    truth: Path
    moves: tuple[str, ...]
    illegal_at: int
    """Index in ``moves`` of the illegal move."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cadogan" / "demo"


def _illegal_move(table: Table) -> Move | None:
    """A move against the rules that a player could make here: a card onto a column it does not fit."""
    legal = set(table.generate_moves())
    columns = [p for p in table.pile_ids if p.startswith("t") and table.codes(p)]
    candidates = [
        (move, why_illegal(table, move))
        for src in columns
        for dst in columns
        if src != dst and (move := Move(src, dst, 1)) not in legal
    ]
    # The classic slip first (a red card on a red card), else any card on a column it does not fit.
    for wanted in ("colours must alternate", "not allowed"):
        for move, reason in candidates:
            if wanted in reason:
                return move
    return None


def plan_tables(moves_before: int = 4, moves_after: int = 5) -> tuple[list[Table], list[str], int]:
    """The positions of the demo game: greedy moves, one illegal move, greedy moves from what is then seen."""
    table = Table.dealt(find_game(GAME), SEED)
    tables = [table.copy()]
    table.stage = Stage.PLAY
    moves: list[str] = []
    play = greedy_playout(table, max_moves=moves_before)
    for move in play:
        moves.append(str(move))
        tables.append(table.copy())
    illegal = _illegal_move(table)
    illegal_at = len(moves)
    if illegal is not None:
        table.push(illegal)
        moves.append(str(illegal))
        tables.append(table.copy())
    for move in greedy_playout(table, max_moves=moves_after):
        moves.append(str(move))
        tables.append(table.copy())
    return tables, moves, illegal_at


def demo_recording(
    *,
    size: tuple[int, int] = (1280, 720),
    fps: float = 6.0,
    moves_before: int = 4,
    moves_after: int = 5,
    refresh: bool = False,
) -> Recording:
    from vision.synth import render_video, renderer_version

    # Keyed on the renderer's source too: a changed renderer must not serve a recording drawn by an older one.
    name = (
        f"{GAME}-seed{SEED}-{DECK}-{size[0]}x{size[1]}-{fps:g}fps-{moves_before}-{moves_after}-v{VERSION}"
        f"-r{renderer_version()}"
    )
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    video, truth = folder / f"{name}.mp4", folder / f"{name}.json"
    if not refresh and video.is_file() and truth.is_file():
        record = json.loads(truth.read_text())
        return Recording(video, truth, tuple(record["moves"]), int(record["illegal_at"]))
    tables, moves, illegal_at = plan_tables(moves_before, moves_after)
    partial = video.with_suffix(".part.mp4")
    render_video(
        GAME,
        [t.piles_view() for t in tables],
        str(partial),
        deck=DECK,
        seed=SEED,
        size=size,
        fps=fps,
        hold_s=1.2,
        move_s=1.0,
    )
    partial.replace(video)
    truth.write_text(
        json.dumps(
            {
                "game": GAME,
                "seed": SEED,
                "deck": DECK,
                "moves": moves,
                "illegal_at": illegal_at,
                "tables": [table_to_json(t) for t in tables],
            },
            indent=1,
        )
    )
    return Recording(video, truth, tuple(moves), illegal_at)
