"""Errors an engine raises for a rejected action, each with a stable code and params for i18n.

The code is part of the contract: the bot translates ``code`` through its message catalogue, so a
code never changes once shipped. ``params`` hold only JSON scalars (seat numbers, card names).
"""

from __future__ import annotations

ParamValue = str | int | float | bool | None


class GameError(Exception):
    """An action the rules do not allow; the state is unchanged."""

    code: str = "core.illegal_action"

    def __init__(self, code: str | None = None, **params: ParamValue) -> None:
        """Build the error from a stable code and the values its message needs."""
        if code is not None:
            self.code = code
        self.params: dict[str, ParamValue] = params
        super().__init__(f"{self.code} {params}" if params else self.code)


class NotYourTurnError(GameError):
    """The seat is not among those the game is waiting for."""

    code = "core.not_your_turn"


class IllegalActionError(GameError):
    """The action is not legal in this state."""

    code = "core.illegal_action"


class GameOverError(GameError):
    """The game has already finished."""

    code = "core.game_over"


class StaleActionError(GameError):
    """The action was chosen against an older version of the state."""

    code = "core.stale"
