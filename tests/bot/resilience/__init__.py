"""The resilience suite: crash and restart, Discord faults, hidden information, abuse, for every game.

Everything here is parametrised over the game registries (see :mod:`tests.bot.resilience.registry`),
so a game added to ``games.registry`` and ``bot.presenters.registry`` is covered with no change.
The normal ``pytest`` run plays each check at a small size; ``make soak`` (``scripts/soak.py``)
plays the long runs and writes ``soak-output/report.md``.
"""
