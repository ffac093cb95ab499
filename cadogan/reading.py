"""The vision pipeline as the companion's reader: a frame in, an observed table and its labels out."""

from __future__ import annotations

import itertools
import math
import statistics
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from cadogan.overlay import Label
from cadogan.watch import Image, Reader, Reading
from engine.cards import parse_code

if TYPE_CHECKING:
    from vision.assemble import Observation
    from vision.detections import Detections
    from vision.upright import Upright


class CardScale:
    """The card's width in the frame, as the median of the layout fits of the last ``frames`` frames: one frame's
    fit is up to 20 % off (measured on c-legal-1: 108-155 px for one card), too far to tell a fanned waste's
    cards one step apart from two (``vision.assemble.fan_slots``); and the fanned waste's step, as the median of
    the last ``steps`` steps its reads measured (``vision.assemble.fan_step_estimates``; a player fans the waste
    the same way all game, not always ``FAN_STEP`` card widths). The camera does not move between frames."""

    def __init__(self, frames: int = 15, steps: int = 40) -> None:
        self._recent: deque[float] = deque(maxlen=frames)
        self._steps: deque[float] = deque(maxlen=steps)

    def __call__(self, observation: Observation) -> Observation:
        """``observation`` with the card width and fan step of the last frames, this one's taken in."""
        from vision.assemble import fan_step_estimates

        if observation.card_w > 0:
            self._recent.append(observation.card_w)
        if not self._recent:
            return observation
        step = statistics.median(self._steps) if len(self._steps) >= MEASURED_STEPS else 0.0
        observation = replace(observation, card_w=statistics.median(self._recent), fan_step=step)
        self._steps.extend(fan_step_estimates(observation))
        return observation


MEASURED_STEPS = 3
"""Steps of a fan measured before their median stands for the layout's expected step."""


def vision_reader(
    game: str,
    models: str | Path | None = None,
    *,
    min_cards: int = 3,
    threads: int = 1,
    deck_profile: str | None = None,
) -> Reader:
    """Load the recognition models once; the reader then turns each frame into a ``Reading``.

    A frame with fewer than ``min_cards`` readable cards (a hand over the table, the camera moving) gives
    no table, so it never takes part in the tracker's vote. ``threads``: for onnxruntime (0: its default, one
    per core). One by default: the models are small and each frame is a small batch, so a second thread
    mostly waits for the first; on a shared 2-core machine it tripled the processor time of a reading
    (BENCHMARKS.md, issue 8) and made it slower by the clock too.
    ``deck_profile``: a profile with an enrolled deck (``cadogan calibrate deck``) whose prototypes name the cards.
    """
    from vision.recognise import load_recogniser
    from vision.upright import UprightReader

    deck = None
    if deck_profile:
        from calibration.profile import load_deck

        deck = load_deck(deck_profile)
    # a camera turned any way: the layout read upright, the turn found once and checked now and then
    upright = UprightReader(load_recogniser(models, threads=threads, deck=deck), game)
    scale = CardScale()

    def read(image: Image) -> Reading:
        seen = upright(image)
        observation = scale(seen.observation)
        return reading_of(seen.detections, game, min_cards=min_cards, observation=observation, view=seen.upright)

    return read


def reading_of(
    detections: Detections,
    game: str,
    *,
    min_cards: int = 3,
    observation: Observation | None = None,
    view: Upright | None = None,
) -> Reading:
    """The recogniser's detections of one frame assembled into the game's piles: the table, its least card
    confidence (the reading's), each card's confidence, and the labels to draw.

    Fewer than ``min_cards`` cards assembled gives no table (see ``vision_reader``). ``observation``: the
    detections already assembled; ``view``: how the frame was turned to read them (``vision.upright``), whose
    labels are drawn back where the cards lie in the frame."""
    from vision.assemble import assemble, to_table

    if observation is None:
        observation = assemble(detections, game)
    seen = [card for cards in observation.piles.values() for card in cards]
    anchors = [(card.x, card.y) for card in seen]
    if view is not None and anchors:
        anchors = [(float(x), float(y)) for x, y in view.to_frame(anchors)]
    labels = tuple(Label(card.name, (x - 10, y - 12)) for card, (x, y) in zip(seen, anchors, strict=True))
    at = {parse_code(card.name): point for card, point in zip(seen, anchors, strict=True) if card.name != "??"}
    if len(seen) < min_cards:
        return Reading(None, 0.0, labels, at=at)
    table, _ = to_table(observation, unread_in_fans=True)
    confidence = min(card.confidence for card in seen)
    cards: dict[tuple[str, int], float] = {}
    kinds: dict[tuple[str, int], float] = {}
    for pile, found in observation.piles.items():
        if pile not in table.pile_ids:
            continue
        for card in found:
            if card.name == "??":
                continue
            code = parse_code(card.name)
            cards[(pile, code)] = max(cards.get((pile, code), 0.0), float(card.confidence))
            if card.kind is not None:
                kinds[(pile, code)] = max(kinds.get((pile, code), 0.0), card.kind_confidence)
    backs = {pile: count for pile, count in observation.face_down.items() if pile in table.pile_ids}
    return Reading(table, confidence, labels, cards, backs, at, kinds, cascade_gaps(observation))


def cascade_gaps(observation: Observation) -> dict[tuple[str, int], float]:
    """Per card of a cascade read on another card, how far below that card's index it lies, in card heights (see
    ``Reading.gaps``); nothing when the layout fit measured no card."""
    from vision.assemble import FAN_DOWN, LAYOUTS, layout_name
    from vision.corners import CARD_ASPECT

    if observation.card_w <= 0:
        return {}
    card_h = observation.card_w / CARD_ASPECT
    layout = LAYOUTS[layout_name(observation.game)]
    gaps: dict[tuple[str, int], float] = {}
    for pile, found in observation.piles.items():
        if layout[pile].style != FAN_DOWN:
            continue
        for under, card in itertools.pairwise(found):
            if card.name != "??" and under.name != "??":
                gaps[(pile, parse_code(card.name))] = math.hypot(card.x - under.x, card.y - under.y) / card_h
    return gaps
