"""Deck enrolment: teaching Cadogan one physical deck (its size, backs, artwork). Not available yet.

Enrolment needs the card recognition model (vision/), which does not exist yet. When it does, enrolment will:
show each card to the camera, let the recogniser find its outline and corner index, measure the card size
through the table plane (:func:`calibration.cards.plane_from_cards` takes ``card_mm``), and store a
``DeckProfile`` next to the camera profile. The recogniser is passed in, so this package keeps not importing
vision: anything with a ``quads(image)`` method that returns card corner quads will do.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError

DECK_UNAVAILABLE = (
    "deck enrolment needs the card recognition model, which is not part of this version yet; "
    "standard 63 x 88 mm poker decks work without enrolment"
)


class CardOutlineFinder(Protocol):
    """What enrolment will need from the recogniser: card corner quads (4, 2) in image pixels."""

    def quads(self, image: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.float64]]: ...


def enrol_deck(finder: CardOutlineFinder | None = None) -> None:
    """Placeholder for deck enrolment: raises until the recognition model exists."""
    raise CalibrationError(DECK_UNAVAILABLE)
