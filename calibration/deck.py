"""An enrolled deck: what this physical deck's corner indices look like to the recogniser, kept in the profile.

Enrolment (``vision.deckmatch.enrol_image``) finds each card of a photo of the whole deck laid out in order
(:mod:`calibration.spread`), and stores per card the classifier's embeddings of its index crops, each both
ways up (the crop and the crop turned 180 degrees). Recognition then compares every index it reads with these
prototypes. Since session 7 it also keeps a probe: a linear correction to the classifier's card scores,
fitted on jittered views of the enrolled crops (``Probe``; older profiles without one still load).
Embeddings only mean something to the model that made them, so the profile records the classifier's
fingerprint, and a profile enrolled with another model is refused, never used silently.

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
# the probe's say next to prototypes x classifier (its correction added to the log-likelihoods with this
# weight); chosen on bench.enrol selection renders (photo seeds 101, 201; scene seeds 6000, 6100)
PROBE_WEIGHT = 1.0
MAX_PROBE = 1e4  # no fitted weight comes near this: a bound on what a file may hold
# A deck whose enrolled index crops the classifier alone names this well is read by the classifier alone: on
# bench.enrol renders the prototypes then add phantoms for little gain (kde_standard named 0.956 -> 0.964,
# phantoms 0.004 -> 0.023), and on the recordings they cost moves and illegal moves (BENCHMARKS.md, session 15).
# The classifier names the enrolment photo's crops of standard, jolly royal and nicu white at 0.99-1.0, of
# penguins and ancient egyptians at 0.44-0.78 (photo seeds 7 and 11; bench.enrol); chosen on seed 11.
DECK_NEEDED_BELOW = 0.95


class EnrolmentError(CalibrationError):
    """The enrolment photo cannot teach the deck (missing cards, no cards, wrong layout)."""


NOT_AN_INDEX = CARDS  # the probe's last class: what the enrolment photo showed that is not an index


@dataclass(frozen=True, slots=True, eq=False)
class Probe:
    """This deck's correction to the classifier, learnt at enrolment: logits (n, 53) = embeddings @ weights.T +
    bias, added to the classifier's log-probabilities (the 52 cards, then "not an index"). Fitted as a residual
    on jittered views of the enrolled crops with an L2 penalty, so it changes only what the classifier gets wrong
    on this deck's own indices (penguins' pixel-art spades and clubs) and otherwise stays near zero."""

    weights: F32  # (53, dim)
    bias: F32  # (53,)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Probe):
            return NotImplemented
        return bool(np.array_equal(self.weights, other.weights) and np.array_equal(self.bias, other.bias))

    __hash__ = None  # type: ignore[assignment]

    def logits(self, embeddings: F32) -> F32:
        """The correction (n, 53) for unit embeddings (n, dim)."""
        out: F32 = (normalise(embeddings) @ self.weights.T + self.bias).astype(np.float32)
        return out


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
    probe: Probe | None = None  # profiles enrolled before the probe have none: prototypes alone
    # The share of the enrolled index crops the classifier alone names right (None: enrolled before session 15
    # measured it). A deck the classifier already reads is read by the classifier alone: see
    # ``vision.recognise.Recogniser.deck_needed_below``.
    classifier_named: float | None = None

    def needed(self, below: float = DECK_NEEDED_BELOW) -> bool:
        """Whether recognition should use the prototypes: unless the classifier alone named at least ``below``
        of the enrolled crops (see ``classifier_named``)."""
        return self.classifier_named is None or self.classifier_named < below

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
            and self.probe == other.probe
            and self.classifier_named == other.classifier_named
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
            # float32: not unit rows, and small enough (53 x dim) to keep exact
            **(
                {}
                if self.probe is None
                else {"probe": {"weights": _b64_f4(self.probe.weights), "bias": _b64_f4(self.probe.bias)}}
            ),
            **({} if self.classifier_named is None else {"classifier_named": round(self.classifier_named, 4)}),
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
        probe = _probe(r.child("probe"), dim) if r.has("probe") and dim > 0 else None
        named = r.number("classifier_named", minimum=0.0, maximum=1.0) if "classifier_named" in r.data else None
        if r.problems or not labels or emb is None or negatives is None:
            return None
        return cls(tuple(labels), emb, model, temperature, source, negatives, probe, named)


def _b64(rows: F32) -> str:
    # float16, base64: 52 cards x 4 views x 512 numbers would be half a megabyte of JSON text
    return base64.b64encode(rows.astype("<f2").tobytes()).decode("ascii")


def _b64_f4(values: F32) -> str:
    return base64.b64encode(np.ascontiguousarray(values, "<f4").tobytes()).decode("ascii")


def _floats(r: Reader, key: str, count: int) -> F32 | None:
    """``count`` finite float32 numbers of magnitude below MAX_PROBE under ``key``, else None with the problem
    added to ``r``."""
    try:
        raw = base64.b64decode(r.text(key).encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        r.problems.append(f"{r._name(key)}: not base64 text")
        return None
    if len(raw) != count * 4:
        r.problems.append(f"{r._name(key)}: expected {count} float32 numbers, found {len(raw) / 4:g}")
        return None
    values = np.frombuffer(raw, "<f4").astype(np.float32)
    if not np.all(np.isfinite(values)) or np.any(np.abs(values) >= MAX_PROBE):
        r.problems.append(f"{r._name(key)}: expected finite numbers below {MAX_PROBE:g} in size")
        return None
    return values


def _probe(r: Reader, dim: int) -> Probe | None:
    """The probe under ``r`` for embeddings of ``dim`` numbers, else None with the problems added to ``r``."""
    weights = _floats(r, "weights", (CARDS + 1) * dim)
    bias = _floats(r, "bias", CARDS + 1)
    if weights is None or bias is None:
        return None
    return Probe(weights.reshape(CARDS + 1, dim), bias)


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


def match_probabilities(
    probs: F32, embeddings: F32, deck: DeckProfile, *, weight: float = 0.0, probe_weight: float = PROBE_WEIGHT
) -> F32:
    """Card probabilities (n, 52) of index crops from their embeddings (n, dim) and this deck's prototypes.

    Softmax over the 52 cards of each crop's best cosine similarity to a card's prototypes, divided by the
    deck's temperature, times the classifier's own probabilities to the power ``weight`` (0: prototypes
    only; 1: the plain product). A card with no prototype keeps the classifier's view alone. With a probe,
    its correction times ``probe_weight`` is added to the log-likelihoods.
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
    if deck.probe is not None:
        score = score + probe_weight * deck.probe.logits(embeddings)[:, :CARDS]
    score -= score.max(1, keepdims=True)
    e = np.exp(score)
    out: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    return out


def fit_probe(
    x: F32, y: npt.NDArray[np.int64], *, l2: float = 1e-3, steps: int = 300, offset: F32 | None = None
) -> Probe:
    """Multinomial logistic regression with an L2 penalty on the weights, from unit embeddings ``x`` (n, dim)
    and classes ``y`` (0..51 cards, 52 "not an index"); every class present weighs the same in the loss.
    With ``offset`` (n, 53: the classifier's log-probabilities of each row) it is fitted as a residual on top
    of it, and classes never seen are left at zero; without, they are made unreachable. Accelerated gradient
    descent (numpy only: recognition never needs torch)."""
    x = normalise(np.asarray(x, np.float32))
    n, dim = x.shape
    k = CARDS + 1
    onehot = np.zeros((n, k), np.float32)
    onehot[np.arange(n), y] = 1.0
    counts = onehot.sum(0)
    sample = (1.0 / np.maximum(counts, 1.0))[y] / float(np.count_nonzero(counts))  # sums to 1
    xb = np.concatenate([x, np.ones((n, 1), np.float32)], 1)
    # step 1/L, L bounding the loss's curvature: 0.5 x the weighted Gram matrix's top eigenvalue, plus l2
    v = np.ones(dim + 1, np.float32)
    for _ in range(30):
        v = xb.T @ (sample * (xb @ v))
        v /= np.linalg.norm(v)
    step = 1.0 / (0.5 * float(v @ (xb.T @ (sample * (xb @ v)))) + l2)
    w = np.zeros((dim + 1, k), np.float32)
    prev = w
    # a card never seen is kept out of the fit (and, without an offset, out of reach afterwards too)
    absent = np.where(counts > 0, 0.0, -30.0).astype(np.float32)
    base = absent if offset is None else np.asarray(offset, np.float32) + absent
    for t in range(1, steps + 1):
        look = w + (t - 2) / (t + 1) * (w - prev) if t > 1 else w
        z = xb @ look + base
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        grad = xb.T @ ((p - onehot) * sample[:, None])
        grad[:dim] += l2 * look[:dim]
        grad[:, counts == 0] = 0.0  # a class never seen is left as it was
        prev, w = w, (look - step * grad).astype(np.float32)
    bias = w[dim] + (absent if offset is None else 0.0)
    return Probe(np.ascontiguousarray(w[:dim].T), bias.astype(np.float32))
