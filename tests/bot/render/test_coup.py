"""The Coup board renderer: valid PNGs for every table, pure output, and no hidden card ever drawn."""

from __future__ import annotations

import doctest
import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

import bot.render.common
import bot.render.coup
from bot.i18n import catalogue, translate
from bot.render.common import (
    ELLIPSIS,
    MIN_SHOWN_TEXT,
    PHONE_BOX,
    Face,
    clean_text,
    contrast_ratio,
    fit_text,
    font,
    min_font_size,
    shown_scale,
)
from bot.render.coup import CARD_COLOURS, WIDTH, render_coup_board, render_coup_hand, sample_views
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

MAX_PNG_BYTES = 250 * 1024
LOCALES = ("ru", "en")
NAMES = ["Наташа", "Саша", "Гриша", "Alex", "Мария", "Bob"]
ROOT = Path(__file__).resolve().parents[3]


def make_view(seats: int, viewer: int | None = None, **update: object) -> CoupView:
    """Return a mid-game view: seat 0 steals from seat 1, some cards revealed, the last seat out."""
    players = []
    for seat in range(seats):
        out = seat == seats - 1 and seats > 2
        revealed = (Card.DUKE, Card.CONTESSA) if out else ((Card.ASSASSIN,) if seat == 1 else ())
        players.append(
            PlayerView(
                seat=seat,
                coins=0 if out else seat + 2,
                revealed=revealed,
                hidden_count=2 - len(revealed),
                alive=not out,
            )
        )
    view = CoupView(
        viewer=viewer,
        num_seats=seats,
        version=12,
        phase=Phase.RESPOND_ACTION,
        turn=0,
        first_seat=0,
        players=tuple(players),
        deck_size=15 - 2 * seats,
        action=PendingActionView(action=ActionKind.STEAL, actor=0, target=1, claim=Card.CAPTAIN),
        awaiting=tuple(range(1, seats - 1 if seats > 2 else seats)),
        eliminated=(seats - 1,) if seats > 2 else (),
    )
    return view.model_copy(update=update)


def with_hand(view: CoupView, seat: int, hand: tuple[Card, ...]) -> CoupView:
    players = tuple(p.model_copy(update={"hand": hand}) if p.seat == seat else p for p in view.players)
    return view.model_copy(update={"players": players})


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# ----------------------------------------------------------------------------- valid images
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("seats", range(2, 7))
def test_every_table_size_renders_a_png_within_bounds(seats: int, locale: str) -> None:
    data = render_coup_board(make_view(seats), NAMES, locale)
    image = decode(data)
    assert image.format == "PNG"
    assert image.width == WIDTH
    assert 300 <= image.height <= 700
    assert len(data) <= MAX_PNG_BYTES


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("sample", sorted(sample_views()))
def test_every_sample_phase_renders(sample: str, locale: str) -> None:
    view, names = sample_views()[sample]
    image = decode(render_coup_board(view, names, locale))
    assert image.width == WIDTH


@pytest.mark.parametrize("phase", list(Phase))
def test_every_phase_renders_with_and_without_context(phase: Phase) -> None:
    bare = make_view(4, phase=phase, action=None, awaiting=())
    full = make_view(
        4,
        phase=phase,
        block=PendingBlockView(blocker=1, card=Card.CAPTAIN),
        challenge=ChallengeView(challenger=0, claimant=1, card=Card.CAPTAIN, against="block"),
        losing=0,
        forced_coup=phase is Phase.DECLARE,
        winner=2 if phase is Phase.OVER else None,
    )
    for view in (bare, full):
        decode(render_coup_board(view, NAMES, "ru"))


@pytest.mark.parametrize("seats", [7, 8])
def test_layout_stretches_to_eight_seats(seats: int) -> None:
    image = decode(render_coup_board(make_view(seats), NAMES, "en"))
    assert image.width == WIDTH


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
    view = make_view(
        4, phase=Phase.PROVE, challenge=ChallengeView(challenger=2, claimant=0, card=Card.CAPTAIN, against="action")
    )
    image = decode(render_coup_board(view, names, locale))
    assert image.width == WIDTH


def test_names_are_cleaned_and_fitted() -> None:
    assert clean_text("Саша \N{FIRE}\N{VARIATION SELECTOR-16}\u200d  Ш.") == "Саша Ш."
    assert clean_text("\N{FIRE}\u200b") == ""
    assert clean_text("Ёжик") == "Ёжик"
    bold = font(Face.BOLD, 20)
    cut = fit_text("Григорий Константинопольский-Заде", bold, 150)
    assert cut.endswith(ELLIPSIS)
    assert bold.getlength(cut) <= 150
    assert fit_text("Саша", bold, 150) == "Саша"


def test_cyrillic_glyphs_are_in_the_bundled_fonts() -> None:
    drawable = bot.render.common.drawable_codepoints()
    for char in "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя→…·—":
        assert ord(char) in drawable, char
    assert (ROOT / "assets" / "LICENSES").read_text(encoding="utf-8").count("Bitstream") >= 3


# ----------------------------------------------------------------------------- purity
def test_rendering_is_a_pure_function_of_its_arguments() -> None:
    view = make_view(6)
    first = render_coup_board(view, NAMES, "ru")
    assert render_coup_board(view, NAMES, "ru") == first
    clone = CoupView.model_validate_json(view.model_dump_json())
    assert render_coup_board(clone, list(NAMES), "ru") == first
    assert render_coup_board(view, NAMES, "en") != first
    assert render_coup_board(view.model_copy(update={"deck_size": 2}), NAMES, "ru") != first


def test_concurrent_renders_agree() -> None:
    view = make_view(5)
    expected = render_coup_board(view, NAMES, "ru")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: render_coup_board(view, NAMES, "ru"), range(12)))
    assert all(result == expected for result in results)


@pytest.mark.parametrize("module", [bot.render.common])
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


# ----------------------------------------------------------------------------- hidden information
def colour_pixels(data: bytes, colours: list[tuple[int, int, int]], tolerance: int = 6) -> int:
    """Count the pixels of ``data`` within ``tolerance`` of any of ``colours``."""
    counts = decode(data).convert("RGB").getcolors(1 << 24)
    assert counts is not None
    total = 0
    for n, pixel in counts:
        assert isinstance(pixel, tuple)
        if any(max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) <= tolerance for colour in colours):
            total += n
    return total


def test_public_view_without_hands_draws_no_card_face() -> None:
    players = tuple(
        PlayerView(seat=seat, coins=2, revealed=(), hidden_count=2, alive=True, hand=None) for seat in range(4)
    )
    view = CoupView(
        viewer=None,
        num_seats=4,
        version=0,
        phase=Phase.DECLARE,
        turn=0,
        first_seat=0,
        players=players,
        deck_size=7,
        awaiting=(0,),
    )
    public = render_coup_board(view, NAMES, "ru")
    # The Assassin's near-black is left out: anti-aliased text on the dark panels passes through it.
    faces = [colour for card, colour in CARD_COLOURS.items() if card is not Card.ASSASSIN]
    assert colour_pixels(public, faces) < 100
    private = render_coup_board(
        with_hand(view.model_copy(update={"viewer": 2}), 2, (Card.DUKE, Card.CAPTAIN)), NAMES, "ru"
    )
    assert colour_pixels(private, faces) > 2000


def test_public_view_refuses_a_filled_hand() -> None:
    view = with_hand(make_view(4), 2, (Card.DUKE, Card.CAPTAIN))
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_coup_board(view, NAMES, "ru")


def test_seat_view_refuses_another_seats_hand_and_draws_its_own() -> None:
    view = with_hand(make_view(4, viewer=1), 1, (Card.CAPTAIN,))
    own = render_coup_board(view, NAMES, "ru")
    assert own != render_coup_board(make_view(4), NAMES, "ru")
    leaked = with_hand(view, 2, (Card.DUKE, Card.CONTESSA))
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_coup_board(leaked, NAMES, "ru")


def test_public_view_refuses_private_choices() -> None:
    view = make_view(3, phase=Phase.EXCHANGE, choices=(Card.DUKE, Card.DUKE, Card.CAPTAIN, Card.CONTESSA))
    with pytest.raises(ValueError, match="choices"):
        render_coup_board(view, NAMES, "ru")


# ----------------------------------------------------------------------------- labels and boundaries
def test_render_labels_exist_in_both_languages() -> None:
    ru = {key for key in catalogue("ru") if key.startswith("render.")}
    en = {key for key in catalogue("en") if key.startswith("render.")}
    assert ru == en
    for card in Card:
        assert f"render.coup.card.{card.value}" in ru
    for action in ActionKind:
        assert f"render.coup.action.{action.value}" in ru
    russian = [translate("ru", f"render.coup.card.{card.value}") for card in Card]
    assert russian == ["Герцог", "Ассасин", "Капитан", "Посол", "Графиня"]
    assert translate("ru", "render.coup.action.assassinate") == "Заказное убийство"


@pytest.mark.parametrize(("n", "word"), [(0, "монет"), (1, "монета"), (3, "монеты"), (11, "монет"), (21, "монета")])
def test_coin_word_agrees_with_the_number(n: int, word: str) -> None:
    assert translate("ru", "render.coup.coins", n=n) == word


def test_render_package_never_imports_discord() -> None:
    code = "import sys, bot.render.coup, bot.render.common; sys.exit('discord' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)  # noqa: S603 - fixed argv
    assert result.returncode == 0


# ----------------------------------------------------------------------------- readable at the client's size
@pytest.mark.parametrize("seats", range(2, 9))
def test_every_font_shows_at_least_11_px_in_the_embed_box(seats: int) -> None:
    """The board is square (the phone's 280 x 280 box) and its fonts show 11 px there; the hand shows 1:1."""
    image = decode(render_coup_board(make_view(seats), NAMES, "ru"))
    assert image.size == (bot.render.coup.WIDTH, bot.render.coup.HEIGHT)
    assert image.width == image.height
    assert min_font_size(*image.size) == bot.render.coup.MIN_FONT
    shown = shown_scale(*image.size)
    assert shown == pytest.approx(PHONE_BOX[0] / image.width)  # as small as a 400-px phone shows it
    assert min(bot.render.coup.FONT_SIZES) * shown >= MIN_SHOWN_TEXT
    hand_box = (bot.render.coup.HAND_WIDTH, bot.render.coup.HAND_HEIGHT)
    assert shown_scale(*hand_box) == 1  # no wider or taller than the phone's box: shown at full size
    assert min(bot.render.coup.HAND_FONT_SIZES) >= min_font_size(*hand_box) == MIN_SHOWN_TEXT


def test_no_text_is_drawn_smaller_than_the_rule_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every font the board and the hand picture ask for, whatever the phase, meets their size rule.

    The seat tokens' numbers count too: they are drawn by the shared ``seat_badge`` (through
    ``bot.render.common.font``), and at 12-16 px they once showed at 8-11 px.
    """
    sizes: list[int] = []
    real = bot.render.common.font  # what bot.render.coup imported

    def recording(face: Face, size: int) -> object:
        sizes.append(size)
        return real(face, size)

    monkeypatch.setattr(bot.render.coup, "font", recording)
    monkeypatch.setattr(bot.render.common, "font", recording)
    for sample in sample_views().values():
        render_coup_board(*sample, "en")
    assert min(sizes) >= bot.render.coup.MIN_FONT
    sizes.clear()
    view = with_hand(make_view(4, viewer=2), 2, (Card.AMBASSADOR, Card.CONTESSA))
    render_coup_hand(view, NAMES, "ru")
    assert sizes and min(sizes) >= min_font_size(bot.render.coup.HAND_WIDTH, bot.render.coup.HAND_HEIGHT)


def test_the_height_never_changes_between_edits_of_one_table() -> None:
    """One 5-seat table through every phase, with and without block and challenge: one image size."""
    sizes = set()
    for phase in Phase:
        for update in (
            {"action": None, "awaiting": ()},
            {
                "block": PendingBlockView(blocker=1, card=Card.CAPTAIN),
                "challenge": ChallengeView(challenger=0, claimant=1, card=Card.CAPTAIN, against="block"),
                "losing": 0,
                "winner": 2 if phase is Phase.OVER else None,
            },
        ):
            sizes.add(decode(render_coup_board(make_view(5, phase=phase, **update), NAMES, "en")).size)
    assert len(sizes) == 1


def test_text_colours_contrast_with_what_they_are_drawn_on() -> None:
    from bot.render.common import BLUE, CREAM, GOLD, PANEL, PANEL_WINNER, RED, STRIP, TEXT, TEXT_DARK, TEXT_MUTED

    pairs = [(TEXT, PANEL), (TEXT, PANEL_WINNER), (TEXT, STRIP), (TEXT_MUTED, STRIP), (GOLD, STRIP)]
    pairs += [(TEXT_DARK, GOLD), (TEXT_DARK, BLUE), (TEXT_DARK, RED)]  # status pills
    pairs += [(CREAM, colour) for colour in CARD_COLOURS.values()]  # card chips and hand labels
    for ink, ground in pairs:
        assert contrast_ratio(ink, ground) >= 4.5, (ink, ground)


def test_every_seat_is_marked_by_its_numbered_badge(monkeypatch: pytest.MonkeyPatch) -> None:
    bot.render.coup.board_palette()  # built from sample boards: draw it before recording
    seats: list[int] = []
    real = bot.render.common.seat_badge  # what bot.render.coup imported

    def recording(
        image: Image.Image, centre: tuple[int, int], diameter: int, seat: int, number_size: int | None = None
    ) -> None:
        seats.append(seat)
        real(image, centre, diameter, seat, number_size)

    monkeypatch.setattr(bot.render.coup, "seat_badge", recording)
    render_coup_board(make_view(6), NAMES, "ru")
    assert set(seats) == set(range(6))


# ----------------------------------------------------------------------------- one picture language and the hand
def test_contessa_is_a_rose_and_the_ambassador_a_scroll_in_image_and_emoji() -> None:
    from bot.presenters.coup import CARD_EMOJI

    assert bot.render.coup.EMBLEMS[Card.CONTESSA].__name__ == "_rose" and CARD_EMOJI[Card.CONTESSA] == "\N{ROSE}"
    assert (
        bot.render.coup.EMBLEMS[Card.AMBASSADOR].__name__ == "_scroll" and CARD_EMOJI[Card.AMBASSADOR] == "\N{SCROLL}"
    )
    assert bot.render.coup.EMBLEMS[Card.DUKE].__name__ == "_crown" and CARD_EMOJI[Card.DUKE] == "\N{CROWN}"
    assert bot.render.coup.EMBLEMS[Card.CAPTAIN].__name__ == "_anchor" and CARD_EMOJI[Card.CAPTAIN] == "\N{ANCHOR}"
    assert bot.render.coup.EMBLEMS[Card.ASSASSIN].__name__ == "_dagger"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_hand_picture_shows_the_viewers_cards_at_full_size_even_on_a_phone(locale: str) -> None:
    view = with_hand(make_view(4, viewer=2), 2, (Card.DUKE, Card.CAPTAIN))
    data = render_coup_hand(view, NAMES, locale)
    assert data is not None
    image = decode(data).convert("RGB")
    assert image.size == (bot.render.coup.HAND_WIDTH, bot.render.coup.HAND_HEIGHT)
    assert image.width <= PHONE_BOX[0] and image.height <= PHONE_BOX[1]  # a 400-px phone shows it 1:1
    assert shown_scale(*image.size) == 1
    faces = {CARD_COLOURS[Card.DUKE], CARD_COLOURS[Card.CAPTAIN]}
    assert colour_pixels(data, list(faces)) > 4000
    assert colour_pixels(data, [CARD_COLOURS[Card.CONTESSA]]) == 0
    other = render_coup_hand(with_hand(make_view(4, viewer=2), 2, (Card.CONTESSA, Card.CAPTAIN)), NAMES, locale)
    assert other != data


def test_no_hand_picture_for_a_spectator_and_none_for_another_seat() -> None:
    assert render_coup_hand(make_view(4), NAMES, "ru") is None
    leaked = with_hand(make_view(4, viewer=1), 2, (Card.DUKE,))
    with pytest.raises(ValueError, match="hand of seat 2"):
        render_coup_hand(leaked, NAMES, "ru")


def test_a_headline_too_long_for_the_strip_puts_the_claim_on_its_own_line() -> None:
    """Names are not cut to a few letters while the strip has a spare line: the claim moves down."""
    long_names = ["Наташа Ростова", "Саша", "Григорий Константинопольский", "Alex"]
    view = make_view(4, awaiting=(1,))
    lines = bot.render.coup._Board(view, long_names, "ru").lines
    assert [segment.kind for segment in lines[1]] == ["text", "card"]  # "заявляет" + the Captain chip
    assert [segment.text for segment in lines[0] if segment.kind == "seat"] == ["Наташа Ростова", "Саша"]


def test_an_exchange_pool_of_four_fits_the_hand_picture_at_its_size() -> None:
    """Four cards to choose from narrow the cards, not the picture: it stays 1:1 on a phone."""
    view = make_view(4, viewer=2, phase=Phase.EXCHANGE, choices=(Card.DUKE, Card.ASSASSIN, Card.CAPTAIN, Card.CONTESSA))
    data = render_coup_hand(with_hand(view, 2, (Card.DUKE, Card.ASSASSIN)), NAMES, "en")
    assert data is not None
    assert decode(data).size == (bot.render.coup.HAND_WIDTH, bot.render.coup.HAND_HEIGHT)
    for card in (Card.DUKE, Card.CAPTAIN, Card.CONTESSA):
        assert colour_pixels(data, [CARD_COLOURS[card]]) > 1500, card


def test_an_eliminated_seats_revealed_cards_keep_their_colours() -> None:
    """The out seat's panel goes grey, but its lost cards stay recognisable: everyone counts them."""
    view = make_view(4)  # seat 3 is out with the Duke and the Contessa face up
    data = render_coup_board(view, NAMES, "ru")
    assert colour_pixels(data, [CARD_COLOURS[Card.DUKE]]) > 1500
    assert colour_pixels(data, [CARD_COLOURS[Card.CONTESSA]]) > 1500


def test_a_long_challenge_keeps_its_card_and_names_on_a_full_strip() -> None:
    """With the strip full, the "waiting for" line makes way (the pills say it) before a name or the card is cut."""
    view, names = sample_views()["5p-challenge-block"]
    for locale in LOCALES:
        board = bot.render.coup._Board(view, names, locale)
        headline = [segment for line in board.lines[: board.headline_rows] for segment in line]
        assert [segment.card for segment in headline if segment.kind == "card"] == [Card.CONTESSA]
        seats = [(segment.seat, segment.text) for segment in headline if segment.kind == "seat"]
        assert [seat for seat, _ in seats] == [1, 4] and seats[0][1] == "Саша"  # challenger and claimant, uncut
        assert len(board.lines) <= bot.render.coup.STRIP_LINES


def test_a_long_waiting_list_is_cut_to_the_strip_with_an_ellipsis() -> None:
    """Seven seats to wait for, long names: each strip line ends within the strip, the cut marked "…"."""
    names = [f"Александра Петровна {seat}" for seat in range(8)]
    board = bot.render.coup._Board(make_view(8), names, "ru")
    room = WIDTH - 2 * bot.render.coup.MARGIN - 20 - bot.render.coup.STRIP_PAD
    waiting = board.lines[-1]
    assert len([segment for segment in waiting if segment.kind == "seat"]) == 6
    for index, line in enumerate(board.lines):
        headline = index < board.headline_rows
        size = bot.render.coup.HEADLINE_SIZE if headline else bot.render.coup.DETAIL_SIZE
        fitted = board._fit_line(line, size, room, headline=headline)
        assert sum(board._segment_width(segment, size, headline) for segment in fitted) <= room
    fitted = board._fit_line(waiting, bot.render.coup.DETAIL_SIZE, room, headline=False)
    assert fitted[-1].text.endswith(ELLIPSIS)


def test_a_context_line_too_long_loses_its_claim_before_its_names() -> None:
    """Under a challenge, the action line drops "· claims Captain" (the headline names it) and keeps both names."""
    view = make_view(
        2,
        phase=Phase.PROVE,
        challenge=ChallengeView(challenger=1, claimant=0, card=Card.CAPTAIN, against="action"),
        awaiting=(0,),
    )
    room = WIDTH - 2 * bot.render.coup.MARGIN - 20 - bot.render.coup.STRIP_PAD
    for locale in LOCALES:
        board = bot.render.coup._Board(view, NAMES, locale)
        (action_line,) = [line for line in board.lines if any(segment.kind == "action" for segment in line)]
        fitted = board._fit_line(action_line, bot.render.coup.DETAIL_SIZE, room, headline=False)
        assert [segment.text for segment in fitted if segment.kind == "seat"] == ["Наташа", "Саша"]
        assert fitted[-1].kind == "action"
