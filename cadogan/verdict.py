"""The verdict on a recorded game, from whichever way it was followed, and how it is printed.

A session log of full readings (face-down cards counted) is checked by ``engine.verify.verify_tables``; a
log of camera readings (face-up cards only) and a video are followed by the same ``Tracker`` as the live
companion, so that `verify` says what `watch` said. Either way the result is a ``Verdict``: one entry per
move (legal or not), per change nobody could follow, and per problem of the deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from cadogan.session import LoggedTable, SessionRecord
from cadogan.tracker import LOST, Event, EventKind, Tracker
from engine.table import Table
from engine.verify import GameReport, verify_tables


class EntryKind(Enum):
    MOVE = "move"
    ILLEGAL = "illegal"
    UNCLEAR = "unclear"
    MISDEAL = "misdeal"


@dataclass(frozen=True, slots=True)
class Entry:
    t: float
    kind: EntryKind
    move: str = ""
    sentence: str = ""
    reason: str = ""


@dataclass
class Verdict:
    entries: list[Entry] = field(default_factory=list)
    final: Table | None = None
    notes: list[str] = field(default_factory=list)
    """Remarks on the recording itself (cut short, frames unreadable)."""
    pictures: tuple[Path, Path] | None = None
    """The table before and after the first illegal move, saved as images."""

    def of(self, kind: EntryKind) -> list[Entry]:
        return [e for e in self.entries if e.kind is kind]

    @property
    def first_illegal(self) -> Entry | None:
        found = self.of(EntryKind.ILLEGAL)
        return found[0] if found else None

    @property
    def legal(self) -> bool:
        return not self.of(EntryKind.ILLEGAL) and not self.of(EntryKind.UNCLEAR) and not self.of(EntryKind.MISDEAL)

    @property
    def moves(self) -> list[Entry]:
        """Every move made, legal or not, in order."""
        return [e for e in self.entries if e.kind in (EntryKind.MOVE, EntryKind.ILLEGAL)]


def from_events(events: Iterable[Event], final: Table | None) -> Verdict:
    """The verdict on the tracker's events. A request to hold still that a later move resolved (the tracker
    explained the change from the same table, the game followed through) is a note, not an entry: only a
    change never followed is one of the verdict's "changes no legal move explains", and so is a change the
    tracker gave up on (``LOST``: it took the table after it as the game under way, unchecked). Moves a later
    move event takes back as misread (``Event.retracts``) leave the entries, with a note saying so."""
    verdict = Verdict(final=final)
    events = list(events)
    followed = [k for k, e in enumerate(events) if e.kind in (EventKind.MOVE, EventKind.ILLEGAL)]
    resolved: dict[str, int] = {}
    for index, event in enumerate(events):
        if event.kind is EventKind.UNCLEAR and followed and index < followed[-1] and event.text != LOST:
            resolved[event.text] = resolved.get(event.text, 0) + 1
            continue
        if event.kind is EventKind.MOVE:
            if event.retracts:
                _take_back(verdict, event)
            sentences = event.sentences or (event.text,) * len(event.moves)
            for move, sentence in zip(event.moves, sentences, strict=False):
                verdict.entries.append(Entry(event.t, EntryKind.MOVE, move, sentence))
        elif event.kind is EventKind.ILLEGAL:
            sentence = event.sentences[0] if event.sentences else ""
            move = event.moves[0] if event.moves else "?"
            verdict.entries.append(Entry(event.t, EntryKind.ILLEGAL, move, sentence, event.text))
        elif event.kind is EventKind.UNCLEAR:
            verdict.entries.append(Entry(event.t, EntryKind.UNCLEAR, reason=event.text))
        elif event.kind is EventKind.MISDEAL:
            verdict.entries.append(Entry(event.t, EntryKind.MISDEAL, reason=event.text))
    for text, count in resolved.items():
        verdict.notes.append(f"{text!r} ({count} time(s)): the game was followed through it")
    return verdict


def _take_back(verdict: Verdict, event: Event) -> None:
    """The last move entries, where they are the moves ``event`` takes back (``Event.retracts``), removed and
    noted: the tracker followed them on a misreading, and the event's moves were made instead."""
    places = [k for k, entry in enumerate(verdict.entries) if entry.kind is EntryKind.MOVE][-len(event.retracts) :]
    if [verdict.entries[k].move for k in places] != list(event.retracts):
        return  # (not the moves followed last: nothing here to take back)
    first = verdict.entries[places[0]]
    for k in reversed(places):
        del verdict.entries[k]
    moves = ", ".join(event.retracts)
    verdict.notes.append(
        f"{moves} at {stamp(first.t)} misread: taken back at {stamp(event.t)} (the moves made instead follow)"
    )


def from_report(report: GameReport, times: list[float]) -> Verdict:
    verdict = Verdict(final=report.final)
    for step in report.steps:
        when = times[step.index]
        explanation = step.explanation
        if explanation is None:
            reason = "a change no move explains (misread, or cards moved by hand)"
            verdict.entries.append(Entry(when, EntryKind.UNCLEAR, reason=reason))
            continue
        kind = EntryKind.MOVE if explanation.legal else EntryKind.ILLEGAL
        for move, sentence in zip(explanation.moves, explanation.sentences, strict=True):
            verdict.entries.append(Entry(when, kind, str(move), sentence, explanation.reason))
    return verdict


def replay(tables: Iterable[LoggedTable], *, partial: bool) -> Verdict:
    """Follow logged still tables with the companion's tracker (each table is already a voted reading), the moves
    the live tracker announced at each tried first: a log says what the live session said, checked by the
    engine (a move announced that is not legal there, or that does not lead to the table, is not taken)."""
    tracker = Tracker(window=1, votes=1, partial=partial, replaying=True)
    events: list[Event] = []
    for entry in tables:
        seen = tracker.observe(entry.t, entry.table, entry.confidence, announced=entry.announced)
        events += [e for e in seen if e.kind is not EventKind.STILL]
    return from_events(events, tracker.model)


def of_record(record: SessionRecord) -> Verdict:
    """What ``cadogan verify`` says of a session log: camera readings replayed (``replay``), full readings checked
    by ``engine.verify.verify_tables``."""
    if record.partial:
        return replay(record.tables, partial=True)
    return from_report(verify_tables([entry.table for entry in record.tables]), [entry.t for entry in record.tables])


def stamp(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes):02d}:{rest:05.2f}"


def print_verdict(verdict: Verdict) -> None:
    number = 0
    for entry in verdict.entries:
        when = stamp(entry.t)
        if entry.kind is EntryKind.MISDEAL:
            print(f"      {when}  MISDEAL   {entry.reason}")
        elif entry.kind is EntryKind.UNCLEAR:
            print(f"      {when}  ??        {entry.reason}")
        else:
            number += 1
            mark = "ok" if entry.kind is EntryKind.MOVE else "ILLEGAL"
            print(f"{number:4}. {when}  {entry.move:<9} {mark:<7} {entry.sentence or entry.reason}")
            if entry.kind is EntryKind.ILLEGAL:
                print(f"      {'':8}  rule broken: {entry.reason}")
    final = verdict.final
    if final is not None:
        score = final.score()
        money = f", score {'+' if score >= 0 else '-'}${abs(score)}" if score is not None else ""
        print(f"{final.foundation_count()} cards on the foundations{money}")
    first = verdict.first_illegal
    if first is not None:
        print(f"first illegal move at {stamp(first.t)}: {first.move} ({first.reason})")
        if verdict.pictures is not None:
            print(f"the table before it: {verdict.pictures[0]}")
            print(f"the table after it:  {verdict.pictures[1]}")
    unclear = len(verdict.of(EntryKind.UNCLEAR))
    if unclear:
        print(f"{unclear} change(s) could not be explained")
    for note in verdict.notes:
        print(f"note: {note}")
    if verdict.of(EntryKind.MISDEAL):
        word = "a misdeal" + (", then a move against the rules" if first is not None else "")
    elif first is not None:
        word = "not a legal game"
    elif unclear:
        word = "not a legal game (changes no legal move explains)"
    else:
        word = "every move legal"
    print("verdict: " + word)


def as_json(verdict: Verdict) -> dict[str, object]:
    final = verdict.final
    first = verdict.first_illegal
    return {
        "legal": verdict.legal,
        "first_illegal_time": None if first is None else first.t,
        "first_illegal_move": None if first is None else first.move,
        "pictures": None if verdict.pictures is None else [str(p) for p in verdict.pictures],
        "foundation_cards": None if final is None else final.foundation_count(),
        "score": None if final is None else final.score(),
        "entries": [
            {"time": e.t, "kind": e.kind.value, "move": e.move, "sentence": e.sentence, "reason": e.reason}
            for e in verdict.entries
        ],
        "notes": verdict.notes,
    }
