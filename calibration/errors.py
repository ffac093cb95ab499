"""Narrow error types of the calibration package; each is a one-line message for the user (exit 2)."""

from engine.errors import CadoganError


class CalibrationError(CadoganError):
    """Base of every calibration problem reported to the user."""


class ProfileError(CalibrationError):
    """A calibration profile that is missing, corrupt, foreign or from a newer Cadogan."""


class SourceError(CalibrationError):
    """A frame source (webcam index, video, image, folder) that cannot be opened or read."""


class BoardNotFoundError(CalibrationError):
    """No usable view of the calibration board in what the source delivered."""


class NotEnoughViewsError(CalibrationError):
    """The board was seen, but in too few distinct views to calibrate reliably."""


class PlaneError(CalibrationError):
    """The table plane cannot be estimated from what was given (too few or degenerate cards)."""
