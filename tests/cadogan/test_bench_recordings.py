"""The recordings bench: its games hold the mistakes they claim, and its truth reader reads like the recogniser."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.recordings import (
    SETS,
    SPECS,
    Noise,
    Spec,
    degrade,
    moves_within,
    parse_reader,
    plan,
    truth_reader,
)
from cadogan.tracker import EventKind, Tracker
from engine.games import find_game
from engine.moves import Move
from engine.reference import reference_is_legal
from engine.table import Stage, Table

ALL_SPECS = [spec for specs in SETS.values() for spec in specs]


def test_the_bench_has_ten_recordings_of_both_games_and_every_kind() -> None:
    assert len(SPECS) >= 10
    assert {s.game for s in SPECS} >= {"klondike", "canfield"}
    assert {k for s in SPECS for k in s.inject} == {"red_on_red", "from_under", "non_king_space"}
    assert any(s.misdeal for s in SPECS)
    assert all(s.deck.startswith("kde_") and s.deck not in ("kde_dondorf", "kde_paris") for s in SPECS)


@pytest.mark.parametrize(
    "held_out", [specs for name, specs in SETS.items() if name != "main"], ids=[name for name in SETS if name != "main"]
)
def test_the_held_out_recordings_are_others_of_the_same_kinds(held_out: tuple[Spec, ...]) -> None:
    others = [s for s in ALL_SPECS if s not in held_out]
    assert not {s.name for s in held_out} & {s.name for s in others}
    assert not {(s.game, s.seed) for s in held_out} & {(s.game, s.seed) for s in others}
    assert {s.game for s in held_out} == {"klondike", "canfield"}
    assert any(s.inject for s in held_out)
    assert any(s.misdeal for s in held_out)
    assert all(s.deck.startswith("kde_") and s.deck not in ("kde_dondorf", "kde_paris") for s in held_out)


@pytest.mark.parametrize(
    "spec",
    [s for s in ALL_SPECS if s.inject],
    ids=lambda s: s.name,
)
def test_every_injected_mistake_is_in_the_plan_and_breaks_the_rules(spec: Spec) -> None:
    the_plan = plan(spec, spec.moves or 12)
    injected = [kind for kind in the_plan.kinds if kind != "legal"]
    assert injected == list(spec.inject)
    for step, kind in zip(the_plan.steps, the_plan.kinds, strict=True):
        assert step.startswith("!") is (kind != "legal")


def test_a_misdeal_gives_column_2_an_extra_face_up_card() -> None:
    spec = next(s for s in SPECS if s.misdeal)
    the_plan = plan(spec, 4)
    assert the_plan.misdeal == find_game(spec.game).pile("t2").name
    assert [face_up for _, face_up in the_plan.tables[0]["t2"]][-2:] == [True, True]


def test_legal_plans_replay_legally() -> None:
    spec = next(s for s in SPECS if not s.inject and not s.misdeal and s.game == "canfield")
    the_plan = plan(spec, 10)
    table = Table.dealt(find_game(spec.game), spec.seed)
    for step in the_plan.steps:
        move = Move.parse(step)
        assert reference_is_legal(table, move)
        table.push(move)


def test_the_truth_reader_goes_through_observation_to_the_tracker() -> None:
    visible = [{"t1": ["4D"], "t2": ["AS"], "t3": ["7C"], "t4": ["3D"], "t5": ["8S"], "t6": ["5S"], "t7": ["6H"]}]
    read, state = truth_reader("klondike", visible, repeat=5)
    reading = read(None)
    assert reading.table is not None
    assert [str(card) for card in reading.table.pile("t2")] == ["AS"]
    tracker = Tracker(partial=True)
    events = [e for _ in range(5) for e in tracker.observe(0.0, reading.table, reading.confidence)]
    assert [e.kind for e in events] == [EventKind.STILL]  # a correct deal: no misdeal
    assert state["index"] == 0


def test_a_sample_counts_the_moves_seen_in_its_seconds() -> None:
    assert moves_within(None, 12) == 12
    assert moves_within(0.5, 12) == 0
    assert 4 <= moves_within(10.0, 12) <= 5


def test_the_noisy_reader_is_parsed_and_checked() -> None:
    kind, noise = parse_reader("noisy:drop=0.15,swap=0.03,phantom=0.02,seed=4,conf=0.6")
    assert kind == "noisy"
    assert noise == Noise(drop=0.15, swap=0.03, phantom=0.02, seed=4, confidence=0.6)
    assert parse_reader("truth") == ("truth", None)
    for bad, needle in [
        ("noisy:drop=2", "between 0 and 1"),
        ("noisy:blur=0.1", "unknown setting"),
        ("noisy:drop=x", "not a number"),
        ("camera", "unknown reader"),
    ]:
        with pytest.raises(ValueError, match=needle):
            parse_reader(bad)


def test_degrade_drops_misnames_and_adds_cards_at_the_rates_asked() -> None:
    piles = ["s", "w", "f1", "t1", "t2", "t3", "t4"]
    shown = {"t1": ["KS", "QH", "JC", "10D", "9S"], "t2": ["5D"], "t3": ["9S", "8H"], "t4": ["2C"], "f1": ["AH"]}
    total = sum(len(v) for v in shown.values())
    rng = np.random.default_rng(1)
    kept = misnamed = extra = 0
    for _ in range(2000):
        read = degrade(shown, piles, Noise(drop=0.3, swap=0.05, phantom=0.02), rng)
        for pile in piles:
            names = read[pile]
            truth = shown.get(pile, [])
            kept += sum(1 for name in names if name in truth)
            misnamed += sum(1 for name in names if name not in truth)
        extra += max(0, sum(len(v) for v in read.values()) - total)
    rate_kept = kept / (2000 * total)
    assert 0.62 < rate_kept < 0.70  # (1 - 0.3) * (1 - 0.05), plus a few lucky misnames
    assert misnamed > 0
    assert extra > 0
    clean = degrade(shown, piles, Noise(), np.random.default_rng(2))
    assert clean == {p: shown.get(p, []) for p in piles}


def test_the_noisy_reader_is_seeded_and_independent_per_frame() -> None:
    visible = [{"t1": ["4D", "3C"], "t2": ["AS"], "t3": ["7C"], "t4": ["3D"], "t5": ["8S"], "t6": ["5S"], "t7": ["6H"]}]
    noise = Noise(drop=0.3, swap=0.1)
    reads = []
    for _ in range(2):
        read, state = truth_reader("klondike", visible, 5, noise, "k-legal-1")
        frames = []
        for index in range(40):
            state["index"] = index
            reading = read(None)
            frames.append(None if reading.table is None else reading.table.key())
        reads.append(frames)
    assert reads[0] == reads[1]  # the same on every run
    assert len(set(reads[0])) > 5  # but not the same in every frame


def test_stored_detections_are_kept_and_read_back(tmp_path: Path) -> None:
    """``--reuse-detections``: the first reader stores each frame's detections, a second reads them from the
    store instead of the recogniser (shown by a store whose detections were emptied), a broken store is read anew."""
    import pickle

    from bench.recordings import stored_detections_reader
    from vision.synth import RenderOptions, render_scene
    from vision.upright import Upright

    piles = Table.dealt(find_game("klondike"), 5).piles_view()
    image, _ = render_scene("klondike", piles, deck="paris", seed=5, options=RenderOptions(hand_probability=0))
    store = tmp_path / "detections" / "rec.pkl"
    read, save = stored_detections_reader("klondike", 1, store)
    first = read(image)
    assert first.table is not None
    assert not store.exists()  # written by save(), once a recording is done
    save()
    kept = pickle.loads(store.read_bytes())
    assert len(kept) == 1

    again, _ = stored_detections_reader("klondike", 1, store)
    second = again(image).table
    assert second is not None
    assert second.key() == first.table.key()

    view = Upright(0.0, False, (image.shape[1], image.shape[0]), (image.shape[1], image.shape[0]))
    emptied = {
        key: (np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32), {}, view) for key in kept
    }
    store.write_bytes(pickle.dumps(emptied))
    from_store, _ = stored_detections_reader("klondike", 1, store)
    assert from_store(image).table is None  # no cards: the reading came from the store, not the recogniser

    store.write_bytes(b"cut short")
    anew, _ = stored_detections_reader("klondike", 1, store)
    assert anew(image).table is not None


@pytest.mark.parametrize("folder", ["a-models", "z-models"])  # sorting before and after the vision modules
def test_stored_detections_are_keyed_by_the_models_actually_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    # detections made with other models (CADOGAN_MODELS) must never be read back as the shipped models' own,
    # and the same models must hash the same wherever their folder lies (CI's checkout sorted after /tmp)
    import bench.recordings
    from bench.recordings import recogniser_version
    from vision.model import CLASSIFIER, DETECTOR, models_dir

    shipped = recogniser_version()
    root = tmp_path / "m-root"
    (root / "vision").mkdir(parents=True)
    for module in (bench.recordings.ROOT / "vision").glob("*.py"):
        (root / "vision" / module.name).write_bytes(module.read_bytes())
    (root / "calibration").mkdir()
    deck_matching = bench.recordings.ROOT / "calibration" / "deck.py"
    (root / "calibration" / "deck.py").write_bytes(deck_matching.read_bytes())
    monkeypatch.setattr(bench.recordings, "ROOT", root)
    models = tmp_path / folder
    models.mkdir()
    for name in (DETECTOR, CLASSIFIER):
        (models / name).write_bytes((models_dir() / name).read_bytes())
    monkeypatch.setenv("CADOGAN_MODELS", str(models))
    assert recogniser_version() == shipped  # the same bytes: the same detections
    (models / CLASSIFIER).write_bytes((models_dir() / CLASSIFIER).read_bytes() + b"\0")
    other_models = recogniser_version()
    assert other_models != shipped
    # an enrolled deck's reads depend on the matching code too
    (root / "calibration" / "deck.py").write_bytes(deck_matching.read_bytes() + b"# changed\n")
    assert recogniser_version() != other_models


def test_enrolled_reading_uses_a_profile_made_once_from_the_decks_photo(tmp_path: Path) -> None:
    """``--enrolled``: the recording's deck is enrolled from a rendered photo of its 52 cards, the profile kept and
    made once, and the stored-detections reader names the cards with it (its detections carry the prototypes'
    similarity, which the classifier alone never gives)."""
    from bench.recordings import enrolled_profile, stored_detections_reader
    from calibration.profile import load_deck
    from vision.synth import RenderOptions, render_scene

    path = enrolled_profile("kde_ancient_egyptians", tmp_path)
    deck = load_deck(str(path))
    assert len(set(deck.labels)) == 52
    assert deck.needed(), "a deck the classifier misreads: its prototypes name the cards"
    made = path.stat().st_mtime_ns
    assert enrolled_profile("kde_ancient_egyptians", tmp_path) == path
    assert path.stat().st_mtime_ns == made  # kept, not enrolled again

    piles = Table.dealt(find_game("klondike"), 5).piles_view()
    image, _ = render_scene(
        "klondike", piles, deck="kde_ancient_egyptians", seed=5, options=RenderOptions(hand_probability=0)
    )
    plain, _ = stored_detections_reader("klondike", 1, tmp_path / "plain.pkl")
    enrolled, _ = stored_detections_reader("klondike", 1, tmp_path / "enrolled.pkl", path)
    first, second = plain(image), enrolled(image)
    assert first.table is not None
    assert second.table is not None
    assert first.cards != second.cards  # other confidences: the deck's prototypes named the cards


def test_enrolled_reads_are_keyed_by_the_enrolment_photos_reader_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # how the enrolment photo is read (calibration/spread.py) changes an enrolled deck's profile, so its reads, but
    # not the plain recogniser's: a change to it must re-make the enrolled reads only
    import bench.recordings
    from bench.recordings import recogniser_version

    plain, enrolled = recogniser_version(), recogniser_version(enrolled=True)
    assert enrolled != plain
    root = tmp_path / "root"
    for folder in ("vision", "calibration"):
        (root / folder).mkdir(parents=True)
    for module in (bench.recordings.ROOT / "vision").glob("*.py"):
        (root / "vision" / module.name).write_bytes(module.read_bytes())
    for name in ("deck.py", "spread.py"):
        (root / "calibration" / name).write_bytes((bench.recordings.ROOT / "calibration" / name).read_bytes())
    monkeypatch.setattr(bench.recordings, "ROOT", root)
    assert (recogniser_version(), recogniser_version(enrolled=True)) == (plain, enrolled)
    spread = root / "calibration" / "spread.py"
    spread.write_bytes(spread.read_bytes() + b"# changed\n")
    assert recogniser_version() == plain
    assert recogniser_version(enrolled=True) != enrolled


def test_the_bench_replays_each_session_log_as_verify_does(tmp_path: Path) -> None:
    from bench.recordings import log_replayed
    from cadogan.session import SessionLog
    from engine.testing import camera_view

    table = Table.dealt(find_game("klondike"), 5)
    path = tmp_path / "game.jsonl"
    with SessionLog(path, "klondike", "test", partial=True) as log:
        log.table(0.5, camera_view(table), 1.0)
        table.stage = Stage.PLAY
        table.push(Move.parse("t1>f1"))  # (the deal's ace of clubs)
        log.table(2.0, camera_view(table), 1.0)
        log.write("move", 2.0, text="move the ace of clubs to foundation 1", moves=["t1>f1"])
        table.push(Move.parse("t2>t7"))  # a 2 onto a king: against the rules
        log.table(4.0, camera_view(table), 1.0)
        log.write("illegal", 4.0, text="a 2 may not go on a king", moves=["t2>t7"])
    assert log_replayed(path) == [("move", "t1>f1"), ("illegal", "t2>t7")]
