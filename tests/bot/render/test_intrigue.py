"""The «Интриги» board renderer: valid PNGs for 2–8 seats and 7 or 9 lands, pure output, nothing hidden drawn."""

from __future__ import annotations

import doctest
import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from PIL import Image

import bot.render.intrigue
from bot.i18n import catalogue, translate
from bot.render.common import ELLIPSIS, PHONE_BOX, seat_badge, shown_scale
from bot.render.intrigue import (
    BADGE,
    BADGE_TEXT,
    COMPACT_FONT_SIZES,
    COMPACT_SIZE,
    WIDTH,
    check_visibility,
    land_name,
    reference_view,
    render_intrigue_board,
    render_intrigue_compact,
    render_intrigue_hand,
)
from games.intrigue.data import STANDARD_NINE, STANDARD_SEVEN
from games.intrigue.models import DraftView, HandCardView, IntrigueView, MercType, Mode, Phase
from tests.bot.intrigue_playouts import ENGINE, NAMES, games
from tests.bot.render import readability

MAX_PNG_BYTES = 350 * 1024
LOCALES = ("ru", "en")
ROOT = Path(__file__).resolve().parents[3]


def image_of(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("seats", range(2, 9))
@pytest.mark.parametrize("locale", LOCALES)
def test_every_table_size_renders_a_png_within_bounds(seats: int, locale: str) -> None:
    png = render_intrigue_board(reference_view(seats), NAMES, locale)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) <= MAX_PNG_BYTES
    image = image_of(png)
    assert image.width == WIDTH and 700 <= image.height <= 1500


def test_seven_and_nine_lands_lay_out_in_four_and_three_columns() -> None:
    seven = image_of(render_intrigue_board(reference_view(4, lands=STANDARD_SEVEN), NAMES, "ru"))
    nine = image_of(render_intrigue_board(reference_view(4, lands=STANDARD_NINE), NAMES, "ru"))
    assert nine.height > seven.height  # three rows of lands instead of two
    other_seven = reference_view(3, lands=(1, 2, 3, 7, 8, 9, 10))  # lands outside the standard sets
    assert image_of(render_intrigue_board(other_seven, NAMES, "en")).width == WIDTH


@pytest.mark.parametrize("locale", LOCALES)
def test_boards_of_real_games_render_at_every_phase(locale: str) -> None:
    phases: set[Phase] = set()
    for game in games():
        states = [s.state for s in game.steps[:: max(1, len(game.steps) // 12)]] + [game.final]
        for state in states:
            view = ENGINE.view(state, None)
            phases.add(view.phase)
            png = render_intrigue_board(view, NAMES[: game.seats], locale)
            assert len(png) <= MAX_PNG_BYTES
    assert phases >= {Phase.SETUP, Phase.LANDS_ONE, Phase.INVESTMENTS, Phase.CHARACTERS, Phase.OVER}


def test_a_seats_own_view_draws_exactly_the_public_board() -> None:
    game = games()[1]
    for step in game.steps[::40]:
        public = render_intrigue_board(ENGINE.view(step.state, None), NAMES, "ru")
        for seat in range(game.seats):
            own = render_intrigue_board(ENGINE.view(step.state, seat), NAMES, "ru")
            assert own == public


def with_hand(view: IntrigueView, seat: int) -> IntrigueView:
    hand = (HandCardView(id="M40", merc=MercType.ASSASSIN, expires_turn=3),)
    players = tuple(p.model_copy(update={"hand": hand}) if p.seat == seat else p for p in view.players)
    return view.model_copy(update={"players": players})


def with_card_type(view: IntrigueView, owner: int) -> IntrigueView:
    cards = tuple(
        c.model_copy(update={"merc": MercType.MESSENGER, "mode": Mode.GIFT}) if c.owner == owner else c
        for c in view.cards
    )
    return view.model_copy(update={"cards": cards})


@pytest.mark.parametrize(
    "leak",
    [
        lambda v: with_hand(v, 1),
        lambda v: with_card_type(v, 2),
        lambda v: v.model_copy(update={"in_stock": (MercType.SPY,)}),
        lambda v: v.model_copy(update={"draft": DraftView(decision=v.pending.decision, step="main")}),
        lambda v: v.model_copy(update={"submission": DraftView(decision=v.pending.decision, step="submitted")}),
    ],
    ids=["hand", "card type", "stock", "draft", "submission"],
)
def test_the_public_view_refuses_hidden_data(leak) -> None:
    view = leak(reference_view(4))
    with pytest.raises(ValueError, match="refusing"):
        render_intrigue_board(view, NAMES, "ru")


def test_a_seat_view_refuses_other_seats_secrets_but_not_its_own() -> None:
    seat_view = reference_view(4).model_copy(update={"viewer": 1})
    check_visibility(with_card_type(with_hand(seat_view, 1), 1))  # its own: fine (and never drawn)
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_intrigue_board(with_hand(seat_view, 2), NAMES, "ru")
    with pytest.raises(ValueError, match="type of card"):
        render_intrigue_board(with_card_type(seat_view, 3), NAMES, "ru")
    public = render_intrigue_board(reference_view(4), NAMES, "ru")
    assert render_intrigue_board(with_card_type(with_hand(seat_view, 1), 1), NAMES, "ru") == public


@pytest.mark.parametrize(
    "names",
    [
        [],
        ["", " ", "\u200b"],
        ["\N{GRINNING FACE}" * 40, "Z\u0351\u0351\u0351algo" * 10, "W" * 32, "\u202eevil", "a\nb", "Ёж", "x", "y"],
    ],
)
def test_hostile_names_do_not_crash(names: list[str]) -> None:
    assert render_intrigue_board(reference_view(8), names, "ru").startswith(b"\x89PNG")


def test_rendering_is_a_pure_function_of_its_arguments() -> None:
    view = reference_view(6)
    first = render_intrigue_board(view, NAMES, "en")
    assert render_intrigue_board(view, NAMES, "en") == first
    assert render_intrigue_board(view, NAMES, "ru") != first


def test_concurrent_renders_agree() -> None:
    view = reference_view(5)
    expected = render_intrigue_board(view, NAMES, "ru")
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: render_intrigue_board(view, NAMES, "ru"), range(8)))
    assert all(png == expected for png in results)


def test_doctests() -> None:
    result = doctest.testmod(bot.render.intrigue)
    assert result.attempted > 0 and result.failed == 0


def test_render_labels_exist_in_both_languages() -> None:
    ru = {key for key in catalogue("ru") if key.startswith("render_intrigue.")}
    en = {key for key in catalogue("en") if key.startswith("render_intrigue.")}
    assert ru == en and len(ru) > 30


def test_render_package_never_imports_discord_or_the_engine() -> None:
    code = (
        "import sys, bot.render.intrigue as m; m.board_palette(); "
        "sys.exit(('discord' in sys.modules) * 1 + ('games.intrigue.engine' in sys.modules) * 2)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)  # noqa: S603 - fixed argv
    assert result.returncode == 0


# ---------------------------------------------------------------------- compact board and hand (issue 13)
def drawn_text_sizes() -> AbstractContextManager[list[tuple[float, str]]]:
    bot.render.intrigue.board_palette()  # drawn from full boards, once: not part of what is recorded
    return readability.drawn_text_sizes(bot.render.intrigue.text_mask)


def compact_samples() -> list[tuple[IntrigueView, int]]:
    """Return public views of 2 to 8 seats, both land sets, and real games at every phase."""
    views = [(reference_view(seats), seats) for seats in range(2, 9)]
    views += [(reference_view(8, lands=STANDARD_NINE), 8), (reference_view(3, over=True), 3)]
    for game in games()[:2]:
        views += [(ENGINE.view(s.state, None), game.seats) for s in game.steps[:: max(1, len(game.steps) // 6)]]
        views.append((ENGINE.view(game.final, None), game.seats))
    return views


def test_compact_fonts_read_at_discords_preview_size() -> None:
    """No text under 11 px once a 400-px phone shrinks the image into 280x280: declared and actually drawn."""
    assert COMPACT_SIZE[0] == COMPACT_SIZE[1]  # square like the phone's box, which it then fills
    scale = shown_scale(*COMPACT_SIZE)
    assert scale == pytest.approx(PHONE_BOX[0] / COMPACT_SIZE[0])
    assert min(COMPACT_FONT_SIZES) * scale >= readability.MIN_SHOWN_PX
    for view, seats in compact_samples():
        for locale in LOCALES:
            with drawn_text_sizes() as seen:
                png = render_intrigue_compact(view, NAMES[:seats], locale)
            shown = shown_scale(*image_of(png).size)
            small = [(size, text) for size, text in seen if size * shown < readability.MIN_SHOWN_PX]
            assert seen and not small, (seats, locale, small)


def own_view_holding(cards: int) -> IntrigueView:
    """Return seat 1's own view with ``cards`` mercenaries in hand, every type in turn."""
    types = list(MercType)
    hand = tuple(HandCardView(id=f"M{i:02d}", merc=types[i % len(types)], expires_turn=10) for i in range(cards))
    view = reference_view(4).model_copy(update={"viewer": 1})
    return view.model_copy(
        update={"players": tuple(p.model_copy(update={"hand": hand}) if p.seat == 1 else p for p in view.players)}
    )


@pytest.mark.parametrize("cards", [1, len(MercType), 9])
def test_the_hand_picture_reads_on_a_phone(cards: int) -> None:
    """The private panel's hand picture is an embed image too: shown 280 px wide at most on a phone."""
    for locale in LOCALES:
        with drawn_text_sizes() as seen:
            hand_png = render_intrigue_hand(own_view_holding(cards), locale)
        assert hand_png is not None
        size = image_of(hand_png).size
        assert size[0] <= 800 and size[1] <= size[0]
        shown = shown_scale(*size)
        small = [(px, text) for px, text in seen if px * shown < readability.MIN_SHOWN_PX]
        assert len(seen) == 2 * cards and not small, (cards, locale, round(shown, 3), small)
        assert not [text for _px, text in seen if text.endswith(ELLIPSIS)]  # every type and turn whole


def test_the_compact_board_names_every_land_and_council_seat_whole() -> None:
    """Short titles and two columns of lands: no standard land or council title is cut with "…"."""
    for lands in (STANDARD_SEVEN, STANDARD_NINE):
        for locale in LOCALES:
            with drawn_text_sizes() as seen:
                render_intrigue_compact(reference_view(8, lands=lands), NAMES[:8], locale)
            drawn = {text for _px, text in seen}
            holders = [land.holder for land in reference_view(8, lands=lands).lands]
            for land, holder in zip(lands, holders, strict=True):
                if holder is not None or locale == "en":  # beside "спор" the longest Russian names may be cut
                    assert land_name(land, locale) in drawn, (land, locale)
            titles = ("marshal", "bishop", "treasurer", "privy", "representative")
            assert {translate(locale, f"board.intrigue.council.{t}") for t in titles} <= drawn


def test_compact_board_keeps_one_size_through_a_game() -> None:
    sizes = {image_of(render_intrigue_compact(view, NAMES[:seats], "ru")).size for view, seats in compact_samples()}
    assert sizes == {COMPACT_SIZE}


def test_compact_board_numbers_the_seat_chips() -> None:
    """Colour is never the only cue: every player's chip carries the seat number."""
    with drawn_text_sizes() as seen:
        render_intrigue_compact(reference_view(8), NAMES[:8], "en")
    drawn = {text for _size, text in seen}
    assert {str(seat + 1) for seat in range(8)} <= drawn


def test_compact_board_and_hand_draw_only_what_their_viewer_may_see() -> None:
    own = with_hand(reference_view(4), 1).model_copy(update={"viewer": 1})
    with pytest.raises(ValueError, match="public view only"):
        render_intrigue_compact(own, NAMES[:4], "ru")
    assert render_intrigue_hand(reference_view(4), "ru") is None  # the public view has no hand
    png = render_intrigue_hand(own, "en")
    assert png is not None and image_of(png).width <= 800
    with drawn_text_sizes() as seen:
        render_intrigue_compact(reference_view(4), NAMES[:4], "en")
    assert "Assassin" not in {text for _px, text in seen}  # nor is any hand drawn on the public board
    with pytest.raises(ValueError):  # a view carrying another seat's hand is refused
        render_intrigue_hand(with_hand(reference_view(4), 2).model_copy(update={"viewer": 1}), "en")


def test_full_board_chips_carry_the_seat_number_and_the_count() -> None:
    """Colour is never the only cue on the detailed board either: a chip reads "seat, count"."""
    with readability.drawn_text_sizes(bot.render.intrigue.chip_sprite) as seen:
        bot.render.intrigue.chip_sprite(4, 2)
    assert [text for _size, text in seen] == ["5", "2"]
    assert bot.render.intrigue.chip_sprite(7, 12).width > bot.render.intrigue.chip_sprite(7, 1).width


def test_face_down_cards_and_contested_seats_are_numbered() -> None:
    """A face-down card reads "owner's seat, #number on the character"; a seat dot carries its number."""
    with readability.drawn_text_sizes(bot.render.intrigue.card_back) as seen:
        bot.render.intrigue.card_back(2, "1")
        seat_badge(Image.new("RGB", (16, 16)), (8, 8), BADGE, 6, BADGE_TEXT)
    assert [text for _size, text in seen] == ["3", "#1", "7"]


def test_the_compact_header_says_who_is_awaited() -> None:
    """Tokens of the awaited seats after "Ждём:"; "Ждём всех" when everyone is; nothing once the game is over."""

    def header_texts(view: IntrigueView) -> list[str]:
        with drawn_text_sizes() as seen:
            render_intrigue_compact(view, NAMES[: view.num_seats], "ru")
        return [text for _px, text in seen]

    few = header_texts(reference_view(6).model_copy(update={"awaiting": (4, 5)}))
    assert few[few.index("Ждём:") + 1 : few.index("Ждём:") + 3] == ["5", "6"]
    assert "Ждём всех" in header_texts(reference_view(6).model_copy(update={"awaiting": tuple(range(6))}))
    over = header_texts(reference_view(3, over=True))
    assert not [text for text in over if text.startswith("Ждём")]
