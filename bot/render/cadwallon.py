"""Board images of «Гильдии Кадвалона» (Guilds of Cadwallon), drawn from the public ``CadwallonView`` only.

Two boards. The compact one (:func:`render_cadwallon_compact`, 560×560) is the board message's
picture: a 400-px phone shows an embed image at most 280×280 (the desktop 400×280), so it is square
and holds only what reads there with no text under 11 px as shown (22 px drawn): the grid with each
card's crest, value, support and marks, the agents as numbered seat badges on drawn boulevards, the
barricade, the slot names on the margins, whose move it is and the round, and a strip of players
with their agents to place, hand size and score (names only where a cell has room for them: up to
four players).

The full board (:func:`render_cadwallon_board`, sent privately by the **Full board** button) shows
what digest §11 makes public: the grid of district cards (guild crest, guild or penalty points,
support value, district type, this round's marks), the agents on the boulevards in their players'
colours (one that Double Agent turned is crossed out by a red "no" ring: it supports nobody), the
barricade, slot names on the margins (rows А–Д on a Russian board) and every boulevard in small type
on its gap, written as the two slots it joins (``B2│B3``, :func:`boulevard_text`) as in the selects,
the log and the command; then per
player the agents still to place, hand size, running score, captured cards by crest and played
actions; the condition card, this round's plays, the last Capture, the First Player, the round, the
deck and reserve sizes (never a countdown: the embed's live one runs on, an image would stand
still). A finished game shows the final ranking with each score's parts. Both boards refuse a view
carrying a hand, a contract, a pending card or a Tarot peek that its viewer may not see, so a leak
in a caller cannot reach an image.

Guild crests are simple Pillow figures, one per guild, on a disc of the guild's colour: a coin
(Usurers), a gem (Jewelers), crossed blades (Blades), a star (Zodiac), a key (Thieves), a boat
(Ferrymen), a set square (Architects) and a flask (Alchemists). Militia carry a shield, personalities
a mask and actions a scroll (the panel's buttons wear 🛡 and 📜 to match). Every card value is a
HOUSE card (digest §2); the footer says so, under a legend of the district letters. The footer
keeps room for its most lines, so the image height stays the same through a game. Seats are
numbered discs (:func:`bot.render.common.seat_badge`) on agents and in the player list.

Run ``python -m bot.render.cadwallon`` to write sample boards of both kinds (played with the real
engine) to ``/tmp/render-samples/`` and print render time and PNG size per sample.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import normalize_locale, translate
from bot.render.common import (
    CREAM,
    DRAW_LOCK,
    FELT,
    FELT_EDGE,
    FELT_LINE,
    GOLD,
    GOLD_DARK,
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
    fill_circle,
    fill_rounded,
    fit_font,
    fit_text,
    font,
    hires_canvas,
    ink_on,
    min_font_size,
    mix,
    palette_from,
    paste_rgba,
    seat_badge,
    seat_colour,
    water_level,
    write_samples,
)
from games.cadwallon.board import board
from games.cadwallon.cards import CARDS, GUILD_ORDER
from games.cadwallon.models import (
    AgentView,
    BoulevardView,
    CadwallonView,
    CaptureOutcome,
    CaptureView,
    CardInfo,
    Category,
    EndReason,
    Guild,
    GuildScore,
    MarkView,
    Phase,
    PlayedActionView,
    PlayerView,
    ScoreBreakdown,
    SlotView,
    TurnStep,
)

__all__ = [
    "boulevard_text",
    "check_visibility",
    "reference_view",
    "render_cadwallon_board",
    "render_cadwallon_compact",
    "render_cadwallon_hand",
    "row_letters",
    "sample_views",
    "slot_text",
]

# ----------------------------------------------------------------------------- layout
MARGIN = 20
HEADER_H = 62
LABEL = 22  # the margins holding slot names (row letters left, column numbers on top)
GAP = 40  # a boulevard: the gap between two cards
SIDE_GAP = 22
SIDE_W = 350
PLAYER_H = 80
PLAYER_GAP = 6
FOOTER_LINE = 24
#: The footer's most lines: condition, this round, last capture, legend and the house-cards note.
FOOTER_LINES = 5
AGENT_D = 24
MARK_D = 20
#: The sign of each mark on a grid card (language-neutral; the footer and the log name the card).
MARK_SIGNS: dict[str, str] = {
    "A07": "+2",
    "A08": "∅",
    "A09": "⊘",
    "A14": "⚖",
    "A17": "×2",
    "A24": "+1",
    "A26": "★",
}
#: Card size per grid side: bigger cards where the grid is small.
CARD_SIZE: dict[int, tuple[int, int]] = {3: (150, 118), 4: (132, 106), 5: (118, 96)}
Box = tuple[float, float, float, float]

# ----------------------------------------------------------------------------- palette
#: Guild colours: the crest disc, and (darkened) the background of the guild's cards.
GUILD_COLOURS: dict[Guild, Rgb] = {
    Guild.USU: (212, 168, 58),
    Guild.JEW: (200, 52, 92),
    Guild.BLA: (86, 128, 190),
    Guild.ZOD: (128, 86, 198),
    Guild.THI: (96, 112, 92),
    Guild.FER: (34, 156, 164),
    Guild.ARC: (206, 112, 58),
    Guild.ALC: (76, 170, 84),
}
INK: Rgb = (28, 24, 20)
MILITIA: Rgb = (74, 84, 100)
PERSONALITY: Rgb = (120, 70, 120)
ACTION: Rgb = (34, 92, 96)
CARD_DARK = 0.55  # how far a card background is mixed toward the panel colour
S_BLUE: Rgb = (70, 150, 230)
S_CHANGED: Rgb = (245, 150, 40)
PP_BLACK: Rgb = (24, 24, 28)
BARRICADE: Rgb = (150, 90, 50)
GAP_CODE: Rgb = (150, 186, 170)  # contrast 6 with the felt (WCAG 4.5 for text)
EMPTY_SLOT: Rgb = (20, 70, 53)
MEDALS: tuple[Rgb, ...] = (GOLD, (196, 204, 214), (210, 134, 68))


# ----------------------------------------------------------------------------- notation
#: Row letters by locale: a Russian board names its rows А–Д (columns are numbers everywhere).
ROW_LETTERS: dict[str, str] = {"ru": "АБВГД", "en": "ABCDE"}
#: Between two cards of a row (│) and of a column (─): a boulevard reads as the two slots it joins.
EAST_MARK, SOUTH_MARK = "\N{BOX DRAWINGS LIGHT VERTICAL}", "\N{BOX DRAWINGS LIGHT HORIZONTAL}"


def row_letters(locale: str) -> str:
    """Return the five row letters of the board in ``locale`` (``ABCDE`` or ``АБВГД``)."""
    return ROW_LETTERS.get(normalize_locale(locale), ROW_LETTERS["en"])


def slot_text(slot: str, locale: str) -> str:
    """Return slot ``slot`` (engine name ``B2``) as players read it: ``B2``, or ``Б2`` on a Russian board.

    >>> slot_text("B2", "ru"), slot_text("E5", "en")
    ('Б2', 'E5')
    """
    return row_letters(locale)["ABCDE".index(slot[0])] + slot[1:]


def boulevard_text(code: str, locale: str) -> str:
    """Return boulevard ``code`` (engine name ``B2E``/``B2S``) in the one notation used everywhere.

    A boulevard reads as the two slots it joins: ``B2│B3`` between columns, ``B2─C2`` between rows
    (``Б2│Б3``, ``Б2─В2`` on a Russian board), on the image, in the selects, the log and the
    command alike.

    >>> boulevard_text("B2E", "en"), boulevard_text("A3S", "ru")
    ('B2│B3', 'А3─Б3')
    """
    row, column, side = code[0], int(code[1:-1]), code[-1]
    if side == "E":
        return f"{slot_text(f'{row}{column}', locale)}{EAST_MARK}{slot_text(f'{row}{column + 1}', locale)}"
    below = "ABCDE"["ABCDE".index(row) + 1]
    return f"{slot_text(f'{row}{column}', locale)}{SOUTH_MARK}{slot_text(f'{below}{column}', locale)}"


def check_visibility(view: CadwallonView) -> None:
    """Raise ``ValueError`` if ``view`` holds private cards or choices its viewer may not see.

    Hands are public only under Open Books (C09); contracts only once the game is over; the
    pending card and the Tarot peek belong to the turn seat's own view.
    """
    who = "the public view" if view.viewer is None else f"the view of seat {view.viewer}"
    open_hands = view.condition == "C09"
    finished = view.phase is Phase.FINISHED
    for player in view.players:
        if player.seat == view.viewer:
            continue
        if player.hand is not None and not open_hands:
            raise ValueError(f"{who} carries the hand of seat {player.seat}; refusing to draw hidden cards")
        if player.contract is not None and not finished:
            raise ValueError(f"{who} carries the contract of seat {player.seat}; refusing to draw hidden cards")
    if view.viewer is None and (view.pending is not None or view.peek is not None):
        raise ValueError("the public view carries a private choice; refusing to draw hidden cards")


# ----------------------------------------------------------------------------- public entry point
def render_cadwallon_board(
    view: CadwallonView,
    names: Sequence[str],
    locale: str,
) -> bytes:
    """Draw the full, detailed «Гильдии Кадвалона» board for ``view`` and return it as PNG bytes.

    The image depends only on the arguments, so the same call always yields the same bytes.

    Args:
        view: The view to draw (the public view for the table; a seat's view draws the same board).
        names: Display names by seat; missing or undrawable names fall back to "Игрок N".
        locale: Locale of the labels (``ru``, ``en``, or a Discord locale such as ``en-US``).

    Returns:
        The PNG-encoded board.

    Raises:
        ValueError: If the view carries hidden cards or choices its viewer may not see.
    """
    check_visibility(view)
    with DRAW_LOCK:
        image = _Board(view, names, locale).draw()
        palette = board_palette()
    return encode_png(image, palette)


# ----------------------------------------------------------------------------- crests and icons
Glyph = Callable[[ImageDraw.ImageDraw, Box, Rgb, Rgb], None]


def _coin(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Usurers: a coin with a square hole."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    d.ellipse((x0 + w * 0.08, y0 + w * 0.08, x1 - w * 0.08, y1 - w * 0.08), fill=ink)
    d.ellipse((x0 + w * 0.2, y0 + w * 0.2, x1 - w * 0.2, y1 - w * 0.2), outline=bg, width=max(1, round(w * 0.06)))
    h = w * 0.13
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=bg)


def _gem(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Jewelers: a cut gem."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    top, girdle = y0 + h * 0.18, y0 + h * 0.4
    outline = [
        (x0 + w * 0.28, top),
        (x0 + w * 0.72, top),
        (x0 + w * 0.95, girdle),
        (x0 + w * 0.5, y0 + h * 0.92),
        (x0 + w * 0.05, girdle),
    ]
    d.polygon(outline, fill=ink)
    line = max(1, round(w * 0.05))
    d.line([(x0 + w * 0.05, girdle), (x0 + w * 0.95, girdle)], fill=bg, width=line)
    d.line([(x0 + w * 0.36, girdle), (x0 + w * 0.5, y0 + h * 0.92), (x0 + w * 0.64, girdle)], fill=bg, width=line)


def _blades(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    """Blades: two crossed swords."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    blade = [(-0.06, -0.5), (0.06, -0.5), (0.06, 0.22), (-0.06, 0.22)]
    guard = [(-0.2, 0.22), (0.2, 0.22), (0.2, 0.3), (-0.2, 0.3)]
    grip = [(-0.05, 0.3), (0.05, 0.3), (0.05, 0.48), (-0.05, 0.48)]
    for angle in (-40, 40):
        for shape in (blade, guard, grip):
            d.polygon(_rotated(shape, (cx, cy), w, angle), fill=ink)


def _star(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    """Zodiac: a five-pointed star."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) * 0.04, (x1 - x0) * 0.5
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.42
        angle = math.radians(-90 + 36 * i)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    d.polygon(points, fill=ink)


def _key(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Thieves: a key."""
    x0, y0, x1, _y1 = box
    w = x1 - x0
    r = w * 0.22
    cx, cy = x0 + w * 0.3, y0 + w * 0.32
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    d.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=bg)
    shaft = [(-0.05, -0.02), (0.05, -0.02), (0.05, 0.62), (-0.05, 0.62)]
    d.polygon(_rotated(shaft, (cx, cy + r * 0.8), w, -45), fill=ink)
    for step in (0.38, 0.52):
        bit = [(0.0, step), (0.17, step), (0.17, step + 0.07), (0.0, step + 0.07)]
        d.polygon(_rotated(bit, (cx, cy + r * 0.8), w, -45), fill=ink)


def _boat(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, _bg: Rgb) -> None:
    """Ferrymen: a boat with a sail."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.polygon(
        [(x0, y0 + h * 0.62), (x1, y0 + h * 0.62), (x0 + w * 0.8, y0 + h * 0.9), (x0 + w * 0.2, y0 + h * 0.9)],
        fill=ink,
    )
    d.polygon([(x0 + w * 0.5, y0 + h * 0.04), (x0 + w * 0.5, y0 + h * 0.56), (x0 + w * 0.12, y0 + h * 0.56)], fill=ink)
    d.polygon(
        [(x0 + w * 0.56, y0 + h * 0.14), (x0 + w * 0.56, y0 + h * 0.56), (x0 + w * 0.86, y0 + h * 0.56)], fill=ink
    )


def _square(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Architects: a set square."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.polygon(
        [(x0 + w * 0.08, y0 + h * 0.05), (x0 + w * 0.08, y1 - h * 0.05), (x1 - w * 0.05, y1 - h * 0.05)], fill=ink
    )
    d.polygon([(x0 + w * 0.26, y0 + h * 0.45), (x0 + w * 0.26, y1 - h * 0.22), (x0 + w * 0.56, y1 - h * 0.22)], fill=bg)


def _flask(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Alchemists: a round flask."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.34
    cx, cy = (x0 + x1) / 2, y0 + h * 0.62
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    d.rectangle((cx - w * 0.09, y0 + h * 0.06, cx + w * 0.09, cy - r * 0.6), fill=ink)
    d.rectangle((cx - w * 0.16, y0 + h * 0.02, cx + w * 0.16, y0 + h * 0.1), fill=ink)
    d.ellipse((cx - r * 0.45, cy - r * 0.1, cx - r * 0.05, cy + r * 0.3), fill=bg)


def _shield(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Militia: a shield with a bar."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.polygon(
        [
            (x0 + w * 0.1, y0 + h * 0.08),
            (x1 - w * 0.1, y0 + h * 0.08),
            (x1 - w * 0.1, y0 + h * 0.5),
            (x0 + w * 0.5, y1 - h * 0.02),
            (x0 + w * 0.1, y0 + h * 0.5),
        ],
        fill=ink,
    )
    d.rectangle((x0 + w * 0.44, y0 + h * 0.16, x0 + w * 0.56, y0 + h * 0.8), fill=bg)


def _mask(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Personality: a masquerade mask."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.rounded_rectangle((x0 + w * 0.02, y0 + h * 0.3, x1 - w * 0.02, y0 + h * 0.72), radius=w * 0.18, fill=ink)
    for cx in (x0 + w * 0.3, x0 + w * 0.7):
        d.ellipse((cx - w * 0.12, y0 + h * 0.42, cx + w * 0.12, y0 + h * 0.58), fill=bg)


def _scroll(d: ImageDraw.ImageDraw, box: Box, ink: Rgb, bg: Rgb) -> None:
    """Action: a scroll."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    d.rectangle((x0 + w * 0.18, y0 + h * 0.14, x1 - w * 0.18, y1 - h * 0.14), fill=ink)
    for cy in (y0 + h * 0.14, y1 - h * 0.14):
        d.ellipse((x0 + w * 0.06, cy - h * 0.1, x1 - w * 0.06, cy + h * 0.1), fill=ink)
    line = max(1, round(w * 0.05))
    for fy in (0.36, 0.5, 0.64):
        d.line([(x0 + w * 0.3, y0 + h * fy), (x1 - w * 0.3, y0 + h * fy)], fill=bg, width=line)


def _rotated(
    points: Sequence[tuple[float, float]], centre: tuple[float, float], scale: float, angle: float
) -> list[tuple[float, float]]:
    """Return ``points`` (unit coordinates around 0, 0) scaled, rotated by ``angle`` degrees and moved."""
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = centre
    return [(cx + scale * (x * cos - y * sin), cy + scale * (x * sin + y * cos)) for x, y in points]


GLYPHS: dict[Guild, Glyph] = {
    Guild.USU: _coin,
    Guild.JEW: _gem,
    Guild.BLA: _blades,
    Guild.ZOD: _star,
    Guild.THI: _key,
    Guild.FER: _boat,
    Guild.ARC: _square,
    Guild.ALC: _flask,
}
CATEGORY_GLYPHS: dict[Category, tuple[Glyph, Rgb]] = {
    Category.MILITIA: (_shield, (150, 162, 180)),
    Category.PERSONALITY: (_mask, (206, 150, 206)),
    Category.ACTION: (_scroll, (98, 196, 190)),
}


@lru_cache(maxsize=128)
def crest_icon(guild: Guild, diameter: int) -> Image.Image:
    """Return the crest of ``guild``: a cream-rimmed disc in the guild colour with its figure (RGBA)."""
    image, d = hires_canvas(diameter, diameter)
    full = image.width
    d.ellipse((0, 0, full - 1, full - 1), fill=CREAM)
    ring = full * 0.08
    colour = GUILD_COLOURS[guild]
    d.ellipse((ring, ring, full - 1 - ring, full - 1 - ring), fill=colour)
    g = full * 0.24
    GLYPHS[guild](d, (g, g, full - g, full - g), INK, colour)
    return downsample(image)


@lru_cache(maxsize=64)
def category_icon(category: Category, diameter: int) -> Image.Image:
    """Return the mark of a crestless category (militia shield, personality mask, action scroll)."""
    glyph, colour = CATEGORY_GLYPHS[category]
    image, d = hires_canvas(diameter, diameter)
    full = image.width
    d.ellipse((0, 0, full - 1, full - 1), fill=CREAM)
    ring = full * 0.08
    d.ellipse((ring, ring, full - 1 - ring, full - 1 - ring), fill=colour)
    g = full * 0.22
    glyph(d, (g, g, full - g, full - g), INK, colour)
    return downsample(image)


def card_icon(info: CardInfo, diameter: int) -> Image.Image:
    """Return the crest of a card's guild, or its category's mark."""
    if info.guild is not None:
        return crest_icon(info.guild, diameter)
    return category_icon(info.category, diameter)


def card_colour(info: CardInfo) -> Rgb:
    """Return the background colour of a card: its guild's, darkened, or its category's."""
    if info.guild is not None:
        return mix(GUILD_COLOURS[info.guild], PANEL, CARD_DARK)
    return {Category.MILITIA: MILITIA, Category.PERSONALITY: PERSONALITY}.get(info.category, ACTION)


@lru_cache(maxsize=64)
def support_badge(value: int, size: int, changed: bool, min_font: int = 0) -> Image.Image:
    """Return the support value S as a diamond (orange when marks changed it this round); its font ≥ ``min_font``."""
    image, d = hires_canvas(size, size)
    full = image.width
    c = full / 2
    d.polygon([(c, 0), (full - 1, c), (c, full - 1), (0, c)], fill=CREAM)
    inset = full * 0.09
    colour = S_CHANGED if changed else S_BLUE
    d.polygon([(c, inset), (full - 1 - inset, c), (c, full - 1 - inset), (inset, c)], fill=colour)
    icon = downsample(image)
    draw = ImageDraw.Draw(icon)
    draw.text(
        (size / 2, size / 2 + 0.5),
        str(value),
        font=font(Face.BOLD, max(min_font, round(size * 0.5))),
        fill=TEXT_DARK,
        anchor="mm",
    )
    return icon


@lru_cache(maxsize=64)
def value_badge(text: str, size: int, kind: str, min_font: int = 7) -> Image.Image:
    """Return a round value badge: guild points (gold), penalty points (black) or wild (violet); font ≥ ``min_font``."""
    fill, ink = {"gp": (GOLD, TEXT_DARK), "pp": (PP_BLACK, CREAM), "wild": ((170, 110, 200), CREAM)}[kind]
    image, d = hires_canvas(size, size)
    full = image.width
    d.ellipse((0, 0, full - 1, full - 1), fill=CREAM if kind != "gp" else GOLD_DARK)
    ring = full * 0.09
    d.ellipse((ring, ring, full - 1 - ring, full - 1 - ring), fill=fill)
    icon = downsample(image)
    fnt = fit_font(text, Face.CONDENSED_BOLD, max(min_font, round(size * 0.52)), size * 0.84, min_font)
    ImageDraw.Draw(icon).text((size / 2, size / 2 + 0.5), text, font=fnt, fill=ink, anchor="mm")
    return icon


# ----------------------------------------------------------------------------- text (cached)
@lru_cache(maxsize=4096)
def _text_mask(text: str, fnt: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """Return the anti-aliased mask of ``text`` and its offset from the anchor point.

    Rasterising text is most of a board's cost, and a board repeats nearly all of its text from
    one render to the next (codes, names, labels), so masks are kept; fonts come from the shared
    cache, so a font object stands for its face and size. Callers hold ``DRAW_LOCK``.
    """
    box = fnt.getbbox(text, anchor=anchor)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, (left, top)


@lru_cache(maxsize=4096)
def _length(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """Return the advance width of ``text`` (cached like the masks)."""
    return fnt.getlength(text)


@lru_cache(maxsize=4096)
def _fit(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> str:
    """Return :func:`fit_text` of the arguments (cached like the masks)."""
    return fit_text(text, fnt, width)


# ----------------------------------------------------------------------------- card faces (cached)
def _greedy_lines(words: Sequence[str], fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Return ``words`` broken greedily into lines of at most ``width`` pixels (a long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and fnt.getlength(trial) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def _name_lines(
    text: str, width: float, lines: int, size: int, min_size: int
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """Return the largest condensed bold font (``size`` down to ``min_size``) that sets ``text`` in ``lines`` lines.

    A name that fits no size is cut with "…" at the smallest one.
    """
    words = text.split()
    for candidate in range(size, min_size - 1, -1):
        fnt = font(Face.CONDENSED_BOLD, candidate)
        out = _greedy_lines(words, fnt, width)
        if len(out) <= lines and all(fnt.getlength(line) <= width for line in out):
            return fnt, out
    fnt = font(Face.CONDENSED_BOLD, min_size)
    out = _greedy_lines(words, fnt, width)
    head, tail = out[: lines - 1], " ".join(out[lines - 1 :])
    return fnt, [fit_text(line, fnt, width) for line in [*head, tail]]


@lru_cache(maxsize=1024)
def card_face(
    card: str, support: int, size: tuple[int, int], title: str, subtitle: str, district: str, min_font: int = 0
) -> Image.Image:
    """Return the face of a grid card (RGB): crest, name, district, points and support.

    ``support`` is the card's support this round (drawn orange when it differs from the printed
    value); ``title``/``subtitle`` are the localized name lines; ``district`` the district letter.
    ``min_font`` floors every text's size (the hand picture's readability rule; the full board has none).
    """
    info = CARDS[card]
    w, h = size
    image = Image.new("RGB", size, FELT)
    colour = card_colour(info)
    rim = GOLD_DARK if info.category is Category.CREDITOR else mix(colour, CREAM, 0.35)
    fill_rounded(image, (0, 0, w, h), 9, colour, outline=rim, width=2)
    band = mix(colour, (0, 0, 0), 0.25)
    image.paste(band, (2, round(h * 0.36), w - 2, round(h * 0.37)))
    draw = ImageDraw.Draw(image)
    icon_d = round(h * 0.3)
    paste_rgba(image, card_icon(info, icon_d), (6, 6))
    chip = font(Face.BOLD, max(10, min_font, round(h * 0.13)))
    cw = max(18, round(chip.getlength(district)) + 8)
    fill_rounded(image, (w - cw - 6, 7, w - 6, 7 + round(h * 0.19)), 4, STRIP)
    draw.text((w - 6 - cw / 2, 7 + h * 0.095), district, font=chip, fill=CREAM, anchor="mm")
    name_min = max(9, min_font)
    name_font, lines = _name_lines(title, w - 12, 1 if subtitle else 2, max(11, name_min, round(h * 0.15)), name_min)
    fonts = [name_font] * len(lines)
    if subtitle:
        sub_font = font(Face.CONDENSED, max(10, min_font, round(h * 0.13)))
        lines.append(fit_text(subtitle, sub_font, w - 12))
        fonts.append(sub_font)
    y = h * 0.55 - (len(lines) - 1) * h * 0.08
    for line, fnt in zip(lines, fonts, strict=True):
        draw.text((w / 2, y), line, font=fnt, fill=CREAM, anchor="mm")
        y += h * 0.16
    badge = round(h * 0.27)
    bottom = h - badge - 5
    if info.category is Category.MILITIA:
        value = value_badge(f"−{info.pp}", badge, "pp", max(7, min_font))
    elif info.category is Category.PERSONALITY:
        value = value_badge("★", badge, "wild", max(7, min_font))
    elif info.category is Category.CREDITOR:
        value = value_badge("+1", badge, "gp", max(7, min_font))
    else:
        value = value_badge(str(info.gp), badge, "gp", max(7, min_font))
    paste_rgba(image, value, (6, bottom))
    paste_rgba(image, support_badge(support, badge + 2, support != info.support, min_font), (w - badge - 8, bottom - 1))
    return image


# ----------------------------------------------------------------------------- the private hand
#: The hand picture: 400 px wide, three cards to a row, in the board's card faces, and the secret
#: contract as a gold-rimmed tile after them. A 400-px phone shows it 280 px wide (at 0.7), so every
#: text on it is at least :func:`min_font_size` of its size (16 px for up to two rows), and the
#: cards are square to give their name, district, value and support that much room.
HAND_WIDTH = 400
HAND_CARD = (124, 124)
HAND_GAP = 8
HAND_PAD = 8
HAND_PER_ROW = 3


def render_cadwallon_hand(view: CadwallonView, names: Sequence[str], locale: str) -> bytes | None:
    """Draw the viewer's own action cards and contract for their private panel (PNG).

    ``None`` for a spectator, or when the viewer holds nothing to show. The cards are the board's
    card faces (scroll mark, name, district, value, support), so a card looks the same on the
    board, in the hand and (as 📜) on the buttons; their text is held to the phone's scale.
    """
    check_visibility(view)
    if view.viewer is None:
        return None
    del names  # the hand is the viewer's own: no names on it
    me = next(p for p in view.players if p.seat == view.viewer)
    cards = list(me.hand or ())
    tiles = len(cards) + (1 if me.contract else 0)
    if not tiles:
        return None
    rows = math.ceil(tiles / HAND_PER_ROW)
    card_w, card_h = HAND_CARD
    height = 2 * HAND_PAD + rows * card_h + (rows - 1) * HAND_GAP
    least = min_font_size(HAND_WIDTH, height)
    with DRAW_LOCK:
        image = Image.new("RGB", (HAND_WIDTH, height), FELT_EDGE)
        fill_rounded(image, (0, 0, HAND_WIDTH, height), 12, FELT, outline=FELT_LINE, width=2)
        positions = [
            (
                HAND_PAD + (i % HAND_PER_ROW) * (card_w + HAND_GAP),
                HAND_PAD + (i // HAND_PER_ROW) * (card_h + HAND_GAP),
            )
            for i in range(tiles)
        ]
        district = {d: translate(locale, f"render_cadwallon.district.{d}") for d in ("D", "M", "O", "H")}
        for card, xy in zip(cards, positions, strict=False):
            info = CARDS[card]
            title = translate(locale, f"cadwallon.action.{card}") if info.category is Category.ACTION else ""
            title = title or _plain_name(card, locale)
            face = card_face(card, info.support, HAND_CARD, title, "", district[info.district.value], least)
            image.paste(face, xy)
        if me.contract:
            x, y = positions[-1]
            fill_rounded(image, (x, y, x + card_w, y + card_h), 9, PANEL, outline=GOLD, width=2)
            d = ImageDraw.Draw(image)
            tag = font(Face.BOLD, least)
            d.text(
                (x + card_w / 2, y + 6 + least / 2),
                translate(locale, "look.cadwallon.contract").upper(),
                font=tag,
                fill=GOLD,
                anchor="mm",
            )
            name = translate(locale, f"cadwallon.contract.{me.contract}")
            name_font, lines = _name_lines(name, card_w - 12, 4, least, least)
            step = least + 3
            head = 12 + least
            line_y = y + head + (card_h - head) / 2 - (len(lines) - 1) * step / 2
            for line in lines:
                d.text((x + card_w / 2, line_y), line, font=name_font, fill=CREAM, anchor="mm")
                line_y += step
        palette = board_palette()
    return encode_png(image, palette)


# ----------------------------------------------------------------------------- the board
class _Board:
    """One drawing of the board: layout, then header, grid, boulevards, players and footer."""

    def __init__(self, view: CadwallonView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.finished = view.phase is Phase.FINISHED
        self.names = {p.seat: self._name(names, p.seat) for p in view.players}
        self.n = view.grid
        self.geo = board(view.grid)
        self.card_w, self.card_h = CARD_SIZE.get(view.grid, CARD_SIZE[5])
        self.grid_w = self.n * self.card_w + (self.n - 1) * GAP
        self.grid_h = self.n * self.card_h + (self.n - 1) * GAP
        self.gx = MARGIN + LABEL
        self.gy = HEADER_H + LABEL + 6
        self.side_x = self.gx + self.grid_w + SIDE_GAP
        self.by_agent = {a.id: a for a in view.agents}
        self.result = {b.seat: b for b in view.result or ()} if self.finished else {}
        self.footer = self._footer_lines()
        side_h = len(view.players) * (PLAYER_H + PLAYER_GAP) - PLAYER_GAP
        body = max(self.grid_h + LABEL + 6, side_h)
        # The footer keeps room for its most lines, so the image height never changes during a game.
        height = HEADER_H + body + 14 + FOOTER_LINE * FOOTER_LINES + MARGIN
        width = self.side_x + SIDE_W + MARGIN
        self.image = Image.new("RGB", (width, height), FELT_EDGE)
        self.d = ImageDraw.Draw(self.image)

    # -- helpers
    def t(self, key: str, **params: object) -> str:
        """Translate ``render_cadwallon.<key>``."""
        return translate(self.locale, f"render_cadwallon.{key}", **params)

    def g(self, key: str, **params: object) -> str:
        """Translate ``cadwallon.<key>`` (names shared with the presenter)."""
        return translate(self.locale, f"cadwallon.{key}", **params)

    def _name(self, names: Sequence[str], seat: int) -> str:
        name = clean_text(names[seat]) if seat < len(names) else ""
        return name or self.t("player", n=seat + 1)

    def text(
        self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, anchor: str = "lm"
    ) -> None:
        """Draw ``text`` at ``xy`` from a cached glyph mask (boards repeat most of their text)."""
        _paste_text(self.image, xy, text, fnt, fill, anchor)

    def slot_xy(self, index: int) -> tuple[int, int]:
        """Return the top-left corner of slot ``index``."""
        r, c = divmod(index, self.n)
        return self.gx + c * (self.card_w + GAP), self.gy + r * (self.card_h + GAP)

    def card_names(self, info: CardInfo) -> tuple[str, str]:
        """Return the title and subtitle a card face shows."""
        if info.category is Category.GUILD and info.guild is not None:
            return self.g(f"guild.{info.guild.value}"), ""
        if info.category is Category.CREDITOR and info.guild is not None:
            return self.t("creditor"), self.g(f"guild.{info.guild.value}")
        if info.category is Category.PERSONALITY:
            return self.g(f"personality_short.{info.id}"), ""
        if info.category is Category.MILITIA:
            return self.g(f"militia.{info.id}"), ""
        return self.g(f"action.{info.id}"), ""

    # -- drawing
    def draw(self) -> Image.Image:
        """Draw every part and return the image."""
        self._header()
        self._grid()
        self._boulevards()
        self._players()
        self._footer()
        return self.image

    def _header(self) -> None:
        v = self.view
        w = self.image.width
        self.image.paste(STRIP, (0, 0, w, HEADER_H))
        title = font(Face.BOLD, 24)
        self.text((MARGIN, 22), self.t("title"), title, GOLD)
        info = font(Face.REGULAR, 16)
        facts = [self.t("round", n=v.round), self.t("deck", n=v.deck_size), self.t("reserve", n=v.reserve_size)]
        self.text((MARGIN, 47), " · ".join(facts), info, TEXT_MUTED)
        status = self._status()
        right = w - MARGIN
        left = MARGIN + max(_length(self.t("title"), title), _length(" · ".join(facts), info)) + 24
        sf = fit_font(status, Face.BOLD, 19, right - left, 13)
        self.text((right, 31), _fit(status, sf, right - left), sf, TEXT, "rm")

    def _status(self) -> str:
        v = self.view
        if self.finished:
            winners = [self.names[b.seat] for b in v.result or () if b.rank == 0]
            if not winners:
                return self.t("status.over_plain")
            key = "status.over_shared" if len(winners) > 1 else "status.over"
            return self.t(key, names=", ".join(winners))
        name = self.names.get(v.turn, "—") if v.turn is not None else "—"
        if v.step is TurnStep.ACT:
            return self.t("status.act", name=name)
        if v.step is TurnStep.TAROT:
            return self.t("status.tarot", name=name)
        return self.t("status.place", name=name)

    def _grid(self) -> None:
        v = self.view
        fill_rounded(
            self.image,
            (self.gx - 10, self.gy - 10, self.gx + self.grid_w + 10, self.gy + self.grid_h + 10),
            14,
            FELT,
            outline=FELT_LINE,
            width=2,
        )
        label = font(Face.BOLD, 17)
        for i in range(self.n):
            x, y = self.slot_xy(i * self.n)
            self.text((MARGIN + LABEL / 2 - 4, y + self.card_h / 2), row_letters(self.locale)[i], label, GOLD, "mm")
            x, y = self.slot_xy(i)
            self.text((x + self.card_w / 2, HEADER_H + LABEL / 2 + 2), str(i + 1), label, GOLD, "mm")
        districts = {d: self.t(f"district.{d}") for d in ("D", "M", "O", "H")}
        for slot in v.slots:
            x, y = self.slot_xy(slot.index)
            if slot.card is None:
                fill_rounded(self.image, (x, y, x + self.card_w, y + self.card_h), 9, EMPTY_SLOT)
                where = slot_text(slot.slot, self.locale)
                self.text((x + self.card_w / 2, y + self.card_h / 2), where, font(Face.BOLD, 18), FELT_LINE, "mm")
                continue
            title, subtitle = self.card_names(slot.card)
            face = card_face(
                slot.card.id,
                slot.effective_support,
                (self.card_w, self.card_h),
                title,
                subtitle,
                districts[slot.card.district.value],
            )
            self.image.paste(face, (x, y))
            self._marks(slot, x, y)

    def _marks(self, slot: SlotView, x: int, y: int) -> None:
        """Draw this round's marks on a card: a disc in the marking player's colour with the mark's sign.

        The signs (``+2`` Bribe, ``∅`` Slander, ``⊘`` Curfew, ``⚖`` Arbitration, ``×2`` Rally, ``+1``
        Tithe, ``★`` Patronage) sit between the crest and the district chip; the footer names them.
        """
        if not slot.marks:
            return
        fnt = font(Face.BOLD, 11)
        shown = slot.marks[:2]
        cx = x + self.card_w / 2 - 12 * (len(shown) - 1)
        cy = y + round(self.card_h * 0.16)
        for mark in shown:
            fill_circle(self.image, (round(cx), cy), MARK_D + 4, TEXT_DARK)
            fill_circle(self.image, (round(cx), cy), MARK_D, seat_colour(mark.seat))
            self.text((cx, cy + 1), MARK_SIGNS.get(mark.card, "•"), fnt, TEXT_DARK, "mm")
            cx += 24
        if len(slot.marks) > len(shown):
            self.text((cx - 10, cy), f"+{len(slot.marks) - len(shown)}", fnt, CREAM)

    def _boulevards(self) -> None:
        v = self.view
        code_font = font(Face.CONDENSED, 11)
        number = font(Face.BOLD, 13)
        for blvd in v.boulevards:
            ax, ay = self.slot_xy(self.geo.ends[blvd.index][0])
            if blvd.orientation == "E":
                x0, y0, x1, y1 = ax + self.card_w, ay, ax + self.card_w + GAP, ay + self.card_h
            else:
                x0, y0, x1, y1 = ax, ay + self.card_h, ax + self.card_w, ay + self.card_h + GAP
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            code = boulevard_text(blvd.boulevard, self.locale)
            agents = [self.by_agent[i] for i in blvd.agents if i in self.by_agent]
            if blvd.barricade:
                self._barricade(blvd, (x0, y0, x1, y1))
            if not agents:
                colour = CREAM if blvd.barricade else GAP_CODE
                self.text(
                    (cx, cy + (14 if blvd.barricade and blvd.orientation == "E" else 0)),
                    code,
                    code_font,
                    colour,
                    "mm",
                )
                continue
            if blvd.orientation == "E":
                self.text((cx, y0 + 8), code, code_font, GAP_CODE, "mm")
                spots = [(cx, cy + 4)] if len(agents) == 1 else [(cx, cy - 10), (cx, cy + 18)]
            else:
                self.text((x0 + 4 + _length(code, code_font) / 2, cy), code, code_font, GAP_CODE, "mm")
                spots = [(cx, cy)] if len(agents) == 1 else [(cx - 14, cy), (cx + 14, cy)]
            for agent, (px, py) in zip(agents, spots, strict=False):
                self._agent(agent, round(px), round(py), number)

    def _agent(self, agent: AgentView, x: int, y: int, number: ImageFont.FreeTypeFont) -> None:
        """Draw an agent: a disc in its owner's colour with the seat number (crossed out when turned)."""
        del number  # the shared seat badge sizes its own number
        if agent.turned:
            turned_mark(self.image, (x, y), AGENT_D + 2)
        fill_circle(self.image, (x, y), AGENT_D + 2, TEXT_DARK)
        seat_badge(self.image, (x, y), AGENT_D - 2, agent.owner)

    def _barricade(self, blvd: BoulevardView, box: Box) -> None:
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if blvd.orientation == "E":
            bar = (round(cx - 7), round(y0 + 6), round(cx + 7), round(y1 - 6))
        else:
            bar = (round(x0 + 6), round(cy - 7), round(x1 - 6), round(cy + 7))
        fill_rounded(self.image, bar, 4, BARRICADE, outline=TEXT_DARK, width=1)
        self.d.line([(bar[0] + 2, bar[1] + 2), (bar[2] - 2, bar[3] - 2)], fill=TEXT_DARK, width=2)
        self.d.line([(bar[0] + 2, bar[3] - 2), (bar[2] - 2, bar[1] + 2)], fill=TEXT_DARK, width=2)

    # -- players
    def _players(self) -> None:
        v = self.view
        order = sorted(v.players, key=lambda p: (self.result[p.seat].rank, p.seat)) if self.result else v.players
        room = SIDE_W - 24 - 110
        name_font = font(Face.BOLD, 17)
        widths = sorted((_length(self.names[p.seat], name_font) for p in v.players), reverse=True)
        overflow = sum(max(0.0, w_ - room) for w_ in widths)
        cap = water_level(widths, overflow) if overflow else room
        y = HEADER_H + 4
        for player in order:
            self._player(player, self.side_x, y, min(cap, room))
            y += PLAYER_H + PLAYER_GAP

    def _player(self, p: PlayerView, x: int, y: int, name_room: float) -> None:
        v = self.view
        turn = not self.finished and v.turn == p.seat
        result = self.result.get(p.seat)
        winner = result is not None and result.rank == 0
        bg = PANEL_WINNER if winner else PANEL
        edge = seat_colour(p.seat) if turn else PANEL_EDGE
        fill_rounded(self.image, (x, y, x + SIDE_W, y + PLAYER_H), 10, bg, outline=edge, width=3 if turn else 1)
        if result is not None:
            medal = MEDALS[result.rank] if result.rank < len(MEDALS) else TEXT_MUTED
            fill_circle(self.image, (x + 20, y + 20), 26, medal)
            self.text((x + 20, y + 21), str(result.rank + 1), font(Face.BOLD, 15), TEXT_DARK, "mm")
        else:
            seat_badge(self.image, (x + 20, y + 20), AGENT_D, p.seat)
        name_font = font(Face.BOLD, 17)
        name = _fit(self.names[p.seat], name_font, name_room)
        self.text((x + 40, y + 20), name, name_font, TEXT_MUTED if p.resigned else TEXT)
        bx = x + 40 + _length(name, name_font) + 8
        badges = []
        if not self.finished and v.first_seat == p.seat:
            badges.append((self.t("badge.first"), GOLD))
        if p.resigned:
            badges.append((self.t("badge.resigned"), TEXT_MUTED))
        if p.protected and not self.finished:
            badges.append((self.t("badge.protected"), S_BLUE))
        if result is not None and [r.total for r in self.result.values()].count(result.total) > 1:
            badges.append((self.t("part.crests", n=result.crests), S_BLUE))  # the tie-break decides
        chip = font(Face.CONDENSED_BOLD, 12)
        for text, colour in badges:
            width = _length(text, chip) + 10
            if bx + width > x + SIDE_W - 70:
                break
            fill_rounded(self.image, (round(bx), y + 11, round(bx + width), y + 29), 5, colour)
            self.text((bx + 5, y + 20), text, chip, TEXT_DARK)
            bx += width + 5
        score = result.total if result is not None else p.live_score
        sf = font(Face.BOLD, 24)
        self.text((x + SIDE_W - 12, y + 21), str(score), sf, GOLD, "rm")
        if result is not None:
            self._breakdown(result, x + 12, y + 46)
        else:
            self._supply(p, x + 12, y + 46)
        self._captured(p, x + 12, y + 66)

    def _supply(self, p: PlayerView, x: int, y: int) -> None:
        """Draw the agents to place (filled) and placed (hollow), then hand size and played actions on the right."""
        small = font(Face.REGULAR, 13)
        right = f"{self.t('hand', n=p.hand_size)} · {self.t('played', n=len(p.played))}"
        width = SIDE_W - 24
        self.text((x + width, y), right, small, TEXT_MUTED, "rm")
        total = p.agents_per_round if self.view.phase is Phase.DEPLOY and not p.resigned else 0
        if not total:
            return
        room = width - _length(right, small) - 12
        step = max(5, min(10, int(room // total)))
        d = step - 2
        colour = seat_colour(p.seat)
        for i in range(total):
            fill_circle(self.image, (x + d // 2 + i * step, y), d, colour if i < p.supply else PANEL_EDGE)
        label = self.t("agents", n=p.supply)
        tx = x + total * step + 6
        if tx + _length(label, small) <= x + room:
            self.text((tx, y), label, small, TEXT_MUTED)

    def _breakdown(self, b: ScoreBreakdown, x: int, y: int) -> None:
        """Draw one finished player's score parts: guilds, actions, militia, contract."""
        parts = [self.t("part.guilds", n=b.guild_points - b.austerity_loss + b.free_spirit_points)]
        if b.action_points:
            parts.append(self.t("part.actions", n=b.action_points))
        if b.militia_penalty or b.informer_penalty:
            parts.append(self.t("part.militia", n=b.militia_penalty + b.informer_penalty))
        if b.contract is not None and b.contract_met:  # a failed one adds nothing; the result message names it
            parts.append(self.t("part.contract", n=b.contract_points))
        line = " · ".join(parts)
        small = fit_font(line, Face.CONDENSED, 14, SIDE_W - 24, 11)
        self.text((x, y), _fit(line, small, SIDE_W - 24), small, TEXT)

    def _captured(self, p: PlayerView, x: int, y: int) -> None:
        """Draw the captured cards as chips: a crest and count per guild (C: its Creditor), personalities, militia."""
        chips: list[tuple[Image.Image, str]] = []
        for guild in GUILD_ORDER:
            members = sum(1 for c in p.captured if CARDS[c].category is Category.GUILD and CARDS[c].guild is guild)
            creditor = f"{guild.value}-C" in p.captured
            if members or creditor:
                text = (f"{members}+C" if creditor else str(members)) if members else "C"
                chips.append((crest_icon(guild, 18), text))
        for category in (Category.PERSONALITY, Category.MILITIA):
            count = sum(1 for c in p.captured if CARDS[c].category is category)
            if count:
                chips.append((category_icon(category, 18), str(count)))
        small = font(Face.BOLD, 13)
        if not chips:
            self.text((x, y), self.t("none_captured"), font(Face.REGULAR, 13), TEXT_MUTED)
            return
        cx = x
        for icon, text in chips:
            if cx + 18 + _length(text, small) > x + SIDE_W - 24:
                break
            paste_rgba(self.image, icon, (cx, y - 9))
            self.text((cx + 21, y + 1), text, small, TEXT)
            cx += 21 + round(_length(text, small)) + 9

    # -- footer
    def _footer_lines(self) -> list[str]:
        v = self.view
        lines: list[str] = []
        if v.condition is not None:
            name = self.g(f"condition.{v.condition}")
            lines.append(self.t("condition", name=name, text=self.g(f"condition_text.{v.condition}")))
        if not self.finished:
            marked = {(m.card, m.seat): m.slot for slot in v.slots for m in slot.marks}
            plays = []
            for play in v.round_plays:
                card = self.g(f"action.{play.card}")
                where = marked.get((play.card, play.seat))
                if where is not None:
                    card = f"{card} {MARK_SIGNS[play.card]} {slot_text(where, self.locale)}"
                plays.append(self.t("play", name=self.names.get(play.seat, "?"), card=card))
            extra = []
            if v.revealed is not None:
                extra.append(self.t("windfall", card=_plain_name(v.revealed, self.locale)))
            if v.actions_closed:
                extra.append(self.t("closed"))
            if plays or extra:
                lines.append(self.t("this_round", items=" · ".join(plays + extra) or "—"))
        if v.last_capture and v.last_capture_round is not None:
            lines.append(self._capture_line())
        lines.append(self._legend())
        lines.append(self.t("house"))
        return lines

    def _legend(self) -> str:
        """Return the legend line: the district letters on the cards, and how a boulevard is written.

        While an agent Double Agent turned is on the board, its red ring is explained instead of the
        boulevard notation (the selects and the command show that notation too).
        """
        districts = " · ".join(
            translate(
                self.locale, "look.cadwallon.district", letter=self.t(f"district.{d}"), name=self.g(f"district.{d}")
            )
            for d in ("D", "M", "O", "H")
        )
        if any(agent.turned for agent in self.view.agents):
            return translate(self.locale, "look.cadwallon.legend_turned", districts=districts)
        return translate(
            self.locale,
            "look.cadwallon.legend",
            districts=districts,
            example=boulevard_text("B2E", self.locale),
            west=slot_text("B2", self.locale),
            east=slot_text("B3", self.locale),
        )

    def _capture_line(self) -> str:
        v = self.view
        taken: dict[int, list[str]] = {}
        stayed: list[str] = []
        for result in v.last_capture:
            if result.winner is not None:
                taken.setdefault(result.winner, []).append(slot_text(result.slot, self.locale))
            elif result.outcome is CaptureOutcome.TIE:
                stayed.append(self.t("tie", slot=slot_text(result.slot, self.locale)))
            elif result.outcome is CaptureOutcome.CURFEW:
                stayed.append(self.t("curfew", slot=slot_text(result.slot, self.locale)))
        items = [f"{self.names.get(s, '?')} {', '.join(slots)}" for s, slots in sorted(taken.items())]
        if stayed:
            items.append(self.t("stayed", slots=", ".join(stayed)))
        return self.t("last_capture", round=v.last_capture_round, items=" · ".join(items) or self.t("nothing"))

    def _footer(self) -> None:
        y = self.image.height - MARGIN - FOOTER_LINE * len(self.footer) + FOOTER_LINE // 2
        width = self.image.width - 2 * MARGIN
        regular = font(Face.REGULAR, 15)
        for index, line in enumerate(self.footer):
            last = index == len(self.footer) - 1
            fnt = font(Face.REGULAR, 13) if last else regular
            self.text((MARGIN, y), _fit(line, fnt, width), fnt, TEXT_MUTED if last else TEXT)
            y += FOOTER_LINE


def _plain_name(card: str, locale: str) -> str:
    """Return a card's display name for the footer (same names as the presenter's)."""
    info = CARDS[card]
    if info.category is Category.GUILD and info.guild is not None:
        guild = translate(locale, f"cadwallon.guild.{info.guild.value}")
        return translate(locale, "cadwallon.label.member", guild=guild, k=card[-1])
    if info.category is Category.CREDITOR and info.guild is not None:
        return translate(locale, f"cadwallon.creditor.{info.guild.value}")
    if info.category is Category.PERSONALITY:
        return translate(locale, f"cadwallon.personality_short.{card}")
    if info.category is Category.MILITIA:
        return translate(locale, f"cadwallon.militia.{card}")
    return translate(locale, f"cadwallon.action.{card}")


# ----------------------------------------------------------------------------- the compact board
#: The compact board is square like the phone's 280×280 embed box, which is the stricter of the two
#: boxes the client shows an image in (400×280 on the desktop): it is shown at 1/2 (280×280 px)
#: on both, and no font on it may be under :data:`COMPACT_MIN_FONT` (22 px, which shows 11 px tall).
COMPACT_W = COMPACT_H = 560
COMPACT_MIN_FONT = min_font_size(COMPACT_W, COMPACT_H)
C_PAD = 6
C_LABEL = 24  # the margins holding the row letters (left) and column numbers (top)
#: The player strip at the bottom: one row of two-line cells up to four players, else two rows.
C_STRIP_H = 76
C_STATUS_H = 30  # the status line above it: whose move it is, the round and the deck
C_STRIP_Y = COMPACT_H - C_PAD - C_STRIP_H
C_STATUS_Y = C_STRIP_Y - 2 - C_STATUS_H
#: The field (its felt backdrop) holding the cards and the boulevards between them, inside the margins.
C_FIELD = (C_PAD + C_LABEL, C_PAD + C_LABEL, COMPACT_W - C_PAD, C_STATUS_Y - 2)
C_INSET = 4  # between the backdrop's edge and the cards
#: Boulevard width per grid side; an agent's badge may reach a little over the cards' edges.
C_GAP: dict[int, int] = {3: 40, 4: 32, 5: 26}
C_CELL_GAP = 4
#: Every font size the compact board asks for (the tests hold them, and the badges', to the rule).
C_FONT = COMPACT_MIN_FONT
#: The smallest seat badge that holds its number at :data:`COMPACT_MIN_FONT` (at most 0.8 of the disc).
C_BADGE = math.ceil(COMPACT_MIN_FONT / 0.8)


def render_cadwallon_compact(view: CadwallonView, names: Sequence[str], locale: str) -> bytes:
    """Draw the compact «Гильдии Кадвалона» board for ``view`` and return it as PNG bytes.

    Only what a player needs at a glance, readable on a phone: the grid (each card's crest, value
    and support, this round's marks), the agents as numbered seat badges on drawn boulevards, the
    barricade, the slot names on the margins, whose move it is with the round and the deck, and per
    player their agents to place, hand size and score (or place and score once the game is over).
    Card names, boulevard labels, captured cards, played actions, the condition and the footer
    are on the full board (:func:`render_cadwallon_board`), as are the players' names where a
    table of five or more leaves their cells no room. Every table draws at the same 560×560, so the
    image never changes size between edits.

    Raises:
        ValueError: If the view carries hidden cards or choices its viewer may not see.
    """
    check_visibility(view)
    with DRAW_LOCK:
        image = _Compact(view, names, locale).draw()
        palette = board_palette()
    return encode_png(image, palette)


#: The value chips of the compact board by kind: (fill, rim).
COMPACT_VALUE_FILLS: dict[str, tuple[Rgb, Rgb]] = {
    "gp": (GOLD, GOLD_DARK),
    "pp": (PP_BLACK, CREAM),
    "wild": ((170, 110, 200), CREAM),
}


@lru_cache(maxsize=64)
def compact_value(text: str, kind: str, height: int, size: int) -> Image.Image:
    """Return a card's value on the compact board: a pill (gold points, black penalty, violet wild) with ``text``."""
    fill, rim = COMPACT_VALUE_FILLS[kind]
    ink = ink_on(fill)  # dark on the violet wild too, where the full board's cream falls under WCAG's 4.5
    fnt = font(Face.CONDENSED_BOLD, size)
    width = max(height, math.ceil(fnt.getlength(text)) + 10)
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    fill_rounded(image, (0, 0, width, height), height // 2, rim)
    fill_rounded(image, (2, 2, width - 2, height - 2), height // 2 - 2, fill)
    ImageDraw.Draw(image).text((width / 2, height / 2 + 1), text, font=fnt, fill=ink, anchor="mm")
    return image


@lru_cache(maxsize=64)
def compact_support(value: int, diameter: int, size: int, changed: bool) -> Image.Image:
    """Return the support value S as the board's diamond, its number at font ``size`` (orange if changed)."""
    image, d = hires_canvas(diameter, diameter)
    full = image.width
    c = full / 2
    d.polygon([(c, 0), (full - 1, c), (c, full - 1), (0, c)], fill=CREAM)
    inset = full * 0.08
    colour = S_CHANGED if changed else S_BLUE
    d.polygon([(c, inset), (full - 1 - inset, c), (c, full - 1 - inset), (inset, c)], fill=colour)
    icon = downsample(image)
    ImageDraw.Draw(icon).text(
        (diameter / 2, diameter / 2 + 1), str(value), font=font(Face.BOLD, size), fill=TEXT_DARK, anchor="mm"
    )
    return icon


def _card_value(info: CardInfo) -> tuple[str, str]:
    """Return the text and the kind of a card's value chip (as the full board's value badge)."""
    if info.category is Category.MILITIA:
        return f"−{info.pp}", "pp"
    if info.category is Category.PERSONALITY:
        return "★", "wild"
    if info.category is Category.CREDITOR:
        return "+1", "gp"
    return str(info.gp), "gp"


def turned_mark(image: Image.Image, centre: tuple[int, int], diameter: int) -> None:
    """Draw the mark of an agent Double Agent turned under its badge: a red "no" sign around it.

    Since revision 5 a turned agent supports nobody. The ring and the ends of its slash stick out of
    the badge drawn over it, so the seat number stays whole and the agent still reads as its owner's.
    """
    x, y = centre
    outer = diameter + 12
    fill_circle(image, (x, y), outer + 2, TEXT_DARK)
    fill_circle(image, (x, y), outer, RED)
    fill_circle(image, (x, y), outer - 8, TEXT_DARK)
    reach = round((outer + 2) / 2 * 0.72)
    ImageDraw.Draw(image).line([(x - reach, y + reach), (x + reach, y - reach)], fill=RED, width=5)


class _Compact:
    """One drawing of the compact board: the grid on top, the status line and the player strip below."""

    def __init__(self, view: CadwallonView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.finished = view.phase is Phase.FINISHED
        self.names = {p.seat: _seat_name(names, p.seat, locale) for p in view.players}
        self.n = view.grid
        self.geo = board(view.grid)
        self.gap = C_GAP.get(view.grid, C_GAP[5])
        x0, y0, x1, y1 = C_FIELD
        room_w, room_h = x1 - x0 - 2 * C_INSET, y1 - y0 - 2 * C_INSET
        self.cw = (room_w - (self.n - 1) * self.gap) // self.n
        self.ch = (room_h - (self.n - 1) * self.gap) // self.n
        self.gx = x0 + C_INSET + (room_w - self.n * self.cw - (self.n - 1) * self.gap) // 2
        self.gy = y0 + C_INSET + (room_h - self.n * self.ch - (self.n - 1) * self.gap) // 2
        self.agent_d = max(C_BADGE, min(self.gap + 4, 40))
        self.by_agent = {a.id: a for a in view.agents}
        self.result = {b.seat: b for b in view.result or ()} if self.finished else {}
        self.image = Image.new("RGB", (COMPACT_W, COMPACT_H), FELT_EDGE)
        self.d = ImageDraw.Draw(self.image)

    def t(self, key: str, **params: object) -> str:
        """Translate ``render_cadwallon.<key>``."""
        return translate(self.locale, f"render_cadwallon.{key}", **params)

    def text(
        self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, anchor: str = "lm"
    ) -> None:
        """Draw ``text`` at ``xy`` from a cached glyph mask."""
        _paste_text(self.image, xy, text, fnt, fill, anchor)

    def slot_xy(self, index: int) -> tuple[int, int]:
        """Return the top-left corner of slot ``index``."""
        r, c = divmod(index, self.n)
        return self.gx + c * (self.cw + self.gap), self.gy + r * (self.ch + self.gap)

    def draw(self) -> Image.Image:
        """Draw every part and return the image."""
        self._grid()
        self._boulevards()
        self._status_line()
        self._strip()
        return self.image

    # -- the grid
    def _grid(self) -> None:
        fill_rounded(self.image, C_FIELD, 12, FELT, outline=FELT_LINE, width=2)
        label = font(Face.BOLD, C_FONT)
        for i in range(self.n):
            _x, y = self.slot_xy(i * self.n)
            self.text((C_PAD + C_LABEL / 2, y + self.ch / 2), row_letters(self.locale)[i], label, GOLD, "mm")
            x, _y = self.slot_xy(i)
            self.text((x + self.cw / 2, C_PAD + C_LABEL / 2), str(i + 1), label, GOLD, "mm")
        for slot in self.view.slots:
            x, y = self.slot_xy(slot.index)
            if slot.card is None:
                fill_rounded(self.image, (x, y, x + self.cw, y + self.ch), 8, EMPTY_SLOT)
                continue
            self._card(slot, slot.card, x, y)

    def _card(self, slot: SlotView, info: CardInfo, x: int, y: int) -> None:
        """Draw one grid card: crest and marks on top, value (left) and support (right) below."""
        w, h = self.cw, self.ch
        colour = card_colour(info)
        rim = GOLD_DARK if info.category is Category.CREDITOR else mix(colour, CREAM, 0.35)
        fill_rounded(self.image, (x, y, x + w, y + h), 8, colour, outline=rim, width=2)
        crest = min(52, (h - 8) // 2)
        paste_rgba(self.image, card_icon(info, crest), (x + 4, y + 3))
        text, kind = _card_value(info)
        value = compact_value(text, kind, crest, max(C_FONT, round(crest * 0.62)))
        paste_rgba(self.image, value, (x + 3, y + h - crest - 3))
        diamond = max(30, round(h * 0.46))
        changed = slot.effective_support != info.support
        support = compact_support(slot.effective_support, diamond, max(C_FONT, round(diamond * 0.5)), changed)
        paste_rgba(self.image, support, (x + w - diamond - 3, y + h - diamond - 3))
        self._marks(slot, x, y, room=w - crest - 10)

    def _marks(self, slot: SlotView, x: int, y: int, room: int) -> None:
        """Draw this round's marks at the card's top right: chips in the marking players' colours with the sign.

        As many chips as fit beside the crest get their sign; any more show as small discs in their
        players' colours on the card's top edge (the full board's footer lists every mark).
        """
        if not slot.marks:
            return
        chip = max(28, round(self.ch * 0.36))  # holds a two-character sign at the smallest font
        fits = max(1, (room + 2) // (chip + 2))
        fnt = font(Face.CONDENSED_BOLD, max(C_FONT, round(chip * 0.6)))
        right, top = x + self.cw - 3, y + 3
        for mark in slot.marks[:fits]:
            colour = seat_colour(mark.seat)
            fill_rounded(self.image, (right - chip, top, right, top + chip), 7, TEXT_DARK)
            fill_rounded(self.image, (right - chip + 2, top + 2, right - 2, top + chip - 2), 5, colour)
            self.text((right - chip / 2, top + chip / 2 + 1), MARK_SIGNS.get(mark.card, "•"), fnt, ink_on(colour), "mm")
            right -= chip + 2
        more = slot.marks[fits:]
        for index, mark in enumerate(more):  # on the card's top edge left of the chips
            dot = (round(right - 6 - 12 * index), y + 1)
            fill_circle(self.image, dot, 14, TEXT_DARK)
            fill_circle(self.image, dot, 10, seat_colour(mark.seat))

    # -- boulevards and agents
    def _boulevards(self) -> None:
        for blvd in self.view.boulevards:
            ax, ay = self.slot_xy(self.geo.ends[blvd.index][0])
            w, h, g = self.cw, self.ch, self.gap
            # The street: a lane down the gap, so an empty boulevard reads as a place for an agent.
            if blvd.orientation == "E":
                x0, y0, x1, y1 = ax + w, ay, ax + w + g, ay + h
                cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
                lane = (cx - 3, y0 + 8, cx + 3, y1 - 8)
            else:
                x0, y0, x1, y1 = ax, ay + h, ax + w, ay + h + g
                cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
                lane = (x0 + 10, cy - 3, x1 - 10, cy + 3)
            fill_rounded(self.image, lane, 3, FELT_LINE)
            if blvd.barricade:
                self._barricade(blvd.orientation, (x0, y0, x1, y1))
            agents = [self.by_agent[i] for i in blvd.agents if i in self.by_agent]
            step = self.agent_d // 2 + 1
            if len(agents) == 1:
                spots = [(cx, cy)]
            elif blvd.orientation == "E":
                spots = [(cx, cy - step), (cx, cy + step)]
            else:
                spots = [(cx - step, cy), (cx + step, cy)]
            for agent, spot in zip(agents, spots, strict=False):
                self._agent(agent, spot)

    def _agent(self, agent: AgentView, centre: tuple[int, int]) -> None:
        """Draw an agent: its owner's numbered seat badge (crossed out when turned)."""
        if agent.turned:
            turned_mark(self.image, centre, self.agent_d)
        seat_badge(self.image, centre, self.agent_d, agent.owner, max(C_FONT, round(self.agent_d * 0.62)))

    def _barricade(self, orientation: str, box: Box) -> None:
        x0, y0, x1, y1 = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = max(7, round(self.gap * 0.3))
        if orientation == "E":
            bar = (round(cx - half), round(y0 + 6), round(cx + half), round(y1 - 6))
        else:
            bar = (round(x0 + 6), round(cy - half), round(x1 - 6), round(cy + half))
        fill_rounded(self.image, bar, 4, BARRICADE, outline=TEXT_DARK, width=2)
        self.d.line([(bar[0] + 3, bar[1] + 3), (bar[2] - 3, bar[3] - 3)], fill=TEXT_DARK, width=3)
        self.d.line([(bar[0] + 3, bar[3] - 3), (bar[2] - 3, bar[1] + 3)], fill=TEXT_DARK, width=3)

    # -- the status line: whose move (or who won), then the round and the deck
    def _status_line(self) -> None:
        v = self.view
        left, right = C_FIELD[0], COMPACT_W - C_PAD
        y = C_STATUS_Y + C_STATUS_H / 2
        small = font(Face.CONDENSED, C_FONT)
        bold = font(Face.CONDENSED_BOLD, C_FONT)
        # The round always shows; the deck only beside a status that needs no cut.
        facts = self.t("round", n=v.round)
        with_deck = f"{facts} · {self.t('deck', n=v.deck_size)}"
        if _length(self._status(bold, 10_000.0), bold) + 16 + _length(with_deck, small) <= right - left:
            facts = with_deck
        self.text((right, y), facts, small, TEXT_MUTED, "rm")
        self.text((left, y), self._status(bold, right - left - 16 - _length(facts, small)), bold, TEXT)

    def _status(self, fnt: ImageFont.FreeTypeFont, width: float) -> str:
        """Return whose move it is, or who won (the full board's wording), with the names cut to fit ``width``."""
        v = self.view
        if self.finished:
            winners = [self.names[b.seat] for b in v.result or () if b.rank == 0]
            if not winners:
                return _fit(self.t("status.over_plain"), fnt, width)
            key = "status.over_shared" if len(winners) > 1 else "status.over"
            rest = _length(self.t(key, names=""), fnt)
            return _fit(self.t(key, names=_fit(", ".join(winners), fnt, max(0.0, width - rest))), fnt, width)
        name = self.names.get(v.turn, "—") if v.turn is not None else "—"
        key = {TurnStep.ACT: "status.act", TurnStep.TAROT: "status.tarot"}.get(v.step or TurnStep.PLACE, "status.place")
        rest = _length(self.t(key, name=""), fnt)
        return _fit(self.t(key, name=_fit(name, fnt, max(0.0, width - rest))), fnt, width)

    # -- the player strip
    def _strip(self) -> None:
        v = self.view
        players = sorted(v.players, key=lambda p: (self.result[p.seat].rank, p.seat)) if self.result else v.players
        count = max(1, len(players))
        two_lines = count <= 4
        per_row = count if two_lines else math.ceil(count / 2)
        rows = 1 if two_lines else 2
        left, right = C_PAD, COMPACT_W - C_PAD
        w = (right - left - (per_row - 1) * C_CELL_GAP) // per_row
        h = (C_STRIP_H - (rows - 1) * C_CELL_GAP) // rows
        for index, player in enumerate(players):
            r, c = divmod(index, per_row)
            x, y = left + c * (w + C_CELL_GAP), C_STRIP_Y + r * (h + C_CELL_GAP)
            self._player(player, (x, y, x + w, y + h), two_lines)

    def _player(self, p: PlayerView, box: tuple[int, int, int, int], two_lines: bool) -> None:
        """Draw one player's cell: seat badge and name, agents to place, hand size and score (or place and score).

        A two-line cell (up to four players) has the badge and name on top and the numbers below;
        a one-line cell has them all in a row, and the name only where it leaves room for some six
        letters.
        """
        v = self.view
        x0, y0, x1, y1 = box
        turn = not self.finished and v.turn == p.seat
        result = self.result.get(p.seat)
        bg = PANEL_WINNER if result is not None and result.rank == 0 else PANEL
        edge = seat_colour(p.seat) if turn else PANEL_EDGE
        fill_rounded(self.image, box, 8, bg, outline=edge, width=3 if turn else 1)
        top = y0 + (y1 - y0) // 4 if two_lines else (y0 + y1) // 2
        bottom = y0 + 3 * (y1 - y0) // 4 if two_lines else top
        seat_badge(self.image, (x0 + 2 + C_BADGE // 2, top), C_BADGE, p.seat, C_FONT)
        name_x = x0 + 6 + C_BADGE
        # The numbers, left to right: agents to place and hand size (or the place), then the score.
        parts: list[tuple[int, Callable[[int], None]]] = []
        if result is not None:
            parts.append(self._place(result.rank, bottom, wide=two_lines))
        else:
            if v.phase is Phase.DEPLOY and not p.resigned:
                parts.append(self._count(str(p.supply), bottom, pawn=seat_colour(p.seat)))
            parts.append(self._count(str(p.hand_size), bottom, pawn=None))
        score_font = font(Face.CONDENSED_BOLD, C_FONT)
        score = str(result.total if result is not None else p.live_score)
        score_w = round(_length(score, score_font))
        parts.append((score_w, lambda x: self.text((x + score_w, bottom), score, score_font, GOLD, "rm")))
        # Right-aligned, 4 px apart and 8 px before the score (the cells of eight players have no more).
        gaps = [4] * (len(parts) - 2) + [8, 0]
        x = x1 - 5 - sum(w for w, _ in parts) - sum(gaps)
        name_font = font(Face.CONDENSED_BOLD, C_FONT)
        name_right = x1 - 6 if two_lines else x - 8
        if name_right - name_x >= 3.5 * C_FONT:
            name = _fit(self.names[p.seat], name_font, name_right - name_x)
            self.text((name_x, top), name, name_font, TEXT_MUTED if p.resigned else TEXT)
        for (width, draw), gap in zip(parts, gaps, strict=True):
            draw(x)
            x += width + gap

    def _count(self, text: str, y: int, pawn: Rgb | None) -> tuple[int, Callable[[int], None]]:
        """Return the width and the drawing of a small icon and ``text`` on line ``y``.

        The icon is a pawn in ``pawn``'s colour (agents to place), else a face-down card (hand size).
        """
        small = font(Face.CONDENSED, C_FONT)
        icon = 12 if pawn is None else 14
        width = icon + 2 + round(_length(text, small))

        def draw(x: int) -> None:
            if pawn is None:
                _card_back(self.image, (x + 6, y))
            else:
                _pawn(self.image, (x + 7, y), pawn)
            self.text((x + width, y), text, small, TEXT, "rm")

        return width, draw

    def _place(self, rank: int, y: int, wide: bool) -> tuple[int, Callable[[int], None]]:
        """Return the width and the drawing of a finished player's place, in its medal's colour.

        A wide cell writes it out ("1 место"); a narrow one has a chip "№1" ("#1" in English).
        """
        medal = MEDALS[rank] if rank < len(MEDALS) else TEXT_MUTED
        if wide:
            small = font(Face.CONDENSED, C_FONT)
            text = translate(self.locale, "look.cadwallon.rank", n=rank + 1)
            width = round(_length(text, small))
            return width, lambda x: self.text((x, y), text, small, medal)
        bold = font(Face.CONDENSED_BOLD, C_FONT)
        label = f"{'№' if normalize_locale(self.locale) == 'ru' else '#'}{rank + 1}"
        chip = round(_length(label, bold)) + 10

        def draw(x: int) -> None:
            fill_rounded(self.image, (x, y - C_BADGE // 2, x + chip, y + C_BADGE // 2), 6, medal)
            self.text((x + chip / 2, y + 1), label, bold, ink_on(medal), "mm")

        return chip, draw


def _pawn(image: Image.Image, centre: tuple[int, int], colour: Rgb) -> None:
    """Draw a small agent figure (head and body) in a seat's colour: the agents still to place."""
    x, y = centre
    fill_rounded(image, (x - 7, y - 2, x + 7, y + 10), 5, TEXT_DARK)
    fill_rounded(image, (x - 6, y - 1, x + 6, y + 9), 4, colour)
    fill_circle(image, (x, y - 6), 12, TEXT_DARK)
    fill_circle(image, (x, y - 6), 10, colour)


def _card_back(image: Image.Image, centre: tuple[int, int]) -> None:
    """Draw a small face-down card: the cards in a player's hand."""
    x, y = centre
    fill_rounded(image, (x - 6, y - 9, x + 6, y + 9), 3, CREAM)
    fill_rounded(image, (x - 4, y - 7, x + 4, y + 7), 2, ACTION)


def _seat_name(names: Sequence[str], seat: int, locale: str) -> str:
    """Return a seat's drawable name, or "Игрок N" when it has none."""
    name = clean_text(names[seat]) if seat < len(names) else ""
    return name or translate(locale, "render_cadwallon.player", n=seat + 1)


def _paste_text(
    image: Image.Image, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, anchor: str
) -> None:
    """Paste ``text`` at ``xy`` in ``fill`` from a cached glyph mask (boards repeat most of their text)."""
    if not text:
        return
    mask, (dx, dy) = _text_mask(text, fnt, anchor)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


# ----------------------------------------------------------------------------- reference views and palette
REFERENCE_NAMES = ["Наташа", "Саша", "Григорий", "Alex", "Мария", "Bob", "Ёжик", "Zoë"]
#: Cards dealt to a reference grid, in slot order: every category, guild and district shows up.
_REFERENCE_DECK = (
    "USU-1",
    "JEW-4",
    "M03",
    "P2",
    "BLA-3",
    "A06",
    "ZOD-2",
    "THI-C",
    "FER-2",
    "ARC-1",
    "M05",
    "ALC-3",
    "A13",
    "P7",
    "USU-2",
    "JEW-C",
    "THI-4",
    "BLA-1",
    "M08",
    "ZOD-4",
    "A21",
    "FER-4",
    "ALC-1",
    "P5",
    "ARC-3",
)


def reference_view(grid: int = 5, seats: int = 8, *, finished: bool = False) -> CadwallonView:
    """Return a hand-built public view (no engine): a mid-round board, or a finished game's.

    Every element of a board shows up: all categories and guilds, marks, a barricade, a turned
    agent, two agents on one boulevard, the condition, this round's plays and the last Capture.
    """
    geo = board(grid)
    cards = _REFERENCE_DECK[: grid * grid]
    marks = {
        2: (MarkView(card="A07", seat=1 % seats, slot=geo.slot_names[2], target=cards[2]),),
        4: (MarkView(card="A24", seat=0, slot=geo.slot_names[4], target=cards[4]),),
    }
    slots = []
    for index, card in enumerate(cards):
        name = geo.slot_names[index]
        info = CARDS[card]
        own = marks.get(index, ())
        support = info.support + (1 if index == 4 else 0)
        slots.append(
            SlotView(
                slot=name,
                index=index,
                row=index // grid,
                column=index % grid,
                card=info,
                effective_support=support,
                marks=own,
            )
        )
    per = {3: 6, 4: 6, 5: 5}[grid] if seats > 2 else 12
    agents: list[AgentView] = []
    placed = [0] * seats
    next_id = 0
    for b in range(0, len(geo.ends), 2 if grid == 5 else 3):
        seat = next_id % seats
        if placed[seat] >= per - 1:
            continue
        agents.append(
            AgentView(
                id=next_id,
                owner=seat,
                boulevard=geo.boulevard_names[b],
                boulevard_index=b,
                turned=next_id == 3,
            )
        )
        placed[seat] += 1
        next_id += 1
    agents.append(
        AgentView(
            id=next_id,
            owner=1 % seats,
            boulevard=agents[0].boulevard,
            boulevard_index=agents[0].boulevard_index,
        )
    )
    placed[1 % seats] += 1
    on: dict[int, list[int]] = {}
    for agent in agents:
        on.setdefault(agent.boulevard_index, []).append(agent.id)
    barricade = len(geo.ends) - 1
    values = [s.effective_support for s in slots]
    boulevards = tuple(
        BoulevardView(
            boulevard=geo.boulevard_names[b],
            index=b,
            orientation="E" if geo.orientation(b) == "E" else "S",
            slots=(geo.slot_names[x], geo.slot_names[y]),
            agents=tuple(on.get(b, ())),
            barricade=b == barricade,
            free=b not in on and b != barricade,
            support=(values[y], values[x]),
        )
        for b, (x, y) in enumerate(geo.ends)
    )
    captured = (("USU-3", "USU-4", "P1", "M01", "JEW-1", "ZOD-C"), ("BLA-2", "M02"), ("ZOD-1", "ZOD-3", "P3"))
    players = tuple(
        PlayerView(
            seat=s,
            supply=per - placed[s] if not finished else 0,
            agents_placed=placed[s] if not finished else 0,
            agents_per_round=per,
            hand_size=s % 3,
            captured=captured[s % 3] if s < 6 else (),
            played=("A02", "A11")[: s % 3],
            live_score=30 - 3 * s,
            crests=3 - s % 3,
            protected=s == 2,
            resigned=s == 7,
        )
        for s in range(seats)
    )
    last = (
        CaptureView(slot="A1", card="JEW-2", category=Category.GUILD, winner=0, support=5, outcome=CaptureOutcome.WON),
        CaptureView(
            slot="B2", card="M04", category=Category.MILITIA, support=3, outcome=CaptureOutcome.TIE, tied=(1, 2)
        ),
        CaptureView(
            slot="C3", card="P4", category=Category.PERSONALITY, winner=1 % seats, support=2, outcome=CaptureOutcome.WON
        ),
    )
    view = CadwallonView(
        viewer=None,
        num_seats=seats,
        version=57,
        grid=grid,
        expansion=grid != 3,
        phase=Phase.DEPLOY,
        round=3,
        first_seat=1 % seats,
        turn=2 % seats,
        step=TurnStep.PLACE,
        awaiting=(2 % seats,),
        slots=tuple(slots),
        boulevards=boulevards,
        agents=tuple(agents),
        barricade=geo.boulevard_names[barricade],
        free_boulevards=tuple(b.boulevard for b in boulevards if b.free),
        players=players,
        deck_size=31,
        reserve_size=9,
        condition="C07",
        conditions=True,
        contracts=True,
        round_plays=(PlayedActionView(seat=1 % seats, card="A07"), PlayedActionView(seat=0, card="A13")),
        revealed="M06",
        last_capture=last,
        last_capture_round=2,
    )
    if not finished:
        return view
    result = tuple(
        ScoreBreakdown(
            seat=s,
            guilds=(
                GuildScore(
                    guild=Guild.USU, members=("USU-3", "USU-4"), personalities=1, cards=3, gp=3, points=9, total=9
                ),
            ),
            guild_points=9 + s,
            action_cards=s % 3,
            action_points=2 * (s % 3),
            militia=("M01",),
            militia_pp=1,
            militia_penalty=1,
            contract="K05",
            contract_met=s % 2 == 0,
            contract_points=4 if s % 2 == 0 else 0,
            total=40 - 4 * s,
            crests=3,
            rank=s,
            resigned=s == 7,
        )
        for s in range(seats)
    )
    finished_players = tuple(p.model_copy(update={"contract": "K05", "supply": 0, "agents_placed": 0}) for p in players)
    return view.model_copy(
        update={
            "phase": Phase.FINISHED,
            "turn": None,
            "step": None,
            "awaiting": (),
            "agents": (),
            "boulevards": tuple(
                b.model_copy(update={"agents": (), "barricade": False, "free": True}) for b in boulevards
            ),
            "barricade": None,
            "players": finished_players,
            "round_plays": (),
            "revealed": None,
            "end_reason": EndReason.DECK_EXHAUSTED,
            "result": result,
        }
    )


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """Return the fixed 256-colour palette every board is encoded with (built once, in well under a second).

    It is fitted to hand-built reference boards (mid-round and finished, every seat colour) plus a
    sheet of every card face, so any board maps onto it faithfully, several times faster than
    fitting a palette per image, and the output stays a function of the arguments.
    """
    boards = [
        _Board(reference_view(5, 8), REFERENCE_NAMES, "ru").draw(),
        _Board(reference_view(3, 4), REFERENCE_NAMES, "en").draw(),
        _Board(reference_view(4, 6, finished=True), REFERENCE_NAMES, "ru").draw(),
        _Compact(reference_view(5, 8), REFERENCE_NAMES, "ru").draw(),
        _Compact(reference_view(3, 4, finished=True), REFERENCE_NAMES, "en").draw(),
    ]
    w, h = CARD_SIZE[5]
    per_row = 12
    rows = math.ceil(len(CARDS) / per_row)
    sheet = Image.new("RGB", (per_row * (w + 4), rows * (h + 4)), FELT)
    for index, (card, info) in enumerate(CARDS.items()):
        face = card_face(card, info.support + index % 2, (w, h), card, "", "D")
        sheet.paste(face, ((index % per_row) * (w + 4), (index // per_row) * (h + 4)))
    boards.append(sheet)
    return palette_from(boards)


# ----------------------------------------------------------------------------- samples and timing
SAMPLE_NAMES = [
    "Наташа",
    "Саша \N{FIRE}\N{FIRE}",
    "Григорий Константинопольский-Заде",
    "Alex",
    "\N{GRINNING FACE}",
    "Мария-Антуанетта \N{CROWN}",
    "Bob",
    "Ёжик в тумане",
]


def sample_views() -> dict[str, tuple[CadwallonView, list[str]]]:
    """Return public views of seeded random games played with the real engine, mid-game and at the end.

    3×3 with 2 players, 4×4 with 5, 5×5 with 8 (conditions and starting actions on), each mid-Deploy
    in round 2 and finished.
    """
    # Imported here, not at module level: only the samples need the engine, never the renderer.
    from games.cadwallon.engine import CadwallonEngine
    from games.cadwallon.models import CadwallonOptions
    from games.core.rng import GameRng

    engine = CadwallonEngine()

    def play(grid: int, seats: int, seed: str, stop: Callable[[CadwallonView], bool]) -> CadwallonView:
        options = CadwallonOptions(grid=grid, conditions=True, starting_action=True)
        state = engine.setup(seats, options, seed).state
        rng = GameRng(f"sample:{seed}")
        while state.phase is not Phase.FINISHED and not stop(engine.view(state, None)):
            seat = min(engine.active_seats(state))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat))).state
        return engine.view(state, None)

    def mid(view: CadwallonView) -> bool:
        return view.round >= 2 and len(view.agents) >= len(view.boulevards) // 2

    def never(_view: CadwallonView) -> bool:
        return False

    out: dict[str, tuple[CadwallonView, list[str]]] = {}
    for grid, seats in ((3, 2), (4, 5), (5, 8)):
        out[f"{grid}x{grid}-{seats}p-mid"] = (play(grid, seats, f"cw-{grid}-{seats}", mid), SAMPLE_NAMES)
        out[f"{grid}x{grid}-{seats}p-end"] = (play(grid, seats, f"cw-{grid}-{seats}", never), SAMPLE_NAMES)
    return out


def _main() -> None:
    """Write the compact and the full sample boards to /tmp/render-samples/; report render time and size."""
    write_samples("cadwallon", sample_views(), render_cadwallon_compact, runs=60)
    write_samples("cadwallon-full", sample_views(), render_cadwallon_board, runs=20)


if __name__ == "__main__":
    _main()
