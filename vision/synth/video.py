"""A recording of a game: still tables, and a hand that reaches in to make each change.

The camera, table, light and the player's untidiness stay fixed for the whole recording (one ``Shot``);
each change of table happens while the hand is over the layout, as it does in life.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from engine.errors import CadoganError
from vision.synth.decks import Deck, find_deck
from vision.synth.layout import Piles, card_corners, place
from vision.synth.scene import RenderOptions, Shot, render_frame
from vision.synth.truth import SceneTruth


def _target(game: str, before: Piles, after: Piles, seed: int) -> np.ndarray:
    """Where the hand goes: the top card of the first pile that changed (after the move, else before)."""
    changed = [p for p in sorted(set(before) | set(after)) if before.get(p) != after.get(p)]
    for piles in (after, before):
        for p in changed:
            cards = [c for c in place(game, piles, seed) if c.pile == p]
            if cards:
                return np.asarray(card_corners(cards[-1]).mean(0), np.float64)
    cards = place(game, after, seed)
    return np.asarray(card_corners(cards[0]).mean(0), np.float64) if cards else np.zeros(2)


def render_video(
    game: str,
    tables: list[Piles],
    path: str,
    *,
    deck: str | Deck = "dondorf",
    seed: int = 0,
    size: tuple[int, int] = (1280, 720),
    fps: float = 15.0,
    hold_s: float = 0.8,
    move_s: float = 1.2,
    options: RenderOptions | None = None,
) -> list[SceneTruth]:
    """Write ``tables`` as an mp4 at ``path``; returns the truth of every frame (hands included)."""
    if not tables:
        raise CadoganError("a recording needs at least one table")
    d = find_deck(deck) if isinstance(deck, str) else deck
    opts = options or RenderOptions()
    shot = Shot.plan(game, tables, d, seed, size, opts)
    writer = cv2.VideoWriter(path, cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise CadoganError(f"cannot write video {path}: check the folder exists and the name ends in .mp4")
    truths: list[SceneTruth] = []
    frame = 0
    x0, _, x1, y1 = shot.bbox
    hold, move = max(1, round(hold_s * fps)), max(2, round(move_s * fps))
    try:
        for k, piles in enumerate(tables):
            for _ in range(hold):
                image, truth = render_frame(game, piles, shot, reach=[], frame=frame)
                writer.write(image)
                truths.append(truth)
                frame += 1
            if k + 1 == len(tables):
                break
            target = _target(game, piles, tables[k + 1], seed)
            start = np.array([np.clip(target[0], x0, x1) + 120.0, y1 + 650.0])
            for j in range(move):
                # Ease in and out; the cards change at the hand's deepest point.
                t = j / (move - 1)
                reach = math.sin(math.pi * t)
                tip = start + (target - start) * reach
                shown = piles if t < 0.5 else tables[k + 1]
                arm = [(tip, start)] if reach > 0.02 else []  # still off the table
                image, truth = render_frame(game, shown, shot, reach=arm, frame=frame)
                writer.write(image)
                truths.append(truth)
                frame += 1
    finally:
        writer.release()
    if not Path(path).is_file():
        raise CadoganError(f"cannot write video {path}")
    return truths
