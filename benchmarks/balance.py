"""Game balance measured from all-AI playouts: ``python -m benchmarks.balance`` (``make balance``).

Every registered game is played with the bot's own agent (``games.registry.AGENTS``) in every seat,
seeded, for every setting the game offers: each player count, plus Coup's two-player draft,
Масти's four-player team game, every Cadwallon grid and both «Интриги» land sets (``standard`` and
``random``). Games run in a pool of ``--workers`` processes; the numbers do not depend on it.
Everything is read from what the engines publish (options, the outcome, public events, the final
public view; Cadwallon's end-of-game hands from each seat's own final view), so a change to a game's
designed data or its AI flows through with no change here.

Per game and setting the report prints:

- **Seat position**: the win share of each position in turn order (0 = the First Player; Coup,
  Масти and Cadwallon fix ``first_seat`` to rotate through the seats, «Интриги» seats play in seat
  order) with its Wilson 95% interval, against the fair share. A shared first place counts as a split
  share (two seats tied for first get ½ each); a team game counts teams. Target: every position
  within ±5 pp of the fair share, *judged on the interval* (PASS only when the whole interval lies
  inside the band). The report says how many games that needs (:func:`games_needed`).
- **How games end** and **game length** (median, quartiles and range; turns or rounds).
- **Per-card numbers** (pooled over the game's settings), with the issue's targets:

  «Интриги»: each of the four victories ends ≥ 10% of games; the median game ends no earlier than
  turn 5; fewer than a third end on the turn limit. A land, character or trait *decides* a game when
  a first-placed player holds it at the end (a land: its majority holder in the final public view; a
  character: its controller; a trait: the controller of any character in play with that trait). An
  item is in play in a game when its land was laid out, or its character was dealt to an office or
  appointed to one. It *never matters* when it decides at most 5% of the games it is in play and
  *always decides* when it decides at least 90% of them (judged with at least 20 games in play).

  Cadwallon: a contract is *met by accident* when a player who does not hold it ends the game with
  holdings that meet it (the engine's own scoring, :func:`games.cadwallon.scoring.score_seat`, run
  with that contract); target 15–60% of such hands. Creditors matter when a player earns more than
  the plain Creditor bonus (the +5 of a full guild) in at least 25% of games. An action card's
  player wins far more often than the others when the player's win share is at least 1.5× the fair
  share (cards played at least 30 times). A card judgment is a grid card with positive support at
  Capture; a tie is one whose top support is shared; target at 8 players: under 25% ties (the issue's
  first measure found a third).

  Масти: the share of counted guild piles that score positive, per guild; a guild is broken when
  that share is under 50% (not worth taking) or over 95% (always worth taking).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from benchmarks.common import Line, registered_games, seat_counts
from bot.tables import choose_ai_action
from games.cadwallon.cards import contracts_in_play, guilds_in_play
from games.cadwallon.models import CadwallonView, CaptureOutcome, CardCaptured, CardStayed
from games.cadwallon.scoring import CREDITOR_BONUS, score_seat, table_context
from games.core import Engine, Event, Outcome
from games.core.models import Seat
from games.intrigue.data import CHARACTERS, LANDS, TRAITS
from games.intrigue.models import CharacterAppointed, CharactersDealt, CharStatus, IntrigueView, Victory
from games.masti.models import MastiView
from games.registry import AGENTS, ENGINES

SECTION = "16. Balance"
Z95 = 1.96
#: Seat position may move a seat's win share this far from the fair share.
SEAT_MARGIN = 0.05
#: A game still going after this many actions is reported unfinished (the longest seen: ~1,000).
MAX_ACTIONS = 20_000
DEFAULT_GAMES = 100
DEFAULT_SEED = "balance"

# Targets of issue 15.
VICTORY_SHARE = 0.10
MEDIAN_TURN = 5
TURN_LIMIT_SHARE = 1 / 3
NEVER_MATTERS = 0.05
ALWAYS_DECIDES = 0.90
MIN_ITEM_GAMES = 20
ACCIDENT_RANGE = (0.15, 0.60)
CREDITOR_GAMES = 0.25
ACTION_RATIO = 1.5
MIN_ACTION_PLAYS = 30
TIE_SHARE_8P = 0.25
PILE_RANGE = (0.50, 0.95)

#: Options that make a setting of their own, where the engine offers them (Coup's draft is two-player
#: only; Масти's team option only changes the four-player game, six always play in teams).
VARIANTS: dict[str, tuple[tuple[int, str], ...]] = {"coup": ((2, "draft"),), "masti": ((4, "teams"),)}
#: Options whose every value is a setting of its own, at every player count it allows.
SETTING_FIELDS: dict[str, str] = {"cadwallon": "grid", "intrigue": "lands"}
#: What a game's length counts.
LENGTH_UNIT: dict[str, str] = {"coup": "turns", "masti": "rounds", "cadwallon": "rounds", "intrigue": "turns"}


# ----------------------------------------------------------------------------- statistics
def wilson(share: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a win share (split shares of tied firsts allowed).

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    >>> wilson(0, 10)[0]
    0.0
    """
    if games <= 0:
        raise ValueError("no games")
    p = share / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Return the normal-approximation 95% interval of the mean of ``values`` (at least two).

    >>> low, high = mean_interval([0.0, 2.0] * 50)
    >>> round(low, 3), round(high, 3)
    (0.803, 1.197)
    """
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def games_needed(fair: float, margin: float = SEAT_MARGIN, deviation: float = 0.0, z: float = Z95) -> int | None:
    """Return the games whose 95% interval around a ``fair`` share is narrower than ``margin - deviation``.

    With a true deviation of ``deviation`` from the fair share, that many games bring the whole
    interval inside ``fair ± margin`` (the normal approximation at the fair share). ``None`` when the
    deviation alone already reaches the margin: no number of games proves the target.

    >>> games_needed(1 / 2)
    385
    >>> games_needed(1 / 8)
    169
    >>> games_needed(1 / 3, deviation=0.02)
    949
    >>> games_needed(1 / 4, deviation=0.06) is None
    True
    """
    room = margin - deviation
    if room <= 0:
        return None
    return math.ceil(z * z * fair * (1 - fair) / (room * room))


def judge_seats(shares: Sequence[float], games: int) -> tuple[bool, str]:
    """Judge the win shares summed by position over ``games`` games against fair share ± 5 pp.

    PASS only when every position's Wilson interval lies inside the band; the text names the worst
    position, and when the intervals are too wide to tell, the games needed.

    >>> judge_seats([200.0, 200.0], 400)[0]
    True
    >>> judge_seats([70.0, 30.0], 100)
    (False, 'worst: position 2 30.0% (95% CI 21.9%–39.6%) vs fair 50.0%, -20.0 pp: beyond ±5 pp')
    >>> judge_seats([60.0, 40.0], 100)[1]
    'worst: position 1 60.0% (95% CI 50.2%–69.1%) vs fair 50.0%, +10.0 pp: outside ±5 pp as measured, not yet proven'
    >>> judge_seats([26.0, 24.0], 50)[1]
    'worst: position 1 52.0% (95% CI 38.5%–65.2%) vs fair 50.0%, +2.0 pp: undecided at 50 games, needs ≈ 1,068'
    """
    fair = 1 / len(shares)
    low_band, high_band = fair - SEAT_MARGIN, fair + SEAT_MARGIN
    intervals = [wilson(share, games) for share in shares]
    inside = all(low_band <= low and high <= high_band for low, high in intervals)
    worst = max(range(len(shares)), key=lambda i: abs(shares[i] / games - fair))
    rate = shares[worst] / games
    low, high = intervals[worst]
    deviation = rate - fair
    text = (
        f"worst: position {worst + 1} {rate:.1%} (95% CI {low:.1%}–{high:.1%}) vs fair {fair:.1%}, "
        f"{deviation * 100:+.1f} pp"
    )
    if inside:
        return True, text
    if low > high_band or high < low_band:
        return False, f"{text}: beyond ±5 pp"
    needed = games_needed(fair, deviation=abs(deviation))
    if needed is None:
        return False, f"{text}: outside ±5 pp as measured, not yet proven"
    return False, f"{text}: undecided at {games:,} games, needs ≈ {needed:,}"


def spread_text(values: Sequence[float]) -> str:
    """Return the median, quartiles and range of ``values``.

    >>> spread_text([3, 5, 4, 8, 6])
    'median 5 (quartiles 4–6, range 3–8)'
    """
    ordered = sorted(values)
    if len(ordered) == 1:
        return f"median {ordered[0]:g} (one game)"
    q1, _q2, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return f"median {statistics.median(ordered):g} (quartiles {q1:g}–{q3:g}, range {ordered[0]:g}–{ordered[-1]:g})"


# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class Setting:
    """One way to set up a game: the player count and the options that differ from the defaults."""

    game: str
    seats: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """Return a short name such as ``4 players, lands=random``."""
        extra = ", ".join(name if value is True else f"{name}={value}" for name, value in self.options)
        return f"{self.seats} players" + (f", {extra}" if extra else "")


def _literal_values(annotation: Any) -> list[Any]:
    """Return the values of a ``Literal`` annotation (``None`` of an optional one left out)."""
    values: list[Any] = []
    for arg in get_args(annotation):
        if get_args(arg) and getattr(arg, "__origin__", None) is Literal:
            values.extend(get_args(arg))
        elif arg is not type(None):
            values.append(arg)
    return values


def settings_of(game: str) -> list[Setting]:
    """Return every setting ``game`` offers, by option value then player count.

    >>> [s.label for s in settings_of("coup")]
    ['2 players', '3 players', '4 players', '5 players', '6 players', '2 players, draft']
    >>> len(settings_of("intrigue")), len(settings_of("cadwallon"))
    (14, 17)
    """
    engine = ENGINES[game]
    name = SETTING_FIELDS.get(game)
    if name is None:
        out = [Setting(game, n) for n in seat_counts(game)]
        return out + [Setting(game, n, ((option, True),)) for n, option in VARIANTS.get(game, ())]
    out = []
    for value in _literal_values(engine.options_type.model_fields[name].annotation):
        options = engine.options_type(**{name: value})
        narrow = getattr(engine, "seat_range", None)
        low, high = narrow(options) if narrow is not None else (engine.min_seats, engine.max_seats)
        out.extend(Setting(game, n, ((name, value),)) for n in range(int(low), int(high) + 1))
    return out


# ----------------------------------------------------------------------------- playouts
@dataclass(frozen=True)
class Record:
    """One finished (or abandoned) game: win shares by position, length, ending and per-card data."""

    shares: tuple[float, ...]
    length: int
    ending: str
    extra: dict[str, Any] = field(default_factory=dict)


def unit_shares(outcome: Outcome, n: int, first: Seat) -> tuple[float, ...]:
    """Return each scoring unit's win share, units in turn order from ``first`` (ties split).

    >>> unit_shares(Outcome(ranks=(1, 0, 0)), 3, 1)
    (0.5, 0.5, 0.0)
    >>> unit_shares(Outcome(ranks=(1, 0, 1, 0), teams=((0, 2), (1, 3))), 4, 3)
    (1.0, 0.0)
    """
    units = outcome.teams or tuple((seat,) for seat in range(n))
    order = sorted(units, key=lambda unit: min((seat - first) % n for seat in unit))
    firsts = sum(1 for unit in order if outcome.ranks[unit[0]] == 0)
    return tuple(1 / firsts if outcome.ranks[unit[0]] == 0 else 0.0 for unit in order)


def _units(game: str, setting: Setting) -> int:
    """Return how many scoring units (players, or teams) a setting has."""
    if game == "masti" and (setting.seats == 6 or dict(setting.options).get("teams")):
        return setting.seats // 2
    return setting.seats


Extract = Callable[[Engine[Any], Any, Sequence[Event], Outcome], tuple[int, str, dict[str, Any]]]


def _winners(outcome: Outcome) -> frozenset[Seat]:
    return frozenset(seat for seat, rank in enumerate(outcome.ranks) if rank == 0)


def _extract_coup(
    engine: Engine[Any], state: Any, events: Sequence[Event], outcome: Outcome
) -> tuple[int, str, dict[str, Any]]:
    return sum(event.kind == "turn_started" for event in events), "last player standing", {}


def _extract_masti(
    engine: Engine[Any], state: Any, events: Sequence[Event], outcome: Outcome
) -> tuple[int, str, dict[str, Any]]:
    view = engine.view(state, None)
    assert isinstance(view, MastiView) and view.result is not None  # noqa: S101 - a finished game scores
    piles = tuple((pile.guild.value, pile.points) for unit in view.result for pile in unit.piles if pile.counted)
    return sum(event.kind == "round_won" for event in events), "all rounds played", {"piles": piles}


def _own_hand(engine: Engine[Any], state: Any, seat: Seat) -> tuple[str, ...]:
    """Return ``seat``'s action cards in hand, from its own view (the public view hides them)."""
    own = engine.view(state, seat)
    assert isinstance(own, CadwallonView)  # noqa: S101
    return own.players[seat].hand or ()


def contract_met(view: CadwallonView, hands: Sequence[Sequence[str]], seat: Seat, contract: str) -> bool:
    """Return whether ``seat``'s holdings at the end of the game in ``view`` meet ``contract``.

    The engine's own scoring decides, with ``contract`` in place of the seat's own (``hands``:
    every seat's action cards in hand, which K08 and K17 count). The other seats' hands and played
    cards go into the table context too: K08, K17 and K18 compare the seat with the best of them.
    """
    captured = [player.captured for player in view.players]
    played = [player.played for player in view.players]
    player = view.players[seat]
    scored = score_seat(
        seat,
        player.captured,
        player.played,
        len(hands[seat]),
        grid=view.grid,
        hand=hands[seat],
        condition=view.condition,
        contract=contract,
        context=table_context(seat, captured, guilds_in_play(view.grid), hands, played, view.condition),
    )
    return scored.contract_met


def _extract_cadwallon(
    engine: Engine[Any], state: Any, events: Sequence[Event], outcome: Outcome
) -> tuple[int, str, dict[str, Any]]:
    view = engine.view(state, None)
    assert isinstance(view, CadwallonView) and view.result is not None  # noqa: S101 - a finished game scores
    n = view.num_seats
    winners = _winners(outcome)
    share = {seat: 1 / len(winners) if seat in winners else 0.0 for seat in range(n)}
    held = tuple((b.contract, b.contract_met) for b in view.result if b.contract is not None)
    accident: list[tuple[str, bool]] = []
    if view.contracts:
        hands = [_own_hand(engine, state, seat) for seat in range(n)]
        for seat in range(n):
            accident.extend(
                (contract, contract_met(view, hands, seat, contract))
                for contract in contracts_in_play(view.grid)
                if contract != view.result[seat].contract
            )
    creditors = tuple(line.creditor_bonus for b in view.result for line in b.guilds if line.creditor)
    played = tuple((card, share[p.seat]) for p in view.players for card in p.played)
    judged = [e for e in events if isinstance(e, CardCaptured | CardStayed)]
    contested = [e for e in judged if e.outcome not in {CaptureOutcome.NO_SUPPORT, CaptureOutcome.CURFEW}]
    extra = {
        "held": held,
        "accident": tuple(accident),
        "creditors": creditors,
        "played": played,
        "judgments": len(contested),
        "ties": sum(len(e.tied) >= 2 for e in contested),
    }
    ending = view.end_reason.value if view.end_reason is not None else "unfinished"
    return view.round, ending, extra


def _extract_intrigue(
    engine: Engine[Any], state: Any, events: Sequence[Event], outcome: Outcome
) -> tuple[int, str, dict[str, Any]]:
    view = engine.view(state, None)
    assert isinstance(view, IntrigueView)  # noqa: S101
    winners = _winners(outcome)
    in_office: set[int] = set()
    for event in events:
        if isinstance(event, CharactersDealt):
            in_office.update(event.heads, event.council)
        elif isinstance(event, CharacterAppointed):
            in_office.add(event.character)
    lands = tuple(
        (f"land {land.id} {LANDS[land.id].en}", land.holder is not None, land.holder in winners) for land in view.lands
    )
    characters = tuple(
        (f"character {c.id} {CHARACTERS[c.id].en}", c.controller is not None, c.controller in winners)
        for c in view.characters
        if c.id in in_office or c.status in {CharStatus.HEAD, CharStatus.COUNCIL}
    )
    controllers = {c.id: c.controller for c in view.characters}
    traits: dict[str, list[bool]] = {}
    for name, _held, _won in characters:
        cid = int(name.split()[1])
        for trait in TRAITS[cid]:
            seen = traits.setdefault(trait.value, [False, False])
            seen[0] |= controllers[cid] is not None
            seen[1] |= controllers[cid] in winners
    extra = {
        "lands": lands,
        "characters": characters,
        "traits": tuple((f"trait {t}", held, won) for t, (held, won) in sorted(traits.items())),
    }
    ending = view.result.victory.value if view.result is not None else "unfinished"
    return view.turn, ending, extra


EXTRACTORS: dict[str, Extract] = {
    "coup": _extract_coup,
    "masti": _extract_masti,
    "cadwallon": _extract_cadwallon,
    "intrigue": _extract_intrigue,
}


def play(setting: Setting, seed: str, index: int) -> Record:
    """Play game ``index`` of ``setting`` with the game's AI in every seat and read its numbers."""
    engine = ENGINES[setting.game]
    agent = AGENTS[setting.game]
    n = setting.seats
    options = dict(setting.options)
    # Where the table may fix its First Player, rotate it, so every seat starts equally often.
    first = index % n if "first_seat" in engine.options_type.model_fields else 0
    if "first_seat" in engine.options_type.model_fields:
        options["first_seat"] = first
    table_seed = f"{seed}:{setting.game}:{setting.label}:{index}"
    step = engine.setup(n, engine.options_type(**options), table_seed)
    state = step.state
    events = [event for event in step.events if event.visible_to is None]
    for _ in range(MAX_ACTIONS):
        active = engine.active_seats(state)
        if not active:
            break
        seat = min(active)
        step = engine.apply(state, seat, choose_ai_action(engine, agent, state, seat))
        state = step.state
        events.extend(event for event in step.events if event.visible_to is None)
    outcome = engine.outcome(state)
    if outcome is None:
        return Record(shares=(0.0,) * _units(setting.game, setting), length=0, ending="unfinished")
    length, ending, extra = EXTRACTORS[setting.game](engine, state, events, outcome)
    return Record(shares=unit_shares(outcome, n, first), length=length, ending=ending, extra=extra)


def _play_chunk(job: tuple[Setting, str, int, int]) -> tuple[Setting, list[Record]]:
    setting, seed, start, count = job
    return setting, [play(setting, seed, index) for index in range(start, start + count)]


def _collect(
    results: dict[Setting, list[tuple[int, list[Record]]]],
    start: int,
    setting: Setting,
    records: list[Record],
    games: int,
    progress: Callable[[str], None],
) -> None:
    results[setting].append((start, records))
    if sum(len(chunk) for _start, chunk in results[setting]) == games:
        progress(f"{_name(setting)}: {games} games played")


def measure(
    settings: Sequence[Setting],
    games: int,
    *,
    workers: int = 2,
    seed: str = DEFAULT_SEED,
    chunk: int = 5,
    progress: Callable[[str], None] = lambda _text: None,
) -> dict[Setting, list[Record]]:
    """Play ``games`` games of every setting in ``workers`` processes; return the records by setting.

    Game ``i`` of a setting always has the same seed, so the records do not depend on ``workers``.
    ``progress`` hears of each setting as its last game ends.
    """
    jobs = [(s, seed, start, min(chunk, games - start)) for s in settings for start in range(0, games, chunk)]
    # Longest first (more seats, larger boards), so no worker is left alone with one long chunk at the end.
    jobs.sort(key=lambda job: -job[0].seats)
    results: dict[Setting, list[tuple[int, list[Record]]]] = defaultdict(list)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for job, (setting, records) in zip(jobs, pool.map(_play_chunk, jobs), strict=True):
                _collect(results, job[2], setting, records, games, progress)
    else:
        for job in jobs:
            setting, records = _play_chunk(job)
            _collect(results, job[2], setting, records, games, progress)
    return {s: [r for _start, chunk_records in sorted(results[s]) for r in chunk_records] for s in settings}


# ----------------------------------------------------------------------------- report lines
def _name(setting: Setting) -> str:
    return f"{setting.game}: {setting.label}"


def _seat_line(setting: Setting, records: Sequence[Record]) -> Line:
    units = len(records[0].shares)
    sums = [sum(r.shares[i] for r in records) for i in range(units)]
    passed, text = judge_seats(sums, len(records))
    fair = 1 / units
    needed = games_needed(fair)
    return Line(
        f"{SECTION}: seat position",
        f"{_name(setting)} ({len(records):,} games; ±5 pp needs ≥ {needed:,} games)",
        text,
        f"every position within {fair:.1%} ± 5 pp (95% CI)",
        passed,
    )


def _share_text(counts: Counter[str], total: int) -> str:
    return ", ".join(f"{name} {count / total:.0%}" for name, count in counts.most_common())


def _intrigue_setting_lines(setting: Setting, records: Sequence[Record]) -> list[Line]:
    endings = Counter(r.ending for r in records)
    games = len(records)
    victories = [v.value for v in Victory if v not in {Victory.TURN_LIMIT, Victory.LAST_PLAYER}]
    shares = {v: endings[v] / games for v in victories}
    turns = [r.length for r in records if r.ending != "unfinished"] or [0]
    section = f"{SECTION}: intrigue endings"
    return [
        Line(
            section,
            f"{_name(setting)}: each victory's share of games",
            ", ".join(f"{v} {shares[v]:.0%}" for v in victories) + f"; turn limit {endings['turn_limit'] / games:.0%}",
            f"each ≥ {VICTORY_SHARE:.0%}",
            all(share >= VICTORY_SHARE for share in shares.values()),
        ),
        Line(
            section,
            f"{_name(setting)}: end turn",
            spread_text(turns),
            f"median ≥ turn {MEDIAN_TURN}",
            statistics.median(turns) >= MEDIAN_TURN,
        ),
        Line(
            section,
            f"{_name(setting)}: games ending on the turn limit",
            f"{endings['turn_limit'] / games:.1%} ({endings['turn_limit']} of {games})",
            f"< {TURN_LIMIT_SHARE:.0%}",
            endings["turn_limit"] / games < TURN_LIMIT_SHARE,
        ),
    ]


def _item_lines(records: Sequence[Record]) -> list[Line]:
    """Lands, characters and traits that never matter or always decide, pooled over every setting."""
    lines = []
    for kind in ("lands", "characters", "traits"):
        played: Counter[str] = Counter()
        decided: Counter[str] = Counter()
        held: Counter[str] = Counter()
        for record in records:
            for name, is_held, won in record.extra.get(kind, ()):
                played[name] += 1
                held[name] += is_held
                decided[name] += won
        judged = {name: decided[name] / count for name, count in played.items() if count >= MIN_ITEM_GAMES}
        never = sorted(name for name, share in judged.items() if share <= NEVER_MATTERS)
        always = sorted(name for name, share in judged.items() if share >= ALWAYS_DECIDES)
        if judged:
            low = min(judged, key=judged.__getitem__)
            high = max(judged, key=judged.__getitem__)
            value = (
                f"decides {judged[low]:.0%} ({low}) to {judged[high]:.0%} ({high}) of its games; "
                f"never matters: {', '.join(never) or 'none'}; always decides: {', '.join(always) or 'none'}"
            )
        else:
            value = f"0 of {len(played)} with ≥ {MIN_ITEM_GAMES} games in play: too few games to judge"
        lines.append(
            Line(
                f"{SECTION}: intrigue {kind}",
                f"{kind} held by a winner at the end ({len(judged)} judged)",
                value,
                f"none ≤ {NEVER_MATTERS:.0%} or ≥ {ALWAYS_DECIDES:.0%} of its games",
                bool(judged) and not never and not always,
            )
        )
    return lines


def _cadwallon_lines(results: dict[Setting, list[Record]]) -> list[Line]:
    records = [r for rs in results.values() for r in rs]
    section = f"{SECTION}: cadwallon cards"
    lines = []
    accident: dict[str, list[bool]] = defaultdict(list)
    holder: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        for contract, met in record.extra.get("accident", ()):
            accident[contract].append(met)
        for contract, met in record.extra.get("held", ()):
            holder[contract].append(met)
    low, high = ACCIDENT_RANGE
    for contract in sorted(accident):
        met = accident[contract]
        share = sum(met) / len(met)
        own = holder.get(contract, [])
        own_text = f"; its holders met it {sum(own) / len(own):.0%} of {len(own)}" if own else ""
        lines.append(
            Line(
                section,
                f"{contract} met by accident",
                f"{share:.1%} of {len(met):,} non-holders' hands{own_text}",
                f"{low:.0%}–{high:.0%}",
                low <= share <= high,
            )
        )
    # Only games in which someone captured a Creditor count: a 3×3 deck has none to capture.
    creditor_games = [r for r in records if r.extra.get("creditors")]
    big = [r for r in creditor_games if any(bonus > CREDITOR_BONUS for bonus in r.extra["creditors"])]
    held_count = sum(len(r.extra["creditors"]) for r in creditor_games)
    paid = sum(bonus > CREDITOR_BONUS for r in creditor_games for bonus in r.extra["creditors"])
    share = len(big) / len(creditor_games) if creditor_games else 0.0
    value = (
        f"in {share:.1%} of the {len(creditor_games):,} games with a Creditor captured "
        f"({paid:,} of the {held_count:,} Creditors held paid it)"
        if creditor_games
        else f"no Creditor captured in {len(records):,} games"
    )
    lines.append(
        Line(
            section,
            "Creditors paying more than the plain bonus",
            value,
            f"≥ {CREDITOR_GAMES:.0%} of games with a Creditor captured",
            share >= CREDITOR_GAMES,
        )
    )
    plays: dict[str, list[float]] = defaultdict(list)
    for setting, rs in results.items():
        for record in rs:
            for card, won in record.extra.get("played", ()):
                plays[card].append(won * setting.seats)  # the win share as a multiple of the fair share
    judged = {card: statistics.fmean(v) for card, v in plays.items() if len(v) >= MIN_ACTION_PLAYS}
    far = sorted(card for card, ratio in judged.items() if ratio >= ACTION_RATIO)
    if judged:
        best = max(judged, key=judged.__getitem__)
        worst = min(judged, key=judged.__getitem__)
        # A play's win share times the seats is 0 or n (n - 1 variance at a fair share), so a card
        # needs hundreds of plays before its ratio is known to ±0.2: print each one's interval.
        bounds = {card: mean_interval(plays[card]) for card in judged}
        proven = [card for card in far if bounds[card][0] >= ACTION_RATIO]

        def told(card: str) -> str:
            low, high = bounds[card]
            return f"{card} {judged[card]:.2f}× fair (95% CI {low:.2f}–{high:.2f}, {len(plays[card])} plays)"

        value = (
            f"{told(best)} (most), {told(worst)} (least); far above: {', '.join(far) or 'none'}"
            f" (whole interval above: {', '.join(proven) or 'none'}); {len(judged)} of {len(plays)} cards judged"
        )
    else:
        value = f"0 of {len(plays)} cards played ≥ {MIN_ACTION_PLAYS} times: too few games to judge"
    lines.append(
        Line(
            section,
            "win share of an action card's player",
            value,
            f"none ≥ {ACTION_RATIO}× the fair share ({MIN_ACTION_PLAYS}+ plays)",
            bool(judged) and not far,
        )
    )
    for setting, rs in results.items():
        if setting.seats != 8:
            continue
        judgments = sum(r.extra.get("judgments", 0) for r in rs)
        ties = sum(r.extra.get("ties", 0) for r in rs)
        tie_share = ties / judgments if judgments else 0.0
        lines.append(
            Line(
                section,
                f"{_name(setting)}: card judgments tied",
                f"{tie_share:.1%} of {judgments:,} judgments",
                f"< {TIE_SHARE_8P:.0%}",
                bool(judgments) and tie_share < TIE_SHARE_8P,
            )
        )
    return lines


def _masti_lines(records: Sequence[Record]) -> list[Line]:
    piles: dict[str, list[int]] = defaultdict(list)
    for record in records:
        for guild, points in record.extra.get("piles", ()):
            piles[guild].append(points)
    low, high = PILE_RANGE
    return [
        Line(
            f"{SECTION}: masti guilds",
            f"{guild}: counted piles scoring positive",
            f"{sum(p > 0 for p in points) / len(points):.1%} of {len(points):,} piles "
            f"(mean {statistics.fmean(points):+.1f} points)",
            f"{low:.0%}–{high:.0%}",
            low <= sum(p > 0 for p in points) / len(points) <= high,
        )
        for guild, points in sorted(piles.items())
    ]


def balance_lines(results: dict[Setting, list[Record]]) -> list[Line]:
    """Return every target line of ``results``: seat position per setting, then each game's own targets."""
    lines = [_seat_line(setting, records) for setting, records in results.items() if records]
    by_game: dict[str, dict[Setting, list[Record]]] = defaultdict(dict)
    for setting, records in results.items():
        if records:
            by_game[setting.game][setting] = records
    for game, settings in by_game.items():
        pooled = [r for rs in settings.values() for r in rs]
        if game == "intrigue":
            for setting, records in settings.items():
                lines.extend(_intrigue_setting_lines(setting, records))
            lines.extend(_item_lines(pooled))
        elif game == "cadwallon":
            lines.extend(_cadwallon_lines(settings))
        elif game == "masti":
            lines.extend(_masti_lines(pooled))
    return lines


def details(results: dict[Setting, list[Record]]) -> str:
    """Return the per-setting tables: win share by position with its interval, endings and length."""
    out = []
    for game in dict.fromkeys(setting.game for setting in results):
        out += [
            f"## {game}",
            "",
            "| Setting | Games | Win share by position (95% CI) | Endings | Length |",
            "|---|---|---|---|---|",
        ]
        for setting, records in results.items():
            if setting.game != game or not records:
                continue
            games = len(records)
            units = len(records[0].shares)
            cells = []
            for i in range(units):
                share = sum(r.shares[i] for r in records)
                low, high = wilson(share, games)
                cells.append(f"{i + 1}: {share / games:.0%} ({low:.0%}–{high:.0%})")
            endings = _share_text(Counter(r.ending for r in records), games)
            lengths = [r.length for r in records if r.ending != "unfinished"]
            length = f"{spread_text(lengths)} {LENGTH_UNIT[game]}" if lengths else "—"
            out.append(f"| {setting.label} | {games:,} | {'; '.join(cells)} | {endings} | {length} |")
        out.append("")
    return "\n".join(out)


def report(results: dict[Setting, list[Record]], seconds: float, workers: int, seed: str) -> str:
    """Return the Markdown balance report: the per-setting tables, then every target with PASS/MISS."""
    lines = balance_lines(results)
    misses = sum(not line.passed for line in lines)
    out = [
        "# Balance report",
        "",
        f"All-AI games (games.registry AGENTS in every seat), seed `{seed}`, {workers} worker(s), "
        f"{seconds:.0f} s; {misses} of {len(lines)} targets missed. Position 1 is the first in turn order.",
        "",
        details(results),
        "## Targets",
        "",
        "| Section | Measure | Value | Target | Result |",
        "|---|---|---|---|---|",
    ]
    out.extend(f"| {x.section} | {x.name} | {x.value} | {x.target} | {x.verdict} |" for x in lines)
    return "\n".join(out) + "\n"


def bench_balance(*, games: int, workers: int = 2, settings: Iterable[Setting] | None = None) -> list[Line]:
    """The ``make bench`` section: every setting of every game at ``games`` games each."""
    chosen = list(settings) if settings is not None else [s for g in registered_games() for s in settings_of(g)]
    return balance_lines(measure(chosen, games, workers=workers))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the balance measurement from the command line; exit 0 even when a target is missed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per setting")
    parser.add_argument("--game", choices=(*registered_games(), "all"), default="all", help="one game (default: all)")
    parser.add_argument("--seats", default="", help="player counts to play, e.g. 3,8 (default: every count)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="only settings with this option value, e.g. lands=random or grid=4x4 (repeatable)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=Path("bench-output"), help="writes <out>/balance.md")
    args = parser.parse_args(argv)
    games = registered_games() if args.game == "all" else [args.game]
    counts = {int(s) for s in args.seats.split(",") if s}
    wanted = {tuple(option.split("=", 1)) for option in args.option if "=" in option}
    if len(wanted) != len(args.option):
        parser.error("an --option is NAME=VALUE")
    chosen = [
        s
        for g in games
        for s in settings_of(g)
        if (not counts or s.seats in counts) and wanted <= {(name, str(value)) for name, value in s.options}
    ]
    if not chosen:
        parser.error("no setting of that game has those player counts and options")
    start = time.perf_counter()
    results = measure(
        chosen, args.games, workers=args.workers, seed=args.seed, progress=lambda text: print(text, file=sys.stderr)
    )
    text = report(results, time.perf_counter() - start, args.workers, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "balance.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
