"""The OpenAPI check every SimCord test runs at teardown: it accepts what Discord accepts, and only that."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.support.discord_openapi import (
    SPEC_PATH,
    DiscordSpec,
    assert_requests_valid,
    discriminate_one_of,
    has_upload,
    widen_snowflakes,
)


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    json: Any


def button(**fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": "act:1:0:0:income", **fields}


def message(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    rows = [{"type": 1, "components": list(components)}] if components else []
    return {"content": "hi", "components": rows, **fields}


@pytest.fixture(scope="module")
def spec() -> DiscordSpec:
    return DiscordSpec.load()


def test_the_spec_is_found_beside_the_repository():
    assert SPEC_PATH.is_file()
    assert SPEC_PATH.parent.name == "discord-api-spec" and SPEC_PATH.parent.parent.name == "shared"


def test_paths_map_to_templates_preferring_literal_segments(spec):
    assert spec.template_for("/channels/123/messages") == "/channels/{channel_id}/messages"
    assert spec.template_for("/channels/1/messages/2") == "/channels/{channel_id}/messages/{message_id}"
    assert (
        spec.template_for("/webhooks/1/tok/messages/@original")
        == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert (
        spec.template_for("/interactions/1/tok/callback")
        == "/interactions/{interaction_id}/{interaction_token}/callback"
    )
    assert spec.template_for("/no/such/route") is None


def test_a_valid_message_passes(spec):
    assert spec.problems("POST", "/channels/1/messages", message(button())) == []


@pytest.mark.parametrize(
    "body",
    [
        message(button(label="x" * 81)),  # labels are at most 80 characters
        message(button(custom_id="x" * 101)),  # custom ids at most 100
        message(button(style="blue")),
        {"embeds": [{"title": "t" * 257}]},  # embed titles at most 256
        {"content": 5},
        {"components": "nope"},
        {"components": [{"type": 99, "components": []}]},  # no such component
        {"components": ["row"]},
        message({"type": 3, "custom_id": "acts:1:0:0:steal"}),  # a select needs options
        message({"type": 1, "components": []}),  # no row inside a row
    ],
)
def test_an_invalid_message_is_caught(spec, body):
    (problem,) = spec.problems("POST", "/channels/1/messages", body)
    assert problem.template == "/channels/{channel_id}/messages"


def test_a_part_found_valid_once_is_still_checked_in_a_new_context(spec):
    row = {"type": 1, "components": [button()]}
    assert spec.problems("POST", "/channels/1/messages", {"components": [row]}) == []
    assert spec.problems("POST", "/channels/1/messages", {"components": [row] * 41})  # at most 40 components
    assert spec.problems("POST", "/channels/1/messages", {"components": [{**row, "type": 2}]})


def test_an_invalid_interaction_answer_is_caught(spec):
    good = {"type": 4, "data": {"content": "ok", "flags": 64}}
    bad = {"type": 4, "data": {"embeds": [{"description": "d" * 4097}]}}
    assert spec.problems("POST", "/interactions/1/tok/callback", good) == []
    assert spec.problems("POST", "/interactions/1/tok/callback", bad)


def test_unknown_routes_methods_and_bodies_are_reported(spec):
    assert spec.problems("POST", "/no/such/route", {})[0].message == "no such path in Discord's API"
    assert "not an operation" in spec.problems("PUT", "/channels/1/messages", {})[0].message
    assert "takes no body" in spec.problems("DELETE", "/channels/1/messages/2", {"x": 1})[0].message
    assert spec.problems("GET", "/channels/1/messages", None) == []


def test_snowflakes_may_be_integers_as_discord_py_sends_them(spec):
    upload = message(button(), attachments=[{"id": 0, "filename": "board.png"}])
    assert has_upload(upload)
    assert spec.problems("PATCH", "/channels/1/messages/2", upload) == []
    assert spec.problems("PATCH", "/channels/1/messages/2", message(attachments=[{"id": "12"}])) == []
    assert spec.problems("PATCH", "/channels/1/messages/2", message(attachments=[{"id": "x"}]))
    assert spec.problems("PATCH", "/channels/1/messages/2", message(attachments=[{"id": -1}]))


def test_widening_keeps_the_string_form():
    schema = widen_snowflakes(
        {"a": {"type": "string", "format": "snowflake"}, "b": {"type": ["string", "null"], "format": "snowflake"}}
    )
    assert schema["a"]["type"] == ["string", "integer"] and schema["a"]["minimum"] == 0
    assert schema["b"]["type"] == ["string", "null", "integer"]


def test_one_of_by_type_is_rewritten_only_when_equivalent():
    document: dict[str, Any] = {
        "A": {"type": "object", "required": ["type"], "properties": {"type": {"enum": [1]}}},
        "B": {"type": "object", "required": ["type"], "properties": {"type": {"const": 2}}},
        "C": {"type": "object", "properties": {"type": {"const": 3}}},  # type not required
        "use": {"oneOf": [{"$ref": "#/A"}, {"$ref": "#/B"}, {"type": "null"}]},
        "typed": {"oneOf": [{"$ref": "#/A"}, {"$ref": "#/B"}, {"$ref": "#/B"}]},
        "loose": {"oneOf": [{"$ref": "#/A"}, {"$ref": "#/B"}, {"$ref": "#/C"}]},
        "fine": {
            "oneOf": [
                {"$ref": "#/A"},
                {"$ref": "#/B"},
                {"type": "object", "required": ["type"], "properties": {"type": {"const": 4}}},
            ]
        },
    }
    discriminate_one_of(document)
    assert "oneOf" in document["use"] and "oneOf" in document["typed"] and "oneOf" in document["loose"]
    assert "oneOf" not in document["fine"]
    assert document["fine"]["allOf"][0] == {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": [1, 2, 4]}},
    }


def test_upload_detection_looks_at_interaction_answers_too():
    assert has_upload({"type": 7, "data": {"attachments": [{"id": 0, "filename": "a.png"}]}})
    assert not has_upload({"attachments": [{"id": "123"}]})
    assert not has_upload([{"name": "coup"}])


def test_assert_requests_valid_lists_every_bad_request():
    requests = [
        Request("POST", "/channels/1/messages", message(button())),
        Request("POST", "/channels/1/messages", message(button(label="x" * 81))),
        Request("POST", "/channels/2/messages", {"embeds": [{"title": "t" * 300}]}),
    ]
    with pytest.raises(AssertionError, match=r"2 of 3 Discord requests do not match") as caught:
        assert_requests_valid(requests)
    assert "/channels/1/messages" in str(caught.value) and "/channels/2/messages" in str(caught.value)


@pytest.mark.asyncio
async def test_the_bots_own_requests_are_checked(world):
    alice, bob = world.members("alice", "bob")
    await world.seat(alice, bob)

    requests = world.env.http_requests
    assert {r.method for r in requests} >= {"PUT", "POST", "PATCH"}
    assert any(has_upload(r.json) for r in requests)  # the board image
    assert_requests_valid(requests)
    broken = Request("POST", requests[-1].path, {"content": "x" * 4001})
    with pytest.raises(AssertionError):
        assert_requests_valid([*requests, broken])
