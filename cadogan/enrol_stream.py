"""Deck enrolment from cards shown one by one to a camera (or filmed): each card held still in turn.

The player shows the cards in enrolment order (spades A to K, then hearts, diamonds, clubs), each alone and
still for a moment, and takes it away between cards. The motion gate
(:mod:`cadogan.gate`) finds the still moments; a still moment whose strongest index candidate is clearly an
index (detector score x "is an index") is a card shown, and it is the next card of the order. The order names
the cards, not the recogniser (which cannot yet read the deck: that is why it is being enrolled).

A card bumped and settled again is not taken twice: a new card is taken only after the table was seen still
and empty. (Telling a card laid over the last one from the same card nudged would need the recogniser to
know the deck: two cards of one suit look alike to it, measured 2S and 3S of a training deck.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cadogan.gate import MotionGate
from cadogan.sources import TimedFrame
from vision.cards import NAMES
from vision.deckmatch import classify_and_embed
from vision.recognise import Recogniser, detect_indices

U8 = npt.NDArray[np.uint8]
PRESENT = 0.12  # best candidate weight that makes a card shown (rendered: one card 0.19-0.57, empty table 0)


@dataclass(frozen=True, slots=True)
class Shown:
    name: str  # the card of the order this still moment was taken as
    t: float  # seconds into the source
    image: U8


def best_index(image: U8, rec: Recogniser) -> float:
    """How clearly a frame shows a corner index: its strongest candidate's detector score x "is an index"."""
    boxes, score = detect_indices(image, rec)
    if len(boxes) == 0:
        return 0.0
    top = np.argsort(-score)[:8]
    probs, _ = classify_and_embed(image, boxes[top], rec.classifier)
    return float(np.max(score[top] * (1.0 - probs[:, len(NAMES)])))


def cards_shown(
    frames: Iterable[TimedFrame],
    rec: Recogniser,
    *,
    order: tuple[str, ...] = NAMES,
    present: float = PRESENT,
    on_card: Callable[[Shown], None] | None = None,
) -> list[Shown]:
    """The still moments that show a card, named in ``order``; stops when every card of the order is shown.

    ``on_card`` is called as each card is taken (to tell the player which card to show next)."""
    gate = MotionGate()
    shown: list[Shown] = []
    empty_since = True
    for frame in frames:
        if len(shown) == len(order):
            break
        if not gate.look(frame.image) or not gate.may_read:
            continue
        gate.read_once(accepted=True)  # one look a still moment is enough: rest until the next motion
        if best_index(frame.image, rec) < present:
            empty_since = True
            continue
        if not empty_since:
            continue  # the card taken last, settled again
        card = Shown(order[len(shown)], frame.t, frame.image)
        shown.append(card)
        empty_since = False
        if on_card is not None:
            on_card(card)
    return shown
