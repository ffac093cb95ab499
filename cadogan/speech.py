"""Speech through espeak-ng: a small adapter, quiet unless asked to speak.

espeak-ng is a real Debian package the set-up installs. Where it is missing, ``Speaker`` says so once and
stays silent: the overlay and the session log still carry every announcement.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import CadoganError

ESPEAK = "espeak-ng"


class SpeechError(CadoganError):
    """espeak-ng is missing or failed."""


def espeak_path() -> str | None:
    return shutil.which(ESPEAK)


def speak_to_file(text: str, path: str | Path, *, voice: str = "en", words_per_minute: int = 160) -> Path:
    """Render ``text`` as speech into a WAV file (what tests and recordings use)."""
    binary = espeak_path()
    if binary is None:
        raise SpeechError("espeak-ng is not installed: run `bash run setup` or `apt-get install espeak-ng`")
    out = Path(path)
    result = subprocess.run(
        [binary, "-v", voice, "-s", str(words_per_minute), "-w", str(out), "--", text],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if result.returncode != 0 or not out.exists():
        raise SpeechError(f"espeak-ng failed: {result.stderr.strip() or result.returncode}")
    return out


@dataclass
class Speaker:
    """Speaks announcements aloud without blocking the watch loop (one utterance at a time)."""

    enabled: bool = False
    voice: str = "en"
    words_per_minute: int = 160
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _warned: bool = field(default=False, init=False, repr=False)

    def say(self, text: str) -> bool:
        """Start speaking ``text``; returns False when quiet or when espeak-ng is unavailable."""
        if not self.enabled:
            return False
        binary = espeak_path()
        if binary is None:
            self._warned = True
            return False
        if self._process is not None and self._process.poll() is None:
            self._process.wait(timeout=30)  # let the previous sentence finish rather than talk over it
        self._process = subprocess.Popen(
            [binary, "-v", self.voice, "-s", str(self.words_per_minute), "--", text],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return True

    @property
    def unavailable(self) -> bool:
        return self._warned

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.wait(timeout=30)
