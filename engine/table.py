"""``Table``: a position of a game, possibly with unknown cards, with legal moves and undo.

A table holds, per pile, the card codes bottom first and how many of the bottom cards lie face down.
Unknown cards (code ``UNKNOWN``) are cards the camera cannot read: face-down cards, or face-up cards covered
in a squared packet. A table may hold an impossible position; ``engine.status.problems`` says what is wrong.

>>> from engine.games import find_game
>>> table = Table.dealt(find_game("klondike"), seed=1)
>>> len(table.pile("t7")), table.face_down_count("t7")
(7, 6)
>>> move = next(iter(table.legal_moves))
>>> table.push(move); table.pop() == move
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from enum import Enum

from engine.cards import CARDS, RANK_OF, RED_OF, SUIT_OF, UNKNOWN, Card, full_deck
from engine.errors import IllegalMoveError, NotationError
from engine.layout import (
    BASE_ACE,
    BASE_ANY,
    BASE_DEALT,
    BASE_KING,
    BASE_NONE,
    SUIT_ALTERNATE,
    SUIT_SAME,
    GameIndex,
    game_index,
)
from engine.moves import Move
from engine.rules import Game, MoveUnit, Role


class Stage(Enum):
    DEAL = "deal"
    """Just dealt: the layout must match the deal exactly (the misdeal check)."""
    PLAY = "play"


class Outcome(Enum):
    WON = "won"
    BLOCKED = "blocked"
    """No legal move is left."""


ALL_CODES = frozenset(range(52))
RANK_CODES = {rank: frozenset(suit * 13 + rank - 1 for suit in range(4)) for rank in range(1, 14)}
BASE_CODES = {BASE_NONE: frozenset[int](), BASE_ANY: ALL_CODES, BASE_ACE: RANK_CODES[1], BASE_KING: RANK_CODES[13]}

# Undo records are plain tuples: (kind, move, src, dst, src_down, dst_down, passes, waste_played, extra, hook)
# where ``hook`` is None for games without hooks, else (hook state before the move, hook's undo token or None).
_NORMAL, _DEAL, _REDEAL, _HOOK = 0, 1, 2, 3
_Record = tuple[int, Move, int, int, int, int, int, bool, int, tuple[tuple[int, ...], object] | None]


class Table:
    __slots__ = (
        "_cards",
        "_down",
        "_g",
        "_history",
        "_hook_state",
        "_passes",
        "_waste_played",
        "faces",
        "game",
        "stage",
    )

    def __init__(
        self,
        game: Game,
        cards: Sequence[Sequence[int]],
        down: Sequence[int],
        *,
        passes: int = 1,
        waste_played: bool = False,
        stage: Stage = Stage.PLAY,
        faces: dict[str, tuple[bool, ...]] | None = None,
        hook_state: tuple[int, ...] | None = None,
    ) -> None:
        self.game = game
        self._g: GameIndex = game_index(game)
        if len(cards) != len(self._g.ids) or len(down) != len(self._g.ids):
            raise ValueError(f"{game.name} has {len(self._g.ids)} piles, got {len(cards)}")
        self._cards: list[list[int]] = [list(pile) for pile in cards]
        self._down: list[int] = [min(d, len(p)) for d, p in zip(down, self._cards, strict=True)]
        self._passes = passes
        self._waste_played = waste_played
        self._history: list[_Record] = []
        hooks = game.hooks
        if hook_state is None:
            hook_state = hooks.initial_state() if hooks is not None else ()
        self._hook_state: tuple[int, ...] = tuple(hook_state)
        self.stage = stage
        self.faces: dict[str, tuple[bool, ...]] = dict(faces or {})
        """Piles whose face-up pattern is not 'face-down cards at the bottom' (an impossible position)."""

    # ----------------------------------------------------------------- construction
    @classmethod
    def dealt(cls, game: Game, seed: int) -> Table:
        """The deal of ``game`` from a pack shuffled with ``random.Random(seed)`` (top of pack = end of list)."""
        pack = full_deck(game.packs)
        random.Random(seed).shuffle(pack)
        return cls.from_pack(game, pack)

    @classmethod
    def from_pack(cls, game: Game, pack: Sequence[int]) -> Table:
        """Deal ``pack`` (card codes, top card last) by the game's deal steps; the rest goes to the stock."""
        remaining = list(pack)
        if game.hooks is not None:  # e.g. Louis withdraws its foundation cards before the deal
            remaining = game.hooks.arrange_pack(remaining)
        g = game_index(game)
        cards: list[list[int]] = [[] for _ in g.ids]
        down = [0] * len(g.ids)
        for step in game.deal:
            i = g.index[step.pile]
            for _ in range(step.count):
                cards[i].append(remaining.pop())
                if not step.face_up and down[i] == len(cards[i]) - 1:
                    down[i] += 1
        if remaining:
            if g.stock < 0:
                raise ValueError(f"{game.name}: the deal leaves {len(remaining)} cards and there is no stock")
            cards[g.stock] = remaining + cards[g.stock]
            down[g.stock] = len(cards[g.stock])
        return cls(game, cards, down, stage=Stage.DEAL)

    def copy(self) -> Table:
        """A copy without the move history."""
        return Table(
            self.game,
            self._cards,
            self._down,
            passes=self._passes,
            waste_played=self._waste_played,
            stage=self.stage,
            faces=self.faces,
            hook_state=self._hook_state,
        )

    # ----------------------------------------------------------------- reading
    @property
    def pile_ids(self) -> tuple[str, ...]:
        return self._g.ids

    def _i(self, pile_id: str) -> int:
        try:
            return self._g.index[pile_id]
        except KeyError:
            known = ", ".join(self._g.ids)
            raise NotationError(f"{self.game.name} has no pile {pile_id!r} (piles: {known})") from None

    def pile(self, pile_id: str) -> tuple[Card | None, ...]:
        """Cards of a pile bottom first; ``None`` for an unknown card."""
        return tuple(None if c == UNKNOWN else CARDS[c] for c in self._cards[self._i(pile_id)])

    def codes(self, pile_id: str) -> tuple[int, ...]:
        return tuple(self._cards[self._i(pile_id)])

    def face_down_count(self, pile_id: str) -> int:
        return self._down[self._i(pile_id)]

    def is_face_up(self, pile_id: str, index: int) -> bool:
        if pile_id in self.faces:
            return self.faces[pile_id][index]
        return index >= self._down[self._i(pile_id)]

    def top(self, pile_id: str) -> Card | None:
        pile = self._cards[self._i(pile_id)]
        return CARDS[pile[-1]] if pile and pile[-1] != UNKNOWN else None

    @property
    def passes(self) -> int:
        """Which pass through the stock this is (1 for the first)."""
        return self._passes

    @property
    def waste_played(self) -> bool:
        """A card has been played from the waste during this pass."""
        return self._waste_played

    @property
    def hook_state(self) -> tuple[int, ...]:
        """The extra state of a game with hooks (named by ``game.hooks.state_fields``); () otherwise."""
        return self._hook_state

    # The three methods below are for game hooks (engine/games/*) that make moves the records cannot.
    def set_hook_state(self, state: tuple[int, ...]) -> None:
        self._hook_state = state

    def raw_pile(self, pile_id: str) -> list[int]:
        """The pile's own mutable list of codes, bottom first: for game hooks only."""
        return self._cards[self._i(pile_id)]

    def set_face_down_count(self, pile_id: str, count: int) -> None:
        self._down[self._i(pile_id)] = count

    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(record[1] for record in self._history)

    def piles_view(self) -> dict[str, list[tuple[str | None, bool]]]:
        """Pile id -> [(card notation or None if unknown, face up)], bottom first: what a renderer draws."""
        return {
            pile_id: [
                (None if c == UNKNOWN else str(CARDS[c]), self.is_face_up(pile_id, k))
                for k, c in enumerate(self._cards[i])
            ]
            for i, pile_id in enumerate(self._g.ids)
        }

    def foundation_count(self) -> int:
        return sum(len(self._cards[i]) for i in self._g.foundations)

    def score(self) -> int | None:
        """Money won or lost under the 1914 wager ($5 a foundation card against $52), None if no wager."""
        scoring = self.game.scoring
        if scoring is None:
            return None
        return self.foundation_count() * scoring.per_card - scoring.buy_in

    def base_rank(self) -> int | None:
        """The foundation base rank set by the deal (Canfield), or None if no foundation has a card yet."""
        for i in self._g.foundations:
            pile = self._cards[i]
            if pile and pile[0] != UNKNOWN:
                return RANK_OF[pile[0]]
        return None

    def key(self) -> tuple[object, ...]:
        """A hashable value equal for equal positions (move history excluded)."""
        return (
            tuple(tuple(p) for p in self._cards),
            tuple(self._down),
            self._passes,
            self._waste_played,
            tuple(sorted(self.faces.items())),
            self._hook_state,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self.game == other.game and self.key() == other.key() and self.stage is other.stage

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Table {self.game.name} {self.foundation_count()} on foundations, pass {self._passes}>"

    # ----------------------------------------------------------------- moves
    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        return move in self.generate_moves()

    def generate_moves(self) -> list[Move]:
        """All legal moves, in a stable order: stock, then each source pile to foundations and other piles."""
        g = self._g
        cards = self._cards
        down = self._down
        faces = self.faces
        out: list[Move] = []
        if g.stock >= 0:
            stock = cards[g.stock]
            if stock:
                out.append(g.move(g.stock, g.waste, min(self.game.stock.draw, len(stock))))
            elif g.waste >= 0 and cards[g.waste] and self._may_redeal():
                out.append(g.move(g.waste, g.stock, len(cards[g.waste])))
        ids = g.ids
        # Index what every receiving pile wants once, then look each movable card up: O(piles), not O(piles^2).
        wants: dict[int, list[int]] = {}
        empties: list[tuple[int, frozenset[int], bool]] = []
        for j in g.receivers:
            dst = cards[j]
            if faces and ids[j] in faces:
                continue
            if not dst:
                preferred = g.space_fallback[j][0]
                fallback_open = g.space_fallback[j][1] and not any(cards[k] for k in preferred)
                empties.append((j, self._base_codes(j), fallback_open))
                continue
            under = dst[-1]
            if under < 0 or down[j] >= len(dst):
                continue
            for code in g.accept_codes[j][under]:
                if code in wants:
                    wants[code].append(j)
                else:
                    wants[code] = [j]
        cached = g.moves
        on_top_from = g.on_top_from
        on_space_from = g.on_space_from
        fallback_only = g.fallback_ok
        is_foundation = g.is_foundation
        for i in g.sources:
            src = cards[i]
            n = len(src)
            if n == 0 or down[i] >= n or (faces and ids[i] in faces):
                continue
            top = src[-1]
            if top < 0:
                continue
            targets = wants.get(top)
            if targets is not None:
                for j in targets:
                    if is_foundation[j] and on_top_from[j][i]:
                        out.append(cached[i][j][1])
            unit = g.gives[i]
            if unit is MoveUnit.TOP_CARD:
                counts: tuple[int, ...] = (1,)
            elif unit is MoveUnit.WHOLE_RUN and not empties and src[down[i]] not in wants:
                continue  # the only unit that may move fits nowhere: skip checking the run
            else:
                counts = self._unit_counts(i, src, down[i])
            for count in counts:
                targets = wants.get(src[-count])
                if targets is not None:
                    for j in targets:
                        if not is_foundation[j] and on_top_from[j][i]:
                            out.append(cached[i][j][count])
            for j, base_codes, fallback_open in empties:
                if not on_space_from[j][i] or (fallback_only[j][i] and not fallback_open):
                    continue
                if is_foundation[j]:
                    if top in base_codes:
                        out.append(cached[i][j][1])
                    continue
                for count in counts:
                    if src[-count] in base_codes:
                        out.append(cached[i][j][count])
        hooks = self.game.hooks
        if hooks is not None:
            return hooks.moves(self, out)
        return out

    def _base_codes(self, j: int) -> frozenset[int]:
        """Card codes that may be placed on pile ``j`` when it is empty."""
        base = self._g.base[j]
        if base == BASE_DEALT:
            found = self.base_rank()
            return ALL_CODES if found is None else RANK_CODES[found]
        return BASE_CODES[base]

    def _may_redeal(self) -> bool:
        rule = self.game.stock
        if rule.passes is not None and self._passes >= rule.passes:
            return False
        return not (rule.redeal_needs_play and not self._waste_played)

    def _unit_counts(self, i: int, src: list[int], down: int) -> tuple[int, ...]:
        """How many top cards of pile ``i`` may move together to a building pile."""
        unit = self._g.gives[i]
        if unit is MoveUnit.TOP_CARD:
            return (1,)
        n = len(src)
        run = self._run_length(i, src, down)
        if unit is MoveUnit.ANY_RUN:
            return tuple(range(1, run + 1))
        if unit is MoveUnit.WHOLE_RUN:
            return (n - down,) if run == n - down else ()
        whole = (n,) if down == 0 and run == n else ()
        if unit is MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO:
            return (*whole, 1) if n == 2 else whole if n > 1 else (1,)
        if unit is MoveUnit.WHOLE_PILE_OR_TOP_CARD:
            return (1, *whole) if n > 1 else (1,)
        return ()

    def _run_length(self, i: int, src: list[int], down: int) -> int:
        """Number of top cards of pile ``i`` that are face up and built in sequence by the pile's rule."""
        next_rank = self._g.next_rank[i]
        rule = self._g.suit_rule[i]
        length = 1
        k = len(src) - 1
        while k > down:
            upper, lower = src[k], src[k - 1]
            if upper < 0 or lower < 0 or next_rank[RANK_OF[lower]] != RANK_OF[upper]:
                break
            if rule == SUIT_ALTERNATE:
                if RED_OF[upper] == RED_OF[lower]:
                    break
            elif rule == SUIT_SAME and SUIT_OF[upper] != SUIT_OF[lower]:
                break
            length += 1
            k -= 1
        return length

    def play(self, move: Move | str) -> None:
        """Push ``move`` after checking that it is legal (raises ``IllegalMoveError``)."""
        if isinstance(move, str):
            move = Move.parse(move)
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move} is not legal here: {self.describe(move)}")
        self.push(move)

    def push(self, move: Move) -> None:
        """Make ``move`` without checking it (see ``play``); ``pop`` undoes it exactly."""
        g = self._g
        i = g.index[move.src]
        j = g.index[move.dst]
        cards = self._cards
        down = self._down
        src = cards[i]
        dst = cards[j]
        k = move.count
        record_passes = self._passes
        record_played = self._waste_played
        src_down = down[i]
        dst_down = down[j]
        hook: tuple[tuple[int, ...], object] | None = None
        hooks = self.game.hooks
        if hooks is not None:
            state = self._hook_state
            token = hooks.push(self, move)
            if token is not None:  # the hook made the move itself
                self._history.append(
                    (_HOOK, move, i, j, src_down, dst_down, record_passes, record_played, -1, (state, token))
                )
                return
            hook = (state, None)
        if i == g.stock and j == g.waste:
            moved = src[-k:]
            del src[-k:]
            moved.reverse()
            dst.extend(moved)
            if down[i] > len(src):
                down[i] = len(src)
            self._history.append((_DEAL, move, i, j, src_down, dst_down, record_passes, record_played, 0, hook))
            return
        if i == g.waste and j == g.stock and not dst and k == len(src):
            moved = src[::-1]
            src.clear()
            dst.extend(moved)
            down[i] = 0
            down[j] = len(dst)
            self._passes += 1
            self._waste_played = False
            self._history.append((_REDEAL, move, i, j, src_down, dst_down, record_passes, record_played, 0, hook))
            return
        moved = src[-k:]
        del src[-k:]
        dst.extend(moved)
        n = len(src)
        if down[i] > n:
            down[i] = n
        elif n and down[i] == n and g.flip[i]:
            down[i] = n - 1
        if i == g.waste and self.game.stock.redeal_needs_play:
            self._waste_played = True
        filled = -1
        fill_from = self.game.autofill_from
        if fill_from is not None and not src and g.roles[i] is Role.TABLEAU:
            r = g.index[fill_from]
            if cards[r]:
                src.append(cards[r].pop())
                filled = r
                if down[r] > len(cards[r]):
                    down[r] = len(cards[r])
        self._history.append((_NORMAL, move, i, j, src_down, dst_down, record_passes, record_played, filled, hook))

    def pop(self) -> Move:
        """Undo the last pushed move and return it."""
        kind, move, i, j, src_down, dst_down, passes, played, extra, hook = self._history.pop()
        if hook is not None:
            self._hook_state = hook[0]
            if kind == _HOOK:
                assert self.game.hooks is not None
                self.game.hooks.undo(self, move, hook[1])
                self._passes = passes
                self._waste_played = played
                return move
        cards = self._cards
        src = cards[i]
        dst = cards[j]
        k = move.count
        if kind == _NORMAL:
            if extra >= 0:
                cards[extra].append(src.pop())
            moved = dst[-k:]
            del dst[-k:]
            src.extend(moved)
        elif kind == _DEAL:
            moved = dst[-k:]
            del dst[-k:]
            moved.reverse()
            src.extend(moved)
        else:
            src.extend(dst[::-1])
            dst.clear()
        self._down[i] = src_down
        self._down[j] = dst_down
        self._passes = passes
        self._waste_played = played
        return move

    def outcome(self) -> Outcome | None:
        """``WON`` when every card is on a foundation, ``BLOCKED`` when no legal move is left, else None."""
        hooks = self.game.hooks
        won = hooks.won(self) if hooks is not None else None
        if won if won is not None else self.foundation_count() == self.game.card_count:
            return Outcome.WON
        if not self.generate_moves():
            return Outcome.BLOCKED
        return None

    # ----------------------------------------------------------------- words
    def describe(self, move: Move) -> str:
        """The move as a sentence for a player, read in this position (before the move is made)."""
        g = self._g
        if move.src not in g.index or move.dst not in g.index:
            return f"{move} names a pile this game does not have"
        if self.game.hooks is not None and (said := self.game.hooks.describe(self, move)) is not None:
            return said
        i, j = g.index[move.src], g.index[move.dst]
        names = self.game.piles
        if i == g.stock and j == g.waste:
            count = move.count
            return f"turn {'the top card' if count == 1 else f'{count} cards'} of the stock onto the waste"
        if i == g.waste and j == g.stock:
            return "turn the waste over to make a new stock"
        src = self._cards[i]
        if move.count > len(src):
            return f"{names[i].name} has only {len(src)} cards"
        card = src[-move.count]
        what = "an unknown card" if card < 0 else f"the {CARDS[card].sentence}"
        if move.count > 1:
            what = f"{what} and the card on it" if move.count == 2 else f"{what} and the {move.count - 1} cards on it"
        dst = self._cards[j]
        if g.roles[j] is Role.FOUNDATION:
            where = f"to {names[j].name}"
        elif not dst:
            name = names[j].name
            where = f"into the empty {name.removeprefix('the ')}"  # "the foot of the cross": not "the empty the foot"
        elif dst[-1] < 0:
            where = f"onto {names[j].name}"
        else:
            where = f"onto the {CARDS[dst[-1]].sentence}"
        return f"move {what} {where}"


class LegalMoves:
    """A lazy view of the legal moves of a table, in the manner of python-chess."""

    __slots__ = ("_table",)

    def __init__(self, table: Table) -> None:
        self._table = table

    def __iter__(self) -> Iterator[Move]:
        return iter(self._table.generate_moves())

    def __len__(self) -> int:
        return len(self._table.generate_moves())

    def __bool__(self) -> bool:
        return bool(self._table.generate_moves())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._table.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves {' '.join(str(m) for m in self)}>"
