"""I Doubt It (Foster's Complete Hoyle): a referee for the bluffing game, not a solitaire.

The referee tracks what can be known without looking at hidden cards: how many cards each hand and the
centre pile hold, whose turn it is, what was claimed, and, only when a claim is doubted, the cards turned
up. It says who picks up the centre and how many cards that is, asks a short hand to draw, rejects a lay
of the wrong number of cards, and names the winner.

Foster's rules (``FOSTER``): lay exactly three cards face down and name any rank; each other player in
turn to the left may doubt or pass, and only in his turn; a player with fewer than three cards at his
turn draws from the centre to make three. The modern form (``MODERN``): lay one to four cards, ranks
claimed in order A, 2, … K, A …, and any player may doubt (the first to call counts).

>>> ref = Referee(["Ann", "Bob", "Cy"], FOSTER)
>>> ref.hands, ref.centre
([17, 17, 17], 1)
>>> ref.lay("Bob", 3, 11)[0].text
"Bob lays three cards and says 'three jacks'"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.cards import RANK_WORDS, Card
from engine.errors import CadoganError


class RefereeError(CadoganError):
    """Something that cannot happen at this point of the game (not a rule broken by a player)."""


@dataclass(frozen=True, slots=True)
class IDoubtItRules:
    name: str
    lay_counts: tuple[int, ...]
    ranks_in_order: bool
    doubt_in_turn_only: bool
    short_hand_draw: bool
    source: str


FOSTER = IDoubtItRules(
    "i-doubt-it",
    (3,),
    ranks_in_order=False,
    doubt_in_turn_only=True,
    short_hand_draw=True,
    source="R. F. Foster, Foster's Complete Hoyle, chapter I DOUBT IT",
)
MODERN = IDoubtItRules(
    "i-doubt-it/modern",
    (1, 2, 3, 4),
    ranks_in_order=True,
    doubt_in_turn_only=False,
    short_hand_draw=False,
    source="modern Bicycle/Hoyle rules (any player may doubt; ranks in order; one to four cards)",
)
VARIANTS = (FOSTER, MODERN)


class Verdict(Enum):
    OK = "ok"
    BROKEN = "a rule broken"
    PICKUP = "pickup"
    WIN = "win"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Report:
    verdict: Verdict
    text: str
    player: str | None = None
    cards: int = 0


_NUMBER = ("no", "one", "two", "three", "four")


def _plural(rank: int) -> str:
    return RANK_WORDS[rank - 1] + "s"


@dataclass
class _Lay:
    player: int
    count: int
    rank: int
    asked: set[int] = field(default_factory=set)


class Referee:
    def __init__(self, players: list[str], rules: IDoubtItRules = FOSTER, dealer: int = 0) -> None:
        if len(players) < 2:
            raise RefereeError("I Doubt It needs at least two players")
        self.players = list(players)
        self.rules = rules
        n = len(players)
        # Dealt one at a time as far as they go equally; the rest lies face down in the centre.
        self.hands = [52 // n] * n
        self.centre = 52 % n
        self.turn = (dealer + 1) % n
        self.next_rank = 1
        self.winner: str | None = None
        self._lay: _Lay | None = None

    # ----------------------------------------------------------------- helpers
    def _index(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RefereeError(f"{player!r} is not playing (players: {', '.join(self.players)})") from None

    def needs_draw(self) -> int:
        """Cards the player to lay must draw from the centre first (Foster's short-hand rule)."""
        if not self.rules.short_hand_draw or self._lay is not None:
            return 0
        return max(0, min(3 - self.hands[self.turn], self.centre))

    # ----------------------------------------------------------------- actions
    def draw(self, player: str, count: int) -> list[Report]:
        who = self._index(player)
        need = self.needs_draw()
        if who != self.turn or need == 0:
            return [Report(Verdict.BROKEN, f"{player} may not draw from the centre now", player)]
        if count != need:
            return [Report(Verdict.BROKEN, f"{player} must draw {need} card(s) to make three, not {count}", player)]
        self.hands[who] += count
        self.centre -= count
        return [Report(Verdict.DRAW, f"{player} draws {count} from the centre to make three", player, count)]

    def lay(self, player: str, count: int, rank: int) -> list[Report]:
        if self.winner is not None:
            raise RefereeError(f"the game is over: {self.winner} won")
        if self._lay is not None:
            raise RefereeError("the last lay is not settled yet: each player must doubt or pass")
        who = self._index(player)
        if who != self.turn:
            return [Report(Verdict.BROKEN, f"it is {self.players[self.turn]}'s turn, not {player}'s", player)]
        need = self.needs_draw()
        if need:
            return [
                Report(
                    Verdict.BROKEN, f"{player} has fewer than three cards: draw {need} from the centre first", player
                )
            ]
        if count not in self.rules.lay_counts or count > self.hands[who]:
            allowed = " or ".join(_NUMBER[c] for c in self.rules.lay_counts)
            return [
                Report(
                    Verdict.BROKEN,
                    f"{player} laid {_NUMBER[count] if count < 5 else count} cards; the rule is {allowed}",
                    player,
                    count,
                )
            ]
        if self.rules.ranks_in_order and rank != self.next_rank:
            return [Report(Verdict.BROKEN, f"the claim must be {_plural(self.next_rank)} this turn", player)]
        self.hands[who] -= count
        self._lay = _Lay(who, count, rank)
        return [
            Report(
                Verdict.OK,
                f"{player} lays {_NUMBER[count]} cards and says '{_NUMBER[count]} {_plural(rank)}'",
                player,
                count,
            )
        ]

    def pass_(self, player: str) -> list[Report]:
        lay = self._require_lay()
        who = self._index(player)
        if self.rules.doubt_in_turn_only and who != self._next_to_answer(lay):
            return [
                Report(
                    Verdict.BROKEN, f"it is {self.players[self._next_to_answer(lay)]}'s turn to doubt or pass", player
                )
            ]
        lay.asked.add(who)
        if len(lay.asked) == len(self.players) - 1:
            return self._settle_undoubted(lay)
        return [Report(Verdict.OK, f"{player} passes", player)]

    def doubt(self, player: str, revealed: list[Card]) -> list[Report]:
        """``player`` says 'I doubt it' and the laid cards are turned up: ``revealed`` is what the camera read."""
        lay = self._require_lay()
        who = self._index(player)
        if who == lay.player:
            return [Report(Verdict.BROKEN, f"{player} cannot doubt his own claim", player)]
        if self.rules.doubt_in_turn_only and who != self._next_to_answer(lay):
            return [Report(Verdict.BROKEN, f"{player} may doubt only in his turn", player)]
        if len(revealed) != lay.count:
            raise RefereeError(f"{len(revealed)} cards were turned up, {lay.count} were laid")
        claimer = self.players[lay.player]
        true = all(card.rank == lay.rank for card in revealed)
        taker = who if true else lay.player
        taken = lay.count + self.centre
        self.hands[taker] += taken
        self.centre = 0
        self._lay = None
        shown = ", ".join(str(card) for card in revealed)
        if true:
            text = f"the claim was true ({shown}): {player} picks up {taken} cards"
        else:
            text = (
                f"the cards are {shown}, not {_NUMBER[lay.count]} {_plural(lay.rank)}: {claimer} picks up {taken} cards"
            )
        reports = [Report(Verdict.PICKUP, text, self.players[taker], taken)]
        self._advance(lay)
        if true and self.hands[lay.player] == 0:
            reports.append(self._win(lay.player))
        return reports

    def show(self, player: str) -> list[Report]:
        """Foster's bravado rule: the layer showed one of his undoubted cards, so takes them all back."""
        lay = self._require_lay()
        if self._index(player) != lay.player:
            raise RefereeError("only the player who laid the cards can show them")
        taken = lay.count + self.centre
        self.hands[lay.player] += taken
        self.centre = 0
        self._lay = None
        self._advance(lay)
        return [Report(Verdict.PICKUP, f"{player} showed a laid card: he picks up {taken} cards", player, taken)]

    # ----------------------------------------------------------------- settling
    def _require_lay(self) -> _Lay:
        if self._lay is None:
            raise RefereeError("no cards have been laid to doubt or pass")
        return self._lay

    def _next_to_answer(self, lay: _Lay) -> int:
        n = len(self.players)
        for step in range(1, n):
            candidate = (lay.player + step) % n
            if candidate not in lay.asked:
                return candidate
        return lay.player

    def _settle_undoubted(self, lay: _Lay) -> list[Report]:
        self.centre += lay.count
        self._lay = None
        self._advance(lay)
        reports = [Report(Verdict.OK, f"no one doubts: {lay.count} cards go to the centre ({self.centre} there)")]
        if self.hands[lay.player] == 0:
            reports.append(self._win(lay.player))
        return reports

    def _advance(self, lay: _Lay) -> None:
        self.turn = (lay.player + 1) % len(self.players)
        self.next_rank = lay.rank % 13 + 1

    def _win(self, player: int) -> Report:
        self.winner = self.players[player]
        return Report(Verdict.WIN, f"{self.winner} has no cards left and wins", self.winner)
