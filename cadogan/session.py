"""The session log: one JSON object per line, flushed as it is written, so a crash loses nothing.

Events: ``start`` (game, source, reading: ``full`` or ``partial``), ``table`` (a still table the tracker
accepted: the readings voted card by card and completed by the engine; ``confidence``, the tracker's
confidence in the change, and ``cards``, per pile the confidence of each card the table lists there, in its
order),
``move`` (legal moves explaining a change), ``illegal`` (a move against the rules, with the rule),
``misdeal`` (problems of the deal), ``hint``, ``warning``, ``end`` (outcome, score).
``cadogan verify`` reads the tables back, each with the moves (and misdeal) announced at it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from engine.errors import CadoganError
from engine.formats import read_table, table_to_json
from engine.table import Table

LOG_FORMAT = "cadogan-session"
LOG_VERSION = 1


class SessionLogError(CadoganError):
    """A session log that cannot be read."""


class SessionLog:
    """Appends events to a JSON-lines file; each line is flushed at once."""

    def __init__(self, path: str | Path, game: str, source: str, *, partial: bool = False) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] = self.path.open("a", encoding="utf-8")
        except OSError as error:
            raise SessionLogError(f"cannot write the session log {self.path}: {error.strerror}") from None
        reading = "partial" if partial else "full"
        self.write("start", 0.0, format=LOG_FORMAT, version=LOG_VERSION, game=game, source=source, reading=reading)

    def write(self, event: str, t: float, **fields: Any) -> None:
        self._file.write(json.dumps({"t": round(t, 3), "event": event, **fields}) + "\n")
        self._file.flush()

    def table(
        self, t: float, table: Table, confidence: float, cards: Mapping[str, tuple[float, ...]] | None = None
    ) -> None:
        """A still table; ``cards``: per pile, the confidence of each of its cards (bottom first)."""
        fields: dict[str, Any] = {"table": table_to_json(table), "confidence": round(confidence, 4)}
        if cards:
            fields["cards"] = {pile: [round(c, 4) for c in confs] for pile, confs in cards.items() if confs}
        self.write("table", t, **fields)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> SessionLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class Announced:
    """What the live tracker announced at a logged still table: the events logged with it, at its time."""

    moves: tuple[str, ...] = ()
    """Every move announced, legal or not, in order, in notation (``SRC>DST``, ``SRC:N>DST``, ``SRC-N>DST``)."""
    illegal_at: int | None = None
    """The place in ``moves`` of the move announced as against the rules."""
    reason: str = ""
    """The rule that move broke, as announced."""
    misdeal: bool = False
    """A misdeal was reported."""
    retracts: tuple[str, ...] = ()
    """The moves announced last before, taken back as misread: ``moves`` were made instead (``Event.retracts``)."""


@dataclass(frozen=True, slots=True)
class LoggedTable:
    t: float
    table: Table
    confidence: float
    cards: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    """Per pile, the confidence of each card of the table there, bottom first (empty: the log has none)."""
    announced: Announced | None = None
    """What the live tracker announced at this table (None: not known, a table not read from a log)."""

    def card_confidences(self) -> dict[tuple[str, int], float]:
        """(pile, card code) -> confidence, as a reader gives them (the tracker's ``CardConfidences``)."""
        out: dict[tuple[str, int], float] = {}
        for pile, confs in self.cards.items():
            for code, conf in zip(self.table.codes(pile), confs, strict=True):
                out[(pile, code)] = max(out.get((pile, code), 0.0), conf)
        return out


@dataclass(frozen=True, slots=True)
class SessionRecord:
    game: str
    source: str
    tables: tuple[LoggedTable, ...]
    events: tuple[dict[str, Any], ...]
    truncated: bool
    """The last line was cut short (the session ended abruptly); everything before it was read."""
    partial: bool = False
    """The tables are camera readings: face-up cards only, face-down cards not counted."""


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with path.open(encoding="utf-8") as file:
            yield from enumerate(file, start=1)
    except FileNotFoundError:
        raise SessionLogError(f"{path} does not exist") from None
    except IsADirectoryError:
        raise SessionLogError(f"{path} is a directory, not a session log") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SessionLogError(f"cannot read {path}: {error}") from None


def read_session(path: str | Path) -> SessionRecord:
    """Read a session log; a cut-off last line is tolerated, any other damage is one clear error."""
    file = Path(path)
    rows: list[tuple[int, str]] = [(n, line) for n, line in _lines(file) if line.strip()]
    events: list[dict[str, Any]] = []
    truncated = False
    for position, (number, line) in enumerate(rows):
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            if position == len(rows) - 1:
                truncated = True
                break
            raise SessionLogError(f"{file}: line {number} is not JSON: the log is damaged") from None
        if not isinstance(event, dict) or "event" not in event:
            raise SessionLogError(f"{file}: line {number} is not a session event")
        events.append(event)
    if not events or events[0].get("event") != "start" or events[0].get("format") != LOG_FORMAT:
        raise SessionLogError(f"{file} is not a Cadogan session log (it must start with a 'start' event)")
    if events[0].get("version") != LOG_VERSION:
        raise SessionLogError(f"{file}: session log version {events[0].get('version')!r} is not supported")
    tables: list[LoggedTable] = []
    for position, event in enumerate(events):
        if event["event"] != "table":
            continue
        try:
            table, _ = read_table(event["table"])
        except (CadoganError, KeyError) as error:
            raise SessionLogError(f"{file}: a table at t={event.get('t')} cannot be read: {error}") from None
        cards = _card_confidences(file, event, table)
        t, confidence = float(event.get("t", 0.0)), float(event.get("confidence", 1.0))
        tables.append(LoggedTable(t, table, confidence, cards, _announced(file, events, position)))
    reading = events[0].get("reading")
    partial = reading == "partial" if reading is not None else _looks_partial(tables)
    game, source = str(events[0].get("game", "")), str(events[0].get("source", ""))
    return SessionRecord(game, source, tuple(tables), tuple(events), truncated, partial)


def _announced(file: Path, events: list[dict[str, Any]], position: int) -> Announced:
    """What the live tracker announced with the table event at ``position``: the events after it logged at its
    time, up to the next table."""
    moves: list[str] = []
    illegal_at, reason, misdeal, retracts = None, "", False, []
    t = events[position].get("t")
    for event in events[position + 1 :]:
        if event["event"] == "table" or event.get("t") != t:
            break
        if event["event"] == "misdeal":
            misdeal = True
        elif event["event"] in ("move", "illegal"):
            logged = event.get("moves", [])
            if not isinstance(logged, list) or not all(isinstance(m, str) for m in logged):
                raise SessionLogError(f"{file}: the moves at t={t} are not a list of move notations")
            if event["event"] == "illegal" and len(logged) == 1:
                illegal_at, reason = len(moves), str(event.get("text", ""))
            moves += logged
            taken = event.get("retracts", [])
            if not isinstance(taken, list) or not all(isinstance(m, str) for m in taken):
                raise SessionLogError(f"{file}: the moves taken back at t={t} are not a list of move notations")
            retracts += taken
    return Announced(tuple(moves), illegal_at, reason, misdeal, tuple(retracts))


def _card_confidences(file: Path, event: dict[str, Any], table: Table) -> dict[str, tuple[float, ...]]:
    """A table event's per-card confidences, checked against its table (logs written before them have none)."""
    raw = event.get("cards", {})
    where = f"{file}: the card confidences of the table at t={event.get('t')}"
    if not isinstance(raw, dict):
        raise SessionLogError(f"{where} are not a mapping of piles")
    out: dict[str, tuple[float, ...]] = {}
    for pile, confs in raw.items():
        if pile not in table.pile_ids:
            raise SessionLogError(f"{where} name a pile the game does not have: {pile!r}")
        if not isinstance(confs, list) or len(confs) != len(table.codes(pile)):
            raise SessionLogError(f"{where} do not match the cards of {pile}")
        if not all(isinstance(c, (int, float)) and not isinstance(c, bool) and 0.0 <= c <= 1.0 for c in confs):
            raise SessionLogError(f"{where} are not numbers between 0 and 1 ({pile})")
        out[pile] = tuple(float(c) for c in confs)
    return out


def _looks_partial(tables: list[LoggedTable]) -> bool:
    """Logs written before the start event named its kind of reading: camera readings count no face-down
    card anywhere, not even in the stock."""
    return bool(tables) and all(
        entry.table.face_down_count(pile) == 0 for entry in tables for pile in entry.table.pile_ids
    )
