"""Stored-state schemas: upgrade steps run in order on the raw JSON; newer or gapped schemas are refused."""

from __future__ import annotations

import json
from typing import Any, ClassVar, cast

import pytest

from games.core.models import BaseState
from games.core.protocol import Engine
from games.core.schema import StateSchemaError, StateUpgrade, load_state, state_schema, upgrade_state_json


class Pot(BaseState):
    """A state whose ``coins`` became a tuple at schema 1 and which gained ``rake`` at schema 2."""

    coins: tuple[int, ...]
    rake: int


class PotEngine:
    state_type = Pot
    state_schema = 2
    state_upgrades: ClassVar[dict[int, StateUpgrade]] = {
        0: lambda data: {**{k: v for k, v in data.items() if k != "coin"}, "coins": [data["coin"]]},
        1: lambda data: {**data, "rake": 0},
    }


def _at_schema_0() -> str:
    return json.dumps({"seed": "s", "version": 3, "num_seats": 2, "coin": 7})


def test_every_missing_step_runs_in_order() -> None:
    engine = cast("Engine[Pot]", PotEngine())  # only state_type and the schema attributes are read
    pot = load_state(engine, _at_schema_0(), 0)
    assert (pot.coins, pot.rake, pot.version) == ((7,), 0, 3)
    current = json.dumps({"seed": "s", "version": 3, "num_seats": 2, "coins": [1], "rake": 2})
    assert load_state(engine, current, 2).rake == 2


def test_a_state_at_the_current_schema_is_passed_through_untouched() -> None:
    text = '{"anything": true}'
    assert upgrade_state_json(PotEngine(), text, 2) is text


def test_an_engine_without_schema_attributes_is_at_schema_0() -> None:
    assert state_schema(object()) == 0
    assert upgrade_state_json(object(), "{}", 0) == "{}"


@pytest.mark.parametrize(
    ("engine", "schema", "message"), [(PotEngine(), 3, "written at schema 3"), (object(), 1, "schema 1")]
)
def test_a_state_from_newer_code_is_refused(engine: Any, schema: int, message: str) -> None:
    with pytest.raises(StateSchemaError, match=message):
        upgrade_state_json(engine, "{}", schema)


def test_a_missing_step_is_refused() -> None:
    class Gap(PotEngine):
        state_upgrades: ClassVar[dict[int, StateUpgrade]] = {1: PotEngine.state_upgrades[1]}

    with pytest.raises(StateSchemaError, match="from state schema 0 to 1"):
        upgrade_state_json(Gap(), _at_schema_0(), 0)
