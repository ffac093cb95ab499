"""Tracking over frames: read the table when it is still, explain each change as moves, never cry wolf.

The tracker gets one reading per frame (an observed ``Table``, or None when hands cover the cards or
nothing was read) with a confidence. A reading becomes a *still table* when the same reading comes back
in ``votes`` of the last ``window`` frames. Each change between two still tables goes to the engine: legal
moves are announced as moves; a change that only an illegal move explains is announced as illegal only
when the reading is confident, otherwise the player is asked to hold still; a single misread frame never
reaches the engine because it never wins the vote.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from enum import Enum

from engine.cards import CARDS, UNKNOWN
from engine.moves import Move
from engine.rules import Role
from engine.status import problems
from engine.table import Outcome, Stage, Table
from engine.verify import agrees, explain, reveal


class EventKind(Enum):
    STILL = "still"
    MISDEAL = "misdeal"
    MOVE = "move"
    ILLEGAL = "illegal"
    UNCLEAR = "unclear"
    END = "end"


@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    t: float
    text: str
    moves: tuple[str, ...] = ()
    table: Table | None = None
    confidence: float = 1.0
    sentences: tuple[str, ...] = ()
    """One sentence per move, in words ("move the 7 of hearts onto the 8 of spades")."""


@dataclass
class Tracker:
    window: int = 5
    votes: int = 3
    confident: float = 0.8
    max_moves: int = 3
    partial: bool = False
    """Readings list only the cards the camera sees (no face-down counts): see ``engine.verify.agrees``."""
    check_deal: bool = True
    """The first still table is the deal: check it (off when joining a game already under way)."""
    model: Table | None = None
    """What the engine believes is on the table, face-down cards included as far as known."""
    _recent: deque[tuple[tuple[object, ...], Table, float] | None] = field(default_factory=deque)
    _last_still: tuple[object, ...] | None = None
    _ended: bool = False
    _last_unclear: tuple[str, float] | None = None
    repeat_after: float = 5.0
    """Seconds before the same "please hold still" is said again (a noisy reading would say it every frame)."""

    def observe(self, t: float, reading: Table | None, confidence: float = 1.0) -> list[Event]:
        self._recent.append(None if reading is None else (reading.key(), reading, confidence))
        while len(self._recent) > self.window:
            self._recent.popleft()
        still = self._still()
        if still is None or still[0] == self._last_still:
            return []
        key, table, conf = still
        self._last_still = key
        return [
            Event(EventKind.STILL, t, "the table is still", table=table, confidence=conf),
            *self._quiet(self._change(t, table, conf)),
        ]

    def _quiet(self, events: list[Event]) -> list[Event]:
        """Drop a request to hold still that repeats the last one within ``repeat_after`` seconds."""
        out = []
        for event in events:
            if event.kind is EventKind.UNCLEAR:
                last = self._last_unclear
                if last is not None and last[0] == event.text and event.t - last[1] < self.repeat_after:
                    continue
                self._last_unclear = (event.text, event.t)
            out.append(event)
        return out

    def still_key(self) -> tuple[object, ...] | None:
        """The key of the reading the vote currently stands on (None while no reading has the votes)."""
        still = self._still()
        return None if still is None else still[0]

    def _still(self) -> tuple[tuple[object, ...], Table, float] | None:
        counts = Counter(item[0] for item in self._recent if item is not None)
        if not counts:
            return None
        key, count = counts.most_common(1)[0]
        if count < self.votes:
            return _pile_consensus([item for item in self._recent if item is not None], self.votes)
        matching = [item for item in self._recent if item is not None and item[0] == key]
        return key, matching[-1][1], min(item[2] for item in matching)

    def _change(self, t: float, seen: Table, confidence: float) -> list[Event]:
        if self.model is None and self.partial:
            self.model, notes = _deal_from_sighting(seen)
            found_text = [*notes, *(p.message for p in problems(self.model))] if self.check_deal else []
            self.model.stage = Stage.PLAY
            return self._deal_events(t, found_text, confidence)
        if self.model is None:
            self.model = seen.copy()
            deal = seen.copy()
            deal.stage = Stage.DEAL
            found = problems(deal) if self.check_deal else []
            self.model.stage = Stage.PLAY
            return self._deal_events(t, [p.message for p in found], confidence)
        explanation = explain(self.model, seen, self.max_moves, self.partial)
        if explanation is None:
            dug = dug_out(self.model, seen, self.partial)
            if dug is not None and confidence >= self.confident:
                after, notation, reason = dug
                self.model, _ = reveal(after, seen, self.partial)
                return [Event(EventKind.ILLEGAL, t, reason, (notation,), confidence=confidence)]
            return [
                Event(EventKind.UNCLEAR, t, "I cannot follow that change: please hold still", confidence=confidence)
            ]
        if not explanation.legal:
            if confidence < self.confident:
                return [
                    Event(
                        EventKind.UNCLEAR, t, "please hold still, I am reading the table again", confidence=confidence
                    )
                ]
            move = explanation.moves[0]
            self._advance(explanation.moves, seen)
            return [
                Event(
                    EventKind.ILLEGAL,
                    t,
                    explanation.reason,
                    (str(move),),
                    confidence=confidence,
                    sentences=explanation.sentences[:1],
                )
            ]
        if not explanation.moves:
            return []
        self._advance(explanation.moves, seen)
        events = [
            Event(
                EventKind.MOVE,
                t,
                "; ".join(explanation.sentences),
                tuple(map(str, explanation.moves)),
                sentences=explanation.sentences,
            )
        ]
        outcome = self.model.outcome() if self.model is not None else None
        if outcome is not None and not self._ended:
            self._ended = True
            score = self.model.score() if self.model is not None else None
            money = "" if score is None else f", score {'+' if score >= 0 else '-'}${abs(score)}"
            word = "won" if outcome is Outcome.WON else "blocked: no legal move is left"
            events.append(Event(EventKind.END, t, f"game {word}{money}"))
        return events

    def _deal_events(self, t: float, found: list[str], confidence: float) -> list[Event]:
        """A misdeal is announced, like an illegal move, only on a confident reading; an unsure reading of
        a wrong-looking deal is not taken as the deal at all: the next still table is tried again."""
        if not found:
            return []
        if confidence < self.confident:
            self.model = None
            return [
                Event(EventKind.UNCLEAR, t, "I cannot read the deal clearly: please hold still", confidence=confidence)
            ]
        return [Event(EventKind.MISDEAL, t, "; ".join(found), confidence=confidence)]

    def _advance(self, moves: tuple[Move, ...], seen: Table) -> None:
        assert self.model is not None
        for move in moves:
            self.model.push(move)
        self.model, _ = reveal(self.model, seen, self.partial)


def _pile_consensus(
    items: list[tuple[tuple[object, ...], Table, float]], votes: int
) -> tuple[tuple[object, ...], Table, float] | None:
    """The still table voted pile by pile: each pile as at least ``votes`` readings saw it. A recogniser that
    misreads a different card in each frame never reads the whole table twice alike, yet every pile may be
    read alike three times; a pile without such a majority means no still table. Readings that differ in
    anything but their piles (passes, stage...) do not combine. Confidence: the least of all the readings."""
    if len(items) < votes:
        return None
    first = items[0][1]
    if any(t.game is not first.game or t.key()[2:] != first.key()[2:] for _, t, _ in items):
        return None
    piles: list[list[int]] = []
    downs: list[int] = []
    for pile in first.pile_ids:
        seen = Counter((tuple(t.codes(pile)), t.face_down_count(pile)) for _, t, _ in items)
        (codes, down), count = seen.most_common(1)[0]
        if count < votes:
            return None
        piles.append(list(codes))
        downs.append(down)
    table = Table(first.game, piles, downs, passes=first.passes, waste_played=first.waste_played,
                  stage=first.stage, faces=dict(first.faces) or None, hook_state=first.hook_state)
    return table.key(), table, min(conf for _, _, conf in items)


def dug_out(model: Table, seen: Table, partial: bool = False) -> tuple[Table, str, str] | None:
    """A card taken from under another card (not from the top of its pile) and put on top of another
    pile, if that explains what was seen: (the table after it, its notation, the rule it broke).

    ``engine.verify.explain`` only moves cards from the top of a pile, as every legal move does; a player
    who pulls a card out from under a covered one makes a change it cannot name. The notation is
    ``SRC-N>DST``: the card with ``N`` cards on top of it, from SRC onto DST.
    """
    for src in model.pile_ids:
        codes = model.codes(src)
        down = model.face_down_count(src)
        for position in range(down, len(codes) - 1):
            card = codes[position]
            if card == UNKNOWN:
                continue
            rest = [*codes[:position], *codes[position + 1 :]]
            for dst in model.pile_ids:
                if dst == src:
                    continue
                piles = [list(model.codes(p)) for p in model.pile_ids]
                piles[model.pile_ids.index(src)] = rest
                piles[model.pile_ids.index(dst)].append(card)
                downs = [model.face_down_count(p) for p in model.pile_ids]
                after = Table(model.game, piles, downs, passes=model.passes, stage=model.stage)
                if agrees(after, seen, partial):
                    over = codes[position + 1]
                    above = len(codes) - 1 - position
                    reason = (
                        f"the {CARDS[card].sentence} was taken from under the {CARDS[over].sentence}"
                        if over != UNKNOWN
                        else f"the {CARDS[card].sentence} was taken from under another card"
                    )
                    return after, f"{src}-{above}>{dst}", reason + ": only a pile's top card may be moved"
    return None


def _deal_from_sighting(seen: Table) -> tuple[Table, list[str]]:
    """The deal as the engine models it, from a reading that shows only face-up cards: face-down cards
    (unknown) are put where the deal puts them, and every pile that shows the wrong number of face-up
    cards is noted in words."""
    game = seen.game
    sizes = game.deal_sizes()
    # The stock holds what the other piles do not: a card dealt too many elsewhere came from it.
    others = sum(
        sizes[pile][0] + max(sizes[pile][1], len(seen.codes(pile)))
        for pile in seen.pile_ids
        if game.pile(pile).role is not Role.STOCK
    )
    piles: list[list[int]] = []
    downs: list[int] = []
    notes: list[str] = []
    for pile in seen.pile_ids:
        spec = game.pile(pile)
        down, up = sizes[pile]
        if spec.role is Role.STOCK:
            down = max(0, game.card_count - others)
        shown = list(seen.codes(pile))
        cascade = spec.role is Role.TABLEAU
        if (len(shown) != up) if cascade else (len(shown) != min(up, 1)):
            want = up if cascade else min(up, 1)
            notes.append(
                f"{spec.name} shows {len(shown)} face-up card{'s' if len(shown) != 1 else ''}, the deal shows {want}"
            )
        padding = [UNKNOWN] * max(0, up - len(shown))
        piles.append([UNKNOWN] * down + padding + shown)
        downs.append(down)
    return Table(game, piles, downs, stage=Stage.DEAL), notes
