"""The presenter of every registered game, by engine name."""

from __future__ import annotations

from bot.presenters import Presenter
from bot.presenters.cadwallon import CadwallonPresenter
from bot.presenters.coup import CoupPresenter
from bot.presenters.intrigue import IntriguePresenter
from bot.presenters.masti import MastiPresenter

PRESENTERS: dict[str, Presenter] = {
    p.game: p for p in (CoupPresenter(), MastiPresenter(), CadwallonPresenter(), IntriguePresenter())
}
