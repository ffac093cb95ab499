"""Camera intrinsics (ChArUco), the table plane (from the board or from the dealt cards), enrolled decks, profiles.

The vision pipeline needs only: :func:`load_profile`, :class:`CameraIntrinsics`, :class:`TablePlane` and
:func:`plane_from_cards` (fast enough to run on every frame).
"""

from calibration.board import DEFAULT_BOARD, BoardDetector, BoardSpec, BoardView
from calibration.camera import MIN_VIEWS, calibrate_frames, calibrate_views, collect_views
from calibration.cards import CARD_MM, plane_from_cards
from calibration.deck import DeckProfile, EnrolmentError, match_probabilities
from calibration.errors import (
    BoardNotFoundError,
    CalibrationError,
    NotEnoughViewsError,
    PlaneError,
    ProfileError,
    SourceError,
)
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import DEFAULT_PX_PER_MM, PlaneSource, TablePlane, plane_from_board
from calibration.printout import Paper, render_page, write_page
from calibration.profile import Profile, load_deck, load_profile, load_profile_or_new, profile_path, save_profile
from calibration.sources import Frame, open_frames

__all__ = [
    "CARD_MM",
    "DEFAULT_BOARD",
    "DEFAULT_PX_PER_MM",
    "MIN_VIEWS",
    "BoardDetector",
    "BoardNotFoundError",
    "BoardSpec",
    "BoardView",
    "CalibrationError",
    "CameraIntrinsics",
    "DeckProfile",
    "EnrolmentError",
    "Frame",
    "NotEnoughViewsError",
    "Paper",
    "PlaneError",
    "PlaneSource",
    "Profile",
    "ProfileError",
    "SourceError",
    "TablePlane",
    "calibrate_frames",
    "calibrate_views",
    "collect_views",
    "load_deck",
    "load_profile",
    "load_profile_or_new",
    "match_probabilities",
    "open_frames",
    "plane_from_board",
    "plane_from_cards",
    "profile_path",
    "render_page",
    "save_profile",
    "write_page",
]
