"""The engine contract shared by every game: protocol, base models, errors and seeded randomness."""

from games.core.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    StaleActionError,
)
from games.core.models import BaseState, Event, Model, Outcome, Step
from games.core.protocol import Agent, Engine, RandomAgent
from games.core.rng import GameRng

__all__ = [
    "Agent",
    "BaseState",
    "Engine",
    "Event",
    "GameError",
    "GameOverError",
    "GameRng",
    "IllegalActionError",
    "Model",
    "NotYourTurnError",
    "Outcome",
    "RandomAgent",
    "StaleActionError",
    "Step",
]
