"""Scenario tests of the Coup AI: each behaviour it must show at the table, from a hand-built view.

The views are built directly (``CoupView`` is all the AI reads), so each scenario states exactly
what the AI can see: its own hand, the revealed cards, the coins and the size of the court deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.core import GameRng
from games.coup.ai import CoupAgent, Reading
from games.coup.engine import CoupEngine
from games.coup.models import (
    ActionKind,
    Allow,
    Assassinate,
    Block,
    Card,
    Challenge,
    CollectTax,
    CoupOptions,
    CoupView,
    DraftCard,
    ExchangeCards,
    LaunchCoup,
    PendingActionView,
    PendingBlockView,
    Phase,
    PlayerView,
    Steal,
    TakeForeignAid,
    TakeIncome,
)

AI = CoupAgent()
D, AS, CA, AM, CO = Card.DUKE, Card.ASSASSIN, Card.CAPTAIN, Card.AMBASSADOR, Card.CONTESSA


def seat(
    index: int, *, coins: int = 2, hidden: int = 2, revealed: Sequence[Card] = (), hand: Sequence[Card] | None = None
) -> PlayerView:
    """Return one seat as the viewer sees it (``hand`` only for the viewer)."""
    return PlayerView(
        seat=index,
        coins=coins,
        revealed=tuple(revealed),
        hidden_count=hidden if hand is None else len(hand),
        alive=(hidden if hand is None else len(hand)) > 0,
        hand=None if hand is None else tuple(hand),
    )


def table(
    players: Sequence[PlayerView],
    viewer: int,
    *,
    deck: int | None = None,
    phase: Phase = Phase.DECLARE,
    action: PendingActionView | None = None,
    block: PendingBlockView | None = None,
) -> CoupView:
    """Return ``viewer``'s view of a table; the court deck holds the cards not in play unless ``deck``."""
    in_play = sum(p.hidden_count + len(p.revealed) for p in players)
    return CoupView(
        viewer=viewer,
        num_seats=len(players),
        version=10,
        phase=phase,
        turn=action.actor if action is not None else viewer,
        first_seat=0,
        players=tuple(players),
        deck_size=15 - in_play if deck is None else deck,
        action=action,
        block=block,
    )


def responses(view: CoupView, legal: list[Any], tries: int = 40) -> Counter[str]:
    """Return what the AI answers over ``tries`` generators (its choice must not hang on one draw)."""
    return Counter(AI.choose(view, legal, GameRng(f"scenario-{i}")).kind for i in range(tries))


def test_it_challenges_a_duke_claim_when_all_three_dukes_are_accounted_for() -> None:
    # Two Dukes in its hand, the third revealed by seat 2: seat 0's tax can only be a bluff.
    players = [seat(0), seat(1, hand=(D, D)), seat(2, hidden=1, revealed=(D,))]
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=tax_by(0))
    assert responses(view, [Challenge(), Allow()]) == Counter({"challenge": 40})


def test_it_challenges_a_sure_bluff_rather_than_block_with_a_card_it_holds() -> None:
    # Its steal can be blocked with its own Captain, but every Captain is in sight: catching the bluff costs
    # the thief an influence, a block would not.
    players = [seat(0, hand=(CA, CA)), seat(1, coins=3, hidden=1, revealed=(CA,))]
    steal = PendingActionView(action=ActionKind.STEAL, actor=1, target=0, claim=CA)
    view = table(players, 0, phase=Phase.RESPOND_ACTION, action=steal)
    assert responses(view, [Challenge(), Block(card=CA), Block(card=AM), Allow()]) == Counter({"challenge": 40})


def test_it_blocks_an_assassination_with_a_contessa_it_holds() -> None:
    players = [seat(0, coins=0), seat(1, hand=(CO, D))]
    kill = PendingActionView(action=ActionKind.ASSASSINATE, actor=0, target=1, claim=AS)
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=kill)
    assert responses(view, [Challenge(), Block(card=CO), Allow()]) == Counter({"block": 40})


def test_it_blocks_foreign_aid_with_a_duke_it_holds() -> None:
    players = [seat(0, coins=5), seat(1, hand=(D, AM)), seat(2)]
    aid = PendingActionView(action=ActionKind.FOREIGN_AID, actor=0)
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=aid)
    assert responses(view, [Block(card=D), Allow()]) == Counter({"block": 40})


def test_it_does_not_challenge_a_claim_it_cannot_win() -> None:
    # Its last influence against a tax nobody can disprove (no Duke in sight): a lost challenge ends its game.
    players = [seat(0), seat(1, hand=(CA,), revealed=(AS,)), seat(2)]
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=tax_by(0))
    assert responses(view, [Challenge(), Allow()]) == Counter({"allow": 40})


def test_it_challenges_a_likely_bluff_that_would_win_it_the_duel() -> None:
    # Head to head, it holds two Dukes; the opponent is down to one card and claims the third Duke. One
    # unseen card in twelve is a Duke: catching the bluff ends the game.
    players = [seat(0, hidden=1, revealed=(CO,)), seat(1, hand=(D, D))]
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=tax_by(0))
    assert responses(view, [Challenge(), Allow()]) == Counter({"challenge": 40})


def test_with_two_cards_against_one_it_does_not_stake_its_lead_on_a_likely_true_claim() -> None:
    # Head to head it leads two cards to one. A Duke claim it cannot disprove is probably true; a lost
    # challenge would throw the lead away for a three-coin tax, so it lets the tax stand.
    players = [seat(0, hidden=1, revealed=(AM,)), seat(1, hand=(CA, CO))]
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=tax_by(0))
    assert responses(view, [Challenge(), Allow()]) == Counter({"allow": 40})


def test_it_reads_a_last_card_as_the_better_one_kept() -> None:
    # A player that gave up a Captain more likely kept a Duke (better) than a Contessa (worse), though the
    # plain count has three of each unseen.
    view = table([seat(0, hidden=1, revealed=(CA,)), seat(1, hand=(AS, AM)), seat(2)], 1)
    reading = Reading(view)
    assert reading.holds(0, D) > 2 * reading.holds(0, CO)
    assert reading.holds(2, D) == reading.holds(2, CO)  # two face-down cards: the count alone


def test_in_the_draft_it_counts_only_the_seven_cards_dealt() -> None:
    # Draft deal: one set of five shared out plus each player's pick (7 cards). It holds two Dukes, so the
    # shared set's Duke is its own; the opponent revealed a Contessa and could hold a Duke only had it
    # drafted one and been dealt the Contessa. A standard deal with the same cards in sight would leave a
    # Duke unseen; here a Duke claim is a long shot worth calling.
    players = [seat(0, hidden=1, revealed=(CO,)), seat(1, hand=(D, D))]
    draft_view = table(players, 1, deck=3, phase=Phase.RESPOND_ACTION, action=tax_by(0))
    reading = Reading(draft_view)
    assert reading.draft
    assert reading.holds(0, D) < 0.2
    assert reading.holds(0, AS) > reading.holds(0, D)
    assert responses(draft_view, [Challenge(), Allow()]) == Counter({"challenge": 40})


def test_it_challenges_a_block_that_stops_its_winning_assassination_when_contessas_are_scarce() -> None:
    # Its assassination would end the duel; the target blocks claiming Contessa while two Contessas are in
    # its own hand and the target has one card left.
    players = [seat(0, coins=0, hand=(CO, CO)), seat(1, hidden=1, revealed=(D,))]
    kill = PendingActionView(action=ActionKind.ASSASSINATE, actor=0, target=1, claim=AS)
    view = table(players, 0, phase=Phase.RESPOND_BLOCK, action=kill, block=PendingBlockView(blocker=1, card=CO))
    assert responses(view, [Challenge(), Allow()]) == Counter({"challenge": 40})


def test_facing_a_fatal_assassination_without_a_contessa_it_fights_back() -> None:
    # Its last card is not a Contessa: allowing loses the game, so it bluffs a Contessa or challenges.
    players = [seat(0, coins=1), seat(1, hand=(D,), revealed=(CA,)), seat(2)]
    kill = PendingActionView(action=ActionKind.ASSASSINATE, actor=0, target=1, claim=AS)
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=kill)
    answers = responses(view, [Challenge(), Block(card=CO), Allow()])
    assert answers["allow"] == 0


def test_it_bluffs_a_block_of_a_steal_sometimes_but_not_always() -> None:
    # Head to head, no Captain or Ambassador in hand, nothing revealed: a bluffed block of a steal is a mixed
    # choice (a certainty would be read by any opponent).
    players = [seat(0, coins=2), seat(1, coins=6, hand=(D, CO))]
    steal = PendingActionView(action=ActionKind.STEAL, actor=0, target=1, claim=CA)
    view = table(players, 1, phase=Phase.RESPOND_ACTION, action=steal)
    answers = responses(view, [Challenge(), Block(card=CA), Block(card=AM), Allow()], tries=200)
    assert answers["block"] > 0
    assert answers["allow"] + answers["challenge"] > 0


def test_it_assassinates_with_an_assassin_when_the_target_cannot_hide_behind_a_contessa() -> None:
    # Every Contessa is in sight (one in its hand, two revealed), so the duel's assassination can only be
    # blocked by a bluff; three coins buy the opponent's influence, which income never would.
    players = [seat(0, coins=3, hand=(AS, CO)), seat(1, coins=1, hidden=1, revealed=(CO,))]
    players.append(seat(2, hidden=0, revealed=(CO, AM)))
    view = table(players, 0)
    legal = [a for a in declare_options(view) if getattr(a, "target", None) != 2]
    chosen = Counter(AI.choose(view, legal, GameRng(f"kill-{i}")) for i in range(40))
    assert chosen == Counter({Assassinate(target=1): 40})


def test_it_steals_head_to_head_from_a_rich_opponent_with_its_captain() -> None:
    # Its Captain and no Duke; the opponent has 6 coins and can block only with an unseen Captain or
    # Ambassador (one Ambassador is revealed): a steal (a four-coin swing) beats income and a tax bluff.
    players = [seat(0, coins=6, hidden=1, revealed=(AM,)), seat(1, coins=2, hand=(CA, CO))]
    view = table(players, 1)
    legal = declare_options(view)
    chosen = Counter(AI.choose(view, legal, GameRng(f"steal-{i}")).kind for i in range(40))
    assert chosen.most_common(1)[0][0] == "steal"


def test_it_coups_when_it_can_on_the_strongest_opponent() -> None:
    players = [seat(0, coins=7, hand=(CA, CO)), seat(1, coins=3, hidden=1, revealed=(D,)), seat(2, coins=1)]
    view = table(players, 0)
    assert AI.choose(view, declare_options(view), GameRng("coup")) == LaunchCoup(target=2)


def test_its_draft_pick_is_mixed() -> None:
    engine = CoupEngine()
    state = engine.setup(2, CoupOptions(draft=True, first_seat=0), "draft-mix").state
    picks = set()
    for seat_ in (0, 1):
        view = engine.view(state, seat_)
        legal = engine.legal_actions(state, seat_)
        picks |= {AI.choose(view, legal, GameRng(f"pick-{seat_}-{i}")).card for i in range(60)}
        assert all(isinstance(a, DraftCard) for a in legal)
    assert len(picks) >= 4


def tax_by(actor: int) -> PendingActionView:
    """Return a pending tax declared by ``actor``."""
    return PendingActionView(action=ActionKind.TAX, actor=actor, claim=D)


def declare_options(view: CoupView) -> list[Any]:
    """Return the declare options of ``view``'s seat, as the engine lists them."""
    me = view.players[view.viewer or 0]
    targets = [p.seat for p in view.players if p.alive and p.seat != me.seat]
    out: list[Any] = [TakeIncome(), TakeForeignAid()]
    if me.coins >= 7:
        out.extend(LaunchCoup(target=t) for t in targets)
    out.append(CollectTax())
    if me.coins >= 3:
        out.extend(Assassinate(target=t) for t in targets)
    out.extend(Steal(target=t) for t in targets)
    out.append(ExchangeCards())
    return out
