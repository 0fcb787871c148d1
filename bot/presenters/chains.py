"""Chained choices: one select option that takes several sub-steps of one decision at once.

A decision split by its engine into sub-steps (a character, its action, a card, a target…) costs a
click per step. A *chain* is a select option whose value is the whole sequence of encoded actions
(:data:`CHAIN_SEP` between them); the Discord layer applies it through
:meth:`bot.tables.TableService.act_many`, all or nothing, against the prompt version in the select's
custom id, so a stale or no-longer-legal chain is refused and applies nothing, as any click is.

The chains are enumerated by asking the engine (an :data:`bot.presenters.Explore`: the viewer's view
and legal actions after some of its actions), never by repeating rules here. A presenter says which
actions may *continue* a chain: only picks the engine keeps in the seat's private, undoable draft, so
nothing reaches the game (and no new information reaches the player) before the chain's last action,
exactly as if the steps were clicked one by one.

:func:`expand` grows the options breadth first: an option is replaced by all its continuations while
the list stays within ``limit`` (Discord's 25 options). The step-by-step choices (the roots) always
stay, so a chain only ever adds a shortcut: every sequence stays reachable one step at a time, and
a chain that stops at a later step leaves its remaining picks to that step's panel (chained again).
:func:`runs` fills the room left with one pick repeated and closed (two investments in one land,
then pay), the engine checking every step as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.codec import encode_action

#: Joins the encoded actions of a chain in a select option's value (the codec never uses it).
CHAIN_SEP = ","
#: Discord's limit on a select option's value and label.
MAX_VALUE = 100
MAX_LABEL = 100
#: Options of one select.
MAX_OPTIONS = 25
#: The longest run of one repeated pick :func:`runs` offers (a basket rarely holds more).
MAX_RUN = 5


@dataclass(frozen=True)
class Chain:
    """A choice's action that is a sequence of engine actions, applied together (a chained option)."""

    actions: tuple[Any, ...]


def encode_choice(action: Any) -> str:
    """Return a component value: the encoded action, or a chain's encoded actions joined by :data:`CHAIN_SEP`."""
    if isinstance(action, Chain):
        return CHAIN_SEP.join(encode_action(a) for a in action.actions)
    return encode_action(action)


@dataclass(frozen=True)
class Link:
    """One option being built: its actions in order and the label of each step."""

    actions: tuple[Any, ...]
    labels: tuple[str, ...]

    def value(self) -> str:
        """Return the option's value: the encoded actions joined by :data:`CHAIN_SEP`."""
        return CHAIN_SEP.join(encode_action(a) for a in self.actions)


#: Returns a chain's continuations, (action, its step's label) pairs (none: the chain ends there), and
#: whether an option stopping there must stay offered beside them (the step there has answers that
#: cannot be chained, so only that option leads to them).
Continue = Callable[[tuple[Any, ...]], tuple[list[tuple[Any, str]], bool]]


def expand(
    roots: Sequence[Link], continuations: Continue, *, limit: int = MAX_OPTIONS, join: str = " → "
) -> list[Link]:
    """Return ``roots`` grown into chains, breadth first, within ``limit`` options.

    ``continuations(actions)`` returns the chainable next steps after ``actions`` and whether an
    option stopping at ``actions`` must stay (the step there has answers that cannot be chained).
    The roots always stay: they are the step-by-step choices, so a player may still go one step at a
    time, and every chain is an addition beside them.
    A link is replaced by its continuations only when they all fit: the list stays within
    ``limit``, every value within :data:`MAX_VALUE` and every label within :data:`MAX_LABEL`
    characters (a label is never cut, so two options never read alike). At each depth the links
    that repeat one answer (“for, for”) are grown first: a player often answers a run of steps alike.
    """
    links = list(roots)
    frontier = list(roots)
    first = {id(link) for link in roots}
    while frontier:
        frontier.sort(key=lambda link: len({encode_action(a) for a in link.actions}))
        grown: list[Link] = []
        for link in frontier:
            steps, keep = continuations(link.actions)
            keep = keep or id(link) in first  # a step-by-step choice always stays offered
            if not steps:
                continue
            kids = [Link((*link.actions, a), (*link.labels, label)) for a, label in steps]
            if any(len(k.value()) > MAX_VALUE or len(join.join(k.labels)) > MAX_LABEL for k in kids):
                continue
            if len(links) - (0 if keep else 1) + len(kids) > limit:
                continue
            index = links.index(link)
            # The link itself stays before its continuations when it is an answer of its own.
            links[index + 1 if keep else index : index + 1] = kids
            grown.extend(kids)
        frontier = grown
    return links


def runs(
    roots: Sequence[Link],
    continuations: Continue,
    closing: Callable[[Any], bool],
    *,
    room: int,
    join: str = " → ",
) -> list[Link]:
    """Return shortcuts beside ``roots``: each root's action repeated, closed by its decision's closing pick.

    A player often answers a run of steps alike (two investments in one land, three spies, then
    pay): for ``k`` = 1, 2, … and every root, the root's action ``k`` times followed by the closing
    action (``closing``: Done) when the engine offers it there, or alone when the ``k``-th pick
    completes the decision (no continuation left). Every step is one of ``continuations``, so each
    shortcut is the engine's own sequence; at most ``room`` are returned, shortest runs first, and
    none over :data:`MAX_VALUE` or :data:`MAX_LABEL` characters.
    """
    out: list[Link] = []
    live = list(roots) if room > 0 else []
    while live and len(out) < room and len(live[0].actions) <= MAX_RUN:
        grown: list[Link] = []
        for link in live:
            if len(out) >= room:
                break  # each look ahead replays the picks on a copy: none beyond what can be shown
            steps, _ = continuations(link.actions)
            if not steps and len(link.actions) > 1:
                out.append(link)  # the run completes the decision by itself
                continue
            close = next(((a, label) for a, label in steps if closing(a)), None)
            if close is not None:
                out.append(Link((*link.actions, close[0]), (*link.labels, close[1])))
            again = next(((a, label) for a, label in steps if a == link.actions[0]), None)
            if again is not None:
                grown.append(Link((*link.actions, again[0]), (*link.labels, again[1])))
        live = grown
    fitting = [link for link in out if len(link.value()) <= MAX_VALUE and len(join.join(link.labels)) <= MAX_LABEL]
    return fitting[:room]
