"""The live companion loop: frames -> readings -> tracker -> announcements (log, speech, overlay)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from cadogan.gate import MotionGate, changed_fraction, thumbnail
from cadogan.overlay import Label, Overlay, OverlayWindow, OverlayWriter, Point, draw
from cadogan.session import SessionLog
from cadogan.sources import TimedFrame
from cadogan.speech import Speaker
from cadogan.tracker import CardConfidences, Event, EventKind, Tracker
from cadogan.vote import face_up
from engine.moves import Move
from engine.table import Table

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Reading:
    """What one frame shows: the observed table (None if nothing usable), its confidence, labels to draw."""

    table: Table | None
    confidence: float
    labels: tuple[Label, ...] = ()
    cards: CardConfidences = field(default_factory=dict)
    """The confidence of each card read: (pile, card code) -> confidence; ``confidence`` is the least of them."""
    backs: Mapping[str, int] | None = None
    """Face-down cards seen per pile (a squared packet: 1); None when the reader does not look for backs."""
    at: Mapping[int, Point] = field(default_factory=dict)
    """Where each card read lies in the frame (card code -> px of its index): the hint's arrow starts and ends there."""
    kinds: CardConfidences = field(default_factory=dict)
    """Where the reader is surer of a card's rank and colour than of its suit: (pile, card code) -> the confidence
    that the card is that card or its twin (the other suit of its colour; ``vision.assemble.SeenCard.kind``)."""
    gaps: CardConfidences = field(default_factory=dict)
    """Per card of a cascade read on another card: how far below that card's index its own index lies, in card
    heights ((pile, card code) -> distance; a card put on a cascade lies a cascade's step below)."""


Reader = Callable[[Image], Reading]


class Advice(NamedTuple):
    """A hint: the best move in words, its chance to win, and the move (drawn as an arrow when known)."""

    sentence: str
    chance: float
    move: Move | None = None


Hinter = Callable[[Table], Advice | None]
"""Gives the best move's advice, or None when there is no move."""


def hint_arrow(model: Table, move: Move, at: Mapping[int, Point]) -> tuple[Point, Point] | None:
    """From the card the move takes to the card it goes onto, where the camera last read them; None where either
    end was not read (a stock turn, a move into a space or onto an empty foundation)."""
    src, dst = model.codes(move.src), model.codes(move.dst)
    if len(src) < move.count or not dst or move.count < 1:
        return None
    start, end = at.get(src[-move.count]), at.get(dst[-1])
    return None if start is None or end is None else (start, end)


@dataclass
class WatchSummary:
    frames: int = 0
    read: int = 0
    recognised: int = 0
    """Frames the recogniser read (a gate, or without one ``still_only``, spares the others)."""
    events: list[Event] = field(default_factory=list)
    end_reason: str = ""
    model: Table | None = None

    def count(self, kind: EventKind) -> int:
        return sum(e.kind is kind for e in self.events)


SPOKEN = (EventKind.MISDEAL, EventKind.ILLEGAL, EventKind.UNCLEAR, EventKind.END, EventKind.MOVE)


def shows_change(model: Table, reading: Reading, settled: tuple[object, ...] | None, sure: float = 0.7) -> bool:
    """Does ``reading`` show another table than the one the tracker settled on (``model``, whose newest reading's
    key is ``settled``)? With cards' own confidences: a card read with ``sure`` confidence where the model has
    none of it face up (a misread that repeats is read unsure; measured, ``Tracker.sure_card``); without them,
    any difference from the settled reading."""
    if reading.table is None:
        return False
    if not reading.cards:
        return reading.table.key() != settled
    for (pile, code), confidence in reading.cards.items():
        if confidence < sure or pile not in model.pile_ids:
            continue
        if code not in face_up(model, pile):
            return True
    return False


def watch(
    frames: Iterable[TimedFrame],
    reader: Reader,
    tracker: Tracker,
    *,
    log: SessionLog | None = None,
    speaker: Speaker | None = None,
    overlay: OverlayWriter | None = None,
    hinter: Hinter | None = None,
    auto_hint_after: float | None = None,
    every: int = 1,
    on_event: Callable[[Event], None] | None = None,
    gate: MotionGate | None = None,
    on_frame_event: Callable[[Event, TimedFrame], None] | None = None,
    window: OverlayWindow | None = None,
    still_only: bool = True,
) -> WatchSummary:
    """Follow the game over ``frames``. With a ``gate`` the recogniser runs only on frames of a settled
    table, until the tracker's vote accepts the reading (see ``cadogan.gate``); ``on_frame_event`` also gets
    every still table (STILL events) with the frame it was accepted on (for pictures of the table). Without a
    gate every frame is read, but with ``still_only`` one that differs from the frame before (a hand over the
    cards) is not: the tracker gets no reading, as from a gate, so a half-made move never joins the vote of
    a still table (measured on the demo: 4 requests to hold still in 10 moves without it, none with it)."""
    summary = WatchSummary()
    last_thumb: npt.NDArray[np.float32] | None = None
    banner, banner_until = "", 0.0
    still_since: float | None = None
    hinted: tuple[object, ...] | None = None
    """The position last hinted at (a hand that passes over the table without a move brings no second hint)."""
    asked = False
    last_move = ""
    at: dict[int, Point] = {}  # where each card was last read (the hint's arrow)
    advised: tuple[Table, Move] | None = None

    def announce(events: list[Event], frame: TimedFrame) -> None:
        nonlocal banner, banner_until, last_move
        for event in events:
            if on_frame_event is not None:
                on_frame_event(event, frame)
            if event.kind is EventKind.STILL:
                if log is not None and event.table is not None:
                    log.table(frame.t, event.table, event.confidence, event.cards)
                continue
            summary.events.append(event)
            if log is not None:
                retracted = {"retracts": list(event.retracts)} if event.retracts else {}
                log.write(event.kind.value, frame.t, text=event.text, moves=list(event.moves), **retracted)
            if on_event is not None:
                on_event(event)
            if speaker is not None and event.kind in SPOKEN:
                speaker.say(event.text)
            if event.kind in (EventKind.ILLEGAL, EventKind.MISDEAL, EventKind.UNCLEAR, EventKind.END):
                banner, banner_until = event.text, frame.t + 4.0
            if event.kind is EventKind.MOVE:
                last_move = event.text

    last: TimedFrame | None = None
    for frame in frames:
        last = frame
        summary.frames += 1
        if frame.index % max(1, every):
            continue
        gated_read = False
        if gate is None:
            moving = False
            if still_only:
                thumb = thumbnail(frame.image)
                moving = last_thumb is not None and _moved(last_thumb, thumb)
                last_thumb = thumb
            reading = Reading(None, 0.0) if moving else reader(frame.image)
            gated_read = not moving
        elif not gate.look(frame.image, frame.t):
            reading = Reading(None, 0.0)  # moving: a hand over the cards, nothing to read
        elif gate.recheck_due() and tracker.settled and tracker.model is not None:
            check = reader(frame.image)  # a settled table read again: a change the gate saw no motion for?
            summary.recognised += 1
            changed = shows_change(tracker.model, check, tracker.still_key())
            gate.rechecked(changed)
            if not changed:
                continue
            reading = Reading(None, 0.0)  # as after motion: the still period ends, the next frames start another
        elif not gate.may_read:
            continue  # still, and already read (or the reading budget is spent for now)
        else:
            reading, gated_read = reader(frame.image), True
        summary.recognised += gated_read
        summary.read += reading.table is not None
        at.update(reading.at)
        events = tracker.observe(
            frame.t,
            reading.table,
            reading.confidence,
            reading.cards or None,
            reading.backs,
            reading.kinds or None,
            reading.gaps,
        )
        if gate is not None and gated_read:
            accepted = reading.table is not None and tracker.still_key() == reading.table.key()
            gate.read_once(accepted, tracker.vote_key())
        announce(events, frame)
        if not tracker.settled:
            still_since = None
        elif still_since is None:
            still_since = frame.t
        position = None if hinter is None or tracker.model is None else tracker.model.key()
        wants_hint = (
            auto_hint_after is not None
            and still_since is not None
            and frame.t - still_since >= auto_hint_after
            and position != hinted
        )
        if hinter is not None and tracker.model is not None and (wants_hint or asked):
            hinted, asked = position, False
            advice = hinter(tracker.model)
            if advice is not None:
                text = f"hint: {advice.sentence} ({advice.chance:.0%} to win)"
                summary.events.append(Event(EventKind.STILL, frame.t, text))
                if log is not None:
                    log.write("hint", frame.t, text=advice.sentence, chance=round(advice.chance, 3))
                if speaker is not None:
                    speaker.say(advice.sentence)
                banner, banner_until = text, frame.t + 6.0
                advised = None if advice.move is None else (tracker.model.copy(), advice.move)
        if overlay is not None or window is not None:
            model = tracker.model
            status = "" if model is None else f"{model.game.title}: {model.foundation_count()} on foundations"
            score = None if model is None else model.score()
            if score is not None:
                status += f", score {'+' if score >= 0 else '-'}${abs(score)}"
            if last_move:
                status += f" | {last_move}"
            shown = banner if frame.t <= banner_until else ""
            arrow = None
            if advised is not None and shown.startswith("hint:"):  # while the hint is on screen
                arrow = hint_arrow(advised[0], advised[1], at)
            image = draw(frame.image, Overlay(labels=reading.labels, arrow=arrow, banner=shown, status=status))
            if overlay is not None:
                overlay.write(image)
            if window is not None:
                key = window.show(image)
                asked = asked or key == "h"
                if key == "q":
                    summary.end_reason = "stopped by the player"
                    break
    if last is not None:  # the frames ran out: the table in view is judged on the readings made (``Tracker.finish``)
        announce(tracker.finish(last.t), last)
    summary.model = tracker.model
    return summary


def _moved(last: npt.NDArray[np.float32], thumb: npt.NDArray[np.float32]) -> bool:
    """Does a frame differ from the one before it as a gate counts motion (see ``cadogan.gate``)?"""
    return last.shape != thumb.shape or changed_fraction(last, thumb) > MotionGate().threshold
