"""A layout seen turned (a webcam clipped on at an angle or sideways) is read upright: ``vision.upright``."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Table, find_game
from vision.assemble import Observation, assemble
from vision.cards import class_of
from vision.detections import BACK, Detections
from vision.recognise import Recogniser, load_recogniser, recognise
from vision.synth import RenderOptions, SceneTruth, render_scene
from vision.upright import (
    Upright,
    UprightReader,
    edge_turn,
    read_upright,
    sideways,
    turned,
    upright_reading,
    upside_down,
)

Image = npt.NDArray[np.uint8]


@pytest.fixture(scope="module")
def rec() -> Recogniser:
    return load_recogniser(threads=1)


def _klondike_played(seed: int) -> tuple[Image, SceneTruth]:
    """A Klondike game 30 random moves in (cascades of several cards), the camera on the player's side."""
    table = Table.dealt(find_game("klondike"), seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        moves = table.generate_moves()
        table.push(moves[int(rng.integers(len(moves)))])
    image, truth = render_scene(
        "klondike",
        table.piles_view(),
        deck="kde_standard",
        seed=seed,
        options=RenderOptions(max_tilt=15, hand_probability=0, table="felt"),
    )
    return np.asarray(image, np.uint8), truth


@pytest.fixture(scope="module")
def level() -> tuple[Image, SceneTruth]:
    return _klondike_played(12)


def _cards(truth: SceneTruth) -> set[str]:
    """The cards whose index shows."""
    return {c.card for c in truth.cards if c.face_up and c.card and any(ix.hidden <= 0.25 for ix in c.indices)}


def _named(dets: Detections, truth: SceneTruth) -> float:
    return len(_cards(truth) & set(dets.names)) / len(_cards(truth))


@pytest.mark.parametrize("degrees", [0.0, 25.0, -30.0, 90.0])
def test_edge_turn_measures_how_far_the_layout_is_turned_off_level(
    level: tuple[Image, SceneTruth], degrees: float
) -> None:
    image, _ = turned(level[0], degrees)
    before = edge_turn(level[0])  # the render's own camera turns a few degrees
    found = edge_turn(image)
    # modulo a quarter turn, the turn that levels it again: the turn applied, undone
    assert abs(((found - (before - degrees)) + 45.0) % 90.0 - 45.0) < 4.0, (before, found)


@given(
    st.integers(64, 2000),
    st.integers(64, 2000),
    st.floats(-180.0, 180.0, allow_nan=False),
    st.booleans(),
    st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=5),
)
def test_a_point_taken_into_the_upright_view_comes_back_where_it_was(
    width: int, height: int, degrees: float, flipped: bool, points: list[tuple[float, float]]
) -> None:
    size = turned(np.zeros((height, width, 3), np.uint8), degrees)[1].size
    view = Upright(degrees, flipped, size, (width, height))
    frame = np.array([(x * width, y * height) for x, y in points])
    inside = np.column_stack([frame, np.ones(len(frame))]) @ view.matrix().T
    assert np.allclose(view.to_frame(inside[:, :2]), frame, atol=1e-6)
    # and every point of the frame lands inside the turned view (nothing of the frame is cut off; the view's
    # size is whole pixels)
    assert np.all(inside[:, :2] >= -1.0)
    assert np.all(inside[:, 0] <= size[0] + 1.0)
    assert np.all(inside[:, 1] <= size[1] + 1.0)


def _reads(boxes: list[tuple[float, float, float, float]]) -> Detections:
    return Detections.build(boxes, [class_of("5H")] * len(boxes), [0.9] * len(boxes))


@pytest.mark.parametrize(
    ("boxes", "expected"),
    [
        ([(0, 0, 10, 22)] * 6, False),  # indices standing upright: taller than wide
        ([(0, 0, 22, 10)] * 6, True),  # lying across the view
        ([(0, 0, 22, 10)] * 3, False),  # too few reads to say
        ([(0, 0, 22, 10)] * 4 + [(0, 0, 10, 22)] * 5, False),  # most stand upright
    ],
)
def test_sideways_cards_are_told_by_their_index_boxes(
    boxes: list[tuple[float, float, float, float]], expected: bool
) -> None:
    assert sideways(_reads(boxes)) is expected


def test_backs_have_no_say_in_sideways() -> None:
    strips = Detections.build([(0, 0, 60, 10)] * 8, [BACK] * 8, [0.9] * 8)
    assert not sideways(strips)


@pytest.mark.parametrize("degrees", [35.0, 90.0, -90.0])
def test_a_camera_turned_at_an_angle_or_sideways_reads_the_level_cameras_table(
    rec: Recogniser, level: tuple[Image, SceneTruth], degrees: float
) -> None:
    image, truth = level
    frame = turned(image, degrees)[0]
    seen = read_upright(frame, rec, "klondike")
    plain = assemble(recognise(image, rec), "klondike")  # what the level camera reads
    as_is = assemble(recognise(frame, replace(rec, upright=False)), "klondike")

    def same(observation: Observation) -> int:
        return sum(observation.names()[p] == plain.names()[p] for p in plain.piles if p.startswith("t"))

    assert not seen.upright.identity
    assert same(seen.observation) >= 6, (seen.observation.names(), plain.names())
    assert same(as_is) <= 2  # read as it is, the layout's columns run the wrong way
    assert _named(seen.detections, truth) >= _named(recognise(image, rec), truth) - 0.05
    # the reads lie where the cards lie in the frame
    corners = seen.upright.boxes_to_frame(seen.detections.boxes)
    assert corners.min() >= -2
    assert corners[:, :, 0].max() <= frame.shape[1] + 2
    assert corners[:, :, 1].max() <= frame.shape[0] + 2


def test_a_level_camera_is_read_as_it_is(rec: Recogniser, level: tuple[Image, SceneTruth]) -> None:
    image, _ = level
    seen = read_upright(image, rec, "klondike")
    assert seen.upright.identity
    assert seen.detections.names == recognise(image, rec).names


def test_see_reads_a_photo_taken_sideways(tmp_path: Path, level: tuple[Image, SceneTruth]) -> None:
    from cadogan.__main__ import main

    image, truth = level
    photo = tmp_path / "sideways.png"
    cv2.imwrite(str(photo), np.ascontiguousarray(np.rot90(image)))  # turned a quarter, counter-clockwise
    out = tmp_path / "seen.png"
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["see", str(photo), "--game", "klondike", "--json", "--annotate", str(out)]) == 0
    data = json.loads(text.getvalue())
    assert data["turn"] % 180 == pytest.approx(90.0, abs=12.0)  # a quarter turn, either way up
    names = {r["card"] for r in data["reads"]}
    assert len(_cards(truth) & names) >= 0.8 * len(_cards(truth))
    height, width = image.shape[1], image.shape[0]  # the photo is the frame turned a quarter
    for read in data["reads"]:
        x0, y0, x1, y1 = read["box"]
        assert -2 <= x0 < x1 <= width + 2
        assert -2 <= y0 < y1 <= height + 2
    assert cv2.imread(str(out)) is not None


def test_a_cameras_turn_is_found_on_a_well_read_frame_and_kept_for_the_next(
    rec: Recogniser, level: tuple[Image, SceneTruth], monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.upright

    readings: list[int] = []

    def counted(frame: npt.NDArray[np.uint8], recogniser: Recogniser, *, settle: bool = True) -> Detections:
        readings.append(1)
        return recognise(frame, recogniser, settle=settle)

    monkeypatch.setattr(vision.upright, "recognise", counted)
    monkeypatch.setattr(vision.upright, "RECHECK_EVERY", 3)
    frame = turned(level[0], 90.0)[0]
    reader = UprightReader(rec, "klondike")
    first = reader(frame)
    found = len(readings)
    assert found >= 2  # found: read as it is, then a quarter turned
    again = [reader(frame) for _ in range(2)]
    assert len(readings) == found + 2  # one reading a frame, the turn kept
    for seen in again:
        assert seen.upright == first.upright
        assert seen.observation.names() == first.observation.names()
    before = len(readings)
    reader(frame)  # the fourth frame: found anew
    assert len(readings) - before >= 2
    # a frame with too little read is no ground for keeping a turn
    blank = UprightReader(rec, "klondike")
    blank(np.full((720, 1280, 3), 127, np.uint8))
    assert blank.known is None


@pytest.mark.parametrize(("flipped", "name"), [(False, "6D"), (True, "9D")])
def test_a_cards_6_and_9_corners_are_settled_by_its_top_left_corner_once_the_way_up_is_known(
    flipped: bool, name: str
) -> None:
    # one card read at both corners as a 6 and a 9 of diamonds (an index box 20 x 30: a card about 150 px high, its
    # bottom-right index about (80, 93) px from its top-left one); the view held sideways, its way up known
    reads = Detections.build([(190, 185, 210, 215), (270, 278, 290, 308)], [class_of("6D"), class_of("9D")], [0.8, 0.8])
    view = Upright(90.0, False, (1000, 800), (800, 1000), sideways=True)
    seen = upright_reading(reads, view, "klondike", replace(view, flipped=flipped))
    assert seen.upright.flipped is flipped
    assert seen.detections.names == [name, name]  # the corner at the top left of the view the layout stands in


def test_a_sideways_cameras_way_up_is_decided_by_the_rules_broken_over_every_search_of_its_quarter(
    rec: Recogniser, level: tuple[Image, SceneTruth], monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.upright

    monkeypatch.setattr(vision.upright, "RECHECK_EVERY", 2)
    frame = turned(level[0], -90.0)[0]
    alone = read_upright(frame, rec, "klondike")  # one frame's search: both ways tried
    assert alone.broken is not None
    assert alone.upright.flipped == (alone.broken[1] < alone.broken[0])
    reader = UprightReader(rec, "klondike")
    first = reader(frame)
    assert reader.broken == alone.broken
    kept = reader(frame)  # within RECHECK_EVERY: as found
    assert kept.upright == first.upright
    assert kept.broken is None  # (one way only)
    again = reader(frame)  # found anew: the same quarter, its rules broken summed
    assert reader.broken == (2 * alone.broken[0], 2 * alone.broken[1])
    assert again.upright.flipped == first.upright.flipped
    assert again.observation.names() == first.observation.names()


@pytest.mark.parametrize(
    ("as_is", "turned_half", "flips"),
    [(5, 1, True), (12, 6, True), (6, 3, True), (4, 1, False), (6, 4, False), (9, 9, False), (1, 0, False)],
)
def test_upright_cards_are_taken_upside_down_only_when_the_rules_say_so_clearly(
    as_is: int, turned_half: int, flips: bool
) -> None:
    # a badly read table seen the right way up breaks rules too: only many broken, and far fewer turned half, flip it
    assert upside_down(as_is, turned_half) is flips


@pytest.fixture(scope="module")
def played() -> Image:
    return _klondike_played(3)[0]  # another game: its table read upside down breaks many rules


def test_a_camera_across_the_table_reads_the_layout_upside_down(
    rec: Recogniser, played: Image, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.upright

    image = played
    frame = np.ascontiguousarray(np.rot90(image, 2))  # the camera on the far side of the table
    plain = assemble(recognise(image, rec), "klondike")
    seen = read_upright(frame, rec, "klondike")
    assert seen.upright.flipped
    assert seen.broken is not None
    assert upside_down(*seen.broken)
    columns = [f"t{k}" for k in range(1, 8)]
    assert sum(seen.observation.names()[p] == plain.names()[p] for p in columns) >= 6
    # the reads map back where the cards lie in the frame
    corners = seen.upright.boxes_to_frame(seen.detections.boxes)
    assert corners.min() >= -2
    # a video: the way up found once is kept, and checked both ways on every search of the same camera
    monkeypatch.setattr(vision.upright, "RECHECK_EVERY", 2)
    reader = UprightReader(rec, "klondike")
    first = [reader(frame) for _ in range(3)]  # found, kept, found anew
    assert all(s.upright.flipped for s in first)
    assert first[2].broken is not None
    assert reader.broken == (2 * seen.broken[0], 2 * seen.broken[1])
    # the same camera on the player's side: read as it is, no half turn tried on a well-read table
    assert read_upright(image, rec, "klondike").broken is None
