"""The «Гильдии Кадвалона» board renderer: valid PNGs for every grid and table, pure output, no hidden card drawn."""

from __future__ import annotations

import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from bot.i18n import catalogue
from bot.render import common
from bot.render.cadwallon import (
    CARD_SIZE,
    MARK_SIGNS,
    REFERENCE_NAMES,
    check_visibility,
    reference_view,
    render_cadwallon_board,
    sample_views,
)
from bot.render.common import drawable_codepoints
from games.cadwallon.engine import MARK_CARDS, CadwallonEngine
from games.cadwallon.models import CadwallonOptions, CadwallonView, PendingView, Phase, TargetKind
from games.cadwallon.state import CadwallonState
from games.core.rng import GameRng
from tests.bot.render import readability

MAX_PNG_BYTES = 300 * 1024
LOCALES = ("ru", "en")
ROOT = Path(__file__).resolve().parents[3]
ENGINE = CadwallonEngine()


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@cache
def samples() -> dict[str, tuple[CadwallonView, list[str]]]:
    return sample_views()


@cache
def played(grid: int, seats: int, seed: str) -> tuple[CadwallonState, ...]:
    options = CadwallonOptions(grid=grid, conditions=True, starting_action=True)
    state = ENGINE.setup(seats, options, seed).state
    states = [state]
    rng = GameRng(f"render:{seed}")
    while ENGINE.active_seats(state):
        seat = min(ENGINE.active_seats(state))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat))).state
        states.append(state)
    return tuple(states)


# ----------------------------------------------------------------------------- every table renders
@pytest.mark.parametrize(("grid", "seats"), [(3, 2), (3, 4), (4, 5), (4, 8), (5, 2), (5, 8)])
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("finished", [False, True])
def test_every_grid_and_table_size_renders_within_bounds(grid: int, seats: int, locale: str, finished: bool) -> None:
    view = reference_view(grid, seats, finished=finished)
    data = render_cadwallon_board(view, REFERENCE_NAMES, locale)
    image = decode(data)
    assert image.format == "PNG" and image.mode == "P"
    assert len(data) <= MAX_PNG_BYTES
    width, _height = CARD_SIZE[grid]
    assert image.width >= grid * width and image.height >= 480


@pytest.mark.parametrize("sample", ["3x3-2p-mid", "3x3-2p-end", "4x4-5p-mid", "4x4-5p-end", "5x5-8p-mid", "5x5-8p-end"])
@pytest.mark.parametrize("locale", LOCALES)
def test_every_engine_sample_renders(sample: str, locale: str) -> None:
    view, names = samples()[sample]
    data = render_cadwallon_board(view, names, locale)
    assert decode(data).format == "PNG" and len(data) <= MAX_PNG_BYTES
    assert (view.phase is Phase.FINISHED) == sample.endswith("end")


def test_engine_views_of_whole_games_render_and_never_depend_on_hidden_cards() -> None:
    rng = GameRng("render-leak")
    for grid, seats, seed in ((3, 3, "r1"), (5, 6, "r2")):
        states = played(grid, seats, seed)
        for state in (*states[:: max(1, len(states) // 12)], states[-1]):
            public = ENGINE.view(state, None)
            data = render_cadwallon_board(public, REFERENCE_NAMES, "ru")
            other = ENGINE.view(ENGINE.resample_hidden(state, None, rng), None)
            assert render_cadwallon_board(other, REFERENCE_NAMES, "ru") == data
            for seat in range(seats):  # a seat's own view is allowed and draws the same public board
                check_visibility(ENGINE.view(state, seat))


def test_the_5x5_board_with_eight_players_fits_its_png_budget() -> None:
    """PNG ≤ 300 KB (the issue's target); its render time is measured by ``benchmarks.render``."""
    view, names = samples()["5x5-8p-mid"]
    assert len(render_cadwallon_board(view, names, "ru")) <= MAX_PNG_BYTES


# ----------------------------------------------------------------------------- purity
def test_rendering_is_a_pure_function_of_its_arguments() -> None:
    view = reference_view(5, 8)
    first = render_cadwallon_board(view, REFERENCE_NAMES, "ru")
    assert render_cadwallon_board(view, REFERENCE_NAMES, "ru") == first
    assert render_cadwallon_board(view, REFERENCE_NAMES, "en") != first
    assert render_cadwallon_board(view, REFERENCE_NAMES[::-1], "ru") != first


def test_concurrent_renders_agree() -> None:
    views = [reference_view(grid, seats) for grid, seats in ((3, 2), (4, 6), (5, 8))] * 3
    expected = [render_cadwallon_board(v, REFERENCE_NAMES, "en") for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda v: render_cadwallon_board(v, REFERENCE_NAMES, "en"), views))
    assert got == expected


@pytest.mark.parametrize(
    "names",
    [[], ["\N{GRINNING FACE}" * 40] * 8, ["Z\u0301\u0302\u0303" * 30] * 8, ["\u202e" + "W" * 32] * 8],
)
def test_hostile_names_do_not_crash(names: list[str]) -> None:
    from bot.render.cadwallon import render_cadwallon_compact

    for render in (render_cadwallon_board, render_cadwallon_compact):
        assert decode(render(reference_view(5, 8), names, "ru")).format == "PNG"


# ----------------------------------------------------------------------------- hidden information
def test_a_public_view_with_a_hand_is_refused() -> None:
    view = reference_view(3, 2)
    players = tuple(p.model_copy(update={"hand": ("A01",)}) if p.seat == 1 else p for p in view.players)
    with pytest.raises(ValueError, match="hand of seat 1"):
        render_cadwallon_board(view.model_copy(update={"players": players}), REFERENCE_NAMES, "ru")
    # Open Books (C09) makes hands public: then the same view is fine.
    open_books = view.model_copy(update={"players": players, "condition": "C09"})
    assert render_cadwallon_board(open_books, REFERENCE_NAMES, "ru").startswith(b"\x89PNG")


def test_a_contract_before_the_end_is_refused_and_after_it_is_drawn() -> None:
    view = reference_view(3, 2)
    players = tuple(p.model_copy(update={"contract": "K05"}) for p in view.players)
    with pytest.raises(ValueError, match="contract of seat 0"):
        render_cadwallon_board(view.model_copy(update={"players": players}), REFERENCE_NAMES, "ru")
    finished = reference_view(3, 2, finished=True)
    assert all(p.contract is not None for p in finished.players)
    assert render_cadwallon_board(finished, REFERENCE_NAMES, "ru").startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "update",
    [
        {"pending": PendingView(card="A06", needs=TargetKind.AGENT)},
        {"peek": ("A01", "M01")},
    ],
)
def test_a_public_view_with_a_private_choice_is_refused(update: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="private choice"):
        render_cadwallon_board(reference_view(3, 2).model_copy(update=update), REFERENCE_NAMES, "ru")


def test_a_seat_view_may_not_carry_another_seats_hand() -> None:
    view = reference_view(3, 2).model_copy(update={"viewer": 0})
    own = tuple(p.model_copy(update={"hand": ("A01",)}) if p.seat == 0 else p for p in view.players)
    check_visibility(view.model_copy(update={"players": own}))
    other = tuple(p.model_copy(update={"hand": ("A01",)}) if p.seat == 1 else p for p in view.players)
    with pytest.raises(ValueError, match="the view of seat 0 carries the hand of seat 1"):
        check_visibility(view.model_copy(update={"players": other}))


# ----------------------------------------------------------------------------- labels and boundaries
def test_render_labels_exist_in_both_languages_and_every_mark_has_a_sign() -> None:
    ru = {key for key in catalogue("ru") if key.startswith("render_cadwallon.")}
    en = {key for key in catalogue("en") if key.startswith("render_cadwallon.")}
    assert ru == en
    assert set(MARK_SIGNS) == set(MARK_CARDS)
    for card in MARK_CARDS:
        assert f"render_cadwallon.mark.{card}" in ru
    drawable = drawable_codepoints()
    assert all(ord(ch) in drawable for sign in MARK_SIGNS.values() for ch in sign)
    for district in "DMOH":
        assert f"render_cadwallon.district.{district}" in ru
    assert catalogue("ru")["render_cadwallon.title"] == "Гильдии Кадвалона"
    assert "домашние карты" in catalogue("ru")["render_cadwallon.house"]
    assert "house cards" in catalogue("en")["render_cadwallon.house"]


def test_render_module_never_imports_discord_or_the_engine() -> None:
    code = (
        "import sys, bot.render.cadwallon as m; m.board_palette(); "
        "sys.exit(('discord' in sys.modules) * 1 + ('games.cadwallon.engine' in sys.modules) * 2)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)  # noqa: S603 - fixed argv
    assert result.returncode == 0


# ----------------------------------------------------------------------------- notation, legend, height (issue 13)
def test_the_height_never_changes_during_one_game() -> None:
    """Every state of a whole game draws at one size (the footer keeps room for its most lines)."""
    states = played(4, 3, "height")
    sizes = {decode(render_cadwallon_board(ENGINE.view(s, None), REFERENCE_NAMES, "ru")).size for s in states[::7]}
    assert len(sizes) == 1


def test_the_board_writes_boulevards_and_rows_in_its_language_and_has_a_legend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.render.cadwallon as module

    drawn: list[str] = []
    real = module._Board.text

    def recording(self: object, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        real(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    module.board_palette()  # drawn from reference boards in both languages: build it before recording
    monkeypatch.setattr(module._Board, "text", recording)
    view = reference_view(4, 4)
    # No turned agent: its red ring's explanation would take the boulevard notation's place.
    view = view.model_copy(update={"agents": tuple(a.model_copy(update={"turned": False}) for a in view.agents)})
    render_cadwallon_board(view, REFERENCE_NAMES, "ru")
    ru = list(drawn)
    drawn.clear()
    render_cadwallon_board(view, REFERENCE_NAMES, "en")
    en = list(drawn)
    rows = [t for t in ru if len(t) == 1 and t in "ABCDEАБВГД"][:4]  # the margin's row letters come first
    assert rows == ["А", "Б", "В", "Г"]
    assert "Б2│Б3" in ru and "B2│B3" in en  # a free boulevard's name, as the selects write it
    assert not any(len(t) == 3 and t[-1] in "ES" and t[1].isdigit() for t in ru + en)  # no old B2E codes
    assert any(t.startswith("Кварталы: Д — Доки") and "Б2│Б3" in t for t in ru)
    assert any(t.startswith("Districts: D Docks") for t in en)


def test_agents_and_player_tokens_carry_numbered_seat_badges(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.render.cadwallon as module

    module.board_palette()
    seats: list[int] = []
    real = common.seat_badge  # what the renderer imported

    def recording(image: Image.Image, centre: tuple[int, int], diameter: int, seat: int) -> None:
        seats.append(seat)
        real(image, centre, diameter, seat)

    monkeypatch.setattr(module, "seat_badge", recording)
    view = reference_view(5, 8)
    render_cadwallon_board(view, REFERENCE_NAMES, "en")
    assert set(range(8)) <= set(seats)
    assert len(seats) >= 8 + len(view.agents)


# ----------------------------------------------------------------------------- the private hand picture
def test_the_hand_picture_shows_the_viewers_cards_and_contract_readable_on_a_phone() -> None:
    """Every text on the hand (card names, districts, values, support, the contract) shows 11 px or more.

    Read off the drawing calls, at the scale the client shows the picture's actual size: a 400-px
    phone shows it at most 280 px wide, so a 400-px-wide hand is shown at 0.7 and wants 16-px text.
    """
    import bot.render.cadwallon as module

    module.board_palette()
    state = ENGINE.setup(3, CadwallonOptions(grid=4, conditions=True, starting_action=True), "hand").state
    view = ENGINE.view(state, 0)
    me = view.players[0]
    assert me.hand and me.contract
    # A long hand too (three rows, so a taller picture shown smaller), with the longest card names.
    many = ("A03", "A06", "A11", "A13", "A15", "A17", "A21", "A26")
    big = view.model_copy(
        update={"players": tuple(p.model_copy(update={"hand": many}) if p.seat == 0 else p for p in view.players)}
    )
    caches = (module.card_face, module.value_badge, module.support_badge)
    for hand_view in (view, big):
        for locale in LOCALES:
            with readability.drawn_text_sizes(*caches) as seen:
                data = module.render_cadwallon_hand(hand_view, REFERENCE_NAMES, locale)
            assert data is not None
            image = decode(data)
            shown = common.shown_scale(*image.size)
            assert shown < 1 or image.width <= common.PHONE_BOX[0]  # the phone does shrink a 400-px picture
            small = sorted({(px, text) for px, text in seen if px * shown < common.MIN_SHOWN_TEXT})
            assert seen and not small, (locale, image.size, small[:5])
    assert module.render_cadwallon_hand(ENGINE.view(state, None), REFERENCE_NAMES, "ru") is None
    other = view.model_copy(
        update={"players": tuple(p.model_copy(update={"hand": ("A07",)}) if p.seat == 1 else p for p in view.players)}
    )
    with pytest.raises(ValueError, match="hand of seat 1"):
        module.render_cadwallon_hand(other, REFERENCE_NAMES, "ru")


def test_text_colours_contrast_with_what_they_are_drawn_on() -> None:
    """Names on every card colour, boulevard labels on the felt, muted text on panels: WCAG 4.5 or more."""
    import bot.render.cadwallon as module
    from games.cadwallon.cards import CARDS

    pairs = [(common.CREAM, module.card_colour(info)) for info in CARDS.values()]
    pairs += [
        (module.GAP_CODE, common.FELT),
        (common.TEXT_MUTED, common.PANEL),
        (common.TEXT_MUTED, common.FELT_EDGE),
        (common.TEXT, common.FELT_EDGE),
        (common.GOLD, common.FELT),
    ]
    for ink, ground in pairs:
        assert common.contrast_ratio(ink, ground) >= 4.5, (ink, ground)


# ----------------------------------------------------------------------------- the compact board (issue 13)
COMPACT_TABLES = [(3, 2), (3, 4), (4, 2), (4, 5), (4, 8), (5, 2), (5, 6), (5, 8)]


def compact_views() -> list[tuple[CadwallonView, list[str]]]:
    """Engine samples (mid-game and finished) and reference boards of every grid from 2 to 8 players."""
    views = list(samples().values())
    for grid, seats in COMPACT_TABLES:
        views.append((reference_view(grid, seats), REFERENCE_NAMES))
        views.append((reference_view(grid, seats, finished=True), REFERENCE_NAMES))
    return views


def test_the_board_message_draws_no_font_under_11_px_as_the_client_shows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every font the public board asks for (its own, the value and support discs', the seat badges') meets the rule."""
    import bot.render.cadwallon as module
    from bot.presenters.registry import PRESENTERS

    module.board_palette()  # the palette draws full boards: build it before recording
    module.compact_value.cache_clear()  # so every disc's font is asked for again
    module.compact_support.cache_clear()
    sizes: list[int] = []
    real = common.font

    def recording(face: common.Face, size: int) -> object:
        sizes.append(size)
        return real(face, size)

    monkeypatch.setattr(module, "font", recording)
    monkeypatch.setattr(common, "font", recording)  # the seat badges' numbers
    for view, names in compact_views():
        for locale in LOCALES:
            image = decode(PRESENTERS["cadwallon"].render_board(view, names, locale))
            assert image.size == (module.COMPACT_W, module.COMPACT_H)
    assert module.COMPACT_W == module.COMPACT_H  # square like the phone's 280x280 box
    assert module.COMPACT_MIN_FONT == common.min_font_size(module.COMPACT_W, module.COMPACT_H) == 22
    assert sizes and min(sizes) >= module.COMPACT_MIN_FONT
    assert min(sizes) * common.shown_scale(module.COMPACT_W, module.COMPACT_H) >= common.MIN_SHOWN_TEXT


def test_the_compact_board_keeps_one_size_through_whole_games() -> None:
    """Every table draws at 560×560, from the deal to the final scores, so edits never resize the message."""
    from bot.render.cadwallon import render_cadwallon_compact

    for grid, seats, seed in ((3, 2, "c1"), (5, 8, "c2")):
        states = played(grid, seats, seed)
        sizes = {
            decode(render_cadwallon_compact(ENGINE.view(s, None), REFERENCE_NAMES, "ru")).size
            for s in (*states[:: max(1, len(states) // 15)], states[-1])
        }
        assert sizes == {(560, 560)}


def test_compact_agents_are_numbered_seat_badges_big_enough_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.render.cadwallon as module

    module.board_palette()
    badges: list[tuple[int, int, int]] = []
    real = common.seat_badge

    def recording(
        image: Image.Image, centre: tuple[int, int], diameter: int, seat: int, number_size: int | None = None
    ) -> None:
        badges.append((seat, diameter, round(diameter * 0.62) if number_size is None else number_size))
        real(image, centre, diameter, seat, number_size)

    monkeypatch.setattr(module, "seat_badge", recording)
    for grid in (3, 4, 5):
        badges.clear()
        view = reference_view(grid, 8)
        module.render_cadwallon_compact(view, REFERENCE_NAMES, "en")
        owners = sorted(a.owner for a in view.agents)
        seats = sorted(seat for seat, _, _ in badges)
        assert seats == sorted(owners + list(range(8)))  # one badge per agent and one per player cell
        assert min(d for _, d, _ in badges) >= module.C_BADGE
        assert min(n for _, _, n in badges) >= module.COMPACT_MIN_FONT  # the seat numbers read on a phone
        assert all(n <= 0.8 * d for _, d, n in badges)  # and still fit inside their discs


def test_the_compact_board_shows_rows_in_its_language_and_leaves_labels_to_the_full_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.render.cadwallon as module

    drawn: list[str] = []
    real = module._Compact.text

    def recording(self: object, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        real(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    module.board_palette()
    monkeypatch.setattr(module._Compact, "text", recording)
    view = reference_view(4, 4)
    module.render_cadwallon_compact(view, REFERENCE_NAMES, "ru")
    ru = list(drawn)
    drawn.clear()
    module.render_cadwallon_compact(view, REFERENCE_NAMES, "en")
    assert ru[:8] == ["А", "1", "Б", "2", "В", "3", "Г", "4"]  # the margins name the slots
    assert drawn[:8] == ["A", "1", "B", "2", "C", "3", "D", "4"]
    assert "Раунд 3" in ru and any(t.startswith("Round 3") for t in drawn)  # the deck only beside a short status
    short = reference_view(4, 4).model_copy(update={"turn": 3})  # Alex's move: room for the deck too
    drawn.clear()
    module.render_cadwallon_compact(short, REFERENCE_NAMES, "ru")
    assert "Раунд 3 · колода 31" in drawn
    assert any(t.startswith("Григорий") for t in ru)  # the turn player's status
    assert {"Наташа", "Саша", "Alex"} <= set(ru)  # up to four players, every cell has its name
    assert not any("│" in t or "─" in t for t in ru + drawn)  # no boulevard labels
    assert not any("Кварталы" in t or "Districts" in t for t in ru + drawn)  # no legend footer
    assert "+2" in drawn  # this round's marks keep their signs


def test_the_compact_board_never_depends_on_hidden_cards_and_refuses_them() -> None:
    import bot.render.cadwallon as module

    rng = GameRng("compact-leak")
    states = played(4, 4, "compact-leak")
    for state in (*states[:: max(1, len(states) // 8)], states[-1]):
        data = module.render_cadwallon_compact(ENGINE.view(state, None), REFERENCE_NAMES, "en")
        other = ENGINE.view(ENGINE.resample_hidden(state, None, rng), None)
        assert module.render_cadwallon_compact(other, REFERENCE_NAMES, "en") == data
    view = reference_view(3, 2)
    players = tuple(p.model_copy(update={"hand": ("A01",)}) if p.seat == 1 else p for p in view.players)
    with pytest.raises(ValueError, match="hand of seat 1"):
        module.render_cadwallon_compact(view.model_copy(update={"players": players}), REFERENCE_NAMES, "ru")


def test_compact_text_colours_contrast_with_what_they_are_drawn_on() -> None:
    import bot.render.cadwallon as module

    pairs = [
        (common.GOLD, common.FELT_EDGE),  # slot names on the margins
        (common.TEXT, common.PANEL),
        (common.TEXT_MUTED, common.PANEL),
        (common.TEXT, common.PANEL_WINNER),
        (common.GOLD, common.PANEL),  # scores
        (common.GOLD, common.PANEL_WINNER),
        (common.TEXT_DARK, module.S_BLUE),
        (common.TEXT_DARK, module.S_CHANGED),
    ]
    pairs += [(medal, common.PANEL) for medal in module.MEDALS]
    pairs += [(common.ink_on(fill), fill) for fill, _rim in module.COMPACT_VALUE_FILLS.values()]
    pairs += [(common.ink_on(colour), colour) for colour in common.SEAT_COLOURS]  # mark signs
    for ink, ground in pairs:
        assert common.contrast_ratio(ink, ground) >= 4.5, (ink, ground)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_an_agent_double_agent_turned_is_crossed_out_in_red_and_the_full_board_says_why(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Revision 5: a turned agent supports nobody; both boards ring it in red, the full board's legend explains it."""
    import bot.render.cadwallon as module

    turned = reference_view(4, 5)
    assert [a.id for a in turned.agents if a.turned] == [3]
    plain = turned.model_copy(update={"agents": tuple(a.model_copy(update={"turned": False}) for a in turned.agents)})
    names = ["Аня", "Борис", "Вера", "Глеб", "Дина"]

    def red(png: bytes) -> int:
        colours = Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 20) or []
        return sum(n for n, colour in colours if colour == common.RED)

    for draw in (module.render_cadwallon_compact, render_cadwallon_board):
        assert red(draw(turned, names, locale)) > red(draw(plain, names, locale)) + 200, draw.__name__
    module.board_palette()
    drawn: list[str] = []
    real = module._Board.text

    def recording(self: object, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        real(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module._Board, "text", recording)
    explained = {"ru": "красное кольцо", "en": "red ring"}[locale]
    render_cadwallon_board(turned, names, locale)
    assert any(explained in text for text in drawn)
    drawn.clear()
    render_cadwallon_board(plain, names, locale)
    assert drawn and not any(explained in text for text in drawn)
