"""An enrolled deck: what this physical deck's corner indices look like to the recogniser, kept in the profile.

Enrolment (``vision.deckmatch.enrol_image``) finds each card of a photo of the whole deck laid out in order
(:mod:`calibration.spread`), and stores per card the classifier's embeddings of its index crops, each both
ways up (the crop and the crop turned 180 degrees). Recognition then compares every index it reads with these
prototypes. Embeddings only mean something to the model that made them, so the profile records the
classifier's fingerprint, and a profile enrolled with another model is refused, never used silently.

This package does not import vision: the embeddings arrive as numpy arrays.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.jsonio import Reader

F32 = npt.NDArray[np.float32]
CARDS = 52
MAX_ROWS = 52 * 512  # far more views than one enrolment makes; a bound on what a file may hold
TEMPERATURE = 0.05  # softmax temperature over cosine similarities (bench/enrol.py)


class EnrolmentError(CalibrationError):
    """The enrolment photo cannot teach the deck (missing cards, no cards, wrong layout)."""


@dataclass(frozen=True, slots=True, eq=False)
class DeckProfile:
    """Per-card prototype embeddings of one deck (``labels[i]`` is the card class of ``embeddings[i]``)."""

    labels: tuple[int, ...]  # class ids 0..51 in vision.cards.NAMES order
    embeddings: F32  # (len(labels), dim), each row of unit length
    model: str  # fingerprint of the classifier that made the embeddings
    temperature: float = TEMPERATURE
    source: str = ""  # what it was enrolled from, for messages
    # Embeddings of things on the enrolment photo that are not indices (this deck's pips, pictures, frames):
    # a read nearer to one of them than to every card is not an index (DESIGN: no phantom cards).
    negatives: F32 = field(default_factory=lambda: np.zeros((0, 0), np.float32))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeckProfile):
            return NotImplemented
        return (
            self.labels == other.labels
            and self.model == other.model
            and self.temperature == other.temperature
            and self.source == other.source
            and self.embeddings.shape == other.embeddings.shape
            and bool(np.array_equal(self.embeddings, other.embeddings))
            and self.negatives.shape[0] == other.negatives.shape[0]
            and bool(np.array_equal(self.negatives, other.negatives))
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def cards(self) -> frozenset[int]:
        return frozenset(self.labels)

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "temperature": self.temperature,
            "source": self.source,
            "labels": list(self.labels),
            "dim": int(self.embeddings.shape[1]),
            # float16, base64: 52 cards x 4 views x 512 numbers would be half a megabyte of JSON text
            "embeddings": _b64(self.embeddings),
            # written only when there are some: profiles enrolled before negatives read as they were
            **({"negatives": _b64(self.negatives)} if len(self.negatives) else {}),
        }

    @classmethod
    def read(cls, r: Reader) -> DeckProfile | None:
        """The deck of a profile, or None with the problems added to ``r``."""
        model = r.text("model")
        temperature = r.number("temperature", positive=True)
        source = r.text("source") if "source" in r.data else ""
        dim = r.integer("dim", minimum=1)
        labels_raw = r.raw("labels")
        labels: list[int] = []
        if not isinstance(labels_raw, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < CARDS for v in labels_raw
        ):
            r.problems.append(f"{r._name('labels')}: expected a list of card numbers 0..{CARDS - 1}")
        elif not 0 < len(labels_raw) <= MAX_ROWS:
            r.problems.append(f"{r._name('labels')}: expected 1 to {MAX_ROWS} entries, found {len(labels_raw)}")
        else:
            labels = list(labels_raw)
        emb = _unit_rows(r, "embeddings", dim, len(labels)) if labels and dim > 0 else None
        negatives = (
            _unit_rows(r, "negatives", dim, None) if "negatives" in r.data and dim > 0 else np.zeros((0, 0), np.float32)
        )
        if r.problems or not labels or emb is None or negatives is None:
            return None
        return cls(tuple(labels), emb, model, temperature, source, negatives)


def _b64(rows: F32) -> str:
    # float16, base64: 52 cards x 4 views x 512 numbers would be half a megabyte of JSON text
    return base64.b64encode(rows.astype("<f2").tobytes()).decode("ascii")


def _unit_rows(r: Reader, key: str, dim: int, rows: int | None) -> F32 | None:
    """Unit-length float16 rows of ``dim`` numbers under ``key`` (``rows`` of them, when known), else None
    with the problem added to ``r``."""
    text = r.text(key)
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        r.problems.append(f"{r._name(key)}: not base64 text")
        return None
    if rows is None and (len(raw) % (dim * 2) or len(raw) // (dim * 2) > MAX_ROWS):
        r.problems.append(f"{r._name(key)}: expected up to {MAX_ROWS} rows of {dim} float16 numbers")
        return None
    count = len(raw) // (dim * 2) if rows is None else rows
    if len(raw) != count * dim * 2:
        r.problems.append(f"{r._name(key)}: expected {count} x {dim} float16 numbers, found {len(raw) // 2} numbers")
        return None
    emb = np.frombuffer(raw, "<f2").astype(np.float32).reshape(count, dim)
    norms = np.linalg.norm(emb, axis=1)
    if not np.all(np.isfinite(emb)) or np.any(np.abs(norms - 1.0) > 0.01):
        r.problems.append(f"{r._name(key)}: not unit-length finite vectors")
        return None
    return emb


def index_similarity(embeddings: F32, deck: DeckProfile) -> F32:
    """Each crop's best cosine similarity (n,) to one of the deck's card prototypes, or -1 where the crop is
    nearer to something of the enrolment photo that is not an index (a pip, a court picture, a frame)."""
    e = normalise(embeddings)
    if len(e) == 0:
        return np.zeros(0, np.float32)
    card = (e @ deck.embeddings.T).max(1)
    if len(deck.negatives):
        card = np.where((e @ deck.negatives.T).max(1) > card, -1.0, card)
    out: F32 = card.astype(np.float32)
    return out


def normalise(x: F32) -> F32:
    out: F32 = (x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)).astype(np.float32)
    return out


def match_probabilities(probs: F32, embeddings: F32, deck: DeckProfile, *, weight: float = 0.0) -> F32:
    """Card probabilities (n, 52) of index crops from their embeddings (n, dim) and this deck's prototypes.

    Softmax over the 52 cards of each crop's best cosine similarity to a card's prototypes, divided by the
    deck's temperature, times the classifier's own probabilities to the power ``weight`` (0: prototypes
    only; 1: the plain product). A card with no prototype keeps the classifier's view alone.
    """
    n = len(embeddings)
    if n == 0:
        return np.zeros((0, CARDS), np.float32)
    sims = normalise(embeddings) @ deck.embeddings.T  # (n, rows)
    best = np.full((n, CARDS), -1.0, np.float32)
    labels = np.asarray(deck.labels)
    for card in np.unique(labels):
        best[:, card] = sims[:, labels == card].max(1)
    logit = best / deck.temperature
    known = np.zeros(CARDS, bool)
    known[labels] = True
    cls = np.clip(probs[:, :CARDS], 1e-9, 1.0)
    score = np.where(known[None, :], logit + weight * np.log(cls), np.log(cls) + logit[:, known].mean())
    score -= score.max(1, keepdims=True)
    e = np.exp(score)
    out: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    return out
