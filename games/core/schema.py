"""Versions of a game's stored state, and the steps that bring an older stored state up to date.

A state is stored as the JSON of its pydantic model. When a release changes a game's state model
in a way old JSON no longer satisfies (a new field without a default, a renamed or reshaped one),
the engine raises its ``state_schema`` by one and adds an upgrade step from the previous number:

.. code-block:: python

    class CoupEngine:
        state_schema = 1
        state_upgrades = {0: lambda data: {**data, "treasury": 50}}  # schema 0 → 1

The table service stores each state with the schema it was written by and reads it back through
:func:`load_state`, which runs the missing steps on the raw JSON data before the model sees it, so
live tables survive the release and old tables still replay. Both attributes are optional: an
engine without them is at schema 0. Steps are never edited once shipped, like SQL migrations.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from games.core.models import BaseState
from games.core.protocol import Engine

S = TypeVar("S", bound=BaseState)

#: One step of upgrade: the JSON data of a state at schema ``n`` → the data at schema ``n + 1``.
StateUpgrade = Callable[[dict[str, Any]], dict[str, Any]]


class StateSchemaError(ValueError):
    """A stored state cannot be brought to the engine's schema (written by newer code, or a step is missing)."""


def state_schema(engine: object) -> int:
    """Return the schema number the states ``engine`` writes now (0 for an engine that never changed)."""
    return int(getattr(engine, "state_schema", 0))


def state_upgrades(engine: object) -> Mapping[int, StateUpgrade]:
    """Return ``engine``'s upgrade steps, keyed by the schema each step starts from."""
    upgrades: Mapping[int, StateUpgrade] = getattr(engine, "state_upgrades", {})
    return upgrades


def upgrade_state_json(engine: object, text: str, schema: int) -> str:
    """Return the JSON ``text`` of a state written at ``schema`` brought up to the engine's schema.

    Raises:
        StateSchemaError: ``schema`` is newer than the engine's, or a step between them is missing.
    """
    current = state_schema(engine)
    if schema == current:
        return text
    if schema > current:
        raise StateSchemaError(f"the state was written at schema {schema}; this code reads up to {current}")
    steps = state_upgrades(engine)
    data = json.loads(text)
    for version in range(schema, current):
        step = steps.get(version)
        if step is None:
            raise StateSchemaError(f"no upgrade step from state schema {version} to {version + 1}")
        data = step(data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def load_state(engine: Engine[S], text: str, schema: int) -> S:
    """Parse a stored state written at ``schema``, upgrading it first when the engine has moved on.

    The upgraded data is parsed as JSON again (not as Python objects) so that it validates exactly
    as a state written today would: tuples from lists, enums from their values.

    Raises:
        StateSchemaError: See :func:`upgrade_state_json`.
        pydantic.ValidationError: The (upgraded) data does not fit the state model.
    """
    return engine.state_type.model_validate_json(upgrade_state_json(engine, text, schema))
