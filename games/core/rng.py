"""Seeded randomness for engines: one generator per (table seed, state version).

Engines never touch the global ``random`` module. Every draw goes through :class:`GameRng`, which
uses only ``random()`` — the one stream CPython guarantees across versions — so the same seed and
the same actions give the same game on any Python. String seeds are hashed with SHA-512 so the
result does not depend on ``PYTHONHASHSEED``.

>>> a = GameRng.for_step("table-1", 3)
>>> b = GameRng.for_step("table-1", 3)
>>> a.shuffled(list(range(10))) == b.shuffled(list(range(10)))
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class GameRng:
    """A reproducible generator with the few draws games need."""

    def __init__(self, key: str) -> None:
        """Seed from ``key`` through SHA-512."""
        digest = hashlib.sha512(key.encode("utf-8")).digest()
        # Reproducible draws are the point here, not unpredictability.
        self._random = random.Random(int.from_bytes(digest, "big"))  # noqa: S311

    @classmethod
    def for_step(cls, seed: str, version: int, salt: str = "") -> GameRng:
        """Return the generator for the action that moves a table past ``version``."""
        return cls(f"{seed}:{version}:{salt}")

    def random(self) -> float:
        """Return a float in [0, 1)."""
        return self._random.random()

    def below(self, n: int) -> int:
        """Return an int in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        return min(int(self._random.random() * n), n - 1)

    def choice(self, items: Sequence[T]) -> T:
        """Return one item of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return a Fisher–Yates shuffled copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
