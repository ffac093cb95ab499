"""Reading untrusted JSON objects while collecting every problem, so that a bad file is reported whole.

A reader never raises on a bad field: it records the problem and returns a harmless placeholder, and the
caller raises once at the end with :meth:`Reader.raise_if_problems`.
"""

from __future__ import annotations

import math
from typing import Any

from engine.errors import CadoganError


class Reader:
    """Typed access to one JSON object; ``where`` prefixes each problem ("camera.fx: ...")."""

    def __init__(self, data: object, where: str, problems: list[str] | None = None) -> None:
        self.problems: list[str] = [] if problems is None else problems
        self.where = where
        if isinstance(data, dict):
            self.data: dict[str, Any] = data
        else:
            self.data = {}
            self.problems.append(f"{where or 'file'}: expected an object, found {_kind(data)}")

    def _name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str) -> object:
        if key not in self.data:
            self.problems.append(f"{self._name(key)}: missing")
            return None
        return self.data[key]

    def number(
        self, key: str, *, positive: bool = False, minimum: float | None = None, maximum: float | None = None
    ) -> float:
        value = self.raw(key)
        if value is None and key not in self.data:
            return 1.0
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            self.problems.append(f"{self._name(key)}: expected a finite number, found {_kind(value)}")
            return 1.0
        if positive and value <= 0:
            self.problems.append(f"{self._name(key)}: must be positive, found {value}")
            return 1.0
        if minimum is not None and value < minimum:
            self.problems.append(f"{self._name(key)}: must be at least {minimum}, found {value}")
            return float(minimum)
        if maximum is not None and value > maximum:
            self.problems.append(f"{self._name(key)}: must be at most {maximum}, found {value}")
            return float(maximum)
        return float(value)

    def integer(self, key: str, *, minimum: int = 0) -> int:
        value = self.raw(key)
        if value is None and key not in self.data:
            return max(minimum, 1)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{self._name(key)}: expected an integer, found {_kind(value)}")
            return max(minimum, 1)
        if value < minimum:
            self.problems.append(f"{self._name(key)}: must be at least {minimum}, found {value}")
            return max(minimum, 1)
        return value

    def text(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        value = self.raw(key)
        if value is None and key not in self.data:
            return choices[0] if choices else ""
        if not isinstance(value, str):
            self.problems.append(f"{self._name(key)}: expected a string, found {_kind(value)}")
            return choices[0] if choices else ""
        if choices is not None and value not in choices:
            self.problems.append(f"{self._name(key)}: expected one of {', '.join(choices)}, found {value!r}")
            return choices[0]
        return value

    def numbers(self, key: str, lengths: tuple[int, ...]) -> tuple[float, ...]:
        value = self.raw(key)
        if value is None and key not in self.data:
            return tuple(0.0 for _ in range(lengths[0]))
        ok = isinstance(value, list) and all(
            not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v) for v in value
        )
        if not ok or not isinstance(value, list):
            self.problems.append(f"{self._name(key)}: expected a list of finite numbers")
            return tuple(0.0 for _ in range(lengths[0]))
        if len(value) not in lengths:
            wanted = " or ".join(str(n) for n in lengths)
            self.problems.append(f"{self._name(key)}: expected {wanted} numbers, found {len(value)}")
            return tuple(0.0 for _ in range(lengths[0]))
        return tuple(float(v) for v in value)

    def child(self, key: str) -> Reader:
        return Reader(self.raw(key), self._name(key), self.problems)

    def raise_if_problems(self, error: type[CadoganError], prefix: str) -> None:
        if self.problems:
            shown = self.problems[:12]
            more = f" (and {len(self.problems) - 12} more)" if len(self.problems) > 12 else ""
            raise error(f"{prefix}: " + "; ".join(shown) + more)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
