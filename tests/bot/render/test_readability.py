"""Every game's public board reads where the client shows it: no text under 11 px on a 400-px phone.

The per-game tests check each renderer's declared sizes; this one holds all four boards to the same
rule, read off what is actually drawn (seat numbers, card values and labels included), at the
stricter of the two boxes an embed image is shown in: 400x280 on the desktop, 280x280 on the phone.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from PIL import Image

import bot.render.cadwallon
import bot.render.coup
import bot.render.intrigue
import bot.render.masti
from bot.presenters.registry import PRESENTERS
from bot.render.common import MIN_SHOWN_TEXT, PHONE_BOX, shown_scale
from tests.bot.render import readability


def _samples(game: str) -> list[tuple[Any, list[str]]]:
    """Return a few public views of ``game``: every table size the samples have, mid-game and finished."""
    if game == "coup":
        return [(view, list(names)) for view, names in bot.render.coup.sample_views().values()]
    if game == "masti":
        masti = bot.render.masti.sample_views().values()
        return [(view, list(names)) for view, names in masti if view.viewer is None]
    if game == "intrigue":
        module = bot.render.intrigue
        intrigue = [(module.reference_view(n), module.SAMPLE_NAMES[:n]) for n in (2, 5, 8)]
        return [*intrigue, (module.reference_view(3, over=True), module.SAMPLE_NAMES[:3])]
    return [(view, list(names)) for view, names in bot.render.cadwallon.sample_views().values()]


MODULES: dict[str, ModuleType] = {
    "coup": bot.render.coup,
    "masti": bot.render.masti,
    "intrigue": bot.render.intrigue,
    "cadwallon": bot.render.cadwallon,
}


def _text_caches(module: ModuleType) -> list[Callable[..., Any]]:
    """Return the module's cached drawing functions (sprites with text on them), but not its palette."""
    return [
        value
        for name, value in vars(module).items()
        if hasattr(value, "cache_clear") and getattr(value, "__module__", "") == module.__name__
        if name != "board_palette"  # built from full boards once; it draws nothing on a compact board
    ]


@pytest.mark.parametrize("game", list(MODULES))
def test_the_public_board_draws_no_text_under_11_px_as_a_phone_shows_it(game: str) -> None:
    module = MODULES[game]
    module.board_palette()  # drawn from full boards and hands: build it before recording
    sizes: set[tuple[int, int]] = set()
    for view, names in _samples(game):
        for locale in ("ru", "en"):
            with readability.drawn_text_sizes(*_text_caches(module)) as seen:
                png = PRESENTERS[game].render_board(view, names, locale)
            size = Image.open(io.BytesIO(png)).size
            sizes.add(size)
            shown = shown_scale(*size)
            small = sorted({(px, text) for px, text in seen if px * shown < MIN_SHOWN_TEXT})
            assert seen and not small, (game, locale, round(shown, 3), small[:5])
    assert len(sizes) == 1  # one size through the game: an edit never resizes the message
    (width, height) = sizes.pop()
    # Square like the phone's box: the board fills it, so neither cap shrinks it more than the other.
    assert width * PHONE_BOX[1] == height * PHONE_BOX[0]
