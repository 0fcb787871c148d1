"""The shared seat palette and seat badge: colours that colour-blind players tell apart, numbers on every token.

Colour-vision deficiency is simulated with the Machado, Oliveira and Fernandes (2009) matrices at
full severity, applied to linear RGB; colours are compared by CIE76 ΔE in CIELAB (D65).
"""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image

from bot.render.common import (
    PANEL,
    PHONE_BOX,
    PREVIEW_BOX,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    Rgb,
    contrast_ratio,
    ink_on,
    min_font_size,
    seat_badge,
    shown_scale,
)

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Machado et al. 2009, severity 1.0 (dichromacy).
CVD: dict[str, Matrix] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
#: Distinct at a glance: ΔE 10 is a clearly different colour; the palette keeps at least 15.
MIN_DELTA_E = 15.0


def linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(colour: Rgb, matrix: Matrix) -> tuple[float, float, float]:
    """Return the linear RGB a dichromat sees for ``colour``, clipped to the gamut."""
    rgb = [linear(v) for v in colour]
    out = [min(1.0, max(0.0, sum(row[j] * rgb[j] for j in range(3)))) for row in matrix]
    return out[0], out[1], out[2]


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return math.dist(a, b)


@pytest.mark.parametrize("vision", sorted(CVD))
def test_eight_seat_colours_stay_apart_for_colour_blind_players(vision: str) -> None:
    assert len(SEAT_COLOURS) == 8
    seen = [lab(simulate(colour, CVD[vision])) for colour in SEAT_COLOURS]
    worst = min((delta_e(seen[i], seen[j]), i, j) for i, j in itertools.combinations(range(len(SEAT_COLOURS)), 2))
    assert worst[0] >= MIN_DELTA_E, f"seats {worst[1] + 1} and {worst[2] + 1} look alike under {vision}"


def test_seat_colours_stand_out_from_the_panels_and_carry_readable_numbers() -> None:
    for colour in SEAT_COLOURS:
        assert contrast_ratio(colour, PANEL) >= 3.0  # a graphic against its background (WCAG 1.4.11)
        assert contrast_ratio(ink_on(colour), colour) >= 4.5  # the seat number is text


def test_ink_picks_the_readable_one() -> None:
    assert ink_on((250, 250, 250)) == TEXT_DARK
    assert ink_on((10, 10, 40)) == TEXT


@pytest.mark.parametrize("seat", range(8))
def test_the_badge_shows_the_seat_number_in_the_seat_colour(seat: int) -> None:
    image = Image.new("RGB", (40, 40), PANEL)
    seat_badge(image, (20, 20), 30, seat)
    colours = {colour for _, colour in image.getcolors(4096) or []}
    assert SEAT_COLOURS[seat] in colours
    assert ink_on(SEAT_COLOURS[seat]) in colours  # the number's ink (solid inside its strokes)
    # Another seat's badge differs even where the colours are alike: the digits differ.
    other = Image.new("RGB", (40, 40), PANEL)
    seat_badge(other, (20, 20), 30, (seat + 1) % 8)
    assert image.tobytes() != other.tobytes()


def test_the_readable_size_follows_the_phone_box() -> None:
    """The desktop shows an embed image in 400x280 (SimCord's ``max-height: 280px``), a 400-px phone in 280x280."""
    assert PREVIEW_BOX == (400, 280) and PHONE_BOX == (280, 280)
    assert shown_scale(1000, 580) == pytest.approx(0.28)
    assert shown_scale(600, 420) == pytest.approx(280 / 600)  # a 10:7 board: the phone's width binds
    assert min_font_size(600, 420) == 24  # so its 17 px text showed 7.9 px tall on a phone
    assert min_font_size(800, 560) == 32
    assert shown_scale(600, 600) == shown_scale(600, 420)  # a square board is shown as large, and taller
    assert shown_scale(500, 800) == pytest.approx(280 / 800)  # a tall one: the height cap binds
    assert min_font_size(720, 720) == 29
    assert min_font_size(280, 120) == 11 and shown_scale(200, 100) == 1  # never enlarged


def test_a_seat_badge_can_carry_a_number_larger_than_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token in a line of text draws its number at the text's size (``number_size``), not 0.62 of its width."""
    import bot.render.common as common

    sizes: list[int] = []
    real = common.font

    def recording(face: common.Face, size: int) -> object:
        sizes.append(size)
        return real(face, size)

    monkeypatch.setattr(common, "font", recording)
    image = Image.new("RGB", (30, 30), PANEL)
    seat_badge(image, (15, 15), 22, 3)
    seat_badge(image, (15, 15), 22, 3, number_size=17)
    assert sizes == [14, 17]  # a 22-px token alone drew a 14-px number, 9 px as a Coup board shows it
