"""Board image of «Интриги», drawn from an ``IntrigueView`` only.

The board shows what spec §3.5 makes public: the council (five seats, each character with every
player's influence tokens as coloured chips, its traits, disposition and whether it acted), the 7 or
9 lands (population as peaceful and military cells, land tokens, holder and majority, the head with
its tokens), face-down mercenaries on characters as card backs in their owner's colour, numbered
1, 2… in the order they were placed (never the type, nor the card's id), the pool and the dead,
each player's coins, hand size, influence and progress towards a coup or the will of the people,
the phase, turn and turn limit, the kill counter, whose decision it is, the vote in progress and the
latest reveals. Never a countdown: an image would stand still while the embed's live one runs on.

A view that carries anything its viewer may not see (a hand, a card's type or mode, the stock, a
draft or a sealed submission of another seat; any of them in the public view) is refused, so a leak
in a caller cannot reach an image. Nothing private is ever drawn, even from a seat's own view.

The board message shows a compact picture instead (:func:`render_intrigue_compact`, 800x800, no
text under 32 px, readable at the 280x280 a phone shows an embed image in): the turn, phase and who
is awaited, who holds each council seat and land, and each player's coins, hand size and progress;
the detailed board is what the **Full board** button sends.
:func:`render_intrigue_hand` draws the viewer's own mercenaries for its private panel.

Run ``python -m bot.render.intrigue`` to write sample boards to ``/tmp/render-samples/`` and print
render time and PNG size (hand-built views, and real games once the engine is registered).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
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
    encode_png,
    fill_circle,
    fill_rounded,
    fit_text,
    font,
    min_font_size,
    mix,
    palette_from,
    paste_rgba,
    rounded_mask,
    seat_badge,
    seat_colour,
    write_samples,
)
from games.intrigue.data import CHARACTERS, COUNCIL_SEATS, LANDS, CouncilSeat
from games.intrigue.models import (
    CharacterView,
    CharStatus,
    CouncilView,
    Decision,
    FaceDownView,
    IntrigueView,
    LandView,
    MercType,
    Phase,
    PlayerView,
    ResultView,
    RevealedView,
    RevealHow,
    VoteKind,
    VoteView,
)

__all__ = [
    "SEAT_RGB",
    "WIDTH",
    "card_number",
    "character_name",
    "check_visibility",
    "land_name",
    "reference_view",
    "render_intrigue_board",
    "render_intrigue_compact",
    "render_intrigue_hand",
]

# ----------------------------------------------------------------------------- layout
WIDTH = 1280
MARGIN = 16
GAP = 10
HEADER_H = 56
COUNCIL_TITLE_H = 24
COUNCIL_H = 146
LAND_H = 214
PLAYER_H = 104
STATUS_LINE_H = 27
CHIP = 22
#: A seat token in a line of the detailed board (the holder, the contested seats): the shared
#: :func:`~bot.render.common.seat_badge` at 14 px plus its ring, its number at 10 px like a small chip's (16 px in all).
BADGE = 14
BADGE_TEXT = 10
CHIP_GAP = 3
CARD_W, CARD_H = 32, 22  # a face-down card: owner's seat number, then its number on the character
CELL = 14
CELL_GAP = 2
PAD = 10

#: Seat colours of spec §1.7: red, blue, green, yellow, purple, orange, brown, white.
SEAT_RGB: tuple[Rgb, ...] = (
    (226, 64, 72),
    (56, 128, 236),
    (44, 172, 88),
    (240, 200, 54),
    (152, 92, 216),
    (244, 136, 38),
    (140, 92, 52),
    (236, 236, 232),
)
PEACEFUL: Rgb = (226, 212, 168)
MILITARY: Rgb = (178, 58, 52)
CELL_EMPTY: Rgb = (46, 60, 76)
HEAD_PANEL: Rgb = (30, 40, 54)
CARD_BACK: Rgb = (38, 42, 92)
DEAD_TEXT: Rgb = (120, 128, 140)

#: Decisions whose clock belongs to one seat alone (the others wait).
_COUNCIL_ORDER: tuple[CouncilSeat, ...] = COUNCIL_SEATS


def seat_rgb(seat: int) -> Rgb:
    """Return the colour of ``seat``: the shared seat palette (:func:`bot.render.common.seat_colour`).

    Spec §1.7 names red, blue, green, yellow, purple, orange, brown and white; :data:`SEAT_RGB`
    keeps those, but on the boards the shared palette is used so that every game's seats stay
    distinct for colour-blind players (issue 13), and every chip carries the seat's number too.
    """
    return seat_colour(seat)


def ink_on(colour: Rgb) -> Rgb:
    """Return dark or light text for a background of ``colour`` (by perceived brightness).

    >>> ink_on((240, 200, 54)) == TEXT_DARK, ink_on((56, 128, 236)) == TEXT
    (True, True)
    """
    r, g, b = colour
    return TEXT_DARK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else TEXT


def land_name(land: int, locale: str | None) -> str:
    """Return the name of land ``land`` (house data) in ``locale``.

    >>> land_name(1, "ru"), land_name(1, "en-GB")
    ('Золотой Берег', 'Golden Coast')
    """
    info = LANDS[land]
    return info.ru if normalize_locale(locale) == "ru" else info.en


def character_name(character: int, locale: str | None) -> str:
    """Return the name of character ``character`` (house data) in ``locale``.

    >>> character_name(2, "ru"), character_name(2, "en")
    ('Гюнтер Рыболов', 'Günter the Fisherman')
    """
    info = CHARACTERS[character]
    return info.ru if normalize_locale(locale) == "ru" else info.en


# ----------------------------------------------------------------------------- entry point
def render_intrigue_board(
    view: IntrigueView,
    names: Sequence[str],
    locale: str,
) -> bytes:
    """Draw the «Интриги» board for ``view`` and return it as PNG bytes.

    The image depends only on the arguments, so the same call always yields the same bytes.

    Args:
        view: The public view (``viewer=None``); a seat's own view is accepted too, but nothing
            private in it is drawn.
        names: Display names by seat; missing or undrawable names fall back to "Игрок N".
        locale: Locale of the labels (``ru``, ``en``, or a Discord locale such as ``en-US``).

    Returns:
        The PNG-encoded board.

    Raises:
        ValueError: If the view carries anything its viewer may not see.
    """
    check_visibility(view)
    with DRAW_LOCK:
        image = _Board(view, names, locale).draw()
        palette = board_palette()
    return encode_png(image, palette)


def check_visibility(view: IntrigueView) -> None:
    """Raise ``ValueError`` if ``view`` holds hidden data its viewer may not see.

    Hidden data (§3.5): hands, the type and mode of face-down cards, the stock, a draft and a sealed
    submission. The public view may hold none of them; a seat's view only its own.
    """
    who = "the public view" if view.viewer is None else f"the view of seat {view.viewer}"
    for player in view.players:
        if player.hand is not None and player.seat != view.viewer:
            raise ValueError(f"{who} carries the hand of seat {player.seat}; refusing to draw hidden cards")
    for card in view.cards:
        if (card.merc is not None or card.mode is not None) and card.owner != view.viewer:
            raise ValueError(f"{who} carries the type of card {card.id}; refusing to draw hidden cards")
    if view.viewer is None:
        for field in ("in_stock", "draft", "submission"):
            if getattr(view, field) is not None:
                raise ValueError(f"the public view carries private {field}; refusing to draw it")


# ----------------------------------------------------------------------------- sprites (cached)
@lru_cache(maxsize=1024)
def chip_sprite(seat: int, count: int, diameter: int = CHIP) -> Image.Image:
    """Return a token chip (RGBA): a two-tone pill, the seat NUMBER on its colour, then the token count.

    The number makes the owner readable without telling colours apart (issue 13); the count sits
    on a darker shade of the same colour.
    """
    colour = seat_rgb(seat)
    dark = mix(colour, (0, 0, 0), 0.55)
    size = 12 if diameter >= 20 else 10
    fnt = font(Face.CONDENSED_BOLD, size)
    number, amount = str(seat + 1), str(count)
    left = max(diameter // 2 + 3, int(fnt.getlength(number)) + 7)
    right = int(fnt.getlength(amount)) + 7
    width = left + right
    image = Image.new("RGBA", (width, diameter), (0, 0, 0, 0))
    image.paste((*dark, 255), (0, 0, width, diameter), rounded_mask(width, diameter, diameter // 2))
    inner = rounded_mask(left, diameter - 2, (diameter - 2) // 2)
    image.paste((*colour, 255), (1, 1, 1 + left, diameter - 1), inner)
    d = ImageDraw.Draw(image)
    d.text((1 + left / 2, diameter / 2 + 0.5), number, font=fnt, fill=ink_on(colour), anchor="mm")
    d.text((left + right / 2, diameter / 2 + 0.5), amount, font=fnt, fill=TEXT, anchor="mm")
    return image


@lru_cache(maxsize=512)
def card_back(owner: int, label: str) -> Image.Image:
    """Return a face-down mercenary (RGBA): its owner's seat number on the owner's colour, then ``#label``.

    ``label`` is the card's number on its character, as text names it ("#1 (Саша)"); the seat
    number tells the owner without telling colours apart (issue 13). Never the type nor the id.
    """
    colour = seat_rgb(owner)
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    image.paste((*CREAM, 255), (0, 0, CARD_W, CARD_H), rounded_mask(CARD_W, CARD_H, 3))
    image.paste((*CARD_BACK, 255), (1, 1, CARD_W - 1, CARD_H - 1), rounded_mask(CARD_W - 2, CARD_H - 2, 2))
    seat_w = 13
    image.paste((*colour, 255), (1, 1, 1 + seat_w, CARD_H - 1), rounded_mask(seat_w, CARD_H - 2, 2))
    d = ImageDraw.Draw(image)
    fnt = font(Face.CONDENSED_BOLD, 10)
    d.text((1 + seat_w / 2, CARD_H / 2 + 0.5), str(owner + 1), font=fnt, fill=ink_on(colour), anchor="mm")
    d.text(((1 + seat_w + CARD_W) / 2, CARD_H / 2 + 0.5), f"#{label}", font=fnt, fill=CREAM, anchor="mm")
    return image


@lru_cache(maxsize=4096)
def text_mask(text: str, fnt: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    """Return the anti-aliased mask of ``text`` and its offset from the anchor point.

    Rendering glyphs is most of a board's cost and the same labels, names and numbers recur on every
    board, so masks are kept (fonts come from the ``font`` cache, so a font object is a stable key).
    """
    x0, y0, x1, y1 = (math.floor(v) for v in fnt.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, x1 - x0 + 1), max(1, y1 - y0 + 1)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=fnt, fill=255, anchor=anchor)
    return mask, x0, y0


@lru_cache(maxsize=256)
def panel_sprite(
    width: int, height: int, radius: int, fill: Rgb, outline: Rgb | None, line: int, background: Rgb
) -> Image.Image:
    """Return a rounded panel drawn on ``background`` (RGB), so a board pastes it in one step.

    Panels always sit on a flat colour (the felt, or a panel under a badge), so the anti-aliased
    corners can be blended once, here, instead of through masks on every board.
    """
    image = Image.new("RGB", (width, height), background)
    fill_rounded(image, (0, 0, width, height), radius, fill, outline=outline, width=line)
    return image


def card_number(cards: Sequence[FaceDownView], card: str) -> int:
    """Return the number of face-down ``card`` on its character: 1 for the one placed first (0: none).

    Public text names a face-down card by its owner, its character and this number, printed on its
    back on the board, never by its id (ids are for actions; issue 11).

    >>> c = [FaceDownView(id=i, owner=0, character=ch, turn_placed=1) for i, ch in (("M5", 3), ("M2", 4), ("M7", 3))]
    >>> card_number(c, "M7"), card_number(c, "M2"), card_number(c, "M9")
    (2, 1, 0)
    """
    on = next((c.character for c in cards if c.id == card), None)
    same = [c.id for c in cards if c.character == on]
    return same.index(card) + 1 if card in same else 0


# ----------------------------------------------------------------------------- the board
class _Board:
    """One drawing of the board: header, council, lands, pool, players and the status strip."""

    def __init__(self, view: IntrigueView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.over = view.phase is Phase.OVER or view.result is not None
        self.names = {p.seat: self._name(names, p.seat) for p in view.players}
        self.characters: dict[int, CharacterView] = {c.id: c for c in view.characters}
        self.cards: dict[int, list[FaceDownView]] = {}
        for card in view.cards:  # placement order: the numbers on the backs are ``card_number``
            self.cards.setdefault(card.character, []).append(card)
        self.cols = 3 if len(view.lands) > 8 else 4
        self.land_w = (WIDTH - 2 * MARGIN - (self.cols - 1) * GAP) // self.cols
        self.land_rows = max(1, math.ceil(len(view.lands) / self.cols))
        self.player_cols = min(4, max(1, len(view.players)))
        self.player_rows = max(1, math.ceil(len(view.players) / self.player_cols))
        self.player_w = (WIDTH - 2 * MARGIN - (self.player_cols - 1) * GAP) // self.player_cols
        self.status = self._status_lines()
        self.pool_lines = self._pool_items()
        height = MARGIN + HEADER_H + GAP
        height += COUNCIL_TITLE_H + COUNCIL_H + GAP
        height += self.land_rows * (LAND_H + GAP)
        height += 12 + 26 * len(self.pool_lines) + GAP
        height += self.player_rows * (PLAYER_H + GAP)
        height += 14 + STATUS_LINE_H * len(self.status) + MARGIN
        self.image = Image.new("RGB", (WIDTH, height), FELT_EDGE)
        self.d = ImageDraw.Draw(self.image)

    # -- helpers
    def t(self, key: str, **params: object) -> str:
        """Translate ``render_intrigue.<key>``."""
        return translate(self.locale, f"render_intrigue.{key}", **params)

    def g(self, key: str, **params: object) -> str:
        """Translate ``intrigue.<key>`` (names shared with the presenter)."""
        return translate(self.locale, f"intrigue.{key}", **params)

    def _name(self, names: Sequence[str], seat: int) -> str:
        return self._name_of(names, seat, self.locale)

    @staticmethod
    def _name_of(names: Sequence[str], seat: int, locale: str) -> str:
        """Return the drawable name of ``seat`` ("Игрок N" when it has none)."""
        name = clean_text(names[seat]) if 0 <= seat < len(names) else ""
        return name or translate(locale, "render_intrigue.player", n=seat + 1)

    def text(
        self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, anchor: str = "lm"
    ) -> None:
        """Draw one line of text (through the cache of rendered text masks)."""
        if not text:
            return
        mask, dx, dy = text_mask(text, fnt, anchor)
        x, y = round(xy[0]) + dx, round(xy[1]) + dy
        self.image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)

    def fitted(self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, width: float) -> float:
        """Draw ``text`` cut to ``width``; return its drawn width."""
        shown = fit_text(text, fnt, width)
        self.text(xy, shown, fnt, fill)
        return fnt.getlength(shown)

    def panel(
        self,
        box: tuple[int, int, int, int],
        radius: int,
        fill: Rgb,
        outline: Rgb | None = None,
        line: int = 0,
        background: Rgb = FELT,
    ) -> None:
        """Paste a rounded panel (cached per size and colours) at ``box``."""
        x0, y0, x1, y1 = box
        self.image.paste(panel_sprite(x1 - x0, y1 - y0, radius, fill, outline, line, background), (x0, y0))

    def chips(self, x: int, cy: int, tokens: Sequence[int], width: int, diameter: int = CHIP) -> int:
        """Draw one chip per seat holding tokens, left to right; return the x after the last."""
        right = x + width
        for seat, count in enumerate(tokens):
            if count <= 0:
                continue
            chip = chip_sprite(seat, count, diameter)
            if x + chip.width > right:
                break
            paste_rgba(self.image, chip, (x, cy - diameter // 2))
            x += chip.width + CHIP_GAP
        return x

    def card_backs(self, x: int, y: int, character: int, width: int) -> None:
        """Draw the face-down mercenaries on ``character`` (owner and number on it only)."""
        cards = self.cards.get(character, [])
        fits = max(0, (width + 3) // (CARD_W + 3))
        if len(cards) > fits:
            fits = max(0, fits - 1)
        for number, card in enumerate(cards[:fits], start=1):
            paste_rgba(self.image, card_back(card.owner, str(number)), (x, y))
            x += CARD_W + 3
        if len(cards) > fits:
            self.text((x + 2, y + CARD_H // 2), f"+{len(cards) - fits}", font(Face.CONDENSED_BOLD, 13), TEXT_MUTED)

    # -- drawing
    def draw(self) -> Image.Image:
        """Draw everything and return the image."""
        w, h = self.image.size
        fill_rounded(self.image, (4, 4, w - 4, h - 4), 18, FELT, outline=FELT_LINE, width=2)
        self._header()
        y = MARGIN + HEADER_H + GAP
        self._council(y)
        y += COUNCIL_TITLE_H + COUNCIL_H + GAP
        lands = self.view.lands
        for row in range(self.land_rows):
            x = MARGIN
            for land in lands[row * self.cols : (row + 1) * self.cols]:
                self._land(land, x, y)
                x += self.land_w + GAP
            y += LAND_H + GAP
        y = self._pool(y)
        players = self.view.players
        for row in range(self.player_rows):
            x = MARGIN
            for player in players[row * self.player_cols : (row + 1) * self.player_cols]:
                self._player(player, x, y)
                x += self.player_w + GAP
            y += PLAYER_H + GAP
        self._strip(y)
        return self.image

    # -- header
    def _header(self) -> None:
        view = self.view
        cy = MARGIN + HEADER_H // 2
        self.panel((MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + HEADER_H), 12, STRIP)
        title_font = font(Face.BOLD, 26)
        x = MARGIN + 16
        title = self.t("title").upper()
        self.text((x, cy), title, title_font, GOLD)
        x += int(title_font.getlength(title)) + 22
        info_font = font(Face.CONDENSED_BOLD, 19)
        phase = self.g(f"phase.{view.phase.value}")
        turn = (
            self.t("turn", turn=view.turn, max=view.max_turns)
            if view.turn >= 1
            else self.t("limit", max=view.max_turns)
        )
        parts = [turn, phase]
        for part in parts:
            self.text((x, cy), part, info_font, TEXT)
            x += int(info_font.getlength(part)) + 10
            self.text((x, cy), "·", info_font, TEXT_MUTED)
            x += 16
        kills = self.t("kills", n=view.kills, max=view.kills_to_end)
        skull_font = font(Face.BOLD, 20)
        self.text((x, cy), "☠", skull_font, RED if view.kills else TEXT_MUTED)
        x += 24
        self.text((x, cy), kills, info_font, RED if view.kills >= view.kills_to_end - 1 else TEXT)
        x += int(info_font.getlength(kills)) + 18
        right = WIDTH - MARGIN - 16
        majority = self.t("majority", m=view.majority_needed, lands=len(view.lands))
        small = font(Face.CONDENSED, 16)
        room = right - x
        shown = fit_text(majority, small, room)
        if room > 60:
            self.text((right - small.getlength(shown), cy), shown, small, TEXT_MUTED)

    # -- council
    def _council(self, y: int) -> None:
        council = self.view.council
        self.text((MARGIN + 4, y + COUNCIL_TITLE_H // 2), self.t("council").upper(), font(Face.BOLD, 15), GOLD)
        y += COUNCIL_TITLE_H
        box_w = (WIDTH - 2 * MARGIN - 4 * GAP) // 5
        x = MARGIN
        seats: list[tuple[str, int | None]] = [
            (self.g(f"council.{seat.value}"), _council_member(council, seat)) for seat in _COUNCIL_ORDER
        ]
        seats.append((self.t("representative"), council.representative))
        for title, character in seats:
            self._character_box(x, y, box_w, COUNCIL_H, title, character)
            x += box_w + GAP

    def _character_box(self, x: int, y: int, w: int, h: int, title: str, character: int | None) -> None:
        info = self.characters.get(character) if character is not None else None
        controller = info.controller if info is not None else None
        outline = seat_rgb(controller) if controller is not None else PANEL_EDGE
        self.panel((x, y, x + w, y + h), 10, PANEL, outline=outline, line=3 if controller is not None else 2)
        inner = w - 2 * PAD
        small = font(Face.CONDENSED_BOLD, 13)
        self.fitted((x + PAD, y + 14), title.upper(), small, GOLD, inner)
        if character is None or info is None:
            self.text((x + w // 2, y + h // 2), self.t("vacant"), font(Face.CONDENSED, 16), TEXT_MUTED, "mm")
            return
        self._character_body(x + PAD, y + 26, inner, info, land_note=info.land if info.representative else None)

    def _character_body(self, x: int, y: int, w: int, info: CharacterView, land_note: int | None = None) -> None:
        """Draw a character: name, traits and disposition, tokens and face-down cards (about 112 px tall)."""
        name_font = font(Face.CONDENSED_BOLD, 17)
        name = character_name(info.id, self.locale)
        marks = []
        if info.acted:
            marks.append("✓")
        mark_text = " ".join(marks)
        mark_w = int(name_font.getlength(mark_text)) + 6 if marks else 0
        drawn = self.fitted((x, y + 11), name, name_font, TEXT, w - mark_w)
        if marks:
            self.text((x + drawn + 6, y + 11), mark_text, name_font, GOLD)
        traits = ", ".join(self.g(f"trait.{trait.value}") for trait in CHARACTERS[info.id].traits)
        disposition = self.g(f"disposition_short.{info.disposition.value}")
        line = f"{traits} · {disposition}"
        if land_note is not None:
            line = f"{land_name(land_note, self.locale)} · {line}"
        self.fitted((x, y + 31), line, font(Face.CONDENSED, 13), TEXT_MUTED, w)
        self.chips(x, y + 55, info.tokens, w)
        if not any(info.tokens):
            self.text((x, y + 55), "—", font(Face.CONDENSED, 14), TEXT_MUTED)
        self.card_backs(x, y + 72, info.id, w)

    # -- lands
    def _land(self, land: LandView, x: int, y: int) -> None:
        w = self.land_w
        outline = seat_rgb(land.holder) if land.holder is not None else PANEL_EDGE
        self.panel((x, y, x + w, y + LAND_H), 12, PANEL, outline=outline, line=3 if land.holder is not None else 2)
        inner = w - 2 * PAD
        left = x + PAD
        title_font = font(Face.BOLD, 17)
        tags = []
        if land.military >= land.peaceful:
            tags.append("⚔")
        if land.military <= land.peaceful:
            tags.append("☮")
        tag_text = " ".join(tags)
        tag_font = font(Face.BOLD, 16)
        tag_w = int(tag_font.getlength(tag_text))
        self.fitted((left, y + 15), land_name(land.id, self.locale), title_font, TEXT, inner - tag_w - 8)
        self.text((x + w - PAD - tag_w, y + 15), tag_text, tag_font, GOLD)
        # population cells: peaceful, then military, then free
        cy = y + 38
        cx = left
        for i in range(land.cells):
            colour = PEACEFUL if i < land.peaceful else MILITARY if i < land.peaceful + land.military else CELL_EMPTY
            self.image.paste(colour, (cx, cy - CELL // 2, cx + CELL, cy - CELL // 2 + CELL))
            cx += CELL + CELL_GAP
        pop = f"{self.t('peaceful', n=land.peaceful)} · {self.t('military', n=land.military)}"
        if land.grown:
            pop += f" · {self.t('grown')}"
        self.fitted((cx + 6, cy), pop, font(Face.CONDENSED, 14), TEXT_MUTED, x + w - PAD - cx - 6)
        # land tokens
        label_font = font(Face.CONDENSED_BOLD, 13)
        row = y + 63
        label = self.t("land_tokens")
        self.text((left, row), label, label_font, TEXT_MUTED)
        after = self.chips(left + int(label_font.getlength(label)) + 8, row, land.tokens, inner - 60)
        if land.majority is not None:
            star = font(Face.BOLD, 17)
            self.text((after + 2, row), "★", star, seat_rgb(land.majority))
        if not any(land.tokens):
            self.text((left + int(label_font.getlength(label)) + 8, row), "—", font(Face.CONDENSED, 14), TEXT_MUTED)
        # holder
        row = y + 88
        self._holder(left, row, land, inner)
        # the head
        top = y + 102
        self.panel((x + 5, top, x + w - 5, y + LAND_H - 5), 9, HEAD_PANEL, background=PANEL)
        head = self.characters.get(land.head) if land.head is not None else None
        if head is None:
            self.text(
                (x + w // 2, (top + y + LAND_H) // 2), self.t("no_head"), font(Face.CONDENSED, 15), TEXT_MUTED, "mm"
            )
            return
        controller = head.controller
        if controller is not None:
            self.image.paste(seat_rgb(controller), (x + 5, top + 8, x + 9, y + LAND_H - 13))
        badge = self.t("representative") if head.representative else self.t("head")
        badge_font = font(Face.CONDENSED_BOLD, 12)
        self.fitted((left + 2, top + 10), badge.upper(), badge_font, GOLD if head.representative else TEXT_MUTED, inner)
        self._character_body(left + 2, top + 16, inner - 4, head)

    def _holder(self, x: int, cy: int, land: LandView, width: int) -> None:
        small = font(Face.CONDENSED, 14)
        bold = font(Face.CONDENSED_BOLD, 14)
        if land.holder is not None:
            label = f"{self.t('holder')}:"
            self.text((x, cy), label, small, TEXT_MUTED)
            lx = x + int(small.getlength(label)) + 6
            seat_badge(self.image, (lx + 8, cy), BADGE, land.holder, BADGE_TEXT)
            self.fitted((lx + 20, cy), self.names[land.holder], bold, TEXT, width - (lx + 20 - x))
            return
        if land.contested:
            label = f"{self.t('contested')}:"
            self.text((x, cy), label, small, TEXT_MUTED)
            lx = x + int(small.getlength(label)) + 6
            for seat in land.contested:  # numbered, so the seats are told apart without colour
                seat_badge(self.image, (lx + 8, cy), BADGE, seat, BADGE_TEXT)
                lx += 18
            return
        self.text((x, cy), f"{self.t('holder')}: {self.t('nobody')}", small, TEXT_MUTED)

    # -- pool and dead
    def _pool_items(self) -> list[list[tuple[str, CharacterView | None]]]:
        """Lay the pool and the dead out in lines: (text, character whose chips follow, if any)."""
        pool = [c for c in self.view.characters if c.status is CharStatus.POOL]
        dead = [c for c in self.view.characters if c.status is CharStatus.DEAD]
        items: list[tuple[str, CharacterView | None]] = [(f"{self.t('pool')}:", None)]
        if pool:
            items.extend((character_name(c.id, self.locale), c) for c in pool)
        else:
            items.append((self.t("no_pool"), None))
        if dead:
            items.append((f"☠ {self.t('dead')}:", None))
            items.extend((character_name(c.id, self.locale), None) for c in dead)
        lines: list[list[tuple[str, CharacterView | None]]] = [[]]
        fnt = font(Face.CONDENSED, 15)
        bold = font(Face.CONDENSED_BOLD, 15)
        width = WIDTH - 2 * MARGIN - 24
        used = 0
        for text, character in items:
            need = int((bold if text.endswith(":") else fnt).getlength(text)) + 14
            if character is not None:
                need += sum(
                    chip_sprite(seat, n, 16).width + CHIP_GAP for seat, n in enumerate(character.tokens) if n > 0
                )
                need += 2
            if used + need > width and lines[-1]:
                lines.append([])
                used = 0
            lines[-1].append((text, character))
            used += need
        return lines

    def _pool(self, y: int) -> int:
        height = 12 + 26 * len(self.pool_lines)
        self.panel((MARGIN, y, WIDTH - MARGIN, y + height), 10, STRIP)
        fnt = font(Face.CONDENSED, 15)
        bold = font(Face.CONDENSED_BOLD, 15)
        cy = y + 6 + 13
        dead_mode = False
        for line in self.pool_lines:
            x = MARGIN + 12
            for text, character in line:
                is_label = text.endswith(":")
                if is_label:
                    dead_mode = text.startswith("☠")
                colour = GOLD if is_label else DEAD_TEXT if dead_mode else TEXT
                self.text((x, cy), text, bold if is_label else fnt, colour)
                x += int((bold if is_label else fnt).getlength(text)) + 4
                if character is not None:
                    x = self.chips(x, cy, character.tokens, WIDTH, diameter=16) + 2
                x += 10
            cy += 26
        return y + height + GAP

    # -- players
    def _player(self, player: PlayerView, x: int, y: int) -> None:
        view = self.view
        seat = player.seat
        colour = seat_rgb(seat)
        awaited = seat in view.awaiting and not self.over
        winner = view.result is not None and view.result.winner == seat
        fill = PANEL_WINNER if winner else PANEL
        outline = GOLD if awaited or winner else PANEL_EDGE
        self.panel((x, y, x + self.player_w, y + PLAYER_H), 10, fill, outline=outline, line=3 if awaited else 2)
        self.image.paste(colour, (x + 6, y + 8, x + 14, y + PLAYER_H - 8))
        left = x + 22
        inner = self.player_w - 22 - PAD
        badge = ""
        if self.over and view.result is not None:
            rank = view.result.ranks[seat] if seat < len(view.result.ranks) else None
            badge = self.t("winner") if winner else self.t("place", n=rank + 1) if rank is not None else ""
        elif player.resigned:
            badge = self.t("resigned")
        elif awaited:
            badge = self.t("awaiting")
        elif player.passed:
            badge = self.t("passed")
        badge_font = font(Face.CONDENSED_BOLD, 13)
        badge_w = int(badge_font.getlength(badge)) + 12 if badge else 0
        name_font = font(Face.BOLD, 17)
        self.fitted((left, y + 16), self.names[seat], name_font, TEXT, inner - badge_w)
        if badge:
            bx = x + self.player_w - PAD - badge_w
            self.panel((bx, y + 6, bx + badge_w, y + 26), 8, GOLD if awaited or winner else PANEL_EDGE, background=fill)
            self.text((bx + badge_w // 2, y + 16), badge, badge_font, TEXT_DARK if awaited or winner else TEXT, "mm")
        line_font = font(Face.CONDENSED, 15)
        bold = font(Face.CONDENSED_BOLD, 15)
        coins = self.t("coins", n=player.coins)
        cx = left
        fill_circle(self.image, (cx + 7, y + 40), 14, GOLD)
        cx += 18
        self.text((cx, y + 40), coins, bold, TEXT)
        cx += int(bold.getlength(coins)) + 12
        hand = self.t("hand", n=player.hand_size)
        if player.hired_this_turn:
            hand += f" · {self.t('hired', n=player.hired_this_turn)}"
        self.fitted((cx, y + 40), hand, line_font, TEXT_MUTED, left + inner - cx)
        progress = self.t("progress", coup=player.coup_lands, will=player.will_lands, m=view.majority_needed)
        marks = []
        if player.controls_marshal:
            marks.append(self.g("council_short.marshal"))
        if player.controls_privy:
            marks.append(self.g("council_short.privy"))
        line = progress + (f" ({', '.join(marks)})" if marks else "")
        self.fitted((left, y + 62), line, bold, GOLD if marks else TEXT, inner)
        tokens = self.t(
            "tokens", lands=player.land_tokens, characters=player.character_tokens, council=player.council_tokens
        )
        self.fitted((left, y + 84), tokens, line_font, TEXT_MUTED, inner)

    # -- status strip
    def _status_lines(self) -> list[str]:
        view = self.view
        lines: list[str] = []
        if view.result is not None:
            lines.append(self._result_line(view.result))
            return lines
        pending = view.pending
        waiting = ", ".join(self.names.get(s, str(s)) for s in view.awaiting)
        if pending is not None:
            decision = self.g(f"decision.{pending.decision.value}")
            lines.append(f"{decision} — {self.t('waiting', names=waiting or '—')}")
        elif view.awaiting:
            lines.append(self.t("waiting", names=waiting))
        else:
            lines.append(self.t("nobody_waits"))
        if view.vote is not None:
            lines.append(self._vote_line(view.vote))
        if view.reveals:
            parts = [self._reveal_text(r) for r in view.reveals[-2:]]
            lines.append(f"{self.t('reveals')} " + "; ".join(parts))
        return lines

    def _result_line(self, result: ResultView) -> str:
        victory = self.g(f"victory.{result.victory.value}")
        if result.winner is not None:
            return f"{self.t('over')}: {victory} — {self.names.get(result.winner, '?')}"
        return f"{self.t('over')}: {victory}"

    def _vote_line(self, vote: VoteView) -> str:
        kind = self.g(f"vote_kind.{vote.vote.value}")
        if vote.subject is not None:
            kind = f"{kind} ({character_name(vote.subject, self.locale)})"
        elif vote.council is not None:
            kind = f"{kind} ({self.g(f'council.{vote.council.value}')})"
        if vote.vote is VoteKind.APPOINT:
            cast = sum(1 for v in vote.voters if v.vote not in (None, "none", "abstain"))
            return self.t("vote_appoint", kind=kind, cast=cast, voters=len(vote.voters))
        yes = sum(1 for v in vote.voters if v.vote == "for")
        no = sum(1 for v in vote.voters if v.vote == "against")
        return self.t("vote", kind=kind, yes=yes, no=no, needed=vote.needed)

    def _reveal_text(self, reveal: RevealedView) -> str:
        merc = self.g(f"merc.{reveal.merc.value}")
        if reveal.mode is not None:
            merc = f"{merc} ({self.g(f'mode.{reveal.mode.value}')})"
        return self.t(
            "reveal",
            merc=merc,
            owner=self.names.get(reveal.owner, "?"),
            character=character_name(reveal.character, self.locale),
        )

    def _strip(self, y: int) -> None:
        height = 14 + STATUS_LINE_H * len(self.status)
        self.panel((MARGIN, y, WIDTH - MARGIN, y + height), 10, STRIP)
        cy = y + 7 + STATUS_LINE_H // 2
        for index, line in enumerate(self.status):
            fnt = font(Face.BOLD if index == 0 else Face.CONDENSED, 17 if index == 0 else 15)
            colour = GOLD if index == 0 else TEXT
            self.fitted((MARGIN + 14, cy), line, fnt, colour, WIDTH - 2 * MARGIN - 28)
            cy += STATUS_LINE_H


# ----------------------------------------------------------------------------- compact board and hand
#: The compact board that the board message shows. The client shows an embed image at most 280x280
#: on a 400-px phone (:data:`~bot.render.common.PHONE_BOX`; 400x280 on the desktop), so the board is
#: square, 800x800, shown at 0.35 there, and no text is under 32 px (11 px as shown,
#: :func:`~bot.render.common.min_font_size`), at one size for every state of a game. That is room
#: for about twenty lines, so it shows only what a player reads at a glance: the turn, the phase and
#: who is awaited; who holds each council seat and each land; each player's coins, cards in hand
#: (or pass) and progress towards a coup and the will of the people. Everything else (contested
#: lands' rivals, population, heads, tokens, face-down cards, the vote, the pool, reveals) is on the
#: detailed board (:func:`render_intrigue_board`), sent privately by the **Full board** button.
COMPACT_SIZE = (800, 800)
COMPACT_TEXT = min_font_size(*COMPACT_SIZE)
#: Every font size the compact board uses (the readability tests hold them to 11 px as shown).
COMPACT_FONT_SIZES = (COMPACT_TEXT,)
#: Seat tokens: the shared :func:`~bot.render.common.seat_badge`, its number as large as the text.
COMPACT_BADGE = 40  # a 32-px digit fills 0.8 of it, the most the shared badge allows
_C_PAD = 10  # outer margin
_C_GAP = 6  # between the boxes of a grid
_C_ROW = 46  # a council or land box: one line of text and a token
_C_PLAYER_H = 82  # a player box: two lines
_C_PLAYER_GAP = 6
_C_EDGE = 3  # outline of a box; an awaited player's is wider
_C_AWAITED_EDGE = 5
#: The hand picture of the private panel: the viewer's mercenaries as cards, three to a row, its
#: fonts sized like the compact board's to read as 11 px once a phone shrinks it to 280 px wide.
HAND_CARD = (188, 104)
HAND_GAP = 8
HAND_PAD = 12
HAND_PER_ROW = 3


class _Compact:
    """One drawing of the compact board: header, the council, the lands, the players (see :data:`COMPACT_SIZE`)."""

    def __init__(self, view: IntrigueView, names: Sequence[str], locale: str) -> None:
        self.view = view
        self.locale = locale
        self.over = view.phase is Phase.OVER or view.result is not None
        self.names = {p.seat: _Board._name_of(names, p.seat, locale) for p in view.players}
        self.characters = {c.id: c for c in view.characters}
        self.image = Image.new("RGB", COMPACT_SIZE, FELT_EDGE)
        self.d = ImageDraw.Draw(self.image)
        self.bold = font(Face.CONDENSED_BOLD, COMPACT_TEXT)
        self.plain = font(Face.CONDENSED, COMPACT_TEXT)
        self.inner_w = COMPACT_SIZE[0] - 2 * _C_PAD

    def t(self, key: str, **params: object) -> str:
        return translate(self.locale, f"render_intrigue.{key}", **params)

    def g(self, key: str, **params: object) -> str:
        return translate(self.locale, f"intrigue.{key}", **params)

    def g_board(self, key: str) -> str:
        """Translate ``board.intrigue.<key>`` (the compact board's own short labels)."""
        return translate(self.locale, f"board.intrigue.{key}")

    def fitted(self, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, fill: Rgb, width: float) -> float:
        """Draw ``text`` cut with "…" to ``width``, left-aligned at ``xy``; return its drawn width."""
        shown = fit_text(text, fnt, max(width, 0))
        if shown:
            self.d.text(xy, shown, font=fnt, fill=fill, anchor="lm")
        return fnt.getlength(shown)

    def token(self, cx: int, cy: int, seat: int, diameter: int = COMPACT_BADGE) -> None:
        """Draw ``seat``'s token, its number as large as the text around it."""
        seat_badge(self.image, (cx, cy), diameter, seat, number_size=COMPACT_TEXT)

    def box(self, box: tuple[int, int, int, int], edge: Rgb, fill: Rgb = PANEL, width: int = _C_EDGE) -> None:
        fill_rounded(self.image, box, 10, fill, outline=edge, width=width)

    def grid(self, cols: int) -> int:
        """Return the width of a box in a grid of ``cols`` columns across the board."""
        return (self.inner_w - (cols - 1) * _C_GAP) // cols

    def draw(self) -> Image.Image:
        w, h = COMPACT_SIZE
        fill_rounded(self.image, (0, 0, w, h), 16, FELT, outline=FELT_LINE, width=2)
        # 800 px high in all: the header line, two rows of council boxes, up to five rows of lands
        # (two per row) and four rows of players (two per row); a smaller table leaves the foot empty.
        y = self._header(_C_PAD)
        y = self._council(y + _C_GAP)
        y = self._lands(y + _C_GAP + 2)
        self._players(y + _C_GAP + 2)
        return self.image

    def _header(self, y: int) -> int:
        """Draw the turn, the phase and who is awaited; return the bottom of the header."""
        view = self.view
        cy = y + 22
        turn = (
            self.t("turn", turn=view.turn, max=view.max_turns)
            if view.turn >= 1
            else self.t("limit", max=view.max_turns)
        )
        left = f"{turn} · {self.g(f'phase.{view.phase.value}')}"
        left_w = self.fitted((_C_PAD + 6, cy), left, self.bold, GOLD, self.inner_w - 12)
        # Who is awaited, after the turn and phase: "Ждём: ① ② ③" while the tokens fit, "Ждём всех"
        # when every player still in the game is; the awaited players' boxes are outlined in gold too.
        awaited = [] if self.over else [s for s in view.awaiting if s in self.names]
        if not awaited:
            return y + 44
        right = _C_PAD + self.inner_w - 4
        room = right - (_C_PAD + 6 + left_w + 24)
        label = self.t("waits")
        step = COMPACT_BADGE + 4
        tokens_w = self.plain.getlength(label) + 8 + step * len(awaited)
        playing = {p.seat for p in view.players if not p.resigned}
        if tokens_w <= room and (len(awaited) < 3 or set(awaited) != playing):
            x = right - tokens_w
            self.d.text((x, cy), label, font=self.plain, fill=TEXT_MUTED, anchor="lm")
            x += self.plain.getlength(label) + 8
            for seat in awaited:
                self.token(round(x + COMPACT_BADGE / 2), cy, seat)
                x += step
        else:
            everyone = self.t("waits_all") if set(awaited) == playing else self.t("waits_many", n=len(awaited))
            if self.plain.getlength(everyone) <= room:
                self.d.text((right, cy), everyone, font=self.plain, fill=TEXT_MUTED, anchor="rm")
        return y + 44

    def _council(self, y: int) -> int:
        """Draw the five council seats and their holders, and the kill counter, in a 3x2 grid."""
        council = self.view.council
        # Short titles: a full one ("Тайный Советник") does not fit a third of the width at 32 px.
        seats = [(self.g_board(f"council.{seat.value}"), _council_member(council, seat)) for seat in _COUNCIL_ORDER]
        seats.append((self.g_board("council.representative"), council.representative))
        box_w = self.grid(3)
        for index, (title, character) in enumerate(seats):
            row, col = divmod(index, 3)
            x, top = _C_PAD + col * (box_w + _C_GAP), y + row * (_C_ROW + _C_GAP)
            info = self.characters.get(character) if character is not None else None
            controller = info.controller if info is not None else None
            self.box((x, top, x + box_w, top + _C_ROW), seat_rgb(controller) if controller is not None else PANEL_EDGE)
            self.fitted((x + 10, top + _C_ROW // 2), title, self.bold, GOLD, box_w - 20 - COMPACT_BADGE - 8)
            self._holder(x + box_w - 10, top + _C_ROW // 2, controller)
        # The sixth box: how many characters died, of the kills that end the game.
        x, cy = _C_PAD + 2 * (box_w + _C_GAP), y + _C_ROW + _C_GAP + _C_ROW // 2
        view = self.view
        ink = RED if view.kills else TEXT
        self.box((x, cy - _C_ROW // 2, x + box_w, cy + _C_ROW // 2), RED if view.kills else PANEL_EDGE)
        count = f"{view.kills}/{view.kills_to_end}"
        self.d.text((x + box_w - 10, cy), count, font=self.bold, fill=ink, anchor="rm")
        self.fitted((x + 10, cy), f"☠ {self.t('killed')}", self.bold, ink, box_w - 30 - self.bold.getlength(count))
        return y + 2 * _C_ROW + _C_GAP

    def _holder(self, right: int, cy: int, seat: int | None) -> None:
        """Draw who holds something at the right end of its box: the seat's token, or a dash."""
        if seat is None:
            self.d.text((right - COMPACT_BADGE // 2, cy), "—", font=self.bold, fill=TEXT_MUTED, anchor="mm")
        else:
            self.token(right - COMPACT_BADGE // 2, cy, seat)

    def _lands(self, y: int) -> int:
        """Draw every land's name and holder (or "tied"), two columns of five rows; return the bottom."""
        box_w = self.grid(2)
        # Seven or nine lands, fixed for a game: four or five rows (ten lands at most fit).
        rows = min(5, max(1, math.ceil(len(self.view.lands) / 2)))
        for index, land in enumerate(self.view.lands[: 2 * rows]):
            row, col = divmod(index, 2)
            x, top = _C_PAD + col * (box_w + _C_GAP), y + row * (_C_ROW + _C_GAP)
            holder = land.holder
            self.box((x, top, x + box_w, top + _C_ROW), seat_rgb(holder) if holder is not None else PANEL_EDGE)
            cy = top + _C_ROW // 2
            if holder is None and land.contested:  # the rivals are on the full board
                tied = self.t("tied")
                marker_w = self.plain.getlength(tied)
                self.d.text((x + box_w - 8, cy), tied, font=self.plain, fill=TEXT_MUTED, anchor="rm")
            else:
                marker_w = COMPACT_BADGE
                self._holder(x + box_w - 8, cy, holder)
            self.fitted((x + 8, cy), land_name(land.id, self.locale), self.plain, TEXT, box_w - 16 - marker_w - 6)
        return y + rows * _C_ROW + (rows - 1) * _C_GAP

    def _players(self, y: int) -> None:
        """Draw each player's box: token and name; coins, hand (or pass, or place) and progress.

        Up to four players get a box across the board each, with words ("в руке 2", "⚔ 1/4 · ☮ 2/4");
        five to eight get two boxes a row, with a card back for the hand and the progress in short.
        """
        view = self.view
        cols = 1 if len(view.players) <= 4 else 2
        box_w = self.grid(cols)
        result = view.result
        for index, player in enumerate(view.players[:8]):
            row, col = divmod(index, cols)
            x, top = _C_PAD + col * (box_w + _C_GAP), y + row * (_C_PLAYER_H + _C_PLAYER_GAP)
            seat = player.seat
            awaited = seat in view.awaiting and not self.over
            winner = result is not None and result.winner == seat
            edge = GOLD if awaited or winner else PANEL_EDGE
            width = _C_AWAITED_EDGE if awaited else _C_EDGE
            self.box((x, top, x + box_w, top + _C_PLAYER_H), edge, PANEL_WINNER if winner else PANEL, width)
            line1, line2 = top + 24, top + 60
            self.token(x + 10 + COMPACT_BADGE // 2, line1, seat)
            name_x = x + 10 + COMPACT_BADGE + 8
            name_ink = GOLD if awaited else TEXT
            self.fitted((name_x, line1), self.names[seat], self.bold, name_ink, x + box_w - 10 - name_x)
            # Coins: a gold disc and the count.
            fill_circle(self.image, (x + 24, line2), 26, GOLD)
            coins = str(player.coins)
            self.d.text((x + 44, line2), coins, font=self.bold, fill=TEXT, anchor="lm")
            status_x = x + 44 + self.bold.getlength(coins) + 16
            # Progress: lands towards a coup and towards the will of the people, of the majority needed.
            if cols == 1:
                progress = self.t("progress", coup=player.coup_lands, will=player.will_lands, m=view.majority_needed)
            else:
                progress = f"⚔{player.coup_lands} ☮{player.will_lands}/{view.majority_needed}"
            right = x + box_w - 10
            self.d.text((right, line2), progress, font=self.bold, fill=TEXT, anchor="rm")
            room = right - self.bold.getlength(progress) - 14 - status_x
            if result is not None and seat < len(result.ranks):
                side = self.t("winner") if winner else self.t("place", n=result.ranks[seat] + 1)
            elif player.resigned:
                side = self.t("resigned")
            elif player.passed:
                side = self.t("passed")
            elif cols == 1:
                side = self.t("hand", n=player.hand_size)
            else:  # a card back, then how many cards are in the hand (their types are never drawn)
                card_x = round(status_x)
                fill_rounded(self.image, (card_x, line2 - 15, card_x + 22, line2 + 15), 4, CREAM)
                fill_rounded(self.image, (card_x + 2, line2 - 13, card_x + 20, line2 + 13), 3, CARD_BACK)
                self.d.text((card_x + 30, line2), str(player.hand_size), font=self.bold, fill=TEXT, anchor="lm")
                continue
            self.fitted((status_x, line2), side, self.plain, GOLD if winner else TEXT_MUTED, room)


def render_intrigue_compact(view: IntrigueView, names: Sequence[str], locale: str) -> bytes:
    """Draw the compact «Интриги» board (:data:`COMPACT_SIZE`) from the PUBLIC view; return PNG bytes.

    Raises:
        ValueError: If ``view`` is not the public view, or carries anything private.
    """
    if view.viewer is not None:
        raise ValueError("the compact board is drawn from the public view only")
    check_visibility(view)
    with DRAW_LOCK:
        image = _Compact(view, names, locale).draw()
        palette = board_palette()  # the detailed board's fixed palette: same colours, no per-image fitting
    return encode_png(image, palette)


def hand_picture_size(cards: int) -> tuple[int, int]:
    """Return the size of the hand picture for ``cards`` cards (rows of three, a fixed width)."""
    rows = max(1, math.ceil(cards / HAND_PER_ROW))
    width = 2 * HAND_PAD + HAND_PER_ROW * HAND_CARD[0] + (HAND_PER_ROW - 1) * HAND_GAP
    return width, 2 * HAND_PAD + rows * HAND_CARD[1] + (rows - 1) * HAND_GAP


def hand_font_sizes(cards: int) -> tuple[int, int]:
    """Return the font sizes (card type, turn it lasts to) of a hand picture of ``cards`` cards.

    The smallest reads as 11 px once the client shrinks the picture (:func:`~bot.render.common.min_font_size`):
    604 px wide, a phone shows it at 280/604, so no text is under 24 px.
    """
    smallest = min_font_size(*hand_picture_size(cards))
    return smallest + 4, smallest


def render_intrigue_hand(view: IntrigueView, locale: str) -> bytes | None:
    """Draw the viewer's own mercenaries as cards in its seat colour (type, and the turn it expires); ``None`` without.

    Drawn from the viewer's own view only: its hand is the one thing in it this picture reads.
    """
    if view.viewer is None:
        return None
    check_visibility(view)
    me = next((p for p in view.players if p.seat == view.viewer), None)
    hand = me.hand if me is not None else None
    if not hand:
        return None
    colour = seat_rgb(view.viewer)
    with DRAW_LOCK:
        size = hand_picture_size(len(hand))
        image = Image.new("RGB", size, FELT_EDGE)
        fill_rounded(image, (0, 0, *size), 14, FELT, outline=FELT_LINE, width=2)
        d = ImageDraw.Draw(image)
        title_size, small_size = hand_font_sizes(len(hand))
        title = font(Face.CONDENSED_BOLD, title_size)
        small = font(Face.CONDENSED, small_size)
        w, h = HAND_CARD
        for index, card in enumerate(hand):
            row, col = divmod(index, HAND_PER_ROW)
            x = HAND_PAD + col * (w + HAND_GAP)
            y = HAND_PAD + row * (h + HAND_GAP)
            fill_rounded(image, (x, y, x + w, y + h), 10, CREAM)
            fill_rounded(image, (x + 3, y + 3, x + w - 3, y + h - 3), 8, colour)
            ink = ink_on(colour)
            merc = translate(locale, f"intrigue.merc.{card.merc.value}")
            d.text((x + w / 2, y + 36), fit_text(merc, title, w - 16), font=title, fill=ink, anchor="mm")
            until = translate(locale, "board.hand.until", turn=card.expires_turn)
            d.text((x + w / 2, y + 74), fit_text(until, small, w - 16), font=small, fill=ink, anchor="mm")
    return encode_png(image)


def _council_member(council: CouncilView, seat: CouncilSeat) -> int | None:
    return {
        CouncilSeat.MARSHAL: council.marshal,
        CouncilSeat.BISHOP: council.bishop,
        CouncilSeat.TREASURER: council.treasurer,
        CouncilSeat.PRIVY: council.privy,
    }[seat]


# ----------------------------------------------------------------------------- reference views
def reference_view(
    num_seats: int,
    *,
    lands: Sequence[int] | None = None,
    phase: Phase = Phase.CHARACTERS,
    turn: int = 4,
    over: bool = False,
) -> IntrigueView:
    """Return a hand-built public view of a busy mid-game table (for the palette, tests and samples).

    Every seat holds tokens on lands and characters; characters carry face-down cards of several
    owners; one character is dead and the pool keeps tokens; a vote is in progress.
    """
    from games.intrigue.data import STANDARD_NINE, STANDARD_SEVEN
    from games.intrigue.models import PendingView, Victory, VoterView

    land_ids = tuple(lands) if lands is not None else (STANDARD_NINE if num_seats > 5 else STANDARD_SEVEN)
    n = num_seats
    chars = list(CHARACTERS)
    heads = chars[: len(land_ids)]
    council = chars[len(land_ids) : len(land_ids) + 4]
    rest = chars[len(land_ids) + 4 :]
    dead = rest[:1]
    pool = rest[1:]

    def spread(seed: int, size: int, top: int) -> tuple[int, ...]:
        return tuple(((seed * 7 + s * 5) % (top + 1)) if (seed + s) % 3 else 0 for s in range(size))

    land_views = []
    for i, land_id in enumerate(land_ids):
        info = LANDS[land_id]
        tokens = spread(i + 1, n, 4)
        top = max(tokens)
        leaders = [s for s, t in enumerate(tokens) if t == top and t > 0]
        land_views.append(
            LandView(
                id=land_id,
                cells=info.cells,
                peaceful=info.peaceful + (1 if i == 2 else 0),
                military=info.military,
                head=heads[i] if i != len(land_ids) - 1 else None,
                tokens=tokens,
                holder=leaders[0] if len(leaders) == 1 else None,
                contested=tuple(leaders) if len(leaders) > 1 else (),
                majority=leaders[0] if len(leaders) == 1 else None,
                grown=i == 2,
            )
        )
    rep = heads[1]
    char_views = []
    for index, cid in enumerate(chars):
        tokens = spread(index + 3, n, 5)
        top = max(tokens)
        leaders = [s for s, t in enumerate(tokens) if t == top and t > 0]
        if cid in dead:
            status, tokens = CharStatus.DEAD, (0,) * n
            leaders = []
        elif cid in pool:
            status = CharStatus.POOL
        elif cid in council:
            status = CharStatus.COUNCIL
        else:
            status = CharStatus.HEAD
        head_of: int | None = land_ids[heads.index(cid)] if cid in heads else None
        if cid == heads[len(land_ids) - 1]:
            status, head_of = CharStatus.POOL, None
        seat_of_council = COUNCIL_SEATS[council.index(cid)] if cid in council else None
        char_views.append(
            CharacterView(
                id=cid,
                status=status,
                land=head_of,
                council=seat_of_council,
                representative=cid == rep,
                tokens=tokens,
                controller=leaders[0] if len(leaders) == 1 else None,
                tied_top=tuple(leaders) if len(leaders) > 1 else (),
                acted=index % 4 == 1,
                disposition=CHARACTERS[cid].disposition,
            )
        )
    cards = tuple(
        FaceDownView(
            id=f"M{k + 1:02d}",
            owner=k % n,
            character=(heads + council)[(k * 5) % (len(heads) + 4)],
            turn_placed=turn - k % 2,
        )
        for k in range(3 * n)
    )
    players = tuple(
        PlayerView(
            seat=s,
            colour="RBGYPONW"[s],
            coins=3 + (s * 7) % 19,
            hand_size=s % 3,
            hired_this_turn=s % 2,
            land_tokens=5 + s,
            character_tokens=8 + (s * 3) % 7,
            council_tokens=3 + s % 4,
            markers=s % 3,
            score=(3 + s % 4, 8 + (s * 3) % 7, 16 + s, 3 + (s * 7) % 19),
            coup_lands=s % 3,
            will_lands=(s + 1) % 3,
            controls_marshal=s == 0,
            controls_privy=s == 1,
            council_seats=1 if s < 2 else 0,
            passed=s == n - 1,
            resigned=False,
        )
        for s in range(n)
    )
    result = None
    if over:
        ranks = tuple(range(n))
        result = ResultView(victory=Victory.COUP, winner=0, ranks=ranks, scores=tuple(p.score for p in players))
    vote = VoteView(
        vote=VoteKind.REMOVE_HEAD,
        caller=0,
        via=council[0],
        subject=heads[2],
        voters=tuple(
            VoterView(character=c, vote=v)
            for c, v in zip([*council, rep], ["for", "against", "for", None, None], strict=True)
        ),
        needed=3,
        stage="ballots",
        revealed=True,
    )
    return IntrigueView(
        viewer=None,
        num_seats=n,
        version=240,
        turn=turn,
        max_turns=10,
        phase=Phase.OVER if over else phase,
        step="",
        lands=tuple(land_views),
        characters=tuple(char_views),
        council=CouncilView(
            marshal=council[0], bishop=council[1], treasurer=council[2], privy=council[3], representative=rep
        ),
        cards=cards,
        players=players,
        kills=1 if dead else 0,
        kills_to_end=5,
        majority_needed=len(land_ids) // 2 + 1,
        removal_votes_needed=-(-2 * len(land_ids) // 3),
        awaiting=() if over else tuple(range(min(n, 3))),
        pending=None if over else PendingView(decision=Decision.BALLOT, seats=tuple(range(min(n, 3))), step="ballot"),
        vote=None if over else vote,
        reveals=(
            RevealedView(
                card="M99",
                owner=1 % n,
                character=heads[0],
                merc=MercType.ASSASSIN,
                how=RevealHow.SPY,
                by=0,
                turn=turn,
            ),
        ),
        result=result,
    )


@lru_cache(maxsize=1)
def board_palette() -> Image.Image:
    """Return the fixed 256-colour palette every board is encoded with (built once).

    It is fitted to hand-built reference boards with eight seats (every seat colour on chips, card
    backs, borders and badges), seven and nine lands and a finished game, so any
    board maps onto it faithfully and encoding skips fitting a palette per image.
    """
    names = [f"Seat {i}" for i in range(8)]
    boards = [
        _Board(reference_view(8), names, "ru").draw(),
        _Board(reference_view(4), names, "en").draw(),
        _Board(reference_view(3, over=True), names, "ru").draw(),
    ]
    return palette_from(boards)


# ----------------------------------------------------------------------------- samples and timing
SAMPLE_NAMES = [
    "Наташа",
    "Саша \N{FIRE}\N{FIRE}",
    "Григорий Константинопольский-Заде",
    "Alex",
    "\N{GRINNING FACE}",
    "Мария-Антуанетта",
    "Bob",
    "Ёжик",
]


def _main() -> None:
    """Write sample boards to /tmp/render-samples/ and report render time and size per sample."""
    samples = {f"ref-{n}p": (reference_view(n), SAMPLE_NAMES) for n in (2, 3, 5, 6, 8)}
    samples["ref-3p-over"] = (reference_view(3, over=True), SAMPLE_NAMES)
    write_samples("intrigue", samples, render_intrigue_board, runs=60)


if __name__ == "__main__":
    _main()
