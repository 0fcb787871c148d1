"""Shared drawing toolkit of the board renderers: fonts, palette, text fitting, shapes and PNG encoding.

Everything expensive is built once and cached: font objects, the set of characters the bundled
fonts can draw (read from their ``cmap`` tables), and anti-aliased shape masks (drawn 4x larger and
downsampled, because Pillow's own shape primitives are not anti-aliased). Cached images are shared
between renders and must never be drawn on; paste from them only.

Text uses Pillow's basic layout engine rather than Raqm: it is faster, does not depend on optional
system libraries, and gives the same pixels on every machine. Latin and Cyrillic need no shaping.
"""

from __future__ import annotations

import io
import math
import statistics
import struct
import sys
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Rgb = tuple[int, int, int]

#: Where the bundled fonts live (``assets/fonts`` at the repository root).
FONTS_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
#: Supersampling factor of anti-aliased shapes.
SUPERSAMPLE = 4
#: zlib level of the PNG encoder, chosen by measurement on 6-seat boards (paletted): level 1 gives
#: 39 KB in 2.5 ms, 3 gives 36 KB in 2.8 ms, 6 gives 30 KB in 5.9 ms and 9 gives 28 KB in 36 ms.
PNG_COMPRESS_LEVEL = 3
ELLIPSIS = "…"


class Face(StrEnum):
    """The bundled DejaVu faces, by file name."""

    REGULAR = "DejaVuSans.ttf"
    BOLD = "DejaVuSans-Bold.ttf"
    CONDENSED = "DejaVuSansCondensed.ttf"
    CONDENSED_BOLD = "DejaVuSansCondensed-Bold.ttf"


# ----------------------------------------------------------------------------- palette
#: Table felt, panels and text: flat colours, so PNG filters compress the image well.
FELT: Rgb = (16, 58, 44)
FELT_EDGE: Rgb = (11, 42, 32)
FELT_LINE: Rgb = (30, 84, 64)
PANEL: Rgb = (24, 32, 43)
PANEL_EDGE: Rgb = (49, 63, 82)
PANEL_WINNER: Rgb = (52, 44, 22)
STRIP: Rgb = (13, 19, 27)
TEXT: Rgb = (242, 244, 247)
TEXT_MUTED: Rgb = (156, 168, 184)
TEXT_DARK: Rgb = (20, 24, 31)
GOLD: Rgb = (236, 188, 74)
GOLD_DARK: Rgb = (176, 128, 36)
CREAM: Rgb = (247, 235, 205)
RED: Rgb = (232, 72, 85)
BLUE: Rgb = (94, 176, 255)
GREEN: Rgb = (70, 200, 120)

#: Seat colours for up to eight seats: the Okabe–Ito palette, built to stay apart under every common
#: colour-vision deficiency, with its black swapped for a light grey (black vanishes on the dark
#: panels). Simulated protanopia, deuteranopia and tritanopia keep every pair at least ΔE 16 apart
#: (the old red/pink, teal/green set fell to ΔE 6). Colour is still never alone: every token and
#: chip also carries its seat number (:func:`seat_badge`).
SEAT_COLOURS: tuple[Rgb, ...] = (
    (213, 94, 0),  # vermillion
    (86, 180, 233),  # sky blue
    (240, 228, 66),  # yellow
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (230, 159, 0),  # orange
    (0, 114, 178),  # blue
    (235, 235, 235),  # light grey
)
#: What an image shown in a Discord embed is scaled into on the desktop: at most 400 px wide (the
#: embed's width) and 280 px high (SimCord's preview caps an embed image at ``max-height: 280px``; the
#: client's own cap is about 300).
PREVIEW_BOX = (400, 280)
#: The same on a 400-px phone: the embed is only 280 px wide there, and the 280-px height cap stays.
#: This box is the stricter one for every board, so a square board fills it best: a 10:7 board is
#: shown 280x196 on the phone, a square one 280x280 at the same scale.
PHONE_BOX = (280, 280)
#: The smallest text, in pixels as shown by the client, that reads on a phone.
MIN_SHOWN_TEXT = 11


#: FreeType font objects are not safe to share between threads, and boards render in worker
#: threads: every renderer draws while holding this one lock.
DRAW_LOCK = threading.Lock()


def seat_colour(seat: int) -> Rgb:
    """Return the colour of ``seat`` (cycling after eight seats)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def shown_scale(width: int, height: int) -> float:
    """Return the factor the client shrinks a ``width`` x ``height`` embed image by (at most 1).

    It is the smaller of the desktop's and the phone's, so a text that reads at it reads on both.
    """
    return min(
        1.0,
        *(box[0] / width for box in (PREVIEW_BOX, PHONE_BOX)),
        *(box[1] / height for box in (PREVIEW_BOX, PHONE_BOX)),
    )


def min_font_size(width: int, height: int) -> int:
    """Return the smallest font size that still shows :data:`MIN_SHOWN_TEXT` px tall on an image this big."""
    return math.ceil(MIN_SHOWN_TEXT / shown_scale(width, height))


def relative_luminance(colour: Rgb) -> float:
    """Return the WCAG 2 relative luminance of an sRGB colour (0 black .. 1 white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Rgb, b: Rgb) -> float:
    """Return the WCAG 2 contrast ratio of two colours (1 .. 21; text wants 4.5)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(fill: Rgb) -> Rgb:
    """Return :data:`TEXT_DARK` or :data:`TEXT`, whichever reads better on ``fill``."""
    return TEXT_DARK if contrast_ratio(TEXT_DARK, fill) >= contrast_ratio(TEXT, fill) else TEXT


def seat_badge(
    image: Image.Image, centre: tuple[int, int], diameter: int, seat: int, number_size: int | None = None
) -> None:
    """Draw ``seat``'s token: a disc in its colour, ringed dark, with its 1-based number in it.

    Every renderer marks a seat with this, so a seat is told by its number as well as its colour.
    The number's font is ``diameter * 0.62``, or ``number_size`` when given: a digit's cap height is
    about 0.73 of its font size, so up to ``0.8 * diameter`` still leaves a margin inside the disc,
    which lets a token that sits in a line of text carry a number as large as the text's.
    """
    x, y = centre
    fill_circle(image, (x, y), diameter + 2, TEXT_DARK)
    colour = seat_colour(seat)
    fill_circle(image, (x, y), diameter, colour)
    label = str(seat + 1)
    size = round(diameter * 0.62) if number_size is None else number_size
    ImageDraw.Draw(image).text((x, y + 1), label, font=font(Face.BOLD, size), fill=ink_on(colour), anchor="mm")


def mix(a: Rgb, b: Rgb, t: float) -> Rgb:
    """Return the colour ``t`` of the way from ``a`` to ``b`` (``t`` in 0..1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# ----------------------------------------------------------------------------- fonts and text
@lru_cache(maxsize=64)
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """Return the bundled ``face`` at ``size`` pixels, loaded once."""
    return ImageFont.truetype(str(FONTS_DIR / face.value), size, layout_engine=ImageFont.Layout.BASIC)


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """Return the code points a TrueType font maps to a real glyph (Windows cmap, format 12 or 4)."""
    (num_tables,) = struct.unpack_from(">H", data, 4)
    cmap = next(
        offset
        for tag, _, offset, _ in (struct.unpack_from(">4sIII", data, 12 + 16 * i) for i in range(num_tables))
        if tag == b"cmap"
    )
    (num_subtables,) = struct.unpack_from(">H", data, cmap + 2)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(num_subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        subtables[(platform, encoding)] = cmap + offset
    points: set[int] = set()
    if (3, 10) in subtables:  # format 12: groups of (first, last, first glyph)
        base = subtables[(3, 10)]
        (groups,) = struct.unpack_from(">I", data, base + 12)
        for g in range(groups):
            first, last, glyph = struct.unpack_from(">III", data, base + 16 + 12 * g)
            points.update(range(first + (glyph == 0), last + 1))
        return frozenset(points)
    base = subtables[(3, 1)]  # format 4: BMP segments with a delta or a glyph index array
    seg_count = struct.unpack_from(">H", data, base + 6)[0] // 2
    ends = struct.unpack_from(f">{seg_count}H", data, base + 14)
    starts = struct.unpack_from(f">{seg_count}H", data, base + 16 + 2 * seg_count)
    deltas = struct.unpack_from(f">{seg_count}h", data, base + 16 + 4 * seg_count)
    range_base = base + 16 + 6 * seg_count
    range_offsets = struct.unpack_from(f">{seg_count}H", data, range_base)
    for i in range(seg_count):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if range_offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                address = range_base + 2 * i + range_offsets[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", data, address)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return frozenset(points)


@cache
def drawable_codepoints() -> frozenset[int]:
    """Return the code points every bundled face can draw (so one cleaned text fits any face)."""
    sets = [_cmap_codepoints((FONTS_DIR / face.value).read_bytes()) for face in Face]
    return frozenset.intersection(*sets)


def clean_text(text: str) -> str:
    r"""Return ``text`` with only characters the bundled fonts can draw, on one line.

    Emoji and other missing glyphs are dropped (they would print as boxes), as are control and
    format characters (zero-width joiners, variation selectors, bidi marks) and combining marks that
    do not compose (so "zalgo" names cannot overflow a line). Runs of whitespace become one space.

    >>> clean_text("Гриша \N{FIRE}\N{VARIATION SELECTOR-16}  Ш.")
    'Гриша Ш.'
    """
    drawable = drawable_codepoints()
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            continue
        category = unicodedata.category(char)
        if category[0] in "CMZ" or ord(char) not in drawable:
            continue
        out.append(char)
    return "".join(out).strip()


def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """Return the advance width of ``text`` in ``fnt``."""
    return fnt.getlength(text)


def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """Return ``text`` cut with "…" so that it fits in ``max_width`` pixels (possibly just "…")."""
    if fnt.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that still fits with the ellipsis
        mid = (low + high + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS


def fit_font(text: str, face: Face, size: int, max_width: float, min_size: int) -> ImageFont.FreeTypeFont:
    """Return ``face`` at the largest size from ``size`` down to ``min_size`` at which ``text`` fits."""
    for candidate in range(size, min_size, -1):
        fnt = font(face, candidate)
        if fnt.getlength(text) <= max_width:
            return fnt
    return font(face, min_size)


# ----------------------------------------------------------------------------- anti-aliased shapes
def hires_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Return a transparent RGBA canvas ``SUPERSAMPLE`` times the size, and a drawer on it."""
    image = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def downsample(image: Image.Image) -> Image.Image:
    """Shrink a ``hires_canvas`` image back to its nominal size, smoothing its edges."""
    size = (image.width // SUPERSAMPLE, image.height // SUPERSAMPLE)
    return image.resize(size, Image.Resampling.BOX)


@lru_cache(maxsize=256)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """Return an anti-aliased "L" mask of a ``width`` x ``height`` rounded rectangle."""
    s = SUPERSAMPLE
    mask = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=radius * s, fill=255)
    return mask.resize((width, height), Image.Resampling.BOX)


@lru_cache(maxsize=64)
def circle_mask(diameter: int) -> Image.Image:
    """Return an anti-aliased "L" mask of a circle."""
    s = SUPERSAMPLE
    mask = Image.new("L", (diameter * s, diameter * s), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, diameter * s - 1, diameter * s - 1), fill=255)
    return mask.resize((diameter, diameter), Image.Resampling.BOX)


@lru_cache(maxsize=64)
def corner_masks(radius: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """Return the anti-aliased masks of the four corners (top-left, top-right, bottom-right, bottom-left)."""
    circle = circle_mask(2 * radius)
    r = radius
    return (
        circle.crop((0, 0, r, r)),
        circle.crop((r, 0, 2 * r, r)),
        circle.crop((r, r, 2 * r, 2 * r)),
        circle.crop((0, r, r, 2 * r)),
    )


def _rounded_shape(image: Image.Image, box: tuple[int, int, int, int], radius: int, fill: Rgb) -> None:
    """Fill a rounded rectangle: two plain rectangles, and blended paste only in the four corners."""
    x0, y0, x1, y1 = box
    r = max(0, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
    if r == 0:
        image.paste(fill, (x0, y0, x1, y1))
        return
    image.paste(fill, (x0 + r, y0, x1 - r, y1))
    image.paste(fill, (x0, y0 + r, x0 + r, y1 - r))
    image.paste(fill, (x1 - r, y0 + r, x1, y1 - r))
    top_left, top_right, bottom_right, bottom_left = corner_masks(r)
    image.paste(fill, (x0, y0, x0 + r, y0 + r), top_left)
    image.paste(fill, (x1 - r, y0, x1, y0 + r), top_right)
    image.paste(fill, (x1 - r, y1 - r, x1, y1), bottom_right)
    image.paste(fill, (x0, y1 - r, x0 + r, y1), bottom_left)


def fill_rounded(
    image: Image.Image,
    box: tuple[int, int, int, int],
    radius: int,
    fill: Rgb,
    outline: Rgb | None = None,
    width: int = 0,
) -> None:
    """Draw an anti-aliased rounded rectangle ``box`` = (x0, y0, x1, y1), exclusive of x1/y1.

    With ``outline``, a ring ``width`` pixels wide is drawn inside the box in that colour.
    """
    if outline is not None and width > 0:
        _rounded_shape(image, box, radius, outline)
        x0, y0, x1, y1 = box
        box, radius = (x0 + width, y0 + width, x1 - width, y1 - width), max(radius - width, 0)
    _rounded_shape(image, box, radius, fill)


def fill_circle(image: Image.Image, centre: tuple[int, int], diameter: int, fill: Rgb) -> None:
    """Draw an anti-aliased filled circle."""
    x, y = centre[0] - diameter // 2, centre[1] - diameter // 2
    image.paste(fill, (x, y, x + diameter, y + diameter), circle_mask(diameter))


def paste_rgba(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA ``sprite`` onto ``image`` at ``xy`` through its own alpha."""
    image.paste(sprite, xy, sprite)


# ----------------------------------------------------------------------------- encoding
def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode an RGB ``image`` as a paletted PNG, tuned for speed.

    Boards are flat colours plus anti-aliased edges, a few thousand colours in all, which 256
    colours reproduce without visible change (mean error under one level per channel). Going
    paletted is what makes encoding fast: the adaptive row filtering of a 24-bit PNG alone costs
    about 20 ms for a 1000x580 board at any zlib level, an 8-bit encode about 3 ms, and the file is
    less than half the size. No dithering, so flat areas stay flat and compress well.

    Args:
        image: The RGB image.
        palette: A "P" image whose palette to map onto (about 1 ms); without one, an octree
            palette is computed for this image (about 7 ms).

    Returns:
        The PNG bytes.
    """
    if palette is None:
        paletted = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    else:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def palette_from(images: Sequence[Image.Image]) -> Image.Image:
    """Return a 256-colour octree palette (as a "P" image) fitted to ``images`` stacked together."""
    sheet = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)))
    y = 0
    for image in images:
        sheet.paste(image, (0, y))
        y += image.height
    return sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def water_level(widths: Sequence[float], overflow: float) -> float:
    """Return the width to cap the longest names at so that the cuts add up to ``overflow``.

    ``widths`` is sorted longest first; the cut is shared out so the longest names lose the most.

    >>> water_level([300.0, 100.0, 50.0], 120.0)
    180.0
    >>> water_level([200.0, 190.0], 50.0)
    170.0
    """
    total = 0.0
    for k, width in enumerate(widths, start=1):
        total += width
        level = (total - overflow) / k
        following = widths[k] if k < len(widths) else 0.0
        if level >= following:
            return max(level, 0.0)
    return 0.0


#: Where the renderers' ``python -m`` entry points write their sample boards.
SAMPLES_DIR = Path("/tmp/render-samples")  # noqa: S108 - a fixed, documented place to look at samples
#: A board renderer: (view, names, locale) → PNG bytes.
Renderer = Callable[[Any, Sequence[str], str], bytes]


def write_samples(
    game: str,
    samples: Mapping[str, tuple[Any, Sequence[str]]],
    render: Renderer,
    *,
    runs: int,
    timed: Mapping[str, tuple[Any, Sequence[str]]] | None = None,
) -> None:
    """Write ``samples`` of ``game`` to :data:`SAMPLES_DIR` in both locales; report render time and size.

    Each of ``timed`` (default: the samples) is rendered ``runs`` times; its p50, p99 and PNG size
    are printed. This is the renderers' ``python -m bot.render.<game>`` entry, for eyes and a quick
    timing, not the benchmark suite.
    """
    SAMPLES_DIR.mkdir(parents=True, exist_ok=True)
    for name, (view, names) in samples.items():
        for locale in ("ru", "en"):
            path = SAMPLES_DIR / f"{game}-{name}-{locale}.png"
            path.write_bytes(render(view, names, locale))
            sys.stdout.write(f"{path}\n")
    for name, (view, names) in (samples if timed is None else timed).items():
        timings: list[float] = []
        size = 0
        for _ in range(runs):
            start = time.perf_counter()
            size = len(render(view, names, "ru"))
            timings.append((time.perf_counter() - start) * 1000)
        timings.sort()
        p99 = timings[min(runs - 1, math.ceil(runs * 0.99) - 1)]
        sys.stdout.write(
            f"{name:>16}: p50 {statistics.median(timings):.1f} ms, p99 {p99:.1f} ms, {size / 1024:.1f} KiB\n"
        )
