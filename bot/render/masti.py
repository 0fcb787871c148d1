"""Board image of «Масти Власти» (Grok Games, 2023), drawn from a ``MastiView`` only.

The public board (``view.viewer is None``) shows what spec §9 makes public: the face-up trump card
and the trump deck size, this round's cards (and bribes) in seat order with the card currently
winning, and for every player the hand size, bribe gems, wealth gems, won guild piles with their
symbol counts and the neutral cards won; with six players also the left-card stack and a rebuilt
trump deck's (public) set. At the end it shows the final scores, itemised. A view for one seat may
also carry that seat's own hand, drawn in a strip at the bottom (the private "my hand" image); a
view carrying any other hand is refused, so a leak in a caller cannot reach an image.

Cards are drawn as small rounded rectangles: persona colour, value, the guild crest (simple Pillow
shapes in the guild colour) and one pip per symbol; neutral cards carry their own mark.

Two smaller pictures are made for where Discord shows them (at most 280x280 px on a 400-px phone):
the compact board of the board message (:func:`render_masti_compact`, 560x560, shown at half size,
no text under 22 px, drawn from the public view) and the hand of the private panel
(:func:`render_masti_hand`, from the viewer's own view). The detailed board above is what the
**Full board** button sends; the piles, neutral cards, last round and itemised scores live only there.

Run ``python -m bot.render.masti`` to write sample boards (played with the real engine) to
``/tmp/render-samples/`` and print render time and PNG size per table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import translate
from bot.render.common import (
    BLUE,
    CREAM,
    DRAW_LOCK,
    FELT,
    FELT_EDGE,
    FELT_LINE,
    GOLD,
    GOLD_DARK,
    GREEN,
    PANEL,
    PANEL_EDGE,
    PANEL_WINNER,
    RED,
    STRIP,
    SUPERSAMPLE,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Face,
    Rgb,
    clean_text,
    downsample,
    encode_png,
    fill_circle,
    fill_rounded,
    fit_font,
    fit_text,
    font,
    hires_canvas,
    mix,
    palette_from,
    paste_rgba,
    seat_badge,
    seat_colour,
    water_level,
    write_samples,
)
from games.masti.deck import GUILD_ORDER, card_info
from games.masti.models import (
    CardKind,
    Guild,
    GuildPileView,
    MastiView,
    Mode,
    Persona,
    Phase,
    PileScore,
    PlayerView,
    PlayView,
    RoundResultView,
    ScoreBreakdown,
)

if TYPE_CHECKING:
    from games.masti.state import MastiState

__all__ = ["render_masti_board", "render_masti_compact", "render_masti_hand", "sample_views"]

# ----------------------------------------------------------------------------- layout
WIDTH = 1040
MARGIN = 22
GAP = 14
HEADER_H = 56
TABLE_H = 206
PANEL_PAD = 14
PANEL_H = 182
PANEL_H_FINISHED = 198
STRIP_PAD = 12
HEADLINE_SIZE = 21
DETAIL_SIZE = 17
HEADLINE_H = 30
DETAIL_H = 28
HAND_H = 150
RESULT_ROW_H = 42
RESULT_HEAD_H = 26
CHIP_H = 28
CHIP_H_FINISHED = 44
CARD_LARGE = (104, 148)
CARD_SMALL = (64, 90)
CARD_MINI = (40, 56)
SLOT_GAP = 14
LEGEND_LINE_H = 24
LEGEND_ICON = 18

Box = tuple[float, float, float, float]
Seat = int

# ----------------------------------------------------------------------------- palette
#: Persona (suit) colours: deep, distinct hues that carry cream text.
PERSONA_COLOURS: dict[Persona, Rgb] = {
    Persona.ALDO: (188, 52, 62),
    Persona.PIETRA: (38, 102, 188),
    Persona.ENZO: (30, 132, 82),
    Persona.UGO: (116, 70, 172),
}
#: Guild colours of the crests (disc) and the ink of the crest's figure.
GUILD_COLOURS: dict[Guild, Rgb] = {
    Guild.ARISTOCRATS: (226, 178, 56),
    Guild.ARTISTS: (236, 116, 56),
    Guild.MERCHANTS: (24, 160, 152),
    Guild.CRAFTSMEN: (150, 100, 60),
    Guild.KNIGHTS: (96, 126, 174),
    Guild.ASSASSINS: (46, 44, 54),
}
GUILD_INK: dict[Guild, Rgb] = {guild: (70, 48, 8) if guild is Guild.ARISTOCRATS else CREAM for guild in Guild}
GEM: Rgb = (70, 198, 236)
GEM_LIGHT: Rgb = (186, 240, 252)
GEM_DARK: Rgb = (26, 120, 172)
CARD_BACK: Rgb = (38, 42, 92)
PENALTY: Rgb = (200, 48, 60)
BONUS: Rgb = (34, 146, 82)
JOKER: Rgb = (96, 64, 150)
TABLE_FELT: Rgb = (13, 49, 37)
CHIP: Rgb = (15, 21, 30)
#: Team markers (team 1, 2, 3): hues kept clear of the seat colours' exact values.
TEAM_COLOURS: tuple[Rgb, ...] = ((64, 208, 196), (244, 128, 182), (178, 222, 92))
MEDALS: tuple[Rgb, ...] = (GOLD, (196, 204, 214), (210, 134, 68))


# Fonts hold FreeType state that is not safe to share between threads. This module loads its own
# font objects (never the ones other renderers use) and draws under its own lock; encoding is not
# serialised. A render takes milliseconds.
# ----------------------------------------------------------------------------- public entry point
def render_masti_board(
    view: MastiView,
    names: Sequence[str],
    locale: str,
) -> bytes:
    """Draw the «Масти Власти» board for ``view`` and return it as PNG bytes.

    The image depends only on the arguments, so the same call always yields the same bytes.

    Args:
        view: The view to draw: the public view (``viewer=None``) for the table, or one seat's view,
            whose own hand is then drawn in a strip at the bottom.
        names: Display names by seat; missing or undrawable names fall back to "Игрок N".
        locale: Locale of the labels (``ru``, ``en``, or a Discord locale such as ``en-US``).

    Returns:
        The PNG-encoded board.

    Raises:
        ValueError: If the view carries a hand or private choices that its viewer may not see.
    """
    check_visibility(view)
    with DRAW_LOCK:
        image = _Board(view, names, locale).draw()
        palette = board_palette()
    return encode_png(image, palette)


def check_visibility(view: MastiView) -> None:
    """Raise ``ValueError`` if ``view`` holds private cards or choices its viewer may not see."""
    for player in view.players:
        if player.hand is not None and player.seat != view.viewer:
            who = "the public view" if view.viewer is None else f"the view of seat {view.viewer}"
            msg = f"{who} carries the hand of seat {player.seat}; refusing to draw hidden cards"
            raise ValueError(msg)
    if view.viewer is None:
        private = {
            "hand": view.hand is not None,
            "legal cards": view.legal_cards is not None,
            "bribe choice": view.can_bribe,
            "seeded card": view.seeded_card is not None,
        }
        for what, present in private.items():
            if present:
                msg = f"the public view carries a private {what}; refusing to draw hidden cards"
                raise ValueError(msg)


def winning_seat(plays: Sequence[PlayView], trump: Persona | None) -> Seat | None:
    """Return the seat whose card takes the round so far (spec §3.3), or ``None`` before the lead.

    The highest trump wins; without one, the highest card of the led persona.

    >>> winning_seat([PlayView(seat=2, card="A07"), PlayView(seat=0, card="A12"), PlayView(seat=1)], Persona.ENZO)
    0
    >>> winning_seat([PlayView(seat=2, card="A07"), PlayView(seat=0, card="E04")], Persona.ENZO)
    0
    >>> winning_seat([PlayView(seat=1, card="P06"), PlayView(seat=2, card="A13")], Persona.UGO)
    1
    """
    played = [(play.seat, card_info(play.card)) for play in plays if play.card is not None]
    if not played:
        return None
    led = played[0][1].persona
    trumps = [entry for entry in played if entry[1].persona == trump]
    pool = trumps or [entry for entry in played if entry[1].persona == led]
    return max(pool, key=lambda entry: entry[1].value)[0]


# ----------------------------------------------------------------------------- crests and marks
Glyph = Callable[[ImageDraw.ImageDraw, Box, Rgb, Rgb], None]


def _rotated(
    points: Sequence[tuple[float, float]], centre: tuple[float, float], scale: float, angle: float
) -> list[tuple[float, float]]:
    """Return ``points`` (unit coordinates around 0, 0) scaled, rotated by ``angle`` degrees and moved."""
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = centre
    return [(cx + scale * (x * cos - y * sin), cy + scale * (x * sin + y * cos)) for x, y in points]


def _crown(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    band = y0 + h * 0.68
    tips = [(x0 + w * 0.08, y0 + h * 0.26), (x0 + w * 0.5, y0 + h * 0.10), (x0 + w * 0.92, y0 + h * 0.26)]
    d.polygon(
        [
            (x0 + w * 0.10, band),
            tips[0],
            (x0 + w * 0.31, y0 + h * 0.48),
            tips[1],
            (x0 + w * 0.69, y0 + h * 0.48),
            tips[2],
            (x0 + w * 0.90, band),
        ],
        fill=ink,
    )
    d.rounded_rectangle((x0 + w * 0.08, band + h * 0.06, x0 + w * 0.92, y0 + h * 0.88), radius=h * 0.04, fill=ink)
    r = w * 0.085
    for tx, ty in tips:
        d.ellipse((tx - r, ty - r, tx + r, ty + r), fill=ink)


def _palette(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.ellipse((x0 + w * 0.02, y0 + h * 0.12, x1 - w * 0.02, y1 - h * 0.08), fill=ink)
    notch = w * 0.16
    nx, ny = x0 + w * 0.70, y0 + h * 0.80
    d.ellipse((nx - notch, ny - notch, nx + notch, ny + notch), fill=bg)
    for fx, fy, fr in ((0.26, 0.46, 0.10), (0.44, 0.28, 0.09), (0.66, 0.30, 0.09), (0.80, 0.50, 0.08)):
        cx, cy, r = x0 + w * fx, y0 + h * fy, w * fr
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=bg)
    hx, hy, hr = x0 + w * 0.36, y0 + h * 0.70, w * 0.09
    d.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=bg)


def _scales(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    stroke = max(1.0, w * 0.08)
    beam_y = y0 + h * 0.22
    d.rectangle((cx - stroke / 2, y0 + h * 0.12, cx + stroke / 2, y0 + h * 0.84), fill=ink)
    d.rounded_rectangle((cx - w * 0.28, y0 + h * 0.80, cx + w * 0.28, y0 + h * 0.92), radius=h * 0.05, fill=ink)
    d.rounded_rectangle((x0 + w * 0.08, beam_y, x1 - w * 0.08, beam_y + stroke), radius=stroke / 2, fill=ink)
    r = w * 0.08
    d.ellipse((cx - r, y0 + h * 0.06, cx + r, y0 + h * 0.06 + 2 * r), fill=ink)
    line = max(1, round(w * 0.035))
    for side in (-1, 1):
        px = cx + side * w * 0.32
        pan_y = y0 + h * 0.56
        d.line((px, beam_y + stroke, px - w * 0.15, pan_y), fill=ink, width=line)
        d.line((px, beam_y + stroke, px + w * 0.15, pan_y), fill=ink, width=line)
        d.pieslice((px - w * 0.19, pan_y - h * 0.14, px + w * 0.19, pan_y + h * 0.14), start=0, end=180, fill=ink)


def _hammer(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    head = [(-0.42, -0.44), (0.30, -0.44), (0.44, -0.34), (0.44, -0.18), (-0.42, -0.18)]
    handle = [(-0.075, -0.20), (0.075, -0.20), (0.075, 0.50), (-0.075, 0.50)]
    for shape in (head, handle):
        d.polygon(_rotated(shape, centre, w, 35), fill=ink)


def _shield(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    d.polygon(
        [
            (x0 + w * 0.12, y0 + h * 0.08),
            (x1 - w * 0.12, y0 + h * 0.08),
            (x1 - w * 0.12, y0 + h * 0.48),
            (x1 - w * 0.24, y0 + h * 0.72),
            (cx, y1 - h * 0.04),
            (x0 + w * 0.24, y0 + h * 0.72),
            (x0 + w * 0.12, y0 + h * 0.48),
        ],
        fill=ink,
    )
    stroke = max(1, round(w * 0.09))
    d.line((cx, y0 + h * 0.18, cx, y0 + h * 0.80), fill=bg, width=stroke)
    d.line((x0 + w * 0.24, y0 + h * 0.38, x1 - w * 0.24, y0 + h * 0.38), fill=bg, width=stroke)


def _dagger(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    half = w * 0.13
    d.polygon(
        [
            (cx, y0 + h * 0.02),
            (cx + half, y0 + h * 0.20),
            (cx + half, y0 + h * 0.62),
            (cx - half, y0 + h * 0.62),
            (cx - half, y0 + h * 0.20),
        ],
        fill=ink,
    )
    d.line((cx, y0 + h * 0.16, cx, y0 + h * 0.58), fill=bg, width=max(1, round(w * 0.04)))
    d.rounded_rectangle((cx - w * 0.38, y0 + h * 0.61, cx + w * 0.38, y0 + h * 0.70), radius=h * 0.04, fill=ink)
    d.rectangle((cx - w * 0.075, y0 + h * 0.69, cx + w * 0.075, y0 + h * 0.87), fill=ink)
    r = w * 0.11
    d.ellipse((cx - r, y0 + h * 0.91 - r, cx + r, y0 + h * 0.91 + r), fill=ink)


def _star(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) * 0.04
    outer, inner = (x1 - x0) / 2, (x1 - x0) / 2 * 0.45
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    d.polygon(points, fill=ink)


GLYPHS: dict[Guild, Glyph] = {
    Guild.ARISTOCRATS: _crown,
    Guild.ARTISTS: _palette,
    Guild.MERCHANTS: _scales,
    Guild.CRAFTSMEN: _hammer,
    Guild.KNIGHTS: _shield,
    Guild.ASSASSINS: _dagger,
}

#: What the centre of a neutral card shows: disc colour and its mark (text, or the power star).
NEUTRAL_MARKS: dict[CardKind, tuple[Rgb, str]] = {
    CardKind.JOKER: (JOKER, "?"),
    CardKind.PENALTY: (PENALTY, "−2"),
    CardKind.BONUS: (BONUS, "+2"),
    CardKind.POWER: (GOLD, ""),
}


def _crest(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, guild: Guild) -> None:
    """Draw the crest of ``guild`` (hires coordinates): a cream-rimmed disc with the guild's figure."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CREAM)
    ring = r * 0.12
    colour = GUILD_COLOURS[guild]
    d.ellipse((cx - r + ring, cy - r + ring, cx + r - ring, cy + r - ring), fill=colour)
    g = r * 0.60
    GLYPHS[guild](d, (cx - g, cy - g, cx + g, cy + g), GUILD_INK[guild], colour)


def _neutral_disc(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, kind: CardKind) -> None:
    """Draw the disc of a neutral mark (hires); its text is added after downsampling."""
    colour, _ = NEUTRAL_MARKS[kind]
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CREAM)
    ring = r * 0.12
    inner = (cx - r + ring, cy - r + ring, cx + r - ring, cy + r - ring)
    if kind is CardKind.JOKER:  # it may join any guild: a wheel of the six guild colours
        for i, guild in enumerate(GUILD_ORDER):
            d.pieslice(inner, start=-90 + 60 * i, end=-30 + 60 * i, fill=GUILD_COLOURS[guild])
        return
    d.ellipse(inner, fill=colour)
    if kind is CardKind.POWER:
        g = r * 0.62
        _star(d, (cx - g, cy - g, cx + g, cy + g), (92, 58, 6), colour)


def _neutral_text(image: Image.Image, cx: float, cy: float, r: float, kind: CardKind, min_size: int = 7) -> None:
    """Write the text of a neutral mark centred on its disc (after downsampling), at least ``min_size`` px."""
    _, text = NEUTRAL_MARKS[kind]
    if not text:
        return
    draw = ImageDraw.Draw(image)
    if kind is CardKind.JOKER:
        fnt = font(Face.BOLD, max(min_size, round(r * 1.3)))
        stroke = 1 if r < 12 else 2
        draw.text(
            (cx, cy + r * 0.04), text, font=fnt, fill=TEXT_DARK, anchor="mm", stroke_width=stroke, stroke_fill=CREAM
        )
        return
    fnt = font(Face.CONDENSED_BOLD, max(min_size, round(r * 0.95)))
    draw.text((cx, cy + r * 0.04), text, font=fnt, fill=CREAM, anchor="mm")


# ----------------------------------------------------------------------------- sprites (cached)
@lru_cache(maxsize=64)
def crest_icon(guild: Guild, diameter: int, dim: bool = False) -> Image.Image:
    """Return the crest of ``guild`` as an RGBA icon (``dim``: faded, a team pile that does not count)."""
    image, d = hires_canvas(diameter, diameter)
    half = image.width / 2
    _crest(d, half, half, half - 0.5, guild)
    icon = downsample(image)
    if dim:
        icon.putalpha(icon.getchannel("A").point(lambda a: a * 2 // 5))
    return icon


@lru_cache(maxsize=32)
def neutral_icon(kind: CardKind, diameter: int) -> Image.Image:
    """Return the mark of a neutral card kind (joker "?", "−2", "+2", power star) as an RGBA icon."""
    image, d = hires_canvas(diameter, diameter)
    half = image.width / 2
    _neutral_disc(d, half, half, half - 0.5, kind)
    icon = downsample(image)
    _neutral_text(icon, diameter / 2, diameter / 2, diameter / 2, kind)
    return icon


@lru_cache(maxsize=512)
def card_face(
    card: str, size: tuple[int, int], initial: str, banner: str = "", dim: bool = False, compact: bool = False
) -> Image.Image:
    """Return the face of ``card`` (RGBA).

    Persona colour, the value on top with the persona's initial in the corner, then the guild crest
    with one pip per symbol (a ×2 card has two), or a neutral card's mark. ``banner`` adds the
    persona's name at the bottom (the big trump card); ``dim`` darkens the card (not playable now).
    ``compact`` (the compact board and the hand picture, which the client shows at half size or
    less) draws the value and a neutral mark's text at :data:`COMPACT_TEXT` px or more, and the value
    at the top left, leaving the top right corner to the persona's initial (:func:`compact_card`).
    """
    info = card_info(card)
    w, h = size
    colour = PERSONA_COLOURS[info.persona]
    image, d = hires_canvas(w, h)
    s = SUPERSAMPLE
    radius = max(4, round(w * 0.11))
    rim = max(2, round(w * 0.035))
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius * s, fill=CREAM)
    inner = (rim * s, rim * s, (w - rim) * s - 1, (h - rim) * s - 1)
    d.rounded_rectangle(inner, radius=(radius - rim) * s, fill=colour)
    bottom = h - rim
    banner_h = 0
    if banner:
        banner_h = round(h * 0.15)
        d.rounded_rectangle(
            (rim * s, (h - rim - banner_h) * s, (w - rim) * s - 1, (h - rim) * s - 1),
            radius=(radius - rim) * s,
            fill=mix(colour, (0, 0, 0), 0.38),
            corners=(False, False, True, True),
        )
        bottom -= banner_h
    top = rim + h * 0.34  # below the value
    room = bottom - top
    r = min(w * 0.27, room * 0.36)
    pip_r = max(2.2, w * 0.056)
    guild_card = info.kind is CardKind.GUILD and info.guild is not None
    cy = top + (room - (2.6 * pip_r if guild_card else 0)) / 2
    if info.guild is not None:
        _crest(d, w / 2 * s, cy * s, r * s, info.guild)
        pip_y = cy + r + pip_r * 1.9
        gap = pip_r * 2.8
        first = w / 2 - gap * (info.symbols - 1) / 2
        for i in range(info.symbols):
            px = first + gap * i
            d.ellipse(
                ((px - pip_r) * s, (pip_y - pip_r) * s, (px + pip_r) * s, (pip_y + pip_r) * s),
                fill=GUILD_COLOURS[info.guild],
                outline=CREAM,
                width=max(1, round(pip_r * 0.45 * s)),
            )
    else:
        _neutral_disc(d, w / 2 * s, cy * s, r * s, info.kind)
    face = downsample(image)
    if info.guild is None:
        _neutral_text(face, w / 2, cy, r, info.kind, COMPACT_TEXT if compact else 7)
    draw = ImageDraw.Draw(face)
    value_font = font(Face.BOLD, max(COMPACT_TEXT if compact else 11, round(h * 0.25)))
    if compact:
        draw.text((rim + w * 0.09, rim + h * 0.17), str(info.value), font=value_font, fill=CREAM, anchor="lm")
    else:
        draw.text((w / 2, rim + h * 0.17), str(info.value), font=value_font, fill=CREAM, anchor="mm")
    corner = font(Face.CONDENSED_BOLD, max(9, round(h * 0.12)))
    corner_ink = mix(colour, CREAM, 0.62)
    draw.text((rim + w * 0.13, rim + h * 0.085), initial, font=corner, fill=corner_ink, anchor="mm")
    draw.text((w - rim - w * 0.13, rim + h * 0.085), initial, font=corner, fill=corner_ink, anchor="mm")
    if banner:
        banner_font = fit_font(banner, Face.CONDENSED_BOLD, max(10, round(h * 0.10)), w - 2 * rim - 8, 8)
        draw.text((w / 2, h - rim - banner_h / 2), banner, font=banner_font, fill=CREAM, anchor="mm")
    if dim:
        shade = Image.new("RGBA", face.size, (10, 14, 20, 150))
        shade.putalpha(Image.eval(face.getchannel("A"), lambda a: a * 150 // 255))
        face = Image.alpha_composite(face, shade)
    return face


@lru_cache(maxsize=16)
def card_back(size: tuple[int, int]) -> Image.Image:
    """Return the back of a face-down card (RGBA): indigo with a gold frame and a gem lozenge."""
    w, h = size
    image, d = hires_canvas(w, h)
    s = image.width // w
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=max(3, w // 9) * s, fill=CREAM)
    inset = max(2, w // 28)
    d.rounded_rectangle(
        (inset * s, inset * s, (w - inset) * s - 1, (h - inset) * s - 1), radius=max(2, w // 12) * s, fill=CARD_BACK
    )
    frame = max(4, w // 8)
    d.rounded_rectangle(
        (frame * s, frame * s, (w - frame) * s - 1, (h - frame) * s - 1),
        radius=max(2, w // 16) * s,
        outline=GOLD_DARK,
        width=max(1, w // 36) * s,
    )
    cx, cy = w * s / 2, h * s / 2
    for scale, fill in ((0.28, GOLD), (0.18, CARD_BACK), (0.09, GEM)):
        rx, ry = w * s * scale, h * s * scale * 0.8
        d.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=fill)
    return downsample(image)


def _gem_shape(d: ImageDraw.ImageDraw, box: Box) -> None:
    """Draw a cut gem (hires): a table, crown facets and a pavilion to a point."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    girdle = y0 + h * 0.36
    outline = [
        (x0 + w * 0.24, y0 + h * 0.08),
        (x1 - w * 0.24, y0 + h * 0.08),
        (x1 - w * 0.02, girdle),
        ((x0 + x1) / 2, y1 - h * 0.04),
        (x0 + w * 0.02, girdle),
    ]
    d.polygon(outline, fill=GEM)
    d.polygon([outline[0], outline[1], (x1 - w * 0.30, girdle), (x0 + w * 0.30, girdle)], fill=GEM_LIGHT)
    d.polygon([outline[1], outline[2], (x1 - w * 0.30, girdle)], fill=mix(GEM, GEM_LIGHT, 0.4))
    d.polygon([(x1 - w * 0.30, girdle), outline[2], outline[3]], fill=GEM_DARK)
    d.polygon([(x0 + w * 0.30, girdle), (x1 - w * 0.30, girdle), outline[3]], fill=mix(GEM, GEM_DARK, 0.35))


@lru_cache(maxsize=8)
def gem_icon(size: int) -> Image.Image:
    """Return a cut gem (RGBA): a bribe gem, or one on a wealth card."""
    image, d = hires_canvas(size, size)
    full = image.width
    _gem_shape(d, (0, full * 0.06, full, full * 0.94))
    return downsample(image)


@lru_cache(maxsize=8)
def wealth_icon(size: int) -> Image.Image:
    """Return a wealth card with a gem on it (RGBA)."""
    w, h = round(size * 0.78), size
    image, d = hires_canvas(w, h)
    s = image.width // w
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=3 * s, fill=GOLD)
    d.rounded_rectangle((2 * s, 2 * s, (w - 2) * s - 1, (h - 2) * s - 1), radius=2 * s, fill=(74, 52, 24))
    _gem_shape(d, (w * 0.16 * s, h * 0.26 * s, w * 0.84 * s, h * 0.74 * s))
    return downsample(image)


@lru_cache(maxsize=4)
def stack_icon(size: int) -> Image.Image:
    """Return a small fan of three face-up cards (RGBA): the cards a player has won."""
    w, h = round(size * 0.95), size
    image, d = hires_canvas(w, h)
    s = image.width // w
    card_w, card_h = w * 0.62 * s, h * 0.80 * s
    for i, colour in enumerate((PERSONA_COLOURS[Persona.ENZO], PERSONA_COLOURS[Persona.PIETRA], GOLD)):
        x, y = i * w * 0.19 * s, (2 - i) * h * 0.08 * s
        d.rounded_rectangle((x, y, x + card_w, y + card_h), radius=2.5 * s, fill=CREAM)
        d.rounded_rectangle((x + s, y + s, x + card_w - s, y + card_h - s), radius=2 * s, fill=colour)
    return downsample(image)


# ----------------------------------------------------------------------------- rich status lines
SegmentKind = Literal["text", "seat", "persona", "card"]


@dataclass(frozen=True)
class Segment:
    """One run of a status line: plain text, a seat (dot + name), a persona pill or a card chip."""

    kind: SegmentKind
    text: str
    seat: int = 0
    code: str = ""  # the persona code of a persona pill, the card id of a card chip


_MARKER = re.compile(r"\x01(\w+)\x02")
Param = Segment | Sequence[Segment] | str | int


# ----------------------------------------------------------------------------- the board
@dataclass(frozen=True)
class _Chip:
    """One chip of a panel: a guild pile (crest and symbols) or a neutral kind (mark and count)."""

    guild: Guild | None
    kind: CardKind
    count: int
    joker: bool = False
    points: int | None = None
    counted: bool = True


class _Board:
    """One drawing of the board: layout, then header, table, status strip, panels and hand."""

    def __init__(self, view: MastiView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.finished = view.phase is Phase.FINISHED
        self.names = {player.seat: self._name(names, player.seat) for player in view.players}
        self.initials = {persona: self.t(f"persona.{persona.value}")[:1] for persona in Persona}
        self.rank = self._ranks()
        count = len(view.players)
        self.cols = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3}.get(count, 4)
        self.rows = max(1, math.ceil(count / self.cols))
        self.panel_w = (WIDTH - 2 * MARGIN - (self.cols - 1) * GAP) // self.cols
        self.panel_h = PANEL_H_FINISHED if self.finished and view.result else PANEL_H
        self.lines = self._status_lines()
        self.strip_h = 2 * STRIP_PAD + HEADLINE_H + DETAIL_H * (len(self.lines) - 1)
        if self.finished and view.result:
            self.table_h = 2 * 14 + RESULT_HEAD_H + RESULT_ROW_H * len(view.result)
        else:
            self.table_h = TABLE_H
        self.hand = self._hand()
        self.legend = self._legend_lines()
        height = MARGIN + HEADER_H + GAP + self.table_h + GAP + self.strip_h + GAP
        height += self.rows * (self.panel_h + GAP) - GAP
        if self.hand is not None:
            height += GAP + HAND_H
        height += 8 + LEGEND_LINE_H * len(self.legend) + MARGIN - 6
        self.image = Image.new("RGB", (WIDTH, height), FELT_EDGE)
        self.draw_ = ImageDraw.Draw(self.image)

    # -- helpers
    def t(self, key: str, **params: object) -> str:
        """Translate ``render_masti.<key>``."""
        return translate(self.locale, f"render_masti.{key}", **params)

    def _name(self, names: Sequence[str], seat: int) -> str:
        name = clean_text(names[seat]) if seat < len(names) else ""
        return name or self.t("player", n=seat + 1)

    def _ranks(self) -> dict[Seat, int]:
        """Return each seat's final rank (0 = first) once the game is scored."""
        result = self.view.result if self.finished else None
        return {seat: unit.rank for unit in result or () for seat in unit.seats}

    def _hand(self) -> tuple[str, ...] | None:
        view = self.view
        if view.viewer is None:
            return None
        if view.hand is not None:
            return view.hand
        own = next((p for p in view.players if p.seat == view.viewer), None)
        return own.hand if own is not None else None

    def card(self, card: str, size: tuple[int, int], banner: bool = False, dim: bool = False) -> Image.Image:
        """Return the face of ``card`` at ``size`` with this locale's persona initial (and name)."""
        persona = card_info(card).persona
        name = self.t(f"persona.{persona.value}") if banner else ""
        return card_face(card, size, self.initials[persona], name, dim)

    def text(
        self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, anchor: str = "lm"
    ) -> None:
        """Draw ``text`` (a thin wrapper that keeps call sites short)."""
        self.draw_.text(xy, text, font=fnt, fill=fill, anchor=anchor)

    # -- top level
    def draw(self) -> Image.Image:
        """Draw everything and return the image."""
        w, h = self.image.size
        fill_rounded(self.image, (6, 6, w - 6, h - 6), 22, FELT, outline=FELT_LINE, width=2)
        self._header()
        y = MARGIN + HEADER_H + GAP
        if self.finished and self.view.result:
            self._results(y, self.view.result)
        else:
            self._table(y)
        y += self.table_h + GAP
        self._strip(y)
        y += self.strip_h + GAP
        players = self.view.players
        for start in range(0, len(players), self.cols):
            row = players[start : start + self.cols]
            row_w = len(row) * self.panel_w + (len(row) - 1) * GAP
            x = (WIDTH - row_w) // 2
            for player in row:
                self._panel(player, x, y)
                x += self.panel_w + GAP
            y += self.panel_h + GAP
        y -= GAP
        if self.hand is not None:
            self._hand_strip(self.hand, y + GAP)
            y += GAP + HAND_H
        self._legend(y + 8)
        return self.image

    # -- header
    def _header(self) -> None:
        view = self.view
        cy = MARGIN + HEADER_H // 2
        paste_rgba(self.image, gem_icon(34), (MARGIN + 2, cy - 18))
        title = self.t("title").upper()
        title_font = font(Face.BOLD, 28)
        self.text((MARGIN + 46, cy), title, title_font, GOLD)
        right = WIDTH - MARGIN
        total = self.t("round_of", total=view.max_rounds)
        total_font = font(Face.REGULAR, 17)
        x = right - total_font.getlength(total)
        self.text((x, cy + 2), total, total_font, TEXT_MUTED)
        number = str(view.round)
        number_font = font(Face.BOLD, 28)
        x -= 8 + number_font.getlength(number)
        self.text((x, cy), number, number_font, TEXT)
        label = self.t("round")
        label_font = font(Face.REGULAR, 17)
        x -= 8 + label_font.getlength(label)
        self.text((x, cy + 2), label, label_font, TEXT_MUTED)
        if view.viewer is not None:
            left = MARGIN + 46 + title_font.getlength(title) + 18
            note_font = font(Face.REGULAR, 15)
            note = fit_text(self.t("private"), note_font, x - 24 - left)
            self.text((left, cy + 2), note, note_font, TEXT_MUTED)

    # -- the table: trump, the round, the centre
    def _table(self, y: int) -> None:
        view = self.view
        x0, x1 = MARGIN, WIDTH - MARGIN
        fill_rounded(self.image, (x0, y, x1, y + self.table_h), 18, TABLE_FELT, outline=FELT_LINE, width=1)
        label_font = font(Face.BOLD, 13)
        label_y = y + 20
        card_y = y + 40
        # Trump card and trump deck.
        tx = x0 + 20
        self.text((tx, label_y), self.t("trump").upper(), label_font, GOLD)
        if view.trump is not None:
            paste_rgba(self.image, self.card(view.trump, CARD_LARGE, banner=True), (tx, card_y))
        else:
            self._empty_slot(tx, card_y, CARD_LARGE, "?")
        dx = tx + CARD_LARGE[0] + 22
        back_w, back_h = 50, 70
        layers = min(3, view.trump_deck_size)
        for i in range(layers):
            paste_rgba(self.image, card_back((back_w, back_h)), (dx + 4 * i, card_y + 4 + 3 * i))
        if layers == 0:
            self._empty_slot(dx, card_y + 4, (back_w, back_h), "")
        count_y = card_y + back_h + 34
        self.text((dx, count_y), str(view.trump_deck_size), font(Face.BOLD, 26), TEXT)
        deck_font = font(Face.REGULAR, 13)
        words = self.t("trump_deck", n=view.trump_deck_size).split("\n")
        for i, word in enumerate(words[:2]):
            self.text((dx, count_y + 24 + 16 * i), fit_text(word, deck_font, 92), deck_font, TEXT_MUTED)
        left = dx + 100
        self.draw_.line((left, y + 16, left, y + self.table_h - 16), fill=FELT_LINE, width=1)
        # The centre at the right (6 players): left cards and a public rebuilt trump deck.
        right = x1 - 18
        groups = [(self.t("left_cards"), view.left_cards)]
        if view.trump_deck_cards:
            groups.append((self.t("deck_cards"), view.trump_deck_cards))
        groups = [(label, cards) for label, cards in groups if cards]
        if groups:
            right = self._centre_groups(groups, right, y)
        # The round: one slot per seat, in seat order.
        self._round(left + 18, right - 18, y, label_y, card_y)

    def _centre_groups(self, groups: list[tuple[str, tuple[str, ...]]], right: int, y: int) -> int:
        """Draw the 6-player centre (left cards, a public trump deck) ending at ``right``; return its left."""
        mini_w, mini_h = CARD_MINI
        per_row = 4
        width = per_row * (mini_w + 6) - 6
        x = right - width
        gy = y + 20
        label_font = font(Face.BOLD, 13)
        for label, cards in groups:
            self.text((x, gy), fit_text(label.upper(), label_font, width + 10), label_font, TEXT_MUTED)
            gy += 14
            for i, card in enumerate(cards[:8]):
                cx = x + (i % per_row) * (mini_w + 6)
                cy = gy + (i // per_row) * (mini_h + 6)
                paste_rgba(self.image, self.card(card, CARD_MINI), (cx, cy))
            gy += ((min(len(cards), 8) - 1) // per_row + 1) * (mini_h + 6) + 12
        self.draw_.line((x - 18, y + 16, x - 18, y + self.table_h - 16), fill=FELT_LINE, width=1)
        return x - 18

    def _empty_slot(self, x: int, y: int, size: tuple[int, int], mark: str, outline: Rgb = FELT_LINE) -> None:
        w, h = size
        fill_rounded(self.image, (x, y, x + w, y + h), 8, outline)
        fill_rounded(self.image, (x + 2, y + 2, x + w - 2, y + h - 2), 7, TABLE_FELT)
        if mark:
            self.text((x + w / 2, y + h / 2), mark, font(Face.BOLD, round(h * 0.3)), outline, "mm")

    def _round(self, left: int, right: int, y: int, label_y: int, card_y: int) -> None:
        view = self.view
        label_font = font(Face.BOLD, 13)
        if view.phase is Phase.LEAVE and view.leave_choices:
            title = self.t("taken", n=view.last_round.round if view.last_round else view.round)
            self.text((left, label_y), title.upper(), label_font, TEXT_MUTED)
            step = min(CARD_SMALL[0] + SLOT_GAP, (right - left - CARD_SMALL[0]) // max(1, len(view.leave_choices) - 1))
            for i, card in enumerate(view.leave_choices):
                paste_rgba(self.image, self.card(card, CARD_SMALL), (left + i * step, card_y + 8))
            return
        if view.phase is Phase.SEEDING:
            self.text((left, label_y), self.t("seeding_title").upper(), label_font, TEXT_MUTED)
            seeders = [p for p in view.players if p.seeded or p.seat in view.awaiting]
            self._slots(left, right, card_y, [(p.seat, "seeded" if p.seeded else "await") for p in seeders])
            return
        slots: list[tuple[Seat, str]] = []
        played = {play.seat: play for play in view.plays}
        for player in view.players:
            play = played.get(player.seat)
            if play is not None:
                slots.append((player.seat, "card" if play.card is not None else "bribe"))
            elif player.out:
                slots.append((player.seat, "out"))
            elif player.seat == view.turn:
                slots.append((player.seat, "turn"))
            else:
                slots.append((player.seat, "wait"))
        self._slots(left, right, card_y, slots)

    def _slots(self, left: int, right: int, card_y: int, slots: list[tuple[Seat, str]]) -> None:
        """Draw one slot per seat: its card, bribe gem, a card back (seeded) or an empty place."""
        view = self.view
        if not slots:
            return
        card_w, card_h = CARD_SMALL
        pitch = min(card_w + 2 * SLOT_GAP + 36, (right - left) // len(slots))
        x = left + (right - left - pitch * len(slots)) // 2 + (pitch - card_w) // 2
        order = {play.seat: i for i, play in enumerate(view.plays)}
        cards = {play.seat: play.card for play in view.plays}
        winner = winning_seat(view.plays, view.trump_persona) if view.phase is Phase.PLAY else None
        tag_font = font(Face.BOLD, 12)
        name_font = font(Face.CONDENSED_BOLD, 14)
        for seat, state in slots:
            sy = card_y + 8
            card = cards.get(seat)
            if state == "card" and card is not None:
                if seat == winner:
                    fill_rounded(self.image, (x - 4, sy - 4, x + card_w + 4, sy + card_h + 4), 11, GOLD)
                paste_rgba(self.image, self.card(card, CARD_SMALL), (x, sy))
            elif state == "bribe":
                self._empty_slot(x, sy, CARD_SMALL, "")
                gem = gem_icon(30)
                paste_rgba(self.image, gem, (x + (card_w - gem.width) // 2, sy + 18))
                word = fit_text(self.t("slot.bribe"), tag_font, card_w - 6)
                self.text((x + card_w / 2, sy + card_h - 22), word, tag_font, GEM, "mm")
            elif state == "seeded":
                paste_rgba(self.image, card_back(CARD_SMALL), (x, sy))
            elif state == "turn":
                self._empty_slot(x, sy, CARD_SMALL, "?", GOLD)
            elif state == "await":
                self._empty_slot(x, sy, CARD_SMALL, "?", BLUE)
            elif state == "out":
                self._empty_slot(x, sy, CARD_SMALL, "–")
            else:
                self._empty_slot(x, sy, CARD_SMALL, "")
            # Tag above: who takes the round so far, whose turn it is; play order in the corner.
            tag, ink = "", TEXT_MUTED
            if seat == winner:
                tag, ink = self.t("slot.winning"), GOLD
            elif state == "turn":
                tag, ink = self.t("slot.turn"), GOLD
            elif state == "await":
                tag, ink = self.t("slot.awaiting"), BLUE
            elif state == "out":
                tag = self.t("slot.out")
            if tag:
                fitted = fit_text(tag.upper(), tag_font, pitch - 4)
                self.text((x + card_w / 2, sy - 12), fitted, tag_font, ink, "mm")
            if seat in order:
                bx, by = x - 6, sy + card_h - 14
                fill_circle(self.image, (bx + 10, by + 10), 20, CREAM)
                fill_circle(self.image, (bx + 10, by + 10), 17, TEXT_DARK)
                self.text((bx + 10, by + 10), str(order[seat] + 1), font(Face.BOLD, 11), CREAM, "mm")
            # Name below: seat colour dot and the name.
            name_y = sy + card_h + 17
            dot = 10
            name = fit_text(self.names.get(seat, ""), name_font, pitch - dot - 8)
            total = dot + 4 + name_font.getlength(name)
            nx = x + card_w / 2 - total / 2
            fill_circle(self.image, (round(nx) + dot // 2, name_y + 1), dot, seat_colour(seat))
            self.text((nx + dot + 4, name_y), name, name_font, TEXT)
            x += pitch

    # -- final results
    def _results(self, y: int, result: Sequence[ScoreBreakdown]) -> None:
        x0, x1 = MARGIN, WIDTH - MARGIN
        fill_rounded(self.image, (x0, y, x1, y + self.table_h), 18, TABLE_FELT, outline=FELT_LINE, width=1)
        columns: list[tuple[str, Callable[[ScoreBreakdown], int]]] = [
            ("result.guilds", lambda u: sum(p.points for p in u.piles)),
            ("result.bonus", lambda u: u.bonus_points),
            ("result.penalty", lambda u: u.penalty_points),
            ("result.power", lambda u: u.power_points),
            ("result.gems", lambda u: u.gems),
        ]
        col_w = 96
        total_w = 84
        won_w = 68
        total_x = x1 - 20 - total_w
        won_x = total_x - won_w
        first_col = won_x - col_w * len(columns)
        head_font = font(Face.CONDENSED_BOLD, 13)
        hy = y + 14 + RESULT_HEAD_H // 2
        self.text((x0 + 20, hy), self.t("result.title").upper(), font(Face.BOLD, 13), GOLD)
        for i, (key, _) in enumerate(columns):
            label = fit_text(self.t(key).upper(), head_font, col_w - 8)
            self.text((first_col + col_w * i + col_w / 2, hy), label, head_font, TEXT_MUTED, "mm")
        self.text(
            (won_x + won_w / 2, hy),
            fit_text(self.t("result.cards").upper(), head_font, won_w - 6),
            head_font,
            TEXT_MUTED,
            "mm",
        )
        self.text(
            (total_x + total_w / 2, hy),
            fit_text(self.t("result.total").upper(), head_font, total_w - 6),
            head_font,
            TEXT_MUTED,
            "mm",
        )
        value_font = font(Face.BOLD, 18)
        row_y = y + 14 + RESULT_HEAD_H
        for unit in result:
            cy = row_y + RESULT_ROW_H // 2
            if unit.rank == 0:
                fill_rounded(self.image, (x0 + 10, row_y + 3, x1 - 10, row_y + RESULT_ROW_H - 3), 10, PANEL_WINNER)
            medal = MEDALS[unit.rank] if unit.rank < len(MEDALS) else PANEL_EDGE
            fill_circle(self.image, (x0 + 36, cy), 28, medal)
            medal_ink = TEXT_DARK if unit.rank < len(MEDALS) else TEXT
            self.text((x0 + 36, cy + 1), str(unit.rank + 1), font(Face.BOLD, 16), medal_ink, "mm")
            names: list[Segment] = []
            for i, seat in enumerate(unit.seats):
                if i:
                    names.append(Segment("text", " + "))
                names.append(self._seat(seat))
            if unit.resigned:
                names.append(Segment("text", "  · " + self.t("badge.resigned")))
            self._draw_line(names, x0 + 60, cy, 18, first_col - 12 - (x0 + 60), headline=True)
            for i, (_, value_of) in enumerate(columns):
                value = value_of(unit)
                ink = GREEN if value > 0 else RED if value < 0 else TEXT_MUTED
                self.text((first_col + col_w * i + col_w / 2, cy), _signed(value), value_font, ink, "mm")
            self.text((won_x + won_w / 2, cy), str(unit.won_cards), value_font, TEXT_MUTED, "mm")
            self.text(
                (total_x + total_w / 2, cy),
                str(unit.total),
                font(Face.BOLD, 26),
                GOLD if unit.rank == 0 else TEXT,
                "mm",
            )
            row_y += RESULT_ROW_H

    # -- seat panels
    def _panel(self, player: PlayerView, x: int, y: int) -> None:
        view = self.view
        w, h = self.panel_w, self.panel_h
        is_turn = view.phase in {Phase.PLAY, Phase.LEAVE} and view.turn == player.seat
        is_winner = self.rank.get(player.seat) == 0
        if is_winner:
            fill_rounded(self.image, (x, y, x + w, y + h), 16, PANEL_WINNER, outline=GOLD, width=3)
        elif is_turn:
            fill_rounded(self.image, (x, y, x + w, y + h), 16, PANEL, outline=GOLD, width=3)
        else:
            fill_rounded(self.image, (x, y, x + w, y + h), 16, PANEL, outline=PANEL_EDGE, width=1)
        # At the end every hand is empty: "out" no longer tells anything, resigning still does.
        inactive = player.resigned or (player.out and not self.finished)
        # Name row: seat swatch with its number, the name, the team marker at the right.
        swatch = 28
        sx, sy = x + PANEL_PAD, y + PANEL_PAD
        fill_circle(self.image, (sx + swatch // 2, sy + swatch // 2), swatch, seat_colour(player.seat))
        self.text((sx + swatch / 2, sy + swatch / 2), str(player.seat + 1), font(Face.BOLD, 16), TEXT_DARK, "mm")
        right = x + w - PANEL_PAD
        if player.team is not None:
            right = self._team_pill(player.team, right, sy + swatch // 2) - 8
        if player.seat == self.view.viewer:
            right = self._pill(self.t("you").upper(), CREAM, right, sy + swatch // 2) - 8
        name_x = sx + swatch + 10
        name_font = font(Face.BOLD, 20)
        name = fit_text(self.names[player.seat], name_font, right - name_x)
        self.text((name_x, sy + swatch / 2), name, name_font, TEXT_MUTED if inactive else TEXT)
        # State tab on the top edge.
        badge = self._badge(player, is_turn, is_winner)
        if badge is not None:
            self._tab(badge, x + w - PANEL_PAD - 4, y)
        # Stats: hand, bribe gems, wealth gems, won cards.
        stats_y = y + 54
        stats = [
            (card_back((18, 26)), player.hand_size, self.t("stat.hand")),
            (gem_icon(24), player.bribe_gems, self.t("stat.bribe")),
            (wealth_icon(26), player.wealth_gems, self.t("stat.wealth")),
            (stack_icon(26), player.won_cards, self.t("stat.won")),
        ]
        col_w = (w - 2 * PANEL_PAD) / len(stats)
        number_font = font(Face.BOLD, 21)
        word_font = font(Face.CONDENSED, 13)
        for i, (icon, number, word) in enumerate(stats):
            cx = round(x + PANEL_PAD + col_w * i)
            dim = inactive and i < 2
            paste_rgba(self.image, icon, (cx, stats_y + 13 - icon.height // 2))
            self.text((cx + 30, stats_y + 13), str(number), number_font, TEXT_MUTED if dim else TEXT)
            self.text((cx, stats_y + 36), fit_text(word, word_font, col_w - 4), word_font, TEXT_MUTED)
        # Won piles by guild, then the neutral cards.
        chips_y = stats_y + 52
        pile_chips = self._pile_chips(player)
        chip_h = CHIP_H_FINISHED if self.finished and self.view.result else CHIP_H
        if pile_chips:
            self._chips(pile_chips, x + PANEL_PAD, chips_y, right=x + w - PANEL_PAD, height=chip_h)
        else:
            self.text((x + PANEL_PAD, chips_y + CHIP_H // 2), self.t("no_piles"), font(Face.REGULAR, 14), TEXT_MUTED)
        neutral_chips = self._neutral_chips(player)
        if neutral_chips:
            self._chips(neutral_chips, x + PANEL_PAD, chips_y + chip_h + 6, right=x + w - PANEL_PAD, height=CHIP_H)

    def _badge(self, player: PlayerView, is_turn: bool, is_winner: bool) -> tuple[str, Rgb, Rgb] | None:
        view = self.view
        if is_winner:
            return self.t("badge.winner"), GOLD, TEXT_DARK
        if player.resigned:
            return self.t("badge.resigned"), RED, TEXT
        if player.out and not self.finished:
            return self.t("badge.out"), PANEL_EDGE, TEXT
        if is_turn and view.phase is Phase.LEAVE:
            return self.t("badge.leaving"), GOLD, TEXT_DARK
        if is_turn:
            return self.t("badge.turn"), GOLD, TEXT_DARK
        if player.seat in view.awaiting:
            return self.t("badge.awaiting"), BLUE, TEXT_DARK
        if view.phase is Phase.SEEDING and player.seeded:
            return self.t("badge.seeded"), GREEN, TEXT_DARK
        return None

    def _tab(self, badge: tuple[str, Rgb, Rgb], right: int, top: int) -> None:
        text, fill, ink = badge
        label = text.upper()
        fnt = fit_font(label, Face.CONDENSED_BOLD, 14, self.panel_w // 2, 9)
        w = round(fnt.getlength(label)) + 22
        h = 22
        box = (right - w, top - h // 2, right, top + h // 2)
        fill_rounded(self.image, (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), h // 2 + 2, FELT_EDGE)
        fill_rounded(self.image, box, h // 2, fill)
        self.text((right - w / 2, top + 1), label, fnt, ink, "mm")

    def _team_pill(self, team: int, right: int, cy: int) -> int:
        """Draw the team marker ending at ``right``; return its left edge."""
        return self._pill(self.t("team", n=team + 1).upper(), TEAM_COLOURS[team % len(TEAM_COLOURS)], right, cy)

    def _pill(self, label: str, colour: Rgb, right: int, cy: int) -> int:
        """Draw a small pill reading ``label`` ending at ``right``; return its left edge."""
        fnt = font(Face.CONDENSED_BOLD, 13)
        w = round(fnt.getlength(label)) + 16
        h = 22
        left = right - w
        fill_rounded(self.image, (left, cy - h // 2, right, cy + h // 2), h // 2, colour)
        self.text((left + w / 2, cy + 1), label, fnt, TEXT_DARK, "mm")
        return left

    def _pile_chips(self, player: PlayerView) -> list[_Chip]:
        view = self.view
        if self.finished and view.result:
            scored: list[PileScore] = [p for unit in view.result for p in unit.piles if p.owner == player.seat]
            scored.sort(key=lambda p: GUILD_ORDER.index(p.guild))
            return [_Chip(p.guild, CardKind.GUILD, p.symbols, p.joker is not None, p.points, p.counted) for p in scored]
        piles: tuple[GuildPileView, ...] = player.piles
        return [
            _Chip(p.guild, CardKind.GUILD, p.symbols) for p in sorted(piles, key=lambda p: GUILD_ORDER.index(p.guild))
        ]

    def _neutral_chips(self, player: PlayerView) -> list[_Chip]:
        counts = dict.fromkeys((CardKind.JOKER, CardKind.PENALTY, CardKind.BONUS, CardKind.POWER), 0)
        for card in player.neutral:
            counts[card_info(card).kind] += 1
        return [_Chip(None, kind, n) for kind, n in counts.items() if n]

    def _chips(self, chips: list[_Chip], x: int, y: int, right: int, height: int) -> None:
        """Draw ``chips`` in one row from ``x``: crest (or neutral mark) and count, points below at the end.

        A joker placed on a pile is the small "?" on the crest's shoulder. Up to six guild chips fit
        a 3-column panel at full size; anything wider is drawn smaller rather than dropped.
        """
        for icon, size, gap in ((22, 16, 5), (22, 16, 3), (18, 14, 2), (15, 12, 1)):
            count_font = font(Face.BOLD, size)
            widths = [self._chip_width(chip, icon, count_font) for chip in chips]
            if sum(widths) + gap * (len(widths) - 1) <= right - x:
                break
        points_font = font(Face.BOLD, 13)
        for chip, width in zip(chips, widths, strict=True):
            fill_rounded(self.image, (x, y, x + width, y + height), 8, CHIP)
            top = y + (CHIP_H - icon) // 2
            if chip.guild is not None:
                sprite = crest_icon(chip.guild, icon, dim=not chip.counted)
            else:
                sprite = neutral_icon(chip.kind, icon)
            paste_rgba(self.image, sprite, (x + 3, top))
            if chip.joker:
                joker = neutral_icon(CardKind.JOKER, 13)
                paste_rgba(self.image, joker, (x + 3 + icon - 9, top - 3))
            text = str(chip.count) if chip.guild is not None else f"×{chip.count}"
            self.text((x + 3 + icon + 3, y + CHIP_H / 2 + 1), text, count_font, TEXT if chip.counted else TEXT_MUTED)
            if chip.points is not None:
                label = _signed(chip.points) if chip.counted else "—"
                points_ink = GREEN if chip.points > 0 else RED if chip.points < 0 else TEXT_MUTED
                self.text((x + width / 2, y + CHIP_H + 6), label, points_font, points_ink, "mm")
            x += width + gap

    @staticmethod
    def _chip_width(chip: _Chip, icon: int, count_font: ImageFont.FreeTypeFont) -> int:
        text = str(chip.count) if chip.guild is not None else f"×{chip.count}"
        width = 3 + icon + 3 + round(count_font.getlength(text)) + 7
        if chip.points is not None:
            width = max(width, round(font(Face.BOLD, 13).getlength(_signed(chip.points))) + 10)
        return width

    # -- legend: what the crests and marks mean
    def _legend_lines(self) -> list[list[tuple[Image.Image, str, int]]]:
        """Return the legend items (icon, name, width) flowed into centred lines."""
        fnt = font(Face.REGULAR, 14)
        items = [(crest_icon(guild, LEGEND_ICON), self.t(f"guild.{guild.value}")) for guild in GUILD_ORDER]
        items += [(neutral_icon(kind, LEGEND_ICON), self.t(f"card.{kind.value}")) for kind in NEUTRAL_MARKS]
        room = WIDTH - 2 * MARGIN - 20
        flowed = [(icon, fit_text(name, fnt, 200)) for icon, name in items]
        sized = [(icon, name, LEGEND_ICON + 5 + round(fnt.getlength(name))) for icon, name in flowed]
        if sum(width for *_, width in sized) + 22 * (len(sized) - 1) <= room:
            return [sized]
        return [sized[: len(GUILD_ORDER)], sized[len(GUILD_ORDER) :]]  # guilds, then neutral cards

    def _legend(self, y: int) -> None:
        fnt = font(Face.REGULAR, 14)
        for line in self.legend:
            total = sum(width for _, _, width in line) + 22 * (len(line) - 1)
            x = (WIDTH - total) // 2
            cy = y + LEGEND_LINE_H // 2
            for icon, name, width in line:
                paste_rgba(self.image, icon, (x, cy - LEGEND_ICON // 2))
                self.text((x + LEGEND_ICON + 5, cy), name, fnt, TEXT_MUTED)
                x += width + 22
            y += LEGEND_LINE_H

    # -- the viewer's hand (private image only)
    def _hand_strip(self, hand: tuple[str, ...], y: int) -> None:
        view = self.view
        x0, x1 = MARGIN, WIDTH - MARGIN
        fill_rounded(self.image, (x0, y, x1, y + HAND_H), 14, STRIP, outline=GOLD_DARK, width=1)
        label_font = font(Face.BOLD, 13)
        self.text((x0 + 18, y + 18), self.t("your_hand").upper(), label_font, GOLD)
        acting = view.viewer in view.awaiting and view.legal_cards is not None
        legal = set(view.legal_cards or ())
        extras: list[tuple[Image.Image, str]] = []
        if acting and view.can_bribe:
            extras.append((gem_icon(26), self.t("can_bribe")))
        if view.seeded_card is not None:
            extras.append((self.card(view.seeded_card, (20, 28)), self.t("seeded_card")))
        note_font = font(Face.REGULAR, 14)
        nx = x1 - 18
        for icon, words in reversed(extras):
            words = fit_text(words, note_font, 260)
            nx -= round(note_font.getlength(words))
            self.text((nx, y + 18), words, note_font, TEXT_MUTED)
            nx -= icon.width + 6
            paste_rgba(self.image, icon, (nx, y + 18 - icon.height // 2))
            nx -= 18
        card_w, _ = CARD_SMALL
        left, right = x0 + 18, x1 - 18
        step = card_w + 8
        if len(hand) > 1:
            step = min(step, (right - left - card_w) // (len(hand) - 1))
        for i, card in enumerate(hand):
            playable = not acting or card in legal
            top = y + 40 + (0 if playable and acting else 8)
            paste_rgba(self.image, self.card(card, CARD_SMALL, dim=not playable), (left + i * step, top))
        if not hand:
            self.text((left, y + 40 + CARD_SMALL[1] // 2), self.t("empty_hand"), font(Face.REGULAR, 16), TEXT_MUTED)

    # -- status strip
    def _rich(self, key: str, **params: Param) -> list[Segment]:
        """Translate ``key`` with segment parameters kept as separate runs (so names can be styled)."""
        markers = {k: f"\x01{k}\x02" if not isinstance(v, str | int) else v for k, v in params.items()}
        parts = _MARKER.split(self.t(key, **markers))
        out: list[Segment] = []
        for i, part in enumerate(parts):
            if i % 2:
                value = params[part]
                if isinstance(value, Segment):
                    out.append(value)
                elif isinstance(value, str | int):
                    out.append(Segment("text", str(value)))
                else:
                    out.extend(value)
            elif part:
                out.append(Segment("text", part))
        return out

    def _seat(self, seat: int) -> Segment:
        name = self.names.get(seat) or self.t("player", n=seat + 1)
        return Segment("seat", name, seat=seat)

    def _seats(self, seats: Sequence[int]) -> list[Segment]:
        out: list[Segment] = []
        for i, seat in enumerate(seats):
            if i:
                out.append(Segment("text", self.t("and") if i == len(seats) - 1 else ", "))
            out.append(self._seat(seat))
        return out

    def _persona(self, persona: Persona) -> Segment:
        return Segment("persona", self.t(f"persona.{persona.value}"), code=persona.value)

    def _cards(self, cards: Sequence[str]) -> list[Segment]:
        out: list[Segment] = []
        for i, card in enumerate(cards):
            if i:
                out.append(Segment("text", " "))
            out.append(Segment("card", str(card_info(card).value), code=card))
        return out

    def _last_round_line(self, last: RoundResultView) -> list[Segment]:
        line = self._rich(
            "status.last_round", n=last.round, seat=self._seat(last.winner), cards=self._cards(last.cards)
        )
        if last.gems:
            line += [Segment("text", " · "), *self._rich("status.gems", n=last.gems)]
        if last.left is not None:
            line += [Segment("text", " · "), *self._rich("status.left", card=self._cards([last.left]))]
        return line

    def _status_lines(self) -> list[list[Segment]]:
        """Return the strip's lines: the headline (what happens now), then context."""
        view = self.view
        if self.finished:
            return [self._finished_line()]
        lines: list[list[Segment]] = []
        if view.phase is Phase.SEEDING:
            lines.append(self._rich("status.seeding"))
        elif view.phase is Phase.LEAVE and view.turn is not None:
            lines.append(self._rich("status.leave", seat=self._seat(view.turn)))
        elif view.turn is not None and view.plays and view.led_persona is not None:
            lines.append(
                self._rich("status.follow", seat=self._seat(view.turn), persona=self._persona(view.led_persona))
            )
        elif view.turn is not None:
            lines.append(self._rich("status.lead", seat=self._seat(view.turn), n=view.round))
        else:
            lines.append(self._rich("status.waiting"))
        turn = {view.turn} if view.turn is not None and view.phase is not Phase.SEEDING else set()
        if view.awaiting and set(view.awaiting) != turn:
            lines.append(self._rich("status.awaiting", seats=self._seats(view.awaiting)))
        if view.last_round is not None and view.phase is not Phase.LEAVE:
            lines.append(self._last_round_line(view.last_round))
        return lines

    def _finished_line(self) -> list[Segment]:
        view = self.view
        winners = [unit for unit in view.result or () if unit.rank == 0]
        if not winners:
            return self._rich("status.over")
        seats = [seat for unit in winners for seat in unit.seats]
        if len(winners) > 1:
            return self._rich("status.shared", seats=self._seats(seats))
        if view.mode is Mode.TEAMS:
            return self._rich("status.team_winner", seats=self._seats(seats))
        return self._rich("status.winner", seats=self._seats(seats))

    def _strip(self, y: int) -> None:
        x0, x1 = MARGIN, WIDTH - MARGIN
        y1 = y + self.strip_h
        fill_rounded(self.image, (x0, y, x1, y1), 14, STRIP, outline=PANEL_EDGE, width=1)
        fill_rounded(self.image, (x0 + 8, y + 10, x0 + 14, y1 - 10), 3, self._accent())
        right = x1 - STRIP_PAD
        text_x = x0 + 28
        block_h = HEADLINE_H + DETAIL_H * (len(self.lines) - 1)
        line_y = y + (self.strip_h - block_h) // 2 + HEADLINE_H // 2
        for index, line in enumerate(self.lines):
            size = HEADLINE_SIZE if index == 0 else DETAIL_SIZE
            self._draw_line(line, text_x, line_y, size, right - text_x, headline=index == 0)
            line_y += HEADLINE_H // 2 + DETAIL_H // 2 if index == 0 else DETAIL_H

    def _accent(self) -> Rgb:
        phase = self.view.phase
        if phase is Phase.FINISHED:
            return GREEN
        if phase is Phase.SEEDING:
            return BLUE
        if phase is Phase.LEAVE:
            return GEM
        return GOLD

    def _segment_width(self, segment: Segment, size: int, headline: bool) -> float:
        if segment.kind == "text":
            return font(Face.BOLD if headline else Face.REGULAR, size).getlength(segment.text)
        if segment.kind == "seat":
            return round(size * 0.6) + 6 + font(Face.BOLD, size).getlength(segment.text)
        if segment.kind == "persona":
            return font(Face.CONDENSED_BOLD, size - 2).getlength(segment.text) + 16
        return font(Face.CONDENSED_BOLD, size - 2).getlength(segment.text) + (size - 3) + 12

    def _draw_line(self, line: list[Segment], x: float, cy: int, size: int, max_w: float, *, headline: bool) -> None:
        segments = self._fit_line(line, size, max_w, headline=headline)
        for segment in segments:
            width = self._segment_width(segment, size, headline)
            if segment.kind == "text":
                fnt = font(Face.BOLD if headline else Face.REGULAR, size)
                self.text((x, cy), segment.text, fnt, TEXT if headline else TEXT_MUTED)
            elif segment.kind == "seat":
                dot = round(size * 0.6)
                fill_circle(self.image, (round(x) + dot // 2, cy + 1), dot, seat_colour(segment.seat))
                self.text((x + dot + 6, cy), segment.text, font(Face.BOLD, size), TEXT)
            else:
                h = size + 8
                top = cy - h // 2 + 1
                if segment.kind == "persona":
                    colour = PERSONA_COLOURS[Persona(segment.code)]
                else:
                    colour = PERSONA_COLOURS[card_info(segment.code).persona]
                box = (round(x), top, round(x + width), top + h)
                fill_rounded(self.image, box, 6, colour, outline=mix(colour, CREAM, 0.45), width=1)
                fnt = font(Face.CONDENSED_BOLD, size - 2)
                if segment.kind == "persona":
                    self.text((x + width / 2, cy + 1), segment.text, fnt, CREAM, "mm")
                else:
                    self.text((x + 6, cy + 1), segment.text, fnt, CREAM)
                    info = card_info(segment.code)
                    icon = size - 3
                    sprite = crest_icon(info.guild, icon) if info.guild is not None else neutral_icon(info.kind, icon)
                    paste_rgba(self.image, sprite, (round(x + width - 5 - icon), cy - icon // 2 + 1))
            x += width

    def _fit_line(self, line: list[Segment], size: int, max_w: float, *, headline: bool) -> list[Segment]:
        """Shorten the longest names (then the line's end) until ``line`` fits in ``max_w``."""
        segments = list(line)
        overflow = sum(self._segment_width(s, size, headline) for s in segments) - max_w
        if overflow <= 0:
            return segments
        name_font = font(Face.BOLD, size)
        widths = {i: name_font.getlength(s.text) for i, s in enumerate(segments) if s.kind == "seat"}
        level = max(water_level(sorted(widths.values(), reverse=True), overflow), name_font.getlength("Ааа…"))
        for i, width in widths.items():
            if width > level:
                segments[i] = Segment("seat", fit_text(segments[i].text, name_font, level), seat=segments[i].seat)
        while segments and sum(self._segment_width(s, size, headline) for s in segments) > max_w:
            last = segments[-1]
            if last.kind == "text" and len(last.text) > 1:
                fnt = font(Face.BOLD if headline else Face.REGULAR, size)
                room = fnt.getlength(last.text) - (
                    sum(self._segment_width(s, size, headline) for s in segments) - max_w
                )
                segments[-1] = Segment("text", fit_text(last.text, fnt, max(room, 0)))
                if fnt.getlength(segments[-1].text) <= room:
                    break
            segments.pop()
        return segments


# ----------------------------------------------------------------------------- compact board and hand
#: The compact board that the board message shows. A 400-px phone shows an embed image at most
#: 280x280 px (:data:`~bot.render.common.PHONE_BOX`, stricter than the desktop's 400x280), so this
#: one is square, 560x560: shown at exactly half size, where no text under 22 px
#: (:func:`~bot.render.common.min_font_size`) reads as 11 px. The size never changes with the
#: game's state, so the message does not jump between edits. It keeps what a player reads at a
#: glance (trump, round, the trick by seat, whose turn, and per player hand, gems, wealth and cards
#: won); the piles, neutral cards, last round and itemised scores are on the detailed board
#: (:func:`render_masti_board`), sent privately by the **Full board** button.
COMPACT_SIZE = (560, 560)
#: Every font size the compact board and the hand picture use (the readability test reads these).
COMPACT_TEXT = 22
COMPACT_NAME = 24
COMPACT_NUMBER = 26
COMPACT_FONT_SIZES = (COMPACT_TEXT, COMPACT_NAME, COMPACT_NUMBER)
#: A trick card and the step between two: up to four seats draw the larger card (the trump and
#: four fit the 528-px row), five and six the smaller one (the trump and six). The size follows the
#: seat count alone, so it too stays put through a game.
COMPACT_CARD_LARGE = (90, 126)
COMPACT_CARD_SMALL = (68, 96)
COMPACT_CARD_GAP = 6
COMPACT_BADGE = 32
COMPACT_ICON = 26
COMPACT_PAD = 16
#: Where the trick's cards start (under the "Trump" and round line); rows are at most this tall.
COMPACT_CARDS_TOP = 40
COMPACT_ROW_MAX = 80
COMPACT_ROW_GAP = 6
#: Width of one count (icon and a two-digit number) at the right end of a player row.
COMPACT_STAT_W = 66
#: The hand picture of the private panel: one row of cards, the same card language as the board.
HAND_CARD = (88, 124)
HAND_GAP = 8
HAND_PAD = 12
#: At most this many cards per row, rows filled evenly: an 8-card hand is two rows of 4, 400 px wide,
#: which a phone shows at full size (one row of 8 was 784 px, shown at half size). The largest hand
#: (16 cards, four rows of 4) is 400x544 and shown at 0.51, where its 22-px text reads as 11.3 px.
HAND_MAX_CARDS = 5


def compact_card(card: str, size: tuple[int, int], initial: str, dim: bool = False) -> Image.Image:
    """Return ``card``'s face for the compact pictures: the board's card, its persona letter at ≥ 22 px.

    Every text on it (value, the neutral mark's "+2", the initial) is at least :data:`COMPACT_TEXT`.
    """
    face = card_face(card, size, "", "", dim, compact=True).copy()
    info = card_info(card)
    ink = mix(PERSONA_COLOURS[info.persona], CREAM, 0.8 if not dim else 0.4)
    rim = max(2, round(size[0] * 0.035))
    ImageDraw.Draw(face).text(
        (size[0] - rim - 2, rim), initial, font=font(Face.CONDENSED_BOLD, COMPACT_TEXT), fill=ink, anchor="ra"
    )
    return face


class _Compact:
    """One drawing of the compact board: trump and round on top, the trick with seat badges, then a row per seat."""

    def __init__(self, view: MastiView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.names = {p.seat: clean_text(names[p.seat]) if p.seat < len(names) else "" for p in view.players}
        for seat, name in self.names.items():
            self.names[seat] = name or self.t("player", n=seat + 1)
        self.initials = {persona: self.t(f"persona.{persona.value}")[:1] for persona in Persona}
        self.image = Image.new("RGB", COMPACT_SIZE, FELT_EDGE)
        self.draw_ = ImageDraw.Draw(self.image)
        self.small = font(Face.BOLD, COMPACT_TEXT)
        self.name_font = font(Face.BOLD, COMPACT_NAME)
        self.number = font(Face.BOLD, COMPACT_NUMBER)
        self.card_size = COMPACT_CARD_LARGE if view.num_seats <= 4 else COMPACT_CARD_SMALL
        # The seat badges hang under the cards; the player rows start under them.
        self.badge_y = COMPACT_CARDS_TOP + self.card_size[1] + 20
        self.rows_top = self.badge_y + COMPACT_BADGE // 2 + 12

    def t(self, key: str, **params: object) -> str:
        """Translate ``render_masti.<key>``."""
        return translate(self.locale, f"render_masti.{key}", **params)

    def card(self, card: str, dim: bool = False) -> Image.Image:
        return compact_card(card, self.card_size, self.initials[card_info(card).persona], dim)

    def badge(self, seat: int, centre: tuple[int, int], diameter: int = COMPACT_BADGE) -> None:
        seat_badge(self.image, centre, diameter, seat, number_size=COMPACT_TEXT)

    def draw(self) -> Image.Image:
        w, h = COMPACT_SIZE
        fill_rounded(self.image, (0, 0, w, h), 18, FELT, outline=FELT_LINE, width=2)
        self._top()
        self._players()
        return self.image

    def _top(self) -> None:
        view, d = self.view, self.draw_
        x0, y_cards = COMPACT_PAD, COMPACT_CARDS_TOP
        right = f"{self.t('round')} {view.round}/{view.max_rounds}"
        d.text((COMPACT_SIZE[0] - COMPACT_PAD, 10), right, font=self.small, fill=TEXT, anchor="ra")
        if view.phase is Phase.FINISHED and view.result:
            # No trump any more: the standings take the whole width.
            d.text((x0, 10), self.t("result.title"), font=self.small, fill=GOLD, anchor="la")
            self._ranking(x0, y_cards)
            return
        d.text((x0, 10), self.t("trump"), font=self.small, fill=GOLD, anchor="la")
        if view.trump is not None:
            paste_rgba(self.image, self.card(view.trump), (x0, y_cards))
        else:
            paste_rgba(self.image, card_back(self.card_size), (x0, y_cards))
        # The trump deck's size under the trump card (the full board shows a rebuilt deck's cards).
        back = card_back((22, 31))
        paste_rgba(self.image, back, (x0 + 4, self.badge_y - back.height // 2))
        d.text((x0 + 32, self.badge_y), str(view.trump_deck_size), font=self.number, fill=TEXT, anchor="lm")
        self._trick(x0 + self.card_size[0] + COMPACT_PAD, y_cards)

    def _order(self) -> list[int]:
        """Return the seats in playing order from the round's lead (seat order when none)."""
        seats = [p.seat for p in self.view.players if not p.out]
        lead = self.view.lead if self.view.lead is not None else self.view.first_seat
        if lead in seats:
            i = seats.index(lead)
            seats = seats[i:] + seats[:i]
        return seats

    def _trick(self, x: int, y: int) -> None:
        """Draw a slot per seat still in the round, in playing order, each over its seat badge."""
        view, d = self.view, self.draw_
        plays = {play.seat: play for play in view.plays}
        winner = winning_seat(view.plays, view.trump_persona)
        seeded = {p.seat for p in view.players if p.seeded and view.phase is Phase.SEEDING}
        cw, ch = self.card_size
        step = cw + COMPACT_CARD_GAP
        order = self._order()
        room = COMPACT_SIZE[0] - COMPACT_PAD - x
        x += max(0, (room - (len(order) * step - COMPACT_CARD_GAP)) // 2)
        for i, seat in enumerate(order):
            cx = x + i * step
            play = plays.get(seat)
            if seat == winner:  # the card taking the round so far
                fill_rounded(self.image, (cx - 3, y - 3, cx + cw + 3, y + ch + 3), 11, GOLD)
            if play is not None and play.card is not None:
                paste_rgba(self.image, self.card(play.card), (cx, y))
            elif seat in seeded:  # its card went face down into the trump deck: only that much is public
                paste_rgba(self.image, card_back(self.card_size), (cx, y))
            else:
                # A play, a seeding card or the card to leave: the seat the table waits for.
                awaited = seat == view.turn or seat in view.awaiting
                edge = GOLD if awaited else FELT_LINE
                fill_rounded(self.image, (cx, y, cx + cw, y + ch), 9, TABLE_FELT, outline=edge, width=3)
                if play is not None:  # a bribe: the seat paid a gem to sit the round out
                    paste_rgba(self.image, gem_icon(40), (cx + (cw - 40) // 2, y + (ch - 40) // 2))
                elif awaited:
                    d.text((cx + cw / 2, y + ch / 2), "?", font=self.number, fill=GOLD, anchor="mm")
            self.badge(seat, (cx + cw // 2, self.badge_y))

    def _ranking(self, x: int, y: int) -> None:
        """Draw the final standings in place of the trick: place, seat badges and the total (two columns past 3)."""
        d = self.draw_
        units = sorted(self.view.result or (), key=lambda u: u.rank)[:6]
        column_w = (COMPACT_SIZE[0] - COMPACT_PAD - x) // 2
        for index, unit in enumerate(units):
            column, row = divmod(index, 3)
            rx, ry = x + column * column_w, y + 22 + row * 48
            colour = MEDALS[unit.rank] if unit.rank < len(MEDALS) else TEXT
            d.text((rx, ry), f"{unit.rank + 1}.", font=self.number, fill=colour, anchor="lm")
            bx = rx + 44
            for seat in unit.seats:
                self.badge(seat, (bx + COMPACT_BADGE // 2, ry))
                bx += COMPACT_BADGE + 4
            total = _signed(unit.total) if unit.total < 0 else str(unit.total)
            d.text((bx + 6, ry), total, font=self.number, fill=TEXT, anchor="lm")

    def _players(self) -> None:
        w, h = COMPACT_SIZE
        players = self.view.players[:6]
        count = max(1, len(players))
        room = h - COMPACT_PAD // 2 - self.rows_top
        row_h = min(COMPACT_ROW_MAX, (room - (count - 1) * COMPACT_ROW_GAP) // count)
        for index, player in enumerate(players):
            y = self.rows_top + index * (row_h + COMPACT_ROW_GAP)
            self._row(player, COMPACT_PAD, y, w - 2 * COMPACT_PAD, row_h)

    def _row(self, player: PlayerView, x: int, y: int, w: int, h: int) -> None:
        """Draw one seat's row: badge, name and team on the left, its four counts on the right."""
        view, d = self.view, self.draw_
        is_turn = player.seat == view.turn or player.seat in view.awaiting
        # The seat the table waits for: a gold frame and a warmer fill, both visible at half size.
        fill_rounded(
            self.image,
            (x, y, x + w, y + h),
            12,
            mix(PANEL, GOLD, 0.16) if is_turn else PANEL,
            outline=GOLD if is_turn else PANEL_EDGE,
            width=4 if is_turn else 2,
        )
        mid = y + h // 2
        badge_d = 34
        self.badge(player.seat, (x + 10 + badge_d // 2, mid), badge_d)
        name_x = x + 10 + badge_d + 10
        stats = [
            (card_back((19, 26)), player.hand_size),
            (gem_icon(COMPACT_ICON), player.bribe_gems),
            (wealth_icon(COMPACT_ICON), player.wealth_gems),
            (stack_icon(COMPACT_ICON), player.won_cards),
        ]
        stats_x = x + w - 6 - len(stats) * COMPACT_STAT_W
        limit = stats_x - 8
        if player.team is not None:
            tag = self.t("team_short", n=player.team + 1)
            tw = int(self.small.getlength(tag)) + 14
            colour = TEAM_COLOURS[player.team % len(TEAM_COLOURS)]
            fill_rounded(self.image, (limit - tw, mid - 15, limit, mid + 15), 9, colour)
            d.text((limit - tw / 2, mid + 1), tag, font=self.small, fill=TEXT_DARK, anchor="mm")
            limit -= tw + 8
        name = fit_text(self.names[player.seat], self.name_font, limit - name_x)
        # Everyone is out of cards at the end; only a resignation still sets a player apart then.
        muted = player.resigned or (player.out and view.phase is not Phase.FINISHED)
        d.text((name_x, mid + 1), name, font=self.name_font, fill=TEXT_MUTED if muted else TEXT, anchor="lm")
        for i, (icon, value) in enumerate(stats):
            sx = stats_x + i * COMPACT_STAT_W
            paste_rgba(self.image, icon, (sx + (COMPACT_ICON - icon.width) // 2, mid - icon.height // 2))
            d.text((sx + COMPACT_ICON + 4, mid + 1), str(value), font=self.number, fill=TEXT, anchor="lm")


def render_masti_compact(view: MastiView, names: Sequence[str], locale: str) -> bytes:
    """Draw the compact «Масти Власти» board (:data:`COMPACT_SIZE`) from the PUBLIC view; return PNG bytes.

    Raises:
        ValueError: If ``view`` is not the public view, or carries hidden cards.
    """
    if view.viewer is not None:
        raise ValueError("the compact board is drawn from the public view only")
    check_visibility(view)
    with DRAW_LOCK:
        image = _Compact(view, names, locale).draw()
        palette = board_palette()  # the detailed board's fixed palette: same colours, no per-image fitting
    return encode_png(image, palette)


def hand_size_px(cards: int) -> tuple[int, int]:
    """Return the size of the hand picture for a hand of ``cards`` cards (a fixed height per row count)."""
    rows = max(1, math.ceil(cards / HAND_MAX_CARDS))
    per_row = hand_per_row(cards)
    width = 2 * HAND_PAD + per_row * HAND_CARD[0] + (per_row - 1) * HAND_GAP
    return max(width, 300), 2 * HAND_PAD + rows * HAND_CARD[1] + (rows - 1) * HAND_GAP


def hand_per_row(cards: int) -> int:
    """Return how many cards a row of the hand picture holds (rows filled evenly, at most :data:`HAND_MAX_CARDS`)."""
    rows = max(1, math.ceil(cards / HAND_MAX_CARDS))
    return max(1, math.ceil(cards / rows))


def render_masti_hand(view: MastiView, locale: str) -> bytes | None:
    """Draw the viewer's own hand as cards (the playable ones bright, the rest dimmed); ``None`` without one.

    Drawn from the viewer's own view only: the cards in its hand and its own legal cards.
    """
    if view.viewer is None:
        return None
    check_visibility(view)
    own = next((p for p in view.players if p.seat == view.viewer), None)
    hand = view.hand if view.hand is not None else (own.hand if own is not None else None)
    if not hand:
        return None
    legal = set(view.legal_cards) if view.legal_cards is not None else None
    initials = {persona: translate(locale, f"render_masti.persona.{persona.value}")[:1] for persona in Persona}
    with DRAW_LOCK:
        size = hand_size_px(len(hand))
        image = Image.new("RGB", size, FELT_EDGE)
        fill_rounded(image, (0, 0, *size), 14, FELT, outline=FELT_LINE, width=2)
        for index, card in enumerate(hand):
            row, col = divmod(index, hand_per_row(len(hand)))
            x = HAND_PAD + col * (HAND_CARD[0] + HAND_GAP)
            y = HAND_PAD + row * (HAND_CARD[1] + HAND_GAP)
            dim = legal is not None and card not in legal
            paste_rgba(image, compact_card(card, HAND_CARD, initials[card_info(card).persona], dim), (x, y))
        palette = board_palette()
    return encode_png(image, palette)


def _signed(value: int) -> str:
    """Format a score term with its sign (a true minus sign).

    >>> _signed(3), _signed(-6), _signed(0)
    ('+3', '−6', '0')
    """
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


# ----------------------------------------------------------------------------- palette
@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """Return the fixed 256-colour palette every board is encoded with (built once: under a second).

    It is fitted to hand-built reference boards (every phase, seat and team colour, the results
    table, a private hand) plus a sheet of every card face at every size, so
    any board maps onto it faithfully, several times faster than fitting a palette per image.
    Being fixed, and built without the engine, it keeps the output a function of the arguments.
    """
    boards = [_Board(view, _REFERENCE_NAMES, "ru").draw() for view in _reference_views()]
    sheet_w = 13 * (CARD_LARGE[0] + 4)
    sheet = Image.new("RGB", (sheet_w, 4 * (CARD_LARGE[1] + CARD_SMALL[1] + CARD_MINI[1] + 12)), TABLE_FELT)
    y = 0
    for persona in Persona:
        for size in (CARD_LARGE, CARD_SMALL, CARD_MINI):
            for value in range(1, 14):
                card = f"{persona.value}{value:02d}"
                face = card_face(card, size, "А", "Альдо" if size == CARD_LARGE else "", dim=size == CARD_MINI)
                paste_rgba(sheet, face, (value * (size[0] + 4) - size[0] - 4, y))
            y += size[1] + 4
    boards.append(sheet)
    return palette_from(boards)


_REFERENCE_NAMES = ["Наташа", "Саша", "Григорий", "Alex", "Мария", "Bob"]


def _player(seat: int, won: Sequence[str], **fields: object) -> PlayerView:
    """Return a hand-built player view whose piles and neutral pile are computed from ``won``."""
    piles: dict[Guild, list[str]] = {}
    for card in won:
        guild = card_info(card).guild
        if guild is not None:
            piles.setdefault(guild, []).append(card)
    neutral = tuple(card for card in won if card_info(card).guild is None)
    values: dict[str, object] = {
        "seat": seat,
        "hand_size": 4,
        "bribe_gems": 2,
        "wealth_gems": 1,
        "piles": tuple(
            GuildPileView(guild=g, cards=tuple(piles[g]), symbols=sum(card_info(c).symbols for c in piles[g]))
            for g in GUILD_ORDER
            if g in piles
        ),
        "neutral": neutral,
        "won_cards": len(won),
        "power_cards": sum(1 for card in neutral if card_info(card).kind is CardKind.POWER),
    }
    values.update(fields)
    return PlayerView.model_validate(values)


def _reference_views() -> list[MastiView]:
    """Return hand-built views that between them show every element of a board."""
    won = [
        ("A12", "U09", "P07", "A09", "U04", "A04", "A08", "P04", "A06", "A01", "P02", "U03", "E13"),
        ("E05", "A05", "E06", "P06", "E09", "U07", "P01", "A02", "A13", "P13"),
        ("P05", "U05", "P08", "E08", "U06", "P09", "E02", "A03", "U13"),
        ("E07", "P10", "U08", "E10", "A07", "E04", "E01", "P03"),
        ("U10", "E12", "A10", "U12", "A11", "P11", "U01", "U02", "E03"),
        (),
    ]
    players = tuple(
        _player(seat, won[seat], team=seat % 3, out=seat == 2, resigned=seat == 5, seeded=seat in (3, 4))
        for seat in range(6)
    )
    six = MastiView(
        viewer=None,
        num_seats=6,
        version=40,
        phase=Phase.PLAY,
        mode=Mode.TEAMS,
        teams=((0, 3), (1, 4), (2, 5)),
        first_seat=0,
        round=7,
        max_rounds=12,
        players=players,
        trump="E11",
        trump_persona=Persona.ENZO,
        trump_deck_size=2,
        trump_deck_cards=("U11", "P12"),
        left_cards=("E11", "P12"),
        lead=1,
        led_persona=Persona.UGO,
        plays=(PlayView(seat=1, card="U11"), PlayView(seat=3), PlayView(seat=4, card="A11")),
        turn=5,
        awaiting=(5,),
        last_round=RoundResultView(round=6, winner=4, cards=("P12", "E02", "A07", "E11"), trump="E11", gems=2),
    )
    seeding = six.model_copy(
        update={
            "phase": Phase.SEEDING,
            "round": 1,
            "trump": None,
            "trump_persona": None,
            "plays": (),
            "turn": None,
            "awaiting": (3, 4),
            "last_round": None,
            "left_cards": (),
            "trump_deck_cards": None,
        }
    )
    scores = (
        ScoreBreakdown(
            seats=(0,),
            piles=(
                PileScore(owner=0, guild=Guild.ARISTOCRATS, cards=("A12", "U09"), symbols=3, joker="A01", points=-1),
                PileScore(owner=0, guild=Guild.CRAFTSMEN, cards=("A04", "A08"), symbols=3, points=6),
            ),
            bonus_cards=1,
            bonus_points=2,
            penalty_cards=1,
            penalty_points=-2,
            power_cards=1,
            power_points=-1,
            gems=3,
            total=7,
            won_cards=13,
            rank=0,
        ),
        ScoreBreakdown(
            seats=(1,),
            piles=(PileScore(owner=1, guild=Guild.ARISTOCRATS, cards=("E05",), symbols=1, points=1),),
            bonus_cards=0,
            bonus_points=0,
            penalty_cards=1,
            penalty_points=-2,
            power_cards=2,
            power_points=-3,
            gems=0,
            total=-4,
            won_cards=10,
            rank=1,
        ),
        ScoreBreakdown(
            seats=(2,),
            piles=(),
            bonus_cards=0,
            bonus_points=0,
            penalty_cards=0,
            penalty_points=0,
            power_cards=0,
            power_points=0,
            gems=1,
            total=1,
            won_cards=9,
            rank=2,
            resigned=True,
        ),
    )
    finished = MastiView(
        viewer=None,
        num_seats=3,
        version=90,
        phase=Phase.FINISHED,
        mode=Mode.STANDARD,
        first_seat=0,
        round=16,
        max_rounds=16,
        players=tuple(p.model_copy(update={"team": None, "hand_size": 0, "bribe_gems": 0}) for p in players[:3]),
        trump_deck_size=0,
        result=scores,
    )
    hand = ("A03", "P05", "P11", "E08", "U01", "U13")
    private = MastiView(
        viewer=1,
        num_seats=4,
        version=12,
        phase=Phase.PLAY,
        mode=Mode.STANDARD,
        first_seat=0,
        round=4,
        max_rounds=12,
        players=tuple(
            p.model_copy(update={"team": None, "out": False, "resigned": False, "hand": hand if p.seat == 1 else None})
            for p in players[:4]
        ),
        trump="P02",
        trump_persona=Persona.PIETRA,
        trump_deck_size=8,
        lead=0,
        led_persona=Persona.PIETRA,
        plays=(PlayView(seat=0, card="P07"),),
        turn=1,
        awaiting=(1,),
        hand=hand,
        legal_cards=("P05", "P11"),
        can_bribe=True,
    )
    return [six, seeding, finished, private]


# ----------------------------------------------------------------------------- samples and timing
SAMPLE_NAMES = [
    "Наташа",
    "Саша \N{FIRE}\N{FIRE}",
    "Григорий Константинопольский-Заде",
    "Alex",
    "\N{GRINNING FACE}",
    "Мария-Антуанетта \N{CROWN}",
]


def sample_views() -> dict[str, tuple[MastiView, list[str]]]:
    """Return views of seeded random games played with the real engine, at telling moments.

    3, 4 (teams), 5 and 6 players mid-round, the 6-player seeding and leave phases, finished games,
    and one seat's private view.
    """
    # Imported here, not at module level: only the samples need the engine, never the renderer.
    from games.core.rng import GameRng
    from games.masti.engine import MastiEngine
    from games.masti.models import MastiOptions

    engine = MastiEngine()

    def play(seats: int, seed: str, stop: Callable[[MastiView], bool], *, teams: bool = False) -> MastiState:
        state = engine.setup(seats, MastiOptions(teams=teams), seed).state
        while state.phase is not Phase.FINISHED and not stop(engine.view(state, None)):
            seat = min(engine.active_seats(state))
            actions = engine.legal_actions(state, seat)
            state = engine.apply(state, seat, GameRng.for_step(seed, state.version, "sample").choice(actions)).state
        return state

    def public(seats: int, seed: str, stop: Callable[[MastiView], bool], *, teams: bool = False) -> MastiView:
        return engine.view(play(seats, seed, stop, teams=teams), None)

    def mid_round(round_: int, plays: int) -> Callable[[MastiView], bool]:
        return lambda v: v.phase is Phase.PLAY and v.round >= round_ and len(v.plays) >= plays

    def bribed(round_: int, plays: int) -> Callable[[MastiView], bool]:
        return lambda v: mid_round(round_, plays)(v) and any(p.card is None for p in v.plays)

    never: Callable[[MastiView], bool] = lambda _v: False  # noqa: E731 - a named predicate reads best here
    names = SAMPLE_NAMES
    private_state = play(4, "masti-private", mid_round(3, 2))
    private_seat = engine.view(private_state, None).turn
    return {
        "3p-mid-round": (public(3, "masti-3", bribed(6, 2)), names),
        "4p-teams": (public(4, "masti-4t", bribed(5, 3), teams=True), names),
        "5p-mid-round": (public(5, "masti-5", bribed(7, 3)), names),
        "6p-seeding": (public(6, "masti-6s", lambda v: any(p.seeded for p in v.players)), names),
        "6p-leave": (public(6, "masti-6l", lambda v: v.phase is Phase.LEAVE and v.round >= 3), names),
        "6p-mid-round": (public(6, "masti-6", bribed(9, 4)), names),
        "4p-private": (engine.view(private_state, private_seat), names),
        "3p-finished": (public(3, "masti-3f", never), names),
        "5p-finished": (public(5, "masti-5f", never), names),
        "6p-finished": (public(6, "masti-6f", never), names),
    }


def _main() -> None:
    """Write the sample boards to /tmp/render-samples/ and report render time and size per sample."""
    write_samples("masti", sample_views(), render_masti_board, runs=200)


if __name__ == "__main__":
    _main()
