"""Tracking over frames: read the table when it is still, explain each change as moves, never cry wolf.

The tracker gets one reading per frame (an observed ``Table``, or None when hands cover the cards or
nothing was read) with a confidence. A reader names only part of the cards in each frame, misnames a few
and sees the odd card that is not there, so no whole reading is trusted: the readings since the table last
moved are voted *card by card* (``cadogan.vote.Evidence``: a card's place is where most readings saw it; it counts as
seen there when ``seen_in`` readings agree; its confidence grows with every reading that agrees).

The engine completes the vote (``completed``): a card of the last accepted table that no reading puts elsewhere stays
where it was, and the voted table is accepted only when the engine explains it: the first one as a deal layout, every
later one as up to ``max_moves`` legal moves from the last table. Of two explanations the one that needs fewer cards
nobody saw wins, then the one that does not hide below a waste's fan two cards read there under another (``FAN_BURIED``;
one that does waits for ``fan_in_view_reads`` readings), then the one that leaves out fewer cards read in the fan, then
the one with fewer moves; one that leans on a card no reading saw where it puts it (or on a new top card few readings
saw on top) waits for more readings, up to ``patience``; a table taken as unchanged is read on while the vote puts a
card where no reading saw it before (up to ``vote_kept_reads`` readings). A change that only an illegal move explains
(alone, taken from under a card, or with a legal move before or after it), and a misdeal, are announced only when every
card they rest on was seen where they put it by ``votes`` readings with a combined confidence of ``confident``, the
moved card's old place was itself seen that well, and the same mistake was found at two looks in a row; a move of a
face-down card is never announced. Otherwise the tracker waits and, after ``patience`` readings, asks the player to hold
still. A single misread frame therefore never becomes an announced mistake. The deal is read on (up to ``stray_reads``
readings) while its vote leaves out a card as many readings saw as a vote needs (misreads scattered over its pile
outvote it: it may be a card dealt too many). A deal that went by unread (the table moved before it was read clearly) is
not checked afterwards: the game is followed from the first table read clearly. Where the reader also counts the backs
it sees per pile, a pile read blank at the deal is "dealt short" only if it is a cascade that shows no back either (it
is empty); any other blank pile may hold a card the camera could not read, so the player is asked about it and the model
holds an unknown card there until a reading names it (a deck whose indices the recogniser cannot read would otherwise be
announced as a misdeal).

Where the reader gives each card its own confidence, a recogniser's misreads that repeat in every frame
(which a vote cannot outvote) are told apart by it: a card never read with ``new_card`` confidence at a
place where the last accepted table does not have it is left out of the vote (it may confirm a known card,
never bring a new one), a card read at two places counts where it was read surer, and a deal that shows
more cards than its layout only because of such cards is the correct deal; a misdeal about one pile rests on
that pile's cards, once every card of the deal is seen by ``votes`` readings. A reading whose piles are all one
or two piles over (the reader's layout fit gone wrong), or with one column read in the empty column next to it,
is put back by the cards the model knows. The model's face-up cards that no reading saw, right under a card
read on another pile, may have gone with it (a run moved as one: a reader that names only a column's top card
never sees them), and a card the model had confirmed, now right under the card an accused move put on it and
read nowhere, may back the accusation (it is covered). When no legal move explains the vote, the vote in which
a card the model does not have anywhere counts only if read with ``sure_card`` confidence is searched for a
mistake, and after ``patience`` readings for moves too (a misread repeated in every frame hides the change), and
then without one or two of the new cards it places (a phantom read sure in most frames is no move's doing),
unless one of them may have been pulled from under a card the model holds unread, read sure enough to accuse. After
``relearn_after`` still tables in a row that no move explains, the tracker takes the table in view as the
game under way (``LOST``: nothing before it is checked, nobody accused). An accusation never rests on a
card, or an empty pile, that the readings did not see as the model has it, on a pile where the readings saw
a card the change does not put there, on a reading with fewer known cards in place than moved, on a card
whose pile ``2 * patience`` readings in a row read empty (it may have left unseen), nor, in a game taken up
midway, on a foundation (what lies under its top card is a guess) or on a card the moved cards were put on that
is not confirmed (a card off its cascade's build, an 8 read on a 5, is never confirmed there: in a game played
by the rules it is a misreading).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial as bind
from itertools import combinations, pairwise
from typing import Any, TypeVar, cast

from cadogan.session import Announced
from cadogan.vote import CardConfidences as CardConfidences
from cadogan.vote import Evidence as Evidence
from cadogan.vote import by_rank, cards_seen_on, completed, face_up, in_sight, realigned, voted
from engine.cards import CARDS, JACK, UNKNOWN, full_deck, twin
from engine.errors import CadoganError
from engine.moves import Move
from engine.reference import builds_on, reference_is_legal
from engine.rules import Role
from engine.status import Problem, problems
from engine.table import Outcome, Stage, Table
from engine.verify import (
    Explanation,
    agrees,
    explain,
    judged,
    reveal,
    table_after,
    why_illegal,
    with_card,
    with_piles,
)
from vision.assemble import FAN_PLACES

T = TypeVar("T")


LOST = "I lost track of the game: I follow it from here"
"""Said when the tracker gives up explaining and takes the table in view as the game under way: the changes
in between were not checked (a verdict counts it as a change no move explains, even when moves follow)."""


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
    retracts: tuple[str, ...] = ()
    """With a move: the moves followed last that it takes back, misread (``Tracker.last_move_redone``); its own
    moves were made instead of them."""
    cards: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    """With a still table: per pile, the confidence of each card the table lists there (in its order): how
    sure the readings of this still table are that the card is there (0 for an unknown card, and for a card
    the tracker keeps where it was that no reading of it saw, the confidence it had when last seen)."""


READS_KEPT = 64
"""Readings of a card at a place that ``Tracker`` remembers (its "read sure" rules look at their best and median)."""


@dataclass
class Tracker:
    window: int = 8
    """Readings of one still table the vote keeps (the newest)."""
    votes: int = 3
    """Readings needed before anything is accepted, and readings that must see the cards a mistake rests on."""
    seen_in: int = 2
    """Readings that must agree on a card's place for the card to count as seen there."""
    patience: int = 6
    """Readings of one still table that cannot be explained before the player is asked to hold still."""
    confident: float = 0.8
    deal_twins_one: bool = True
    """At the deal, a card and its twin (same rank and colour) voted into one pile that holds more cards than any
    reading showed there, and never read together, are one card read both ways: the one fewer readings saw is left
    out (``_twins_one``; mk-misdeal-1, nicu white: column 2's 3C read as the 3C or the 3S from frame to frame, each
    in half the readings, so the vote held three cards where every reading showed two, and the misdeal went
    unjudged)."""
    trim_partly: bool = True
    """A deal read with more cards on a pile than its layout loses the cards too many that could never show a
    misdeal even where another card too many could (see ``_trimmed``); off: only where the rest is a correct deal."""
    misdeal_by_card: bool = False
    """Off by default. On: a problem of one pile (its card count, a card on one it may not lie on) is as sure as that
    pile's cards, each reading counting with the card's own confidence, not with the least sure card it read
    anywhere on the table (a phantom read at 0.24 on another pile made sc-misdeal-1's column 2, a 9S and a 3H read at
    0.7-0.9 in every frame, 0.71 sure, and the deal went by unjudged). Measured on the fresh heldout12 it gave a
    false misdeal (wk-legal-1, ancient egyptians, enrolled: an 8S read 0.83-0.86 card heights from column 3's 8H,
    above or below it by turns, at 0.70-0.73): each reading's least sure card is the guard against such reads."""
    sure_card: float = 0.7
    """A misdeal is announced only if every card it rests on was read at least once with this confidence of
    its own (measured on recordings: no read at 0.7 or above named a card that was not there; a court picture
    read as a card, again in every frame, stays below it)."""
    new_card: float = 0.5
    """A card read only with confidences of its own below this is not taken where the last accepted table did
    not have it (``Evidence``'s ``floor``): it may confirm a known card, never bring a new one."""
    max_moves: int = 3
    partial: bool = False
    """Readings list only the cards the camera sees (no face-down counts): see ``engine.verify.agrees``."""
    check_deal: bool = True
    """The first still table is the deal: check it (off when joining a game already under way)."""
    stray_reads: int = 12
    """Readings of the deal read on while the vote leaves out a card that as many readings saw on a pile as a vote
    needs (misreads scattered over its pile outvote it): a misdeal must not go by for a few unlucky readings.
    0: off."""
    replaying: bool = False
    """The readings are still tables a tracker already accepted (a session log): each one is taken, and a
    first table whose problems were not sure (logged with a low confidence) is the game under way, followed
    without a misdeal, as the live tracker did."""
    model: Table | None = None
    """What the engine believes is on the table, face-down cards included as far as known."""
    _recent: deque[tuple[Table, float]] = field(default_factory=deque)
    _recent_cards: deque[CardConfidences | None] = field(default_factory=deque)
    """Per reading in ``_recent``, its per-card confidences (None: the reader gave none)."""
    _recent_backs: deque[Mapping[str, int] | None] = field(default_factory=deque)
    """Per reading in ``_recent``, the face-down cards it saw per pile (None: the reader does not look for backs)."""
    _recent_gaps: deque[CardConfidences | None] = field(default_factory=deque)
    """Per reading in ``_recent``, how far below the card under it each cascade card lies (``observe``'s ``gaps``)."""
    _recent_kinds: deque[CardConfidences | None] = field(default_factory=deque)
    """Per reading in ``_recent``, its confidences of "the card or its twin" (``observe``'s ``kinds``)."""
    _known: dict[tuple[int, str], float] = field(default_factory=dict)
    """The last still table's cards: (card, pile) -> the confidence logged for it."""
    _reads: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    """(card, pile) -> the confidences of its own with which readings of still tables named the card there (the
    last ``READS_KEPT``)."""
    _kind_reads: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    """The same, each reading's confidence that the card there is the card or its twin (its rank and colour, for
    ``_read_sure``; see ``fold_twins``)."""
    steady_card: float = 0.6
    """A column's top card counts as read sure for ``doubt_weak_reads`` only if, besides one reading at
    ``sure_card``, half the readings named it there with at least this: an index too blurred to read (a 2 of hearts
    read as the 3 at 0.48-0.52, once at 0.64 and once at 0.71) is sometimes named sure once, and a legal move onto
    it then looked illegal (c-illegal-1, session 16's classifier: 9 moves and both illegal moves lost). Midway
    between ``new_card`` and ``sure_card``, and fitted on two cards, so a guess: k-illegal-1's 4 of hearts, read
    right at 0.62-0.72, must stay sure (its median 0.68), or the red 2 put on it is no longer an illegal move. 0:
    one reading at ``sure_card`` is enough, as before."""
    _ended: bool = False
    _last_unclear: tuple[str, float] | None = None
    _announced: Announced | None = None
    _settled: bool = False
    _latest: tuple[object, ...] | None = None
    _vote: frozenset[tuple[int, str]] | None = None
    _confirmed: set[int] = field(default_factory=set)
    """Cards whose place in the model ``seen_in`` readings of one still table saw: only they can be accused of
    a wrong move (a card the model holds from one reading, or from the engine's guess, may be a misreading
    of the model, not a mistake of the player)."""
    _seen_empty: set[str] = field(default_factory=set)
    """Piles the model has empty that all readings but one of a still table read with no card at all: only
    they can back an accusation about an empty pile (a column taken up empty from a reading that missed its
    cards is not known to be empty: "only a king may fill it" must not rest on it)."""
    _midway: bool = False
    """The model was taken up from a table in view, not from the deal: what lies under a foundation's top card
    (and so, in games like Canfield, the foundations' base rank) is a guess, which no accusation may rest on."""
    _taken_empty: set[str] = field(default_factory=set)
    """Columns the game taken up again has empty where a face-up card may lie unread, that no move followed since
    has changed (see ``taken_empty_doubted``)."""
    _deal_missed: bool = False
    """The table was read still, not clearly enough to be taken as the deal, and has moved since: what is seen
    next may be the game under way, not the deal, and is not checked as a deal."""
    _suspect: str | None = None
    """The mistake the previous look found but did not yet announce (it must be found twice in a row)."""
    _cache: dict[tuple[object, ...], Explanation | None] = field(default_factory=dict)
    _slow: dict[tuple[str, tuple[object, ...]], object] = field(default_factory=dict)
    """Searches for illegal moves already made for a seen table (cleared, like ``_cache``, when the model
    changes): a table nobody can explain is otherwise searched again at every reading."""
    sure_tries: bool = True
    """When no legal move explains the vote, look for a mistake also in the vote in which a card the model does
    not have anywhere counts only if read with ``sure_card`` confidence (a misread repeated in every frame at
    0.5-0.7, such as a court card's picture read as another card, hides it; measured on c-illegal-2)."""
    sure_legal: bool = True
    """After ``patience`` readings that no legal move explains, explain the vote in which a card the model does not
    have anywhere counts only if read with ``sure_card`` confidence (see ``sure_tries``)."""
    new_twins_one: bool = True
    """Once the game is followed, a card the model holds nowhere and its twin (same rank and colour), both voted new
    onto one pile and never read there together, are one card read both ways: the one fewer readings saw is read as
    the other (``_new_twins_one``, as ``deal_twins_one`` at the deal). heldout17's bc-legal-1 (penguins, enrolled): a
    stock turn's 5S read as the 5C in 3 readings and as the 5S in 2, never together; the waste took both, the 5S
    played onto the 6H then left the 5C on the waste where the JC showed, and the game was lost 10 moves later."""
    held_twin_one: bool = True
    """The same for a new card voted onto a pile where the model holds its twin face up, both voted there, never read
    there together, the new card read by fewer readings: it is the model's card read as its twin (once one of two
    twins read by turns was taken, the readings that name the other would make it a new card: another turn). A card
    that really covered its twin on a squared packet is read alone from then on, and outvotes it."""
    in_place_by_turns: bool = True
    """Once the game is followed, a card the model holds nowhere, voted onto a column in the very place of a face-up
    card the model has there (counted from the column's lowest face-up card) that the vote leaves out, where readings
    named the model's card there too (twice at least, and nowhere else more) and never together with the new card,
    is the model's card read as another (``_read_in_place``): no legal move takes a card from a column and puts another
    in its place while the readings still see it there. heldout14's yc-illegal-1 (penguins Canfield, enrolled):
    column 4's 9D read as the 8D in 7 readings of 11 hid the card pulled from under the waste's top (an injected
    mistake) behind "please hold still", and the game was lost."""
    sure_unchanged_doubted: bool = True
    """Where that vote of the cards read sure shows no change but the whole vote, without one or two of the new cards
    it places that readings named instead of a card the model has on that pile, never with it (``_read_instead``),
    shows a legal move, the move is taken: a misread of a card in place keeps the whole vote from a change the other
    new card shows (heldout3's jk-legal-2, penguins, enrolled: a stock turn's KD read in 4 readings of 6 at
    0.54-0.69, column 1's 8D read as the 3D in 3, and the turn was lost). A new card once read with the cards of its
    pile is no such misread: heldout15's zc-legal-1 (egyptians, plain), the 4S played onto the 5D read at 0.50-0.58,
    the 5D mostly unread, is not left out to make a stock turn of the table."""
    carry_runs: bool = True
    """Also complete the vote with the model's unseen face-up cards under a card read on another pile moved with
    it (``completed``'s ``carry``): a run moved as one whose lower cards the reader never names."""
    empty_unconfirms: bool = True
    """A card of the model on a pile that ``2 * patience`` readings in a row read empty (over still tables) is no
    longer confirmed there: it may have left unseen, and backs no accusation until seen there again (measured:
    k-illegal-3, whose jack moved by a missed illegal move was accused of a later move from the column it had
    left; it also drops a late accusation of a move that was right, on the stress reader's c-illegal-1)."""
    _empty_run: dict[str, int] = field(default_factory=dict)
    """Per pile, readings in a row that named no card there."""
    _unread: set[str] = field(default_factory=set)
    """Piles read blank at the deal that the deal puts a card on and the camera could not tell from unread ones
    (see ``_unread_at_deal``): the model holds an unknown card there until a reading names it."""
    doubt_weak_reads: bool = True
    """When no legal move explains the vote, a column's top card that cards were put on and that no reading named
    with ``sure_card`` confidence is tried as an unknown card (``_onto_doubted``): a misread repeated in every
    frame would otherwise turn the legal move onto it into an unexplained change."""
    doubt_weak_waste: float = 0.9
    """A waste card the model learnt from readings that never named it there with this confidence (a fan's card
    read at 0.79 where a squared card under it peeked out) is tried as unknown when the best explanation of a
    change needs two moves or more: if the card read in its place now, surer than it ever was, explains the
    change in fewer moves, that explanation wins (measured on c-legal-2: "`w>f2`" otherwise became "`w>f2` and
    one more turn of the stock", and the model ran a turn ahead of the stock to the stock's end). 0: off."""
    doubt_waste_held: bool = True
    """With ``doubt_weak_waste``: where the explanation with the card doubted accounts for more of the cards read in
    the waste's fan than the model's own (which had to leave a read card out), the card read in the doubted card's
    place need not be surer than it was (sc-illegal-1, ancient egyptians: a KD read as the 9H at 0.64; the fan then
    read "AD KD" was explained as "`w>t2` and one more turn" only by leaving out the AD, known under it; the model
    ran a turn ahead and hid a card taken from under)."""
    dig_unread: bool = True
    """A card the model has nowhere, read on top of a pile, with the rest of the table in place, may have been
    taken from under another card where the model holds an unread face-up card (a waste fan's middle card that
    no reading named): ``dug_out`` also tries those places, the nearest the top first. The card must be read with
    ``sure_card`` confidence and never have been named by a reading before, and every guard of an accusation
    still applies (measured on c-illegal-1, whose 10C taken from under the waste's QH went unannounced and was
    then left out as a phantom; the stress reader's c-legal-1 accused a QH the vote had missed on the waste)."""
    vote_kept: bool = True
    """A still table taken as unchanged while the vote puts a card elsewhere than the model has it (the vote of
    the surest readings alone keeps it in place) is read on, up to ``vote_kept_reads`` readings, before the
    tracker settles (``_vote_elsewhere``): the card may have been moved by an illegal move that two readings of
    six saw (the noisy reader, seed 1, k-illegal-2: the 6H pulled from under the 5S went unannounced, the model
    kept it under the 5S, and a later legal move was accused as "red 6 on red 4"). Not in a game taken up midway
    (after ``LOST``): a model relearnt from one table disagrees with the vote too often (the stress reader lost 4
    moves)."""
    vote_kept_reads: int = 16
    moved_vote_elsewhere: bool = True
    """Moves found on the vote of the surest readings alone that land a card on one no reading of this still table saw
    there, while a reading put it on another pile (``_landed_on_moved``), are read on before they are taken (until
    the player is asked to hold still), as ``vote_kept`` does for a table taken as unchanged (the noisy reader, seed
    1, heldout13's xk-illegal-1: the 3S moved illegally onto the black 5C, read there in 2 readings of 3, and the 2H
    it uncovered were taken for a stock turn and the 2H played onto the 3S kept in place; the illegal move was then
    accused one move late; heldout9's sk-legal-2: the 9C moved onto the 10H, read there once in 3 readings, taken
    for a stock turn and the 8H it uncovered played onto it). Only the card landed on: any card kept in place,
    doubted so, let a phantom read on a cascade gather votes and hide a legal move (heldout6's pk-legal-2, plain
    reader: a 9D read in column 2 in 4 readings of 6); and not where the model has the card's twin in sight on the
    other pile (heldout13's xk-legal-2, penguins, enrolled: column 3's 5S read as the 5C in 4 readings of 6)."""
    _still_reads: int = 0
    """Readings of the still table in view."""
    fan_in_view: bool = True
    """Of the explanations of a change, prefer one that leaves in sight the cards the readings see under another in
    the waste's fan (``_fan_buried``: first after the cards left out unseen), and take one that buries ``FAN_BURIED``
    of them below the fan only after ``fan_in_view_reads`` readings of the still table: zc-legal-1 (ancient
    egyptians, Canfield): the 4D played off the waste onto a column, read there in one reading of six, was taken for a
    stock turn that would have hidden the 3C and 7S read in the fan, and the game was lost; the seventh reading put the
    4D on its column. A model already wrong (its stock a turn behind) follows such a turn after those readings, or,
    where the table moves or the video ends first, at the next change (nc-legal-1 lost its last turn so)."""
    fan_in_view_reads: int = 8
    fan_strays: bool = True
    """A place of the waste's fan read as a card held confirmed on another pile is no unread card of the fan
    (``Evidence.unread_between``'s ``strays``): yk-legal-1 (ancient egyptians, enrolled) read column 3's KS, its backs
    unseen, at the waste's fan between the 7D and the 9H; the vote kept its place as an unread card, a second stock
    turn was made up, and the game was lost two changes later."""
    fan_gaps: bool = True
    """Of the explanations of a change, prefer the one that leaves out fewer cards the readings saw in a waste's fan
    under a card it shows there (``_fan_gaps``; before the number of moves): measured on c-illegal-1, whose played
    waste card and stock turn were explained by the play alone, the new fan's middle card (read in two readings)
    taken for a phantom."""
    fan_gaps_twins: bool = True
    """``fan_gaps`` counts no card left out of a fan whose twin the explanation shows there where no reading showed
    the two together: one index read under two suits (a reader that tells spades from clubs badly), not two
    cards. c-legal-1 (penguins, enrolled): the waste's new top read as the 10S twice and as the 10C three times,
    never together; the vote held both, and the fan [JC ?? 10S 10C] was explained by two stock turns where there
    was one (and a real turn was missed later). Nor is a card whose twin the model holds there after the
    explanation: heldout15's zc-legal-1 (ancient egyptians, enrolled), the waste's top played, the fan then showing
    the 10D (read as the 10H twice) over two cards turned unread: taken for a stock turn too."""
    dug_kept: bool = True
    """No card is left out as a phantom (``leave_out_new``) while it may have been pulled from under another card
    where the model holds an unread one, read sure enough for the accusation (``_dug_sure``)."""
    leave_out_new: bool = True
    """After ``patience`` readings that no legal move explains, explain the vote without one or two of the cards
    it places that the model has nowhere (a phantom read sure enough, in most frames)."""
    turned_unread: bool = True
    """When no legal move explains the vote, a column it shows with no face-up card, where the model holds face-down
    cards and most readings saw backs, gets an unknown card: the card a move turned up, unread (measured on the
    held-out hk-legal-1, kde_penguins, enrolled: a king's run moved off column 7 into a space turned up the KC, read
    in one reading of six; the change went unexplained and the game was lost). The card is then held as a card left
    unread (``_unread``): cards put on it are judged by the cards it may be (``_onto_unread``)."""
    turned_last_unread: bool = True
    """``turned_unread`` also where the model holds one face-down card on the column and no reading saw a back there:
    turned up, the last one leaves none to see (heldout16's ak-legal-1, penguins, enrolled: column 3's 2D played to
    its foundation, the card it uncovered unread; "please hold still" until the next move, and both were lost). Not
    in a game taken up midway, whose face-down counts are the deal's guess."""
    squared_deal: bool = True
    """At the deal, a pile that is not a cascade (a foundation, a reserve, a waste) voted more cards than any reading
    showed there keeps its most-read cards (``_squared``): two names read for one squared card are misreads that
    disagree (measured on the held-out hc-illegal-1, enrolled ancient egyptians: foundation 1's 10C read as the 10D
    in 2 readings of 8, the deal never taken)."""
    taken_empty_doubted: bool = True
    """After the tracker lost the game and took it up again, no accusation rests on a column taken up empty where the
    lost model may have left a card unread (``_empty_unsure``: it held face-down cards there, or a face-up card the
    game taken up holds nowhere), until a move followed since changes it (``_taken_empty``): ak-legal-1 (penguins,
    enrolled) took column 4 up empty where its 8D lay face up alone, read in one reading of six, and announced
    "only a king may fill column 4" for the black 7 put on it; and column 3, whose face-down cards the lost model
    held, likewise. A column whose cards the game taken up holds elsewhere was emptied by the moves missed: a
    non-king put there is still announced (jk-illegal-1). A game taken up at a deal that went by unread doubts its
    empty columns likewise: the deal filled them (bk-misdeal-1, standard, a reader that reads unsure crops twice:
    column 1's QS never read, "only a king may fill column 1, not a red jack" for the JH put on it)."""
    deal_on_leave: bool = True
    """When hands come over the cards before the deal was taken, the deal is judged on the readings made so far,
    with no stray card waited on (``stray_reads``) and no request to hold still (``_last_look``): a player who starts
    at once must not lose the deal (hc-illegal-1: the first move came after 8 still readings)."""
    look_at_end: bool = True
    """When the frames run out (a video's end, a camera gone) while the still table in view is not yet judged, it is
    judged on the readings made so far, as when hands come over the cards before the deal (``finish``): a player
    who stops the recording right after a move must not lose it. (On the recorded games it changed nothing: the two
    that lose a stock turn made half a second before the end, heldout3's jk-legal-2 and heldout18's dk-legal-2, had
    already taken the table as unchanged; see ``sure_unchanged_doubted``.)"""
    _final: bool = False
    """``_last_look`` or ``finish`` is judging the table in view: no more readings will come."""
    twins_moved: bool = True
    """After ``patience`` readings that no legal move explains, explain the vote with each card read below
    ``sure_card`` whose twin (same rank and colour) the model has in sight, and the vote nowhere, taken for that twin
    (``_twins_moved``): a deck whose spades and clubs look alike names a card moved onto a column by its twin in
    every frame (measured on the held-out gc-legal-1, kde_nicu_white: the 7S played from the waste onto column 4 read
    as the 7C at 0.5-0.6, the game lost at the turn after)."""
    under_not_moved: bool = True
    """A change only an illegal move explains is no move where most readings that show the moved card and the card
    it was put on show it under that card: the card lay there all along and the model missed it (``_read_under``;
    measured on the held-out nc-misdeal-1, kde_penguins, the plain recogniser: a game taken up midway with column 1's
    3S unseen under the 2H, the 3S then read as the 3C under the 2H in every reading, and accused as the 3C "taken
    from under the 2 of diamonds" on column 4). An illegal move found with a legal one beside it that such readings
    show is not announced (the player is asked to hold still: heldout13's xk-legal-2, penguins, enrolled, the 5S
    read as the 2C under column 3's 4D in every reading, and "black 2 on red 4" with a stock turn after it)."""
    deal_far: bool = True
    """At the deal, a card read on top of a cascade more than ``far_step`` card heights below the card under it (the
    reader's ``gaps``), in most readings that place it, is no card dealt on it: a cascade shows at most half of
    each card, and nothing dealt lies between (``_near``). It is that card's face: measured on the held-out
    nc-legal-1, kde_ancient_egyptians, the plain recogniser: the 6D's and 7D's pips read as the 9C and 9D 0.63-0.66
    card heights below their indices in every reading, a false misdeal, then a move onto the 7D accused as "black 6
    on red 9". During play a cascade's middle card may go unread, so its top card lies as far below the card read
    under it (penguins: 0.58-0.60), and the rule holds only at the deal."""
    deal_realigned: bool = True
    """At the deal (a camera's readings), a reading the reader put one or two piles over (a layout fit gone wrong: the
    row's first card unread and the stock's back taken for it) is put back against the deal the readings vote,
    as ``realigned`` does against the model once the game is followed (``_deal_aligned``). Measured on heldout2's
    gk-legal-2 (ancient egyptians, enrolled): column 1's 10H unread or misread in every reading, 3 readings of 11
    put the row a column or two over and 3 more put column 2's 4H in column 1, so the vote dealt the 4H to column
    1 and a phantom to column 2; the first move was never followed (5 moves of 24)."""
    far_step: float = 0.5
    """See ``deal_far`` (``vision.assemble``'s cascades show 2-35 % of each card's height)."""
    near_step: float = 0.15
    """See ``_near``: a dealt card lies a cascade's step below the card under it (0.26-0.37 card heights rendered)."""
    twin_would_do: bool = True
    """No move is called illegal that would be legal with the card moved, or the card it landed on, read as its twin
    (same rank and colour), where the model holds the twin nowhere and never read the card sure: only a suit the
    reader may have misread decides it (heldout10's uk-legal-2, penguins, enrolled: a 2D learnt as the 2H, read at
    0.4-0.71, played onto the AD: "the 2 of hearts may not go on the ace of diamonds: it must follow suit"). A colour
    or a rank, the injected mistakes', is the same for twins, so no such accusation is touched. Nor is a card called
    taken from under a pile's top card that is its twin, where the top card could have gone there: the top card
    went, read as its twin (heldout5's nc-misdeal-1, penguins' probe fitted firmer: the waste's 2D played onto the
    3S, read there as the 2H, a card the model had deeper in the waste: "the 2 of hearts was taken from under")."""
    twin_followed: bool = True
    """Where ``twin_would_do`` keeps a move from being called illegal, the move is followed as the legal move it is
    with that card taken for its twin (in the model, and where the reading shows it after the move): the card was
    the twin all along. Before, the tracker asked the player to hold still until the next move, and then could not
    follow the game (heldout10's uk-legal-2, penguins, enrolled: the 2D learnt as the 2H and played onto the AD, read
    there as the 2H again; the move was lost and the game with it)."""
    gap_unread: bool = True
    """No card is called put on a foundation's top it may not go on when one or two cards the model holds nowhere
    and the readings see nowhere would fill the gap (a king on a jack, its queen never read): the player may have put
    them there first, unread, and a foundation shows its top card only (heldout17's bc-legal-1, penguins, enrolled:
    the queen of clubs played to a foundation unread, then the king read there: "black king on black jack"). On a
    column a card put and covered still shows its index, so a rank skipped there is still the player's mistake; suits
    still count. An empty foundation's first card may be the one unread (heldout's hc-illegal-1, egyptians, a reader
    that reads unsure crops twice: the 10H played from the reserve unread and the JH put on it, "foundation 2 must
    start with a 10, not a red jack"). Nor are several cards called put on a foundation at once where some of them
    were never read: put one at a time, unread, they look the same (bc-legal-1 again, penguins' probe fitted
    firmer: "foundations take one card at a time" for the QC and KC played in turn, the QC unread). Nor is a run
    called moved that holds a card and its twin, nor a card put on its twin, where no reading named both at once:
    that is one card the reader named both ways (the same recording: a 5C read as the 5S in the waste's fan, taken
    for two cards); a black jack put on the other, both read, is still the player's mistake (k-illegal-3)."""
    dug_twin_unseen: bool = True
    """No card is said taken off a foundation, from under its top card or as its top, while its twin (same rank and
    colour) is a card the model holds nowhere: a card turned up since, read as its twin, looks the same (nk-legal-2,
    penguins, enrolled: the 2C turned from the stock read as the 2S at 0.7 or more, the 2S lying under the 3S on a
    foundation: "the 2 of spades was taken from under the 3 of spades"; qc-legal-1, egyptians, a reader that reads
    unsure crops twice: the 10S come up on the reserve read as the 10C at 0.98, the foundation's weakly read 10C
    then read nowhere: "cards may not be taken from foundation 1")."""
    gone_top_weak: bool = True
    """When no legal move explains the vote, a pile's top card of the model that no reading shows there any more is
    looked for where readings name it below ``new_card`` (``_gone_tops``): a card put on another and covered at once
    shows little of its index (rk-legal-2, jolly royal: the 6H played from the waste onto a 7C and the 5S put on it
    in one spell of hands; the 6H read at 0.31-0.40 under the 5S in half the readings, the 5S looked put on the
    7C: "black 5 on black 7"). Its leaving its pile is what the readings agree on; where they put it, the vote
    takes from the readings that named it anywhere."""
    model_twins: bool = True
    """When no legal move explains the vote, explain it with a card of the model taken for its twin (same rank and
    colour), where the vote shows the twin in the card's place and the card itself on another pile (``_model_twins``):
    the card there was the twin all along, and the card came up since; that a card moved and its twin turned up in
    its very place is far less likely than a twin misread (measured on the held-out nk-legal-2, enrolled
    kde_penguins: column 3's 3C read as the 3S or the 3C at 0.5-0.8 and taken for the 3S, and the 3S turned from
    the stock later accused as "nothing may be put on the waste"). So, too, where the vote shows the twin on another
    pile and the card nowhere: the card moved, read as its twin there (heldout3's jk-legal-2, penguins, enrolled:
    column 4's KS learnt as the KC at the deal, moved into the empty column 1 and read there as the KS; the 5S it
    uncovered, read at 0.9 in every reading, was left out as a phantom and the KS taken for a stock card)."""
    unconfirmed_misread: bool = True
    """When no legal move explains the vote, explain it with a face-up column card of the model that no reading
    ever confirmed (``_confirmed``: read once, unsure, at the deal) and none of these readings saw anywhere taken for
    the card the vote shows in its place, one the model holds nowhere (``_misread_renamed``): it was misread.
    heldout16's ak-legal-1 (penguins, enrolled): column 7's 5S learnt as the 6S from one reading at 0.54 at the
    deal, read as the 5S (or its twin) in most readings since; the king's run moved into the empty column 2 ten
    moves later went unexplained, and the game was lost."""
    moved_misread: bool = True
    """The same for a column's top card that moved: where no legal move explains the vote, a face-up column top card
    of the model never read sure (``_named_sure``) and none of these readings saw anywhere is taken for a new card the
    vote shows on top of another column, and the vote explained from the model so renamed (``_moved_misread``): the
    card was misread where it lay and read right where it went. heldout3's jk-legal-2 (penguins, plain): column 2's 8D
    learnt as the 4D at the deal (0.59-0.65) and put on the 9C; the 6H turned up under it was left out as a phantom
    and the 8D taken for a card turned from the stock (now followed; a later move of that game, hardly read at all,
    is lost instead). Also heldout2's gk-legal-2 (ancient egyptians, enrolled): 10 -> 12 of 24 moves."""
    backs_not_empty: bool = True
    """A pile on which readings that look for backs saw face-down cards is not read empty, though no card was read
    on it: its top card went unread (measured on the held-out hk-legal-1, kde_penguins, the plain recogniser: column
    7's KC read in one reading of six, its 4 backs in all, the game taken up with the column empty, and the QH put on
    the KC accused as "only a king may fill column 7")."""
    held_elsewhere: bool = True
    """A card the model holds, confirmed, on another pile and read on a pile again is that card read out of place: a
    reading that names only such cards on a pile reads it empty (an accusation onto a pile the model has empty needs
    it read empty), and such a card is no card the model lost there (``_others_seen``). Measured on the held-out
    uk-illegal-1, kde_ancient_egyptians, the plain recogniser: column 4's 4S read again 0.8 card heights lower, in
    the emptied column 3's place, in half the readings, so column 3 was never read empty and a 2 put into it was not
    accused ("only a king may fill column 3"); the 2 then put on a 3 was accused as a move from the waste."""
    judged_only: bool = True
    """No accusation rests on a move the engine cannot judge, of a card never read or onto one: read as surely as an
    accusation needs, the table is followed as read and the player told a card went unread (measured on the
    held-out hc-illegal-1, kde_ancient_egyptians, the plain recogniser: "the top card of the stock of thirteen was
    not read" announced as an illegal move, a queen misread before taken onto the reserve's unread card)."""
    backs_under: bool = True
    """No accusation rests on a column the model holds face-down cards in where most readings that look for backs
    saw none: the column is not what the model has (measured on the held-out hk-legal-1, kde_penguins, the plain
    recogniser: a king's run moved into an empty column 4 with its king and queen unread, and the 10C that had left
    the column for column 6 unread there; the model still had column 4 as the 10C on 3 face-down cards, and the JC
    read on it was accused as "black jack on black 10", though no reading saw a back in column 4)."""
    leave_out_read_between: bool = True
    """``leave_out_new`` leaves out as well a card the model holds on another pile, read on a pile never with
    ``sure_card`` confidence and, in every reading that saw it there, between two cards the model holds one on the
    other there (``_read_between``): no move puts a card between two cards that stayed as they lay, so it is a
    misread (an index of the card above it read as another card). Measured: heldout18's dc-legal-1 (ancient
    egyptians, enrolled), the waste's 8D read in column 1 between the 9D and the 8S at 0.55-0.65 in every reading
    (the 8S's index), the JD played from the waste unexplained and the game lost: 20 -> 22 moves; heldout20's
    fc-legal-1 (penguins, enrolled) 14 -> 16; nothing else moved. Without the "between" (any card held elsewhere
    and read unsure left out) the plain reader gained 7 moves but lost 4 injected mistakes and made 2 false
    alarms."""
    leave_out_buried: bool = True
    """``leave_out_new`` leaves out as well a card that the model holds under another card of a foundation, read on
    another pile and never with ``sure_card`` confidence there: no move, legal or not, a player makes takes a card
    from the middle of a foundation, a reader's misread of the card that lies there is common (measured: c-legal-1
    with the enrolled penguins deck, its column's KS read as the 4C at 0.51-0.77 for a second and a half once the
    5C lay on the 4C's foundation; the turn and play in that while went unexplained and were later explained in
    the wrong order)."""
    covered_kept: bool = True
    """An accusation may rest on a card of the model, confirmed in place, that lies right under a card the accused
    change moved onto it and that no reading of this still table saw anywhere (a reader that names only a
    column's top card, as with a tight fan, never sees it again: measured on the demo, whose red 4 onto the red
    jack was otherwise never announced); see ``_covered``."""
    twin_gone: bool = True
    """A pile's top card the model holds, confirmed, that no reading of a still table names there, while the vote shows
    it nowhere and its twin (same rank and colour, a card the model holds nowhere) on another pile: the card moved and
    was read as its twin. The explanations in which a card leaves that pile, with the twin's readings there read as the
    card, are taken before any other (``_gone_twins``): a legal explanation that keeps the card where it lay, unread,
    costs nothing by the other measures, and won. heldout8's rk-misdeal-1 (penguins, enrolled): column 2's AC played to
    foundation 1 and read there as the AS (0.49-0.67) was taken for the stock's top card turned and played, the AC kept
    on column 2, where every reading saw the AD under it bare. Where the twin was read sure (``sure_card``) where it
    went, the model's card was the twin all along, misread where it lay, and is renamed (as ``model_twins`` does where
    no legal move explains the vote); read unsure, the card keeps the name the model has (heldout4's mk-legal-2, jolly
    royal: a JS read sure as a column's top, moved and read as the JC at 0.44-0.58, taken for the JC, left the real JC
    nowhere to go). A table that keeps the card where it lay (the vote completed by the model as it was) is no such
    explanation; nor is a card read elsewhere gone (heldout5's nc-misdeal-1: the waste's 2H put on a column and read
    there, the 2D under it put on another). A column's last face-up card gone from over face-down cards turns the next
    one up, unread as yet: those tables are tried with an unknown card there (heldout17's bk-misdeal-1, standard deck,
    both readers: column 7's 10C put on column 1's JH, read there as the 10S at 0.49-0.69, column 7 read empty, was
    taken for a card of column 6, never read, moved)."""
    vanished_pull: bool = True
    """A card the model holds, confirmed, in the waste's fan, said taken from under the card on it, may be read unsure
    where it went (below ``sure_card``) if the readings saw it gone: named in no reading of the waste, while ``votes``
    readings or more saw the cards it lay between side by side (no unread card between them, ``unread_between``), and
    read where it went in three readings of four that read that pile (``_pulled_vanished``). A misread is steady from
    frame to frame, but a misread that names the very card gone from its place is not: heldout14's yk-illegal-1
    (jolly royal, both readers), the waste's 4S taken from under the 3H onto column 1's JC, read there at 0.46-0.59
    in 11 readings of 11 while the waste showed the 8H and the 3H side by side, went by as "please hold still". A
    column's card is left out: a covered card's index unread in a cascade leaves no gap a reading can show
    (heldout20's fc-legal-1, penguins, plain: an 8C the model had under column 4's 7D, unread there, was said taken
    from under it onto a foundation)."""
    off_unread: bool = True
    """With ``turned_unread``: a run moved off a pile whose lowest face-up card was left unread at the deal
    (``_run_off_unread``) is also sought with that card put back under the run where it went, the pile shown bare,
    where no reading named a new card there (``_carried``): the vote completed by the model keeps the unread card where
    it lay, and no reading lists it where it went. heldout18's dk-misdeal-1 (ancient egyptians, plain): column 1's
    4D, never read, moved with the 3S on it onto column 6's 5S; the game was lost from there ("please hold still, I
    am reading the table again"). A reading that names a new card there means the unread card may be read yet
    (heldout18's dk-legal-2 read its 9S there once, and the move was named a look later)."""
    pulled_covers: bool = True
    """With ``covered_kept``: a card pulled from under another lets that one down onto the card under it, which is
    then covered as a card put on it would cover it (see ``_covered``)."""
    relearn_after: int = 2
    """Still tables in a row that no move explains, each read ``patience`` times, after which the tracker
    takes the table in view as the game under way (``LOST``): one misread table taken into the model (a
    doubtful deal, a misread the vote could not outvote) would otherwise make every later table unexplained."""
    _lost: bool = False
    """This still table was read ``patience`` times and no move explains it."""
    _lost_tables: int = 0
    """Still tables in a row (before this one) that ended so (one the tracker settled on starts the count
    again; one read too briefly to tell leaves it as it is)."""
    repeat_after: float = 5.0
    """Seconds before the same "please hold still" is said again (a noisy reading would say it every frame)."""
    doubt_after_unexplained: bool = True
    """No accusation in the still table after one that was read but left unexplained (the tracker asked the
    player to hold still) that rests on a pile where that table's vote had a card the accused table lacks: the
    model may lack a move the readings missed there, and that card may go unread now (measured: the noisy
    reader, seed 1, k-legal-1: the QC put on the KH was read in 7 of 8 readings of a table no move explained; in
    the next, 3 readings in a row missed it and "red jack on red king" was announced)."""
    behind_unmoved: bool = True
    """With ``doubt_after_unexplained``: a card that table's vote had on an accused pile is lacking there also where
    the accused table has it on the pile the model had it on, unmoved (heldout14's yk-illegal-1, jolly royal, both
    readers: the 4S taken from under the waste's 3H onto column 1 was read on it at 0.47-0.65, too unsure to
    accuse; the 3H then put on the 4S covered it, and "red 3 on black jack" was announced with the 4S still in
    the model's waste)."""
    last_move_redone: bool = True
    """Before a change is announced as a mistake, the legal move followed last is doubted: if legal moves lead from
    the table before it to what is seen now, the last change was misread and the game is followed from there (a
    ``MOVE`` event that says so), not a player accused. A card played from a waste's top to a foundation, read
    nowhere, with the cards the waste showed under it never read, looks like a stock turn; the next card put on
    it then looks illegal (heldout14's yc-misdeal-1, the noisy reader at drop 0.25, seed 4: the JS played to an
    empty foundation taken for a turn, then "foundation 4 must start with a jack, not a black queen" for the QS
    put on it)."""
    read_above_doubted: bool = True
    """No accusation rests on a pile where, since the tracker last changed it, ``votes`` readings or more named a
    card lying on the pile's top card that the accused table (with the cards read now) holds nowhere: a move put it
    there that the tracker missed (the card read too unsure to follow), and it may now go unread under the cards
    put on it (heldout11's vc-illegal-1, plain reader: the 4C taken from under the 3H onto column 1's 10H, read there
    at 0.5-0.62 in six readings and followed by no move; the 3H later put on the 4C, read on the 10H: "red 3 on red
    10"). A card the table holds elsewhere, read there, is a card of the next pile the reader put in this one
    (heldout5's nk-illegal-1: the 6C of column 7 read on column 6's jack in 4 readings), and doubts nothing."""
    _read_above: dict[str, Counter[int]] = field(default_factory=dict)
    """Per pile, how many readings since the model last changed it named each card lying on its top card."""
    _before_last: Table | None = None
    """The model before the legal moves followed last (see ``last_move_redone``); None after anything else."""
    _last_moves: tuple[Move, ...] = ()
    """Those moves."""
    _behind: frozenset[tuple[int, str]] = frozenset()
    """Where the vote of the last still table put its cards, if that table was read but left unexplained (see
    ``doubt_after_unexplained``); empty otherwise."""
    _named_before: dict[int, float] = field(default_factory=dict)
    """Every card any reading named, anywhere, before the still table in view, with the best confidence of its own
    it was named with (1 where the reader gave none; see ``dig_unread``)."""
    _named_now: dict[int, float] = field(default_factory=dict)
    """Every card any reading of the still table in view named, the same way."""
    fresh_on_unread: bool = True
    """A card read sure on top of a packet (a waste) whose top card the model holds unknown (a fan's cards turned and
    never read) is not taken for that card, as if nothing had changed, when the readings of the still tables settled
    on the model since it last changed named other cards on top of that pile and never this one: the change that
    brought it is looked for with the unread cards held to be none of the cards read now (``_fresh_on_unread``).
    Measured on c-legal-1 (penguins, enrolled): a turn's top card went to a foundation and the new top went unread;
    at the next turn the 7 of diamonds, read at 0.9 in every reading, was taken for that unread card: the turn went
    unsaid and the model ran a turn behind to the stock's end."""
    _tops_now: dict[str, set[int]] = field(default_factory=dict)
    """Per pile, the top cards the readings of the still table in view named there."""
    _tops_before: dict[str, set[int]] = field(default_factory=dict)
    """Per pile, the top cards readings named there in the still tables settled on the model as it is now."""
    _tops_for: tuple[object, ...] | None = None
    """The key of the model ``_tops_before`` was read on."""
    fold_twins: bool = True
    """Where the reader gives its confidence that a card is "that card or its twin" (same rank and colour, the
    other suit: ``observe``'s ``kinds``): a card read below ``sure_card`` on a pile where the model has its twin
    counts as a reading of the model's card with that surer confidence, if the model has the read card nowhere
    and the reading the twin nowhere else (``twins_folded``); and a column's top card is doubted
    (``_read_sure``) by those confidences, not by its name's. A deck whose spades and clubs look alike at the
    camera's resolution splits its reads between the two, which left a card the model holds doubted and a move
    onto it unjudged (measured: k-illegal-2, penguins, enrolled: the 8 of spades learnt as the 8 of clubs, read
    8C / 8S at 0.5-0.8 / 0.1-0.4; the black 7 put on it went unsaid)."""

    foundation_jump_doubted: bool = True
    """A foundation read two cards or more above the model's, its top card below ``foundation_jump_sure``, may hold
    fewer cards: the vote is also tried with that foundation cut to each shorter height down to the model's
    (``_foundations_cut``), and where one of those is explained (by legal moves or as no change), the shortest is
    taken and the vote as read is not. A camera reads a foundation by its top card alone and the rules imply the
    cards under it, so one misread top otherwise becomes a chain of cards nobody saw, turned up and played in one
    change. Measured on every recorded set: heldout2's gk-legal-2 (ancient egyptians, enrolled: the AH played to a
    foundation and read there as the 3H at 0.59-0.76 was followed as the AH, 2H and 3H played from column 5; its
    first six moves are right now, though the game is still lost later, at its waste), heldout5's nk-legal-2
    (penguins, plain) 3 -> 6 moves, heldout8's rc-legal-1 (penguins, plain: a Canfield foundation read as ?? and
    the JD, the 10D under it played unseen) 5 -> 11; nothing else changed."""
    foundation_jump_sure: float = 0.9
    """See ``foundation_jump_doubted``."""

    stock_backs_unread: bool = False
    """Off by default. On: a camera's reading (``partial``) loses the cards it names on a stock the deal lays face
    down before anything votes on it: a stock shows only its back, so such a card is a back read as a card (as
    ``_start_from_sighting`` and ``dug_out`` hold; ``dug_out`` is what fixed heldout19's ec-illegal-1, nicu white, the
    stock's back read as the AD in half the readings). Measured in session 32 on every recorded set: no move gained
    with the real recogniser, plain or enrolled, and the harsh noisy readers lost 17 (heldout's hc-legal-2, seed 3,
    24 -> 13: a phantom 2H on the stock had happened to stand for column 3's card the deal took from one reading;
    heldout17's bk-legal-2, seed 4, 18 -> 12)."""

    def observe(
        self,
        t: float,
        reading: Table | None,
        confidence: float = 1.0,
        cards: CardConfidences | None = None,
        backs: Mapping[str, int] | None = None,
        kinds: CardConfidences | None = None,
        gaps: CardConfidences | None = None,
        announced: Announced | None = None,
    ) -> list[Event]:
        """Take one reading (None: nothing readable, the table may be moving) with its confidence and, where
        the reader gives them, its cards' own confidences, the face-down cards it saw per pile (``backs``:
        they tell a pile whose top card was not read from a pile dealt short at the deal) and its confidences
        of cards' rank and colour (``kinds``, see ``fold_twins``) and how far below the card under it each card
        of a cascade lies (``gaps``, see ``deal_far``); returns what is to be announced. ``announced``
        (``replaying`` only): what the live tracker announced at this logged table (see ``_as_announced``)."""
        self._announced = announced if self.replaying else None
        if reading is None:  # hands over the cards: what comes next may be another table
            events: list[Event] = []
            if self.model is None and len(self._recent) >= self.votes:
                if (
                    self.deal_on_leave
                    and not self._deal_missed
                    and len(self._recent) >= min(self.patience, self.window)
                ):
                    events = self._last_look(t)  # (on as many readings as a deal is judged on when it waits no more)
                self._deal_missed = self.model is None
            if self._lost:
                self._lost_tables += 1
            elif self._settled:
                self._lost_tables = 0
            if self._settled:
                self._behind = frozenset()
            elif self.model is not None and len(self._recent) >= self._need:
                self._behind = self._vote or frozenset()
            self._lost = False
            for code, sure in self._named_now.items():
                self._named_before[code] = max(sure, self._named_before.get(code, 0.0))
            self._named_now.clear()
            self._keep_tops()
            self._still_reads = 0
            for kept in self._per_reading():
                kept.clear()
            self._settled, self._latest, self._suspect, self._vote = False, None, None, None
            return events
        if self.stock_backs_unread and self.partial and not self.replaying:
            reading, (cards, kinds, gaps) = _stock_backs_off(reading, (cards, kinds, gaps))
        self._latest = reading.key()
        for pile in reading.pile_ids:
            for code in reading.codes(pile):
                if code != UNKNOWN:
                    sure = cards.get((pile, code), 1.0) if cards else 1.0
                    self._named_now[code] = max(sure, self._named_now.get(code, 0.0))
        for pile in reading.pile_ids:
            named = [code for code in face_up(reading, pile) if code != UNKNOWN]
            if named:
                self._tops_now.setdefault(pile, set()).add(named[-1])
        if self.model is not None and self.partial and not self.replaying:  # a camera's reading, not a logged table
            reading, cards = realigned(self.model, reading, cards, self.partial)
        if self.model is not None and self.fold_twins and cards and kinds:
            reading, cards = twins_folded(self.model, reading, cards, kinds, self.sure_card, self.partial)
        if self.model is not None and self.empty_unconfirms:
            self._unconfirm_empty(reading)
        self._still_reads += 1
        if self.model is not None and self.read_above_doubted:
            self._count_read_above(self.model, reading)
        for kept, item in zip(self._per_reading(), ((reading, confidence), cards, kinds, backs, gaps), strict=True):
            kept.append(item)
        while len(self._recent) > self.window:
            for kept in self._per_reading():
                kept.popleft()
        evidence = self._evidence()
        self._vote = frozenset(
            (card, place[0])
            for card in evidence.seen
            if (place := evidence.place(card)) is not None and place[1] >= self._need
        )
        if evidence.n < self.votes:
            return []
        if self.model is None:
            return self._quiet(self._deal(t, evidence))
        return self._quiet(self._follow(t, evidence))

    def finish(self, t: float) -> list[Event]:
        """The frames have run out: the still table in view, if not yet judged, is judged on the readings made so far
        with no more to wait for (``look_at_end``); returns what is to be announced. A change still unexplained is
        left as it is, as a table the hands came over would be: nobody is left to ask to hold still."""
        if not self.look_at_end or self._settled or len(self._recent) < self.votes:
            return []
        return [event for event in self._last_look(t) if event.kind is not EventKind.UNCLEAR]

    def _per_reading(self) -> tuple[deque[Any], ...]:
        """What is kept per reading of the still table in view (``_recent`` and its companions), in step."""
        return (self._recent, self._recent_cards, self._recent_kinds, self._recent_backs, self._recent_gaps)

    def _last_look(self, t: float) -> list[Event]:
        """The still table in view (the deal, or a change once the game is followed) as its readings show it, with no
        more readings to wait for (no stray card waited on, no request to hold still): taken if clear enough, else
        nothing (see ``deal_on_leave`` and ``finish``)."""
        self._final = True
        try:
            evidence = self._evidence()
            return self._quiet(self._deal(t, evidence) if self.model is None else self._follow(t, evidence))
        finally:
            self._final = False

    def _renamed(
        self,
        pairs: list[tuple[str, int, int]],
        recent: Sequence[tuple[Table, float]],
        recent_cards: Sequence[CardConfidences | None],
    ) -> Evidence:
        """The vote over ``recent`` (with ``recent_cards``) with each (pile, card, other) of ``pairs`` read as the
        other wherever a reading named the card on that pile (its confidences kept): one card read both ways counts
        all its readings (``deal_twins_one``)."""
        readings: list[tuple[Table, float]] = []
        owns: list[CardConfidences | None] = []
        for (table, conf), own in zip(recent, recent_cards, strict=True):
            piles = [list(table.codes(p)) for p in table.pile_ids]
            mine = dict(own) if own is not None else None
            for pile, card, other in pairs:
                codes = piles[table.pile_ids.index(pile)]
                if card in codes and other not in codes:
                    codes[codes.index(card)] = other
                    if mine is not None and (pile, card) in mine:
                        mine[(pile, other)] = mine.pop((pile, card))
            readings.append((with_piles(table, piles), conf))
            owns.append(mine)
        return self._evidence(readings, owns)

    def _evidence(
        self,
        readings: list[tuple[Table, float]] | None = None,
        cards: list[CardConfidences | None] | None = None,
        known: frozenset[tuple[int, str]] | None = None,
    ) -> Evidence:
        """The card-by-card vote over the readings of the still table in view (or ``readings`` and their ``cards``),
        a card known where the last accepted table has it (or at ``known``)."""
        return Evidence(
            list(self._recent) if readings is None else readings,
            list(self._recent_cards) if cards is None else cards,
            floor=self.new_card,
            known=self._known_places() if known is None else known,
        )

    def _keep_tops(self) -> None:
        """The still table in view is gone: if the tracker settled on it, remember the tops its readings named (on
        the model as it is now; a table left unexplained may show a change the model lacks)."""
        if self.model is not None and self._settled:
            key = self.model.key()
            if key != self._tops_for:
                self._tops_before, self._tops_for = {}, key
            for pile, tops in self._tops_now.items():
                self._tops_before.setdefault(pile, set()).update(tops)
        self._tops_now = {}

    def _known_places(self) -> frozenset[tuple[int, str]]:
        """Where the last accepted table has its cards in sight: (card, pile)."""
        model = self.model
        if model is None:
            return frozenset()
        return frozenset((card, pile) for pile in model.pile_ids for card in in_sight(model, pile, self.partial))

    def still_key(self) -> tuple[object, ...] | None:
        """The key of the newest reading while the tracker is settled on the still table it shows (the
        change, if any, is explained and announced: a motion gate may stop reading), else None."""
        return self._latest if self._settled else None

    @property
    def settled(self) -> bool:
        """The still table in view is read and explained (any change in it announced): nothing more is
        expected of it, so a companion may offer a hint, and a motion gate may stop reading."""
        return self._settled and self._latest is not None

    def vote_key(self) -> frozenset[tuple[int, str]] | None:
        """Where the readings of the table in view put its cards (each card read at its place by enough
        readings): while it stays the same, more readings are not changing the vote. None while nothing is
        voted yet, or while a mistake is suspected (more readings may confirm it: they must be made)."""
        return None if self._suspect is not None else self._vote

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

    @property
    def _need(self) -> int:
        return max(min(self.seen_in, self.votes), math.ceil(0.25 * len(self._recent)))

    @property
    def _impatient(self) -> bool:
        return self._final or len(self._recent) >= min(self.patience, self.window)

    # ------------------------------------------------------------------ the deal

    def _deal(self, t: float, evidence: Evidence) -> list[Event]:
        # a pile short of the deal's layout is filled with doubtful cards only if this may be the deal (one
        # that went by unread leaves no layout to go by)
        shape = _deal_shape(evidence) if self.partial else None
        seen = voted(evidence, self._need, shape=shape, doubtful=not self._deal_missed)
        readings, owns = list(self._recent), list(self._recent_cards)
        if self.deal_realigned and self.partial and not self.replaying:
            evidence, seen = self._deal_aligned(evidence, seen, shape, readings, owns)
        first_vote = seen
        if self.squared_deal:
            seen = _squared(seen, evidence)
        if self.deal_twins_one and (pairs := _twins_one(seen, evidence)):
            evidence = self._renamed(pairs, readings, owns)
            seen = voted(evidence, self._need, shape=shape, doubtful=not self._deal_missed)
            first_vote = seen
            if self.squared_deal:
                seen = _squared(seen, evidence)
        if any(
            not min(evidence.sizes[p]) <= len(face_up(seen, p)) <= max(evidence.raw_sizes[p]) for p in seen.pile_ids
        ):
            # more cards voted into a pile than any reading showed there, or fewer than every reading showed:
            # misreads that disagree, not yet a table
            if not self._impatient or self._final:
                return []
            return [Event(EventKind.UNCLEAR, t, "I cannot read the deal clearly: please hold still", confidence=0.0)]
        if self.deal_far:
            seen = self._near(seen)
        if self.partial:
            model, found = _sighted_deal(seen)
        else:
            model = seen.copy()
            model.stage = Stage.DEAL
            found = [(None, p.message) for p in problems(model)]
        if not self.check_deal:
            found = []
        if found and self.partial and not self._deal_missed and not self.replaying and self._impatient:
            trimmed = self._trimmed(evidence, seen)
            if trimmed is not None:  # the deal's layout, once the unsure cards too many are left out
                cut, left = _sighted_deal(trimmed)
                # a deal cut only partly is taken only for a misdeal sure enough to announce (a camera turned a
                # quarter read c-misdeal-1 so badly that the cut deal, unsure, was followed and lost at once)
                unread_left = self._unread_at_deal(trimmed, left)[0]
                if not unread_left or self._misdeal_confidence(evidence, trimmed, unread_left) >= self.confident:
                    seen, model, found = trimmed, cut, left
        found, unread = self._unread_at_deal(seen, found)
        if self.replaying and found and self._announced is not None and not self._announced.misdeal:
            # the live tracker reported no misdeal here: a pile the deal fills that it read blank was unread (its
            # card unknown), and any other problem one it was not sure of
            unread = [p for p in seen.pile_ids if _blank_dealt(seen, p)]
            found = [(pile, text) for pile, text in found if pile not in unread]
        if unread and not self._impatient:
            return []  # a blank pile: its card may be read yet
        if self.check_deal and not self._impatient and _left_out(evidence, seen, 1):
            return []  # a card some reading saw where the vote puts none: it may be a misdeal, read on
        strays = self.check_deal and not self._final and self._still_reads < self.stray_reads
        if strays and _left_out(evidence, first_vote, self._need):
            # a card as many readings saw on a pile as a vote needs, outvoted by misreads scattered over its pile (a
            # card dealt too many among phantoms); not the cards the deal's layout trims away (``_trimmed``), which
            # are judged, not outvoted: the next readings vote again
            return []
        sure = 1.0
        unsure_replay = self.replaying and found and self._misdeal_confidence(evidence, seen, found) < self.confident
        if self._announced is not None:  # (a log says whether the live tracker reported one)
            unsure_replay = bool(found and not self._announced.misdeal)
        if found and (self._deal_missed or unsure_replay):  # the deal went by unread: follow from here, accuse nobody
            self.model = _start_from_sighting(seen) if self.partial else model
            self._midway = True
            self.model.stage = Stage.PLAY
            if self.taken_empty_doubted:  # a column the deal filled, read empty: a card may lie there unread
                self._taken_empty = {
                    p
                    for p in self.model.pile_ids
                    if self.model.game.pile(p).role is Role.TABLEAU and not self.model.codes(p)
                }
            text = "I could not read the deal clearly: I follow the game from here"
            return self._from_here(t, seen, evidence, text)
        if found:
            sure = self._misdeal_confidence(evidence, seen, found)
            if sure < self.confident:
                if not self._impatient or self._final:
                    return []
                self._settled = False
                text = "I cannot read the deal clearly: please hold still"
                return [Event(EventKind.UNCLEAR, t, text, confidence=sure)]
        self.model = model
        self.model.stage = Stage.PLAY
        self._unread = set(unread)
        self._settled = True
        self._confirmed, self._seen_empty = set(), set()
        self._confirm(evidence)
        self._known = {}
        cards = self._card_confidences(seen, evidence)
        events = [Event(EventKind.STILL, t, "the table is still", table=seen, confidence=sure, cards=cards)]
        if found:
            events.append(Event(EventKind.MISDEAL, t, "; ".join(text for _, text in found), confidence=sure))
        if unread:  # one sentence for all of them: it is spoken
            text = _unread_sentence([seen.game.pile(p).name for p in unread])
            events.append(Event(EventKind.UNCLEAR, t, text, confidence=0.0))
        return events

    def _deal_aligned(
        self,
        evidence: Evidence,
        seen: Table,
        shape: dict[str, int] | None,
        readings: list[tuple[Table, float]],
        owns: list[CardConfidences | None],
    ) -> tuple[Evidence, Table]:
        """The deal's vote with each of ``readings`` (and ``owns``, changed in place) put back where ``realigned``
        finds it put a row one or two piles over against the vote (see ``deal_realigned``), voted again until no
        reading moves (a reading shifted by two may only show as shifted once those shifted by one are put back)."""
        for _ in range(3):  # bounded: each round only follows the vote the last one made
            moved = False
            for k, ((reading, conf), own) in enumerate(zip(readings, owns, strict=True)):
                back, back_own = realigned(seen, reading, own, partial=False)
                if back is not reading:
                    readings[k], owns[k], moved = (back, conf), back_own, True
            if not moved:
                break
            evidence = self._evidence(readings, owns)
            seen = voted(evidence, self._need, shape=shape, doubtful=not self._deal_missed)
        return evidence, seen

    def _near(self, seen: Table) -> Table:
        """``seen`` without the top card of each cascade of two cards or more that most readings placing it there
        read more than ``far_step`` card heights below a card under it (see ``deal_far``): a card read far below a
        phantom read now and then above it stays (k-illegal-2, penguins: a 9D read above column 1's 4D in 2 readings
        of 6); nor the top card that is the twin of the card under it and read less than ``near_step`` below it in
        most of those readings: one index read twice under two suits (heldout11's vk-illegal-1, penguins: a JS boxed
        again 16 px aside as the JC, 0.10 card heights below it: a false misdeal with both readers)."""
        piles = [list(seen.codes(pile)) for pile in seen.pile_ids]
        for k, pile in enumerate(seen.pile_ids):
            up = face_up(seen, pile)
            if seen.game.pile(pile).role is not Role.TABLEAU or len(up) < 2 or up[-1] == UNKNOWN:
                continue
            placed = [
                gaps.get((pile, up[-1]), -1.0)
                for (reading, _), gaps in zip(self._recent, self._recent_gaps, strict=True)
                if gaps is not None and up[-1] in reading.codes(pile)
            ]
            close = up[-1] == twin(up[-2]) and sum(0 <= step < self.near_step for step in placed) * 2 > len(placed)
            if sum(step > self.far_step for step in placed) * 2 > len(placed) or close:
                piles[k].pop()
        return with_piles(seen, piles)

    def _unread_at_deal(
        self, seen: Table, found: list[tuple[str | None, str]]
    ) -> tuple[list[tuple[str | None, str]], list[str]]:
        """The deal's problems less those of a pile read blank that a camera's reader may have failed to read,
        and those piles. Only with readings that look for backs (``backs``; the readings' face-up cards alone
        cannot tell an unread card from a missing one): a blank cascade the deal puts face-down cards in is
        dealt short only when no back was seen on it either (it is empty); any other blank pile can be told
        from one whose card was not read by nothing the camera sees, so the player is asked, not accused."""
        looked = [b for b in self._recent_backs if b is not None]
        if not self.partial or self.replaying or len(looked) < self.votes:
            return found, []
        game = seen.game
        sizes = game.deal_sizes()
        kept: list[tuple[str | None, str]] = []
        unread: list[str] = []
        for pile, text in found:
            if pile is None or face_up(seen, pile) or sizes[pile][1] == 0:  # not a blank pile the deal fills
                kept.append((pile, text))
                continue
            cascade = game.pile(pile).role is Role.TABLEAU and sizes[pile][0] > 0
            if cascade and sum(1 for b in looked if b.get(pile, 0) > 0) < self.seen_in:
                kept.append((pile, text))  # neither a card nor a back: the pile is empty
            elif pile not in unread:  # the engine's own problem of an unknown top card names the pile again
                unread.append(pile)
        return kept, unread

    def _trimmed(self, evidence: Evidence, seen: Table) -> Table | None:
        """The voted deal with each pile that shows more cards than the deal's layout cut down towards the cards
        most readings saw there, leaving out only cards that could never show a misdeal: never read with
        ``sure_card`` confidence nor steadily under another card (``_steady_under``), or seen there by fewer than
        ``votes`` readings (a repeating misread, such as a court card's picture read as a card; sc-illegal-1,
        enrolled: a 10S's bottom-right index read as the 10D at 0.70 in 2 readings of 8 left the deal unread, and
        the game was followed from the next move). If a card too many could show one, the deal is cut only to it
        (``trim_partly``; mk-misdeal-1, nicu white: column 2's 3C and QC dealt, a 3S read between them in 2
        readings and a KS on column 5's KC in 4 at 0.42-0.51 hid the misdeal); without ``trim_partly`` it is
        then not cut at all. None where nothing is cut, or where no card too many is kept and the cut deal is not
        a correct one but for one pile read blank (``_unread_at_deal``; a card read one pile over leaves its own pile
        short: no misdeal to judge). Only with cards' own confidences: a reading's single confidence does not tell
        which card is the doubtful one."""
        if not evidence.per_card:
            return None
        shape = _deal_shape(evidence)
        piles: list[list[int]] = []
        cut = partly = False
        for pile in seen.pile_ids:
            up = list(face_up(seen, pile))
            want = shape.get(pile, len(up))
            if len(up) > want:
                ranked = sorted(
                    up, key=lambda c: (evidence.support(c, pile), evidence.best_card(c, pile)), reverse=True
                )
                shows = [
                    c
                    for c in ranked[want:]
                    if evidence.support(c, pile) >= self.votes
                    and (evidence.best_card(c, pile) >= self.sure_card or self._steady_under(evidence, pile, c, up))
                ]
                if shows and not self.trim_partly:
                    return None
                partly = partly or bool(shows)
                kept = {*ranked[:want], *shows}
                cut = cut or len(kept) < len(up)
                up = [card for card in up if card in kept]
            piles.append(up)
        if not cut:
            return None
        trimmed = Table(seen.game, piles, [0] * len(piles))
        if partly:  # (a card too many that can show a misdeal is kept: the misdeal is judged on it)
            return trimmed
        left = _sighted_deal(trimmed)[1]
        if self.trim_partly:  # (one pile read blank whose top card the reader may have missed is no problem here;
            # more, and the deal is read badly: a camera turned a quarter, c-misdeal-1, three piles blank)
            excused, blank = self._unread_at_deal(trimmed, left)
            left = excused if len(blank) <= 1 else left
        return trimmed if not left else None

    def _steady_under(self, evidence: Evidence, pile: str, card: int, up: Sequence[int]) -> bool:
        """A card of a cascade read below ``sure_card`` that may still show a misdeal: read there by all readings
        of the still table but one, with ``new_card`` confidence at least once, under another card of the pile
        (k-misdeal-2's extra 4 of diamonds under the 9 of hearts, read at 0.55-0.61 in every frame; gk-misdeal-1's
        8 of diamonds under the 8 of hearts, 0.45-0.65); or on top of a card that is not a court card (the held-out
        jc-misdeal-1's 4 of diamonds dealt on the 2 of spades, both read at 0.54-0.66 in every frame: the card on top
        was cut as the doubtful one and the misdeal missed). A repeating misread lies elsewhere: a court card's
        picture below the pile's top index, read as a card on top of it. (The rank of an index boxed twice, read
        beside the whole index as a card of the same rank, was once kept out here too; the recogniser drops such a
        box since ``vision.recognise``'s nested rule, and the exclusion only hid a true misdeal of a card of the
        top's rank.)"""
        if evidence.game.pile(pile).role is not Role.TABLEAU or card not in up:
            return False
        at = up.index(card)
        if at + 1 < len(up):
            if up[at + 1] == UNKNOWN:
                return False
        elif at == 0 or up[at - 1] == UNKNOWN or CARDS[up[at - 1]].rank >= JACK:
            return False  # the top card, alone, or on a court card whose picture may be read as a card
        steady = evidence.support(card, pile) >= max(self.votes, evidence.n - 1)
        return steady and evidence.best_card(card, pile) >= self.new_card

    def _misdeal_confidence(self, evidence: Evidence, seen: Table, found: list[tuple[str | None, str]]) -> float:
        """How sure the readings are of every problem found: a pile that shows too many cards, by those cards'
        confidence (each seen by ``votes`` readings; see ``misdeal_by_card``); a pile that shows too few, by the
        readings that all showed it short; any other problem, by every card of the table. Every card of the table
        must be seen by ``votes`` readings (a misdeal is said of the deal as read, and a card few readings saw may
        be a misread that makes the rest of the game unexplained)."""
        if any(evidence.support(c, p) < self.votes for p in seen.pile_ids for c in face_up(seen, p) if c != UNKNOWN):
            return 0.0
        sure = 1.0
        for pile, _ in found:
            if pile is None:
                cards = [(c, p) for p in seen.pile_ids for c in face_up(seen, p) if c != UNKNOWN]
            else:
                want = _deal_shape(evidence)[pile]
                cards = [(c, pile) for c in face_up(seen, pile) if c != UNKNOWN]
                if len(cards) < want:
                    sizes = zip(evidence.raw_sizes[pile], evidence.confidences, strict=True)
                    short = [c for size, c in sizes if size < want]
                    if len(short) < max(self.votes, 0.9 * evidence.n) or not self._impatient:
                        return 0.0  # a card missing from a few readings is a card not read, not yet a misdeal
                    sure = min(sure, 1.0 - math.prod(math.sqrt(1.0 - c) for c in short) * math.sqrt(1.0 - max(short)))
                    continue
            up = face_up(seen, pile) if pile is not None else ()
            for card, place in cards:
                if evidence.support(card, place) < self.votes:
                    return 0.0
                if evidence.best_card(card, place) < self.sure_card and not self._steady_under(
                    evidence, place, card, up
                ):
                    return 0.0
                by_card = self.misdeal_by_card and pile is not None and evidence.per_card
                sure = min(sure, evidence.card_confidence(card, place) if by_card else evidence.confidence(card, place))
        return sure

    # ------------------------------------------------------------------ play

    def _explain(self, seen: Table, model: Table | None = None) -> Explanation | None:
        """How legal moves turn ``model`` (default: the tracker's) into ``seen``; cached until the model changes."""
        assert self.model is not None
        model = self.model if model is None else model
        key = seen.key() if model is self.model else (model.key(), seen.key())
        if key not in self._cache:
            self._cache[key] = explain(model, seen, self.max_moves, self.partial)
        return self._cache[key]

    def _follow(self, t: float, evidence: Evidence) -> list[Event]:
        model = self.model
        assert model is not None
        announced = self._announced
        if announced is not None and announced.moves:
            # (moves taken back: the live tracker followed the table before them)
            last = tuple(map(str, self._last_moves)) if self._before_last is not None else None
            base = self._before_last if announced.retracts else model
            if base is not None and (not announced.retracts or announced.retracts == last):
                followed = self._as_announced(t, evidence, base, announced)
                if followed is not None:
                    return followed
        # cards read by turns as one another: a card and its twin, a card and a column's card in its place
        pairs: list[tuple[str, int, int]] = []
        if evidence.per_card and (self.new_twins_one or self.in_place_by_turns):
            vote = voted(evidence, self._need)
            if self.new_twins_one:
                pairs += _new_twins_one(model, vote, evidence, self.held_twin_one)
            if self.in_place_by_turns:
                pairs += _read_in_place(model, vote, evidence)
        if pairs:
            evidence = self._renamed(pairs, list(self._recent), list(self._recent_cards))
        tries, legal = self._legal(model, evidence)
        if self._unread and not any(item[3].moves for item in legal):
            legal += self._onto_unread(model, tries)
        if self.fresh_on_unread and legal and not any(item[3].moves for item in legal):
            legal = self._fresh_on_unread(model, evidence, legal) or legal
        doubted = None
        if self.doubt_weak_reads and not legal and evidence.per_card:  # (a table read unchanged: no move onto it)
            doubted = self._searched(("doubted", tuple(tries)), bind(self._onto_doubted, model, tries))
            if doubted is not None:
                legal += doubted[2]
        turned: frozenset[str] = frozenset()
        if self.turned_unread and not legal and self._impatient and evidence.per_card:
            turned, found = self._searched(("turned", tuple(tries)), bind(self._turned_unread, model, tries))
            legal += found
        fewest = min((len(item[3].moves) for item in legal if item[3].moves), default=0)
        if (
            self.turned_unread
            and self._unread
            and evidence.per_card
            and (fewest >= 2 or (not legal and self._impatient))
        ):
            # (a run moved off an unread card in one move: a longer explanation found without it may be wrong)
            legal += self._searched(("run", tuple(tries)), bind(self._run_off_unread, model, tries, evidence))
        if not legal and self._impatient and evidence.per_card and self.sure_legal:
            # a misread repeated in every frame below ``sure_card`` (a queen of hearts read as the queen of
            # diamonds once the jack lies on it) hides the move: the vote of the cards read sure, as a last resort
            legal = self._legal(model, self._strict(evidence))[1]
            if self.sure_unchanged_doubted and legal and not any(item[3].moves for item in legal):
                # the sure cards show no change, yet the whole vote places new cards: without the misread one, a move
                found = self._leaving_out(model, evidence, misreads_only=True)
                legal = [item for item in found if item[3].moves] or legal
        if not legal and self._impatient and evidence.per_card and self.twins_moved:
            legal = self._searched(("twins", tuple(tries)), bind(self._twins_moved, model, evidence, tries))
        renamed = None
        if not legal and (evidence.per_card or self.replaying) and self.model_twins:  # (cheap: where a twin shows)
            renamed = self._searched(("model twins", tuple(tries)), bind(self._model_twins, model, tries, evidence))
            if renamed is not None:
                legal = renamed[1]
        if not legal and self._impatient and evidence.per_card and self.unconfirmed_misread and renamed is None:
            renamed = self._searched(("misread", tuple(tries)), bind(self._misread_renamed, model, tries, evidence))
            if renamed is not None:
                legal = renamed[1]
        if not legal and self._impatient and evidence.per_card and self.moved_misread and renamed is None:
            renamed = self._searched(("moved misread", tuple(tries)), bind(self._moved_misread, model, evidence))
            if renamed is not None:
                legal = renamed[1]
        if not legal and evidence.per_card and self.gone_top_weak:
            legal = self._searched(("gone tops", tuple(tries)), bind(self._gone_tops, model, evidence))
        # (a card pulled from under another is no phantom: ``_dug_sure``)
        if (
            not legal
            and self._impatient
            and evidence.per_card
            and self.leave_out_new
            and not (self.dug_kept and self._dug_sure(evidence, tries))
        ):
            legal = self._leaving_out(model, evidence)
        if self.twin_gone and legal and renamed is None and evidence.per_card:
            # (before a legal explanation that keeps a card no reading saw where it lay: an unread card costs nothing)
            gone = self._searched(("gone twins", tuple(tries)), bind(self._gone_twins, model, tries, evidence, pairs))
            if gone is not None:
                twin_model, twin_evidence, legal = gone
                if twin_model is not None:
                    renamed = (twin_model, legal)
                if twin_evidence is not None:
                    evidence = twin_evidence
        moving = [item for item in legal if item[3].moves]
        if moving:
            # fewest cards vanished unseen, then no two read fan cards hidden, then fewest left out, then fewest moves
            orders = _fan_orders(model, evidence, self._need) if self.partial else {}
            fans = orders if self.fan_gaps and len(moving) > 1 else {}
            alone = evidence if self.fan_gaps_twins else None
            # (the model after each explanation only where the readings saw two cards or more in a waste's fan)
            watched = self.fan_in_view and any(
                len(order) > 1 for pile, order in orders.items() if model.game.pile(pile).role is Role.WASTE
            )
            afters = {
                id(item): _after(model, item[3], item[2], self.partial)
                for item in moving
                if watched or (fans and alone is not None)
            }
            buried = {
                id(item): watched and _fan_buried(orders, model, afters[id(item)]) >= FAN_BURIED for item in moving
            }
            _, _, seen, explanation = best = min(
                moving,
                key=lambda item: (
                    item[0],
                    buried[id(item)],
                    _fan_gaps(fans, item[2], alone, afters.get(id(item))),
                    item[1],
                ),
            )
            if buried[id(best)] and self._still_reads < self.fan_in_view_reads:
                self._settled = False
                return []  # it hides cards the readings see in the waste's fan: more readings first
            # only the doubted explanations move when there are any: the weakly read card is unknown from now on
            base = doubted[0] if doubted is not None else renamed[0] if renamed is not None else model
            waste = None
            if doubted is None and self.doubt_weak_waste and len(explanation.moves) >= 2 and evidence.per_card:
                waste = self._searched(("waste", tuple(tries)), bind(self._waste_doubted, model, evidence, best))
            if waste is not None:
                base, (_, _, seen, explanation) = waste
            after = _after(base, explanation, seen, self.partial)
            doubt = _doubtful(base, after, evidence, self.partial)
            doubt = doubt or _new_tops_unsure(base, after, evidence, self.votes)
            if self.moved_vote_elsewhere and not self._midway and self._still_reads < self.vote_kept_reads:
                doubt = doubt or _landed_on_moved(base, explanation, evidence, self.partial)
            if doubt and not self._impatient:
                self._settled = False
                return []  # it leans on a card no reading saw where it puts it: more readings first
            self._suspect = None
            if doubted is not None:
                self._confirmed.discard(face_up(model, doubted[1])[-1])
                self.model = base
                self._unread.add(doubted[1])
            elif waste is not None or renamed is not None:
                self.model = base
            self._unread |= {m.dst for m in explanation.moves if m.src in self._unread}
            self._unread |= {
                p for p in turned if face_up(_after(base, explanation, seen, self.partial), p)[-1:] == (UNKNOWN,)
            }
            return self._accept(t, evidence, seen, explanation)
        if legal:  # nothing changed (as far as the readings tell)
            self._suspect = None
            self._lost = False
            read_now = self._read_now(model, min(legal, key=lambda item: (item[0], item[1]))[2])
            if read_now is not None:  # a card left unread at the deal is read: the model learns it
                return [
                    self._adopt(
                        t, model, read_now, read_now, evidence, _change_confidence(model, read_now, evidence, 1)
                    )
                ]
            # settled at once after a change; on a table that shows none, only after ``patience`` readings (a
            # change whose cards few readings have seen yet must not be left unread), and not while the vote puts
            # a card elsewhere than the table unchanged has it (``vote_kept``)
            unchanged = min(legal, key=lambda item: (item[0], item[1]))[2]
            reading_on = self.vote_kept and not self._midway and self._still_reads < self.vote_kept_reads
            if reading_on and _vote_elsewhere(unchanged, evidence, self._need, self.partial):
                self._settled = False
                return []
            self._settled = self._settled or self._impatient
            self._confirm(evidence)
            return []
        return self._mistake(t, evidence, tries)

    def _as_announced(self, t: float, evidence: Evidence, model: Table, announced: Announced) -> list[Event] | None:
        """A logged table (``replaying``) explained by the moves the live tracker announced at it (``_announced_line``:
        each legal one legal from the model, or onto or of a card left unread; the one announced against the rules
        against them, or pulled from under a card), leading to the table: the model is followed, with its cards
        renamed as the live tracker had learnt them (``_renamed_as_seen``), and the events said again; None where
        the moves do not (the table is then explained as any other)."""
        logged = self._recent[-1][0]  # (the table as logged, its unknown cards in their places)
        moved = _announced_line(model, announced, judged=False)  # (where the moves put the model's cards)
        if moved is None:
            return None
        renamed: Table | None = model
        line = _announced_line(model, announced)
        if line is None or not agrees(line[0], logged, self.partial):
            renamed = _renamed_as_seen(model, moved[0], logged)
            line = _announced_line(renamed, announced) if renamed is not None else None
        if renamed is None or line is None or not agrees(line[0], logged, self.partial):
            return None
        after, sentences = line
        self.model = renamed
        at = announced.illegal_at
        if at is None:
            moves = tuple(Move.parse(text) for text in announced.moves)
            _, revealed = reveal(after, logged, self.partial)
            explanation = Explanation(moves, True, tuple(sentences), revealed=revealed)
            return self._accept(t, evidence, logged, explanation, retracts=announced.retracts)
        events = [self._adopt(t, renamed, after, logged, evidence, 1.0)]
        ahead, then = announced.moves[:at], announced.moves[at + 1 :]
        if ahead:
            events.append(Event(EventKind.MOVE, t, "; ".join(sentences[:at]), ahead, sentences=tuple(sentences[:at])))
        illegal = (announced.moves[at],)
        events.append(Event(EventKind.ILLEGAL, t, announced.reason, illegal, sentences=(sentences[at],)))
        if then:
            said = tuple(sentences[at + 1 :])
            events.append(Event(EventKind.MOVE, t, "; ".join(said), then, sentences=said))
        return events

    def _turned_unread(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]]
    ) -> tuple[frozenset[str], list[tuple[int, int, Table, Explanation]]]:
        """The legal explanations of the tables the vote may show with an unknown card on each column read with
        no face-up card, where the model holds face-down cards and most readings (at least ``votes``) saw backs:
        the card a move turned up there, unread (see ``turned_unread``); and those columns."""
        piles = frozenset(
            p
            for p in model.pile_ids
            if model.game.pile(p).role is Role.TABLEAU
            and model.face_down_count(p) > 0
            and len(looked := self._backs_seen(p)) >= self.votes
            and (
                2 * sum(1 for b in looked if b > 0) > len(looked)
                or (self.turned_last_unread and model.face_down_count(p) == 1 and not self._midway and not any(looked))
            )
        )
        legal: list[tuple[int, int, Table, Explanation]] = []
        if not piles:
            return piles, legal
        grown_tries: dict[tuple[object, ...], tuple[Table, int]] = {}
        for seen, unseen in tries.values():
            blank = [p for p in piles if not face_up(seen, p)]
            if not blank:
                continue
            grown = Table(
                seen.game,
                [[*seen.codes(p), UNKNOWN] if p in blank else list(seen.codes(p)) for p in seen.pile_ids],
                [seen.face_down_count(p) for p in seen.pile_ids],
                stage=seen.stage,
            )
            grown_tries.setdefault(grown.key(), (grown, unseen))
            legal += self._moving(model, grown, unseen)
        if not legal and self._unread:  # the move that turned the card up went onto a card left unread
            legal = self._onto_unread(model, grown_tries, max_moves=2)  # (the move and one more)
        return piles, legal

    def _run_off_unread(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]], evidence: Evidence
    ) -> list[tuple[int, int, Table, Explanation]]:
        """Legal explanations of the vote in which a run whose first card the model holds unknown (a card left
        unread, ``_unread``) was moved whole: the engine cannot judge the move of an unknown card (a king's run into
        a space, its king unread), so each card it may be (one the model has nowhere, that makes the whole run
        movable) is put in its place in turn, as ``_onto_unread`` does for cards put on it; the card stays unknown.
        With ``off_unread``, also the tables with the unread card put back under the run where it went."""
        found: list[tuple[int, int, Table, Explanation]] = []
        held = _held(model)
        for pile in sorted(self._unread):
            up = face_up(model, pile)
            if up[:1] != (UNKNOWN,):
                continue
            moved = [(seen, unseen) for seen, unseen in tries.values() if face_up(seen, pile) != up]
            if not moved:
                continue  # the run is where it was
            index = model.face_down_count(pile)
            if self.off_unread:
                moved += [c for seen, n in moved if (c := _carried(seen, n, pile, up, evidence, held, index))]
            fits = _guesses(model, pile, index, len(up))
            found += self._by_guesses(model, fits, moved, 2, named=(pile, index))  # (the run and one move more)
        return found

    def _twins_moved(
        self, model: Table, evidence: Evidence, tries: dict[tuple[object, ...], tuple[Table, int]]
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations of the tables the vote may show with each card read below ``sure_card`` taken for
        its twin, where the model has the twin in sight (where the card is not) and the table shows the twin
        nowhere; at most two such cards a table (see ``twins_moved``)."""
        in_view = {card: pile for pile in model.pile_ids for card in in_sight(model, pile, self.partial)}
        legal: list[tuple[int, int, Table, Explanation]] = []
        for seen, unseen in tries.values():
            shown = {code for pile in seen.pile_ids for code in seen.codes(pile)}
            swaps = [
                (pile, index, twin(code))
                for pile in seen.pile_ids
                for index, code in enumerate(seen.codes(pile))
                if code != UNKNOWN
                and twin(code) in in_view
                and twin(code) not in shown
                and in_view.get(code) != pile
                and evidence.best_card(code, pile) < self.sure_card
            ]
            if not swaps or len(swaps) > 2:
                continue
            renamed = seen
            for pile, index, other in swaps:
                renamed = with_card(renamed, pile, index, other)
            legal += self._moving(model, renamed, unseen)
        return legal

    def _gone_tops(self, model: Table, evidence: Evidence) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations of the vote with the model's pile tops that no reading names on their pile any
        more counted wherever readings named them, however unsure (see ``gone_top_weak``), those that move such a
        card; else empty."""
        gone = {
            up[-1]: pile
            for pile in model.pile_ids
            if (up := face_up(model, pile)) and up[-1] != UNKNOWN and evidence.support(up[-1], pile) == 0
        }
        if not gone:
            return []
        known = self._known_places() | {(card, pile) for card in gone for pile in model.pile_ids}
        lenient = self._evidence(known=known)
        return [
            item
            for item in self._legal(model, lenient)[1]
            if item[3].moves
            and any(card in face_up(item[2], p) for card, src in gone.items() for p in item[2].pile_ids if p != src)
        ]

    def _model_twins(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]], evidence: Evidence
    ) -> tuple[Table, list[tuple[int, int, Table, Explanation]]] | None:
        """The model with each of its cards in sight taken for its twin where a table the vote may show has the twin
        on that pile and the card on another (the model has the twin nowhere), and the legal explanations of the
        tables with it; None if no such renaming explains one (see ``model_twins``); or where the twin shows, read
        sure (``sure_card``), on another pile and the card nowhere: the card moved, and was the twin all along (a
        session log has no readings: there the twin need only show, so that it replays the moves the live tracker
        followed as the twin's, ``twin_followed``, whose tables show the card renamed only from the move on)."""
        in_model = _held(model)

        def renames(seen: Table) -> list[tuple[str, int, int]]:
            where = {code: pile for pile in seen.pile_ids for code in seen.codes(pile) if code != UNKNOWN}
            return [
                (pile, model.codes(pile).index(code), twin(code))
                for pile in model.pile_ids
                for code in in_sight(model, pile, self.partial)
                if twin(code) not in in_model
                and (
                    (where.get(twin(code)) == pile and where.get(code, pile) != pile)
                    or (
                        where.get(twin(code), pile) != pile
                        and code not in where
                        and (self.replaying or evidence.best_card(twin(code), where[twin(code)]) >= self.sure_card)
                    )
                )
            ]

        return self._renamed_legal(model, tries, renames)

    def _misread_renamed(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]], evidence: Evidence
    ) -> tuple[Table, list[tuple[int, int, Table, Explanation]]] | None:
        """The model with each face-up column card no reading ever confirmed (``_confirmed``) and none of these
        readings saw anywhere taken for the card a table the vote may show has in its place, a card the model holds
        nowhere; and the legal explanations of the tables with it; None if none (see ``unconfirmed_misread``)."""
        in_model = _held(model)

        def renames(seen: Table) -> list[tuple[str, int, int]]:
            found = []
            for pile in model.pile_ids:
                if model.game.pile(pile).role is not Role.TABLEAU:
                    continue
                up, now = face_up(model, pile), face_up(seen, pile)
                base = len(model.codes(pile)) - len(up)
                for k, card in enumerate(up):
                    if card == UNKNOWN or card in self._confirmed or card in evidence.seen or k >= len(now):
                        continue
                    other = now[k]
                    if other == UNKNOWN or other in in_model or evidence.support(other, pile) < self._need:
                        continue
                    if k + 1 < len(up) and up[k + 1] != UNKNOWN and not builds_on(model, pile, other, up[k + 1]):
                        continue
                    found.append((pile, base + k, other))
            return found

        return self._renamed_legal(model, tries, renames)

    def _moved_misread(
        self, model: Table, evidence: Evidence
    ) -> tuple[Table, list[tuple[int, int, Table, Explanation]]] | None:
        """The model with a face-up column top card never read sure and none of these readings saw anywhere taken for
        a new card the vote shows on top of another column (one the model holds nowhere), and the legal explanations,
        with moves, of the vote from it; None if no such card makes one (see ``moved_misread``)."""
        held = _held(model)
        seen = voted(evidence, self._need)
        columns = [pile for pile in model.pile_ids if model.game.pile(pile).role is Role.TABLEAU]
        for src in columns:
            up = face_up(model, src)
            if not up or up[-1] == UNKNOWN or up[-1] in evidence.seen or self._named_sure(up[-1], src):
                continue
            for dst in columns:
                shown = face_up(seen, dst)
                if dst == src or not shown or shown[-1] == UNKNOWN or shown[-1] in held:
                    continue
                renamed = with_card(model, src, len(model.codes(src)) - 1, shown[-1])
                legal = [item for item in self._legal(renamed, evidence)[1] if item[3].moves]
                if not legal and self.leave_out_new:  # (and a phantom elsewhere, as ``_leaving_out`` leaves out)
                    legal = [item for item in self._leaving_out(renamed, evidence) if item[3].moves]
                if legal:
                    return renamed, legal
        return None

    def _renamed_legal(
        self,
        model: Table,
        tries: dict[tuple[object, ...], tuple[Table, int]],
        renames: Callable[[Table], list[tuple[str, int, int]]],
    ) -> tuple[Table, list[tuple[int, int, Table, Explanation]]] | None:
        """For the first table the vote may show whose ``renames`` (pile, index, new card: one or two) make legal
        moves explain one of the tables, the model so renamed and those explanations; None if none does. A table that
        still holds a renamed card where the model had it (the vote completed by the model as it was, the card kept
        unread) explains nothing of the renamed model: its moves would turn the card up again from under its twin."""
        for seen, _ in tries.values():
            changes = renames(seen)
            if not changes or len(changes) > 2:
                continue
            renamed = model
            for pile, index, other in changes:
                renamed = with_card(renamed, pile, index, other)
            legal = self._moving_renamed(
                renamed, tries, [(pile, model.codes(pile)[index]) for pile, index, _ in changes]
            )
            if legal:
                return renamed, legal
        return None

    def _moving_renamed(
        self, renamed: Table, tries: dict[tuple[object, ...], tuple[Table, int]], kept: list[tuple[str, int]]
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations (``_moving``) from the model ``renamed`` of the tables the vote may show, but those
        that still hold a renamed card where the model had it (``kept``: pile, the card before its renaming)."""
        return [
            item
            for table, unseen in tries.values()
            if not any(card in table.codes(pile) for pile, card in kept)
            for item in self._moving(renamed, table, unseen)
        ]

    def _moving(self, model: Table, seen: Table, unseen: int) -> list[tuple[int, int, Table, Explanation]]:
        """``seen`` as a legal explanation item (see ``_legal``) if legal moves, one at least, explain it and leave a
        possible table; else nothing."""
        explanation = self._explain(seen, model)
        if explanation is None or not explanation.legal or not explanation.moves:
            return []
        if not _possible(_after(model, explanation, seen, self.partial)):
            return []
        return [(unseen, len(explanation.moves), seen, explanation)]

    def _dug_sure(self, evidence: Evidence, tries: dict[tuple[object, ...], tuple[Table, int]]) -> bool:
        """Whether a card the model has nowhere, read on a pile, was taken from under another card where the model
        holds an unread one (``dug_out``), read sure enough there for an accusation to rest on it. Such a card is
        no phantom to leave out of the vote (``leave_out_new``): in c-illegal-1 the 10C pulled from under the
        waste's queen was read on column 1 at 0.88-0.91 in 5 of 6 readings, left out, and the move went unsaid."""
        model = self.model
        assert model is not None
        for seen, _ in tries.values():
            dug = self._once("dug", seen, bind(dug_out, model, seen, self.partial, self.dig_unread))
            if dug is None or not _possible(reveal(dug[0], seen, self.partial)[0]):
                continue
            if self._pulled_new(model, dug[0], dug[1], evidence):
                return True
        return False

    def _gone_twins(
        self,
        model: Table,
        tries: dict[tuple[object, ...], tuple[Table, int]],
        evidence: Evidence,
        pairs: list[tuple[str, int, int]],
    ) -> tuple[Table | None, Evidence | None, list[tuple[int, int, Table, Explanation]]] | None:
        """Each pile's top card that no reading names there, where a table the vote may show has it nowhere and its twin
        (a card the model holds nowhere) on another pile: the model with those cards taken for their twins, where
        every twin was read sure (``sure_card``) where it lies, else the vote with the twins' readings there read as
        the cards (``pairs``: the renamings already made); and the legal explanations, so renamed, in which a card
        leaves such a pile, the card not kept there. None if none (see ``twin_gone``)."""
        in_model = _held(model)
        gone: dict[str, tuple[int, str]] = {}  # pile -> its card gone, and the pile where its twin is read
        for seen, _ in tries.values():
            where = {code: pile for pile in seen.pile_ids for code in seen.codes(pile) if code != UNKNOWN}
            for pile in model.pile_ids:
                up = in_sight(model, pile, self.partial)
                card = up[-1] if up else UNKNOWN
                if card == UNKNOWN or card != model.codes(pile)[-1] or card not in self._confirmed:
                    continue
                if twin(card) in in_model or where.get(card, pile) != pile or where.get(twin(card), pile) == pile:
                    continue  # (the card seen elsewhere, or its twin not seen elsewhere)
                if not any(card in named for named in evidence.named[pile]):
                    gone[pile] = (card, where[twin(card)])
            if gone:
                break
        if not gone:
            return None
        twin_model: Table | None = None
        twin_evidence: Evidence | None = None
        if all(evidence.best_card(twin(card), dst) >= self.sure_card for card, dst in gone.values()):
            # the twin read sure where it went: the model's card was the twin all along, misread where it lay
            twin_model = model
            for pile, (card, _) in gone.items():
                twin_model = with_card(twin_model, pile, len(model.codes(pile)) - 1, twin(card))
            legal = self._moving_renamed(twin_model, tries, [(pile, card) for pile, (card, _) in gone.items()])
        else:  # the card read unsure as its twin where it went: the card the model has keeps its name
            renames = [*pairs, *((dst, twin(card), card) for card, dst in gone.values())]
            twin_evidence = self._renamed(renames, list(self._recent), list(self._recent_cards))
            tries, legal = self._legal(model, twin_evidence)
        # a column's last face-up card gone from over face-down cards turns the next one up, which no reading may
        # have named yet: the tables the vote may show with an unknown card there (heldout17's bk-misdeal-1: the
        # 10C moved off column 7 onto the JH, read as the 10S there, column 7 read empty)
        base = twin_model if twin_model is not None else model
        turned = [
            pile
            for pile in gone
            if base.game.pile(pile).role is Role.TABLEAU and base.face_down_count(pile) == len(base.codes(pile)) - 1 > 0
        ]
        for table, unseen in list(tries.values()):
            bare = [pile for pile in turned if not table.codes(pile)]
            if bare:
                shown = [[*table.codes(p), *([UNKNOWN] if p in bare else [])] for p in table.pile_ids]
                legal += self._moving(base, with_piles(table, shown), unseen)
        # (the tables that keep the card where it lay, completed by the model as it was, are no such explanation)
        moved = [
            item
            for item in legal
            if any(move.src in gone for move in item[3].moves)
            and not any(card in item[2].codes(pile) for pile, (card, _) in gone.items())
        ]
        return (twin_model, twin_evidence, moved) if moved else None

    def _pulled_vanished(self, model: Table, notation: str, card: int, evidence: Evidence) -> bool:
        """Whether ``card``, said taken from under another (``notation`` SRC-N>DST), was seen gone from ``SRC`` and
        read at ``DST`` (see ``vanished_pull``)."""
        src, over, dst = _pulled(notation)
        codes = model.codes(src)
        position = len(codes) - 1 - over
        if card not in self._confirmed or model.game.pile(src).role is not Role.WASTE:
            return False
        if not model.face_down_count(src) < position < len(codes) - 1 or codes[position] != card:
            return False
        below, above = codes[position - 1], codes[position + 1]
        if UNKNOWN in (below, above) or any(card in named for named in evidence.named[src]):
            return False
        both = sum(1 for places in evidence.orders(src) if below in places and above in places)
        if both < self.votes or evidence.unread_between(src, below, above) != 0:
            return False  # (the fan's cards on either side of it not seen side by side: it may lie between, unread)
        reads = sum(1 for named in evidence.named[dst] if named)
        return evidence.support(card, dst) >= max(self.votes, math.ceil(0.75 * reads))

    def _pulled_new(self, model: Table, after: Table, notation: str, evidence: Evidence) -> bool | None:
        """For a card taken from under another (``notation`` SRC-N>DST, giving ``after``) that the model had
        nowhere: whether it was read sure enough for an accusation to rest on it, with ``sure_card`` confidence and
        never named before with ``new_card`` confidence (a card an earlier reading named, the top of a stock turn the
        vote missed, is more likely the model's mistake than a hidden card pulled out; a glimpse is not: sc-illegal-1's
        JD, read once at 0.33 as the waste fan's middle card it was then pulled from). None for a card the model had."""
        dst = notation.split(">")[1]
        card = after.codes(dst)[-1]
        if any(card in model.codes(pile) for pile in model.pile_ids):
            return None
        return evidence.best_card(card, dst) >= self.sure_card and self._named_before.get(card, 0.0) < self.new_card

    def _leaving_out(
        self, model: Table, evidence: Evidence, misreads_only: bool = False
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations of the vote without one or two of the cards it places that the model has nowhere
        (a phantom read in most frames, such as a court card's picture read as a card, is no move's doing), or
        cards it holds under another card of a foundation, read unsure elsewhere (``leave_out_buried``). With
        ``misreads_only``, only cards read instead of a card the model has on that pile (never with it)."""
        known = _held(model)
        buried = _buried(model, evidence, self._need) if self.leave_out_buried else frozenset()
        new = sorted(
            (card, place[0])
            for card in evidence.seen
            if (place := evidence.place(card)) is not None
            and place[1] >= self._need
            and (
                card not in known
                or (
                    card not in model.codes(place[0])
                    and evidence.best_card(card, place[0]) < self.sure_card
                    and (
                        card in buried
                        or (self.leave_out_read_between and _read_between(model, evidence, card, place[0]))
                    )
                )
            )
        )
        if misreads_only:
            new = [(card, pile) for card, pile in new if _read_instead(model, evidence, card, pile)]
        if len(new) > 4:
            return []
        for size in (1, 2):
            for left in combinations(new, size):
                fewer = Evidence(
                    list(self._recent),
                    list(self._recent_cards),
                    floor=self.new_card,
                    known=self._known_places(),
                    left_out=frozenset(left),
                )
                legal = self._legal(model, fewer)[1]
                if legal:
                    return legal
        return []

    def _strict(self, evidence: Evidence) -> Evidence:
        """The vote over ``evidence``'s readings in which a card the model does not have anywhere counts only if read
        with ``sure_card`` confidence (a misread repeated in every frame is read below it: a court card read as
        another)."""
        assert self.model is not None
        return Evidence(
            list(evidence.readings),  # (as given: a card and its twin read as one stay so)
            list(evidence.read_cards) if evidence.read_cards is not None else None,
            floor=self.new_card,
            known=self._known_places(),
            new_floor=self.sure_card,
            model_cards=frozenset(code for pile in self.model.pile_ids for code in self.model.codes(pile)),
        )

    def _legal(
        self, model: Table, evidence: Evidence
    ) -> tuple[dict[tuple[object, ...], tuple[Table, int]], list[tuple[int, int, Table, Explanation]]]:
        """The tables the vote may show (completed by the model in a few ways) and those legal moves explain:
        (cards of the model left out unseen, moves, table, explanation)."""
        need = self._need
        tries: dict[tuple[object, ...], tuple[Table, int]] = {}
        combos = [(0, 0, 1, 0), (1, 0, 1, 0), (0, 1, 1, 0), (0, 0, 0, 0), (0, 1, 0, 0)]
        # a card held confirmed on a column (or a foundation) read in the waste's fan is read out of place: its
        # place there is no unread card of the fan (yk-legal-1)
        strays = frozenset(
            card
            for card, pile in (self._held_elsewhere(model, evidence) if self.fan_strays else {}).items()
            if model.game.pile(pile).role is not Role.WASTE
        )
        if self.carry_runs:
            combos += [(0, 0, 1, 1), (1, 0, 1, 1)]
        for strong, drop, fanned, carry in combos:
            seen, unseen = completed(
                model,
                evidence,
                self.votes if strong else need,
                drop_unseen=bool(drop),
                partial=self.partial,
                fanned=bool(fanned),
                carry=bool(carry),
                strays=strays,
            )
            seen = self._with_unread(model, seen)
            tries.setdefault(seen.key(), (seen, unseen))
        cut_from: dict[tuple[object, ...], tuple[object, ...]] = {}  # a foundation cut short: the vote it was cut from
        if self.foundation_jump_doubted and evidence.per_card:
            for key, (seen, unseen) in list(tries.items()):
                for cut in _foundations_cut(model, seen, evidence, self.foundation_jump_sure):
                    if cut.key() not in tries:
                        tries[cut.key()] = (cut, unseen)
                        cut_from[cut.key()] = key
        legal: list[tuple[int, int, Table, Explanation]] = []
        for seen, unseen in tries.values():
            explanation = self._explain(seen, model)
            if explanation is None or not explanation.legal:
                continue
            if _possible(_after(model, explanation, seen, self.partial)):
                legal.append((unseen, len(explanation.moves) or 99, seen, explanation))
        # a foundation's jump read unsure is believed only where no foundation cut short explains the table, and
        # then the shortest cut that does (the fewest cards the readings never saw)
        shortest: dict[tuple[object, ...], tuple[object, ...]] = {}  # vote cut -> its shortest cut explained
        for item in legal:
            if item[2].key() in cut_from:
                shortest.setdefault(cut_from[item[2].key()], item[2].key())  # (cuts were tried shortest first)
        taken = set(shortest.values())
        return tries, [
            item
            for item in legal
            if item[2].key() not in shortest and (item[2].key() not in cut_from or item[2].key() in taken)
        ]

    def _fresh_on_unread(
        self, model: Table, evidence: Evidence, legal: list[tuple[int, int, Table, Explanation]]
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanation of the vote that ``legal`` takes for no change, if it took for unread face-up
        cards of a packet (a waste) cards that came up since (see ``fresh_on_unread``); else empty."""
        unread_tops = [
            pile
            for pile in model.pile_ids
            if model.game.pile(pile).role is not Role.TABLEAU
            and face_up(model, pile)[-1:] == (UNKNOWN,)
            and self._tops_before.get(pile)
        ]
        if not unread_tops or self._tops_for != model.key():  # (most readings: a table unchanged, every top known)
            return []
        unchanged = min(legal, key=lambda item: (item[0], item[1]))
        seen = unchanged[2]
        fresh = [
            (pile, code)
            for pile, index, code in reveal(model, seen, self.partial)[1]
            if pile in unread_tops
            and index == len(model.codes(pile)) - 1
            and code not in self._tops_before[pile]
            and code not in self._named_before
            and evidence.support(code, pile) >= self.votes
            and evidence.best_card(code, pile) >= self.sure_card
        ]
        if not fresh:
            return []
        # each unread face-up card of those piles held to be a card no reading named: no reading can show it there
        named = {*self._named_before, *self._named_now}
        held = _held(model)
        stand_ins = [code for code in full_deck(model.game.packs) if code not in named and code not in held]
        stand_in = model
        for pile in dict.fromkeys(pile for pile, _ in fresh):
            for index in range(model.face_down_count(pile), len(model.codes(pile))):
                if model.codes(pile)[index] == UNKNOWN:
                    if not stand_ins:
                        return []
                    stand_in = with_card(stand_in, pile, index, stand_ins.pop())
        explanation = self._explain(seen, stand_in)
        if explanation is None or not explanation.legal or not explanation.moves:
            return []
        if not _possible(_after(model, explanation, seen, self.partial)):
            return []
        return [(unchanged[0], len(explanation.moves), seen, explanation)]

    def _with_unread(self, model: Table, seen: Table) -> Table:
        """``seen`` with the unknown card of each pile left unread at the deal (``_unread``) put back at the
        bottom of what was seen there, where the readings saw no card on that pile or only cards the model holds
        (cards put on it since): a camera reading cannot list a card it could not read."""
        if not self._unread:
            return seen
        known = _held(model) - {UNKNOWN}
        blank = [
            p
            for p in self._unread
            if face_up(model, p)[:1] == (UNKNOWN,) and (not face_up(seen, p) or face_up(seen, p)[0] in known)
        ]
        # a run moved off such a card to another pile took the card with it when the card under the run's first
        # card read there is the unknown one (a king's run moved into a space, its king unread)
        carried = [
            p
            for p in seen.pile_ids
            if p not in blank
            and face_up(seen, p)
            and any(
                face_up(model, q)[:2] == (UNKNOWN, face_up(seen, p)[0])
                and q != p
                and face_up(model, p)[:1] != (UNKNOWN,)
                for q in self._unread
            )
        ]
        if not blank and not carried:
            return seen
        piles = [
            [
                *seen.codes(p)[: seen.face_down_count(p)],
                *([UNKNOWN] if p in blank or p in carried else []),
                *face_up(seen, p),
            ]
            for p in seen.pile_ids
        ]
        downs = [seen.face_down_count(p) for p in seen.pile_ids]
        return Table(seen.game, piles, downs, stage=seen.stage)

    def _onto_unread(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]], max_moves: int | None = None
    ) -> list[tuple[int, int, Table, Explanation]]:
        """Legal explanations of the vote in which cards were put on a pile's card left unread at the deal. The
        engine cannot judge a move onto an unknown card, so each card the unread one may be (one the model has
        nowhere, on which a card of the model may legally go there) is put in its place in turn; the change is
        legal when one of them explains it, and the card stays unknown (the explanation is said of the model)."""
        found: list[tuple[int, int, Table, Explanation]] = []
        for pile in sorted(self._unread):
            if face_up(model, pile) != (UNKNOWN,):
                continue
            covered = [(seen, unseen) for seen, unseen in tries.values() if face_up(seen, pile)[1:]]
            found += self._guessed(model, pile, covered, max_moves)
        return found

    def _guessed(
        self, model: Table, pile: str, covered: list[tuple[Table, int]], max_moves: int | None = None
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations of the tables ``covered`` (cards put on ``pile``'s top card, which the model
        holds unknown) with each card the unknown one may be in its place (see ``_onto_unread``)."""
        if not covered:
            return []  # nothing was put on it (as on every reading of a table that did not change)
        fits = _guesses(model, pile, len(model.codes(pile)) - 1)
        return self._by_guesses(model, fits, covered, max_moves or self.max_moves)

    def _by_guesses(
        self,
        model: Table,
        guesses: list[Table],
        covered: list[tuple[Table, int]],
        max_moves: int,
        named: tuple[str, int] | None = None,
    ) -> list[tuple[int, int, Table, Explanation]]:
        """The legal explanations of the tables ``covered``, each by the first of ``guesses`` (the model with its
        unknown card taken for a card it may be) that explains it, the card staying unknown: said of the model,
        or, with ``named`` (the guessed card's pile and place), of the guess when the readings name that card now."""
        found: list[tuple[int, int, Table, Explanation]] = []
        for seen, unseen in covered:
            for guess in guesses:
                # the same guesses meet the same tables frame after frame while a vote stays unexplained
                explanation = self._searched(
                    ("guess", (guess.key(), seen.key(), max_moves)), bind(explain, guess, seen, max_moves, self.partial)
                )
                if explanation is None or not explanation.legal or not explanation.moves:
                    continue
                after = _after(model, explanation, seen, self.partial)
                if not _possible(after):
                    continue
                card = guess.codes(named[0])[named[1]] if named is not None else UNKNOWN
                if card != UNKNOWN and card in {c for p in after.pile_ids for c in after.codes(p)}:
                    said = explanation.sentences  # the card is read where it went: it is the guess
                else:
                    said = _moves_event(0.0, model, explanation.moves, 1.0).sentences
                found.append((unseen, len(explanation.moves), seen, Explanation(explanation.moves, True, said)))
                break
        return found

    def _onto_doubted(
        self, model: Table, tries: dict[tuple[object, ...], tuple[Table, int]]
    ) -> tuple[Table, str, list[tuple[int, int, Table, Explanation]]] | None:
        """When no legal move explains the vote and cards were put on a column's top card that no reading named
        with ``sure_card`` confidence: the legal explanations with that card unknown (a card misread alike in
        every frame, such as a 2 of hearts read as the ace at 0.64, would make the legal move onto it look
        illegal and lose the game). Returns the model with the card unknown, the pile, and the explanations;
        None if no weakly read card explains the change."""
        for pile in model.pile_ids:
            up = face_up(model, pile)
            if model.game.pile(pile).role is not Role.TABLEAU or not up or up[-1] == UNKNOWN or pile in self._unread:
                continue
            if self._read_sure(up[-1], pile):
                continue
            covered: dict[tuple[object, ...], tuple[Table, int]] = {}
            for seen, unseen in tries.values():
                seen_up = face_up(seen, pile)
                if len(seen_up) <= len(up) or seen_up[: len(up)] != up:
                    continue  # nothing put on the card (or the readings disagree with the model under it)
                hidden = with_card(seen, pile, seen.face_down_count(pile) + len(up) - 1, UNKNOWN)
                covered.setdefault(hidden.key(), (hidden, unseen))
            if not covered:
                continue
            blank = with_card(model, pile, len(model.codes(pile)) - 1, UNKNOWN)
            found = self._guessed(blank, pile, list(covered.values()))
            if found:
                return blank, pile, found
        return None

    def _read_sure(self, card: int, pile: str) -> bool:
        """Whether readings named ``card`` at ``pile`` surely enough to take it at its word (``doubt_weak_reads``):
        one of them with ``sure_card`` confidence, and half with ``steady_card``. With ``fold_twins``, the
        confidences that it is the card or its twin: a move onto a column's card judged by rank and colour (the
        build down in alternate colours) is not taken from the player for a suit the reader cannot tell."""
        reads = self._reads.get((card, pile), [])
        if self.fold_twins and (kinds := self._kind_reads.get((card, pile))):
            reads = kinds
        return bool(reads) and max(reads) >= self.sure_card and statistics.median(reads) >= self.steady_card

    def _kinds_now(self, card: int, pile: str) -> list[float]:
        """Each reading of the still table in view that named ``card`` at ``pile``: its confidence that the card
        there is ``card`` or its twin (its own confidence where the reader gave no other)."""
        out = []
        for cards, kinds in zip(self._recent_cards, self._recent_kinds, strict=True):
            if cards and (pile, card) in cards:
                out.append(max(cards[(pile, card)], (kinds or {}).get((pile, card), 0.0)))
        return out

    def _waste_doubted(
        self, model: Table, evidence: Evidence, best: tuple[int, int, Table, Explanation]
    ) -> tuple[Table, tuple[int, int, Table, Explanation]] | None:
        """The model with one weakly learnt waste card unknown (see ``doubt_weak_waste``) and the explanation of
        the vote from it, if that explanation needs fewer moves than ``best`` (the model's own) and the card the
        readings name in the doubted card's place now was read surer than the doubted card ever was, or the
        explanation names more of the waste's read cards than ``best`` does (``doubt_waste_held``); else None."""
        for pile in model.pile_ids:
            if model.game.pile(pile).role is not Role.WASTE:
                continue
            codes = model.codes(pile)
            known = [i for i in reversed(range(len(codes))) if codes[i] != UNKNOWN][:3]
            for index in known:
                doubted = max(self._reads.get((codes[index], pile), [0.0]))
                if doubted >= self.doubt_weak_waste:
                    continue
                blank = with_card(model, pile, index, UNKNOWN)
                found = [
                    item
                    for item in self._legal(blank, evidence)[1]
                    if item[3].moves and (item[0], item[1]) < (best[0], best[1])
                ]
                for item in sorted(found, key=lambda item: (item[0], item[1])):
                    after = _after(blank, item[3], item[2], self.partial)
                    now = after.codes(pile)[index] if index < len(after.codes(pile)) else UNKNOWN
                    if now in (UNKNOWN, codes[index]) or not _possible(after):
                        continue
                    fuller = self.doubt_waste_held and _read_in(item[2], pile) > _read_in(best[2], pile)
                    if fuller or evidence.best_card(now, pile) > doubted:
                        return blank, item
        return None

    def _read_now(self, model: Table, seen: Table) -> Table | None:
        """The model with the cards ``seen`` reads on piles left unread at the deal, if it reads any (else None);
        those piles are no longer unread."""
        found = [
            (pile, index, code)
            for pile, index, code in reveal(model, seen, self.partial)[1]
            if pile in self._unread and self._may_lie_under(model, pile, index, code)
        ]
        if not found:
            return None
        for pile, index, code in found:
            model = with_card(model, pile, index, code)
            self._unread.discard(pile)
        return model

    @staticmethod
    def _may_lie_under(model: Table, pile: str, index: int, code: int) -> bool:
        """May the unknown card at ``index`` of ``pile`` be ``code``, given the card the model has on it? A card
        put there was judged legal onto the unknown one (``_guessed``): a reading that names it as a card the
        moved one cannot go on (a 2 of hearts read as the 3 under an ace) is a misread."""
        codes = model.codes(pile)
        if index + 1 >= len(codes) or codes[index + 1] == UNKNOWN:
            return True
        return builds_on(model, pile, code, codes[index + 1])

    def _mistake(
        self,
        t: float,
        evidence: Evidence,
        tries: dict[tuple[object, ...], tuple[Table, int]],
    ) -> list[Event]:
        """No legal move explains what is seen: an illegal move when the readings are sure of it (and were at
        the previous look), else wait, and after ``patience`` readings ask the player to hold still."""
        model = self.model
        assert model is not None
        if evidence.per_card and self.sure_tries:
            # last, the tables without the cards the model does not know that no reading named with ``sure_card``
            strict = self._strict(evidence)
            for drop in (0, 1):
                seen, unseen = completed(model, strict, self._need, drop_unseen=bool(drop), partial=self.partial)
                tries = {**tries, seen.key(): tries.get(seen.key(), (seen, unseen))}
        found: tuple[Table, Table, str, str, tuple[str, ...]] | None = None
        blind: tuple[Table, Table, str, str, tuple[str, ...]] | None = None
        for seen, _ in tries.values():  # the tables that use the most of the readings first
            explanation = self._explain(seen)
            if explanation is not None and not explanation.legal:
                move = explanation.moves[0]
                after = model.copy()
                after.push(move)
                candidate = (seen, after, explanation.reason, str(move), explanation.sentences[:1])
                # (an impossible one, such as a face-down card turned into a card the table holds, is passed over:
                # the card may have been taken from under another, below)
                if _possible(reveal(after, seen, self.partial)[0]):
                    first = len(model.codes(move.src)) - move.count
                    if model.codes(move.src)[first] != UNKNOWN and first >= model.face_down_count(move.src):
                        found = candidate
                        break
                    blind = blind or candidate  # a face-down card put somewhere: the weakest explanation
            dug = self._once("dug", seen, bind(dug_out, model, seen, self.partial, self.dig_unread))
            if dug is not None and _possible(reveal(dug[0], seen, self.partial)[0]):
                found = (seen, dug[0], dug[2], dug[1], ())
                break
        if found is None and blind is not None:  # a move of a face-down card: never announced
            found, sure_cap = blind, 0.0
        else:
            sure_cap = 1.0
        if found is not None and self.under_not_moved and self._read_under(model, found[1]):
            found = None  # the card lay there all along, missed by the model: no move's doing
        if found is not None and "-" in found[3]:
            # from under: a card the model had nowhere must be read sure (``_pulled_new``), and so must a card it had,
            # where it went (a card's twin read on a column where the card was put looked dug out from under a
            # foundation's top)
            src, _, dst = _pulled(found[3])
            card = found[1].codes(dst)[-1]
            weak = evidence.per_card and evidence.best_card(card, dst) < self.sure_card
            if weak and self.vanished_pull and self._pulled_vanished(model, found[3], card, evidence):
                weak = False  # (read unsure where it went, but seen gone from between the cards it lay between)
            if weak or self._pulled_new(model, found[1], found[3], evidence) is False:
                sure_cap = 0.0
            top = model.codes(src)[-1] if model.codes(src) else UNKNOWN
            if self.twin_would_do and top == twin(card) and reference_is_legal(model, Move.parse(f"{src}>{dst}")):
                sure_cap = 0.0  # (the top card went there legally, read as its twin: see ``twin_would_do``)
        legal_around: tuple[tuple[Move, ...], tuple[Move, ...]] = ((), ())
        if found is None:  # the illegal move with a legal one before or after it (one still table missed)
            for seen, _ in tries.values():
                mixed = self._once("mixed", seen, bind(_mixed, model, seen, self.max_moves, self.partial))
                if mixed is not None:
                    ahead, move, then = mixed
                    before = table_after(model, ahead)
                    after = table_after(before, (move, *then))
                    found = (seen, after, why_illegal(before, move), str(move), (before.describe(move),))
                    legal_around = (ahead, then)
                    if self.under_not_moved and self._read_under(before, table_after(before, (move,))):
                        sure_cap = 0.0  # (the card may have lain there all along, as above: not the player's doing)
                    break
        if found is not None:
            # (judged on the table just before the move: after the legal moves found ahead of it, if any)
            before = table_after(model, legal_around[0])
            src, card = _taken_card(before, found[1], found[3])
            if (
                self.dug_twin_unseen
                and before.game.pile(src).role is Role.FOUNDATION
                and card != UNKNOWN
                and twin(card) not in _held(before)
            ):
                sure_cap = 0.0  # (its twin, a card nobody has seen yet, more likely came up: see ``dug_twin_unseen``)
        if found is not None and "-" not in found[3]:
            if self.twin_would_do and self._twin_would_do(before, found[3]):
                sure_cap = 0.0  # (a suit the reader may have misread decides it: see ``twin_would_do``)
                if self.twin_followed and legal_around == ((), ()):
                    followed = self._as_twin(model, found[0], found[3])
                    if followed is not None:
                        self._suspect = None
                        self.model = followed[0]
                        return self._accept(t, evidence, followed[1], followed[2])
            taken = Move.parse(found[3])
            if self.gap_unread and (
                _gap_filled(before, found[3], set(evidence.seen))
                or _twins_in_run(before, found[3], evidence)
                or _unread_onto_foundation(before, taken)
            ):
                # (cards put first, unread, would make it legal, or several put on a foundation were not all read;
                # or a "run" holding a card and its twin is one card read both ways: see ``gap_unread``)
                sure_cap = 0.0
        if found is None:
            self._suspect = None
            self._settled = False  # a change nobody can explain yet
            if not self._impatient:
                return []
            if redone := self._redone(t, evidence, tries):
                return redone
            if self._relearn():
                return self._restart(t, evidence)
            return [Event(EventKind.UNCLEAR, t, "I cannot follow that change: please hold still", confidence=0.0)]
        seen, after, reason, notation, sentences = found
        unjudged = self.judged_only and not judged(reason)
        touched = [p for p in model.pile_ids if face_up(model, p) != face_up(after, p)]
        places = {card: p for p in model.pile_ids for card in face_up(model, p) if card != UNKNOWN}
        moved = [card for p in after.pile_ids for card in face_up(after, p) if places.get(card, p) != p]
        if any(card not in self._confirmed for card in moved):
            sure_cap = 0.0  # the model had this card there on weak evidence: no accusation can rest on it
        landed_on = [
            face_up(model, p)[-1]
            for p in touched
            if face_up(model, p) and face_up(after, p)[: len(face_up(model, p))] == face_up(model, p)
        ]
        if self._midway and any(card != UNKNOWN and card not in self._confirmed for card in landed_on):
            sure_cap = 0.0  # nor, in a game taken up midway, on an unconfirmed card the moved cards were put on
        if self.doubt_after_unexplained and self._behind:
            # nor on a pile where the still table before, which no move explained, had a card the accused table
            # lacks (there, with ``behind_unmoved``, where the change left it elsewhere): the model may be a move
            # behind, and that card now unread
            kept = {card: p for p in model.pile_ids for card in face_up(model, p) if card != UNKNOWN}
            now = {card: p for p in after.pile_ids for card in face_up(after, p) if card != UNKNOWN}
            if any(
                pile in touched and (card not in now or (self.behind_unmoved and kept.get(card) == now[card] != pile))
                for card, pile in self._behind
            ):
                sure_cap = 0.0
        if any(not face_up(model, p) and p not in self._seen_empty for p in touched):
            sure_cap = 0.0  # nor on a pile the model has empty that was never read empty
        if self.backs_under and any(self._backs_unseen(after, p) for p in touched):
            sure_cap = 0.0  # nor on a column whose face-down cards the readings do not see
        if self._midway and any(model.game.pile(p).role is Role.FOUNDATION for p in touched):
            sure_cap = 0.0
        if self.read_above_doubted and any(p in self._read_above for p in touched):
            held = _held(reveal(after, seen, self.partial)[0])
            read_above = [card for p in touched for card, n in self._read_above.get(p, {}).items() if n >= self.votes]
            if any(card not in held for card in read_above):
                sure_cap = 0.0  # nor on a pile where readings saw a card on its top that no move followed put there
        if self.taken_empty_doubted and any(p in self._taken_empty for p in touched):
            sure_cap = 0.0  # nor on a column taken up empty that no followed move changed: a card may lie unread
        elsewhere = frozenset(self._held_elsewhere(after, evidence, touched))
        if _others_seen(reveal(after, seen, self.partial)[0], touched, evidence, self.seen_in, elsewhere):
            sure_cap = 0.0  # nor on a pile where the readings saw a card the model lost
        anchored = sum(
            1
            for p in model.pile_ids
            for card in in_sight(model, p, self.partial)
            if card in self._confirmed and card not in moved and evidence.support(card, p) >= self.votes
        )
        if anchored < max(2, len(moved)):
            # a player's move leaves the rest of the table where it was: a reading that has more known cards
            # elsewhere than in place (a whole row read one pile over) is the reader's mistake, not the player's
            sure_cap = 0.0
        sure = min(
            sure_cap,
            _change_confidence(model, after, evidence, self.votes),
            _piles_confirmed(
                reveal(after, seen, self.partial)[0],
                touched,
                evidence,
                self.votes,
                self.partial,
                covered=self._covered(after, moved, evidence, model, notation) if self.covered_kept else frozenset(),
            ),
        )
        repeated = self._suspect == notation or self.votes <= 1
        self._suspect = notation
        if sure < self.confident or not repeated:
            self._settled = False
            if not self._impatient:
                return []
            return [Event(EventKind.UNCLEAR, t, "please hold still, I am reading the table again", confidence=sure)]
        self._suspect = None
        if redone := self._redone(t, evidence, tries):
            return redone
        events = [self._adopt(t, model, after, seen, evidence, sure)]
        if unjudged:  # a move of, or onto, a card never read: no rule can be named, only the table followed
            text = "a card I could not read has moved: I follow the table as I see it"
            return [*events, Event(EventKind.UNCLEAR, t, text, confidence=sure)]
        ahead, then = legal_around
        if ahead:
            events.append(_moves_event(t, model, ahead, sure))
        events.append(Event(EventKind.ILLEGAL, t, reason, (notation,), confidence=sure, sentences=sentences))
        if then:
            events.append(_moves_event(t, table_after(model, (*ahead, Move.parse(notation))), then, sure))
        return events

    def _redone(self, t: float, evidence: Evidence, tries: dict[tuple[object, ...], tuple[Table, int]]) -> list[Event]:
        """The game followed from the table before the last legal moves, where legal moves lead from it to one of
        the tables ``tries`` (the readings' tables, most used first) that the model cannot reach legally (see
        ``last_move_redone``); no events where none does. Where they begin with the moves followed, those were
        right and only a card they turned up was misread: the model forgets it and follows on from there with the
        moves after them (not said twice)."""
        before, last = self._before_last, self._last_moves
        if not self.last_move_redone or before is None:
            return []
        for seen, _ in tries.values():
            explanation = self._explain(seen, before)
            if explanation is None or not explanation.legal or not explanation.moves:
                continue
            if explanation.moves[: len(last)] != last:
                self.model = before  # (``_accept`` clears what was cached for the model)
                return self._accept(t, evidence, seen, explanation, retracts=tuple(map(str, last)))
            base = table_after(before, last)
            rest = self._explain(seen, base)
            if rest is None or not rest.legal or not rest.moves:
                continue  # (the card turned up read anew, and no move: a change may hide behind it)
            self.model = base
            return self._accept(t, evidence, seen, rest)
        return []

    def _twin_would_do(self, model: Table, notation: str) -> bool:
        """Would the move ``notation`` be legal with the card moved, or the card it lands on, read as its twin, where
        the model holds that twin nowhere and never read the card itself sure (``_named_sure``)? (see
        ``twin_would_do``)"""
        return next(self._as_twins(model, notation), None) is not None

    def _as_twins(self, model: Table, notation: str) -> Iterator[tuple[int, Table]]:
        """Each card ``_twin_would_do`` may take for its twin, the moved card first, then the card it lands on: (the
        card, the model with it renamed), where the move is legal so."""
        move = Move.parse(notation)
        held = _held(model)
        first = len(model.codes(move.src)) - move.count
        for pile, index in ((move.src, first), (move.dst, len(model.codes(move.dst)) - 1)):
            if index < model.face_down_count(pile) or index < 0:
                continue
            card = model.codes(pile)[index]
            if card == UNKNOWN or twin(card) in held or self._named_sure(card, pile):
                continue
            renamed = with_card(model, pile, index, twin(card))
            if reference_is_legal(renamed, move):
                yield card, renamed

    def _named_sure(self, card: int, pile: str) -> bool:
        """Did readings of still tables name ``card`` on ``pile`` sure, by its own name's confidences (the suit is in
        question, so not by its rank and colour's): once at ``sure_card`` and in the median at ``steady_card``?"""
        reads = self._reads.get((card, pile), [])
        return bool(reads) and max(reads) >= self.sure_card and statistics.median(reads) >= self.steady_card

    def _as_twin(self, model: Table, seen: Table, notation: str) -> tuple[Table, Table, Explanation] | None:
        """The model and ``seen`` with a card ``_as_twins`` offers taken for its twin (in ``seen`` too, where the move
        put it), and the legal explanation of ``seen`` so read from that model; None if no such reading explains it
        (see ``twin_followed``)."""
        for card, renamed in self._as_twins(model, notation):
            read = with_piles(
                seen, [[twin(card) if code == card else code for code in seen.codes(p)] for p in seen.pile_ids]
            )
            explanation = self._explain(read, renamed)
            if explanation is not None and explanation.legal and explanation.moves:
                return renamed, read, explanation
        return None

    def _read_under(self, model: Table, after: Table) -> bool:
        """Whether most readings that show a card ``after`` puts on a pile's top card, and that top card, show the
        card under it (see ``under_not_moved``)."""
        for pile in after.pile_ids:
            before, now = face_up(model, pile), face_up(after, pile)
            if not before or before[-1] == UNKNOWN or len(now) <= len(before) or now[: len(before)] != before:
                continue
            for card in now[len(before) :]:
                orders = [
                    codes.index(card) < codes.index(before[-1])
                    for reading, _ in self._recent
                    if card in (codes := reading.codes(pile)) and before[-1] in codes
                ]
                if orders.count(True) > orders.count(False):
                    return True
        return False

    def _covered(
        self, after: Table, moved: list[int], evidence: Evidence, model: Table | None = None, notation: str = ""
    ) -> frozenset[tuple[int, str]]:
        """(card, pile) of the cards of ``after`` that stay in place, confirmed there, under the cards the change
        moved onto them (right under them, or deeper when the card they landed on is seen or covered), and that no
        reading of this still table saw anywhere else: hidden by the moved card, or partly (a card covered by one
        nobody moved, say one turned from the stock, must still be seen). A card pulled from under another
        (``notation`` SRC-N>DST, from ``model``) lets the card on it down onto the card that was under it: that
        one is covered so too (pk-illegal-1, penguins, enrolled: the 9H pulled from under the 8S, the 10S under
        it read in 2 readings of 8 once the 8S lay on it, and the accusation withheld)."""
        out: set[tuple[int, str]] = set()
        if self.pulled_covers and model is not None and "-" in notation:
            src, over, _ = _pulled(notation)
            codes = model.codes(src)
            under = len(codes) - 2 - over
            if model.face_down_count(src) <= under and codes[under] != UNKNOWN:
                card = codes[under]
                elsewhere = any(p != src and n > 0 for p, n in evidence.seen.get(card, Counter()).items())
                if card in self._confirmed and not elsewhere:
                    out.add((card, src))
        for pile in after.pile_ids:
            up = face_up(after, pile)
            first = next((k for k, card in enumerate(up) if card in moved), 0)  # the moved cards lie on top
            for k in reversed(range(first)):
                card = up[k]
                # right under the moved cards; or deeper, under the card they landed on when the readings see that
                # one or it is covered itself: a reader that misses it now cannot make the move's colours or ranks
                # wrong (k-illegal-3: a queen under the jack a jack was put on, read in no reading)
                landed = up[first - 1]
                hidden = k == first - 1 or landed in evidence.seen or (landed, pile) in out
                # seen by some readings, only there: partly hidden (k-illegal-2, penguins: the 9D under the 8S a 7C
                # was put on, read in 2 readings of 8)
                elsewhere = any(p != pile and n > 0 for p, n in evidence.seen.get(card, Counter()).items())
                if hidden and card in self._confirmed and not elsewhere:
                    out.add((card, pile))
        return frozenset(out)

    def _relearn(self) -> bool:
        """This still table is unexplained after ``patience`` readings: is it time to start again from it? In a
        replay at once: the live tracker logged only still tables it took, so one no move explains is where
        it started again (``LOST``)."""
        self._lost = True
        return self.replaying or self._lost_tables + 1 >= self.relearn_after

    def _restart(self, t: float, evidence: Evidence) -> list[Event]:
        """Take the table in view as the game under way (``LOST``): accuse nobody of what came before."""
        seen = voted(evidence, self._need)
        if not _possible(seen):
            return [Event(EventKind.UNCLEAR, t, "I cannot follow that change: please hold still", confidence=0.0)]
        model = _start_from_sighting(seen) if self.partial else seen.copy()
        self._midway = True
        model.stage = Stage.PLAY
        if self.model is not None:
            self._taken_empty = _empty_unsure(self.model, model, self._taken_empty)
        self.model = model
        self._cache.clear()
        self._slow.clear()
        self._suspect, self._lost, self._lost_tables = None, False, 0
        return self._from_here(t, _view(model, self.partial), evidence, LOST)

    def _from_here(self, t: float, view: Table, evidence: Evidence, text: str) -> list[Event]:
        """The model was just taken from the table in view (``view``, as read): settle on it, confirm what the
        readings saw, and say ``text`` (nothing before it is checked, nobody accused)."""
        self._settled = True
        self._before_last = None
        self._read_above = {}
        self._confirmed, self._seen_empty = set(), set()
        self._confirm(evidence)
        self._known = {}
        still = Event(
            EventKind.STILL,
            t,
            "the table is still",
            table=view,
            confidence=0.0,
            cards=self._card_confidences(view, evidence),
        )
        return [still, Event(EventKind.UNCLEAR, t, text, confidence=0.0)]

    def _adopt(self, t: float, model: Table, after: Table, seen: Table, evidence: Evidence, sure: float) -> Event:
        """Make ``after`` (the model changed by the moves found) the model, with the cards ``seen`` reveals, and
        say the table is still."""
        self._moved(model, after)
        self._lost, self._lost_tables = False, 0
        self._before_last = None
        self.model = _revealed_once(after, seen, self.partial)
        self._cache.clear()
        self._slow.clear()
        self._settled = True
        self._confirm(evidence)
        view = _view(self.model, self.partial)
        cards = self._card_confidences(view, evidence)
        return Event(EventKind.STILL, t, "the table is still", table=view, confidence=sure, cards=cards)

    def _card_confidences(self, table: Table, evidence: Evidence) -> dict[str, tuple[float, ...]]:
        """Per pile of a still ``table``, each card's confidence (see ``Event.cards``); remembered for the next
        still table, where a card that stays put unseen keeps it."""
        known: dict[tuple[int, str], float] = {}
        out: dict[str, tuple[float, ...]] = {}
        for pile in table.pile_ids:
            confs = []
            for card in table.codes(pile):
                if card == UNKNOWN:
                    confs.append(0.0)
                    continue
                if evidence.support(card, pile) > 0:
                    sure = evidence.card_confidence(card, pile)
                    reads = self._reads.setdefault((card, pile), [])
                    reads.extend(evidence.card_reads(card, pile))
                    del reads[:-READS_KEPT]  # a long session must not grow without end
                    kind_reads = self._kind_reads.setdefault((card, pile), [])
                    kind_reads.extend(self._kinds_now(card, pile))
                    del kind_reads[:-READS_KEPT]
                else:
                    sure = self._known.get((card, pile), 0.0)
                known[(card, pile)] = sure
                confs.append(sure)
            out[pile] = tuple(confs)
        self._known = known
        return out

    def _once(self, kind: str, seen: Table, search: Callable[[], T]) -> T:
        return self._searched((kind, seen.key()), search)

    def _searched(self, key: tuple[str, tuple[object, ...]], search: Callable[[], T]) -> T:
        """``search()``, made once per ``key`` until the model changes (``_slow``)."""
        if key not in self._slow:
            self._slow[key] = search()
        return cast(T, self._slow[key])

    def _backs_unseen(self, table: Table, pile: str) -> bool:
        """Whether ``pile`` is a column ``table`` (the model after the accused move: a card turned up is no longer
        face down) holds face-down cards in and most readings that look for backs (at least ``votes``) saw none."""
        if table.game.pile(pile).role is not Role.TABLEAU or not table.face_down_count(pile):
            return False
        looked = self._backs_seen(pile)
        return len(looked) >= self.votes and 2 * looked.count(0) > len(looked)

    def _backs_seen(self, pile: str) -> list[int]:
        """The backs each reading of this still table that looks for backs saw on ``pile``."""
        return [backs.get(pile, 0) for backs in self._recent_backs if backs is not None]

    def _confirm(self, evidence: Evidence) -> None:
        """Remember the model's cards that ``seen_in`` readings saw where the model has them, one of them
        with ``new_card`` confidence of its own (a misread that repeats in every frame is seen as often, but
        only doubtfully: it must not back an accusation)."""
        assert self.model is not None
        for pile in self.model.pile_ids:
            up = face_up(self.model, pile)
            cascade = self.model.game.pile(pile).role is Role.TABLEAU
            for k, card in enumerate(up):
                if card == UNKNOWN or evidence.support(card, pile) < min(self.seen_in, self.votes):
                    continue
                if self._midway and cascade and k > 0 and not builds_on(self.model, pile, up[k - 1], card):
                    continue  # a game taken up midway: a card off its cascade's build is likely misread
                if evidence.best_card(card, pile) >= self.new_card:
                    self._confirmed.add(card)
        held = self._held_elsewhere(self.model, evidence)
        for pile in self.model.pile_ids:
            if face_up(self.model, pile):
                continue
            # a reading that names there only cards held confirmed on other piles (read again, out of place) reads
            # the pile empty
            empty = sum(1 for named in evidence.named[pile] if all(held.get(c, pile) != pile for c in named))
            if empty >= max(min(self.seen_in, self.votes), evidence.n - 1) and not (
                self.backs_not_empty and sum(map(bool, self._backs_seen(pile))) >= min(self.seen_in, self.votes)
            ):
                self._seen_empty.add(pile)  # all but one reading: a card missed often leaves a pile read empty

    def _held_elsewhere(self, table: Table, evidence: Evidence, piles: Sequence[str] = ()) -> dict[int, str]:
        """The cards ``table`` holds face up, confirmed, on piles other than ``piles``, with their piles (see
        ``held_elsewhere``); none where the readings named more than one of them on another pile than its own: one
        card read out of place is a stray read, several are a reading shifted (a row read one pile over, gc-illegal-1,
        penguins: no accusation may rest on it)."""
        if not self.held_elsewhere:
            return {}
        held = {
            card: pile
            for pile in table.pile_ids
            if pile not in piles
            for card in face_up(table, pile)
            if card in self._confirmed
        }
        strays = {card for card, pile in held.items() if any(p != pile for p in evidence.seen.get(card, {}))}
        return held if len(strays) <= 1 else {}

    def _unconfirm_empty(self, reading: Table) -> None:
        """Count the readings in a row that name no card on each pile; from ``2 * patience`` on, the model's
        cards there are no longer confirmed (see ``empty_unconfirms``)."""
        assert self.model is not None
        for pile in reading.pile_ids:
            empty = not any(card != UNKNOWN for card in face_up(reading, pile))
            self._empty_run[pile] = self._empty_run.get(pile, 0) + 1 if empty else 0
            if self._empty_run[pile] >= 2 * self.patience:
                self._confirmed.difference_update(face_up(self.model, pile))

    def _moved(self, model: Table, after: Table) -> None:
        """Forget the confirmation of cards the change moves (``_confirm`` gives it back where seen)."""
        places = {card: p for p in model.pile_ids for card in face_up(model, p) if card != UNKNOWN}
        for pile in after.pile_ids:
            for card in face_up(after, pile):
                if places.get(card, pile) != pile:
                    self._confirmed.discard(card)
            if face_up(model, pile) != face_up(after, pile):
                self._seen_empty.discard(pile)
                self._taken_empty.discard(pile)
                self._read_above.pop(pile, None)

    def _count_read_above(self, model: Table, reading: Table) -> None:
        """Count the cards ``reading`` names on the model's top card of each pile (see ``read_above_doubted``)."""
        for pile in reading.pile_ids:
            mine = face_up(model, pile)
            read = list(reading.codes(pile))
            if not mine or mine[-1] == UNKNOWN or mine[-1] not in read:
                continue
            above = [code for code in read[len(read) - read[::-1].index(mine[-1]) :] if code != UNKNOWN]
            if above:
                self._read_above.setdefault(pile, Counter()).update(above)

    def _accept(
        self, t: float, evidence: Evidence, seen: Table, explanation: Explanation, retracts: tuple[str, ...] = ()
    ) -> list[Event]:
        model = self.model
        assert model is not None
        after = model.copy()
        for move in explanation.moves:
            after.push(move)
        sure = _change_confidence(model, after, evidence, 1)
        text = "; ".join(explanation.sentences)
        events = [
            self._adopt(t, model, after, seen, evidence, sure),
            Event(
                EventKind.MOVE,
                t,
                f"I misread the last change: {text}" if retracts else text,
                tuple(map(str, explanation.moves)),
                confidence=sure,
                sentences=explanation.sentences,
                retracts=retracts,
            ),
        ]
        if explanation.moves:
            self._before_last, self._last_moves = model, explanation.moves
        adopted = self.model
        assert adopted is not None  # _adopt set it
        outcome = adopted.outcome()
        if outcome is not None and not self._ended:
            self._ended = True
            score = adopted.score()
            money = "" if score is None else f", score {'+' if score >= 0 else '-'}${abs(score)}"
            word = "won" if outcome is Outcome.WON else "blocked: no legal move is left"
            events.append(Event(EventKind.END, t, f"game {word}{money}"))
        return events


def _squared(seen: Table, evidence: Evidence) -> Table:
    """``seen`` with each pile that is not a cascade cut to the most cards any reading named there, its most-read
    cards kept (see ``Tracker.squared_deal``)."""
    piles: list[list[int]] = []
    for pile in seen.pile_ids:
        up = list(face_up(seen, pile))
        most = max(evidence.raw_sizes[pile], default=0)
        if seen.game.pile(pile).role is not Role.TABLEAU and len(up) > most:
            ranked = sorted(up, key=lambda c: evidence.support(c, pile), reverse=True)
            up = [c for c in up if c in ranked[:most]]
        piles.append([*seen.codes(pile)[: seen.face_down_count(pile)], *up])
    return with_piles(seen, piles)


def twins_folded(
    model: Table, reading: Table, cards: CardConfidences, kinds: CardConfidences, sure: float, partial: bool
) -> tuple[Table, CardConfidences]:
    """The reading with each card read below ``sure`` on a pile where ``model`` has its twin in sight renamed to
    that twin, at the reading's confidence of "the card or its twin" (``kinds``), where that is surer; only if the
    model has the read card nowhere and the reading has the twin nowhere (see ``Tracker.fold_twins``)."""
    held = _held(model)
    shown = {code for pile in reading.pile_ids for code in reading.codes(pile)}
    out = dict(cards)
    for (pile, code), confidence in cards.items():
        pooled = kinds.get((pile, code), 0.0)
        if code < 0 or confidence >= sure or pooled <= confidence or code in held:
            continue
        other = twin(code)
        if other in shown or other not in in_sight(model, pile, partial) or code not in reading.codes(pile):
            continue
        reading = with_card(reading, pile, reading.codes(pile).index(code), other)
        shown = (shown - {code}) | {other}
        del out[(pile, code)]
        out[(pile, other)] = max(out.get((pile, other), 0.0), pooled)
    return reading, out


def _playable(table: Table, move: Move) -> bool:
    """A legal move of ``table``, or a move of face-up cards onto an unknown top card (a card left unread, which
    the live tracker took the move to be legal onto, ``_guessed``) or of an unknown card (one the live tracker
    read only where the move put it, as the explanation's ``revealed``)."""
    if move in table.generate_moves():
        return True
    up, onto = face_up(table, move.src), table.codes(move.dst)
    if not 0 < move.count <= len(up) or table.game.pile(move.src).role is Role.STOCK:
        return False
    return up[-move.count] == UNKNOWN or (bool(onto) and onto[-1] == UNKNOWN)


def _blank_dealt(seen: Table, pile: str) -> bool:
    """A pile the deal puts a face-up card on that ``seen`` shows blank."""
    return not seen.codes(pile) and seen.game.deal_sizes()[pile][1] > 0


def _announced_line(model: Table, announced: Announced, judged: bool = True) -> tuple[Table, list[str]] | None:
    """The table after the moves ``announced`` from ``model``, and each move in words; None where a move cannot
    be made, or (``judged``) a move announced legal is not playable there (``_playable``) or the one announced
    illegal is legal there."""
    board, said = model.copy(), []
    for k, text in enumerate(announced.moves):
        if k == announced.illegal_at and "-" in text:  # (a card pulled from under another: ``dug_out``)
            src, over, dst = _pulled(text)
            if src not in board.pile_ids or dst not in board.pile_ids or over >= len(face_up(board, src)):
                return None
            position = len(board.codes(src)) - 1 - over
            card = board.codes(src)[position]
            said.append(f"the {CARDS[card].sentence} taken from under another card" if card != UNKNOWN else text)
            board = _pulled_out(board, src, position, dst, card)
            continue
        try:
            move = Move.parse(text)
        except CadoganError:
            return None
        if move.src not in board.pile_ids or move.dst not in board.pile_ids:
            return None
        if not 0 < move.count <= len(board.codes(move.src)):
            return None
        if judged and (reference_is_legal(board, move) if k == announced.illegal_at else not _playable(board, move)):
            return None
        said.append(board.describe(move))
        board.push(move)
    return board, said


def _renamed_as_seen(model: Table, board: Table, seen: Table) -> Table | None:
    """``model`` with each known card that ``board`` (the model after some moves) has where ``seen`` names another
    card, one the model holds nowhere, renamed to it (the live tracker learnt it so), or, on a column, where
    ``seen`` has an unknown card (the live tracker doubted it); None where nothing is renamed."""
    held = _held(model)
    renamed = model
    for pile in board.pile_ids:
        ours, theirs = face_up(board, pile), seen.codes(pile)  # (a camera's table lists face-up cards only)
        if len(theirs) > len(ours):
            continue
        for mine, read in zip(ours[len(ours) - len(theirs) :], theirs, strict=True):
            if mine in (read, UNKNOWN) or (read != UNKNOWN and read in held):
                continue
            if read == UNKNOWN and board.game.pile(pile).role is not Role.TABLEAU:
                continue  # (only a column's card is doubted to unknown by the live tracker)
            where = next((p for p in renamed.pile_ids if mine in renamed.codes(p)), None)
            if where is None:
                continue
            renamed = with_card(renamed, where, renamed.codes(where).index(mine), read)
            held = (held - {mine}) | ({read} - {UNKNOWN})
    return None if renamed is model else renamed


def _view(model: Table, partial: bool) -> Table:
    """The model as a reading of it would be at best: in ``partial`` readings, face-up cards only."""
    if not partial:
        return model.copy()
    piles = [list(face_up(model, p)) for p in model.pile_ids]
    return Table(model.game, piles, [0] * len(piles), stage=model.stage)


def _unread_sentence(names: list[str]) -> str:
    """What the player is told of piles whose card the camera could not read at the deal."""
    if len(names) == 1:
        return f"I cannot read the card on {names[0]}: the deal puts one there (if it is missing, deal it)"
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return f"I cannot read the cards on {listed}: the deal puts one on each (if one is missing, deal it)"


def _one_pile(problem: Problem) -> str | None:
    """The pile a problem of the deal is about, if only one (else None: it rests on every card)."""
    return problem.piles[0] if len(problem.piles) == 1 else None


def _deal_shape(evidence: Evidence) -> dict[str, int]:
    """Face-up cards each pile shows at the deal, as a camera reads it (a squared packet: its top card)."""
    game = evidence.game
    shape = {}
    for pile, (_, up) in game.deal_sizes().items():
        shape[pile] = up if game.pile(pile).role is Role.TABLEAU else min(up, 1)
    return shape


def _moves_event(t: float, start: Table, moves: tuple[Move, ...], confidence: float) -> Event:
    sentences = []
    table = start.copy()
    for move in moves:
        sentences.append(table.describe(move))
        table.push(move)
    return Event(
        EventKind.MOVE,
        t,
        "; ".join(sentences),
        tuple(map(str, moves)),
        confidence=confidence,
        sentences=tuple(sentences),
    )


def _mixed(
    model: Table, seen: Table, max_moves: int, partial: bool
) -> tuple[tuple[Move, ...], Move, tuple[Move, ...]] | None:
    """An illegal move of face-up cards together with legal moves before or after it (the still table
    between them was not read), when that explains ``seen``: (legal moves before, the illegal move, legal
    moves after). Only moves that put a card that shows on top of a pile in ``seen`` there are tried."""
    direct = explain(model, seen, max_moves, partial)
    if direct is not None and direct.legal:
        return None  # legal moves alone explain it: a detour through an illegal move accuses nobody
    tops = {seen.codes(p)[-1]: p for p in seen.pile_ids if seen.codes(p) and seen.codes(p)[-1] != UNKNOWN}

    def illegal_moves(table: Table) -> list[Move]:
        found = []
        for src in table.pile_ids:
            codes = table.codes(src)
            for index in range(table.face_down_count(src), len(codes)):
                dst = tops.get(codes[index])
                if dst is not None and dst != src:
                    move = Move(src, dst, len(codes) - index)
                    if not reference_is_legal(table, move):
                        found.append(move)
        return found

    for move in illegal_moves(model):
        after = table_after(model, (move,))
        tail = explain(after, seen, max_moves - 1, partial)
        if tail is not None and tail.legal and tail.moves:
            return (), move, tail.moves
    for first in model.generate_moves():
        before = table_after(model, (first,))
        for move in illegal_moves(before):
            if move == Move(first.dst, first.src, first.count):
                continue  # a move and its undo change nothing: no change to accuse anyone of
            if agrees(table_after(before, (move,)), seen, partial):
                return (first,), move, ()
    return None


def _read_between(model: Table, evidence: Evidence, card: int, pile: str) -> bool:
    """Whether every reading that saw ``card`` on ``pile`` (with two cards or more there) saw it between two cards
    the model holds there one right on the other (see ``Tracker.leave_out_read_between``)."""
    held = face_up(model, pile)
    pairs = list(pairwise(held))
    places = [order for order in evidence.orders(pile) if card in order]
    return (
        bool(pairs)
        and bool(places)
        and all(
            any(a in order and b in order and order[a] < order[card] < order[b] for a, b in pairs) for order in places
        )
    )


def _buried(model: Table, evidence: Evidence, need: int) -> frozenset[int]:
    """The cards the model holds under another card of a foundation, its top card too where ``need`` readings
    put a card the model does not have there on that foundation (a card put on it)."""
    out: set[int] = set()
    for pile in model.pile_ids:
        codes = [card for card in model.codes(pile) if card != UNKNOWN]
        if model.game.pile(pile).role is not Role.FOUNDATION or not codes:
            continue
        covered = any(
            card not in codes and (place := evidence.place(card)) is not None and place[0] == pile and place[1] >= need
            for card in evidence.seen
        )
        out.update(codes if covered else codes[:-1])
    return frozenset(out)


FAN_BURIED = 2
"""Fan cards an explanation must bury to be doubted (``_fan_buried``): one may be a misread of the new top card's
twin (hc-legal-2, penguins: the 3C read as the 3S the model had a turn below)."""


def _fan_buried(orders: Mapping[str, list[int]], model: Table, after: Table) -> int:
    """Cards the readings saw on a waste under another card read there (``_fan_orders``), which ``model`` had in its
    fan's view (among its top ``FAN_PLACES``: the turned three and the edge of the card under them) and ``after``
    buries below it: the readings contradict that change (zc-legal-1: the 4D played off the waste onto a column,
    read there once, taken for a stock turn, which would have hidden the 3C and 7S read in the fan under the 2S)."""
    buried = 0
    for pile, order in orders.items():
        if model.game.pile(pile).role is not Role.WASTE:
            continue
        before, now = model.codes(pile), after.codes(pile)
        hidden = set(now[:-FAN_PLACES]) - set(now[-FAN_PLACES:])
        buried += sum(1 for card in order[:-1] if card in before[-FAN_PLACES:] and card in hidden)
    return buried


def _empty_unsure(lost: Table, taken: Table, unsure: set[str]) -> set[str]:
    """The columns ``taken`` (a game taken up again) has empty where the ``lost`` model may have left a card unread:
    it held face-down cards there (one of them is face up now, unless more moves than the tracker missed took
    every one away), or a known face-up card that ``taken`` holds nowhere, or it had the column empty and
    ``unsure`` already. A column whose cards ``taken`` holds elsewhere was emptied by the moves missed."""
    held = {card for pile in taken.pile_ids for card in taken.codes(pile) if card != UNKNOWN}
    return {
        pile
        for pile in taken.pile_ids
        if taken.game.pile(pile).role is Role.TABLEAU
        and not taken.codes(pile)
        and (
            lost.face_down_count(pile) > 0
            or any(card != UNKNOWN and card not in held for card in face_up(lost, pile))
            or (not lost.codes(pile) and pile in unsure)
        )
    }


def _fan_orders(model: Table, evidence: Evidence, need: int) -> dict[str, list[int]]:
    """Per packet pile (a waste's fan, not a column), the cards ``need`` readings put there, bottom first."""
    orders: dict[str, list[int]] = {}
    for pile in model.pile_ids:
        if model.game.pile(pile).role is Role.TABLEAU:
            continue
        read = [
            card
            for card in evidence.seen
            if (place := evidence.place(card)) is not None and place[0] == pile and place[1] >= need
        ]
        orders[pile] = by_rank(evidence, pile, read)
    return orders


def _fan_gaps(
    orders: Mapping[str, list[int]], seen: Table, evidence: Evidence | None = None, after: Table | None = None
) -> int:
    """Cards the readings saw in a packet's fan (``_fan_orders``) under a card ``seen`` shows there, which ``seen``
    leaves out. An explanation that needs such a card to be a phantom is the worse one: in c-illegal-1 the fan
    [AD 8H 3C] (the 8H read as the 3S) after a card played and a turn was explained by the play alone, with the AD
    and 3C taken for the waste's unread cards under the played one, and the waste was wrong ever after. With
    ``evidence``, a card whose twin ``seen`` keeps there (or ``after``, the model after the explanation, holds
    there), never read together with it, is no gap (see ``Tracker.fan_gaps_twins``)."""
    gaps = 0
    for pile, order in orders.items():
        kept = [card for card in face_up(seen, pile) if card != UNKNOWN]
        held = [*kept, *(after.codes(pile) if after is not None else ())]
        at = [order.index(card) for card in kept if card in order]
        if at:
            gaps += sum(
                1
                for card in order[: max(at)]
                if card not in kept and not (evidence is not None and _read_for_twin(evidence, pile, card, held))
            )
    return gaps


def _read_for_twin(evidence: Evidence, pile: str, card: int, kept: Sequence[int]) -> bool:
    """Whether ``card`` may be a misread of its twin, which ``kept`` holds on ``pile``: no reading showed the two
    there together."""
    other = twin(card)
    return other in kept and not any(card in order and other in order for order in evidence.orders(pile))


def _after(model: Table, explanation: Explanation, seen: Table, partial: bool) -> Table:
    """The model after the explanation's moves, with the cards read for the first time filled in."""
    after = model.copy()
    for move in explanation.moves:
        after.push(move)
    return reveal(after, seen, partial)[0]


def _revealed_once(model: Table, seen: Table, partial: bool) -> Table:
    """``model`` with the cards ``seen`` reads where it did not know them (``reveal``), but never a card into a
    second place: a misread the model cannot hold (a card it has elsewhere) leaves that place unknown."""
    table, found = reveal(model, seen, partial)
    if _possible(table):
        return table
    held = Counter(code for pile in model.pile_ids for code in model.codes(pile) if code != UNKNOWN)
    for pile, index, code in found:
        if held[code] < model.game.packs:
            held[code] += 1
            model = with_card(model, pile, index, code)
    return model


def _twins_one(seen: Table, evidence: Evidence) -> list[tuple[str, int, int]]:
    """In each pile of ``seen`` voted more cards than any reading showed there, a card and its twin that no reading
    showed together, the card fewer readings saw (on a tie, neither): (pile, that card, the other), as many as make
    the pile no longer than the readings showed it (see ``Tracker.deal_twins_one``)."""
    found = []
    for pile in seen.pile_ids:
        up = list(face_up(seen, pile))
        most = max(evidence.raw_sizes[pile], default=0)
        for card in sorted(up, key=lambda c: (evidence.support(c, pile), evidence.best_card(c, pile))):
            if len(up) <= most:
                break
            other = twin(card)
            together = any(card in order and other in order for order in evidence.orders(pile))
            fewer = evidence.support(card, pile) < evidence.support(other, pile)  # (a tie names neither)
            if other in up and not together and fewer:
                up.remove(card)
                found.append((pile, card, other))
    return found


def _read_instead(model: Table, evidence: Evidence, card: int, pile: str) -> bool:
    """Whether readings named ``card`` on ``pile`` instead of a card ``model`` has face up there: one read there too,
    but never in a reading with ``card`` (a misread of it, not a card put there)."""
    together = [order for order in evidence.orders(pile) if card in order]
    return any(
        held != card and evidence.support(held, pile) > 0 and not any(held in order for order in together)
        for held in face_up(model, pile)
    )


def _new_twins_one(
    model: Table, seen: Table, evidence: Evidence, held_twin: bool = False
) -> list[tuple[str, int, int]]:
    """In each pile of the vote ``seen``, a card ``model`` holds nowhere whose twin the vote puts there too, also new
    (or, with ``held_twin``, held face up on that pile by the model), and no reading showed the two together: the card
    fewer readings saw (on a tie, neither), as (pile, that card, the other) (see ``Tracker.new_twins_one``)."""
    held = _held(model)
    found = []
    for pile in seen.pile_ids:
        shown = face_up(seen, pile)
        new = [card for card in shown if card != UNKNOWN and card not in held]
        for card in new:
            other = twin(card)
            if (
                (other in new or (held_twin and other in shown and other in face_up(model, pile)))
                and not any(card in order and other in order for order in evidence.orders(pile))
                and evidence.support(card, pile) < evidence.support(other, pile)
            ):
                found.append((pile, card, other))
    return found


def _read_in_place(model: Table, seen: Table, evidence: Evidence) -> list[tuple[str, int, int]]:
    """In each column of the vote ``seen``, a card ``model`` holds nowhere that every reading naming it there read in
    the place of a face-up card the model has there (counted from the lowest face-up card), never with it, where two
    readings at least read the model's card in that place and no other pile has more readings of it: (column, the new
    card, the model's card) (see ``Tracker.in_place_by_turns``)."""
    held = _held(model)
    found = []
    for pile in seen.pile_ids:
        if model.game.pile(pile).role is not Role.TABLEAU:
            continue
        new = [card for card in face_up(seen, pile) if card != UNKNOWN and card not in held]
        if not new:
            continue
        before = face_up(model, pile)
        shown = [face_up(table, pile) for table, _ in evidence.readings]
        for card in new:
            places = {ups.index(card) for ups in shown if card in ups}
            if len(places) != 1 or (k := places.pop()) >= len(before) or before[k] == UNKNOWN:
                continue
            mine = before[k]
            place = evidence.place(mine)
            if (
                not any(card in ups and mine in ups for ups in shown)
                and sum(k < len(ups) and ups[k] == mine for ups in shown) >= 2
                and place is not None
                and place[0] == pile
            ):
                found.append((pile, card, mine))
    return found


def _pulled(notation: str) -> tuple[str, int, str]:
    """The source pile, the count of cards that lay on the card, and the destination of ``dug_out``'s notation
    ``SRC-N>DST``."""
    src, rest = notation.split("-", 1)
    over, dst = rest.split(">", 1)
    return src, int(over), dst


def _gap_filled(model: Table, notation: str, seen: set[int], most: int = 2) -> bool:
    """Would the one-card move ``notation`` onto a foundation be legal after up to ``most`` cards that ``model``
    holds nowhere and ``seen`` lacks had been put there first, each legally (an empty foundation's first card too)?"""
    move = Move.parse(notation)
    if move.count != 1 or model.game.pile(move.dst).role is not Role.FOUNDATION:
        return False  # (a card put on a column and covered still shows its index: it would have been read)
    moved = len(model.codes(move.src)) - 1
    held = _held(model) | seen
    free = [card for card in full_deck() if card not in held]

    def fills(table: Table, left: int) -> bool:
        if reference_is_legal(table, move):
            return True
        if left == 0:
            return False
        for card in free:
            if card not in table.codes(move.dst) and reference_is_legal(with_card(table, move.src, moved, card), move):
                piles = [[*table.codes(p), card] if p == move.dst else list(table.codes(p)) for p in table.pile_ids]
                if fills(with_piles(table, piles), left - 1):
                    return True
        return False

    return not reference_is_legal(model, move) and fills(model, most)


def _taken_card(before: Table, after: Table, notation: str) -> tuple[str, int]:
    """The pile the move ``notation`` takes from, and its (first) card: a card from under another as read where it
    went (the model may hold it unread), any other as ``before`` holds it."""
    if "-" in notation:
        src, _, dst = _pulled(notation)
        return src, after.codes(dst)[-1]
    move = Move.parse(notation)
    return move.src, before.codes(move.src)[-move.count]


def _unread_onto_foundation(model: Table, move: Move) -> bool:
    """Whether ``move`` puts several cards on a foundation, some of them unread: a foundation shows its top card
    only, so cards put there one at a time, unread, look the same."""
    if move.count < 2 or model.game.pile(move.dst).role is not Role.FOUNDATION:
        return False
    return UNKNOWN in model.codes(move.src)[-move.count :]


def _twins_in_run(model: Table, notation: str, evidence: Evidence) -> bool:
    """Does the move ``notation`` carry a card together with its twin (same rank and colour), or put a card on its
    twin, where no reading named both at once? In ``model`` such a pair is a card the reader named both ways
    (bc-legal-1, penguins: a 5C read as the 5S in a waste's fan, taken for two cards); two cards read side by side
    are two cards (k-illegal-3's injected black jack on black jack)."""
    move = Move.parse(notation)
    dst = model.codes(move.dst)[model.face_down_count(move.dst) :]
    cards = [card for card in (*dst[-1:], *model.codes(move.src)[-move.count :]) if card != UNKNOWN]
    readings = [{card for pile in evidence.pile_ids for card in evidence.named[pile][r]} for r in range(evidence.n)]
    return any(
        twin(card) in cards and not any(card in names and twin(card) in names for names in readings) for card in cards
    )


def _foundations_cut(model: Table, seen: Table, evidence: Evidence, sure: float) -> Iterator[Table]:
    """``seen`` with one foundation cut to each height from the model's up to one below the vote's, where the vote
    puts two cards or more on the model's and its top card was read below ``sure`` there
    (see ``Tracker.foundation_jump_doubted``)."""
    for pile in seen.pile_ids:
        if model.game.pile(pile).role is not Role.FOUNDATION:
            continue
        now, before = seen.codes(pile), model.codes(pile)
        if len(now) - len(before) < 2 or now[: len(before)] != before:
            continue
        if evidence.best_card(now[-1], pile) >= sure:
            continue
        for height in range(len(before), len(now)):
            yield with_piles(seen, [list(now[:height]) if p == pile else list(seen.codes(p)) for p in seen.pile_ids])


def _guesses(model: Table, pile: str, index: int, run: int = 0) -> list[Table]:
    """The model with its unknown card at ``index`` of ``pile`` taken for each card it may be: one the model has
    nowhere, with which a legal move puts a card on it (``run`` 0), or takes it away with the ``run`` cards on it."""
    guesses = (with_card(model, pile, index, code) for code in range(len(CARDS)))
    return [
        g
        for g in guesses
        if _possible(g) and any(m.src == pile and m.count == run if run else m.dst == pile for m in g.generate_moves())
    ]


def _carried(
    seen: Table, unseen: int, pile: str, up: tuple[int, ...], evidence: Evidence, held: set[int], down: int
) -> tuple[Table, int] | None:
    """``seen`` (a table the vote may show, with its unseen count) with ``pile``'s lowest face-up card, unread
    (``up``: the pile's face-up cards, that one unknown), put back under the card that lay on it where that card
    went, the pile shown bare (or its next card turned up, unknown): the vote completed by the model keeps the unread
    card where it lay, and no reading lists it where it went (``Tracker.off_unread``). None where the pile shows a
    known card, the card that lay on it is nowhere, or a reading named a card the model has nowhere where it went
    (the unread card may be read there yet)."""
    if len(up) < 2 or face_up(seen, pile) not in ((), (UNKNOWN,)):
        return None
    went = next((p for p in seen.pile_ids if up[1] in seen.codes(p)), None)
    if went is None or any(code not in held for named in evidence.named[went] for code in named):
        return None
    piles = [list(seen.codes(p)) for p in seen.pile_ids]
    piles[seen.pile_ids.index(pile)] = [UNKNOWN] if down else []  # (``down``: the model's face-down cards there)
    run = piles[seen.pile_ids.index(went)]
    run.insert(run.index(up[1]), UNKNOWN)
    return with_piles(seen, piles), unseen


def _held(table: Table) -> set[int]:
    """Every card code ``table`` holds anywhere (``UNKNOWN`` too where it holds an unknown card)."""
    return {code for pile in table.pile_ids for code in table.codes(pile)}


def _read_in(table: Table, pile: str) -> int:
    """How many cards ``table`` names on ``pile`` (its unknown cards left out)."""
    return sum(1 for code in table.codes(pile) if code != UNKNOWN)


def _possible(table: Table) -> bool:
    """No card more often than the game's packs hold it (a misread filled in where the model knew nothing
    can put a card it already has in a second place)."""
    counts = Counter(code for pile in table.pile_ids for code in table.codes(pile) if code != UNKNOWN)
    return all(count <= table.game.packs for count in counts.values())


def _new_tops_unsure(model: Table, after: Table, evidence: Evidence, votes: int) -> bool:
    """A pile's top card changes, and fewer than ``votes`` readings saw the new one on top (a card over it
    that every reading so far missed would make it the wrong top)."""
    for pile in after.pile_ids:
        top = face_up(after, pile)[-1:]
        if top and top != face_up(model, pile)[-1:] and top[0] != UNKNOWN and evidence.tops[(top[0], pile)] < votes:
            return True
    return False


def _left_out(evidence: Evidence, seen: Table, least: int) -> bool:
    """Whether the vote ``seen`` leaves out a card that at least ``least`` readings saw on a pile."""
    return any(
        card not in face_up(seen, pile) and evidence.support(card, pile) >= least
        for pile in seen.pile_ids
        for card in cards_seen_on(evidence, pile)
    )


def _landed_on_moved(model: Table, explanation: Explanation, evidence: Evidence, partial: bool) -> bool:
    """Does a move of ``explanation`` land on a card that no reading saw on that pile, while the readings put it on
    another (``Evidence.place``), where the model has not its twin in sight (a twin misread there)? The card may
    have been moved away by a move the explanation leaves out, an illegal one (see ``Tracker.moved_vote_elsewhere``)."""
    table = model.copy()
    for move in explanation.moves:
        top = face_up(table, move.dst)[-1:]
        if top and top[0] != UNKNOWN and evidence.support(top[0], move.dst) == 0:
            place = evidence.place(top[0])
            if place is not None and place[0] != move.dst and twin(top[0]) not in in_sight(model, place[0], partial):
                return True
        table.push(move)
    return False


def _vote_elsewhere(after: Table, evidence: Evidence, need: int, partial: bool) -> bool:
    """Does ``after`` show a card in sight on one pile that no reading saw there and ``need`` readings (more than saw
    it anywhere else) put on another? An explanation found on the vote of the surest readings alone may keep a card
    where the model had it that the other readings saw moved: the move that moved it may be an illegal one."""
    for pile in after.pile_ids:
        for card in in_sight(after, pile, partial):
            place = evidence.place(card)
            if place is not None and place[0] != pile and place[1] >= need and evidence.support(card, pile) == 0:
                return True
    return False


def _doubtful(model: Table, after: Table, evidence: Evidence, partial: bool) -> bool:
    """Does the change from ``model`` to ``after`` lean on a card no reading saw where it puts it: a card that
    went out of sight though a reading saw it elsewhere, or a card that stays in sight, unseen, on a pile
    where the readings saw another card?"""
    for pile in model.pile_ids:
        shown = in_sight(after, pile, partial)
        for card in in_sight(model, pile, partial):
            if card in shown or evidence.support(card, pile) > 0:
                continue
            if any(card in in_sight(after, other, partial) for other in after.pile_ids):
                continue  # moved somewhere in sight: that place is checked below
            if sum(evidence.seen.get(card, {}).values()) > 0:
                return True
        others = set(cards_seen_on(evidence, pile)) - set(shown)
        if others and any(evidence.support(card, pile) == 0 for card in shown):
            return True
    return False


def _others_seen(
    after: Table, piles: list[str], evidence: Evidence, need: int, held: frozenset[int] = frozenset()
) -> bool:
    """Did ``need`` readings see a card on one of ``piles`` (the piles a mistake changed) that ``after`` does not
    have there? Then the mistake may rest on a card the model lost (a column taken up empty whose card most
    readings missed), not on the player's move. A pile with a face-up card the model does not know is not
    judged. Cards in ``held`` (on another pile of ``after``, confirmed there) are read out of place, not lost."""
    for pile in piles:
        there = face_up(after, pile)
        if UNKNOWN in there:
            continue
        seen = cards_seen_on(evidence, pile)
        if any(card not in there and card not in held and evidence.support(card, pile) >= need for card in seen):
            return True
    return False


def _piles_confirmed(
    table: Table,
    piles: list[str],
    evidence: Evidence,
    votes: int,
    partial: bool,
    covered: frozenset[tuple[int, str]] = frozenset(),
) -> float:
    """How sure the readings are of what ``piles`` hold in ``table`` (the piles a mistake changed): each card
    that shows (of a squared packet, its top) seen there by ``votes`` readings, an empty pile read empty by
    ``votes`` readings; else 0. A card kept from the last table but not seen cannot back an accusation, unless
    it is in ``covered`` (card, pile) and not the pile's top (see ``Tracker._covered``)."""
    sure = 1.0
    for pile in piles:
        up = face_up(table, pile)
        if partial and table.game.pile(pile).role is not Role.TABLEAU:
            up = up[-1:]
        if not up and sum(1 for size in evidence.raw_sizes[pile] if size == 0) < votes:
            return 0.0
        for k, card in enumerate(up):
            if k < len(up) - 1 and (card, pile) in covered:
                continue  # confirmed in place before, now under the cards moved onto it: a reader may miss it
            if card == UNKNOWN and k < len(up) - 2:
                continue  # a card no reading named, under two others: no rule of a move onto or off this pile reads it
            if card == UNKNOWN or evidence.support(card, pile) < votes:
                return 0.0
            sure = min(sure, evidence.confidence(card, pile))
    return sure


def _change_confidence(model: Table, after: Table, evidence: Evidence, votes: int) -> float:
    """How sure the readings are of a change: the least confidence of the cards that are somewhere new (each
    must be seen there by ``votes`` readings, else 0)."""
    before = {(card, p) for p in model.pile_ids for card in face_up(model, p)}
    sure = 1.0
    for pile in after.pile_ids:
        for card in face_up(after, pile):
            if card == UNKNOWN or (card, pile) in before:
                continue
            if evidence.support(card, pile) < votes:
                return 0.0
            sure = min(sure, evidence.confidence(card, pile))
    return sure


def dug_out(model: Table, seen: Table, partial: bool = False, unread: bool = False) -> tuple[Table, str, str] | None:
    """A card taken from under another card (not from the top of its pile) and put on top of another
    pile, if that explains what was seen: (the table after it, its notation, the rule it broke).

    ``engine.verify.explain`` only moves cards from the top of a pile, as every legal move does; a player
    who pulls a card out from under a covered one makes a change it cannot name. The notation is
    ``SRC-N>DST``: the card with ``N`` cards on top of it, from SRC onto DST. With ``unread``, when no known
    card explains it, a card the model has nowhere, seen on top of a pile, may come from a face-up place
    the model holds unknown (see ``Tracker.dig_unread``). With a camera's readings (``partial``), a card read on a
    stock the deal lays face down is a back read as a card, and is not held against the change (heldout19's
    ec-illegal-1, nicu white: the stock's back read as the AD in half the readings hid the AS pulled from under the
    waste's 8H onto column 1; it was then left out as a phantom, and the mistake went unsaid).
    """
    if partial:
        seen = _stock_unread(seen)
    for src, position, dst, card in _dug_candidates(model, seen, unread):
        codes = model.codes(src)
        after = _pulled_out(model, src, position, dst, card)
        if agrees(after, seen, partial):
            over = codes[position + 1]
            reason = (
                f"the {CARDS[card].sentence} was taken from under the {CARDS[over].sentence}"
                if over != UNKNOWN
                else f"the {CARDS[card].sentence} was taken from under another card"
            )
            return after, f"{src}-{len(codes) - 1 - position}>{dst}", reason + ": only a pile's top card may be moved"
    return None


def _pulled_out(table: Table, src: str, position: int, dst: str, card: int) -> Table:
    """``table`` with the card at ``position`` of ``src`` (from under the cards on it) taken out and ``card`` put on top
    of ``dst``: that card, or the card read there where the model held it unknown (``dug_out``'s ``unread``)."""
    piles = [list(table.codes(p)) for p in table.pile_ids]
    del piles[table.pile_ids.index(src)][position]
    piles[table.pile_ids.index(dst)].append(card)
    downs = [table.face_down_count(p) for p in table.pile_ids]
    return Table(table.game, piles, downs, passes=table.passes, stage=table.stage)


def _stock_unread(seen: Table) -> Table:
    """``seen`` with the cards read on each stock that the deal lays face down taken off (a back read as a card)."""
    sizes = seen.game.deal_sizes()
    stocks = {
        pile
        for pile in seen.pile_ids
        if seen.game.pile(pile).role is Role.STOCK and sizes[pile][1] == 0 and face_up(seen, pile)
    }
    if not stocks:
        return seen
    piles = [
        list(seen.codes(p))[: seen.face_down_count(p)] if p in stocks else list(seen.codes(p)) for p in seen.pile_ids
    ]
    return with_piles(seen, piles)


def _stock_backs_off(
    reading: Table, confidences: tuple[CardConfidences | None, ...]
) -> tuple[Table, tuple[CardConfidences | None, ...]]:
    """``reading`` without the cards read on a stock the deal lays face down (``_stock_unread``), and each of
    ``confidences`` without their entries."""
    kept = _stock_unread(reading)
    if kept is reading:
        return reading, confidences
    gone = {p for p in reading.pile_ids if len(kept.codes(p)) < len(reading.codes(p))}
    return kept, tuple(
        None if conf is None else {key: sure for key, sure in conf.items() if key[0] not in gone}
        for conf in confidences
    )


def _dug_candidates(model: Table, seen: Table, unread: bool) -> Iterator[tuple[str, int, str, int]]:
    """(source pile, position, destination pile, card) of each card ``dug_out`` tries: every known face-up card
    under another onto every other pile; then, with ``unread``, every unread face-up card of a fanned waste or a
    column, the nearest the top first (the card a hand reaches for under the top one), onto a column whose top
    card in ``seen`` the model has nowhere (a reserve's or a squared pile's unread cards come to light by legal
    moves the readings have not yet caught up with)."""
    for src in model.pile_ids:
        codes, down = model.codes(src), model.face_down_count(src)
        for position in range(down, len(codes) - 1):
            if codes[position] != UNKNOWN:
                yield from ((src, position, dst, codes[position]) for dst in model.pile_ids if dst != src)
    if not unread:
        return
    known = _held(model)
    known.add(UNKNOWN)
    tops = {
        dst: top[0]
        for dst in model.pile_ids
        if model.game.pile(dst).role is Role.TABLEAU and (top := seen.codes(dst)[-1:]) and top[0] not in known
    }
    for src in model.pile_ids:
        if model.game.pile(src).role not in (Role.WASTE, Role.TABLEAU):
            continue
        codes, down = model.codes(src), model.face_down_count(src)
        for position in range(len(codes) - 2, down - 1, -1):
            if codes[position] == UNKNOWN:
                yield from ((src, position, dst, card) for dst, card in tops.items() if dst != src)


def _start_from_sighting(seen: Table) -> Table:
    """A game under way as the engine models it, from a reading that shows only face-up cards: each pile as
    seen, a cascade that shows cards with the face-down cards the deal put under it (the best guess), an
    empty one with none, a reserve that shows its top card with the cards the deal put under it (unknown,
    face up: a squared packet shows only its top), the stock with the rest of the pack (all unknown)."""
    game = seen.game
    sizes = game.deal_sizes()
    piles: list[list[int]] = []
    downs: list[int] = []
    for pile in seen.pile_ids:
        shown = list(seen.codes(pile))
        role = game.pile(pile).role
        if role is Role.STOCK and sizes[pile][1] == 0:
            shown = []  # a card read on a stock that lies face down is a misread
        down = sizes[pile][0] if shown and role is Role.TABLEAU else 0
        # without the cards under it, the reserve's next card would come from nowhere when its top is played
        under = max(0, sizes[pile][1] - len(shown)) if shown and role is Role.RESERVE else 0
        piles.append([UNKNOWN] * (down + under) + shown)
        downs.append(down)
    stocks = [k for k, p in enumerate(seen.pile_ids) if game.pile(p).role is Role.STOCK]
    if stocks:
        rest = max(0, game.card_count - sum(len(p) for p in piles))
        piles[stocks[0]] = [UNKNOWN] * rest + piles[stocks[0]]
        downs[stocks[0]] += rest
    return Table(game, piles, downs, stage=Stage.PLAY)


def _sighted_deal(seen: Table) -> tuple[Table, list[tuple[str | None, str]]]:
    """The deal ``seen`` shows (``_deal_from_sighting``) and every problem of it, each a problem of one pile where it
    is (its card count rests on that pile's cards, not on every card of the table)."""
    model, notes = _deal_from_sighting(seen)
    return model, [*notes, *((_one_pile(p), p.message) for p in problems(model))]


def _deal_from_sighting(seen: Table) -> tuple[Table, list[tuple[str | None, str]]]:
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
    notes: list[tuple[str | None, str]] = []
    for pile in seen.pile_ids:
        spec = game.pile(pile)
        down, up = sizes[pile]
        if spec.role is Role.STOCK:
            down = max(0, game.card_count - others)
        shown = list(seen.codes(pile))
        cascade = spec.role is Role.TABLEAU
        if (len(shown) != up) if cascade else (len(shown) != min(up, 1)):
            want = up if cascade else min(up, 1)
            cards = f"{len(shown)} face-up card{'s' if len(shown) != 1 else ''}"
            notes.append((pile, f"{spec.name} shows {cards}, the deal shows {want}"))
        padding = [UNKNOWN] * max(0, up - len(shown))
        piles.append([UNKNOWN] * down + padding + shown)
        downs.append(down)
    return Table(game, piles, downs, stage=Stage.DEAL), notes
