"""Verify: changes between still tables explained as legal moves, illegal moves named with their rule."""

from __future__ import annotations

import random

import pytest

from engine.autoplay import greedy_playout
from engine.cards import UNKNOWN, parse_code
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table
from engine.testing import camera_view, hide_face_down, make_table
from engine.verify import (
    _children,
    _illegal,
    _may_agree,
    _newly_seen,
    agrees,
    explain,
    verify_tables,
    why_illegal,
)


def after(table: Table, *moves: str) -> Table:
    copy = table.copy()
    for text in moves:
        copy.push(Move.parse(text))
    return copy


@pytest.fixture
def deal() -> Table:
    return Table.dealt(find_game("klondike"), 3)


def test_nothing_changed_is_an_empty_legal_explanation(deal: Table) -> None:
    result = explain(deal, deal.copy())
    assert result is not None
    assert result.moves == ()
    assert result.legal


def test_one_legal_move_is_found(deal: Table) -> None:
    result = explain(deal, after(deal, "t2>t1"))
    assert result is not None
    assert result.legal
    assert result.moves == (Move("t2", "t1"),)
    assert result.sentences == ("move the 2 of clubs onto the 3 of hearts",)


def test_moves_the_camera_missed_are_found_shortest_first(deal: Table) -> None:
    result = explain(deal, after(deal, "t2>t1", "s>w", "t5>t7"))
    assert result is not None
    assert result.legal
    assert len(result.moves) == 3


@pytest.mark.parametrize("played", [("t2>t1", "s>w"), ("s>w", "t2>t1")])
def test_a_move_and_a_stock_turn_seen_at_once_are_told_turn_last(deal: Table, played: tuple[str, str]) -> None:
    # either order leaves the same table; a player turns the stock when the cards in sight offer nothing more
    result = explain(deal, after(deal, *played))
    assert result is not None
    assert result.legal
    assert result.moves == (Move.parse("t2>t1"), Move.parse("s>w"))


def test_a_turn_whose_card_is_played_at_once_is_told_first() -> None:
    for seed in range(100):
        table = Table.dealt(find_game("klondike"), seed)
        turned = after(table, "s>w")
        played = next((m for m in turned.generate_moves() if m.src == "w"), None)
        if played is not None:
            break
    else:
        raise AssertionError("no deal whose first turned card can be played")
    result = explain(table, after(turned, str(played)))
    assert result is not None
    assert result.moves == (Move.parse("s>w"), played)


def test_a_card_turned_up_is_read_and_filled_in(deal: Table) -> None:
    hidden = hide_face_down(deal)
    seen = hide_face_down(after(deal, "t2>t1"))
    seen_codes = seen.codes("t2")
    assert seen_codes[-1] != UNKNOWN  # the queen of diamonds was turned up and read
    result = explain(hidden, seen)
    assert result is not None
    assert result.legal
    assert result.revealed == (("t2", 0, seen_codes[-1]),)


@pytest.mark.parametrize(
    ("piles", "move", "reason"),
    [
        ({"t1": "7H", "t2": "8D"}, "t1>t2", "red 7 on red 8 is not allowed: colours must alternate"),
        ({"t1": "5c 9S"}, "t1>t2", "only a king may fill column 2, not a black 9"),
        ({"t1": "4d 9S 8H", "t2": "10D"}, "t1>t2", "the 2 face-up cards of column 1 move together or not at all"),
        ({"t1": "7S", "t2": "9H"}, "t1>t2", "black 7 on red 9 is not allowed: column 2 builds down one rank at a time"),
        ({"t1": "2H", "f1": "AS"}, "t1>f1", "the 2 of hearts may not go on the ace of spades: it must follow suit"),
    ],
)
def test_illegal_moves_are_named_with_the_rule_they_break(piles: dict[str, str], move: str, reason: str) -> None:
    table = make_table("klondike", piles)
    seen = after(table, move)
    result = explain(table, seen)
    assert result is not None
    assert not result.legal
    assert result.moves == (Move.parse(move),)
    assert result.reason == reason
    assert why_illegal(table, Move.parse(move)) == reason


def test_a_change_no_move_explains_returns_none(deal: Table) -> None:
    seen = deal.copy()
    seen = make_table("klondike", {"t1": "KS"})
    assert explain(deal, seen) is None


@pytest.mark.parametrize(("game", "seed"), [("klondike", 2), ("canfield", 39), ("klondike/draw3", 4)])
def test_a_recorded_game_verifies_move_by_move(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    tables = [hide_face_down(table)]
    for _ in greedy_playout(table, max_moves=80):
        tables.append(hide_face_down(table))
    # The camera misses a few still moments: drop some tables at random, never two in a row.
    rng = random.Random(seed)
    kept = [t for i, t in enumerate(tables) if i in (0, len(tables) - 1) or i % 2 == 0 or rng.random() < 0.5]
    report = verify_tables(kept)
    assert report.legal
    assert report.final.foundation_count() == table.foundation_count()


def test_an_injected_illegal_move_is_flagged_at_its_step() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    tables = [table.copy()]
    table.push(Move.parse("s>w"))
    tables.append(table.copy())
    table.push(Move.parse("t1>t2"))  # red on red
    tables.append(table.copy())
    table.push(Move.parse("s>w"))
    tables.append(table.copy())
    report = verify_tables(tables)
    assert report.first_illegal == 2
    assert not report.legal
    last = report.steps[-1].explanation
    assert last is not None
    assert last.legal


@pytest.mark.parametrize(("game", "seed"), [("klondike", 2), ("canfield", 39)])
def test_partial_readings_of_a_game_verify(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    tables = [hide_face_down(table)]
    views = [camera_view(table)]
    for _ in greedy_playout(table, max_moves=60):
        views.append(camera_view(table))
    report = verify_tables([tables[0], *views[1:]], partial=True)
    assert report.legal
    assert report.final.foundation_count() == table.foundation_count()


def test_partial_reading_names_an_illegal_move() -> None:
    table = make_table("klondike", {"t1": "4c 7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    result = explain(table, camera_view(moved), partial=True)
    assert result is not None
    assert result.reason == "red 7 on red 8 is not allowed: colours must alternate"


def test_a_card_turned_up_is_never_given_an_identity_the_table_already_holds(deal: Table) -> None:
    hidden = hide_face_down(deal)
    move = Move.parse("t2>t1")
    seen = after(hidden, "t2>t1")  # the turned-up card is face up but not read
    assert seen.codes("t2")[-1] == UNKNOWN
    on_table = hidden.codes("t1")[-1]
    not_on_table = deal.codes("t7")[0]  # face down in the deal: unknown to the model
    children = _children(hidden, move, seen, [on_table, not_on_table], partial=False)
    tops = [child.codes("t2")[-1] for child in children]
    assert on_table not in tops
    assert tops == [not_on_table]
    # Only cards the table holds: the turned-up card stays unknown rather than becoming a duplicate.
    alone = _children(hidden, move, seen, [on_table], partial=False)
    assert [child.codes("t2")[-1] for child in alone] == [UNKNOWN]


def test_a_stock_card_turned_and_played_at_once_is_a_legal_change() -> None:
    # the noisy reader (seed 1), k-legal-1: the still table after the stock's turn went unread, so the change is
    # the turn and the queen of clubs put on the king of hearts at once; the waste's old top, read in its place,
    # is not the card the turn brought up (the table holds it already), so that card is the queen the camera saw
    table = make_table("klondike", {"w": "7D", "t2": "JD 10C 9D", "t3": "KH", "s": "4h 5s qc"})
    played = after(table, "s>w", "w>t3")
    result = explain(hide_face_down(table), camera_view(played), partial=True)
    assert result is not None
    assert result.legal
    assert [str(m) for m in result.moves] == ["s>w", "w>t3"]


def test_a_turns_top_card_played_at_once_is_one_turn_and_one_play_and_named() -> None:
    # c-legal-1: three cards turned, the top one (5C) played to its foundation, the 3C under it read on top; the
    # turn's top card was taken for the 3C read in its place, so the play needed a second turn (one card too many)
    table = make_table(
        "canfield",
        {"s": "9h 5s 5c 3c 2d", "w": "JC 8H", "r": "qd AS", "f2": "4C", "t1": "10D", "t2": "2H AC", "t3": "KS"},
    )
    played = after(table, "s:3>w", "w>f2")
    result = explain(hide_face_down(table), camera_view(played), partial=True)
    assert result is not None
    assert result.legal
    assert [str(m) for m in result.moves] == ["s:3>w", "w>f2"]
    assert result.sentences == ("turn 3 cards of the stock onto the waste", "move the 5 of clubs to foundation 2")


@pytest.mark.parametrize("game", ["klondike", "klondike/draw3", "canfield", "canfield/modern"])
@pytest.mark.parametrize("partial", [False, True])
def test_pruned_illegal_search_gives_the_answer_of_the_full_one(game: str, partial: bool) -> None:
    # every physical move of top cards, legal or not, after random play, sometimes with a misread card:
    # trying only moves between the piles that disagree finds exactly what trying them all finds
    rng = random.Random(f"{game}-{partial}")
    checked = found = 0
    for seed in range(4):
        table = Table.dealt(find_game(game), seed)
        table.stage = Stage.PLAY
        for _ in greedy_playout(table, max_moves=rng.randrange(0, 30)):
            pass
        before = hide_face_down(table) if partial else table
        for _ in range(12):
            src, dst = rng.sample(list(table.pile_ids), 2)
            if not table.codes(src):
                continue
            moved = table.copy()
            moved.push(Move(src, dst, rng.randrange(1, min(3, len(table.codes(src))) + 1)))
            if rng.random() < 0.3:  # a misread somewhere
                pile = rng.choice([p for p in moved.pile_ids if moved.codes(p)])
                codes = list(moved.codes(pile))
                codes[-1] = rng.choice([c for c in range(52) if c != codes[-1]])
                moved = Table(
                    moved.game,
                    [list(moved.codes(p)) if p != pile else codes for p in moved.pile_ids],
                    [moved.face_down_count(p) for p in moved.pile_ids],
                    stage=moved.stage,
                )
            seen = camera_view(moved) if partial else moved
            full = _illegal(before, seen, partial, prune=False)
            pruned = _illegal(before, seen, partial, prune=True)
            assert (full is None) == (pruned is None)
            if full is not None and pruned is not None:
                assert pruned.moves == full.moves
                found += 1
            checked += 1
    assert checked >= 30
    assert found >= 3, "the comparison must include illegal moves that are found"


def test_an_illegal_move_that_empties_a_column_refilled_from_the_reserve_is_found() -> None:
    # modern Canfield refills a space from the reserve: three piles change, and the search must allow it
    from engine.reference import reference_is_legal

    table = Table.dealt(find_game("canfield/modern"), 1)
    table.stage = Stage.PLAY
    assert len(table.codes("t1")) == 1
    move = next(
        m
        for m in (Move("t1", dst, 1) for dst in ("t2", "t3", "t4", "f2", "f3", "f4"))
        if not reference_is_legal(table, m)
    )
    seen = table.copy()
    seen.push(move)
    assert seen.codes("t1") == table.codes("r")[-1:], "the reserve refilled the space"
    result = explain(table, seen)
    assert result is not None
    assert not result.legal
    assert result.moves == (move,)


def test_a_turns_top_card_read_in_its_place_may_be_covered_by_the_next_turn() -> None:
    # gc-legal-1: two turns of three, the fan read "JH ?? ?? 10C" (the first turn's top, two unread cards, the second
    # turn's top); the first turn's top was taken for the 10C read at its place, so only a third turn explained it
    table = make_table(
        "canfield",
        {"s": "2s 3d 10c 7d kd jh 4d 3h", "w": "7S 2H KH", "r": "qd 6H", "f1": "2C", "t1": "8C", "t4": "9S"},
    )
    view = camera_view(after(table, "s:3>w", "s:3>w"))
    piles = [list(view.codes(p)) for p in view.pile_ids]
    piles[view.pile_ids.index("w")] = [parse_code("JH"), UNKNOWN, UNKNOWN, parse_code("10C")]
    seen = Table(view.game, piles, [0] * len(piles))
    result = explain(hide_face_down(table), seen, partial=True)
    assert result is not None
    assert result.legal
    assert [str(m) for m in result.moves] == ["s:3>w", "s:3>w"]


@pytest.mark.parametrize(
    ("move", "legal"),
    [
        ("r>t4", True),  # heldout13's xc-illegal-1 (noisy reader): the reserve's new top never read, put into a space
        ("r>t1", False),  # the same card put on a black queen: the player's mistake, named as such
    ],
)
def test_a_card_turned_up_unread_can_be_moved_once_read_where_it_went(move: str, legal: bool) -> None:
    from engine.verify import with_card

    table = make_table("canfield", {"r": "9h 7c JS", "f3": "4S", "t1": "QS", "t2": "8H", "t3": "3C"})
    model = with_card(hide_face_down(table), "r", 2, UNKNOWN)  # (turned up when the 4S left, and never read)
    seen = camera_view(after(table, move))
    result = explain(model, seen, partial=True)
    assert result is not None
    assert result.legal is legal
    assert [str(m) for m in result.moves] == [move]


def test_unknown_tops_named_by_fresh_cards_stay_bounded_and_each_pile_is_named_alone() -> None:
    from engine.verify import UNKNOWN_TOP_ROOTS, _unknown_tops, with_card

    table = Table.dealt(find_game("klondike"), 3)
    table.stage = Stage.PLAY
    model = hide_face_down(table)
    tops = ["t5", "t6", "t7"]
    for pile in tops:  # three columns' tops turned up earlier and never read
        model = with_card(model, pile, len(model.codes(pile)) - 1, UNKNOWN)
    fresh = list(table.codes("s")[:10])  # ten cards read now that the model does not know
    seen = camera_view(table)
    roots = _unknown_tops(model, seen, fresh, partial=True)
    assert len(roots) <= UNKNOWN_TOP_ROOTS + len(tops) * len(fresh)  # not 11 ** 3
    named = {
        (pile, root.codes(pile)[-1])
        for root in roots
        for pile in tops
        if root.codes(pile)[-1] != UNKNOWN and all(root.codes(other)[-1] == UNKNOWN for other in tops if other != pile)
    }
    assert named == {(pile, code) for pile in tops for code in fresh}


@pytest.mark.parametrize("game", ["klondike", "klondike/draw3", "canfield"])
def test_the_pruned_search_of_the_last_moves_gives_the_answer_of_the_full_one(game: str) -> None:
    # camera readings (face-down cards unseen, so the cards turned up are named by the search) one to three
    # random moves after random play, sometimes with a misread card or a card left unread: ``explain`` with the last
    # moves' children made only where the child with its turned-up cards unknown agrees gives the same answer
    rng = random.Random(game)
    checked = explained = pruned_away = 0
    for seed in range(6):
        table = Table.dealt(find_game(game), seed)
        table.stage = Stage.PLAY
        for _ in greedy_playout(table, max_moves=rng.randrange(0, 25)):
            pass
        before = hide_face_down(table)
        for _ in range(6):
            moved = table.copy()
            for _ in range(rng.randrange(1, 4)):
                moves = moved.generate_moves()
                if moves:
                    moved.push(rng.choice(moves))
            seen = camera_view(moved)
            if rng.random() < 0.3:  # a misread or an unread top card somewhere
                pile = rng.choice([p for p in seen.pile_ids if seen.codes(p)])
                codes = list(seen.codes(pile))
                codes[-1] = rng.choice([UNKNOWN, *(c for c in range(52) if c != codes[-1])])
                piles = [list(seen.codes(p)) if p != pile else codes for p in seen.pile_ids]
                seen = Table(seen.game, piles, [0] * len(piles))
            full = explain(before, seen, 3, True, prune=False)
            pruned = explain(before, seen, 3, True)
            assert full == pruned
            checked += 1
            explained += full is not None and full.legal and bool(full.moves)
            fresh = _newly_seen(before, seen)
            for move in before.generate_moves():  # what the pruning rests on: no child of a move it skips agrees
                if not _may_agree(before, move, seen, True):
                    pruned_away += 1
                    assert not any(agrees(child, seen, True) for child in _children(before, move, seen, fresh, True))
    assert checked >= 30
    assert explained >= 10, "the comparison must include changes legal moves explain"
    assert pruned_away >= 10
