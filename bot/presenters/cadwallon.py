"""How «Гильдии Кадвалона» (Guilds of Cadwallon) is shown: labels, status line, panel, log lines, rules, result.

Which decisions are public (digest §11). Where an agent may be placed follows from public facts
only: the free boulevards, the barricade and the support values of the grid cards. So the placement
step is decided on the public board, like Coup's declare step: two selects, *Between columns │*
(the ``E`` boulevards) and *Between rows ─* (the ``S`` boulevards), each listing only the free
boulevards (at most 20 on a 5×5 grid), labelled ``B2│B3 · +3 / +1`` with the support an agent
there gives toward each of its two cards. The action step depends on the hidden hand (which cards
the seat holds, the one being targeted, the Tarot peek), so it lives in the seat's private panel:
one button per playable action card, *End turn*, and, while a card is being targeted, one select
of grid cards (``C3 · Zodiac 2 (2 GP, S 2, Market)``), of boulevards or of agents
(``B2│B3 · Alice``, split by orientation when there are more than 25), or buttons for players.
The private panel also offers the placement selects, so a player who opened it can place there.

Card values are the project's HOUSE cards (digest §2): the rules pages say so, generated from the
engine's own card table (:mod:`games.cadwallon.cards`) so that they can never disagree with play.

Log lines are written per event kind (not through the generic :func:`bot.i18n.narrate.narrate`),
because Cadwallon events carry card ids, slots, boulevards and support tables that read best when
formatted here: the capture resolution reads card by card, "C3: Alice takes Zodiac 2 with support
5 (Alice 5, Bob 3)", and a tie names who tied and that the card stays.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel

from bot.i18n import normalize_locale, translate
from bot.presenters import Choice, Explore, Form, FormField
from bot.render.cadwallon import (
    ROW_LETTERS,
    render_cadwallon_board,
    render_cadwallon_compact,
    render_cadwallon_hand,
    slot_text,
)
from bot.render.cadwallon import boulevard_text as board_boulevard_text
from games.cadwallon.board import board
from games.cadwallon.cards import (
    ALL_ACTIONS,
    ALL_CONTRACTS,
    CARDS,
    CONDITIONS,
    GUILD_ORDER,
    card_info,
)
from games.cadwallon.models import (
    ActionCardDrawn,
    ActionPlayed,
    AgentMoved,
    AgentPlaced,
    AgentReturned,
    AgentsSwapped,
    AgentTurned,
    AgentView,
    BarricadeBuilt,
    BoulevardView,
    CadwallonView,
    CancelAction,
    CaptureOutcome,
    CardCaptured,
    CardDemolished,
    CardInfo,
    CardMarked,
    CardsRevealed,
    CardsSwapped,
    CardStayed,
    CardStolen,
    Category,
    ChooseAgent,
    ChooseBoulevard,
    ChooseCard,
    ChooseSeat,
    ChooseSlot,
    ContractDealt,
    DeckPeeked,
    DeckReordered,
    DeployEnd,
    DeployEnded,
    EndTurn,
    GameEnded,
    GameScored,
    GameStarted,
    Guild,
    GuildScore,
    MilitiaGiven,
    OrderTarot,
    PendingView,
    Phase,
    PlaceAgent,
    PlayAction,
    PlayerResigned,
    ReserveEmpty,
    RoundEnded,
    RoundStarted,
    ScoreBreakdown,
    SupportEntry,
    TurnEnded,
    TurnStep,
    WindfallRevealed,
)

GAME = "cadwallon"
#: Choice groups (each one select; names match ``[a-z_]{1,20}``, the custom-id grammar).
PLACE_GROUPS = {"E": "place_e", "S": "place_s"}
TARGET_GROUPS = {"E": "target_e", "S": "target_s"}
SLOT_GROUP = "slot"
AGENT_GROUP = "agent"
AGENT_GROUPS = {"E": "agent_e", "S": "agent_s"}
MILITIA_GROUP = "militia"
TAROT_GROUP = "tarot"
PLAY_GROUP = "play"
ALL_GROUPS = (
    *PLACE_GROUPS.values(),
    *TARGET_GROUPS.values(),
    SLOT_GROUP,
    AGENT_GROUP,
    *AGENT_GROUPS.values(),
    MILITIA_GROUP,
    TAROT_GROUP,
    PLAY_GROUP,
    "any",
)
MAX_OPTIONS = 25
#: More playable action cards than this are offered in one select instead of buttons.
MAX_CARD_BUTTONS = 9
#: The result message is one embed description (Discord: at most 4096 characters).
RESULT_BUDGET = 3900
#: The main rules (the board's Rules button): one embed, each text ≤ 1024 characters.
RULE_SECTIONS = ("goal", "setup", "round", "support", "capture", "scoring", "options", "table")
#: ``/cadwallon rules`` pages, in order: the main rules, then the card tables and our readings.
RULE_PAGES = ("rules", "cards", "actions", "conditions", "readings", "revision")
#: The sections of the page "our design, revisions 2–6": what changed in our designed parts and why.
REVISION_SECTIONS = ("why", "creditors", "contracts", "seats", "measured", "third", "fourth", "fifth", "sixth")
#: Our readings of the rulebook (digest RULINGs and the engine's own), one line each.
READINGS = (
    "zero",
    "ties",
    "snapshot",
    "fill",
    "last_boulevard",
    "shortage",
    "stall",
    "creditor",
    "personality",
    "targets",
    "hidden_won",
    "first_player",
    "resign",
    "own_agents",
    "tarot_clock",
)
FIELD_LIMIT = 1024
EMOJI_PLACE = "\N{ROUND PUSHPIN}"
#: The same pictures as the board image: action cards are a scroll there, militia a shield.
EMOJI_CARD = "\N{SCROLL}"
EMOJI_END = "\N{WHITE HEAVY CHECK MARK}"
EMOJI_CANCEL = "\N{LEFTWARDS ARROW WITH HOOK}"
EMOJI_SEAT = "\N{BUST IN SILHOUETTE}"
EMOJI_SLOT = "\N{BLACK SQUARE BUTTON}"
EMOJI_AGENT = "\N{BUSTS IN SILHOUETTE}"
EMOJI_TAROT = "\N{CRYSTAL BALL}"
EMOJI_MILITIA = "\N{SHIELD}"
MINUS = "\N{MINUS SIGN}"
#: On an English board, the Latin row letters a Russian keyboard's look-alikes stand for.
_LOOKALIKE = {"А": "A", "В": "B", "С": "C", "Д": "D", "Е": "E"}


#: The answers to an action card's questions.
TARGET_ACTIONS = (ChooseSlot, ChooseBoulevard, ChooseAgent, ChooseSeat, ChooseCard)


def _view(view: BaseModel) -> CadwallonView:
    if not isinstance(view, CadwallonView):
        raise TypeError(f"expected CadwallonView, got {type(view).__name__}")
    return view


def _t(locale: str, key: str, **params: Any) -> str:
    return translate(locale, f"{GAME}.{key}", **params)


def signed(n: int) -> str:
    """Return ``n`` with its sign and a true minus: ``+6``, ``−3``, ``0``."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def seat_name(seat: int, names: Sequence[str], locale: str) -> str:
    """Return the display name of ``seat`` (``Player 3`` if unknown)."""
    if 0 <= seat < len(names):
        return names[seat]
    return translate(locale, "core.seat", number=seat + 1)


def seats_text(seats: Sequence[int], names: Sequence[str], locale: str) -> str:
    """Return the names of ``seats`` joined by commas (``—`` for none)."""
    return ", ".join(seat_name(s, names, locale) for s in seats) or "—"


# ---------------------------------------------------------------------- addressing
def boulevard_text(code: str, locale: str = "en") -> str:
    """Return boulevard ``code`` in the board's notation: ``B2E`` → ``B2│B3``, ``B2S`` → ``B2─C2``.

    The one notation of image, selects, log and command (:func:`bot.render.cadwallon.boulevard_text`);
    a Russian board writes its rows А–Д.

    >>> boulevard_text("B2E"), boulevard_text("A3S"), boulevard_text("C1E", "ru")
    ('B2│B3', 'A3─B3', 'В1│В2')
    """
    return board_boulevard_text(code, locale)


def _letter_options(char: str, locale: str, *, side: bool) -> set[str]:
    """Return what a typed letter may mean: engine row letters, and (where a side may stand) ``E``/``S``.

    A Russian board's rows are А–Д, so there ``В`` is the third row; on an English board a Russian
    keyboard's look-alikes stand for the Latin letters (``В`` is B). A final ``E``/``Е`` (or ``В``,
    восток, on a Russian board) means east, ``S``/``С``/``Ю`` south: the old ``B2E`` codes still work.
    """
    rows: set[str] = set()
    if char in "ABCDE":
        rows.add(char)
    russian = normalize_locale(locale) == "ru"
    if russian and char in ROW_LETTERS["ru"]:
        rows.add("ABCDE"[ROW_LETTERS["ru"].index(char)])
    elif not russian and char in _LOOKALIKE:
        rows.add(_LOOKALIKE[char])
    if side:
        if char in "EЕ" or (russian and char == "В"):
            rows.add("e")
        if char in "SСЮ":
            rows.add("s")
    return rows


def _readings(text: str, locale: str) -> list[str]:
    """Return every engine spelling (``B2E``, ``B2C2``; sides lower-case) of what a player typed."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    readings = [""]
    for index, char in enumerate(cleaned):
        if char.isdigit():
            options = {char}
        else:
            options = _letter_options(char, locale, side=index == 2 and len(cleaned) == 3) or {char}
        readings = [r + o for r in readings for o in sorted(options)]
    return [r[:2] + r[2].upper() if len(r) == 3 and r[2] in "es" else r for r in readings]


def parse_boulevard(text: str, grid: int, locale: str = "en") -> str | None:
    """Return the boulevard code a player typed, or ``None`` when it names no boulevard of the grid.

    Accepts the board's notation, both slots (``B2│B3``, ``B2-B3``, ``B2 C2``, ``C2B2``; ``Б2│Б3``
    on a Russian board), and the old codes (``B2E``, ``b2s``, ``Б2Ю``).

    >>> parse_boulevard("b2e", 3), parse_boulevard("B3-B2", 3), parse_boulevard("C3E", 3)
    ('B2E', 'B2E', None)
    >>> parse_boulevard("Б2│Б3", 3, "ru"), parse_boulevard("В1-Б1", 3, "ru"), parse_boulevard("В1С", 3, "en")
    ('B2E', 'B1S', 'B1S')
    """
    geo = board(grid)
    for cleaned in _readings(text, locale):
        if len(cleaned) == 3 and cleaned in geo.boulevard_index:
            return cleaned
        if len(cleaned) == 4:
            a, b = geo.slot_index.get(cleaned[:2]), geo.slot_index.get(cleaned[2:])
            if a is not None and b is not None and b in geo.neighbours[a]:
                return geo.boulevard_names[geo.boulevard_between(min(a, b), max(a, b))]
    return None


def boulevard_suggestions(
    view: BaseModel, codes: Collection[str], typed: str, locale: str, limit: int = 25
) -> list[tuple[str, str]]:
    """Return ``(label, code)`` of the boulevards among ``codes`` that match what a player typed.

    For autocompleting ``/cadwallon place``: ``B2`` offers every boulevard beside B2 (``B2│B3``,
    ``A2─B2`` …), ``B2E`` or ``B2B3`` the one boulevard; Russian look-alike letters count as Latin.
    At most ``limit`` (Discord shows 25), in board order.

    >>> from games.cadwallon.engine import CadwallonEngine
    >>> from games.cadwallon.models import CadwallonOptions
    >>> view = CadwallonEngine().view(CadwallonEngine().setup(2, CadwallonOptions(grid=3), "s").state, 0)
    >>> [code for _, code in boulevard_suggestions(view, {"A1E", "B2E", "B2S", "C1E"}, "в2", "en")]
    ['B2E', 'B2S']
    """
    keys = _readings(typed, locale)
    found: list[tuple[str, str]] = []
    for boulevard in _view(view).boulevards:
        code = boulevard.boulevard
        if code not in codes:
            continue
        west, east = boulevard.slots
        if keys != [""] and not any(code.startswith(k) or k in west + east or k in east + west for k in keys):
            continue
        found.append((boulevard_label(boulevard, locale), code))
        if len(found) == limit:
            break
    return found


# ---------------------------------------------------------------------- card names and labels
def guild_name(guild: Guild, locale: str) -> str:
    """Return the guild's name: ``Usurers`` / ``Ростовщики``."""
    return _t(locale, f"guild.{guild.value}")


def district_name(info: CardInfo, locale: str) -> str:
    """Return the district type's name of a card: ``Docks`` / ``Доки``."""
    return _t(locale, f"district.{info.district.value}")


def card_name(card: str, locale: str) -> str:
    """Return a district card's name: ``Usurers 1``, ``Creditor of the Usurers``, ``Arrest``."""
    info = card_info(card)
    if info.category is Category.GUILD and info.guild is not None:
        return _t(locale, "label.member", guild=guild_name(info.guild, locale), k=card[-1])
    if info.category is Category.CREDITOR and info.guild is not None:
        return _t(locale, f"creditor.{info.guild.value}")
    if info.category is Category.PERSONALITY:
        return _t(locale, f"personality_short.{card}")
    if info.category is Category.MILITIA:
        return _t(locale, f"militia.{card}")
    return _t(locale, f"action.{card}")


def card_value(info: CardInfo, locale: str, support: int | None = None) -> str:
    """Return what a card is worth and its support: ``2 GP, S 2``, ``−1 PP, S 2``, ``wild, S 0``."""
    s = info.support if support is None else support
    return _t(locale, f"value.{info.category.value}", gp=info.gp, pp=info.pp, s=s)


def card_label(card: str, locale: str, support: int | None = None) -> str:
    """Return ``Zodiac 2 (2 GP, S 2, Market)``: name, value, support and district type."""
    info = card_info(card)
    return _t(
        locale,
        "label.card",
        card=card_name(card, locale),
        value=card_value(info, locale, support),
        district=district_name(info, locale),
    )


def cards_text(cards: Sequence[str], locale: str) -> str:
    """Return the names of ``cards`` joined by commas (``—`` for none)."""
    return ", ".join(card_name(card, locale) for card in cards) or "—"


def condition_name(condition: str, locale: str) -> str:
    """Return a condition card's name."""
    return _t(locale, f"condition.{condition}")


def contract_name(contract: str, locale: str) -> str:
    """Return a contract card's name."""
    return _t(locale, f"contract.{contract}")


def slot_label(view: CadwallonView, slot: str, locale: str) -> str:
    """Return a grid choice: ``C3 · Zodiac 2 (2 GP, S 2, Market)`` (the support after this round's marks)."""
    info = next(s for s in view.slots if s.slot == slot)
    if info.card is None:
        return slot_text(slot, locale)
    return _t(
        locale,
        "label.slot",
        slot=slot_text(slot, locale),
        card=card_label(info.card.id, locale, info.effective_support),
    )


def boulevard_label(boulevard: BoulevardView, locale: str, owners: str | None = None, names: Sequence[str] = ()) -> str:
    """Return ``B2│B3 · +3 / +1``: the support an agent there gives toward ``slots[0]`` and ``slots[1]``."""
    west, east = boulevard.support
    text = boulevard_text(boulevard.boulevard, locale)
    if owners is not None:
        return _t(locale, "label.boulevard_agents", boulevard=text, owners=owners, west=west, east=east)
    return _t(locale, "label.boulevard", boulevard=text, west=west, east=east)


def agent_label(agent: AgentView, names: Sequence[str], locale: str) -> str:
    """Return ``B2│B3 · Alice`` (and that it supports nobody when Double Agent turned it, revision 5)."""
    where = boulevard_text(agent.boulevard, locale)
    owner = seat_name(agent.owner, names, locale)
    if agent.turned:
        return _t(locale, "label.agent_turned_nobody", boulevard=where, owner=owner)
    return _t(locale, "label.agent", boulevard=where, owner=owner)


def tarot_label(order: OrderTarot, locale: str) -> str:
    """Return how a Tarot order puts the cards back: ``Top: A, B · bottom: C``."""
    top = cards_text(order.top, locale)
    if order.bottom is None:
        return _t(locale, "label.tarot_top", top=top)
    return _t(locale, "label.tarot_bottom", top=top, bottom=card_name(order.bottom, locale))


def captured_summary(cards: Sequence[str], locale: str) -> str:
    """Return captured cards grouped: ``Usurers 2, Jewelers 1, personalities 1, militia 2``."""
    parts: list[str] = []
    for guild in GUILD_ORDER:
        members = sum(1 for c in cards if CARDS[c].category is Category.GUILD and CARDS[c].guild is guild)
        if members:
            parts.append(_t(locale, "summary.guild", guild=guild_name(guild, locale), n=members))
        if any(CARDS[c].category is Category.CREDITOR and CARDS[c].guild is guild for c in cards):
            parts.append(_t(locale, f"creditor.{guild.value}"))
    for category in (Category.PERSONALITY, Category.MILITIA):
        count = sum(1 for c in cards if CARDS[c].category is category)
        if count:
            parts.append(_t(locale, f"summary.{category.value}", n=count))
    return ", ".join(parts) or "—"


# ---------------------------------------------------------------------- the presenter
class CadwallonPresenter:
    """The presenter of «Гильдии Кадвалона»."""

    game = GAME

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the compact board PNG (560×560, readable on a phone) from the public view."""
        return render_cadwallon_compact(_view(view), names, locale)

    def render_full_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the detailed board PNG (card names, boulevard labels, captures, legend) from the public view."""
        return render_cadwallon_board(_view(view), names, locale)

    def render_hand(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
        """Return the viewer's action cards and contract as a picture (``None``: spectator or nothing held)."""
        return render_cadwallon_hand(_view(view), names, locale)

    # ------------------------------------------------------------------ status
    def status(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return what the table waits for, in one line."""
        v = _view(view)
        if v.phase is Phase.FINISHED:
            return self._status_over(v, names, locale)
        name = seat_name(v.turn, names, locale) if v.turn is not None else "—"
        if v.step is TurnStep.ACT:
            return _t(locale, "status.act", round=v.round, name=name, deck=v.deck_size)
        if v.step is TurnStep.TAROT:
            return _t(locale, "status.tarot", round=v.round, name=name, deck=v.deck_size)
        free = len(v.free_boulevards)
        return _t(locale, "status.place", round=v.round, name=name, free=free, deck=v.deck_size)

    def _status_over(self, v: CadwallonView, names: Sequence[str], locale: str) -> str:
        winners = [b for b in v.result or () if b.rank == 0]
        if not winners:
            return _t(locale, "status.over_plain")
        text = seats_text([b.seat for b in winners], names, locale)
        key = "status.over_shared" if len(winners) > 1 else "status.over"
        return _t(locale, key, winners=text, points=winners[0].total)

    # ------------------------------------------------------------------ private panel
    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the viewer's hand (with each card's effect), contract, agents, score and what to do now."""
        v = _view(view)
        if v.viewer is None:
            return translate(locale, "ui.panel.spectator")
        me = v.players[v.viewer]
        lines: list[str] = []
        hand = me.hand or ()
        if hand:
            lines.append(_t(locale, "panel.hand", n=len(hand)))
            lines.extend(
                _t(locale, "panel.hand_line", card=card_name(card, locale), text=_t(locale, f"action_text.{card}"))
                for card in hand
            )
        else:
            lines.append(_t(locale, "panel.hand_empty"))
        if me.contract is not None:
            lines.append(
                _t(
                    locale,
                    "panel.contract",
                    name=contract_name(me.contract, locale),
                    text=_t(locale, f"contract_text.{me.contract}"),
                )
            )
        if v.phase is Phase.DEPLOY and not me.resigned:
            lines.append(_t(locale, "panel.agents", supply=me.supply, total=me.agents_per_round))
        lines.append(_t(locale, "panel.captured", cards=captured_summary(me.captured, locale)))
        lines.append(_t(locale, "panel.score", score=me.live_score, crests=me.crests))
        if me.protected:
            lines.append(_t(locale, "panel.protected"))
        lines.extend(self._todo(v, names, locale))
        return "\n".join(lines)

    def _todo(self, v: CadwallonView, names: Sequence[str], locale: str) -> list[str]:
        assert v.viewer is not None  # noqa: S101 - only seats have a to-do
        me = v.players[v.viewer]
        if v.phase is Phase.FINISHED:
            return [_t(locale, "panel.todo.over")]
        if me.resigned:
            return [_t(locale, "panel.resigned")]
        if v.turn != v.viewer:
            name = seat_name(v.turn, names, locale) if v.turn is not None else "—"
            return [_t(locale, "panel.todo.wait", name=name)]
        if v.step is TurnStep.PLACE:
            return [_t(locale, "panel.todo.place")]
        if v.step is TurnStep.TAROT:
            return [_t(locale, "panel.todo.tarot", cards=cards_text(v.peek or (), locale))]
        if v.pending is not None:
            return [self._pending_text(v, v.pending, names, locale)]
        return [_t(locale, "panel.todo.act")]

    def _pending_text(self, v: CadwallonView, pending: PendingView, names: Sequence[str], locale: str) -> str:
        """Return what the pending card asks for next: ``Arrest: choose an opponent's agent…``."""
        card = card_name(pending.card, locale)
        if pending.choice == 1:
            return _t(locale, f"panel.target.{pending.card}", card=card)
        first = "—"
        if pending.slot is not None:
            first = slot_label(v, pending.slot, locale)
        elif pending.agent is not None:
            agent = next((a for a in v.agents if a.id == pending.agent), None)
            first = agent_label(agent, names, locale) if agent is not None else "—"
        elif pending.card_chosen is not None:
            first = card_name(pending.card_chosen, locale)
        return _t(locale, f"panel.target2.{pending.card}", card=card, first=first)

    # ------------------------------------------------------------------ rules
    def rules(self, locale: str) -> list[tuple[str, str]]:
        """Return the main rules (the board's Rules button); the card tables are in :meth:`rule_pages`."""
        return [(_t(locale, f"rules.{key}.title"), _t(locale, f"rules.{key}.text")) for key in RULE_SECTIONS]

    def rule_page(self, page: str, locale: str) -> list[tuple[str, str]]:
        """Return one ``/cadwallon rules`` page as embed fields (each text ≤ 1024 characters).

        Pages: ``rules`` (the main rules), ``cards`` (district types, guilds, Creditors,
        personalities, militia), ``actions`` (the 26 action cards), ``conditions`` (the 12 conditions
        and 20 contracts), ``readings`` (how we read the rulebook where it is silent) and ``revision``
        (our design, revisions 2-6: what changed and why). Every table is generated from the engine's
        card data; every value there is a HOUSE card, and says so.
        """
        builders: dict[str, Callable[[str], list[tuple[str, str]]]] = {
            "rules": self.rules,
            "cards": _cards_page,
            "actions": _actions_page,
            "conditions": _conditions_page,
            "readings": _readings_page,
            "revision": _revision_page,
        }
        if page not in builders:
            raise ValueError(f"unknown rules page {page!r}")
        return builders[page](locale)

    def rule_page_title(self, page: str, locale: str) -> str:
        """Return the title of a rules page."""
        return _t(locale, f"page.{page}")

    # ------------------------------------------------------------------ result
    def result_lines(self, view: BaseModel, names: Sequence[str], locale: str) -> list[str]:
        """Return why the game ended, then each player best first with the itemised score.

        Per player: place, total and distinct crests (the tie-break), each guild (members' GP ×
        cards, personalities placed in it, Creditor and Great Guilds bonuses), free personalities
        and Austerity, actions, militia and Informers, the contract. When eight long breakdowns
        would not fit one embed the guilds are shortened to their totals.
        """
        v = _view(view)
        result = sorted(v.result or (), key=lambda b: (b.rank, b.seat))
        head: list[str] = []
        if v.end_reason is not None:
            head.append(_t(locale, f"end_reason.{v.end_reason.value}"))
        tied = _tied_totals(result)
        lines = list(head)
        for compact in (False, True):
            lines = list(head)
            for breakdown in result:
                lines.extend(self._breakdown_lines(breakdown, breakdown.total in tied, names, locale, compact=compact))
            if len("\n".join(lines)) <= RESULT_BUDGET:
                return lines
        # Never reached with eight 32-character names (tested); a last resort keeps the heads only.
        return [line for line in lines if not line.startswith("• ")]

    def _breakdown_lines(
        self, b: ScoreBreakdown, tied: bool, names: Sequence[str], locale: str, *, compact: bool
    ) -> list[str]:
        name = seat_name(b.seat, names, locale)
        key = "result.head_resigned" if b.resigned else "result.head"
        head = _t(locale, key, place=b.rank + 1, name=name, points=b.total)
        if tied:
            head += " " + _t(locale, "result.crests", n=b.crests)
        lines = [f"**{head}**"]
        guilds = [_guild_text(g, locale, compact=compact) for g in b.guilds]
        if b.unassigned and b.free_spirit_points:
            guilds.append(_t(locale, "result.free_spirits", n=b.unassigned, points=signed(b.free_spirit_points)))
        elif b.unassigned:
            guilds.append(_t(locale, "result.unassigned", n=b.unassigned))
        if b.austerity_loss:
            guilds.append(_t(locale, "result.austerity", points=signed(-b.austerity_loss)))
        lines.append(
            "• " + (_t(locale, "result.guilds", items="; ".join(guilds)) if guilds else _t(locale, "result.no_guilds"))
        )
        extras = [
            _t(
                locale,
                "result.actions",
                n=b.action_cards,
                each=b.action_points // b.action_cards if b.action_cards else 0,
                points=signed(b.action_points),
            ),
            _t(
                locale,
                "result.militia_amnesty"
                if len(b.militia) > 1 and b.militia_penalty == b.militia_pp
                else "result.militia",
                n=len(b.militia),
                pp=b.militia_pp,
                points=signed(-b.militia_penalty),
            )
            if b.militia
            else _t(locale, "result.no_militia"),
        ]
        if b.informer_penalty:
            extras.append(_t(locale, "result.informers", points=signed(-b.informer_penalty)))
        if b.seat_points:
            extras.append(_t(locale, "revision.result_seat", points=signed(b.seat_points)))
        if b.contract is not None:
            key = "result.contract_met" if b.contract_met else "result.contract_failed"
            extras.append(_t(locale, key, name=contract_name(b.contract, locale), points=signed(b.contract_points)))
        lines.append("• " + " · ".join(extras))
        return lines

    # ------------------------------------------------------------------ choices
    def public_choices(
        self, view: BaseModel, awaited_legal: Sequence[Any], names: Sequence[str], locale: str
    ) -> list[Choice]:
        """Return the placement selects while the turn seat places an agent; nothing otherwise.

        Which boulevards are free is public, so the board offers them; the action step depends on
        the hidden hand and stays in the private panel.
        """
        v = _view(view)
        if v.viewer is not None:
            raise ValueError("public choices are built from the public view only")
        if not self.decided_on_board(v):
            return []
        places = [a for a in awaited_legal if isinstance(a, PlaceAgent)]
        if len(places) != len(awaited_legal):
            raise TypeError(f"only placements are public, got {awaited_legal!r}")
        return [self._place_choice(v, a, locale) for a in places]

    def decided_on_board(self, view: BaseModel) -> bool:
        """Return whether the turn seat is placing an agent (decided with the board's selects)."""
        v = _view(view)
        return v.phase is Phase.DEPLOY and v.step is TurnStep.PLACE

    def forms(
        self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str, explore: Explore | None = None
    ) -> list[Form]:
        """Return a form per action card whose two targets can be chosen together (the card, then both targets).

        Which cards qualify is read from the engine through ``explore``, never from a list here: a
        card qualifies when it asks two questions and every answer to the first leaves the same
        answers to the second (moving an agent to a free boulevard, giving a militia card to a
        player). Cards whose second target depends on the first (a card of the same type, a
        neighbour, an agent on another boulevard) and one-target cards stay on the panel's buttons,
        where they take as few clicks as a form.
        """
        v = _view(view)
        if explore is None or v.viewer is None or v.pending is not None:
            return []
        forms: list[Form] = []
        for play in (a for a in legal if isinstance(a, PlayAction)):
            targets = self._two_targets(play, explore, names, locale)
            if targets is None:
                continue
            name = card_name(play.card, locale)
            # The card itself is the first field, its one answer already chosen: every action the
            # form takes is an option value.
            card = FormField(
                label=translate(locale, "form.cadwallon.card")[:45],
                choices=(Choice(play, name, emoji=EMOJI_CARD),),
                min_values=1,
            )
            forms.append(
                Form(
                    kind=f"play_{play.card.lower()}",
                    title=translate(locale, "form.cadwallon.title", card=name)[:45],
                    button=translate(locale, "form.cadwallon.button", card=name),
                    fields=(card, *targets),
                )
            )
        return forms

    def _two_targets(
        self, play: PlayAction, explore: Explore, names: Sequence[str], locale: str
    ) -> tuple[FormField, FormField] | None:
        """Return the two fields of ``play``'s targets, or ``None`` unless they can be chosen together."""
        asked = explore([play])
        if asked is None:
            return None
        first_view, first_legal = asked
        firsts = [a for a in first_legal if isinstance(a, TARGET_ACTIONS)]
        if not 0 < len(firsts) <= MAX_OPTIONS:
            return None  # no target, or more than one modal select holds
        seconds: list[list[Any]] = []
        second_view: BaseModel | None = None
        for target in firsts:
            then = explore([play, target])
            if then is None:
                return None
            second_view = second_view or then[0]
            answers = [a for a in then[1] if isinstance(a, TARGET_ACTIONS)]
            if not 0 < len(answers) <= MAX_OPTIONS or (seconds and answers != seconds[0]):
                return None  # one target only, too many, or the second depends on the first: step by step
            seconds.append(answers)
        if second_view is None:
            return None
        pending = _view(first_view).pending
        then_pending = _view(second_view).pending
        if pending is None or then_pending is None:
            return None
        card = card_name(play.card, locale)
        return (
            FormField(
                label=translate(locale, f"form.cadwallon.target.{pending.needs.value}")[:45],
                choices=tuple(self.private_choices(first_view, firsts, names, locale)),
                min_values=1,
                description=_t(locale, f"panel.target.{play.card}", card=card)[:100],
            ),
            FormField(
                label=translate(locale, f"form.cadwallon.target.{then_pending.needs.value}")[:45],
                choices=tuple(self.private_choices(second_view, seconds[0], names, locale)),
                min_values=1,
            ),
        )

    def private_choices(self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Choice]:
        """Label the viewer's legal actions: placements, action cards, targets, End turn, Cancel, Tarot orders.

        Only cards the viewer may know of are ever labelled: its own hand, the peeked cards, the
        grid and its own captured militia; anything else in ``legal`` is a bug and raises.
        """
        v = _view(view)
        me = v.players[v.viewer] if v.viewer is not None else None
        hand = set(me.hand or ()) if me is not None else set()
        plays = [a for a in legal if isinstance(a, PlayAction)]
        if any(a.card not in hand for a in plays):
            raise ValueError("an action card outside the viewer's hand was offered")
        agents = [a for a in legal if isinstance(a, ChooseAgent)]
        agent_group: Callable[[AgentView], str] = (
            (lambda agent: AGENT_GROUPS["E" if agent.boulevard.endswith("E") else "S"])
            if len(agents) > MAX_OPTIONS
            else (lambda _agent: AGENT_GROUP)
        )
        choices: list[Choice] = []
        labels_seen: dict[str, int] = {}
        for action in legal:
            choice = self._private_choice(
                v, action, names, locale, agent_group, many_cards=len(plays) > MAX_CARD_BUTTONS
            )
            # Two agents can share a boulevard and an owner (Crowded Street): tell them apart.
            count = labels_seen.get(choice.label, 0)
            labels_seen[choice.label] = count + 1
            if count and isinstance(action, ChooseAgent):
                choice = Choice(
                    choice.action, f"{choice.label} · #{action.agent}", choice.group, choice.style, choice.emoji
                )
            choices.append(choice)
        return choices

    def _private_choice(
        self,
        v: CadwallonView,
        action: Any,
        names: Sequence[str],
        locale: str,
        agent_group: Callable[[AgentView], str],
        *,
        many_cards: bool,
    ) -> Choice:
        if isinstance(action, PlaceAgent):
            return self._place_choice(v, action, locale)
        if isinstance(action, PlayAction):
            return Choice(
                action,
                card_name(action.card, locale),
                group=PLAY_GROUP if many_cards else None,
                style="primary",
                emoji=EMOJI_CARD,
            )
        if isinstance(action, EndTurn):
            key = "button.end_turn_pending" if v.pending is not None else "button.end_turn"
            return Choice(action, _t(locale, key), style="success", emoji=EMOJI_END)
        if isinstance(action, CancelAction):
            return Choice(action, _t(locale, "button.cancel"), style="secondary", emoji=EMOJI_CANCEL)
        if isinstance(action, ChooseSlot):
            return Choice(action, slot_label(v, action.slot, locale), group=SLOT_GROUP, emoji=EMOJI_SLOT)
        if isinstance(action, ChooseBoulevard):
            blvd = next(b for b in v.boulevards if b.boulevard == action.boulevard)
            owners = None
            if blvd.agents:
                by_id = {a.id: a for a in v.agents}
                owners = seats_text([by_id[i].owner for i in blvd.agents if i in by_id], names, locale)
            return Choice(
                action,
                boulevard_label(blvd, locale, owners),
                group=TARGET_GROUPS[blvd.orientation],
                emoji=EMOJI_PLACE,
            )
        if isinstance(action, ChooseAgent):
            agent = next((a for a in v.agents if a.id == action.agent), None)
            if agent is None:
                raise ValueError(f"agent {action.agent} is not on the board")
            return Choice(action, agent_label(agent, names, locale), group=agent_group(agent), emoji=EMOJI_AGENT)
        if isinstance(action, ChooseSeat):
            name = seat_name(action.seat, names, locale)
            if v.pending is not None and v.pending.card == "A20":
                size = v.players[action.seat].hand_size
                label = _t(locale, "button.seat_hand", name=name, n=size)
            else:
                label = _t(locale, "button.seat", name=name)
            return Choice(action, label[:80], style="primary", emoji=EMOJI_SEAT)
        if isinstance(action, ChooseCard):
            me = v.players[v.viewer] if v.viewer is not None else None
            if me is None or action.card not in me.captured:
                raise ValueError("a card outside the viewer's captured cards was offered")
            return Choice(action, card_label(action.card, locale), group=MILITIA_GROUP, emoji=EMOJI_MILITIA)
        if isinstance(action, OrderTarot):
            peeked = set(v.peek or ())
            if not set(action.top) | ({action.bottom} if action.bottom else set()) <= peeked:
                raise ValueError("a Tarot order names cards the viewer has not seen")
            return Choice(action, tarot_label(action, locale), group=TAROT_GROUP, emoji=EMOJI_TAROT)
        raise TypeError(f"unknown Cadwallon action {action!r}")

    def _place_choice(self, v: CadwallonView, action: PlaceAgent, locale: str) -> Choice:
        blvd = next(b for b in v.boulevards if b.boulevard == action.boulevard)
        return Choice(action, boulevard_label(blvd, locale), group=PLACE_GROUPS[blvd.orientation], emoji=EMOJI_PLACE)

    # ------------------------------------------------------------------ log lines
    def narrate(self, event: BaseModel, names: Sequence[str], locale: str) -> str | None:
        """Return the log line of ``event`` (``None``: no line), card ids shown by name."""
        writer = _NARRATORS.get(type(event))
        if writer is None:
            return None
        return writer(event, _Ctx(names, locale)) or None


# ---------------------------------------------------------------------- result helpers
def _tied_totals(result: Sequence[ScoreBreakdown]) -> set[int]:
    totals = [b.total for b in result if not b.resigned]
    return {t for t in totals if totals.count(t) > 1}


def _guild_text(g: GuildScore, locale: str, *, compact: bool) -> str:
    name = guild_name(g.guild, locale)
    if compact:
        return _t(locale, "result.guild_compact", guild=name, total=g.total)
    if g.loner:
        text = _t(locale, "result.guild_loner", guild=name)
    elif not g.members and g.personalities:
        text = _t(locale, "result.guild_empty", guild=name, n=g.personalities)
    elif not g.members:
        text = _t(locale, "result.guild_creditor_only", guild=name)
    elif g.personalities:
        text = _t(
            locale, "result.guild_personalities", guild=name, gp=g.gp, cards=g.cards, n=g.personalities, points=g.points
        )
    else:
        text = _t(locale, "result.guild", guild=name, gp=g.gp, cards=g.cards, points=g.points)
    if g.creditor_bonus:
        key = "result.creditor_full" if g.creditor_bonus > 1 else "result.creditor"
        text += " " + _t(locale, key, points=signed(g.creditor_bonus))
    if g.great_bonus:
        text += " " + _t(locale, "result.great_guild", points=signed(g.great_bonus))
    return text


# ---------------------------------------------------------------------- rules pages
def _pack(title: str, rows: Sequence[str], ids: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Pack ``rows`` into embed fields of at most 1024 characters; several fields name their id range."""
    fields: list[list[int]] = [[]]
    size = 0
    for index, row in enumerate(rows):
        if fields[-1] and size + 1 + len(row) > FIELD_LIMIT:
            fields.append([])
            size = 0
        fields[-1].append(index)
        size += len(row) + (1 if size else 0)
    if len(fields) == 1:
        return [(title, "\n".join(rows))]
    out = []
    for number, indices in enumerate(fields, start=1):
        suffix = f" ({ids[indices[0]]}–{ids[indices[-1]]})" if ids else f" ({number}/{len(fields)})"
        out.append((title + suffix, "\n".join(rows[i] for i in indices)))
    return out


def _member_values(guild: Guild, locale: str) -> str:
    cards = [CARDS[f"{guild.value}-{k}"] for k in range(1, 5)]
    return " · ".join(_t(locale, "table.member", gp=c.gp, s=c.support, district=c.district.value) for c in cards)


@cache
def _cards_page(locale: str) -> list[tuple[str, str]]:
    districts = _t(
        locale,
        "table.districts",
        items=" · ".join(f"{d} {_t(locale, f'district.{d}')}" for d in ("D", "M", "O", "H")),
    )
    guild_rows = [districts, _t(locale, "table.guild_head")]
    for guild in GUILD_ORDER:
        gp = sum(CARDS[f"{guild.value}-{k}"].gp for k in range(1, 5))
        guild_rows.append(
            _t(
                locale,
                "table.guild",
                guild=guild_name(guild, locale),
                code=guild.value,
                cards=_member_values(guild, locale),
                gp=gp,
            )
        )
    creditors = " · ".join(f"{guild.value} {CARDS[f'{guild.value}-C'].district.value}" for guild in GUILD_ORDER)
    other_rows = [_t(locale, "table.creditors", items=creditors), _t(locale, "table.personality_head")]
    other_rows.extend(
        _t(
            locale,
            "table.personality",
            id=f"P{i}",
            name=_t(locale, f"personality.P{i}"),
            district=CARDS[f"P{i}"].district.value,
        )
        for i in range(1, 9)
    )
    militia_rows = [
        _t(
            locale,
            "table.militia",
            id=card,
            name=_t(locale, f"militia.{card}"),
            pp=CARDS[card].pp,
            s=CARDS[card].support,
            district=CARDS[card].district.value,
        )
        for card in (f"M{i:02d}" for i in range(1, 11))
    ]
    return [
        *_pack(_t(locale, "table.guilds_title"), guild_rows),
        *_pack(_t(locale, "table.others_title"), other_rows),
        *_pack(_t(locale, "table.militia_title"), militia_rows),
    ]


@cache
def _actions_page(locale: str) -> list[tuple[str, str]]:
    rows = [
        _t(
            locale,
            "table.action",
            id=card,
            name=_t(locale, f"action.{card}"),
            district=CARDS[card].district.value,
            text=_t(locale, f"action_text.{card}"),
        )
        for card in ALL_ACTIONS
    ]
    intro = (_t(locale, "table.actions_intro_title"), _t(locale, "table.actions_intro"))
    return [intro, *_pack(_t(locale, "table.actions_title"), rows, ALL_ACTIONS)]


@cache
def _conditions_page(locale: str) -> list[tuple[str, str]]:
    conditions = [
        _t(locale, "table.condition", id=c, name=condition_name(c, locale), text=_t(locale, f"condition_text.{c}"))
        for c in CONDITIONS
    ]
    contracts = [
        _t(locale, "table.contract", id=k, name=contract_name(k, locale), text=_t(locale, f"contract_text.{k}"))
        for k in ALL_CONTRACTS
    ]
    return [
        *_pack(_t(locale, "table.conditions_title"), conditions, CONDITIONS),
        *_pack(_t(locale, "table.contracts_title"), contracts, ALL_CONTRACTS),
    ]


@cache
def _revision_page(locale: str) -> list[tuple[str, str]]:
    return [(_t(locale, f"revision.{key}.title"), _t(locale, f"revision.{key}.text")) for key in REVISION_SECTIONS]


def _readings_page(locale: str) -> list[tuple[str, str]]:
    rows = [f"• {_t(locale, f'reading.{key}')}" for key in READINGS]
    intro = (_t(locale, "table.readings_intro_title"), _t(locale, "table.readings_intro"))
    return [intro, *_pack(_t(locale, "table.readings_title"), rows)]


# ---------------------------------------------------------------------- narration
class _Ctx:
    """What every log line needs: the seat names and the locale."""

    def __init__(self, names: Sequence[str], locale: str) -> None:
        self.names = names
        self.locale = locale

    def t(self, key: str, **params: Any) -> str:
        return _t(self.locale, key, **params)

    def seat(self, seat: int) -> str:
        return seat_name(seat, self.names, self.locale)

    def slot(self, slot: str) -> str:
        return slot_text(slot, self.locale)

    def boulevard(self, code: str) -> str:
        return boulevard_text(code, self.locale)

    def card(self, card: str | None) -> str:
        return card_name(card, self.locale) if card is not None else self.t("event.hidden_card")

    def supports(self, entries: Sequence[SupportEntry]) -> str:
        return ", ".join(f"{self.seat(e.seat)} {e.support}" for e in entries)


def _game_started(e: GameStarted, c: _Ctx) -> str:
    line = c.t(
        "event.game_started",
        grid=e.grid,
        agents=e.agents_per_player,
        first=c.seat(e.first_seat),
        deck=e.deck_size,
        reserve=e.reserve_size,
    )
    if e.condition is not None:
        line += " " + c.t("event.game_started_condition", condition=condition_name(e.condition, c.locale))
    if e.contracts:
        line += " " + c.t("event.game_started_contracts")
    if e.starting_action:
        line += " " + c.t("event.game_started_starting")
    return line


def _contract_dealt(e: ContractDealt, c: _Ctx) -> str:
    return c.t("event.contract_dealt", name=contract_name(e.contract, c.locale))


def _action_card_drawn(e: ActionCardDrawn, c: _Ctx) -> str:
    source = c.t(f"source.{e.source.value}")
    if e.card is None:
        return c.t("event.action_card_drawn", seat=c.seat(e.seat), source=source)
    if e.visible_to is not None:
        return c.t("event.action_card_drawn_private", card=c.card(e.card), source=source)
    return c.t("event.action_card_drawn_open", seat=c.seat(e.seat), card=c.card(e.card), source=source)


def _reserve_empty(e: ReserveEmpty, c: _Ctx) -> str:
    return c.t("event.reserve_empty", seat=c.seat(e.seat))


def _round_started(e: RoundStarted, c: _Ctx) -> str:
    return c.t("event.round_started", round=e.round, first=c.seat(e.first_seat))


#: A Reveal of more cards than this is summed up; the board image shows them all.
REVEAL_LISTED = 4


def _cards_revealed(e: CardsRevealed, c: _Ctx) -> str:
    if len(e.cards) > REVEAL_LISTED:
        return c.t("event.cards_revealed_many", n=len(e.cards), left=e.deck_left)
    cards = ", ".join(f"{c.slot(sc.slot)} {c.card(sc.card)}" for sc in e.cards)
    return c.t("event.cards_revealed", cards=cards, n=len(e.cards), left=e.deck_left)


def _agent_placed(e: AgentPlaced, c: _Ctx) -> str:
    where = c.boulevard(e.boulevard)
    if e.card is not None:
        return c.t(
            "event.agent_placed_card", seat=c.seat(e.seat), boulevard=where, card=c.card(e.card), left=e.supply_left
        )
    return c.t("event.agent_placed", seat=c.seat(e.seat), boulevard=where, left=e.supply_left)


#: Cards whose effect no later event describes get a clause of their own after "plays X".
_PLAYED_CLAUSE = frozenset({"A10", "A12", "A16", "A21"})


def _action_played(e: ActionPlayed, c: _Ctx) -> str:
    line = c.t("event.action_played", seat=c.seat(e.seat), card=c.card(e.card))
    if e.card in _PLAYED_CLAUSE:
        line += " " + c.t(f"played.{e.card}", seat=c.seat(e.seat))
    return line


def _turn_ended(_e: TurnEnded, _c: _Ctx) -> str:
    return ""  # the next placement says whose turn it is; a line per turn end would only crowd the log


def _cards_swapped(e: CardsSwapped, c: _Ctx) -> str:
    return c.t(
        "event.cards_swapped",
        seat=c.seat(e.seat),
        first=c.card(e.cards[0]),
        first_slot=c.slot(e.slots[0]),
        second=c.card(e.cards[1]),
        second_slot=c.slot(e.slots[1]),
    )


def _deck_peeked(e: DeckPeeked, c: _Ctx) -> str:
    if e.cards is not None:
        return c.t("event.deck_peeked_private", cards=cards_text(e.cards, c.locale))
    return c.t("event.deck_peeked", seat=c.seat(e.seat), n=e.count)


def _deck_reordered(e: DeckReordered, c: _Ctx) -> str:
    if e.top is not None:
        if e.bottom is not None:
            return c.t("event.deck_reordered_private_bottom", top=cards_text(e.top, c.locale), bottom=c.card(e.bottom))
        return c.t("event.deck_reordered_private", top=cards_text(e.top, c.locale))
    key = "event.deck_reordered_bottom" if e.to_bottom else "event.deck_reordered"
    line = c.t(key, seat=c.seat(e.seat))
    if e.automatic:
        line += " " + c.t("event.automatic")
    return line


def _agent_returned(e: AgentReturned, c: _Ctx) -> str:
    return c.t("event.agent_returned", seat=c.seat(e.seat), owner=c.seat(e.owner), boulevard=c.boulevard(e.boulevard))


def _agent_moved(e: AgentMoved, c: _Ctx) -> str:
    key = "event.agent_moved_own" if e.owner == e.seat else "event.agent_moved"
    return c.t(
        key,
        seat=c.seat(e.seat),
        owner=c.seat(e.owner),
        origin=c.boulevard(e.origin),
        destination=c.boulevard(e.destination),
    )


def _agents_swapped(e: AgentsSwapped, c: _Ctx) -> str:
    return c.t(
        "event.agents_swapped",
        seat=c.seat(e.seat),
        owner=c.seat(e.owner),
        mine=c.boulevard(e.boulevards[0]),
        theirs=c.boulevard(e.boulevards[1]),
    )


def _agent_turned(e: AgentTurned, c: _Ctx) -> str:
    return c.t("event.agent_turned", seat=c.seat(e.seat), owner=c.seat(e.owner), boulevard=c.boulevard(e.boulevard))


def _card_marked(e: CardMarked, c: _Ctx) -> str:
    return c.t(f"mark.{e.card}", seat=c.seat(e.seat), slot=c.slot(e.slot), target=c.card(e.target))


def _barricade_built(e: BarricadeBuilt, c: _Ctx) -> str:
    return c.t("event.barricade_built", seat=c.seat(e.seat), boulevard=c.boulevard(e.boulevard))


def _card_demolished(e: CardDemolished, c: _Ctx) -> str:
    return c.t(
        "event.card_demolished",
        seat=c.seat(e.seat),
        slot=c.slot(e.slot),
        removed=c.card(e.removed),
        dealt=c.card(e.dealt),
    )


def _card_stolen(e: CardStolen, c: _Ctx) -> str:
    if e.card is not None:
        return c.t("event.card_stolen_card", seat=c.seat(e.seat), victim=c.seat(e.victim), card=c.card(e.card))
    return c.t("event.card_stolen", seat=c.seat(e.seat), victim=c.seat(e.victim))


def _militia_given(e: MilitiaGiven, c: _Ctx) -> str:
    return c.t("event.militia_given", seat=c.seat(e.seat), recipient=c.seat(e.recipient), card=c.card(e.card))


def _windfall_revealed(e: WindfallRevealed, c: _Ctx) -> str:
    key = "event.windfall_hand" if e.to_hand else "event.windfall_bottom"
    return c.t(key, seat=c.seat(e.seat), card=c.card(e.card))


def _deploy_ended(e: DeployEnded, c: _Ctx) -> str:
    line = c.t(f"deploy_end.{e.reason.value}", round=e.round)
    left = [(s, n) for s, n in enumerate(e.supply_left) if n]
    if left and e.reason is DeployEnd.NO_FREE_BOULEVARD:
        line += " " + c.t("event.supply_left", seats=", ".join(f"{c.seat(s)} {n}" for s, n in left))
    return line


def _card_captured(e: CardCaptured, c: _Ctx) -> str:
    if e.card is None:  # a won action card joins a hidden hand (RULING §11)
        line = c.t("event.card_captured_hidden", slot=c.slot(e.slot), seat=c.seat(e.seat), support=e.support)
    else:
        line = c.t(
            "event.card_captured", slot=c.slot(e.slot), seat=c.seat(e.seat), card=c.card(e.card), support=e.support
        )
    if len(e.supports) > 1:
        line += " " + c.t("event.supports", supports=c.supports(e.supports))
    if e.tied and e.outcome in (CaptureOutcome.ARBITRATION, CaptureOutcome.PRECEDENCE):
        line += " " + c.t(f"outcome.{e.outcome.value}", seats=seats_text(e.tied, c.names, c.locale))
    return line


def _card_stayed(e: CardStayed, c: _Ctx) -> str:
    params: dict[str, Any] = {"slot": c.slot(e.slot), "card": c.card(e.card)}
    if e.tied:
        params.update(seats=seats_text(e.tied, c.names, c.locale), support=e.supports[0].support if e.supports else 0)
    line = c.t(f"stayed.{e.outcome.value}", **params)
    if e.supports and not e.tied:
        line += " " + c.t("event.supports", supports=c.supports(e.supports))
    return line


def _round_ended(e: RoundEnded, c: _Ctx) -> str:
    key = "event.round_ended_favour" if e.by_favour else "event.round_ended"
    line = c.t(key, round=e.round, n=e.captured, first=c.seat(e.next_first_seat))
    if e.stalled_rounds:
        line += " " + c.t("event.stalled", n=e.stalled_rounds)
    return line


def _player_resigned(e: PlayerResigned, c: _Ctx) -> str:
    return c.t("event.player_resigned", seat=c.seat(e.seat))


def _game_ended(e: GameEnded, c: _Ctx) -> str:
    return c.t(f"event.game_ended_{e.reason.value}", deck=e.deck_size, empty=e.empty_slots)


def _game_scored(e: GameScored, c: _Ctx) -> str:
    best = min(e.ranks, default=0)
    winners = [s for s, rank in enumerate(e.ranks) if rank == best]
    scores = ", ".join(
        f"{c.seat(s)} {e.scores[s]}" for s in sorted(range(len(e.scores)), key=lambda s: (e.ranks[s], s))
    )
    key = "event.game_scored_shared" if len(winners) > 1 else "event.game_scored"
    return c.t(key, winners=seats_text(winners, c.names, c.locale), scores=scores)


_NARRATORS: dict[type[BaseModel], Callable[[Any, _Ctx], str]] = {
    GameStarted: _game_started,
    ContractDealt: _contract_dealt,
    ActionCardDrawn: _action_card_drawn,
    ReserveEmpty: _reserve_empty,
    RoundStarted: _round_started,
    CardsRevealed: _cards_revealed,
    AgentPlaced: _agent_placed,
    ActionPlayed: _action_played,
    TurnEnded: _turn_ended,
    CardsSwapped: _cards_swapped,
    DeckPeeked: _deck_peeked,
    DeckReordered: _deck_reordered,
    AgentReturned: _agent_returned,
    AgentMoved: _agent_moved,
    AgentsSwapped: _agents_swapped,
    AgentTurned: _agent_turned,
    CardMarked: _card_marked,
    BarricadeBuilt: _barricade_built,
    CardDemolished: _card_demolished,
    CardStolen: _card_stolen,
    MilitiaGiven: _militia_given,
    WindfallRevealed: _windfall_revealed,
    DeployEnded: _deploy_ended,
    CardCaptured: _card_captured,
    CardStayed: _card_stayed,
    RoundEnded: _round_ended,
    PlayerResigned: _player_resigned,
    GameEnded: _game_ended,
    GameScored: _game_scored,
}

__all__ = [
    "ALL_GROUPS",
    "READINGS",
    "RULE_PAGES",
    "RULE_SECTIONS",
    "CadwallonPresenter",
    "boulevard_label",
    "boulevard_text",
    "card_label",
    "card_name",
    "parse_boulevard",
    "slot_label",
]
