"""Speech: a real espeak-ng renders announcements to WAV files."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from cadogan.speech import Speaker, speak_to_file


def test_announcement_renders_to_speech_length_audio(tmp_path: Path) -> None:
    path = speak_to_file("red 7 on red 8 is not allowed", tmp_path / "say.wav")
    with wave.open(str(path)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype=np.int16)
    # Seven words at 160 words a minute: well over a second, well under ten.
    assert 1.0 < seconds < 10.0
    # Speech, not silence: a good part of the samples carry signal.
    assert np.mean(np.abs(samples) > 500) > 0.2


def test_longer_sentences_take_longer(tmp_path: Path) -> None:
    short = speak_to_file("hint", tmp_path / "a.wav")
    long = speak_to_file("move the queen of spades onto the king of hearts, then turn the stock", tmp_path / "b.wav")
    with wave.open(str(short)) as a, wave.open(str(long)) as b:
        assert b.getnframes() > 3 * a.getnframes()


def test_quiet_speaker_says_nothing() -> None:
    assert Speaker(enabled=False).say("nothing") is False


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_text_still_makes_a_valid_file(tmp_path: Path, text: str) -> None:
    path = speak_to_file(text, tmp_path / "empty.wav")
    with wave.open(str(path)) as audio:
        assert audio.getnframes() / audio.getframerate() < 1.0
