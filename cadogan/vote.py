"""The card-by-card vote over readings of one still table, and how the engine's model completes it.

A reader names only part of the cards in each frame, misnames a few and sees the odd card that is not there, so
no whole reading is trusted: ``Evidence`` votes the readings since the table last moved card by card (a card's
place is where most readings saw it; its confidence grows with every reading that agrees; a card the reader
names only doubtfully brings nothing new). ``voted`` is the vote as a table, ``completed`` the vote completed by
the model (a card the model has that no reading puts elsewhere stays where it was), and ``realigned`` puts back
a reading whose piles the reader put one or two piles over. The tracker (``cadogan.tracker``) explains the
result as moves.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from engine.cards import CARDS, UNKNOWN
from engine.rules import Role
from engine.table import Table

CardConfidences = Mapping[tuple[str, int], float]
"""A reading's confidence in each card it names: (pile, card code) -> confidence (0-1). A card not listed has
the reading's own confidence."""


class Evidence:
    """The card-by-card vote over readings of one still table."""

    def __init__(
        self,
        readings: list[tuple[Table, float]],
        cards: Sequence[CardConfidences | None] | None = None,
        *,
        floor: float = 0.0,
        known: frozenset[tuple[int, str]] = frozenset(),
        new_floor: float = 0.0,
        model_cards: frozenset[int] = frozenset(),
        left_out: frozenset[tuple[int, str]] = frozenset(),
    ) -> None:
        """``floor``: a card the reader names with its own confidence (``cards``) is left out of the vote at a
        place where no reading named it with at least this confidence, unless it is ``known`` there (the
        last accepted table has it there): a recogniser's misreads repeat from frame to frame, so a vote
        cannot outvote them, but they are read unsure every time (measured on recordings: of the cards read
        in at least half the readings of a still table and never at 0.5 or above, more than half were not
        there). A doubtful reading may confirm what the engine already knows, not bring something new."""
        self.n = len(readings)
        self.readings = tuple(readings)
        """The readings voted over, and each one's own card confidences (another vote over the same readings is built
        from these: ``Tracker._strict``)."""
        self.read_cards = tuple(cards) if cards is not None else None
        self.game = readings[0][0].game
        self.pile_ids = readings[0][0].pile_ids
        self.seen: dict[int, Counter[str]] = {}
        """card -> pile -> readings that saw it there."""
        self._conf: dict[tuple[int, str], list[float]] = {}
        self._card_conf: dict[tuple[int, str], list[float]] = {}
        """The same with each card's own confidence where the reading gave one."""
        self._rank: dict[tuple[int, str], list[float]] = {}
        self._orders: dict[str, list[dict[int, int]]] = {}
        """Per pile, each reading's face-up cards with their places (0 the lowest): see ``by_rank``."""
        self._slots: dict[str, list[dict[int, int]]] = {}
        """Per waste (a fan), each reading's face-up cards with their places in the fan, unknown and doubtful
        cards counted (0 the lowest): see ``unread_between``."""
        self.sizes: dict[str, list[int]] = {p: [] for p in self.pile_ids}
        """Per pile, how many face-up cards each reading named there (those left in the vote)."""
        self.named: dict[str, list[tuple[int, ...]]] = {p: [] for p in self.pile_ids}
        """Per pile, the face-up cards each reading named there, doubtful ones too (``raw_sizes`` counts them)."""
        self.downs: dict[str, Counter[tuple[int, ...]]] = {p: Counter() for p in self.pile_ids}
        self.confidences = [conf for _, conf in readings]
        self.tops: Counter[tuple[int, str]] = Counter()
        """(card, pile) -> readings in which the card was the pile's top card."""
        owns = [cards[r] if cards is not None and r < len(cards) else None for r in range(self.n)]
        self.per_card = any(own is not None for own in owns)
        """Did the reader give cards their own confidences (else a doubtful card cannot be told apart)?"""
        best: dict[tuple[int, str], float] = {}
        for (table, conf), own in zip(readings, owns, strict=True):
            if own is None:
                continue  # a reader that gives no card its own confidence: nothing to tell doubtful cards by
            for pile in self.pile_ids:
                for card in face_up(table, pile):
                    if card != UNKNOWN:
                        best[(card, pile)] = max(best.get((card, pile), 0.0), own.get((pile, card), conf))
        self.doubtful = frozenset(
            key
            for key, sure in best.items()
            if key not in known and (sure < floor or (key[0] not in model_cards and sure < new_floor))
        ) | frozenset(left_out)
        """(card, pile) left out of the vote: not known there, and never read there with ``floor`` confidence (or,
        for a card not in ``model_cards``, with ``new_floor``); and those in ``left_out``."""
        self.doubtful_support: Counter[tuple[int, str]] = Counter()
        """Readings that named a doubtful card at the place (the deal's layout may still call for a card there)."""
        for r, (table, conf) in enumerate(readings):
            own = owns[r]
            for pile in self.pile_ids:
                codes = table.codes(pile)
                down = table.face_down_count(pile)
                self.downs[pile][codes[:down]] += 1
                named = [c for c in codes[down:] if c != UNKNOWN]
                self.named[pile].append(tuple(named))
                up = [c for c in named if own is None or (c, pile) not in self.doubtful]
                self.doubtful_support.update((c, pile) for c in dict.fromkeys(named) if (c, pile) in self.doubtful)
                self.sizes[pile].append(len(up))
                if up:
                    self.tops[(up[-1], pile)] += 1
                if len(up) > 1 and table.game.pile(pile).role is Role.WASTE:
                    places = {card: k for k, card in enumerate(codes[down:]) if card != UNKNOWN}
                    self._slots.setdefault(pile, []).append({card: places[card] for card in up})
                unique = list(dict.fromkeys(up))
                if len(unique) > 1:
                    self._orders.setdefault(pile, []).append({card: k for k, card in enumerate(unique)})
                for k, card in enumerate(unique):
                    self.seen.setdefault(card, Counter())[pile] += 1
                    self._conf.setdefault((card, pile), []).append(conf)
                    mine = conf if own is None else own.get((pile, card), conf)
                    self._card_conf.setdefault((card, pile), []).append(mine)
                    self._rank.setdefault((card, pile), []).append(k / max(1, len(up) - 1) if len(up) > 1 else 1.0)

    @functools.cached_property
    def raw_sizes(self) -> dict[str, list[int]]:
        """Per pile, how many face-up cards each reading named there, doubtful ones too (a pile is read short only
        if no card at all was read there; ``sizes`` counts those left in the vote)."""
        return {pile: [len(named) for named in readings] for pile, readings in self.named.items()}

    def support(self, card: int, pile: str) -> int:
        return self.seen.get(card, Counter())[pile]

    def place(self, card: int) -> tuple[str, int] | None:
        """Where the readings saw ``card``, each reading counting with the card's own confidence, and how many
        readings saw it there (None when never seen, or a tie): a card read sure in one pile and unsure in
        another, as often, is where it was read sure (a misread repeats in every frame, at low confidence)."""
        counts = self.seen.get(card)
        if not counts:
            return None
        weight = {pile: round(sum(self._card_conf[(card, pile)]), 6) for pile in counts}
        ranked = sorted(counts, key=lambda pile: weight[pile], reverse=True)[:2]
        if len(ranked) > 1 and weight[ranked[1]] == weight[ranked[0]]:
            return None
        return ranked[0], counts[ranked[0]]

    def confidence(self, card: int, pile: str) -> float:
        """The card at ``pile``: the surest reading counts fully, each other agreeing reading half (readings of
        one still table are not independent), scaled down by the readings that saw the card elsewhere. Each
        reading counts with its least sure card: an accusation must not rest on a reading that was unsure of
        any card (measured: with each card's own confidence, a real illegal move and a repeating misread look
        alike; see ``card_confidence``)."""
        return self._combined(card, pile, self._conf)

    def card_confidence(self, card: int, pile: str) -> float:
        """As ``confidence``, from the card's own confidence in each reading (where the reader gave one)."""
        return self._combined(card, pile, self._card_conf)

    def card_reads(self, card: int, pile: str) -> list[float]:
        """The card's own confidence in each reading that saw it at ``pile``."""
        return list(self._card_conf.get((card, pile), []))

    def best_card(self, card: int, pile: str) -> float:
        """The card's own highest confidence in any reading that saw it at ``pile`` (0 if none did)."""
        return max(self._card_conf.get((card, pile), [0.0]))

    def _combined(self, card: int, pile: str, source: dict[tuple[int, str], list[float]]) -> float:
        confs = sorted(source.get((card, pile), []), reverse=True)
        if not confs:
            return 0.0
        doubt = (1.0 - confs[0]) * math.prod(math.sqrt(max(0.0, 1.0 - c)) for c in confs[1:])
        here = len(confs)
        total = sum(self.seen[card].values())
        return (1.0 - doubt) * here / total

    def orders(self, pile: str) -> list[dict[int, int]]:
        """Each reading of ``pile`` that showed two cards or more: its cards and their places (0 the lowest)."""
        return self._orders.get(pile, [])

    def unread_between(self, pile: str, lower: int, upper: int, strays: frozenset[int] = frozenset()) -> int:
        """How many cards lie between ``lower`` and ``upper`` in a waste's fan that the readings name no card
        at (unknown cards of a reading, or cards left out of the vote as doubtful): the most common count over
        the readings that show both, the fewer on a tie; 0 when none shows both. A place read as one of
        ``strays`` (cards that lie elsewhere, read out of place) holds no card of the fan."""
        counts = Counter(
            places[upper]
            - places[lower]
            - 1
            - sum(1 for card, k in places.items() if card in strays and places[lower] < k < places[upper])
            for places in self._slots.get(pile, [])
            if lower in places and upper in places and places[upper] > places[lower]
        )
        if not counts:
            return 0
        return max(counts, key=lambda gap: (counts[gap], -gap))

    def rank(self, card: int, pile: str) -> float:
        """Mean relative height of ``card`` in ``pile`` over the readings (0 bottom, 1 top)."""
        ranks = self._rank.get((card, pile), [1.0])
        return sum(ranks) / len(ranks)

    def down(self, pile: str) -> tuple[int, ...]:
        return self.downs[pile].most_common(1)[0][0]


def face_up(table: Table, pile: str) -> tuple[int, ...]:
    """The face-up cards of ``pile``, bottom first."""
    return table.codes(pile)[table.face_down_count(pile) :]


def realigned(
    model: Table, reading: Table, cards: CardConfidences | None, partial: bool
) -> tuple[Table, CardConfidences | None]:
    """``reading`` with its piles put back where they belong when the reader put the whole table one or two
    piles over (a layout fit gone wrong: every card of a row read one column to the right): the shift of
    the pile order that puts at least ``3`` more of the cards the model shows back where the model has them
    than the reading as it is, and twice as many; cards it would move into a pile of another kind are left
    out. Otherwise ``reading`` as it is. A legal move changes two or three piles, never the whole table."""
    ids = list(model.pile_ids)
    known = {card: pile for pile in ids for card in in_sight(model, pile, partial)}
    read = [(pile, card) for pile in ids for card in face_up(reading, pile) if card in known]

    def mapped(pile: str, shift: int) -> str | None:
        k = ids.index(pile) - shift
        if not 0 <= k < len(ids) or model.game.pile(ids[k]).role is not model.game.pile(pile).role:
            return None
        return ids[k]

    def hits(shift: int) -> int:
        return sum(1 for pile, card in read if mapped(pile, shift) == known[card])

    here = hits(0)
    shift = max((-2, -1, 1, 2), key=hits)
    if hits(shift) < max(3, 2 * here, here + 3):
        if not partial:
            return reading, cards
        reading, cards = _column_put_back(model, reading, cards, known)
        reading, cards = _foundation_put_back(model, reading, cards, known)
        return _suit_put_back(model, reading, cards)
    piles: dict[str, list[int]] = {pile: [] for pile in ids}
    moved: dict[tuple[str, int], float] = {}
    for pile in ids:
        target = mapped(pile, shift)
        if target is None:
            continue
        piles[target] = list(face_up(reading, pile))
        if cards is not None:
            moved.update({(target, card): conf for (where, card), conf in cards.items() if where == pile})
    table = Table(model.game, [piles[p] for p in ids], [0] * len(ids), passes=reading.passes, stage=reading.stage)
    return table, (moved if cards is not None else None)


def _column_put_back(
    model: Table, reading: Table, cards: CardConfidences | None, known: dict[int, str]
) -> tuple[Table, CardConfidences | None]:
    """``reading`` with a tableau column put back where the reader put it one column over, into a column the
    model has empty: the column it read empty holds, in the model, 2 or more of those cards and nothing
    face down. Moving such a whole column into the empty one next to it is no move a player makes (it leaves
    the table as it was), a layout fit gone wrong for one column is (measured: 4 readings in a row of k-illegal-2
    with the real recogniser, which became "only a king may fill column 2")."""
    ids = list(model.pile_ids)
    tableau = [p for p in ids if model.game.pile(p).role is Role.TABLEAU]
    piles = {pile: list(face_up(reading, pile)) for pile in ids}
    moves: dict[str, str] = {}
    for k, pile in enumerate(tableau):
        if model.codes(pile) or not piles[pile]:
            continue
        for home in tableau[max(0, k - 1) : k + 2]:
            if home == pile or piles[home] or model.face_down_count(home) or home in moves.values():
                continue
            homes = [known.get(card) for card in piles[pile] if card in known]
            if homes.count(home) >= 2 and all(where == home for where in homes):
                moves[pile] = home
                break
    return _piles_moved(model, reading, cards, piles, moves)


def _foundation_put_back(
    model: Table, reading: Table, cards: CardConfidences | None, known: dict[int, str]
) -> tuple[Table, CardConfidences | None]:
    """``reading`` with a foundation's cards put back on the foundation the model has them on, when the reader
    saw that one empty and its cards on a foundation the model has empty. Moving a foundation onto an empty one
    is no move a player makes (the foundations are alike), a row of foundations read one place over is
    (measured: the demo with session 10's models, its ace of hearts read on foundation 2 and announced as
    "cards may not be taken from foundation 1")."""
    ids = list(model.pile_ids)
    foundations = [p for p in ids if model.game.pile(p).role is Role.FOUNDATION]
    piles = {pile: list(face_up(reading, pile)) for pile in ids}
    moves: dict[str, str] = {}
    for pile in foundations:
        if model.codes(pile) or not piles[pile]:
            continue
        homes = {known[card] for card in piles[pile] if card in known}
        home = homes.pop() if len(homes) == 1 else None
        if home in foundations and home != pile and not piles[home] and home not in moves.values():
            moves[pile] = home
    return _piles_moved(model, reading, cards, piles, moves)


COVERED_SUIT = 0.6
"""The confidence a covered card read as another of its rank keeps once read as the model's card
(``_suit_put_back``): it confirms the card in place (above ``Tracker.new_card``) but is no sure read (below
``Tracker.sure_card``): its suit was not seen."""


def _suit_put_back(model: Table, reading: Table, cards: CardConfidences | None) -> tuple[Table, CardConfidences | None]:
    """``reading`` with a covered card of a column read as another card of its rank put back as the model's card
    there, when the cards under it are read as the model has them and the model's card is read nowhere: in a
    tight fan the next card hides the suit's pip under the rank, and the reader guesses the suit (measured:
    c-legal-2, column 2's two of diamonds read as the two of hearts at up to 0.93 once the ace of clubs lay on
    it; the change was unexplained and the game lost). Swapping a covered card for another of its rank is no
    move a player makes between two still tables."""
    ids = model.pile_ids
    read_anywhere = {card for pile in ids for card in face_up(reading, pile)}
    piles = {pile: list(face_up(reading, pile)) for pile in ids}
    swapped: dict[tuple[str, int], int] = {}
    for pile in ids:
        if model.game.pile(pile).role is not Role.TABLEAU:
            continue
        mine, read = face_up(model, pile), piles[pile]
        for k, card in enumerate(read[:-1]):  # covered cards only: a column's top card shows its whole index
            if k >= len(mine) or read[:k] != list(mine[:k]):
                break
            ours = mine[k]
            if UNKNOWN in (ours, card) or ours == card or ours in read_anywhere:
                continue
            if CARDS[ours].rank == CARDS[card].rank:
                read[k] = ours
                swapped[(pile, card)] = ours
    if not swapped:
        return reading, cards
    table = Table(model.game, [piles[p] for p in ids], [0] * len(ids), passes=reading.passes, stage=reading.stage)
    if cards is None:
        return table, None
    out = dict(cards)
    for (pile, card), ours in swapped.items():
        out[(pile, ours)] = min(out.pop((pile, card), COVERED_SUIT), COVERED_SUIT)
    return table, out


def _piles_moved(
    model: Table,
    reading: Table,
    cards: CardConfidences | None,
    piles: dict[str, list[int]],
    moves: dict[str, str],
) -> tuple[Table, CardConfidences | None]:
    """``reading`` (its face-up cards per pile: ``piles``) with each pile of ``moves`` put on its home pile."""
    if not moves:
        return reading, cards
    for pile, home in moves.items():
        piles[home], piles[pile] = piles[pile], []
    ids = model.pile_ids
    table = Table(model.game, [piles[p] for p in ids], [0] * len(ids), passes=reading.passes, stage=reading.stage)
    if cards is None:
        return table, None
    return table, {(moves.get(where, where), card): conf for (where, card), conf in cards.items()}


def voted(evidence: Evidence, need: int, shape: dict[str, int] | None = None, doubtful: bool = False) -> Table:
    """The readings voted card by card: each card where most readings saw it, if ``need`` of them did, in the
    order the readings show; but no card of a pile where the cards that fall short were read as often (a
    card read as 7H twice, 7D once and 7C once is none of them). With a ``shape`` (face-up cards per pile, of
    the deal), a pile short of it is
    filled with the cards fewer readings saw there, and with ``doubtful``, then with doubtful cards."""
    piles: dict[str, list[int]] = {p: [] for p in evidence.pile_ids}
    weak: dict[str, list[tuple[int, int]]] = {p: [] for p in evidence.pile_ids}
    for card in evidence.seen:
        place = evidence.place(card)
        if place is None:
            continue
        pile, count = place
        if count >= need:
            piles[pile].append(card)
        else:
            weak[pile].append((count, card))
    for pile, cards in piles.items():  # a pile whose cards are not clearly read more often than others
        rivals = sum(count for count, _ in weak[pile])
        if any(evidence.support(card, pile) <= rivals for card in cards):
            weak[pile] += [(evidence.support(card, pile), card) for card in cards]
            cards.clear()
    if shape is not None:
        for pile, want in shape.items():
            extra = sorted(weak[pile], reverse=True)[: max(0, want - len(piles[pile]))]
            piles[pile] += [card for _, card in extra]
        # still short: the deal's layout says a card lies there, and a doubtful reading is the best guess at it
        # (it is never enough to show a misdeal: see ``Tracker._misdeal_confidence``)
        taken = {card for cards in piles.values() for card in cards}
        fill = sorted(evidence.doubtful_support.items(), key=lambda item: -item[1]) if doubtful else []
        for (card, pile), count in fill:
            if card not in taken and len(piles[pile]) < shape.get(pile, 0) and count >= need:
                piles[pile].append(card)
                taken.add(card)
    ordered = [by_rank(evidence, p, piles[p]) for p in evidence.pile_ids]
    downs = [evidence.down(p) for p in evidence.pile_ids]
    return Table(
        evidence.game, [list(down) + up for down, up in zip(downs, ordered, strict=True)], [len(d) for d in downs]
    )


def by_rank(evidence: Evidence, pile: str, cards: list[int]) -> list[int]:
    """``cards`` in the order the readings show them in ``pile`` (bottom first): by their mean relative height,
    then two neighbours swapped while more of the readings that showed both put them the other way round. A
    reading that misses a card shifts the others' relative heights: a fan read [6D 10C 8D 5H] once, then
    [6D 10C] and [6D 10C 5H], put the 10C's mean height above the 8D's (the noisy reader, seed 1, c-legal-1: the
    fan learnt in the wrong order, the next move unexplained, a false accusation later)."""
    order = sorted(cards, key=lambda card: evidence.rank(card, pile))
    if len(order) < 2:
        return order
    below: Counter[tuple[int, int]] = Counter()
    for places in evidence.orders(pile):
        shown = [card for card in order if card in places]
        for a, b in combinations(shown, 2):
            below[(a, b) if places[a] < places[b] else (b, a)] += 1
    for _ in range(len(order)):  # bounded: readings that contradict each other in a cycle must not loop
        swapped = False
        for k in range(len(order) - 1):
            a, b = order[k], order[k + 1]
            if below[(b, a)] > below[(a, b)]:
                order[k], order[k + 1] = b, a
                swapped = True
        if not swapped:
            break
    return order


def completed(
    model: Table,
    evidence: Evidence,
    need: int,
    *,
    drop_unseen: bool,
    partial: bool,
    fanned: bool = True,
    carry: bool = False,
    strays: frozenset[int] = frozenset(),
) -> tuple[Table, int]:
    """What the readings show, completed by the engine's knowledge: a face-up card of the model stays where it
        was unless ``need`` readings (and more than saw it there) put it elsewhere; a card the model does not show
        is placed where ``need`` readings saw it, on top of what stays. With ``drop_unseen``, a card of the model
        no reading saw is left out. In ``partial`` readings, a face-up card the model does not know is left out
    too. With ``carry``, the model's face-up cards under a card the readings put elsewhere that no reading saw
    go with it, under it (a run moved as one; a reader that names only a column's top card never sees them).
    Returns the table and the number of cards the model shows that it leaves out though no reading put
    them anywhere (cards that vanished unseen)."""
    placed: dict[int, str] = {}
    for card in evidence.seen:
        place = evidence.place(card)
        if place is not None and place[1] >= need:
            placed[card] = place[0]
    under: dict[int, list[int]] = {}
    if carry:
        under = _carried(model, evidence, placed)
        placed.update({card: placed[top] for top, cards in under.items() for card in cards})
    carried = {card for cards in under.values() for card in cards}
    unseen = 0
    piles: list[list[int]] = []
    downs: list[int] = []
    for pile in model.pile_ids:
        kept = []
        stays = []  # the model's face-up cards that stay here, never-read ones too
        for card in face_up(model, pile):
            if placed.get(card, pile) != pile:
                continue  # seen elsewhere
            unread = card == UNKNOWN or evidence.support(card, pile) == 0
            if drop_unseen and unread and (card != UNKNOWN or partial):
                continue  # no reading saw it here (an unknown card of a full reading stays: it is read as unknown)
            stays.append(card)
            if not (partial and card == UNKNOWN):  # a face-up card never read, which a camera reading cannot list
                kept.append(card)
        new = [card for card, where in placed.items() if where == pile and card not in kept and card not in carried]
        kept += [c for card in by_rank(evidence, pile, new) for c in (*under.get(card, ()), card)]
        if partial and model.game.pile(pile).role is not Role.TABLEAU:
            # A packet shows its top card (a fanned waste a few more, which the model may not know yet): the
            # cards the readings saw there in their order (``fanned``) or only the one they put highest; the
            # model's top card when no reading saw any card there, unknown if the model does not know it (not a
            # known card under it: a waste whose top went up shows the unread card under it, not its JC below).
            shown = [
                card
                for card in kept
                if card != UNKNOWN and evidence.support(card, pile) >= (1 if card == kept[-1] else need)
            ]
            shown = by_rank(evidence, pile, shown)
            if fanned:  # the places between two shown cards where the readings show an unread card
                shown = [
                    c
                    for k, card in enumerate(shown)
                    for c in (
                        *[UNKNOWN] * (evidence.unread_between(pile, shown[k - 1], card, strays) if k else 0),
                        card,
                    )
                ]
            kept = (shown if fanned else shown[-1:]) if shown else stays[-1:]
        unseen += sum(1 for card in in_sight(model, pile, partial) if card not in kept and card not in placed)
        down = evidence.down(pile)
        piles.append([*down, *kept])
        downs.append(len(down))
    return Table(model.game, piles, downs, stage=model.stage), unseen


def _carried(model: Table, evidence: Evidence, placed: dict[int, str]) -> dict[int, list[int]]:
    """Per tableau card the readings put on another pile than the model's, the model's face-up cards right under
    it (bottom first) that no reading saw anywhere and that go nowhere else."""
    out: dict[int, list[int]] = {}
    for pile in model.pile_ids:
        if model.game.pile(pile).role is not Role.TABLEAU:
            continue
        up = face_up(model, pile)
        for k, card in enumerate(up):
            if card == UNKNOWN or placed.get(card, pile) == pile:
                continue
            below: list[int] = []
            for other in reversed(up[:k]):
                if other == UNKNOWN or other in placed or other in evidence.seen:
                    break
                below.insert(0, other)
            if below:
                out[card] = below
    return out


def in_sight(model: Table, pile: str, partial: bool) -> list[int]:
    """The known cards of ``pile`` a reading can see (of a squared packet in ``partial`` readings, the top)."""
    up = face_up(model, pile)
    if partial and model.game.pile(pile).role is not Role.TABLEAU:
        up = up[-1:]
    return [card for card in up if card != UNKNOWN]


def cards_seen_on(evidence: Evidence, pile: str) -> list[int]:
    """The cards some reading saw on ``pile``."""
    return [card for card, counts in evidence.seen.items() if counts[pile] > 0]
