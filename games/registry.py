"""The registry of every game the bot hosts, by engine name."""

from __future__ import annotations

from typing import Any

from games.cadwallon.ai import CadwallonAgent
from games.cadwallon.engine import CadwallonEngine
from games.core.protocol import Agent, Engine
from games.coup.ai import CoupAgent
from games.coup.engine import CoupEngine
from games.intrigue.ai import IntrigueAgent
from games.intrigue.engine import IntrigueEngine
from games.masti.ai import MastiAgent
from games.masti.engine import MastiEngine

ENGINES: dict[str, Engine[Any]] = {
    engine.name: engine for engine in (CoupEngine(), MastiEngine(), CadwallonEngine(), IntrigueEngine())
}


def get_engine(name: str) -> Engine[Any]:
    """Return the engine registered under ``name``."""
    return ENGINES[name]


#: The AI that plays each game's AI seats (and human seats on autopilot).
AGENTS: dict[str, Agent] = {
    "coup": CoupAgent(),
    "masti": MastiAgent(),
    "cadwallon": CadwallonAgent(),
    "intrigue": IntrigueAgent(),
}
