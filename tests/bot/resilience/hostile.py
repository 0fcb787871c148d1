"""A hostile member against the limits: lobby floods, join-everything, rematch spam, click spam.

:func:`run_hostile` drives the real bot on SimCord with the limits as shipped (the other SimCord
tests turn the click limit and the cooldown off) and returns a :class:`HostileReport`: how many of
the troll's attempts were let through and how many were refused, and by which rule. Every refusal
must be a private answer; the checks after each part say what "holding" means:

- *lobby flood*: ``/… new`` over and over, across every game: never more open lobbies than the cap,
  the rest refused by the cooldown or the cap, and every lobby gone once its expiry passes;
- *server flood*: many members open a table each: never more live tables than the server's cap;
- *join everything*: the troll joins every lobby; each host removes them and they cannot rejoin;
- *rematch spam*: a finished table's Rematch pressed again and again: exactly one rematch lobby;
- *click spam*: "My cards" clicked many times at one instant: at most the burst answered with a
  panel, the rest "too fast", the game unchanged, and another member is not slowed down;
- *hostile names*: the troll and the hosts carry nicknames made of mention syntax, masked links,
  markdown and invisible characters; afterwards every message the bot sent is read back: no
  masked link, no live ``@everyone``, no invisible character, no mention of the member the names
  point at, and every message names whom it may ping (players only).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from discord import app_commands
from simcord.actors import MemberActor

from bot.errors import unwrap
from bot.i18n import translate
from bot.settings import Settings
from games.core import GameError
from tests.bot.resilience.registry import discord_games
from tests.support import World, private_text

#: The limits as shipped; the caps are the defaults too.
SHIPPED = Settings(_env_file=None)


@dataclass
class HostileReport:
    """What the troll tried and what the limits let through."""

    attempts: Counter[str] = field(default_factory=Counter)
    allowed: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    most_open_lobbies: int = 0
    errors_seen: int = 0

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.problems.append(what)


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def _refusal(text: str) -> str:
    """Name the rule behind a private refusal (by its English text)."""
    known = {
        en("ui.error.too_fast"): "too_fast",
        en("table.lobby_limit", max=SHIPPED.max_lobbies_per_member): "lobby_cap",
        en("table.server_limit", max=SHIPPED.max_tables_per_server): "server_cap",
        en("table.removed"): "removed",
    }
    known.update(
        {en("ui.error.cooldown", seconds=n): "cooldown" for n in range(int(SHIPPED.open_table_cooldown_seconds) + 2)}
    )
    if text in known:
        return known[text]
    if text.startswith(en("ui.lobby.rematch_open", url="")):
        return "rematch_already_open"
    return "other: " + text[:80]


def acknowledge_refusals(world: World, report: HostileReport) -> None:
    """Take the errors SimCord captured from refused commands; each must be a rule answered privately."""
    for error in world.env.errors[report.errors_seen :]:
        cause = unwrap(error)
        report.check(isinstance(cause, GameError | app_commands.CommandOnCooldown), f"a bug: {error!r}")
    report.errors_seen = len(world.env.errors)


def check_sent_messages(world: World, humans: set[int], victim: int, report: HostileReport) -> None:
    """Read back every message the bot sent: what hostile names could do to it, it must not do."""
    from tests.bot.ui.test_ui_names import EVERYONE, INVISIBLE, MASKED_LINK, component_texts, message_payloads

    for what, payload in message_payloads(world):
        report.attempts["messages_checked"] += 1
        texts = [payload.get("content") or ""]
        for embed in payload.get("embeds") or []:
            texts.extend([embed.get("title") or "", embed.get("description") or ""])
            texts.extend(f"{f.get('name')} {f.get('value')}" for f in embed.get("fields") or [])
        text = "\n".join(texts)
        labels = "\n".join(component_texts(payload.get("components") or []))
        report.check(not MASKED_LINK.search(text), f"{what}: a masked link: {text[:200]!r}")
        report.check(not EVERYONE.search(text), f"{what}: a live @everyone/@here: {text[:200]!r}")
        report.check(not (INVISIBLE & set(text + labels)), f"{what}: an invisible character")
        report.check(f"<@{victim}>" not in text, f"{what}: the victim is mentioned")
        if "content" in payload or "embeds" in payload:
            mentions = payload.get("allowed_mentions")
            report.check(mentions is not None and mentions.get("parse") == [], f"{what}: may ping {mentions}")
            pinged = {int(u) for u in (mentions or {}).get("users") or []}
            report.check(pinged <= humans, f"{what}: pings {pinged - humans}")


async def lobby_flood(world: World, troll: MemberActor, report: HostileReport, *, attempts: int) -> None:
    """``/<game> new`` ``attempts`` times over every game, a few seconds apart; then let them expire."""
    games = discord_games()
    for index in range(attempts):
        game = games[index % len(games)]
        before = set(world.service.tables)
        result = await troll.slash(world.channel, f"{game} new")
        report.attempts["lobby_flood"] += 1
        if result.ephemeral:
            report.refused[_refusal(private_text(result))] += 1
        else:
            report.allowed["lobby_flood"] += 1
            report.check(len(set(world.service.tables) - before) == 1, "a public answer opened no lobby")
        mine = [t for t in world.service.tables.values() if t.host_id == troll.id and t.status == "lobby"]
        report.most_open_lobbies = max(report.most_open_lobbies, len(mine))
        await world.env.advance_time(7)
    acknowledge_refusals(world, report)
    report.check(
        report.most_open_lobbies <= SHIPPED.max_lobbies_per_member,
        f"{report.most_open_lobbies} open lobbies > cap {SHIPPED.max_lobbies_per_member}",
    )
    await world.env.advance_time(SHIPPED.lobby_expiry_minutes * 60 + 1)
    left = [t.id for t in world.service.tables.values() if t.host_id == troll.id and t.status == "lobby"]
    report.check(not left, f"lobbies left after their expiry: {left}")


async def server_flood(world: World, report: HostileReport) -> None:
    """Many members open a table each, past the server's cap; then every table is cancelled again."""
    cap = SHIPPED.max_tables_per_server
    live = sum(1 for t in world.service.tables.values() if t.guild_id == world.guild.id)
    for index in range(cap - live + 5):
        host = world.member(f"flood{index}")
        result = await host.slash(world.channel, "coup new")
        report.attempts["server_flood"] += 1
        if result.ephemeral:
            report.refused[_refusal(private_text(result))] += 1
        else:
            report.allowed["server_flood"] += 1
        await world.env.advance_time(0.1)
    acknowledge_refusals(world, report)
    mine = [t for t in world.service.tables.values() if t.guild_id == world.guild.id]
    report.check(len(mine) <= cap, f"{len(mine)} live tables > server cap {cap}")
    for table in mine:
        await world.service.cancel(table.id, table.host_id, is_moderator=True)


async def join_everything(world: World, troll: MemberActor, hosts: list[MemberActor], report: HostileReport) -> None:
    """The troll joins every open lobby; each host removes them; a second join is refused."""
    for host in hosts:
        table_id = await world.new_table(host)
        await world.env.advance_time(1)
        joined = await world.lobby_click(troll, table_id, "join")
        report.attempts["join_everything"] += 1
        if joined.ephemeral:
            report.refused[_refusal(private_text(joined))] += 1
            continue
        report.allowed["join_everything"] += 1
        await world.env.advance_time(1)
        removed = await host.select(world.lobby(table_id), [str(troll.id)], custom_id=f"lobbys:{table_id}:kick")
        report.check(not removed.ephemeral, f"the host could not remove the troll: {private_text(removed)}")
        await world.env.advance_time(1)
        again = await world.lobby_click(troll, table_id, "join")
        report.attempts["join_everything"] += 1
        if again.ephemeral:
            report.refused[_refusal(private_text(again))] += 1
        else:
            report.problems.append(f"the removed troll joined table {table_id} again")
        seated = {s.user_id for s in world.table(table_id).seats}
        report.check(troll.id not in seated, f"the troll sits at table {table_id}")
        await world.lobby_click(host, table_id, "cancel")


async def rematch_spam(
    world: World, troll: MemberActor, other: MemberActor, report: HostileReport, *, presses: int
) -> None:
    """Finish a duel (the other resigns), then press its Rematch ``presses`` times."""
    await world.env.advance_time(SHIPPED.open_table_cooldown_seconds + 1)
    table_id = await world.seat(troll, other)
    await world.env.advance_time(1)
    confirm = await world.table_button(other, table_id, "resign")
    assert confirm.response is not None
    await other.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")
    before = set(world.service.tables)
    for index in range(presses):
        result = await troll.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")
        report.attempts["rematch_spam"] += 1
        text = private_text(result)
        if text.startswith(en("ui.lobby.created")):
            report.allowed["rematch_spam"] += 1
        else:
            report.refused[_refusal(text)] += 1
        if index % 3 == 2:
            await world.env.advance_time(1)
    rematches = [t for t in world.service.tables.values() if t.id not in before and t.rematch_of == table_id]
    report.check(len(rematches) == 1, f"{len(rematches)} rematch lobbies of one table")
    for table in rematches:
        report.check([s.user_id for s in table.seats] == [troll.id], "a rematch seated someone who did not join")


async def click_spam(
    world: World, troll: MemberActor, other: MemberActor, report: HostileReport, *, clicks: int
) -> None:
    """Click "My cards" ``clicks`` times at one instant; the game must not change, ``other`` not slowed."""
    await world.env.advance_time(SHIPPED.open_table_cooldown_seconds + 1)
    table_id = await world.seat(troll, other)
    await world.env.advance_time(SHIPPED.click_burst / SHIPPED.clicks_per_second + 1)
    before = await world.db_snapshot(table_id)
    panels = 0
    for _ in range(clicks):
        result = await world.open_panel(troll, table_id)
        report.attempts["click_spam"] += 1
        text = private_text(result)
        if text == en("ui.error.too_fast"):
            report.refused["too_fast"] += 1
        else:
            panels += 1
            report.allowed["click_spam"] += 1
    report.check(panels <= SHIPPED.click_burst, f"{panels} panels at one instant > burst {SHIPPED.click_burst}")
    report.check(await world.db_snapshot(table_id) == before, "click spam changed the table")
    answer = await world.open_panel(other, table_id)
    report.check(private_text(answer) != en("ui.error.too_fast"), "another member was slowed down by the troll")
