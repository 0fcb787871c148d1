"""Board image of Переворот (Coup), drawn from a ``CoupView`` only.

The public board (``view.viewer is None``) shows what every player may know: coins, face-down cards
as card backs, revealed cards face up, the court deck size, the pending action, block and challenge,
who is losing a card and whom the table waits for. The image never shows a clock: it would
stand still while the embed's live countdown runs on. A view for one seat may also carry
that seat's own hand, which is then drawn face up in its panel (for the private "my hand" image);
a view carrying any other seat's hand is refused, so a leak in a caller cannot reach an image.

Sized for where Discord shows it: the board is 600 x 600 for every table and phase. A 400-px phone
shows an embed image at most 280 x 280, the stricter of its two boxes, so the board is square and
shown at 280/600 there; no font is under 24 px (11 px as shown) and the size never changes between
edits. Being read that small, it holds few, big things: per seat a numbered badge and name, the
cards, the coins and one status pill; the court deck in the header; the pending action, block and
challenge in the strip (which drops its "waiting for" line, said by the pills too, before it cuts a
name or a card). Cards on the board show only their emblem, the same picture as the character's
emoji in the panel and on the buttons (crown, dagger, anchor, scroll, rose); the strip names them.
An eliminated seat goes grey, its revealed cards keep their colours. :func:`render_coup_hand` draws
the viewer's own cards, named, 280 px wide (a phone shows it at full size), for the private panel.

Run ``python -m bot.render.coup`` to write sample boards to ``/tmp/render-samples/`` and print
render time and PNG size per seat count.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.i18n import translate
from bot.render.common import (
    BLUE,
    CREAM,
    DRAW_LOCK,
    ELLIPSIS,
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
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Face,
    Rgb,
    clean_text,
    downsample,
    encode_png,
    fill_rounded,
    fit_text,
    font,
    hires_canvas,
    min_font_size,
    mix,
    palette_from,
    paste_rgba,
    rounded_mask,
    seat_badge,
    water_level,
    write_samples,
)
from games.coup.models import (
    ActionKind,
    Card,
    ChallengeView,
    CoupView,
    PendingActionView,
    PendingBlockView,
    Phase,
    PlayerView,
)

__all__ = ["render_coup_board", "render_coup_hand"]

# ----------------------------------------------------------------------------- layout
#: The board is 600 x 600 for every table size and phase: square like the phone's 280 x 280 embed
#: box, the stricter of the two boxes the client fits it in, so it shows at 280/600 there (and the
#: same on the desktop, where the 280-px height cap binds) and never changes size between edits.
WIDTH = 600
HEIGHT = 600
MARGIN = 10
GAP = 8
HEADER_H = 36
PANEL_PAD = 8
#: Space between the name row and the cards.
NAME_GAP = 6
#: Space between the cards and the coin-and-status column at their right.
COLUMN_GAP = 10
#: The column right of the cards is at least this wide: room for "ЖДЁМ" or "WAITING" in a pill.
COLUMN_MIN = 120
STRIP_PAD = 6
#: The strip always holds this many lines (a headline and two more), so its height never changes.
STRIP_LINES = 3
HEADLINE_H = 31
DETAIL_H = 29
#: A name in the strip is cut to this width (about fourteen letters) before the line is laid out, so a
#: long name leaves room for the rest of its line.
STRIP_NAME_MAX = 260
#: A seat token in a strip line is this much taller than the line's font: room for its number at
#: :data:`MIN_FONT` (a token only ``size + 2`` across drew its number at 12 px, 8 px as shown).
TOKEN_EXTRA = 5
BADGE_H = 30
SWATCH = 30
COIN_ICON = 28
#: Font sizes: none under :data:`MIN_FONT`, the size that shows 11 px tall on a phone (24 px).
MIN_FONT = min_font_size(WIDTH, HEIGHT)
TITLE_SIZE = 26
NAME_SIZE = 26
SEAT_NUMBER_SIZE = MIN_FONT
COIN_SIZE = 28
BADGE_SIZE = MIN_FONT
DECK_SIZE = MIN_FONT
DECK_COUNT_SIZE = 28
HEADLINE_SIZE = 26
DETAIL_SIZE = MIN_FONT
STAMP_SIZE = 28
FONT_SIZES = (
    TITLE_SIZE,
    NAME_SIZE,
    SEAT_NUMBER_SIZE,
    COIN_SIZE,
    BADGE_SIZE,
    DECK_SIZE,
    DECK_COUNT_SIZE,
    HEADLINE_SIZE,
    DETAIL_SIZE,
    STAMP_SIZE,
)
#: Card shape on the board (width : height); cards there show their emblem only, the same picture
#: as the card's emoji in the panel and on the buttons (its name is in the status strip).
CARD_MAX = (44, 60)
#: The largest card, when two players share one row of tall panels.
CARD_BIG = (120, 164)
#: The private hand picture: up to five cards (an exchange pool and a lost card), each named below,
#: 280 px wide and at most 280 high so that even a phone shows it at full size (11 px text reads as
#: it is); with four or five cards the cards get narrower to fit the row.
HAND_WIDTH = 280
HAND_HEIGHT = 162
HAND_CARD = (70, 98)
HAND_GAP = 6
HAND_LABEL_SIZE = 12
HAND_NOTE_SIZE = 12
HAND_COIN_SIZE = 18
HAND_FONT_SIZES = (HAND_LABEL_SIZE, HAND_NOTE_SIZE, HAND_COIN_SIZE)

#: Characters: card colour (the usual Coup colours, dark enough for cream names: contrast >= 4.5)
#: and the emblem drawn on the face.
CARD_COLOURS: dict[Card, Rgb] = {
    Card.DUKE: (124, 63, 176),
    Card.ASSASSIN: (46, 46, 56),
    Card.CAPTAIN: (34, 100, 196),
    Card.AMBASSADOR: (30, 118, 70),
    Card.CONTESSA: (186, 42, 66),
}
CARD_BACK: Rgb = (38, 42, 92)
WAX: Rgb = (200, 51, 74)

#: Phases in which one seat holds the turn (the draft is simultaneous; a finished game has none).
TURN_PHASES = frozenset(
    {Phase.DECLARE, Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK, Phase.PROVE, Phase.LOSE_INFLUENCE, Phase.EXCHANGE}
)

# Fonts hold FreeType state that is not safe to share between threads; the bot renders through
# ``asyncio.to_thread``, so drawing is serialised (a render takes milliseconds) and encoding is not.


# ----------------------------------------------------------------------------- public entry point
def render_coup_board(
    view: CoupView,
    names: Sequence[str],
    locale: str,
) -> bytes:
    """Draw the Coup board for ``view`` and return it as PNG bytes.

    The image depends only on the arguments, so the same call always yields the same bytes.

    Args:
        view: The view to draw: the public view (``viewer=None``) for the table, or one seat's view,
            whose own hand is then drawn face up.
        names: Display names by seat; missing or undrawable names fall back to "Игрок N".
        locale: Locale of the labels (``ru``, ``en``, or a Discord locale such as ``en-US``).

    Returns:
        The PNG-encoded board.

    Raises:
        ValueError: If the view carries a hand or private choices that its viewer may not see.
    """
    _check_visibility(view)
    with DRAW_LOCK:
        image = _Board(view, names, locale).draw()
        palette = board_palette()
    return encode_png(image, palette)


def render_coup_hand(view: CoupView, names: Sequence[str], locale: str) -> bytes | None:
    """Draw the viewer's own cards for their private panel (PNG), or ``None`` for a spectator.

    The cards are the board's cards (colour and emblem, the same picture as the emoji on the
    buttons), named underneath: the hand face up with a gold rim (during an exchange, the whole
    pool to choose from), then the cards already lost, crossed out; the coins at the top right.
    """
    _check_visibility(view)
    if view.viewer is None:
        return None
    del names  # the hand is the viewer's own: no names on it
    me = view.players[view.viewer]
    cards = list(view.choices) if view.phase is Phase.EXCHANGE and view.choices else list(me.hand or ())
    with DRAW_LOCK:
        image = Image.new("RGB", (HAND_WIDTH, HAND_HEIGHT), FELT_EDGE)
        fill_rounded(image, (0, 0, HAND_WIDTH, HAND_HEIGHT), 14, FELT, outline=FELT_LINE, width=2)
        d = ImageDraw.Draw(image)

        def label(card: Card) -> str:
            return translate(locale, f"render.coup.card.{card.value}")

        note_font = font(Face.REGULAR, HAND_NOTE_SIZE)
        coin_font = font(Face.BOLD, HAND_COIN_SIZE)
        coins = str(me.coins)
        coins_x = HAND_WIDTH - 12 - round(coin_font.getlength(coins)) - 6 - 22
        paste_rgba(image, coin_icon(22), (coins_x, 7))
        d.text((coins_x + 28, 18), coins, font=coin_font, fill=TEXT, anchor="lm")
        note = fit_text(translate(locale, "render.coup.private"), note_font, coins_x - 18)
        d.text((12, 18), note, font=note_font, fill=TEXT_MUTED, anchor="lm")
        size = _hand_card_size(len(cards) + len(me.revealed))
        sprites = [(card, card_face(card, "", size, "hand")) for card in cards]
        sprites += [(card, card_face(card, "", size, "revealed")) for card in me.revealed]
        card_w, card_h = size
        row_w = len(sprites) * card_w + max(0, len(sprites) - 1) * HAND_GAP
        x = (HAND_WIDTH - row_w) // 2
        top = 36 + (HAND_CARD[1] - card_h) // 2  # narrower cards stay centred on the row
        label_font = font(Face.CONDENSED_BOLD, HAND_LABEL_SIZE)
        for index, (card, sprite) in enumerate(sprites):
            paste_rgba(image, sprite, (x, top))
            lost = index >= len(cards)
            text = fit_text(label(card), label_font, card_w + HAND_GAP - 2)
            colour = TEXT_MUTED if lost else CREAM
            d.text((x + card_w / 2, 36 + HAND_CARD[1] + 12), text, font=label_font, fill=colour, anchor="mm")
            x += card_w + HAND_GAP
        palette = board_palette()
    return encode_png(image, palette)


def _hand_card_size(count: int) -> tuple[int, int]:
    """Return the size of each of ``count`` cards in the hand picture: :data:`HAND_CARD`, or narrower to fit."""
    room = HAND_WIDTH - 2 * HAND_GAP - max(0, count - 1) * HAND_GAP
    width = min(HAND_CARD[0], room // max(1, count))
    return width, round(width * HAND_CARD[1] / HAND_CARD[0])


def _claim_at(line: Sequence[Segment]) -> int | None:
    """Return where a status line's claim begins (its "·" run: "… · claims Captain"), or ``None``."""
    return next((i for i, seg in enumerate(line) if seg.kind == "text" and seg.text.strip() == "·"), None)


def _check_visibility(view: CoupView) -> None:
    """Raise ``ValueError`` if ``view`` holds private cards its viewer may not see."""
    for player in view.players:
        if player.hand is not None and player.seat != view.viewer:
            who = "the public view" if view.viewer is None else f"the view of seat {view.viewer}"
            msg = f"{who} carries the hand of seat {player.seat}; refusing to draw hidden cards"
            raise ValueError(msg)
    if view.viewer is None and view.choices is not None:
        msg = "the public view carries private choices; refusing to draw hidden cards"
        raise ValueError(msg)


# ----------------------------------------------------------------------------- sprites (cached)
Emblem = Callable[[ImageDraw.ImageDraw, tuple[float, float, float, float], Rgb, Rgb], None]


def _crown(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    band = y0 + h * 0.66
    tips = [(x0 + w * 0.08, y0 + h * 0.30), (x0 + w * 0.5, y0 + h * 0.14), (x0 + w * 0.92, y0 + h * 0.30)]
    d.polygon(
        [
            (x0 + w * 0.08, band),
            tips[0],
            (x0 + w * 0.30, y0 + h * 0.50),
            tips[1],
            (x0 + w * 0.70, y0 + h * 0.50),
            tips[2],
            (x0 + w * 0.92, band),
        ],
        fill=ink,
    )
    d.rounded_rectangle((x0 + w * 0.06, band + h * 0.05, x0 + w * 0.94, y0 + h * 0.86), radius=h * 0.03, fill=ink)
    r = w * 0.075
    for tx, ty in tips:
        d.ellipse((tx - r, ty - r, tx + r, ty + r), fill=ink)


def _dagger(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: Rgb, bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    half = w * 0.12
    d.polygon(
        [
            (cx, y0 + h * 0.02),
            (cx + half, y0 + h * 0.20),
            (cx + half, y0 + h * 0.64),
            (cx - half, y0 + h * 0.64),
            (cx - half, y0 + h * 0.20),
        ],
        fill=ink,
    )
    d.line((cx, y0 + h * 0.16, cx, y0 + h * 0.60), fill=bg, width=max(1, round(w * 0.035)))
    d.rounded_rectangle((cx - w * 0.36, y0 + h * 0.63, cx + w * 0.36, y0 + h * 0.71), radius=h * 0.04, fill=ink)
    d.rectangle((cx - w * 0.07, y0 + h * 0.70, cx + w * 0.07, y0 + h * 0.88), fill=ink)
    r = w * 0.10
    d.ellipse((cx - r, y0 + h * 0.92 - r, cx + r, y0 + h * 0.92 + r), fill=ink)


def _anchor(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: Rgb, _bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    stroke = max(1, round(w * 0.09))
    r = w * 0.11
    d.ellipse((cx - r, y0 + h * 0.04, cx + r, y0 + h * 0.04 + 2 * r), outline=ink, width=stroke)
    d.rectangle((cx - stroke / 2, y0 + h * 0.04 + 2 * r, cx + stroke / 2, y0 + h * 0.90), fill=ink)
    d.rounded_rectangle(
        (cx - w * 0.30, y0 + h * 0.30, cx + w * 0.30, y0 + h * 0.30 + stroke), radius=stroke / 2, fill=ink
    )
    rx, top, bottom = w * 0.40, y0 + h * 0.36, y0 + h * 0.92
    d.arc((cx - rx, top, cx + rx, bottom), start=10, end=170, fill=ink, width=stroke)
    cy, ry = (top + bottom) / 2, (bottom - top) / 2
    for angle, side in ((10, 1), (170, -1)):
        ex = cx + rx * math.cos(math.radians(angle))
        ey = cy + ry * math.sin(math.radians(angle))
        d.polygon(
            [(ex - side * w * 0.10, ey + h * 0.03), (ex + side * w * 0.10, ey + h * 0.03), (ex, ey - h * 0.12)],
            fill=ink,
        )


def _scroll(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: Rgb, bg: Rgb) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    shade = mix(ink, bg, 0.25)
    d.rectangle((x0 + w * 0.18, y0 + h * 0.14, x1 - w * 0.18, y1 - h * 0.14), fill=ink)
    roll = h * 0.13
    for top in (y0 + h * 0.04, y1 - h * 0.04 - roll):
        d.rounded_rectangle((x0 + w * 0.08, top, x1 - w * 0.08, top + roll), radius=roll / 2, fill=shade)
    stroke = max(1, round(h * 0.035))
    for i, frac in enumerate((0.30, 0.42, 0.54, 0.66)):
        end = x1 - w * (0.30 if i < 3 else 0.48)
        d.line((x0 + w * 0.28, y0 + h * frac, end, y0 + h * frac), fill=bg, width=stroke)
    r = w * 0.11
    sx, sy = x1 - w * 0.30, y0 + h * 0.70
    d.ellipse((sx - r, sy - r, sx + r, sy + r), fill=WAX)


def _rose(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], ink: Rgb, bg: Rgb) -> None:
    """Contessa: a rose (🌹, as in the panel and on the Block button): a bloom on a leafy stem."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    stroke = max(1, round(w * 0.07))
    d.line((cx, y0 + h * 0.45, cx, y1 - h * 0.02), fill=ink, width=stroke)
    for side in (-1, 1):  # two leaves on the stem
        ly = y0 + h * (0.68 if side < 0 else 0.60)
        d.ellipse(
            (
                cx + (side * w * 0.30 if side < 0 else 0),
                ly - h * 0.06,
                cx + (0 if side < 0 else w * 0.30),
                ly + h * 0.06,
            ),
            fill=ink,
        )
    r = min(w * 0.30, h * 0.21)
    by = y0 + h * 0.27
    # The bloom: a round head over a wider cup of outer petals, the inner petals spiralling in.
    d.chord((cx - r * 1.35, by - r * 0.9, cx + r * 1.35, by + r * 1.25), start=0, end=180, fill=ink)
    d.ellipse((cx - r, by - r, cx + r, by + r), fill=ink)
    line = max(1, round(w * 0.04))
    d.arc((cx - r * 1.35, by - r * 0.9, cx + r * 1.35, by + r * 1.25), start=10, end=170, fill=bg, width=line)
    d.arc((cx - r * 0.7, by - r * 0.7, cx + r * 0.7, by + r * 0.7), start=160, end=470, fill=bg, width=line)
    d.arc((cx - r * 0.32, by - r * 0.32, cx + r * 0.32, by + r * 0.32), start=330, end=600, fill=bg, width=line)


EMBLEMS: dict[Card, Emblem] = {
    Card.DUKE: _crown,
    Card.ASSASSIN: _dagger,
    Card.CAPTAIN: _anchor,
    Card.AMBASSADOR: _scroll,
    Card.CONTESSA: _rose,
}

CardStyle = Literal["revealed", "hand"]


@lru_cache(maxsize=128)
def card_face(card: Card, label: str, size: tuple[int, int], style: CardStyle) -> Image.Image:
    """Return the face of ``card`` (RGBA): colour, emblem and, if ``label`` is given, a name banner.

    ``revealed`` cards (lost influence) carry a red cross in the corner; ``hand`` cards (the
    viewer's own, private image only) have a gold rim. The board's small cards have no banner:
    their emblem is the card's picture everywhere; the hand picture names its cards.
    """
    w, h = size
    colour = CARD_COLOURS[card]
    image, d = hires_canvas(w, h)
    s = image.width // w
    rim = GOLD if style == "hand" else CREAM
    radius = max(4, w // 8)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=radius * s, fill=rim)
    d.rounded_rectangle((3 * s, 3 * s, (w - 3) * s - 1, (h - 3) * s - 1), radius=(radius - 2) * s, fill=colour)
    banner = round(h * 0.20) if label else 0
    if banner:
        d.rounded_rectangle(
            (3 * s, (h - 3 - banner) * s, (w - 3) * s - 1, (h - 3) * s - 1),
            radius=(radius - 2) * s,
            fill=mix(colour, (0, 0, 0), 0.38),
            corners=(False, False, True, True),
        )
    pad = w * 0.14
    top = h * (0.08 if banner else 0.14)
    bottom = h - 5 - banner if banner else h * 0.86
    EMBLEMS[card](d, (pad * s, top * s, (w - pad) * s, bottom * s), CREAM, colour)
    if style == "revealed":
        r = max(6, w // 7) * s
        cx, cy = (w - 3) * s - r, 3 * s + r
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=RED, outline=CREAM, width=s * 3 // 2)
        arm = r * 0.45
        for sign in (1, -1):
            d.line((cx - arm, cy - sign * arm, cx + arm, cy + sign * arm), fill=CREAM, width=2 * s)
    face = downsample(image)
    if banner:
        text_font = font(Face.CONDENSED_BOLD, max(HAND_LABEL_SIZE, round(h * 0.13)))
        text = fit_text(label, text_font, w - 10)
        ImageDraw.Draw(face).text((w / 2, h - 3 - banner / 2), text, font=text_font, fill=CREAM, anchor="mm")
    return face


@lru_cache(maxsize=32)
def emblem_icon(card: Card, size: int) -> Image.Image:
    """Return ``card``'s emblem alone (RGBA, cream), as drawn inside the status strip's card chips."""
    image, d = hires_canvas(size, size)
    EMBLEMS[card](d, (0, 0, image.width, image.height), CREAM, CARD_COLOURS[card])
    return downsample(image)


@lru_cache(maxsize=16)
def card_back(size: tuple[int, int]) -> Image.Image:
    """Return the back of a face-down card (RGBA): indigo with a gold frame and lozenge."""
    w, h = size
    image, d = hires_canvas(w, h)
    s = image.width // w
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=max(3, w // 10) * s, fill=CREAM)
    inset = max(2, w // 24)
    d.rounded_rectangle(
        (inset * s, inset * s, (w - inset) * s - 1, (h - inset) * s - 1), radius=max(2, w // 14) * s, fill=CARD_BACK
    )
    frame = max(4, w // 9)
    d.rounded_rectangle(
        (frame * s, frame * s, (w - frame) * s - 1, (h - frame) * s - 1),
        radius=max(2, w // 18) * s,
        outline=GOLD_DARK,
        width=max(1, w // 40) * s,
    )
    cx, cy = w * s / 2, h * s / 2
    for scale, fill in ((0.30, GOLD), (0.20, CARD_BACK), (0.11, GOLD)):
        rx, ry = w * s * scale, h * s * scale * 0.85
        d.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=fill)
    return downsample(image)


@lru_cache(maxsize=8)
def coin_icon(diameter: int) -> Image.Image:
    """Return a gold coin (RGBA)."""
    image, d = hires_canvas(diameter, diameter)
    full = image.width
    d.ellipse((0, 0, full - 1, full - 1), fill=GOLD_DARK)
    ring = full * 0.09
    d.ellipse((ring, ring, full - 1 - ring, full - 1 - ring), fill=GOLD)
    inner = full * 0.24
    d.ellipse((inner, inner, full - 1 - inner, full - 1 - inner), outline=GOLD_DARK, width=max(1, round(full * 0.05)))
    _crown(d, (full * 0.33, full * 0.30, full * 0.67, full * 0.68), GOLD_DARK, GOLD)
    return downsample(image)


@lru_cache(maxsize=4)
def crown_icon(size: int) -> Image.Image:
    """Return the gold crown drawn beside the title (RGBA)."""
    image, d = hires_canvas(size, size)
    _crown(d, (0, 0, image.width, image.height), GOLD, FELT)
    return downsample(image)


@lru_cache(maxsize=8)
def stamp(text: str) -> Image.Image:
    """Return a tilted red rubber stamp reading ``text`` (RGBA), laid over an eliminated seat."""
    fnt = font(Face.BOLD, STAMP_SIZE)
    w = round(fnt.getlength(text)) + 28
    h = STAMP_SIZE + 18
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    d.rounded_rectangle((1, 1, w - 2, h - 2), radius=8, outline=RED, width=3)
    d.rounded_rectangle((6, 6, w - 7, h - 7), radius=5, outline=RED, width=1)
    d.text((w / 2, h / 2 + 1), text, font=fnt, fill=RED, anchor="mm")
    return image.rotate(9, resample=Image.Resampling.BICUBIC, expand=True)


# ----------------------------------------------------------------------------- rich status lines
SegmentKind = Literal["text", "seat", "card", "action"]


@dataclass(frozen=True)
class Segment:
    """One run of a status line: plain text, a seat (dot + name), a card chip or an action name."""

    kind: SegmentKind
    text: str
    seat: int = 0
    card: Card | None = None


_MARKER = re.compile(r"\x01(\w+)\x02")


# ----------------------------------------------------------------------------- the board
class _Board:
    """One drawing of the board: layout, then header, panels and status strip."""

    def __init__(self, view: CoupView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.names = {player.seat: self._name(names, player.seat) for player in view.players}
        count = len(view.players)
        # Two columns of wide panels, like a list: names keep ~14 letters at the phone's size.
        # Three players take one column (three rows as tall as six players' rows, twice as wide).
        self.cols = 1 if count in {1, 3} else 2
        self.rows = max(1, math.ceil(count / self.cols))
        self.panel_w = (WIDTH - 2 * MARGIN - (self.cols - 1) * GAP) // self.cols
        self.headline_rows = 1  # two when the headline is word-wrapped (see _wrapped)
        self.lines = self._wrapped(self._status_lines())
        # Room for a headline and two details, or a headline wrapped onto two lines and a detail.
        self.strip_h = 2 * STRIP_PAD + 2 * HEADLINE_H + DETAIL_H * (STRIP_LINES - 2)
        area = HEIGHT - 2 * MARGIN - HEADER_H - self.strip_h - 2 * GAP
        self.panel_h = (area - (self.rows - 1) * GAP) // self.rows
        # On a single row of tall panels (two players) the coins and status go below the cards.
        self.coins_below = self.rows == 1
        card_room = self.panel_h - 2 * PANEL_PAD - SWATCH - NAME_GAP
        if self.coins_below:
            card_room -= COIN_ICON + BADGE_H + 2 * GAP
            fit_w = (self.panel_w - 2 * PANEL_PAD - 6) // 2
        else:
            fit_w = (self.panel_w - 2 * PANEL_PAD - 6 - COLUMN_GAP - COLUMN_MIN) // 2
        card_w = min(CARD_BIG[0], fit_w, card_room * CARD_MAX[0] // CARD_MAX[1])
        self.card_size = (card_w, round(card_w * CARD_MAX[1] / CARD_MAX[0]))
        self.image = Image.new("RGB", (WIDTH, HEIGHT), FELT_EDGE)
        self.draw_ = ImageDraw.Draw(self.image)

    # -- helpers
    def t(self, key: str, **params: object) -> str:
        """Translate ``render.coup.<key>``."""
        return translate(self.locale, f"render.coup.{key}", **params)

    def _name(self, names: Sequence[str], seat: int) -> str:
        name = clean_text(names[seat]) if seat < len(names) else ""
        return name or self.t("player", n=seat + 1)

    def card_label(self, card: Card) -> str:
        """Return the localized name of ``card``."""
        return self.t(f"card.{card.value}")

    # -- top level
    def draw(self) -> Image.Image:
        """Draw everything and return the image."""
        w, h = self.image.size
        fill_rounded(self.image, (6, 6, w - 6, h - 6), 22, FELT, outline=FELT_LINE, width=2)
        self._header()
        top = MARGIN + HEADER_H + GAP
        bottom = HEIGHT - MARGIN - self.strip_h - GAP
        block_h = self.rows * self.panel_h + (self.rows - 1) * GAP
        y = top + (bottom - top - block_h) // 2  # fewer rows: the panels sit in the middle
        per_row = [self.view.players[i : i + self.cols] for i in range(0, len(self.view.players), self.cols)]
        for row in per_row:
            row_w = len(row) * self.panel_w + (len(row) - 1) * GAP
            x = (WIDTH - row_w) // 2
            for player in row:
                self._panel(player, x, y)
                x += self.panel_w + GAP
            y += self.panel_h + GAP
        self._strip(HEIGHT - MARGIN - self.strip_h)
        return self.image

    # -- header
    def _header(self) -> None:
        """Draw the crown and title at the left, the court deck (a stack, its count, in words) at the right.

        The deck is what a player reads here; when both do not fit (a long plural, "карты"), the
        title's word goes and the crown stays, rather than the deck's words being cut.
        """
        d = self.draw_
        cy = MARGIN + HEADER_H // 2
        paste_rgba(self.image, crown_icon(30), (MARGIN + 2, cy - 16))
        title = self.t("title").upper()
        title_font = font(Face.BOLD, TITLE_SIZE)
        deck_right = WIDTH - MARGIN - 6  # clear of the felt's rounded rim
        words = self.t("deck", n=self.view.deck_size)
        words_font = font(Face.REGULAR, DECK_SIZE)
        count = str(self.view.deck_size)
        count_font = font(Face.BOLD, DECK_COUNT_SIZE)
        stack_w = 22 + 8  # three card backs, each 4 px right of the one below
        deck_w = stack_w + 12 + count_font.getlength(count) + 8 + words_font.getlength(words)
        left = MARGIN + 38
        if left + title_font.getlength(title) + 14 + deck_w <= deck_right:
            d.text((left, cy), title, font=title_font, fill=GOLD, anchor="lm")
        else:
            words = fit_text(words, words_font, deck_right - left - (deck_w - words_font.getlength(words)))
        words_x = deck_right - words_font.getlength(words)
        d.text((words_x, cy + 1), words, font=words_font, fill=TEXT_MUTED, anchor="lm")
        count_x = words_x - 8 - count_font.getlength(count)
        d.text((count_x, cy), count, font=count_font, fill=TEXT, anchor="lm")
        back = card_back((22, 30))
        icon_x = round(count_x) - 12 - stack_w
        for i in range(3):
            paste_rgba(self.image, back, (icon_x + 4 * i, cy - 17 + 2 * i))

    # -- seat panels
    def _panel(self, player: PlayerView, x: int, y: int) -> None:
        view = self.view
        w, h = self.panel_w, self.panel_h
        is_turn = view.phase in TURN_PHASES and view.turn == player.seat and player.alive
        is_winner = view.winner == player.seat
        if is_winner:
            fill_rounded(self.image, (x, y, x + w, y + h), 12, PANEL_WINNER, outline=GOLD, width=3)
        elif is_turn:
            fill_rounded(self.image, (x, y, x + w, y + h), 12, PANEL, outline=GOLD, width=3)
        else:
            fill_rounded(self.image, (x, y, x + w, y + h), 12, PANEL, outline=PANEL_EDGE, width=1)
        d = self.draw_
        # Name row: the seat's numbered token, then the name.
        sx, sy = x + PANEL_PAD, y + PANEL_PAD
        seat_badge(self.image, (sx + SWATCH // 2, sy + SWATCH // 2), SWATCH, player.seat, MIN_FONT)
        name_x = sx + SWATCH + 7
        name_font = font(Face.BOLD, NAME_SIZE)
        name = fit_text(self.names[player.seat], name_font, x + w - PANEL_PAD - name_x)
        d.text((name_x, sy + SWATCH / 2), name, font=name_font, fill=TEXT, anchor="lm")
        # The cards, then the coins and the status pill: in a column at the cards' right (stacked
        # if it is tall enough, else side by side), or below the cards on a single row of panels.
        card_w, card_h = self.card_size
        top = sy + SWATCH + NAME_GAP
        right = x + w - PANEL_PAD
        below = COIN_ICON + BADGE_H + 2 * GAP if self.coins_below else 0
        cards_y = top + max(0, (y + h - PANEL_PAD - top - below - card_h) // 2)
        col_x = x + PANEL_PAD + 2 * card_w + 6 + COLUMN_GAP  # the column right of the cards
        if not player.alive:
            # Out: the panel goes grey, but its revealed cards keep their colours (everyone counts
            # them), so they are drawn after the grey.
            self._grey_out(x, y, w, h)
        self._cards(player, x + PANEL_PAD, cards_y, right if self.coins_below else col_x - COLUMN_GAP)
        if not player.alive:
            # The stamp takes the place of the coins and the status.
            mark = stamp(self.t("badge.out").upper())
            if self.coins_below:
                spot = (x + w // 2 - mark.width // 2, cards_y + card_h + GAP + (below - GAP - mark.height) // 2)
            else:
                spot = (col_x + (right - col_x - mark.width) // 2, cards_y + card_h // 2 - mark.height // 2)
            paste_rgba(self.image, mark, spot)
            return
        badges = self._badges(player, is_turn, is_winner)
        if self.coins_below:
            coins_y = cards_y + card_h + GAP
            self._coins(player, x + PANEL_PAD, coins_y)
            self._badge_row(badges, x + PANEL_PAD, coins_y + COIN_ICON + GAP, right)
        else:
            if card_h >= COIN_ICON + BADGE_H + GAP:
                self._coins(player, col_x, cards_y + 2)
                self._badge_row(badges, col_x, cards_y + card_h - BADGE_H, right)
            else:
                mid = cards_y + card_h // 2
                coins_w = self._coins(player, col_x, mid - COIN_ICON // 2)
                self._badge_row(badges, col_x + coins_w + GAP, mid - BADGE_H // 2, right)

    def _cards(self, player: PlayerView, left: int, top: int, right: int) -> None:
        card_w, _ = self.card_size
        sprites: list[Image.Image] = []
        if player.hand is not None:
            sprites += [card_face(card, "", self.card_size, "hand") for card in player.hand]
        else:
            sprites += [card_back(self.card_size)] * player.hidden_count
        sprites += [card_face(card, "", self.card_size, "revealed") for card in player.revealed]
        if not sprites:
            return
        step = card_w + 6
        if len(sprites) > 1:  # overlap the cards when a hand is too wide for the panel
            step = min(step, (right - left - card_w) // (len(sprites) - 1))
        for i, sprite in enumerate(sprites):
            paste_rgba(self.image, sprite, (left + i * step, top))

    def _coins(self, player: PlayerView, x: int, y: int) -> int:
        """Draw the coin count: a coin, then the number (the coin says what the number counts); return its width."""
        paste_rgba(self.image, coin_icon(COIN_ICON), (x, y))
        number_font = font(Face.BOLD, COIN_SIZE)
        number = str(player.coins)
        self.draw_.text((x + COIN_ICON + 5, y + COIN_ICON // 2), number, font=number_font, fill=TEXT, anchor="lm")
        return COIN_ICON + 5 + round(number_font.getlength(number))

    def _badges(self, player: PlayerView, is_turn: bool, is_winner: bool) -> list[tuple[str, Rgb, Rgb]]:
        view = self.view
        if is_winner:
            return [(self.t("badge.winner"), GOLD, TEXT_DARK)]
        badges: list[tuple[str, Rgb, Rgb]] = []
        if is_turn:
            badges.append((self.t("badge.turn"), GOLD, TEXT_DARK))
        if view.losing == player.seat and view.phase is not Phase.OVER:
            badges.append((self.t("badge.losing"), RED, TEXT_DARK))
        elif player.seat in view.awaiting and not (is_turn and view.phase is Phase.DECLARE):
            badges.append((self.t("badge.awaiting"), BLUE, TEXT_DARK))  # declaring is the turn: no second pill
        return badges

    def _badge_row(self, badges: list[tuple[str, Rgb, Rgb]], x: int, y: int, right: int) -> None:
        """Draw the status pills left to right from ``x``; if not all fit, only the last (the most urgent).

        The turn's pill is the one that goes: the turn's panel also has a gold rim.
        """
        fnt = font(Face.CONDENSED_BOLD, BADGE_SIZE)
        needed = sum(fnt.getlength(text.upper()) + 14 + 6 for text, _, _ in badges)
        if needed > right - x + 6:
            badges = badges[-1:]
        for text, fill, ink in badges:
            width = self._badge(text, x, y, fill, ink, right - x)
            x += width + 6

    def _badge(self, text: str, x: int, y: int, fill: Rgb, ink: Rgb, max_w: int) -> int:
        """Draw a status pill at ``x, y``; return its width (0 if there is no room left).

        A label too long for the room keeps its first word ("ТЕРЯЕТ КАРТУ" becomes "ТЕРЯЕТ"):
        the strip says the rest, and a whole word reads better than a cut one.
        """
        if max_w < 40:
            return 0
        fnt = font(Face.CONDENSED_BOLD, BADGE_SIZE)
        label = text.upper()
        if fnt.getlength(label) > max_w - 14:
            label = fit_text(label.split(" ")[0], fnt, max_w - 14)
        w = min(max_w, round(fnt.getlength(label)) + 14)
        fill_rounded(self.image, (x, y, x + w, y + BADGE_H), BADGE_H // 2, fill)
        self.draw_.text((x + w / 2, y + BADGE_H / 2 + 1), label, font=fnt, fill=ink, anchor="mm")
        return w

    def _grey_out(self, x: int, y: int, w: int, h: int) -> None:
        """Turn a drawn panel into dim greys (an eliminated seat), keeping its rounded corners."""
        region = self.image.crop((x, y, x + w, y + h)).convert("L")
        dimmed = region.point(lambda v: 34 + v * 45 // 100).convert("RGB")
        self.image.paste(dimmed, (x, y), rounded_mask(w, h, 12))

    # -- status strip
    def _rich(self, key: str, **params: Segment | str) -> list[Segment]:
        """Translate ``key`` with segment parameters kept as separate runs (so names can be styled)."""
        markers = {k: f"\x01{k}\x02" if isinstance(v, Segment) else v for k, v in params.items()}
        parts = _MARKER.split(self.t(key, **markers))
        out: list[Segment] = []
        for i, part in enumerate(parts):
            if i % 2:
                value = params[part]
                out.append(value if isinstance(value, Segment) else Segment("text", str(value)))
            elif part:
                out.append(Segment("text", part))
        return out

    def _seat(self, seat: int) -> Segment:
        name = self.names.get(seat) or self.t("player", n=seat + 1)
        return Segment("seat", fit_text(name, font(Face.BOLD, HEADLINE_SIZE), STRIP_NAME_MAX), seat=seat)

    def _card(self, card: Card) -> Segment:
        return Segment("card", self.card_label(card), card=card)

    def _action_line(self, action: PendingActionView) -> list[Segment]:
        kind = Segment("action", self.t(f"action.{action.action.value}"))
        if action.target is None:
            line = self._rich("status.action", actor=self._seat(action.actor), action=kind)
        else:
            line = self._rich(
                "status.action_target", actor=self._seat(action.actor), target=self._seat(action.target), action=kind
            )
        if action.claim is not None:
            line += [Segment("text", "  ·  "), *self._rich("status.claim", card=self._card(action.claim))]
        return line

    def _block_line(self, block: PendingBlockView) -> list[Segment]:
        return self._rich("status.block", blocker=self._seat(block.blocker), card=self._card(block.card))

    def _challenge_line(self, challenge: ChallengeView) -> list[Segment]:
        return self._rich(
            "status.challenge",
            challenger=self._seat(challenge.challenger),
            claimant=self._seat(challenge.claimant),
            card=self._card(challenge.card),
        )

    def _status_lines(self) -> list[list[Segment]]:
        """Return the strip's lines: the headline (what happens now), context, then whom we wait for."""
        view = self.view
        context: list[list[Segment]] = []
        if view.action is not None:
            context.append(self._action_line(view.action))
        if view.block is not None:
            context.append(self._block_line(view.block))
        if view.challenge is not None:
            context.append(self._challenge_line(view.challenge))
        if view.phase is Phase.OVER:
            if view.winner is None:
                return [self._rich("status.over")]
            return [self._rich("status.winner", seat=self._seat(view.winner))]
        if view.phase is Phase.DRAFT:
            headline = self._rich("status.draft")
        elif view.phase is Phase.DECLARE:
            key = "status.forced" if view.forced_coup else "status.declare"
            headline = self._rich(key, seat=self._seat(view.turn))
        elif view.phase is Phase.LOSE_INFLUENCE and view.losing is not None:
            headline = self._rich("status.losing", seat=self._seat(view.losing))
        elif view.phase is Phase.EXCHANGE:
            headline = self._rich("status.exchange", seat=self._seat(view.turn))
            context = context[1:] if view.action is not None else context  # the headline says it
        elif context:  # responding to or proving the latest claim: the newest context line leads
            headline = context.pop()
        else:
            headline = self._rich("status.declare", seat=self._seat(view.turn))
        lines = [headline, *context]
        named = {segment.seat for segment in headline if segment.kind == "seat"}
        obvious = view.phase in {Phase.DECLARE, Phase.LOSE_INFLUENCE, Phase.EXCHANGE} and set(view.awaiting) == named
        if view.awaiting and not obvious:
            waiting = [Segment("text", self.t("status.awaiting") + " ")]
            for i, seat in enumerate(view.awaiting):
                if i:
                    waiting.append(Segment("text", ",  "))
                waiting.append(self._seat(seat))
            lines.append(waiting)
        # The strip has room for a fixed number of lines: the oldest context goes first (the log has it).
        return [lines[0], *lines[1:][-(STRIP_LINES - 1) :]]

    def _wrapped(self, lines: list[list[Segment]]) -> list[list[Segment]]:
        """Break a headline too long for the strip onto a second line, if the strip has room for one.

        A claim goes down whole (the headline is cut at its "·"); any other headline is word-wrapped
        and both its lines are drawn as headline (:attr:`headline_rows`). Else names would be cut to
        a few letters; the strip keeps :data:`STRIP_LINES` lines at most.
        """
        self.headline_rows = 1
        headline = lines[0]
        room = WIDTH - 2 * MARGIN - 20 - STRIP_PAD
        width = sum(self._segment_width(segment, HEADLINE_SIZE, True) for segment in headline)
        if width <= room:
            return lines
        waiting = self.t("status.awaiting") + " "
        if len(lines) >= STRIP_LINES and lines[-1][0].text == waiting:
            lines = lines[:-1]  # the "waiting for" line goes first: the panels' pills say it too
        if len(lines) >= STRIP_LINES:
            return lines
        cut = _claim_at(headline)
        if cut is not None:
            return [headline[:cut], headline[cut + 1 :], *lines[1:]]
        split = self._word_wrap(headline, room)
        if split is None:
            return lines
        self.headline_rows = 2
        return [*split, *lines[1:]]

    def _word_wrap(self, line: list[Segment], room: float) -> tuple[list[Segment], list[Segment]] | None:
        """Split ``line`` (a headline) at the last space that leaves its first part within ``room``."""
        fnt = font(Face.BOLD, HEADLINE_SIZE)
        used = 0.0
        for i, segment in enumerate(line):
            width = self._segment_width(segment, HEADLINE_SIZE, True)
            if used + width <= room:
                used += width
                continue
            if segment.kind == "text":
                words = segment.text.split(" ")
                for k in range(len(words) - 1, 0, -1):
                    head = " ".join(words[:k])
                    if head.strip() and used + fnt.getlength(head) <= room:
                        tail = " ".join(words[k:]).lstrip()
                        rest = [Segment("text", tail)] if tail else []
                        return [*line[:i], Segment("text", head)], [*rest, *line[i + 1 :]]
            if i == 0:
                return None
            rest = line[i:]
            if rest[0].kind == "text":
                rest = [Segment("text", rest[0].text.lstrip()), *rest[1:]]
            return line[:i], rest
        return None

    def _strip(self, y: int) -> None:
        x0, x1 = MARGIN, WIDTH - MARGIN
        y1 = y + self.strip_h
        fill_rounded(self.image, (x0, y, x1, y1), 12, STRIP, outline=PANEL_EDGE, width=1)
        accent = self._accent()
        fill_rounded(self.image, (x0 + 6, y + 8, x0 + 11, y1 - 8), 2, accent)
        right = x1 - STRIP_PAD
        text_x = x0 + 20
        line_y = y + STRIP_PAD + HEADLINE_H // 2
        for index, line in enumerate(self.lines):
            headline = index < self.headline_rows
            size = HEADLINE_SIZE if headline else DETAIL_SIZE
            self._draw_line(line, text_x, line_y, size, right - text_x, headline=headline)
            line_y += (
                HEADLINE_H if index + 1 < self.headline_rows else (HEADLINE_H + DETAIL_H) // 2 if headline else DETAIL_H
            )

    def _accent(self) -> Rgb:
        view = self.view
        if view.phase is Phase.OVER:
            return GREEN
        if view.phase in {Phase.PROVE, Phase.LOSE_INFLUENCE} or view.forced_coup:
            return RED
        if view.phase in {Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK}:
            return BLUE
        return GOLD

    def _segment_width(self, segment: Segment, size: int, headline: bool) -> float:
        if segment.kind == "text":
            return font(Face.BOLD if headline else Face.REGULAR, size).getlength(segment.text)
        if segment.kind == "action":
            return font(Face.BOLD, size).getlength(segment.text)
        if segment.kind == "seat":
            return size + TOKEN_EXTRA + 5 + font(Face.BOLD, size).getlength(segment.text)
        return font(Face.CONDENSED_BOLD, size).getlength(segment.text) + size + 14

    def _draw_line(self, line: list[Segment], x: float, cy: int, size: int, max_w: float, *, headline: bool) -> None:
        segments = self._fit_line(line, size, max_w, headline=headline)
        d = self.draw_
        for segment in segments:
            width = self._segment_width(segment, size, headline)
            if segment.kind == "text":
                fnt = font(Face.BOLD if headline else Face.REGULAR, size)
                d.text((x, cy), segment.text, font=fnt, fill=TEXT if headline else TEXT_MUTED, anchor="lm")
            elif segment.kind == "action":
                d.text((x, cy), segment.text, font=font(Face.BOLD, size), fill=GOLD, anchor="lm")
            elif segment.kind == "seat":
                token = size + TOKEN_EXTRA
                seat_badge(self.image, (round(x) + token // 2, cy + 1), token, segment.seat, MIN_FONT)
                d.text((x + token + 5, cy), segment.text, font=font(Face.BOLD, size), fill=TEXT, anchor="lm")
            else:  # a card chip: the card's colour, its emblem, its name
                assert segment.card is not None  # noqa: S101 - card segments always carry their card
                h = size + 7
                top = cy - h // 2 + 1
                colour = CARD_COLOURS[segment.card]
                box = (round(x), top, round(x + width - 2), top + h)
                fill_rounded(self.image, box, 5, colour, outline=mix(colour, CREAM, 0.45), width=1)
                icon = size - 3
                paste_rgba(self.image, emblem_icon(segment.card, icon), (round(x) + 5, cy - icon // 2 + 1))
                fnt = font(Face.CONDENSED_BOLD, size)
                d.text((x + 5 + icon + 3, cy + 1), segment.text, font=fnt, fill=CREAM, anchor="lm")
            x += width

    def _fit_line(self, line: list[Segment], size: int, max_w: float, *, headline: bool) -> list[Segment]:
        """Shorten the longest names (then the last text runs) until ``line`` fits in ``max_w``.

        A claim ("· claims Captain") goes first, whole: it is said again by the challenge or block
        lines around it, and names cut to a few letters for its sake read worse than no claim.
        """
        segments = list(line)
        overflow = sum(self._segment_width(s, size, headline) for s in segments) - max_w
        if overflow <= 0:
            return segments
        claim = _claim_at(segments)
        if claim is not None:
            segments = segments[:claim]
            overflow = sum(self._segment_width(s, size, headline) for s in segments) - max_w
            if overflow <= 0:
                return segments
        name_font = font(Face.BOLD, size)
        widths = {i: name_font.getlength(s.text) for i, s in enumerate(segments) if s.kind == "seat"}
        level = water_level(sorted(widths.values(), reverse=True), overflow)
        level = max(level, name_font.getlength("Ааа" + "…"))
        for i, width in widths.items():
            if width > level:
                segments[i] = Segment("seat", fit_text(segments[i].text, name_font, level), seat=segments[i].seat)
        overflow = sum(self._segment_width(s, size, headline) for s in segments) - max_w
        # Names are as short as they may get: cut the line's last words instead. A run too short to
        # absorb the cut goes, with whatever follows it, and an ellipsis says the line goes on
        # (a long "waiting for" list once ran off the strip, only its last comma cut).
        while overflow > 0:
            last = next((k for k in range(len(segments) - 1, -1, -1) if segments[k].kind in {"text", "action"}), None)
            if last is None:
                break
            segment = segments[last]
            fnt = font(Face.BOLD if headline or segment.kind == "action" else Face.REGULAR, size)
            room = fnt.getlength(segment.text) - overflow
            if last == 0 or room >= fnt.getlength(segment.text.strip()[:1] + ELLIPSIS):
                segments = [*segments[:last], Segment(segment.kind, fit_text(segment.text, fnt, max(room, 0)))]
                break
            tail = [] if segment.text.strip() == ELLIPSIS else [Segment("text", " " + ELLIPSIS)]
            segments = [*segments[:last], *tail]
            overflow = sum(self._segment_width(s, size, headline) for s in segments) - max_w
        return segments


# ----------------------------------------------------------------------------- palette
@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """Return the fixed 256-colour palette every board is encoded with (built once, ~0.1 s).

    It is fitted to reference boards that between them show every seat colour, card, badge, phase
    accent, eliminated and winning seats, and a private hand, so any board maps
    onto it as faithfully as onto its own octree palette, five times faster. Being fixed, it also
    keeps the output a function of the arguments alone.
    """
    boards = [_Board(view, names, "ru").draw() for view, names in sample_views().values()]
    view, names = sample_views()["6p-respond-steal"]
    extra = tuple(PlayerView(seat=seat, coins=seat, revealed=(), hidden_count=2, alive=True) for seat in range(6, 8))
    eight = view.model_copy(update={"num_seats": 8, "players": view.players + extra, "awaiting": (6, 7)})
    boards.append(_Board(eight, names, "en").draw())
    return palette_from(boards)


# ----------------------------------------------------------------------------- samples and timing
def sample_views() -> dict[str, tuple[CoupView, list[str]]]:
    """Return example views and names covering every phase, 2 to 6 seats and the private hand."""
    names = [
        "Наташа",
        "Саша \N{FIRE}\N{FIRE}",
        "Григорий Константинопольский-Заде",
        "Alex",
        "\N{GRINNING FACE}",
        "Мария-Антуанетта \N{CROWN}",
    ]

    def players(specs: Sequence[tuple[int, tuple[Card, ...], int]]) -> tuple[PlayerView, ...]:
        return tuple(
            PlayerView(seat=i, coins=coins, revealed=revealed, hidden_count=hidden, alive=hidden > 0)
            for i, (coins, revealed, hidden) in enumerate(specs)
        )

    six = players(
        [
            (3, (), 2),
            (5, (Card.CONTESSA,), 1),
            (2, (), 2),
            (0, (Card.DUKE, Card.CAPTAIN), 0),
            (7, (), 2),
            (1, (Card.ASSASSIN,), 1),
        ]
    )
    base = {"version": 17, "first_seat": 0, "deck_size": 5}
    views: dict[str, tuple[CoupView, list[str]]] = {
        "6p-respond-steal": (
            CoupView(
                viewer=None,
                num_seats=6,
                phase=Phase.RESPOND_ACTION,
                turn=0,
                players=six,
                action=PendingActionView(action=ActionKind.STEAL, actor=0, target=2, claim=Card.CAPTAIN),
                awaiting=(1, 2, 4, 5),
                eliminated=(3,),
                **base,
            ),
            names,
        ),
        "5p-challenge-block": (
            CoupView(
                viewer=None,
                num_seats=5,
                phase=Phase.PROVE,
                turn=1,
                players=six[:5],
                action=PendingActionView(action=ActionKind.ASSASSINATE, actor=1, target=4, claim=Card.ASSASSIN),
                block=PendingBlockView(blocker=4, card=Card.CONTESSA),
                challenge=ChallengeView(challenger=1, claimant=4, card=Card.CONTESSA, against="block"),
                awaiting=(4,),
                eliminated=(3,),
                **base,
            ),
            names,
        ),
        "4p-lose-influence": (
            CoupView(
                viewer=None,
                num_seats=4,
                phase=Phase.LOSE_INFLUENCE,
                turn=0,
                players=players([(9, (), 2), (1, (Card.AMBASSADOR,), 1), (0, (), 2), (4, (), 2)]),
                action=PendingActionView(action=ActionKind.COUP, actor=0, target=1),
                losing=1,
                awaiting=(1,),
                **base,
            ),
            names,
        ),
        "3p-forced-coup": (
            CoupView(
                viewer=None,
                num_seats=3,
                phase=Phase.DECLARE,
                turn=0,
                players=players([(11, (Card.DUKE,), 1), (4, (), 2), (2, (Card.CAPTAIN,), 1)]),
                awaiting=(0,),
                forced_coup=True,
                **base,
            ),
            names,
        ),
        "2p-over": (
            CoupView(
                viewer=None,
                num_seats=2,
                phase=Phase.OVER,
                turn=1,
                players=players([(0, (Card.CAPTAIN, Card.DUKE), 0), (6, (Card.AMBASSADOR,), 1)]),
                eliminated=(0,),
                winner=1,
                **base,
            ),
            names[:2],
        ),
        "6p-private-exchange": (
            CoupView(
                viewer=2,
                num_seats=6,
                phase=Phase.EXCHANGE,
                turn=2,
                players=tuple(
                    p.model_copy(update={"hand": (Card.DUKE, Card.CONTESSA)}) if p.seat == 2 else p for p in six
                ),
                action=PendingActionView(action=ActionKind.EXCHANGE, actor=2, claim=Card.AMBASSADOR),
                awaiting=(2,),
                eliminated=(3,),
                **base,
            ),
            names,
        ),
    }
    return views


def _main() -> None:
    """Write the sample boards to /tmp/render-samples/ and report render time and size per seat count."""
    view, names = sample_views()["6p-respond-steal"]
    per_seats = {
        f"{seats} seats": (
            view.model_copy(
                update={"num_seats": seats, "players": view.players[:seats], "awaiting": view.awaiting[: seats - 1]}
            ),
            names,
        )
        for seats in range(2, 7)
    }
    write_samples("coup", sample_views(), render_coup_board, runs=200, timed=per_seats)


if __name__ == "__main__":
    _main()
