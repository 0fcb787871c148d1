"""What the readability tests of the compact boards share: the size of every text a render draws.

The client shows an embed image at most 400 px wide and 280 px high on the desktop (SimCord's
preview caps it at 280, the Discord client at about 300: the stricter one counts) and 280 x 280 on a
400-px phone; a text reads there when its font size times ``min(280 / width, 280 / height)``
(:func:`bot.render.common.shown_scale`) is at least 11 px (issue 13). Reading the sizes off the
drawing calls checks what is drawn, not only the constants a renderer declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw

from bot.render.common import MIN_SHOWN_TEXT

#: The smallest text, in pixels, that reads once the client has scaled the image down.
MIN_SHOWN_PX = MIN_SHOWN_TEXT


@contextmanager
def drawn_text_sizes(*caches: Callable[..., Any]) -> Iterator[list[tuple[float, str]]]:
    """Record (font size, text) of every non-empty text drawn meanwhile; ``caches`` are cleared first.

    Cached sprites (card faces, chips) were drawn before the recording started, so their
    ``lru_cache`` must be emptied for their texts to be seen.
    """
    seen: list[tuple[float, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        fnt = kwargs.get("font")
        if text and str(text).strip() and fnt is not None:
            seen.append((fnt.size, str(text)))
        original(self, xy, text, *args, **kwargs)

    for cache in caches:
        cache.cache_clear()  # type: ignore[attr-defined]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", text)
        yield seen
