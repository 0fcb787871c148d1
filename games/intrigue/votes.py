"""Votes, elections, vacancies and the Representative (spec §7.1, §10, §11, §12.1).

A vote runs V1–V8 of §11.2 as the stages of a :class:`~games.intrigue.state.VoteFrame`: the call,
the W3 window (removals), fixing the voters, sealed ballots (D13), the reveal, Сапфировые Озёра
(D14), up to three sealed sway rounds (D15), then the neutral voters and the count. Vote values
are strings: ``for`` / ``against`` / ``abstain`` / ``none`` or a candidate's character id.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import override

from games.core.models import Seat
from games.intrigue.data import (
    CHARACTERS,
    COUNCIL_SEATS,
    ELECTION_SEATS,
    FAR_GARRISON,
    HEAD_REMOVAL_VOTES,
    LANDS,
    MAX_SWAY_ROUNDS,
    SAPPHIRE_LAKES,
    ST_IRIASH,
    THE_BROTHERS,
    CouncilSeat,
    Trait,
    councillor_removal_votes,
)
from games.intrigue.game import BISHOP, Game, Rules, pending, register
from games.intrigue.mercenaries import dismiss
from games.intrigue.models import (
    Back,
    BallotsRevealed,
    CharacterAppointed,
    Decision,
    Done,
    DraftItem,
    DraftView,
    ElectionCalled,
    ElectionResolved,
    NeutralVoted,
    PendingView,
    PickAmount,
    PickCharacter,
    PickSide,
    Reason,
    RepresentativeChosen,
    SeatLeftVacant,
    Side,
    Skip,
    SubmissionReceived,
    SwayRevealed,
    Victory,
    VoteCalled,
    VoteDictated,
    VoteKind,
    VoteLapsed,
    VoteResolved,
    VoterView,
    VoteView,
    Window,
)
from games.intrigue.state import (
    Commitment,
    ElectionFrame,
    PickFrame,
    RepresentativeFrame,
    VacancyFrame,
    VoteFrame,
    WindowFrame,
)
from games.intrigue.victory import finish

FOR, AGAINST, ABSTAIN, NONE = Side.FOR.value, Side.AGAINST.value, Side.ABSTAIN.value, "none"


# ----------------------------------------------------------------------------- the §7.1 keys
def rep_keys(g: Game, character: int) -> tuple[int, int, int, int, int, int]:
    """Return the six Representative keys of a head (§7.1), higher first."""
    land = g.land_of(character)
    assert land is not None  # noqa: S101 - only heads are ranked
    p = g.pos[land]
    head = sum(g.tokens(character))
    return (
        head,
        head + sum(g.land_tokens[p]),
        LANDS[land].cells,
        g.peaceful[p] + g.military[p],
        g.peaceful[p],
        g.military[p],
    )


def rank_heads(g: Game, heads: list[int]) -> tuple[list[int], int]:
    """Return the heads still tied after the §7.1 keys 1–6, and the key that separated (7: none did)."""
    left = list(heads)
    if len(left) == 1:
        return left, 0
    for index in range(6):
        top = max(rep_keys(g, c)[index] for c in left)
        left = [c for c in left if rep_keys(g, c)[index] == top]
        if len(left) == 1:
            return left, index + 1
    return left, 7


def first_by_keys(g: Game, heads: list[int]) -> int:
    """Return the head first by the §7.1 keys, the lowest land id last."""
    return min(heads, key=lambda c: (tuple(-k for k in rep_keys(g, c)), g.land_of(c) or 0))


# ----------------------------------------------------------------------------- representative
@register("representative")
class RepresentativeRules(Rules):
    """Selects the Representative after W2 (§7.1)."""

    interrupt = True

    @override
    def run(self, g: Game, f: RepresentativeFrame) -> bool:
        if isinstance(f.answer, int):
            self._seat(g, f.answer, 7)
            g.pop()
            return False
        heads = g.head_characters()
        if not heads:
            g.representative = None
            g.emit(RepresentativeChosen(character=None, land=None, key=0))
            g.pop()
            return False
        left, key = rank_heads(g, heads)
        if len(left) == 1:
            self._seat(g, left[0], key)
            g.pop()
            return False
        left.sort(key=lambda c: g.land_of(c) or 0)
        chooser = g.appointer()
        if chooser is None:
            self._seat(g, left[0], 7)
            g.pop()
            return False
        g.push(PickFrame(seat=chooser, decision=Decision.APPOINT, candidates=left, default=left[0]))
        return False

    def _seat(self, g: Game, character: int, key: int) -> None:
        g.representative = character
        g.emit(RepresentativeChosen(character=character, land=g.land_of(character), key=key))


# ----------------------------------------------------------------------------- vacancies
def seat_council(g: Game, index: int, character: int, how: Any, by: Seat | None = None) -> None:
    """Move head ``character`` into council seat ``index`` with his tokens and cards."""
    g.vacate(character)
    g.council[index] = character
    g.emit(CharacterAppointed(character=character, council=COUNCIL_SEATS[index], by=by, how=how))


def seat_head(g: Game, land: int, character: int, how: Any, by: Seat | None = None) -> None:
    """Make pool ``character`` the head of ``land``."""
    g.heads[g.pos[land]] = character
    g.emit(CharacterAppointed(character=character, land=land, by=by, how=how))


@register("vacancy")
class VacancyRules(Rules):
    """Fills vacant seats at once: council seats first, then heads in land order (§10.3)."""

    interrupt = True

    @override
    def run(self, g: Game, f: VacancyFrame) -> bool:
        if f.current is not None:
            if isinstance(f.answer, int):
                seat_head(g, int(f.current[1:]), f.answer, "choice", f.current_by)
            f.current = None
            f.answer = None
        for i in range(4):
            key = f"c{i}"
            if g.council[i] is None and key not in f.tried:
                f.tried.append(key)
                return self._council(g, f, i)
        for p, land in enumerate(g.lands):
            key = f"h{land}"
            if g.heads[p] is None and key not in f.tried:
                f.tried.append(key)
                return self._head(g, f, land)
        g.pop()
        return False

    def _council(self, g: Game, f: VacancyFrame, index: int) -> bool:
        if index == BISHOP and ST_IRIASH in g.pos and g.head_of(ST_IRIASH) is not None:
            head = g.head_of(ST_IRIASH)
            assert head is not None  # noqa: S101 - checked above
            chooser = g.controller(head)
            seat_council(g, index, head, "iriash")
            if chooser is None:
                chooser = g.appointer()
            if chooser is not None:
                f.chooser[ST_IRIASH] = chooser
            return False
        if not [c for c in g.head_characters() if c not in g.dismissed]:
            g.emit(SeatLeftVacant(council=COUNCIL_SEATS[index]))
            return False
        g.push(VoteFrame(vote=VoteKind.APPOINT, council=COUNCIL_SEATS[index].value))
        return False

    def _head(self, g: Game, f: VacancyFrame, land: int) -> bool:
        candidates = sorted(g.pool())
        if not candidates:
            g.emit(SeatLeftVacant(land=land))
            return False
        chooser = f.chooser.pop(land, None)
        if chooser is None and land == ST_IRIASH:
            chooser = g.controller(g.council[BISHOP])
        if chooser is None:
            chooser = g.appointer()
        if chooser is None:
            seat_head(g, land, candidates[0], "automatic")
            return False
        f.current = f"h{land}"
        f.current_by = chooser
        g.push(
            PickFrame(seat=chooser, decision=Decision.APPOINT, candidates=candidates, default=candidates[0], land=land)
        )
        return False


# ----------------------------------------------------------------------------- votes
def _value(item: DraftItem) -> str:
    if item.candidate is not None:
        return str(item.candidate)
    assert item.side is not None  # noqa: S101 - every ballot entry has a side or a candidate
    return item.side.value


def _choice(value: str) -> DraftItem:
    if value.isdigit():
        return DraftItem(step="side", candidate=int(value))
    return DraftItem(step="side", side=Side(value))


@register("vote")
class VoteRules(Rules):
    """One vote, V1–V8 (§11.2).

    Not an interrupt (§3.3 lists guard responses, kills, vacancies and appointments, offers, a thief's
    choice and the penalty, never a vote): a removal vote is a run of resolutions — W3's free actions,
    each sway round, the count — and §3.7 tests victory after each one, so a reveal in W3 or a round's
    stakes that complete a coup end the game before the ballots or the count. An appointment vote is
    held back all the same: it only runs on top of its vacancy frame, which is an interrupt.
    """

    # ------------------------------------------------------------------ flow
    @override
    def run(self, g: Game, f: VoteFrame) -> bool:
        if f.stage == 0:
            council: Any = f.council
            g.emit(VoteCalled(vote=f.vote, caller=f.caller, via=f.via, subject=f.subject, council=council))
            if f.vote is VoteKind.APPOINT:
                f.stage = 2
            else:
                f.stage = 1
                g.push(WindowFrame(window=Window.W3))
            return False
        if f.stage == 1:
            f.stage = 2
            return False
        if f.stage == 2:
            return self._fix(g, f)
        if f.stage == 3:
            if any(s not in f.subs for s in f.participants):
                return True
            self._reveal(g, f)
            f.stage = 5
            return False
        if f.stage == 5:
            return self._sapphire(g, f)
        if f.stage == 6:
            return self._open_sway(g, f)
        if f.stage == 61:
            if any(s not in f.subs for s in f.participants):
                return True
            added = self._resolve_sway(g, f)
            f.stage = 6 if added else 7
            return False
        if f.stage == 7:
            self._resolve(g, f)
            return False
        if f.stage == 8:
            winner = f.answer
            f.answer = None
            assert isinstance(winner, int)  # noqa: S101 - the tie-break answers a candidate
            self._appoint(g, f, winner, g.appointer(from_treasurer=f.council == CouncilSeat.PRIVY.value))
            return False
        raise AssertionError(f.stage)

    def _fix(self, g: Game, f: VoteFrame) -> bool:
        if f.vote is VoteKind.REMOVE_HEAD:
            if f.subject is None or f.subject not in g.heads:
                g.emit(VoteLapsed(subject=f.subject or 0))
                g.pop()
                return False
            f.voters = [c for c in g.councillors() if c is not None and c != f.subject]
        elif f.vote is VoteKind.REMOVE_COUNCILLOR:
            if f.subject is None or f.subject not in g.council:
                g.emit(VoteLapsed(subject=f.subject or 0))
                g.pop()
                return False
            f.voters = g.head_characters()
        else:
            f.voters = g.head_characters()
            f.candidates = [c for c in f.voters if c not in g.dismissed]
        council_vote = f.vote is VoteKind.REMOVE_HEAD
        participants: set[int] = set()
        for v in f.voters:
            c = g.controller(v)
            if c is not None:
                f.cast_by[v] = c
                participants.add(c)
            else:
                f.neutral.append(v)
                if council_vote:
                    f.tied[v] = g.tied_top(v)
                    participants.update(f.tied[v])
        f.participants = [s for s in range(g.n) if s in participants]
        f.stage = 3
        return False

    def _items(self, g: Game, f: VoteFrame, seat: Seat) -> list[tuple[str, int]]:
        items = [("vote", v) for v in f.voters if f.cast_by.get(v) == seat]
        items += [("pref", v) for v in f.neutral if seat in f.tied.get(v, [])]
        return items

    def _reveal(self, g: Game, f: VoteFrame) -> None:
        votes: list[tuple[int, str, int]] = []
        prefs: list[tuple[int, str, int]] = []
        for seat in f.participants:
            entries = {(it.step, it.character): it for it in f.subs.get(seat, [])}
            for step, voter in self._items(g, f, seat):
                item = entries.get((step, voter))
                if step == "vote":
                    value = _value(item) if item is not None else ABSTAIN
                    f.votes[voter] = value
                    f.how[voter] = "controller"
                    votes.append((voter, value, seat))
                elif item is not None and item.side in (Side.FOR, Side.AGAINST):
                    value = _value(item)
                    tally = f.tallies.setdefault(voter, {})
                    tally[value] = tally.get(value, 0) + 1
                    prefs.append((voter, value, seat))
        f.revealed = True
        f.drafts = {}
        f.subs = {}
        g.emit(BallotsRevealed(votes=tuple(votes), preferences=tuple(prefs)))

    def _remaining(self, f: VoteFrame) -> list[int]:
        return [v for v in f.neutral if v not in f.votes]

    # ------------------------------------------------------------------ Сапфировые Озёра
    def _sapphire_seat(self, g: Game, f: VoteFrame) -> Seat | None:
        if SAPPHIRE_LAKES not in g.pos or "sapphire" in g.used or not self._remaining(f):
            return None
        return g.controller(g.head_of(SAPPHIRE_LAKES))

    def _sapphire(self, g: Game, f: VoteFrame) -> bool:
        if f.sapphire_seat is None:
            seat = self._sapphire_seat(g, f)
            if seat is None:
                f.stage = 6
                return False
            f.sapphire_seat = seat
            f.sapphire_draft = []
            return True
        if len(f.sapphire_draft) == 2:
            voter = f.sapphire_draft[0].character
            assert voter is not None  # noqa: S101 - the first pick is the voter
            value = _value(f.sapphire_draft[1])
            f.votes[voter] = value
            f.how[voter] = "dictated"
            g.use("sapphire")
            g.emit(VoteDictated(seat=f.sapphire_seat, voter=voter, vote=value))
            g.emit(NeutralVoted(voter=voter, vote=value, how="dictated"))
            f.stage = 6
            return False
        return True

    # ------------------------------------------------------------------ sway
    def _sway_options(self, g: Game, f: VoteFrame, seat: Seat, draft: list[DraftItem]) -> list[Any]:
        """Return the legal next pick of ``seat``'s sway commitments (``draft`` is its flat pick list)."""
        step = len(draft) % 3
        remaining = self._remaining(f)
        if f.vote is VoteKind.REMOVE_HEAD:
            mine = {draft[i + 1].character for i in range(0, len(draft) - len(draft) % 3, 3)}
            if step == 1:
                mine.add(None)

            def heads_for(voter: int) -> list[int]:
                return [
                    h
                    for h in g.head_characters()
                    if h != voter and h not in f.used_heads and h not in mine and g.tokens(h)[seat] >= 1
                ]

            if step == 0:
                return [PickCharacter(character=v) for v in remaining if heads_for(v)]
            voter = draft[-1].character if step == 1 else draft[-2].character
            assert voter is not None  # noqa: S101 - the group starts with a voter
            if step == 1:
                return [PickCharacter(character=h) for h in heads_for(voter)]
            return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST)]
        staked: dict[int, int] = {}
        for i in range(0, len(draft) - len(draft) % 3, 3):
            land = g.land_of(draft[i].character or 0)
            if land is not None:
                staked[land] = staked.get(land, 0) + (draft[i + 1].amount or 0)

        def available(voter: int) -> int:
            land = g.land_of(voter)
            return 0 if land is None else g.land_row(land)[seat] - staked.get(land, 0)

        if step == 0:
            return [PickCharacter(character=v) for v in remaining if available(v) >= 1]
        voter = draft[-1].character if step == 1 else draft[-2].character
        assert voter is not None  # noqa: S101 - the group starts with a voter
        if step == 1:
            return [PickAmount(amount=k) for k in range(1, available(voter) + 1)]
        if f.vote is VoteKind.APPOINT:
            return [PickCharacter(character=c) for c in f.candidates]
        return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST)]

    def _open_sway(self, g: Game, f: VoteFrame) -> bool:
        if f.sway_round >= MAX_SWAY_ROUNDS or not self._remaining(f):
            f.stage = 7
            return False
        f.participants = [s for s in range(g.n) if self._sway_options(g, f, s, [])]
        f.drafts = {}
        f.subs = {}
        if not f.participants:
            f.stage = 7
            return False
        f.sway_round += 1
        f.stage = 61
        return True

    def _commitments(self, f: VoteFrame, seat: Seat, items: list[DraftItem]) -> list[Commitment]:
        out = []
        for i in range(0, len(items) - len(items) % 3, 3):
            voter = items[i].character
            assert voter is not None  # noqa: S101 - the group starts with a voter
            if f.vote is VoteKind.REMOVE_HEAD:
                out.append(Commitment(seat=seat, voter=voter, head=items[i + 1].character, choice=_value(items[i + 2])))
            else:
                out.append(
                    Commitment(seat=seat, voter=voter, amount=items[i + 1].amount or 0, choice=_value(items[i + 2]))
                )
        return out

    def _resolve_sway(self, g: Game, f: VoteFrame) -> bool:
        commitments = [c for s in f.participants for c in self._commitments(f, s, f.subs.get(s, []))]
        counted: list[tuple[Commitment, bool]] = []
        if f.vote is VoteKind.REMOVE_HEAD:
            by_head: dict[int, list[Commitment]] = {}
            for c in commitments:
                assert c.head is not None  # noqa: S101 - advice names a head
                by_head.setdefault(c.head, []).append(c)
            for head in sorted(by_head):
                group = by_head[head]
                winners = self._advice_winners(g, head, group)
                for c in group:
                    counted.append((c, c in winners))
                if winners:
                    f.used_heads.append(head)
                    for c in winners:
                        brothers = g.head_of(THE_BROTHERS) if THE_BROTHERS in g.pos else None
                        if not (head == brothers and g.controller(head) == c.seat):
                            g.remove(c.seat, 1, Reason.ADVICE, character=head)
                    tally = f.tallies.setdefault(winners[0].voter, {})
                    tally[winners[0].choice] = tally.get(winners[0].choice, 0) + 1
        else:
            for c in commitments:
                land = g.land_of(c.voter)
                assert land is not None  # noqa: S101 - land votes are cast by heads
                taken = g.remove(c.seat, c.amount, Reason.STAKE, land=land)
                tally = f.tallies.setdefault(c.voter, {})
                tally[c.choice] = tally.get(c.choice, 0) + taken
                counted.append((c, taken > 0))
        f.drafts = {}
        f.subs = {}
        g.emit(
            SwayRevealed(
                round=f.sway_round,
                commitments=tuple((c.seat, c.voter, c.head, c.amount, c.choice, ok) for c, ok in counted),
            )
        )
        return any(ok for _, ok in counted)

    def _advice_winners(self, g: Game, head: int, group: list[Commitment]) -> list[Commitment]:
        """Settle several advices through one head in one round (§11.3)."""
        if len(group) == 1:
            return group
        seats = [c.seat for c in group]
        controller = g.controller(head)
        if controller in seats:
            return [c for c in group if c.seat == controller]
        land = g.land_of(head)
        land_row = g.land_row(land) if land is not None else [0] * g.n

        def key(c: Commitment) -> tuple[int, int]:
            return (g.tokens(head)[c.seat], g.tokens(head)[c.seat] + land_row[c.seat])

        top = max(key(c) for c in group)
        best = [c for c in group if key(c) == top]
        if len(best) == 1:
            return best
        if len({(c.voter, c.choice) for c in best}) == 1:
            return best
        return []

    # ------------------------------------------------------------------ count
    def _resolve(self, g: Game, f: VoteFrame) -> None:
        for voter in self._remaining(f):
            tally = f.tallies.get(voter, {})
            top = max(tally.values(), default=0)
            best = [k for k, v in tally.items() if v == top]
            if top > 0 and len(best) == 1:
                f.votes[voter], f.how[voter] = best[0], "tally"
            elif f.vote is VoteKind.REMOVE_HEAD:
                f.votes[voter], f.how[voter] = CHARACTERS[voter].disposition.value, "disposition"
            else:
                f.votes[voter], f.how[voter] = NONE, "none"
            how: Any = f.how[voter]
            g.emit(NeutralVoted(voter=voter, vote=f.votes[voter], how=how))
        if f.vote is VoteKind.APPOINT:
            self._count_appointment(g, f)
            return
        for voter, seat in f.cast_by.items():
            vote = f.votes.get(voter)
            if g.has(voter, Trait.ENVIOUS):
                if vote == FOR:
                    g.place(seat, 1, Reason.ENVIOUS, character=voter)
                elif vote == AGAINST:
                    g.remove(seat, 1, Reason.ENVIOUS, character=voter, forced=True)
            if g.has(voter, Trait.NOBLE):
                if vote == FOR:
                    g.remove(seat, 1, Reason.NOBLE, character=voter, forced=True)
                elif vote == AGAINST:
                    g.place(seat, 1, Reason.NOBLE, character=voter)
        votes_for = sum(1 for v in f.voters if f.votes.get(v) == FOR)
        votes_against = sum(1 for v in f.voters if f.votes.get(v) == AGAINST)
        needed = HEAD_REMOVAL_VOTES if f.vote is VoteKind.REMOVE_HEAD else councillor_removal_votes(len(g.lands))
        passed = votes_for >= needed
        g.emit(
            VoteResolved(vote=f.vote, passed=passed, votes_for=votes_for, votes_against=votes_against, needed=needed)
        )
        g.pop()
        if not passed or f.subject is None:
            return
        subject = f.subject
        land = g.land_of(subject)
        chooser = g.controller(subject)
        dismiss(g, subject)
        vacancy = VacancyFrame()
        if land == FAR_GARRISON and chooser is not None:
            vacancy.chooser[FAR_GARRISON] = chooser
        g.push(vacancy)

    def _count_appointment(self, g: Game, f: VoteFrame) -> None:
        counts = dict.fromkeys(f.candidates, 0)
        for v in f.voters:
            value = f.votes.get(v, NONE)
            if value.isdigit() and int(value) in counts:
                counts[int(value)] += 1
        top = max(counts.values(), default=0)
        best = [c for c, k in counts.items() if k == top]
        tally = tuple(sorted(counts.items()))
        if top >= 1 and len(best) == 1:
            g.emit(VoteResolved(vote=f.vote, passed=True, winner=best[0], tally=tally))
            self._appoint(g, f, best[0], None)
            return
        tied = best if top >= 1 else list(f.candidates)
        chooser = g.appointer(from_treasurer=f.council == CouncilSeat.PRIVY.value)
        default = first_by_keys(g, tied)
        g.emit(VoteResolved(vote=f.vote, passed=False, tally=tally))
        if chooser is None:
            self._appoint(g, f, default, None)
            return
        f.stage = 8
        g.push(
            PickFrame(
                seat=chooser, decision=Decision.APPOINT, candidates=sorted(tied), default=default, council=f.council
            )
        )

    def _appoint(self, g: Game, f: VoteFrame, winner: int, by: Seat | None) -> None:
        assert f.council is not None  # noqa: S101 - appointment votes fill a council seat
        index = [s.value for s in COUNCIL_SEATS].index(f.council)
        g.pop()
        seat_council(g, index, winner, "vote" if by is None else "choice", by)

    # ------------------------------------------------------------------ decisions
    @override
    def active(self, g: Game, f: VoteFrame) -> list[Seat]:
        if f.stage in (3, 61):
            return [s for s in f.participants if s not in f.subs]
        if f.stage == 5 and f.sapphire_seat is not None:
            return [f.sapphire_seat]
        return []

    @override
    def legal(self, g: Game, f: VoteFrame, seat: Seat) -> list[Any]:
        if f.stage == 3:
            draft = f.drafts.get(seat, [])
            items = self._items(g, f, seat)
            out: list[Any] = []
            if len(draft) < len(items):
                step, _ = items[len(draft)]
                out = self._ballot_options(f, step)
            if draft:
                out.append(BACK)
            out.append(DONE)
            return out
        if f.stage == 61:
            draft = f.drafts.get(seat, [])
            out = self._sway_options(g, f, seat, draft)
            if draft:
                out.append(BACK)
            if len(draft) % 3 == 0:
                out.append(DONE)
            out.append(SKIP)
            return out
        # Сапфировые Озёра
        if not f.sapphire_draft:
            return [*(PickCharacter(character=v) for v in self._remaining(f)), SKIP]
        if f.vote is VoteKind.APPOINT:
            opts: list[Any] = [PickCharacter(character=c) for c in f.candidates]
            return [*opts, PickSide(side=Side.ABSTAIN), BACK, SKIP]
        return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST), PickSide(side=Side.ABSTAIN), BACK, SKIP]

    def _ballot_options(self, f: VoteFrame, step: str) -> list[Any]:
        if step == "pref":
            return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST), PickSide(side=Side.NONE)]
        if f.vote is VoteKind.APPOINT:
            return [*(PickCharacter(character=c) for c in f.candidates), PickSide(side=Side.ABSTAIN)]
        return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST), PickSide(side=Side.ABSTAIN)]

    @override
    def act(self, g: Game, f: VoteFrame, seat: Seat, action: Any) -> None:
        if f.stage == 3:
            draft = f.drafts.setdefault(seat, [])
            if action == BACK:
                draft.pop()
                return
            items = self._items(g, f, seat)
            if action != DONE:
                step, voter = items[len(draft)]
                draft.append(self._entry(step, voter, action))
            if action == DONE or len(draft) == len(items):
                f.subs[seat] = list(draft)
                g.emit(SubmissionReceived(seat=seat, decision=Decision.BALLOT))
            return
        if f.stage == 61:
            draft = f.drafts.setdefault(seat, [])
            if action == BACK:
                draft.pop()
                return
            if action in (DONE, SKIP):
                f.subs[seat] = list(draft) if action == DONE else []
                g.emit(SubmissionReceived(seat=seat, decision=Decision.SWAY))
                return
            step = ("voter", "head" if f.vote is VoteKind.REMOVE_HEAD else "amount", "side")[len(draft) % 3]
            draft.append(self._pick(step, action))
            return
        if action == SKIP:
            f.stage = 6
            f.sapphire_seat = None
            return
        if action == BACK:
            f.sapphire_draft.pop()
            return
        f.sapphire_draft.append(self._pick("voter" if not f.sapphire_draft else "side", action))

    def _entry(self, step: str, voter: int, action: Any) -> DraftItem:
        if isinstance(action, PickCharacter):
            return DraftItem(step=step, character=voter, candidate=action.character)
        return DraftItem(step=step, character=voter, side=action.side)

    def _pick(self, step: str, action: Any) -> DraftItem:
        if isinstance(action, PickAmount):
            return DraftItem(step=step, amount=action.amount)
        if isinstance(action, PickSide):
            return DraftItem(step=step, side=action.side)
        if step == "side":
            return DraftItem(step=step, candidate=action.character)
        return DraftItem(step=step, character=action.character)

    @override
    def default(self, g: Game, f: VoteFrame, seat: Seat) -> Any:
        if f.stage == 3:
            return DONE
        return SKIP

    @override
    def pending(self, g: Game, f: VoteFrame) -> PendingView:
        decision = {3: Decision.BALLOT, 61: Decision.SWAY}.get(f.stage, Decision.SAPPHIRE)
        step = {3: "ballot", 61: "sway"}.get(f.stage, "sapphire")
        return pending(
            decision,
            self.active(g, f),
            step=step,
            actor=f.caller,
            character=f.subject,
            vote=f.vote,
            submitted=tuple(sorted(f.subs)),
        )

    @override
    def draft(self, g: Game, f: VoteFrame, seat: Seat) -> DraftView | None:
        if f.stage == 5 and seat == f.sapphire_seat:
            step = "voter" if not f.sapphire_draft else "vote"
            return DraftView(decision=Decision.SAPPHIRE, step=step, items=tuple(f.sapphire_draft))
        if f.stage not in (3, 61) or seat in f.subs or seat not in f.participants:
            return None
        draft = f.drafts.get(seat, [])
        if f.stage == 3:
            items = self._items(g, f, seat)
            step = f"{items[len(draft)][0]}:{items[len(draft)][1]}" if len(draft) < len(items) else "done"
            return DraftView(decision=Decision.BALLOT, step=step, items=tuple(draft))
        step = ("voter", "head" if f.vote is VoteKind.REMOVE_HEAD else "amount", "side")[len(draft) % 3]
        return DraftView(decision=Decision.SWAY, step=step, items=tuple(draft))

    @override
    def submission(self, g: Game, f: VoteFrame, seat: Seat) -> DraftView | None:
        if f.stage not in (3, 61) or seat not in f.subs:
            return None
        decision = Decision.BALLOT if f.stage == 3 else Decision.SWAY
        return DraftView(decision=decision, step="submitted", items=tuple(f.subs[seat]))


BACK: Any = Back()
DONE: Any = Done()
SKIP: Any = Skip()


# ----------------------------------------------------------------------------- election
@register("election")
class ElectionRules(Rules):
    """Избрание Советом (§12.1): W3, then the caller must control 4 of the 5 council seats.

    Not an interrupt: victory is tested after each free action of its W3 (§3.7), so a coup or a will
    of the people met there ends the game at once; the election itself counts only as it resolves,
    after W3 (§12.6).
    """

    @override
    def run(self, g: Game, f: ElectionFrame) -> bool:
        if f.stage == 0:
            g.emit(ElectionCalled(seat=f.seat, character=f.character))
            f.stage = 1
            g.push(WindowFrame(window=Window.W3))
            return False
        seats = g.controls(f.seat, g.councillors())
        won = seats >= ELECTION_SEATS
        g.emit(ElectionResolved(seat=f.seat, seats=seats, won=won))
        if won:
            finish(g, Victory.ELECTION, f.seat)
        else:
            g.pop()
        return False


_STAGES = {
    0: "call",
    1: "window",
    2: "voters",
    3: "ballots",
    5: "sapphire",
    6: "sway",
    61: "sway",
    7: "count",
    8: "tie",
}


def vote_view(g: Game, f: VoteFrame) -> VoteView:
    """Return the public picture of the vote in progress (cast votes and tallies appear once revealed)."""
    voters = tuple(
        VoterView(
            character=v,
            vote=f.votes.get(v),
            cast_by=f.cast_by.get(v) if v in f.votes else None,
            how=f.how.get(v),
            tally=tuple(sorted(f.tallies.get(v, {}).items())),
        )
        for v in f.voters
    )
    if f.vote is VoteKind.REMOVE_HEAD:
        needed = HEAD_REMOVAL_VOTES
    elif f.vote is VoteKind.REMOVE_COUNCILLOR:
        needed = councillor_removal_votes(len(g.lands))
    else:
        needed = 1
    council: Any = f.council
    return VoteView(
        vote=f.vote,
        caller=f.caller,
        via=f.via,
        subject=f.subject,
        council=council,
        voters=voters,
        candidates=tuple(f.candidates),
        needed=needed,
        stage=_STAGES.get(f.stage, str(f.stage)),
        sway_round=f.sway_round,
        revealed=f.revealed,
        used_heads=tuple(f.used_heads),
    )
