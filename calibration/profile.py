"""Calibration profiles on disk: one validated JSON file per camera set-up.

A profile is read whole or not at all: a corrupt, foreign or future-version file raises :class:`ProfileError`
listing every problem, so that a wrong calibration is never used silently.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.deck import DeckProfile
from calibration.errors import ProfileError
from calibration.intrinsics import CameraIntrinsics
from calibration.jsonio import Reader
from calibration.plane import TablePlane

FORMAT = "cadogan-calibration"
VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True, slots=True)
class Profile:
    """A named camera set-up: its intrinsics, once measured its table plane, once enrolled its deck."""

    name: str
    camera: CameraIntrinsics | None = None
    table: TablePlane | None = None
    deck: DeckProfile | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "camera": None if self.camera is None else self.camera.to_json(),
            "table": None if self.table is None else self.table.to_json(),
            # written only when enrolled: profiles without a deck stay as they were
            **({} if self.deck is None else {"deck": self.deck.to_json()}),
        }

    @classmethod
    def from_json(cls, data: object, where: str = "profile") -> Profile:
        r = Reader(data, "")
        fmt = r.data.get("format")
        if fmt != FORMAT:
            raise ProfileError(f"{where}: not a Cadogan calibration profile (format is {fmt!r}, not {FORMAT!r})")
        version = r.data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
            raise ProfileError(
                f"{where}: made by a newer Cadogan (profile version {version},"
                f" this one reads up to {VERSION}); upgrade Cadogan or calibrate again"
            )
        if version != VERSION:
            raise ProfileError(f"{where}: unknown profile version {version!r} (expected {VERSION})")
        name = r.text("name")
        camera = CameraIntrinsics.read(r.child("camera")) if r.has("camera") else None
        table = TablePlane.read(r.child("table"), camera, r.has("camera")) if r.has("table") else None
        if camera is not None and table is not None and table.image_size != camera.image_size:
            r.problems.append(
                f"table: measured at {table.width}x{table.height},"
                f" the camera calibrated at {camera.width}x{camera.height}"
            )
        deck = DeckProfile.read(r.child("deck")) if r.has("deck") else None
        r.raise_if_problems(ProfileError, f"{where}: invalid profile")
        return cls(name, camera, table, deck)


def config_dir() -> Path:
    """The user's Cadogan config folder (``$XDG_CONFIG_HOME/cadogan`` or ``~/.config/cadogan``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "cadogan"


def profile_path(name_or_path: str) -> Path:
    """A profile name (``desk``) lives in the config folder; anything with a slash or ``.json`` is a path."""
    if "/" in name_or_path or os.sep in name_or_path or name_or_path.endswith(".json"):
        return Path(name_or_path)
    if not _NAME.match(name_or_path):
        raise ProfileError(
            f"bad profile name {name_or_path!r}: use letters, digits, '.', '_' and '-' (or give a path to a .json file)"
        )
    return config_dir() / "profiles" / f"{name_or_path}.json"


def load_profile(name_or_path: str) -> Profile:
    path = profile_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile; run `cadogan calibrate camera` first") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{path}: cannot read the profile ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return Profile.from_json(data, str(path))


def load_deck(name_or_path: str) -> DeckProfile:
    """The enrolled deck of a profile; ProfileError when the profile is bad or has none."""
    if not profile_path(name_or_path).exists():
        raise ProfileError(f"{profile_path(name_or_path)}: no such profile; run `cadogan calibrate deck` first")
    profile = load_profile(name_or_path)
    if profile.deck is None:
        raise ProfileError(
            f"{profile_path(name_or_path)}: no deck enrolled in this profile; run `cadogan calibrate deck` first"
        )
    return profile.deck


def load_profile_or_new(name_or_path: str) -> Profile:
    """The profile if it exists (a broken one still raises), else an empty one of that name."""
    path = profile_path(name_or_path)
    if not path.exists():
        return Profile(name=path.stem)
    return load_profile(name_or_path)


def save_profile(profile: Profile, name_or_path: str) -> Path:
    """Write atomically (a crash mid-write never leaves half a profile); returns the path written."""
    path = profile_path(name_or_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(profile.to_json(), out, indent=2)
            out.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
