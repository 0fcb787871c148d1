"""The lines a game's log shows for the events of one step, for the board, the Log button and replays.

An engine reports everything that happened, including bookkeeping a reader does not need ("X
allows", "X's turn"). What a log shows is decided here, generically, with two optional hooks of a
game's presenter:

* ``log_filler``: event kinds never shown (a frozenset of kinds): their news is in the next line.
* ``log_lines(events, names, locale)``: the game's own lines for one step's events, where several
  events belong together in one line (an Intrigue bribe is one line, not five). It receives only
  the events the reader may see, already without filler.

Hidden information: the board and a live table's Log show public events only (``hidden=False``);
after the game the private events are narrated too, each marked with the seat that saw it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from games.core import Event


def step_lines(game: str, events: Sequence[Event], names: Sequence[str], locale: str, *, hidden: bool) -> list[str]:
    """Return the log lines of one step's ``events`` (private ones too when ``hidden``)."""
    presenter = PRESENTERS[game]
    filler: frozenset[str] = getattr(presenter, "log_filler", frozenset())
    shown = [e for e in events if e.kind not in filler and (hidden or e.visible_to is None)]
    joined = getattr(presenter, "log_lines", None)
    public = [e for e in shown if e.visible_to is None]
    if joined is not None:
        lines: list[str] = list(joined(public, names, locale))
    else:
        lines = [line for line in (presenter.narrate(e, names, locale) for e in public) if line]
    if hidden:
        for event in shown:
            if event.visible_to is None:
                continue
            line = presenter.narrate(event, names, locale)
            if line:
                seen = ", ".join(names[s] for s in sorted(event.visible_to) if 0 <= s < len(names))
                lines.append(translate(locale, "ui.log.private", names=seen, line=line))
    return lines
