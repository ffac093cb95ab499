"""Hints for live tables, whose face-down cards the camera cannot see.

Determinization: the cards seen nowhere on the table are shuffled into the unknown slots, many times over
(one ``random.Random(seed)``, so a hint is reproducible); each legal move is judged on every sample by the
exact solver with a small node budget, and the move with the best mean is the hint. A sample won counts 1,
lost 0, and an undecided one how near its search came to a win (the share of the solver guide's estimate of
the moves still needed that it cleared), so that early in a game, when no sample is decided yet, the hint
still prefers the move that makes most progress. Moves back to an earlier position of the game are left out.
Budgets are counted in nodes, not seconds, so the same seed gives the same hint on any machine;
``nodes_for_seconds`` converts a time budget at a fixed rate. A Klondike-shaped game's samples are judged by the
compiled core (``engine.klondike_core``), a cross game's by the compiled cross search (``engine.cross_search``),
Canfield's by its compiled search (``engine.canfield_search``), and The Great Thirteen's, The Queens' and Sly's
each by its own (``engine.thirteen_search``, ``engine.queens_search``, ``engine.sly_search``), with many more
samples and positions for the same budget.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> table = Table.dealt(find_game("klondike/draw3"), seed=2)
>>> hint(table, nodes=3000, seed=1) == hint(table, nodes=3000, seed=1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine import canfield_search, cross_search, klondike_core, queens_search, sly_search, thirteen_search
from engine.cards import UNKNOWN, full_deck
from engine.errors import CadoganError
from engine.moves import Move
from engine.rules import Role
from engine.solver import Budget, SolveResult, Verdict, solve
from engine.solver_best import guide
from engine.solver_rules import SolverRules, canonical_key, key_parts, order_moves, solver_rules
from engine.table import Table

NODES_PER_SECOND = 30_000
"""Nodes a hint gets for each second asked. The solver runs 25,000-35,000 nodes a CPU second on the (shared,
slow) development machine, and a hint of 30,000 nodes takes about 0.75 s of CPU there: the issue allows a
second a hint, and more nodes avoid more of the moves that lose a won game (see docs/solver.md)."""

_LOST_CHECK = 32  # samples looked at before a hint says no way of the hidden cards can be won
_MAX_SAMPLES = 24

CORE_NODES_PER_NODE = 120
"""For a Klondike-shaped game the samples are judged by the compiled core (``engine.klondike_core``), which
searches 1.5-2.5 million positions a CPU second where the Python solver searches 25,000-35,000: a hint's node
budget is multiplied by this, so that a hint of ``nodes_for_seconds(1.0)`` takes about half a second of CPU
(0.4 s measured on the development machine under load), inside the issue's second."""
CANFIELD_NODES_PER_NODE = 30
"""The same for Canfield's compiled search (``engine.canfield_search``), which makes about 1.2 million positions a
CPU second in a hint's many short searches: at ``CORE_NODES_PER_NODE`` a "1 s" hint took 2-3 s of CPU where
every sample is lost or undecided (Foster's deal 0, ``bench.hidden_play``); at this, under 1 s."""
THIRTEEN_NODES_PER_NODE = 30
"""The same for The Great Thirteen's compiled search (``engine.thirteen_search``, 1-3 million positions a CPU
second): a known position is searched once with the whole budget (``_known_win_here``); a lost deal spends all of
it, about 0.65 s of CPU for a "1 s" hint (``bench.hidden_play``, deal 2)."""
QUEENS_NODES_PER_NODE = 30
"""The same for The Queens' compiled search (``engine.queens_search``, about 1.7 million positions a CPU second;
a sample the key blocks is judged lost at its first position, the others are won within a few hundred)."""
SLY_NODES_PER_NODE = 15
"""The same for Sly's compiled search (``engine.sly_search``, about a million positions a CPU second; at 30 a
"1 s" hint on a known deal took 2 s of CPU where no win was found)."""
_MAX_CORE_SAMPLES = 64
_PLAN_LOOKBACK = 16  # earlier positions whose wins a known position may keep to (_known_hint)
_CORE_NODES_PER_JUDGEMENT = 2_000  # samples are added while each (sample, move) judgement gets this many


class _Search(Enum):
    """What judges a hint's samples (``_searcher``)."""

    CORE = "the compiled Klondike core"
    CROSS = "the compiled cross search"
    CANFIELD = "the compiled Canfield search"
    THIRTEEN = "the compiled Great Thirteen search"
    QUEENS = "the compiled Queens search"
    SLY = "the compiled Sly search"
    PYTHON = "the Python solver"


class HintError(CadoganError):
    """The table cannot be completed into a full pack (more unknown cards than cards unaccounted for)."""


@dataclass(frozen=True, slots=True)
class Hint:
    move: Move | None
    """None when no legal move is left."""
    sentence: str
    """The move in words (``Table.describe``)."""
    chance: float
    """Estimated chance to win after this move, 0..1."""
    reason: str
    """One sentence saying why this move."""
    samples: int
    """How many ways of placing the hidden cards were tried (1 when every card is known)."""


@dataclass(slots=True)
class _Tally:
    won: int = 0
    lost: int = 0
    open: int = 0
    near: float = 0.0
    """Sum over undecided samples of how near their search came to a win (``_nearness``)."""
    chosen: int = 0
    """Samples whose whole search found a win that starts with this move: where every move wins in hindsight
    (late in a game), the moves the solver's own winning lines start with make progress, where any other
    tie-break let the play wander (runs moved back and forth between stock turns for 400 moves)."""

    def add(self, verdict: Verdict, nearness: float) -> None:
        if verdict is Verdict.SOLVED:
            self.won += 1
        elif verdict is Verdict.UNSOLVABLE:
            self.lost += 1
        else:
            self.open += 1
            self.near += nearness

    @property
    def score(self) -> float:
        """What the hint maximises: wins count 1, losses 0, undecided samples their nearness."""
        total = self.won + self.lost + self.open
        return (self.won + self.near) / total if total else 0.0

    @property
    def value(self) -> float:
        total = self.won + self.lost + self.open
        return (self.won + 0.5 * self.open) / total if total else 0.0


def nodes_for_seconds(seconds: float) -> int:
    return max(200, int(seconds * NODES_PER_SECOND))


def samples(table: Table, count: int, seed: int) -> list[Table]:
    """``count`` completions of ``table``: the unseen cards shuffled into the unknown slots."""
    slots = [(p, k) for p in table.pile_ids for k, c in enumerate(table.codes(p)) if c == UNKNOWN]
    if not slots:
        return [table.copy()]
    unseen = Counter(full_deck(table.game.packs))
    unseen.subtract(c for p in table.pile_ids for c in table.codes(p) if c != UNKNOWN)
    pool = sorted(unseen.elements())
    if len(pool) < len(slots):
        raise HintError(
            f"the table shows {len(slots)} unknown cards but only {len(pool)} cards of the pack are unaccounted"
            " for: some card is read twice"
        )
    rng = random.Random(seed)
    ids = table.pile_ids
    down = [table.face_down_count(p) for p in ids]
    out: list[Table] = []
    for _ in range(count):
        drawn = rng.sample(pool, len(slots))
        cards = {p: list(table.codes(p)) for p in ids}
        for (p, k), code in zip(slots, drawn, strict=True):
            cards[p][k] = code
        out.append(
            Table(
                table.game,
                [cards[p] for p in ids],
                down,
                passes=table.passes,
                waste_played=table.waste_played,
                stage=table.stage,
                faces=table.faces,
                hook_state=table.hook_state,
            )
        )
    return out


def hint(
    table: Table,
    nodes: int = NODES_PER_SECOND,
    seed: int = 0,
    *,
    history: Sequence[Table] = (),
    compiled: bool = True,
) -> Hint:
    """The move with the best estimated chance to win, judged within about ``nodes`` solver nodes in all.

    ``history``: earlier positions of the same game (oldest first; the table's own move history counts too).
    Moves that lead back to one of them, such as moving a run back where it came from, are left out unless no
    other move is left. A Klondike-shaped game's samples are judged by the compiled core (``CORE_NODES_PER_NODE``
    of its positions for each node), a cross game's (General Sedgewick, Four Seasons) by the compiled cross
    search with the same budgets, Canfield's, The Great Thirteen's, The Queens' and Sly's by their own compiled
    searches (``CANFIELD_NODES_PER_NODE``, ``THIRTEEN_NODES_PER_NODE``, ``QUEENS_NODES_PER_NODE``,
    ``SLY_NODES_PER_NODE``), unless ``compiled`` is False (``_searcher``).
    """
    moves = table.generate_moves()
    if not moves:
        return Hint(None, "", 0.0, "no legal move is left: the game is blocked", 0)
    rules = solver_rules(table.game)
    earlier = _earlier(table, history)
    moves = _fresh_after(table, moves, earlier)
    hidden = any(UNKNOWN in table.codes(p) for p in table.pile_ids)
    search = _searcher(table, compiled)
    if search is not _Search.PYTHON:
        # The compiled searches make many times the Python solver's positions in the same time: many more
        # samples, each judged by a real search.
        nodes *= _GAME_SEARCHES[search].nodes_per_node if search in _GAME_SEARCHES else CORE_NODES_PER_NODE
    if search in _GAME_SEARCHES and not hidden:
        game_search = _GAME_SEARCHES[search]
        known = (
            _known_hint(table, moves, earlier, nodes, game_search.solve)
            if game_search.keeps_plan
            else _known_win_here(table, nodes, game_search.solve)
        )
        if known is not None:
            return known
    # With hidden cards, the compiled searches judge commitments (``_commitments``) rather than every move alone.
    lines = (_commitments(table, moves) if search is not _Search.PYTHON and hidden else []) or [
        (move,) for move in moves
    ]
    if search is not _Search.PYTHON:
        count = max(8, min(_MAX_CORE_SAMPLES, nodes // (_CORE_NODES_PER_JUDGEMENT * (len(lines) + 1))))
    else:
        count = _sample_count(nodes, len(lines))
    worlds = samples(table, count if hidden else 1, seed)
    per_eval = max(50, nodes // (len(worlds) * (len(lines) + 2)))
    tallies = {line: _Tally() for line in lines}
    # Each sample's whole position searched once: a lost sample is lost for every line, a won one names a move.
    wholes: list[klondike_core.Judgement] = []
    batch = 0
    while True:
        wholes += [_search(world, per_eval * 2, search) for world in worlds[batch:]]
        _judge(worlds[batch:], wholes[batch:], tallies, per_eval, rules, search)
        # A sample proven lost costs a few nodes, and a handful of samples can all be lost by chance where a
        # third of the ways the hidden cards may lie are lost: before saying the game cannot be won, look at
        # more of them (up to _LOST_CHECK samples in all).
        if not hidden or len(worlds) >= _LOST_CHECK or any(t.won or t.open for t in tallies.values()):
            break
        batch = len(worlds)
        worlds += samples(table, min(len(worlds), _LOST_CHECK - len(worlds)), seed * 1_000_003 + batch)
    # A sample's own win may start with a move no line starts with: a move that commits to nothing and is two
    # or more such moves from a commitment (a column emptied so that a card turned later can go there). Where
    # no line wins a single sample, that move is judged alone too: leaving it out made the hint give up games
    # its own samples won (every line lost in 1,024 samples while 90 % of the ways the cards may lie were won).
    if not any(t.won for t in tallies.values()):
        # Only moves the history leaves in (``_fresh_moves``), none that goes back.
        candidates = set(moves) - {line[0] for line in lines}
        extra: dict[tuple[Move, ...], _Tally] = {
            (w.first,): _Tally() for w in wholes if w.verdict is Verdict.SOLVED and w.first in candidates
        }
        if extra:  # judging no line would still walk every sample for its guide
            _judge(worlds, wholes, extra, per_eval, rules, search)
            tallies.update(extra)
    # Ties go to the move the solver's winning lines start with most often, then to the earlier move in the
    # solver's own order of preference (foundation, uncover, ...), then to the shorter line.
    order = {move: n for n, move in enumerate(_preference(table, moves))}
    best = max(
        tallies, key=lambda ln: (tallies[ln].score, tallies[ln].won, tallies[ln].chosen, -order[ln[0]], -len(ln))
    )
    tally = tallies[best]
    reason = _reason(tally, len(worlds), hidden)
    if len(best) > 1:
        board = table.copy()
        for move in best[:-1]:
            board.push(move)
        reason += f"; then {board.describe(best[-1])}" if best[-1].src != "s" else "; then turn on to unseen cards"
    return Hint(best[0], table.describe(best[0]), tally.value, reason, len(worlds))


@dataclass(frozen=True, slots=True)
class _GameSearch:
    """A game's own compiled search as the hints use it (no guide, so an undecided sample counts a half)."""

    solve: Callable[[Table, Budget], SolveResult]
    """Finds a known position's win (``_known_hint``, ``_known_win_here``)."""
    judge: Callable[[Table, int], tuple[Verdict, Move | None]]
    """Judges a sample (``_search``)."""
    nodes_per_node: int
    """Its positions for each node of a hint's budget."""
    keeps_plan: bool
    """A known position keeps to one plan made from an earlier position (``_known_hint``: moves there can go back
    and forth); else every move is for good and the hint is the win found from here (``_known_win_here``)."""


_GAME_SEARCHES = {
    _Search.CROSS: _GameSearch(cross_search.solve, cross_search.judge, CORE_NODES_PER_NODE, True),
    _Search.CANFIELD: _GameSearch(canfield_search.solve, canfield_search.judge, CANFIELD_NODES_PER_NODE, True),
    _Search.THIRTEEN: _GameSearch(thirteen_search.solve, thirteen_search.judge, THIRTEEN_NODES_PER_NODE, False),
    _Search.QUEENS: _GameSearch(queens_search.solve, queens_search.judge, QUEENS_NODES_PER_NODE, True),
    _Search.SLY: _GameSearch(sly_search.solve, sly_search.judge, SLY_NODES_PER_NODE, False),
}


def _known_hint(
    table: Table,
    moves: list[Move],
    earlier: list[Table],
    nodes: int,
    solver: Callable[[Table, Budget], SolveResult],
) -> Hint | None:
    """A cross game's or Canfield's position with every card known (the pack or the hand seen through): the next
    move of a win, kept from move to move, or None where no search finds one.

    Following the first move of a win found afresh after every move wanders: each new search's win begins
    differently, cards go back and forth between packets, a move back is left out (``_fresh_moves``), and the
    play walked off its wins (Four Seasons seed 49 in ``bench.hidden_play``: won with every card known at move
    85, shuffled between packets until a losing move at 195). So the hint keeps to one plan: the win (found and
    shortened by ``solver``, the same for the same position) from the first position of the game
    with every card known, or from one of the last ``_PLAN_LOOKBACK`` positions, if the game has kept to it this
    far; else this position's own win. Where even that starts with a move back, the move after which the
    shortest win is found."""
    known: list[Table] = []
    for board in reversed(earlier):
        if board.pile_ids != table.pile_ids or any(UNKNOWN in board.codes(p) for p in board.pile_ids):
            break
        known.append(board)
    known.reverse()
    starts = known[:1] + known[1:][-_PLAN_LOOKBACK:] + [table]
    per_search = max(50, nodes // (len(starts) + len(moves)))
    here = table.key()
    for start in starts:
        result = solver(start, Budget(nodes=per_search, seconds=None))
        if result.verdict is not Verdict.SOLVED:
            continue
        board = start.copy()
        for step, move in enumerate(result.moves):
            if board.key() == here:
                if move in moves:
                    return _known_win(table, move, len(result.moves) - step - 1)
                break
            board.play(move)
    best: tuple[int, Move] | None = None
    for move in moves:
        board = table.copy()
        board.play(move)
        result = solver(board, Budget(nodes=per_search, seconds=None))
        if result.verdict is Verdict.SOLVED and (best is None or len(result.moves) < best[0]):
            best = (len(result.moves), move)
    return None if best is None else _known_win(table, best[1], best[0])


def _known_win_here(table: Table, nodes: int, solver: Callable[[Table, Budget], SolveResult]) -> Hint | None:
    """A known position of a game whose every move is for good (The Great Thirteen: a card placed stays, a
    packet re-dealt stays dealt): the first move of the win the search finds from here with the whole budget, or
    None. A win found afresh after every move cannot wander back and forth there, so ``_known_hint``'s plan and
    its share of the budget for each earlier position are not needed (``bench.hidden_play``, seeds 0-49: the same
    46 deals won either way, every game the same, at half the CPU a move)."""
    result = solver(table, Budget(nodes=nodes, seconds=None))
    if result.verdict is not Verdict.SOLVED:
        return None
    return _known_win(table, result.moves[0], len(result.moves) - 1)


def _known_win(table: Table, move: Move, left: int) -> Hint:
    reason = "the solver finds a win that starts with this move" + (f", {left} more to the end" if left else "")
    return Hint(move, table.describe(move), 1.0, reason, 1)


def _commitments(table: Table, moves: list[Move]) -> list[tuple[Move, ...]]:
    """Short lines of moves that each end in a commitment, for a table with hidden cards.

    Judged by samples solved in hindsight, a move that keeps every option (turning the stock round, moving a
    run back and forth, a card down from a foundation and up again) is worth as much as the best thing that
    can follow it, so such moves won every tie and the play wandered: 400 moves of stock turns and shuffles in
    ``bench.hidden_play``. So only commitments are judged, as lonelybot does: a move that turns a face-down
    card up, plays a card of the waste, or turns a stock card not seen before; each reached through at most
    one move that commits to nothing, or through the stock turns that bring a waste card up. The hint is the
    first move of the best line. Empty when nothing commits within reach: then every move is judged alone.
    """
    fresh = set(moves)
    lines: list[tuple[Move, ...]] = []
    for move in moves:
        if _is_turn(table, move):
            continue
        if _commits(table, move):
            lines.append((move,))
            continue
        table.push(move)
        lines.extend(
            (move, after) for after in table.generate_moves() if not _is_turn(table, after) and _commits(table, after)
        )
        table.pop()
    # The waste cards the stock can bring up, each with its plays; a turn that shows an unseen card commits.
    turn = next((m for m in moves if _is_turn(table, m)), None)
    if turn is not None:
        board = table.copy()
        prefix: list[Move] = []
        start = (board.codes("s"), board.codes("w"))
        for _ in range(len(board.codes("s")) + len(board.codes("w")) + 2):
            step = next((m for m in board.generate_moves() if _is_turn(board, m)), None)
            if step is None:
                break
            showing = board.codes(step.src)[-step.count :] if step.src == "s" else ()
            board.push(step)
            prefix.append(step)
            if UNKNOWN in showing:
                lines.append(tuple(prefix))
                break
            plays = [m for m in board.generate_moves() if m.src == "w" and not _is_turn(board, m)]
            lines.extend((*prefix, play) for play in plays)
            if (board.codes("s"), board.codes("w")) == start:
                break
    return [line for line in dict.fromkeys(lines) if line[0] in fresh]


def _is_turn(table: Table, move: Move) -> bool:
    roles = (table.game.pile(move.src).role, table.game.pile(move.dst).role)
    return Role.STOCK in roles


def _commits(table: Table, move: Move) -> bool:
    """Whether ``move`` (not a stock turn) cannot be taken back: it plays a waste card or turns a card up."""
    if table.game.pile(move.src).role is Role.WASTE:
        return True
    left = len(table.codes(move.src)) - move.count
    return left > 0 and table.face_down_count(move.src) >= left


def _judge(
    worlds: Sequence[Table],
    wholes: Sequence[klondike_core.Judgement],
    tallies: dict[tuple[Move, ...], _Tally],
    per_eval: int,
    rules: SolverRules,
    search: _Search,
) -> None:
    """Each line's outcome in each sample, added to its tally (searched by ``search``, see ``_searcher``);
    ``wholes``: each sample's search of its whole position (a lost one is lost for every line, a won one's first
    move is credited)."""
    for world, whole in zip(worlds, wholes, strict=True):
        if whole.verdict is Verdict.UNSOLVABLE:
            for tally in tallies.values():
                tally.add(Verdict.UNSOLVABLE, 0.0)
            continue
        start = (
            1
            if search in _GAME_SEARCHES  # no guide: an undecided sample counts a half (``_nearness``)
            else max(1, klondike_core.guide(world) if search is _Search.CORE else guide(world))
        )
        seen: dict[bytes, tuple[Verdict, float]] = {}
        for line in tallies:
            if whole.verdict is Verdict.SOLVED and whole.first == line[0]:
                tallies[line].chosen += 1
                if len(line) == 1:  # the sample's own win starts with it: won, no search needed
                    tallies[line].add(Verdict.SOLVED, 1.0)
                    continue
            for move in line:
                world.push(move)
            position = canonical_key(rules, world.key())
            judged = seen.get(position)
            if judged is None:
                result = _search(world, per_eval, search)
                judged = (result.verdict, _nearness(result.closest, start))
                seen[position] = judged
            for _ in line:
                world.pop()
            tallies[line].add(*judged)


def _searcher(table: Table, compiled: bool) -> _Search:
    """Which search judges the samples: the compiled Klondike core for its shape, the compiled cross search
    for the cross games, Canfield's for Canfield, The Great Thirteen's, The Queens' and Sly's for theirs (their
    undecided samples carry no nearness: they have no guide), else the Python solver."""
    if compiled and klondike_core.AVAILABLE and klondike_core.shape(table.game) is not None:
        return _Search.CORE
    # A table the cross search cannot take (a foundation out of sequence, a card face down on the cross) keeps
    # the Python solver, which takes any legal table.
    cross = compiled and cross_search.COMPILED and cross_search.shape(table.game) is not None
    if cross and cross_search.fits(samples(table, 1, 0)[0]):
        return _Search.CROSS
    if compiled and canfield_search.shape(table.game) is not None and canfield_search.fits(samples(table, 1, 0)[0]):
        return _Search.CANFIELD
    if compiled and thirteen_search.takes(table.game) and thirteen_search.fits(samples(table, 1, 0)[0], hindsight=True):
        return _Search.THIRTEEN
    if compiled and queens_search.takes(table.game) and queens_search.fits(samples(table, 1, 0)[0]):
        return _Search.QUEENS
    if compiled and sly_search.takes(table.game) and sly_search.fits(samples(table, 1, 0)[0]):
        return _Search.SLY
    return _Search.PYTHON


def _search(world: Table, nodes: int, search: _Search) -> klondike_core.Judgement:
    """One judgement of a sample by ``search`` (``_searcher``), in one answer shape."""
    if search is _Search.CORE:
        return klondike_core.judge(world, nodes)
    if search in _GAME_SEARCHES:
        verdict, first = _GAME_SEARCHES[search].judge(world, nodes)
        return klondike_core.Judgement(verdict, first, None)
    result = solve(world, Budget(nodes=nodes, seconds=None), compiled=False)
    first = result.moves[0] if result.moves else None
    return klondike_core.Judgement(result.verdict, first, result.closest)


def _nearness(closest: int | None, start: int) -> float:
    """How far toward a win an undecided search got, in (0, 1): the share of the guide's estimate of the
    moves still needed that it cleared. It ranks undecided samples between a loss (0) and a win (1)."""
    if closest is None:
        return 0.5
    return min(0.98, max(0.02, 1.0 - closest / start))


def visible_key(table: Table) -> tuple[object, ...]:
    """A position as the player sees it: face-up cards and face-down counts (face-down identities left out,
    and the pass count where passes are unlimited), interchangeable foundations in any order: an ace moved
    from one empty foundation to another by way of a column is no new position."""
    passes = table.passes if table.game.stock.passes is not None else 0
    return _faces(table, set()), passes, table.waste_played, table.hook_state


def layout_key(table: Table) -> tuple[object, ...]:
    """``visible_key`` without the stock and waste: the layout, which only stock turns leave unchanged."""
    return _faces(table, {Role.STOCK, Role.WASTE})


def _faces(table: Table, skip: set[Role]) -> tuple[object, ...]:
    """Each pile's face-down count and face-up cards, but for piles of the roles in ``skip``; the piles of a
    group of interchangeable foundations (``SolverRules.groups``) sorted among themselves."""
    rules = solver_rules(table.game)
    ids = rules.g.ids
    out: list[object] = []
    for members in rules.groups:
        role = rules.role[ids[members[0]]]
        if role in skip:
            continue
        faces = [(table.face_down_count(ids[i]), table.codes(ids[i])[table.face_down_count(ids[i]) :]) for i in members]
        out.extend(sorted(faces) if role is Role.FOUNDATION else faces)
    return tuple(out)


def _fresh_moves(table: Table, moves: list[Move], history: Sequence[Table]) -> list[Move]:
    """``moves`` less those that go back: to a position of ``history`` or of the table's own move history, or
    (for a move that is not a stock turn) to an earlier layout, such as a run moved back where it came from
    after a few turns of the stock."""
    return _fresh_after(table, moves, _earlier(table, history))


def _fresh_after(table: Table, moves: list[Move], earlier: list[Table]) -> list[Move]:
    """``_fresh_moves`` given the earlier positions already gathered (``_earlier``)."""
    if not earlier:
        return moves
    positions = {visible_key(t) for t in earlier}
    layouts = {layout_key(t) for t in earlier}
    game = table.game
    turns = {Role.STOCK}
    fresh: list[Move] = []
    for move in moves:
        table.push(move)
        turn = game.pile(move.src).role in turns or game.pile(move.dst).role in turns
        back = visible_key(table) in positions or (not turn and layout_key(table) in layouts)
        table.pop()
        if not back:
            fresh.append(move)
    return fresh or moves


def _earlier(table: Table, history: Sequence[Table]) -> list[Table]:
    """The game's earlier positions, oldest first: ``history``, then those of the table's own move history."""
    earlier = list(history)
    if table.history:
        replay = list(table.history)
        for _ in replay:
            table.pop()
        for move in replay:
            earlier.append(table.copy())
            table.push(move)
    return earlier


def _preference(table: Table, moves: list[Move]) -> list[Move]:
    cards, down = key_parts(table.key())
    ranked = order_moves(solver_rules(table.game), cards, down, moves)
    return ranked + [m for m in moves if m not in ranked]


def _sample_count(nodes: int, move_count: int) -> int:
    """Enough samples to estimate, few enough that each judgement still gets a real search."""
    return max(4, min(_MAX_SAMPLES, nodes // (500 * (move_count + 1))))


def _reason(tally: _Tally, worlds: int, hidden: bool) -> str:
    if not hidden:
        if tally.won:
            return "the solver finds a win that starts with this move"
        if tally.lost:
            return "no move wins; this one keeps the most play in the cards"
        return "the solver ran out of budget; this move gets nearest to a win"
    decided = tally.won + tally.lost
    if tally.won:
        return f"it leads to a win in {tally.won} of {worlds} ways the hidden cards may lie" + (
            f" ({worlds - decided} undecided)" if decided < worlds else ""
        )
    if decided == worlds:
        return f"no way of the {worlds} tried for the hidden cards can be won; this move does least harm"
    return f"no win found within the budget in {worlds} samples of the hidden cards; this move gets nearest to one"
