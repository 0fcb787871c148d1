"""«Интриги» rules engine for 2–8 players.

Rules source: ``../shared/rules/intrigue.md`` (binding; its RULING lines settle the 2016 rulebook's
gaps) over the seed rulebook ``rules/seeds/001_80fb6a4f03b1fc27.txt``. House data: ``data.py``.

How the engine is built: the state holds a stack of frames (``state.py``), one per procedure in
progress (a phase, a window, a vote, a reveal, an interrupt). :func:`drive` runs the innermost frame
until a seat must decide; ``apply`` routes an action to that frame. Rules live in ``phases.py``
(turn, phases, slots, character actions), ``mercenaries.py`` (reveals, guards, kills, prompts),
``votes.py`` (votes, elections, vacancies, the Representative) and ``victory.py``.

Readings where the spec leaves the engine a choice:

* F4 (``GiveCoins``) is not in ``legal_actions``: it is accepted from *any* seat at any moment but
  Spies & Thieves, and the platform's conformance contract requires that a seat the game does not
  wait for has no legal actions. ``free_actions`` offers it; ``apply`` accepts any valid amount and
  leaves the current prompt untouched.
* A forced delivery (a spy's gift, a guarded thief's messenger) of a bribe adds no extra tokens
  (k = 0): the catalogue has no prompt for k outside F1 and Речная Подкова.
* Tallied ballots: a ballot submitted with ``Done`` before every entry is filled leaves the rest at
  their defaults (Abstain / no preference); a ballot is submitted automatically once complete.
* Sway rounds: at most one advice per head per player per round; stakes of one player on one
  land add up within a round. Advice conflicts are settled as §11.3 says; losing advice costs nothing.
* Investments: the basket is held (``Back`` undoes) and paid on ``Done``; ``Skip`` submits an
  empty basket (the clock's default). The buyer sees in-stock types only during its own turn.
* Garrison reveals resolve one card at a time; the revealer may stop early with ``Done``.
* The Туманная Долина garrison reveal needs a sole land holder; a contested ТД is not searched.
* A slot with no act or contest option but free-action eligibility (public facts) offers F1–F3
  and ``Done``; it does not count as a main action.
* Resigned seats stay in play on their defaults (never awaited again) and rank below every seat
  still playing; if one seat is left it wins (``last_player``). Timeouts and "away" seats are the
  table service's (it applies ``default_action``); ``timeouts_before_away`` tells it the spec's 3.
* Cards get a fresh id (the next of a seeded shuffle of ids) whenever they enter a hand and again
  when they go face down: an id says nothing of the card's type or history (issue 11).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from games.core.conformance import rename_strings
from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Outcome, Seat, Step
from games.core.rng import GameRng
from games.intrigue import mercenaries, phases, votes  # noqa: F401 - registers the frame rules
from games.intrigue.data import (
    AWAY_AFTER_TIMEOUTS,
    CHARACTERS,
    COLOURS,
    COPIES_PER_TYPE,
    COUNCIL_SEATS,
    DEFAULT_MAX_TURNS,
    KILLS_TO_END,
    LANDS,
    MAX_MAX_TURNS,
    MESSENGERS_PER_PLAYER,
    MIN_MAX_TURNS,
    STANDARD_NINE,
    STANDARD_SEVEN,
    STARTING_COINS,
    STARTING_TOKENS,
    SUGGESTED_CLOCKS,
    councillor_removal_votes,
    lands_for,
    majority_needed,
)
from games.intrigue.game import CARD_ID, MARSHAL, PRIVY, RULES, Game
from games.intrigue.mercenaries import free_move_valid
from games.intrigue.models import (
    ACTION_ADAPTER,
    ACTION_TYPES,
    CharactersDealt,
    CharacterView,
    CoinsGiven,
    Convert,
    CouncilView,
    FaceDownView,
    GameStarted,
    GiveCoins,
    HandCardView,
    IntrigueOptions,
    IntrigueView,
    LandView,
    MercType,
    Mode,
    Phase,
    PlayerResigned,
    PlayerView,
    RevealAssassin,
    RevealMessenger,
    Victory,
)
from games.intrigue.phases import InvestRules, placement_prompts
from games.intrigue.state import SUPPLY_ORDER, FaceDown, IntrigueState, InvestFrame, PlacementFrame
from games.intrigue.victory import check as check_victory
from games.intrigue.victory import finish, lands_by_seat, score

#: Every error code the engine raises (the i18n catalogue must translate each one).
ERROR_CODES: tuple[str, ...] = (
    "core.not_your_turn",
    "core.game_over",
    "intrigue.invalid_options",
    "intrigue.invalid_seat_count",
    "intrigue.invalid_lands",
    "intrigue.invalid_characters",
    "intrigue.invalid_max_turns",
    "intrigue.invalid_seat",
    "intrigue.unknown_action",
    "intrigue.already_resigned",
    "intrigue.illegal_choice",
    "intrigue.no_free_actions_in_spies",
    "intrigue.not_a_free_action_moment",
    "intrigue.not_your_card",
    "intrigue.card_not_ready",
    "intrigue.wrong_card_type",
    "intrigue.not_enough_coins",
    "intrigue.invalid_gift",
    "intrigue.no_such_card",
)

_FREE_TYPES = (RevealMessenger, RevealAssassin, Convert)
_INTERRUPT_KINDS = frozenset(kind for kind, rules in RULES.items() if rules.interrupt)


def drive(g: Game) -> None:
    """Run the innermost frame until a (non-resigned) seat must decide or the game ends."""
    for _ in range(1_000_000):
        if g.over:
            return
        if not g.stack:
            phases.start_turn(g)
            continue
        frame = g.stack[-1]
        rules = RULES[frame.kind]
        # §3.7: every pass through here follows a resolved step (an action applied, a frame advanced),
        # so the game ends the moment a coup or a will holds — unless an interrupt is still resolving.
        # Windows and votes are not interrupts, so this covers the free actions of every window, W3 of
        # a vote or an election included, and each sway round.
        if not g.ending and g.turn >= 1 and not any(f.kind in _INTERRUPT_KINDS for f in g.stack) and check_victory(g):
            return
        if not rules.run(g, frame):
            continue
        active = rules.active(g, frame)
        auto = [s for s in active if s in g.resigned]
        if auto:
            rules.act(g, frame, auto[0], rules.default(g, frame, auto[0]))
            continue
        if not active:
            raise AssertionError(f"frame {frame.kind} waits for nobody")
        return
    raise AssertionError("the driver did not settle")


#: A state's fields a public view depends on, but for the procedures in progress (and the version).
#: The ones that change most often come first, so two different boards differ early.
_BOARD_FIELDS = ("turn", "phase", "coins", "land_tokens", "char_tokens", "cards", "hands")
_BOARD_KEY = attrgetter(
    *_BOARD_FIELDS,
    *(name for name in IntrigueState.model_fields if name not in {*_BOARD_FIELDS, "version", "stack"}),
)
#: Read-only copies and legal lists kept by an engine, of the last states queried.
_KEPT = 4
#: Boards kept by an engine (every table of a game shares its engine).
_BOARDS_KEPT = 8


class _Board:
    """The public view of a state and the private parts of each seat's view, valid for equal boards."""

    __slots__ = ("key", "public", "seats", "source")

    def __init__(self, key: tuple[Any, ...], public: IntrigueView, source: IntrigueState) -> None:
        self.key = key
        self.public = public
        self.source = source
        #: A seat's face-down cards (its own shown) and players (its hand filled in).
        self.seats: dict[Seat, tuple[tuple[FaceDownView, ...], tuple[PlayerView, ...]]] = {}


class IntrigueEngine:
    """The rules of «Интриги» as pure functions of :class:`IntrigueState`."""

    name: ClassVar[str] = "intrigue"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    #: §2: the players arrange the seat order in the lobby ("in an order they choose").
    shuffle_seats: ClassVar[bool] = False
    #: §3.4: a seat is away after 3 timeouts in a row (the table service reads this).
    timeouts_before_away: ClassVar[int] = AWAY_AFTER_TIMEOUTS
    state_type: type[IntrigueState] = IntrigueState
    options_type: type[BaseModel] = IntrigueOptions
    action_adapter: TypeAdapter[Any] = ACTION_ADAPTER

    def __init__(self) -> None:
        # Read-only copies of the last states queried, most recent first: a panel explores several
        # picks from one state, so that state's copy must outlive the copies of the states after it.
        self._cached: tuple[tuple[IntrigueState, Game], ...] = ()
        self._public: tuple[IntrigueState, IntrigueView] | None = None
        # The boards of the last states viewed, most recent first (see ``_board``).
        self._boards: tuple[_Board, ...] = ()
        # The last legal list built: a bot or AI lists the actions of a state and then applies one
        # of them, so ``apply`` checks against it instead of building every legal action again.
        self._legal: tuple[tuple[IntrigueState, Seat, list[Any]], ...] = ()

    # ------------------------------------------------------------------ setup
    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[IntrigueState]:
        """Lay out a new game and open the setup placement (§2).

        Args:
            num_seats: Players, 2 to 8.
            options: An :class:`IntrigueOptions` (or a model that validates as one).
            seed: The table seed; every random draw derives from it.

        Returns:
            The initial state (waiting for the first placement) and the setup events.

        Raises:
            GameError: The seat count or the options are invalid.
        """
        opts = _coerce_options(options)
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError("intrigue.invalid_seat_count", min=self.min_seats, max=self.max_seats, have=num_seats)
        if opts.max_turns is not None and not MIN_MAX_TURNS <= opts.max_turns <= MAX_MAX_TURNS:
            raise GameError("intrigue.invalid_max_turns", min=MIN_MAX_TURNS, max=MAX_MAX_TURNS)
        lands = _choose_lands(num_seats, opts, seed)
        max_turns = opts.max_turns if opts.max_turns is not None else DEFAULT_MAX_TURNS[len(lands)]
        deal = _deal(opts, seed)
        count = len(lands)
        heads = tuple(deal[:count])
        council = tuple(deal[count : count + 4])
        n = num_seats
        state = IntrigueState(
            seed=seed,
            num_seats=n,
            lands=lands,
            max_turns=max_turns,
            coins=(STARTING_COINS,) * n,
            peaceful=tuple(LANDS[land].peaceful for land in lands),
            military=tuple(LANDS[land].military for land in lands),
            land_tokens=tuple((0,) * n for _ in lands),
            char_tokens=tuple((0,) * n for _ in CHARACTERS),
            heads=heads,
            council=council,
            hands=tuple(() for _ in range(n)),
            supply=(COPIES_PER_TYPE,) * 4 + (MESSENGERS_PER_PLAYER * n,),
            leaders=(None,) * len(CHARACTERS),
            hired=(0,) * n,
            stack=(PlacementFrame(prompts=placement_prompts(n)),),
        )
        events = (
            GameStarted(lands=lands, max_turns=max_turns, coins=STARTING_COINS, tokens=STARTING_TOKENS),
            CharactersDealt(lands=lands, heads=heads, council=council, pool=tuple(sorted(deal[count + 4 :]))),
        )
        return Step(state, events)

    # ------------------------------------------------------------------ queries
    def _read(self, state: IntrigueState) -> Game:
        cached = self._cached
        for known, game in cached:
            if known is state:
                return game
        game = Game(state, copy=False)
        self._cached = ((state, game), *cached[: _KEPT - 1])
        return game

    def active_seats(self, state: IntrigueState) -> frozenset[Seat]:
        """Return the seats the game waits for; empty once the game is over."""
        if state.phase is Phase.OVER or not state.stack:
            return frozenset()
        g = self._read(state)
        frame = g.stack[-1]
        return frozenset(RULES[frame.kind].active(g, frame))

    def reaction_seats(self, state: IntrigueState) -> frozenset[Seat]:
        """Return the awaited seats that are only asked whether to react: those of a window W1–W4 (§3.3).

        A window asks each eligible seat whether to take free actions before play goes on; its
        default is Done, and the table gives it its short reaction clock (unless it keeps §3.6's clocks).
        """
        if state.phase is Phase.OVER or not state.stack:
            return frozenset()
        g = self._read(state)
        frame = g.stack[-1]
        if frame.kind != "window":
            return frozenset()
        return frozenset(RULES[frame.kind].active(g, frame))

    def pass_scope(self, state: IntrigueState) -> int | None:
        """Return the span of a standing pass: the game turn, so "Done" may answer the rest of its windows.

        Windows W1–W4 come once a turn each and ask every eligible seat again after any free action in
        them; a player who will not react this turn may say so once. A new turn asks again.
        """
        if state.phase is Phase.OVER or state.turn < 1:
            return None
        return state.turn

    def legal_actions(self, state: IntrigueState, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now (empty when it is not asked to act).

        ``GiveCoins`` (F4) is never listed here: see :meth:`free_actions`.
        """
        if seat not in self.active_seats(state):
            return []
        return list(self._legal_of(state, seat))

    def _legal_of(self, state: IntrigueState, seat: Seat) -> list[Any]:
        """Return the legal list of an awaited ``seat`` (shared with the cache: never modify it)."""
        cached = self._legal
        for known, asked, listed in cached:
            if known is state and asked == seat:
                return listed
        g = self._read(state)
        frame = g.stack[-1]
        legal = RULES[frame.kind].legal(g, frame, seat)
        self._legal = ((state, seat, legal), *cached[: _KEPT - 1])
        return legal

    def free_actions(self, state: IntrigueState, seat: Seat) -> list[Any]:
        """Return representative F4 gifts ``seat`` may make now, whether or not it is awaited.

        ``apply`` accepts any amount from 1 to the giver's coins; these are 1, 2, 5 and all.
        """
        if state.phase in (Phase.OVER, Phase.SPIES) or not 0 <= seat < state.num_seats or seat in state.resigned:
            return []
        coins = state.coins[seat]
        amounts = sorted({a for a in (1, 2, 5, coins) if 1 <= a <= coins})
        return [GiveCoins(to=to, amount=a) for to in range(state.num_seats) if to != seat for a in amounts]

    # ------------------------------------------------------------------ apply
    def apply(self, state: IntrigueState, seat: Seat, action: object) -> Step[IntrigueState]:
        """Apply ``action`` by ``seat``.

        Args:
            state: The current state (never modified).
            seat: The acting seat.
            action: One of the «Интриги» action models (or its JSON-like dict).

        Returns:
            The next state (version + 1) and the events of the step, in order.

        Raises:
            GameOverError: The game has finished.
            NotYourTurnError: The game is not waiting for ``seat``.
            IllegalActionError: The action breaks a rule; ``code`` says which (see ``ERROR_CODES``).
        """
        if state.phase is Phase.OVER:
            raise GameOverError
        act = _coerce_action(action)
        if not 0 <= seat < state.num_seats:
            raise NotYourTurnError(seat=seat)
        if isinstance(act, GiveCoins):
            return self._give(state, seat, act)
        read = self._read(state)
        frame = read.stack[-1]
        rules = RULES[frame.kind]
        if seat not in rules.active(read, frame):
            if isinstance(act, _FREE_TYPES):
                raise _free_error(read, seat, act, moment=False)
            raise NotYourTurnError(seat=seat)
        legal = self._legal_of(state, seat)
        # A bot or an AI applies an action taken from the legal list itself: find it by identity
        # first, since comparing it with every model before it (pydantic ``__eq__``) is slow.
        if not any(a is act for a in legal) and act not in legal and not self._accepts(read, frame, seat, act):
            if isinstance(act, _FREE_TYPES):
                raise _free_error(read, seat, act, moment=True)
            raise IllegalActionError("intrigue.illegal_choice", action=str(act.kind))
        g = Game(state)
        top = g.stack[-1]
        RULES[top.kind].act(g, top, seat, act)
        drive(g)
        after, events = g.commit(), tuple(g.events)
        # The working copy is the read-only copy of the state it made (never changed from here on):
        # whoever applies an action lists the next state's legal actions next.
        g.settle(after)
        self._cached = ((after, g), *self._cached[: _KEPT - 1])
        return Step(after, events)

    def _accepts(self, g: Game, frame: Any, seat: Seat, action: Any) -> bool:
        """Return whether an unlisted action is valid: a large bribe, a large lending price."""
        if isinstance(action, RevealMessenger) and frame.kind in ("window", "slot", "invest"):
            return free_move_valid(g, seat, action)
        if frame.kind == "act":
            return bool(RULES["act"].accepts(g, frame, seat, action))  # type: ignore[attr-defined]
        return False

    def _give(self, state: IntrigueState, seat: Seat, action: GiveCoins) -> Step[IntrigueState]:
        if state.phase is Phase.SPIES:
            raise IllegalActionError("intrigue.no_free_actions_in_spies")
        if seat in state.resigned:
            raise NotYourTurnError(seat=seat)
        if action.to == seat or not 0 <= action.to < state.num_seats:
            raise IllegalActionError("intrigue.invalid_gift", to=action.to)
        if not 1 <= action.amount <= state.coins[seat]:
            raise IllegalActionError("intrigue.not_enough_coins", amount=action.amount, coins=state.coins[seat])
        coins = list(state.coins)
        coins[seat] -= action.amount
        coins[action.to] += action.amount
        event = CoinsGiven(seat=seat, to=action.to, amount=action.amount)
        new = state.model_copy(update={"version": state.version + 1, "coins": tuple(coins)})
        return Step(new, (event,))

    # ------------------------------------------------------------------ resign, defaults, outcome
    def resign(self, state: IntrigueState, seat: Seat) -> Step[IntrigueState]:
        """Resign ``seat``: it stays in play on its defaults and ranks below the seats still playing.

        Raises:
            GameOverError: The game has finished.
            GameError: ``intrigue.invalid_seat`` or ``intrigue.already_resigned``.
        """
        if state.phase is Phase.OVER:
            raise GameOverError
        if not 0 <= seat < state.num_seats:
            raise GameError("intrigue.invalid_seat", seat=seat)
        if seat in state.resigned:
            raise IllegalActionError("intrigue.already_resigned", seat=seat)
        g = Game(state)
        g.resigned.append(seat)
        g.emit(PlayerResigned(seat=seat))
        playing = [s for s in range(g.n) if s not in g.resigned]
        if len(playing) <= 1:
            finish(g, Victory.LAST_PLAYER, playing[0] if playing else None)
        else:
            drive(g)
        return Step(g.commit(), tuple(g.events))

    def default_action(self, state: IntrigueState, seat: Seat) -> Any:
        """Return the action taken for ``seat`` when its clock runs out (the defaults of §3.6).

        Raises:
            GameOverError: The game has finished.
            NotYourTurnError: The game is not waiting for ``seat``.
        """
        if state.phase is Phase.OVER:
            raise GameOverError
        if seat not in self.active_seats(state):
            raise NotYourTurnError(seat=seat)
        g = self._read(state)
        frame = g.stack[-1]
        return RULES[frame.kind].default(g, frame, seat)

    def decision_seconds(self, state: IntrigueState) -> int | None:
        """Return the suggested clock of the decision the game waits for (§3.6), ``None`` when none.

        A table that keeps the rules' clocks arms this instead of one length for every decision.
        """
        if state.phase is Phase.OVER or not state.stack:
            return None
        g = self._read(state)
        frame = g.stack[-1]
        return SUGGESTED_CLOCKS[RULES[frame.kind].pending(g, frame).decision.value]

    def outcome(self, state: IntrigueState) -> Outcome | None:
        """Return the ranks and first score keys once the game is over."""
        if state.result is None:
            return None
        scores = tuple(float(s[0]) for s in state.result.scores)
        return Outcome(ranks=state.result.ranks, scores=scores)

    # ------------------------------------------------------------------ views
    def view(self, state: IntrigueState, seat: Seat | None) -> IntrigueView:
        """Return what ``seat`` may see (``None``: the public view).

        A seat's view is the public view with the seat's own parts filled in (its hand, what its
        face-down cards are, its draft, submission and the in-stock types while it invests); the
        public part of the last state asked for is kept, since a click asks for both.

        Raises:
            GameError: ``intrigue.invalid_seat`` for a seat not at the table.
        """
        if seat is not None and not 0 <= seat < state.num_seats:
            raise GameError("intrigue.invalid_seat", seat=seat)
        cached = self._public
        if cached is not None and cached[0] is state:
            public = cached[1]
        else:
            public = self._public_view(state)
            self._public = (state, public)
        if seat is None:
            return public
        g = self._read(state)
        board = self._board(state)
        own = board.seats.get(seat) if board.public.players is public.players else None
        if own is None:
            cards = tuple(
                _face_down_view(c, shown=True) if c.owner == seat else public.cards[i] for i, c in enumerate(g.cards)
            )
            hand = tuple(HandCardView(id=h.id, merc=h.merc, expires_turn=h.expires_turn) for h in g.hands[seat])
            players = tuple(p.model_copy(update={"hand": hand}) if p.seat == seat else p for p in public.players)
            own = (cards, players)
            if board.public.players is public.players:
                board.seats[seat] = own
        cards, players = own
        draft = submission = in_stock = None
        if g.stack:
            frame = g.stack[-1]
            rules = RULES[frame.kind]
            if seat in public.awaiting:
                draft = rules.draft(g, frame, seat)
            submission = rules.submission(g, frame, seat)
            if isinstance(frame, InvestFrame) and seat in public.awaiting:
                in_stock = tuple(InvestRules()._in_stock(g, frame))
        return public.model_copy(
            update={
                "viewer": seat,
                "cards": cards,
                "players": players,
                "draft": draft,
                "submission": submission,
                "in_stock": in_stock,
            }
        )

    def _board(self, state: IntrigueState) -> _Board:
        """Return the board of ``state``: a public view of a state with the same board, and its seats' parts.

        Only the procedures in progress (``stack``) and the version are left out of the comparison;
        the sub-steps of one decision (a draft, a ballot being filled) change nothing else, and a
        panel lists the views after each of them (its chained options).
        """
        key = _BOARD_KEY(state)
        boards = self._boards
        for board in boards:
            if board.key == key:
                if board is not boards[0]:
                    self._boards = (board, *(b for b in boards if b is not board))
                return board
        board = _Board(key, self._full_public_view(state), state)
        self._boards = (board, *boards[: _BOARDS_KEPT - 1])
        return board

    def _public_view(self, state: IntrigueState) -> IntrigueView:
        """Return the public view of ``state`` (every seat's private parts left out).

        The board part comes from :meth:`_board`; only what the procedures in progress decide
        (the step, the awaited seats, the pending decision, the vote, the slot's seat) is read anew.
        """
        board = self._board(state)
        if board.source is state:
            return board.public
        return board.public.model_copy(update=self._stack_part(state))

    def _stack_part(self, state: IntrigueState) -> dict[str, Any]:
        """Return the fields of the public view that the procedures in progress decide."""
        g = self._read(state)
        pending = vote = None
        step = ""
        active: list[Seat] = []
        slot_seat = None
        if g.stack:
            frame = g.stack[-1]
            rules = RULES[frame.kind]
            active = rules.active(g, frame)
            pending = rules.pending(g, frame)
            step = pending.step
            for f in reversed(g.stack):
                if f.kind == "vote" and vote is None:
                    vote = votes.vote_view(g, f)
                if f.kind == "slot" and slot_seat is None:
                    slot_seat = f.seat
        return {
            "version": state.version,
            "step": step,
            "awaiting": tuple(sorted(active)),
            "pending": pending,
            "vote": vote,
            "slot_seat": slot_seat,
        }

    def _full_public_view(self, state: IntrigueState) -> IntrigueView:
        """Return the public view of ``state``, built whole."""
        g = self._read(state)
        n = g.n
        lands = []
        for p, land in enumerate(g.lands):
            holder, contested = g.holder(land)
            lands.append(
                LandView(
                    id=land,
                    cells=LANDS[land].cells,
                    peaceful=g.peaceful[p],
                    military=g.military[p],
                    head=g.heads[p],
                    tokens=tuple(g.land_tokens[p]),
                    holder=holder,
                    contested=tuple(contested),
                    majority=g.majority(land),
                    combined=g.combined(land),
                    grown=land in g.grown,
                )
            )
        characters = []
        for c in CHARACTERS:
            index = g.seat_of(c)
            characters.append(
                CharacterView(
                    id=c,
                    status=g.status(c),
                    land=g.land_of(c),
                    council=COUNCIL_SEATS[index] if index is not None else None,
                    representative=c == g.representative,
                    tokens=tuple(g.tokens(c)),
                    controller=g.controller(c),
                    tied_top=tuple(g.tied_top(c)),
                    acted=c in g.acted,
                    dismissed=c in g.dismissed,
                    leader=g.leaders[c - 1],
                    disposition=CHARACTERS[c].disposition,
                )
            )
        cards = tuple(_face_down_view(c, shown=False) for c in g.cards)
        m = majority_needed(len(g.lands))
        coup, will = lands_by_seat(g)
        players = []
        for s in range(n):
            players.append(
                PlayerView(
                    seat=s,
                    colour=COLOURS[s][0],
                    coins=g.coins[s],
                    hand_size=len(g.hands[s]),
                    hired_this_turn=g.hired[s],
                    land_tokens=g.total_land_tokens(s),
                    character_tokens=g.office_tokens(s),
                    council_tokens=g.council_tokens(s),
                    markers=g.markers(s),
                    score=score(g, s),
                    coup_lands=coup[s],
                    will_lands=will[s],
                    controls_marshal=g.controller(g.council[MARSHAL]) == s,
                    controls_privy=g.controller(g.council[PRIVY]) == s,
                    council_seats=g.controls(s, g.councillors()),
                    passed=s in g.passed,
                    resigned=s in g.resigned,
                    hand=None,
                )
            )
        stack = self._stack_part(state)
        council = CouncilView(
            marshal=g.council[0],
            bishop=g.council[1],
            treasurer=g.council[2],
            privy=g.council[3],
            representative=g.representative,
        )
        return IntrigueView(
            viewer=None,
            num_seats=n,
            turn=g.turn,
            max_turns=g.max_turns,
            phase=g.phase,
            lands=tuple(lands),
            characters=tuple(characters),
            council=council,
            cards=cards,
            players=tuple(players),
            kills=g.kills,
            kills_to_end=KILLS_TO_END,
            majority_needed=m,
            removal_votes_needed=councillor_removal_votes(len(g.lands)),
            rsp=tuple(g.rsp()) if g.turn else (),
            order=tuple(g.order),
            golden_coast_used="golden_coast" in g.used,
            brown_plains_used="brown_plains" in g.used,
            sapphire_used="sapphire" in g.used,
            vale_tax=g.vale_tax,
            reveals=tuple(g.reveals),
            in_stock=None,
            draft=None,
            submission=None,
            result=state.result,
            **stack,
        )

    # ------------------------------------------------------------------ conformance hook
    def resample_hidden(self, state: IntrigueState, seat: Seat | None, rng: GameRng) -> IntrigueState:
        """Return a state ``seat`` cannot tell from ``state``: hidden card types and modes redrawn.

        Hidden from ``seat``: other seats' hand types, the type and mode of other seats' face-down
        cards, and the supply's composition. These are pooled and dealt back at random into the same
        slots (a messenger's mode drawn afresh). Cards named by any procedure in progress (a sealed
        guard answer, a draft) keep their type, and the supply stays put while ``seat`` is the
        investor (its panel shows the in-stock types).
        """
        pinned = set(CARD_ID.findall("".join(f.model_dump_json() for f in state.stack)))
        others = [s for s in range(state.num_seats) if s != seat]
        pool: list[MercType] = []
        hand_slots: list[tuple[int, int]] = []
        for s in others:
            for i, card in enumerate(state.hands[s]):
                if card.id not in pinned:
                    hand_slots.append((s, i))
                    pool.append(card.merc)
        card_slots = [i for i, c in enumerate(state.cards) if c.owner != seat and c.id not in pinned]
        pool.extend(state.cards[i].merc for i in card_slots)
        top = state.stack[-1] if state.stack else None
        keep_supply = isinstance(top, InvestFrame) and seat is not None and top.order[top.index] == seat
        if not keep_supply:
            for merc, count in zip(SUPPLY_ORDER, state.supply, strict=True):
                pool.extend([merc] * count)
        pool = rng.shuffled(pool)
        hands = [list(h) for h in state.hands]
        taken = iter(pool)
        for s, i in hand_slots:
            hands[s][i] = hands[s][i].model_copy(update={"merc": next(taken)})
        cards = list(state.cards)
        for i in card_slots:
            merc = next(taken)
            mode = (Mode.GIFT if rng.below(2) else Mode.BRIBE) if merc is MercType.MESSENGER else None
            cards[i] = cards[i].model_copy(update={"merc": merc, "mode": mode})
        supply = state.supply
        if not keep_supply:
            rest = list(taken)
            supply = tuple(rest.count(merc) for merc in SUPPLY_ORDER)
        return state.model_copy(
            update={"hands": tuple(tuple(h) for h in hands), "cards": tuple(cards), "supply": supply}
        )

    def relabel_hidden(self, state: IntrigueState, rng: GameRng) -> tuple[IntrigueState, dict[str, str]]:
        """Return ``state`` with the ids of the cards in hand shuffled among them, and the renaming.

        Only a card's holder sees its hand id (every other id, on the board or in a reveal, is
        public), so no spectator can tell the two states apart; the ids are renamed wherever the
        state names them (hands, drafts and procedures in progress).
        """
        held = [card.id for hand in state.hands for card in hand]
        renaming = {old: new for old, new in zip(held, rng.shuffled(held), strict=True) if old != new}
        if not renaming:
            return state, {}
        relabelled = IntrigueState.model_validate(rename_strings(state.model_dump(mode="json"), renaming))
        return relabelled, renaming


# ----------------------------------------------------------------------------- helpers
def _coerce_options(options: BaseModel) -> IntrigueOptions:
    if isinstance(options, IntrigueOptions):
        return options
    try:
        return IntrigueOptions.model_validate(options.model_dump())
    except ValidationError:
        raise GameError("intrigue.invalid_options") from None


def _face_down_view(card: FaceDown, *, shown: bool) -> FaceDownView:
    """Return a face-down card as a view; its type and mode only when ``shown`` (to its owner)."""
    return FaceDownView(
        id=card.id,
        owner=card.owner,
        character=card.character,
        turn_placed=card.turn_placed,
        merc=card.merc if shown else None,
        mode=card.mode if shown else None,
    )


def _coerce_action(action: object) -> Any:
    if isinstance(action, ACTION_TYPES):
        return action
    try:
        return ACTION_ADAPTER.validate_python(action)
    except ValidationError as error:
        raise IllegalActionError("intrigue.unknown_action") from error


def _choose_lands(n: int, opts: IntrigueOptions, seed: str) -> tuple[int, ...]:
    if opts.land_ids is not None:
        ids = opts.land_ids
        if len(set(ids)) != len(ids) or len(ids) not in (7, 9) or not all(i in LANDS for i in ids):
            raise GameError("intrigue.invalid_lands")
        return tuple(sorted(ids))
    count = lands_for(n)
    if opts.lands == "standard":
        return STANDARD_SEVEN if count == 7 else STANDARD_NINE
    m = majority_needed(count)
    rng = GameRng.for_step(seed, 0, "lands")
    for _ in range(1000):
        ids = tuple(sorted(rng.shuffled(list(LANDS))[:count]))
        military = sum(1 for i in ids if LANDS[i].military >= LANDS[i].peaceful)
        peaceful = sum(1 for i in ids if LANDS[i].military <= LANDS[i].peaceful)
        if military >= m and peaceful >= m:
            return ids
    return STANDARD_SEVEN if count == 7 else STANDARD_NINE


def _deal(opts: IntrigueOptions, seed: str) -> list[int]:
    if opts.characters is None:
        return GameRng.for_step(seed, 0, "characters").shuffled(list(CHARACTERS))
    named = list(opts.characters)
    if len(set(named)) != len(named) or not all(c in CHARACTERS for c in named):
        raise GameError("intrigue.invalid_characters")
    return named + [c for c in CHARACTERS if c not in named]


def _free_error(g: Game, seat: Seat, action: Any, *, moment: bool) -> GameError:
    """Explain why an F1–F3 action is refused (stable codes for the catalogue)."""
    if g.phase is Phase.SPIES:
        return IllegalActionError("intrigue.no_free_actions_in_spies")
    if isinstance(action, RevealMessenger | RevealAssassin):
        card = g.find_card(action.card)
        if card is None or card.owner != seat:
            return IllegalActionError("intrigue.not_your_card", card=action.card)
        wanted = MercType.MESSENGER if isinstance(action, RevealMessenger) else MercType.ASSASSIN
        if card.merc is not wanted:
            return IllegalActionError("intrigue.wrong_card_type", card=action.card)
        if card.turn_placed >= g.turn:
            return IllegalActionError("intrigue.card_not_ready", card=action.card)
        if moment and isinstance(action, RevealMessenger) and card.mode is Mode.BRIBE:
            return IllegalActionError("intrigue.not_enough_coins", coins=g.coins[seat])
    if not moment:
        return NotYourTurnError("intrigue.not_a_free_action_moment", seat=seat)
    return IllegalActionError("intrigue.illegal_choice", action=str(action.kind))
