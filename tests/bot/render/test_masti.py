"""The «Масти Власти» board renderer: valid PNGs for every table, pure output, and no hidden card ever drawn."""

from __future__ import annotations

import doctest
import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

import bot.render.common
import bot.render.masti
from bot.i18n import catalogue, translate
from bot.render.common import min_font_size, shown_scale
from bot.render.masti import (
    COMPACT_FONT_SIZES,
    COMPACT_SIZE,
    HAND_H,
    WIDTH,
    hand_size_px,
    render_masti_board,
    render_masti_compact,
    render_masti_hand,
    sample_views,
    winning_seat,
)
from games.masti.deck import card_info
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
from tests.bot.render import readability

MAX_PNG_BYTES = 250 * 1024
LOCALES = ("ru", "en")
NAMES = ["Наташа", "Саша", "Гриша", "Alex", "Мария", "Bob"]
ROOT = Path(__file__).resolve().parents[3]
MAX_ROUNDS = {3: 16, 4: 12, 5: 12, 6: 12}
WON = (
    ("A12", "U09", "P07", "A09", "U04", "A04", "A08", "P04", "A06", "A01", "P02", "U03", "E13"),
    ("E05", "A05", "E06", "P06", "E09", "U07", "P01", "A02", "A13", "P13"),
    ("P05", "U05", "P08", "E08", "U06", "P09", "E02", "A03", "U13"),
    ("E07", "P10", "U08", "E10", "A07", "E04", "E01", "P03"),
    ("U10", "E12", "A10", "U12", "A11", "P11", "U01", "U02", "E03"),
    (),
)


def player(seat: int, won: tuple[str, ...] = (), **update: object) -> PlayerView:
    """Return a player view whose piles are computed from ``won`` (guild order, symbols summed)."""
    piles = []
    for guild in Guild:
        cards = tuple(c for c in won if card_info(c).guild is guild)
        if cards:
            piles.append(GuildPileView(guild=guild, cards=cards, symbols=sum(card_info(c).symbols for c in cards)))
    neutral = tuple(c for c in won if card_info(c).guild is None)
    view = PlayerView(
        seat=seat,
        hand_size=5,
        bribe_gems=2,
        wealth_gems=seat,
        piles=tuple(piles),
        neutral=neutral,
        won_cards=len(won),
        power_cards=sum(1 for c in neutral if card_info(c).kind is CardKind.POWER),
    )
    return view.model_copy(update=update)


def make_view(seats: int, viewer: int | None = None, **update: object) -> MastiView:
    """Return a mid-round public view: seat 1 led Ugo, seat 2 bribed, the last seat is out of cards."""
    teams = ((0, 3), (1, 4), (2, 5)) if seats == 6 else None
    team_of = {s: i for i, team in enumerate(teams or ()) for s in team}
    players = tuple(
        player(seat, WON[seat], team=team_of.get(seat), out=seat == seats - 1, hand_size=0 if seat == seats - 1 else 5)
        for seat in range(seats)
    )
    view = MastiView(
        viewer=viewer,
        num_seats=seats,
        version=30,
        phase=Phase.PLAY,
        mode=Mode.TEAMS if teams else Mode.STANDARD,
        teams=teams,
        first_seat=0,
        round=6,
        max_rounds=MAX_ROUNDS[seats],
        players=players,
        trump="E11",
        trump_persona=Persona.ENZO,
        trump_deck_size=5,
        lead=1,
        led_persona=Persona.UGO,
        plays=(PlayView(seat=1, card="U11"), PlayView(seat=2)),
        turn=0,
        awaiting=(0,),
        last_round=RoundResultView(round=5, winner=1, cards=("U10", "A02", "U03"), trump="U03", gems=1),
    )
    return view.model_copy(update=update)


def with_hand(view: MastiView, seat: int, hand: tuple[str, ...]) -> MastiView:
    players = tuple(p.model_copy(update={"hand": hand}) if p.seat == seat else p for p in view.players)
    return view.model_copy(update={"players": players})


def private_view(seats: int = 4, seat: int = 0) -> MastiView:
    hand = ("U05", "U08", "P11", "A13")
    view = with_hand(make_view(seats, viewer=seat), seat, hand)
    return view.model_copy(update={"hand": hand, "legal_cards": ("U05", "U08"), "can_bribe": True})


def finished_view(seats: int, *, shared: bool = False) -> MastiView:
    view = make_view(seats, phase=Phase.FINISHED, trump=None, trump_persona=None, plays=(), turn=None, awaiting=())
    units = view.teams or tuple((seat,) for seat in range(seats))
    result = []
    for rank, unit in enumerate(units):
        piles = tuple(
            PileScore(owner=seat, guild=p.guild, cards=p.cards, symbols=p.symbols, points=p.symbols, counted=i % 3 != 2)
            for seat in unit
            for i, p in enumerate(view.players[seat].piles)
        )
        result.append(
            ScoreBreakdown(
                seats=unit,
                piles=piles,
                bonus_cards=1,
                bonus_points=2,
                penalty_cards=1,
                penalty_points=-2,
                power_cards=2,
                power_points=-3,
                gems=rank,
                total=20 - 5 * rank,
                won_cards=10,
                rank=0 if shared and rank < 2 else rank,
                resigned=rank == len(units) - 1,
            )
        )
    return view.model_copy(update={"result": tuple(result)})


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# ----------------------------------------------------------------------------- valid images
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("seats", range(3, 7))
def test_every_table_size_renders_a_png_within_bounds(seats: int, locale: str) -> None:
    data = render_masti_board(make_view(seats), NAMES, locale)
    image = decode(data)
    assert image.format == "PNG"
    assert image.width == WIDTH
    assert 500 <= image.height <= 1000
    assert len(data) <= MAX_PNG_BYTES


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("sample", sorted(sample_views()))
def test_every_engine_sample_renders(sample: str, locale: str) -> None:
    view, names = sample_views()[sample]
    data = render_masti_board(view, names, locale)
    assert decode(data).width == WIDTH
    assert len(data) <= MAX_PNG_BYTES


def test_samples_cover_every_phase_and_table() -> None:
    views = [view for view, _ in sample_views().values()]
    assert {view.phase for view in views} == set(Phase)
    assert {view.num_seats for view in views} == {3, 4, 5, 6}
    assert any(view.mode is Mode.TEAMS and view.num_seats == 4 for view in views)
    assert any(view.viewer is not None and view.hand for view in views)
    assert any(play.bribe for view in views for play in view.plays)


@pytest.mark.parametrize("seats", range(3, 7))
@pytest.mark.parametrize("shared", [False, True])
def test_finished_games_render_scores(seats: int, shared: bool) -> None:
    view = finished_view(seats, shared=shared)
    data = render_masti_board(view, NAMES, "ru")
    assert decode(data).width == WIDTH
    # Without a result (not expected from the engine) the board still renders.
    decode(render_masti_board(view.model_copy(update={"result": None}), NAMES, "en"))


@pytest.mark.parametrize("locale", LOCALES)
def test_six_player_phases_render(locale: str) -> None:
    seeding = make_view(
        6,
        phase=Phase.SEEDING,
        round=1,
        trump=None,
        trump_persona=None,
        plays=(),
        turn=None,
        awaiting=(3, 5),
        trump_deck_size=2,
        last_round=None,
    )
    seeding = seeding.model_copy(
        update={"players": tuple(p.model_copy(update={"seeded": p.seat == 4}) for p in seeding.players)}
    )
    leave = make_view(
        6,
        phase=Phase.LEAVE,
        trump=None,
        trump_persona=None,
        plays=(),
        turn=2,
        awaiting=(2,),
        leave_choices=("P04", "P09", "A01", "P13", "E02", "U12", "E07"),
        left_cards=("A05", "U06", "P12"),
        trump_deck_cards=("A05", "U06", "P12", "E09"),
    )
    for view in (seeding, leave):
        assert decode(render_masti_board(view, NAMES, locale)).width == WIDTH


def test_lead_and_follow_lines_render() -> None:
    lead = make_view(4, plays=(), turn=1, awaiting=(1,), led_persona=None, last_round=None)
    decode(render_masti_board(lead, NAMES, "ru"))
    waiting = make_view(4, turn=None, awaiting=())
    decode(render_masti_board(waiting, NAMES, "en"))


def test_six_guilds_with_jokers_fit_a_panel() -> None:
    won = ("A12", "A05", "U04", "A04", "P04", "E04", "A01", "P01", "E01", "U01", "A02", "A03", "A13")
    view = make_view(6)
    players = (player(0, won, team=0), *view.players[1:])
    decode(render_masti_board(view.model_copy(update={"players": players}), NAMES, "ru"))
    final = finished_view(6)
    piles = tuple(
        PileScore(owner=0, guild=guild, cards=("A12",), symbols=8, joker="A01", points=-15 + i)
        for i, guild in enumerate(Guild)
    )
    result = (final.result[0].model_copy(update={"piles": piles}), *final.result[1:]) if final.result else ()
    decode(render_masti_board(final.model_copy(update={"result": result}), NAMES, "en"))


@pytest.mark.parametrize(
    "names",
    [
        ["Григорий Константинопольский-Заде Младший", "W" * 32, "Ж" * 200, "x"],
        ["\N{FIRE}" * 40, "\N{GRINNING FACE}\N{VARIATION SELECTOR-16}", "\N{MAN}\N{ZERO WIDTH JOINER}\N{WOMAN}", ""],
        ["Z\u0335\u0321a\u0338l\u0337g\u0336o" * 5, "\u202eevil\u202c", "مرحبا بالعالم", "  \t\n  "],
        ["only one name"],
        [],
    ],
)
@pytest.mark.parametrize("locale", LOCALES)
def test_hostile_names_do_not_crash(names: list[str], locale: str) -> None:
    for view in (make_view(6), finished_view(6), private_view(4, 2)):
        assert decode(render_masti_board(view, names, locale)).width == WIDTH
    for view in (make_view(6), finished_view(6), make_view(4)):
        assert decode(render_masti_compact(view, names, locale)).size == COMPACT_SIZE


# ----------------------------------------------------------------------------- purity
def test_rendering_is_a_pure_function_of_its_arguments() -> None:
    view = make_view(6)
    first = render_masti_board(view, NAMES, "ru")
    assert render_masti_board(view, NAMES, "ru") == first
    clone = MastiView.model_validate_json(view.model_dump_json())
    assert render_masti_board(clone, list(NAMES), "ru") == first
    assert render_masti_board(view, NAMES, "en") != first
    fewer = view.model_copy(update={"trump_deck_size": 2})
    assert render_masti_board(fewer, NAMES, "ru") != first


def test_concurrent_renders_agree() -> None:
    views = [make_view(5), finished_view(4), private_view()]
    expected = [render_masti_board(view, NAMES, "ru") for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda i: render_masti_board(views[i % 3], NAMES, "ru"), range(12)))
    assert all(result == expected[i % 3] for i, result in enumerate(results))


@pytest.mark.parametrize("module", [bot.render.common, bot.render.masti])
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


# ----------------------------------------------------------------------------- the round's winner (spec §3.3)
@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ([(0, "A07"), (1, "A12"), (2, "E04")], Persona.ENZO, 2),  # any trump beats the led persona
        ([(0, "P06"), (1, "P11"), (2, "A13")], Persona.UGO, 1),  # an off-persona 13 never wins
        ([(0, "P05"), (1, "P12"), (2, "E13")], Persona.PIETRA, 1),  # led persona is trump
        ([(2, "P12"), (0, "U04")], Persona.UGO, 0),  # a -2 trump card makes Ugo trump
        ([(1, "A03"), (2, None), (0, None)], Persona.ENZO, 1),  # bribes play no part
        ([(1, "A03"), (2, "E01"), (0, "E02")], Persona.ENZO, 0),
        ([(1, "A05"), (2, "A09")], None, 2),  # no trump revealed
    ],
)
def test_winning_seat_follows_the_rules(
    plays: list[tuple[int, str | None]], trump: Persona | None, winner: int
) -> None:
    assert winning_seat([PlayView(seat=s, card=c) for s, c in plays], trump) == winner


def test_winning_seat_before_the_lead() -> None:
    assert winning_seat([], Persona.ALDO) is None


# ----------------------------------------------------------------------------- hidden information
def test_public_view_refuses_a_filled_hand() -> None:
    view = with_hand(make_view(4), 2, ("A05", "P09"))
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_masti_board(view, NAMES, "ru")


@pytest.mark.parametrize(
    ("update", "what"),
    [
        ({"hand": ("A05",)}, "hand"),
        ({"legal_cards": ("A05",)}, "legal cards"),
        ({"legal_cards": ()}, "legal cards"),
        ({"can_bribe": True}, "bribe choice"),
        ({"seeded_card": "A05"}, "seeded card"),
    ],
)
def test_public_view_refuses_private_fields(update: dict[str, object], what: str) -> None:
    with pytest.raises(ValueError, match=what):
        render_masti_board(make_view(6).model_copy(update=update), NAMES, "ru")


def test_seat_view_refuses_another_seats_hand_and_draws_its_own() -> None:
    own = private_view(4, 1)
    data = render_masti_board(own, NAMES, "ru")
    public = render_masti_board(make_view(4), NAMES, "ru")
    assert decode(data).height == decode(public).height + HAND_H + 14  # the hand strip (and its gap)
    leaked = with_hand(own, 2, ("A05", "P09"))
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_masti_board(leaked, NAMES, "ru")


def test_private_hand_changes_the_image_and_public_views_have_no_hand_strip() -> None:
    a = private_view(4, 1)
    b = a.model_copy(update={"hand": ("E05", "E08"), "legal_cards": ()})
    b = with_hand(b, 1, ("E05", "E08"))
    assert render_masti_board(a, NAMES, "ru") != render_masti_board(b, NAMES, "ru")
    # A seat's view without a hand (spectating seat) has no strip either.
    bare = make_view(4, viewer=1)
    assert (
        decode(render_masti_board(bare, NAMES, "ru")).height
        == decode(render_masti_board(make_view(4), NAMES, "ru")).height
    )


def test_engine_views_never_leak_and_render() -> None:
    """Every seat's engine view renders; the public view of the same state carries no hand."""
    from games.core.rng import GameRng
    from games.masti.engine import MastiEngine
    from games.masti.models import MastiOptions

    engine = MastiEngine()
    state = engine.setup(5, MastiOptions(), "leak-check").state
    for _ in range(17):
        seat = min(engine.active_seats(state))
        state = engine.apply(
            state, seat, GameRng.for_step("leak", state.version).choice(engine.legal_actions(state, seat))
        ).state
    public = engine.view(state, None)
    assert public.hand is None
    render_masti_board(public, NAMES, "ru")
    for seat in range(5):
        render_masti_board(engine.view(state, seat), NAMES, "en")


# ----------------------------------------------------------------------------- labels and boundaries
def test_render_labels_exist_in_both_languages() -> None:
    ru = {key for key in catalogue("ru") if key.startswith("render_masti.")}
    en = {key for key in catalogue("en") if key.startswith("render_masti.")}
    assert ru == en
    for persona in Persona:
        assert f"render_masti.persona.{persona.value}" in ru
    for guild in Guild:
        assert f"render_masti.guild.{guild.value}" in ru
    for kind in (CardKind.JOKER, CardKind.PENALTY, CardKind.BONUS, CardKind.POWER):
        assert f"render_masti.card.{kind.value}" in ru
    personas = [translate("ru", f"render_masti.persona.{p.value}") for p in Persona]
    assert personas == ["Альдо", "Пьетра", "Энцо", "Уго"]
    cards = [translate("ru", f"render_masti.card.{k}") for k in ("joker", "penalty", "bonus", "power")]
    assert cards == ["Джокер", "Штраф −2", "Бонус +2", "Карта власти"]
    assert translate("ru", "render_masti.guild.ASS") == "Убийцы"


@pytest.mark.parametrize(("n", "word"), [(1, "карта"), (3, "карты"), (11, "карт"), (21, "карта")])
def test_deck_word_agrees_with_the_number(n: int, word: str) -> None:
    assert translate("ru", "render_masti.trump_deck", n=n).split("\n")[0] == word


def test_render_package_never_imports_discord_or_the_engine() -> None:
    code = (
        "import sys, bot.render.masti, bot.render.common, bot.render.masti as m; m.board_palette(); "
        "sys.exit(('discord' in sys.modules) * 1 + ('games.masti.engine' in sys.modules) * 2)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)  # noqa: S603 - fixed argv
    assert result.returncode == 0


# ---------------------------------------------------------------------- compact board and hand (issue 13)
def drawn_text_sizes() -> AbstractContextManager[list[tuple[float, str]]]:
    """Record the font size of every text drawn meanwhile (the card and mark caches cleared first)."""
    return readability.drawn_text_sizes(bot.render.masti.card_face, bot.render.masti.neutral_icon)


#: Every kind of card in one hand: joker, −2, +2, power cards and two-digit values.
EVERY_KIND = ("A01", "A02", "A03", "A13", "A12", "P11", "E10", "U09", "A04", "P05")
#: The 48 guild cards and every neutral card, to deal hands of every size from.
DEALABLE = tuple(f"{p.value}{v:02d}" for v in range(1, 14) for p in Persona)


def test_compact_board_is_square_and_its_declared_fonts_read_on_a_phone() -> None:
    """A 400-px phone shows an embed image in 280x280: a square board fills it, and 22 px reads as 11 there."""
    assert COMPACT_SIZE[0] == COMPACT_SIZE[1]
    assert min(COMPACT_FONT_SIZES) >= min_font_size(*COMPACT_SIZE)
    assert min(COMPACT_FONT_SIZES) * shown_scale(*COMPACT_SIZE) >= readability.MIN_SHOWN_PX


def compact_views() -> dict[str, tuple[MastiView, list[str]]]:
    """Return the engine's samples plus hand-built boards of every table size, finished ones and hand sizes."""
    samples = dict(sample_views())
    private, names = samples["4p-private"]
    samples["every-kind"] = (private.model_copy(update={"hand": EVERY_KIND, "legal_cards": EVERY_KIND[:3]}), names)
    for cards in range(1, 17):  # 16 is the largest hand (three players)
        hand = DEALABLE[:cards]
        samples[f"hand-{cards}"] = (private.model_copy(update={"hand": hand, "legal_cards": hand[::2]}), names)
    for seats in range(3, 7):
        samples[f"built-{seats}"] = (make_view(seats), NAMES)
        samples[f"built-finished-{seats}"] = (finished_view(seats), NAMES)
    return samples


def test_compact_board_and_hand_draw_no_text_under_11_px_on_a_phone() -> None:
    """No text under 11 px once the client shrinks the image into the phone's 280x280: read off what is drawn.

    Each picture is judged at the scale of its own size, so a hand picture that grew past what a
    phone shows at that text size fails here as well as a board with small text.
    """
    for name, (view, names) in compact_views().items():
        for locale in LOCALES:
            png: bytes | None
            with drawn_text_sizes() as seen:
                if view.viewer is None:
                    png = render_masti_compact(view, names, locale)
                else:
                    png = render_masti_hand(view, locale)
            assert png is not None
            shown = shown_scale(*Image.open(io.BytesIO(png)).size)
            small = [(size, text) for size, text in seen if size * shown < readability.MIN_SHOWN_PX]
            assert seen and not small, (name, locale, round(shown, 3), small)


def test_the_readability_check_catches_a_small_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above fails on a board whose text is too small for a phone (here: 21-px names)."""
    monkeypatch.setattr(bot.render.masti, "COMPACT_NAME", 21)
    view, names = sample_views()["3p-mid-round"]
    with drawn_text_sizes() as seen:
        png = render_masti_compact(view, names, "ru")
    shown = shown_scale(*Image.open(io.BytesIO(png)).size)
    assert any(size * shown < readability.MIN_SHOWN_PX for size, _text in seen)


def test_compact_board_keeps_one_size_through_a_game() -> None:
    sizes = {
        Image.open(io.BytesIO(render_masti_compact(view, names, locale))).size
        for view, names in sample_views().values()
        if view.viewer is None
        for locale in LOCALES
    }
    assert sizes == {COMPACT_SIZE}


def test_compact_board_numbers_every_seat_chip() -> None:
    """Colour is never the only cue: each seat's chip carries its number."""
    view, names = sample_views()["6p-mid-round"]
    with drawn_text_sizes() as seen:
        render_masti_compact(view, names, "en")
    drawn = [text for _size, text in seen]
    for seat in range(6):
        assert drawn.count(str(seat + 1)) >= 2  # its cell and its slot in the round (values aside)


def test_compact_board_and_hand_refuse_what_they_must_not_draw() -> None:
    private, names = sample_views()["4p-private"]
    with pytest.raises(ValueError, match="public view only"):
        render_masti_compact(private, names, "ru")
    public = next(v for v, _n in sample_views().values() if v.viewer is None)
    assert render_masti_hand(public, "ru") is None


def test_hand_picture_shows_the_viewers_cards_and_dims_the_unplayable() -> None:
    view, _names = sample_views()["4p-private"]
    assert view.hand and view.legal_cards is not None and set(view.legal_cards) < set(view.hand)
    png = render_masti_hand(view, "en")
    assert png is not None
    image = Image.open(io.BytesIO(png))
    assert image.width <= 800
    everything = view.model_copy(update={"legal_cards": view.hand})
    assert render_masti_hand(everything, "en") != png  # the dimmed cards are drawn differently


def test_a_hand_fits_a_phone_in_even_rows() -> None:
    """A full hand wraps into even rows of at most five cards, so a phone shows it near full size."""
    assert hand_size_px(8)[0] <= 400 and hand_size_px(8)[1] < hand_size_px(11)[1]
    assert hand_size_px(10)[0] == hand_size_px(5)[0] <= 500
    assert hand_size_px(3)[1] == hand_size_px(5)[1]  # one row


def test_compact_board_marks_teams_and_the_final_standings() -> None:
    """Teams show as a short chip per row ("К1"); a finished game lists places and totals instead of the trick."""
    teams, names = sample_views()["4p-teams"]
    with drawn_text_sizes() as seen:
        render_masti_compact(teams, names, "ru")
    drawn = [text for _size, text in seen]
    assert drawn.count("К1") == 2 and drawn.count("К2") == 2
    final = finished_view(5)
    with drawn_text_sizes() as seen:
        render_masti_compact(final, NAMES, "en")
    drawn = [text for _size, text in seen]
    assert translate("en", "render_masti.result.title") in drawn
    assert {"1.", "2.", "3.", "4.", "5."} <= set(drawn)
    assert {str(unit.total) for unit in final.result or ()} <= set(drawn)


def test_compact_board_lays_out_every_table_within_the_square() -> None:
    """Up to six rows and six trick slots fit: the board never grows, and six rows stop short of its edge."""
    images = {seats: render_masti_compact(make_view(seats), NAMES, "ru") for seats in range(3, 7)}
    assert {decode(png).size for png in images.values()} == {COMPACT_SIZE}
    assert len(set(images.values())) == 4
    # The bottom margin of six rows is the bare felt that three rows leave (they end far above it).
    w, h = COMPACT_SIZE
    margin = (0, h - 6, w, h)
    three, six = (decode(images[n]).convert("RGB").crop(margin).tobytes() for n in (3, 6))
    assert six == three


@pytest.mark.parametrize(
    "update", [{"hand": ("A05",)}, {"legal_cards": ("A05",)}, {"can_bribe": True}, {"seeded_card": "A05"}]
)
def test_compact_board_refuses_private_fields(update: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="refusing to draw hidden cards"):
        render_masti_compact(make_view(6).model_copy(update=update), NAMES, "ru")


def test_a_seeded_card_shows_face_down_in_its_seats_slot() -> None:
    """Seeding: who has put a card into the trump deck is public, the card is not: its slot shows a back."""
    view, names = sample_views()["6p-seeding"]
    assert any(p.seeded for p in view.players)
    unseeded = view.model_copy(update={"players": tuple(p.model_copy(update={"seeded": False}) for p in view.players)})
    assert render_masti_compact(view, names, "ru") != render_masti_compact(unseeded, names, "ru")
