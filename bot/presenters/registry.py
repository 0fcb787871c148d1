"""The presenter of every registered game, by engine name."""

from __future__ import annotations

from bot.presenters import Presenter
from bot.presenters.coup import CoupPresenter

PRESENTERS: dict[str, Presenter] = {p.game: p for p in (CoupPresenter(),)}
