"""Check the REST requests a bot made against Discord's OpenAPI description.

SimCord records every REST call the bot makes (``env.http_requests``: method, path such as
``/channels/123/messages`` and the JSON body). :class:`DiscordSpec` maps each call to the
operation of Discord's OpenAPI 3.1 document (path templates such as
``/channels/{channel_id}/messages``) and validates the body with JSON Schema 2020-12, resolving
``$ref`` inside the document.

Two deliberate widenings, both documented by the spec's maintainers:

* Snowflakes are typed as decimal strings, while discord.py sends some ids as integers (the
  attachment placeholders of an upload are ``{"id": 0, ...}``); every ``format: snowflake`` schema
  also accepts a non-negative integer.
* For a multipart upload SimCord records the ``payload_json`` part. It is validated against the
  multipart schema's ``payload_json`` property when the spec has one, otherwise against the
  operation's JSON body schema. A call is taken as an upload when its (or its interaction
  callback's) ``attachments`` hold a new-file placeholder, i.e. an integer id.

Two shortcuts for speed, each accepting and rejecting exactly the same bodies:

* A ``oneOf`` whose alternatives are objects told apart by a required ``type`` of one distinct
  value each (message components) becomes one ``if type == N then <alternative>`` per
  alternative, so a component is checked against its own schema only.
* An object or array found valid against a ``$ref`` is remembered, so the same button or action
  row on the next board edit is not checked again. (Sound because the spec uses no
  ``unevaluated*`` keywords nor ``$dynamicRef``: a ``$ref``'s verdict depends on the instance only.)
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jsonschema import validators
from jsonschema.exceptions import best_match
from openapi_schema_validator import OAS31Validator, oas31_format_checker

REPO_ROOT = Path(__file__).resolve().parents[2]
SPEC_PATH = REPO_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"


class RecordedRequest(Protocol):
    """What a recorded request offers (SimCord's ``HttpLogEntry`` fits)."""

    @property
    def method(self) -> str: ...

    @property
    def path(self) -> str: ...

    @property
    def json(self) -> Any: ...


@dataclass(frozen=True)
class Problem:
    """One request that does not match the spec."""

    method: str
    path: str
    template: str | None
    message: str

    def __str__(self) -> str:
        where = f" ({self.template})" if self.template else ""
        return f"{self.method} {self.path}{where}: {self.message}"


def widen_snowflakes(node: Any) -> Any:
    """Let every ``format: snowflake`` schema in ``node`` accept a non-negative integer too (in place)."""
    if isinstance(node, dict):
        if node.get("format") == "snowflake":
            kinds = node.get("type")
            if kinds == "string":
                node["type"] = ["string", "integer"]
            elif isinstance(kinds, list) and "string" in kinds and "integer" not in kinds:
                node["type"] = [*kinds, "integer"]
            node.setdefault("minimum", 0)
        for value in node.values():
            widen_snowflakes(value)
    elif isinstance(node, list):
        for value in node:
            widen_snowflakes(value)
    return node


def _type_value(schema: Any, document: Mapping[str, Any]) -> Any:
    """Return the single value a required ``type`` property must have in object ``schema``, else ``None``."""
    if isinstance(schema, Mapping) and set(schema) == {"$ref"} and str(schema["$ref"]).startswith("#/"):
        node: Any = document
        for part in str(schema["$ref"])[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        schema = node
    if not isinstance(schema, Mapping) or schema.get("type") != "object" or "type" not in schema.get("required", ()):
        return None
    prop = schema.get("properties", {}).get("type")
    if not isinstance(prop, Mapping):
        return None
    values = [prop["const"]] if "const" in prop else prop.get("enum")
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], int | str):
        return None
    return values[0]


def discriminate_one_of(node: Any, document: Mapping[str, Any] | None = None) -> Any:
    """Rewrite each ``oneOf`` of objects told apart by a one-valued required ``type`` (in place)."""
    document = node if document is None else document
    if isinstance(node, dict):
        alternatives = node.get("oneOf")
        if isinstance(alternatives, list) and len(alternatives) > 2:
            values = [_type_value(alternative, document) for alternative in alternatives]
            if None not in values and len(set(values)) == len(values):
                del node["oneOf"]
                node["allOf"] = [
                    *node.get("allOf", []),
                    {"type": "object", "required": ["type"], "properties": {"type": {"enum": values}}},
                    *(
                        {"if": {"properties": {"type": {"const": value}}}, "then": alternative}
                        for value, alternative in zip(values, alternatives, strict=True)
                    ),
                ]
        for value in list(node.values()):
            discriminate_one_of(value, document)
    elif isinstance(node, list):
        for value in node:
            discriminate_one_of(value, document)
    return node


def has_upload(body: Any) -> bool:
    """Return whether ``body`` announces new files (attachment placeholders with integer ids)."""
    if not isinstance(body, Mapping):
        return False
    holders = [body]
    if isinstance(body.get("data"), Mapping):
        holders.append(body["data"])
    for holder in holders:
        attachments = holder.get("attachments")
        if isinstance(attachments, list) and any(
            isinstance(item, Mapping) and isinstance(item.get("id"), int) for item in attachments
        ):
            return True
    return False


class DiscordSpec:
    """Discord's OpenAPI document, ready to validate request bodies."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        """Prepare ``document`` (copied, snowflakes widened)."""
        self.document: dict[str, Any] = discriminate_one_of(widen_snowflakes(copy.deepcopy(dict(document))))
        self._templates: dict[int, list[tuple[tuple[str, ...], str]]] = {}
        for template in self.document["paths"]:
            segments = tuple(template.strip("/").split("/"))
            self._templates.setdefault(len(segments), []).append((segments, template))
        self._validators: dict[str, Any] = {}
        self._valid_refs: set[tuple[str, str]] = set()
        self._validator_class = self._remembering_validator_class()

    @classmethod
    def load(cls, path: Path = SPEC_PATH) -> DiscordSpec:
        """Return the spec at ``path`` (parsed once per process)."""
        return _load(path.resolve())

    # ------------------------------------------------------------------ lookup
    def template_for(self, path: str) -> str | None:
        """Return the path template matching ``path``, preferring the most literal one."""
        segments = path.split("?", 1)[0].strip("/").split("/")
        best: tuple[int, str] | None = None
        for template_segments, template in self._templates.get(len(segments), ()):
            literals = 0
            for expected, actual in zip(template_segments, segments, strict=True):
                if expected.startswith("{") and expected.endswith("}"):
                    if not actual:
                        break
                elif expected == actual:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, template)
        return None if best is None else best[1]

    def operation(self, method: str, template: str) -> dict[str, Any] | None:
        """Return the operation object of ``method`` on ``template``."""
        item = self.document["paths"].get(template, {})
        operation = item.get(method.lower())
        return operation if isinstance(operation, dict) else None

    def body_schema(self, operation: Mapping[str, Any], *, upload: bool) -> Any | None:
        """Return the schema a body of ``operation`` must match (``None``: it takes no body)."""
        content = operation.get("requestBody", {}).get("content", {})
        json_schema = content.get("application/json", {}).get("schema")
        if upload and "multipart/form-data" in content:
            multipart = content["multipart/form-data"].get("schema", {})
            payload = self._payload_json(multipart)
            if payload is not None:
                return payload
            return json_schema if json_schema is not None else multipart
        if json_schema is not None:
            return json_schema
        for media in content.values():
            if "schema" in media:
                return media["schema"]
        return None

    def _payload_json(self, schema: Any) -> Any | None:
        if not isinstance(schema, Mapping):
            return None
        if "$ref" in schema:
            schema = self._resolve(schema["$ref"])
        found = schema.get("properties", {}).get("payload_json")
        if isinstance(found, Mapping) and (found.get("type") == "object" or "$ref" in found):
            return found
        for part in schema.get("allOf", ()):
            found = self._payload_json(part)
            if found is not None:
                return found
        return None

    def _resolve(self, ref: str) -> Any:
        node: Any = self.document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def _remembering_validator_class(self) -> Any:
        """Return OAS 3.1's validator whose ``$ref`` remembers the containers it found valid."""
        check_ref = OAS31Validator.VALIDATORS["$ref"]
        valid = self._valid_refs

        def remembering_ref(validator: Any, ref: str, instance: Any, schema: Any) -> Iterator[Any]:
            if not isinstance(instance, dict | list):
                yield from check_ref(validator, ref, instance, schema)
                return
            key = (ref, json.dumps(instance, sort_keys=True, default=str))
            if key in valid:
                return
            errors = list(check_ref(validator, ref, instance, schema))
            if not errors:
                valid.add(key)
            yield from errors

        return validators.extend(OAS31Validator, {"$ref": remembering_ref})

    def _validator(self, key: str, schema: Any) -> Any:
        validator = self._validators.get(key)
        if validator is None:
            # Refs in the spec are "#/components/…": make the document's components part of the root.
            root = {"components": self.document["components"], "allOf": [schema]}
            validator = self._validators[key] = self._validator_class(root, format_checker=oas31_format_checker)
        return validator

    # ------------------------------------------------------------------ validation
    def problems(self, method: str, path: str, body: Any) -> list[Problem]:
        """Return what is wrong with one request (empty when it matches the spec)."""
        method = method.upper()
        template = self.template_for(path)
        if template is None:
            return [Problem(method, path, None, "no such path in Discord's API")]
        operation = self.operation(method, template)
        if operation is None:
            return [Problem(method, path, template, f"{method} is not an operation of this path")]
        if body is None:
            return []
        upload = has_upload(body)
        schema = self.body_schema(operation, upload=upload)
        if schema is None:
            return [Problem(method, path, template, "this operation takes no body, but one was sent")]
        key = f"{method} {template} {'upload' if upload else 'json'}"
        errors = list(self._validator(key, schema).iter_errors(body))
        if not errors:
            return []
        error = best_match(errors)
        where = error.json_path
        instance = json.dumps(error.instance, ensure_ascii=False, default=str)[:200]
        return [Problem(method, path, template, f"{error.message[:400]} at {where} (value {instance})")]

    def validate_requests(self, requests: Iterable[RecordedRequest]) -> list[Problem]:
        """Return the problems of every request in ``requests``."""
        found: list[Problem] = []
        for request in requests:
            found.extend(self.problems(request.method, request.path, request.json))
        return found

    def assert_valid(self, requests: Iterable[RecordedRequest]) -> None:
        """Raise ``AssertionError`` listing every request that does not match the spec."""
        requests = list(requests)
        found = self.validate_requests(requests)
        if found:
            lines = "\n".join(f"  - {problem}" for problem in found[:20])
            more = f"\n  … and {len(found) - 20} more" if len(found) > 20 else ""
            raise AssertionError(
                f"{len(found)} of {len(requests)} Discord requests do not match the OpenAPI spec:\n{lines}{more}"
            )


@functools.cache
def _load(path: Path) -> DiscordSpec:
    with path.open("rb") as fh:
        return DiscordSpec(json.load(fh))


def assert_requests_valid(requests: Iterable[RecordedRequest]) -> None:
    """Assert every request in ``requests`` matches Discord's OpenAPI spec."""
    DiscordSpec.load().assert_valid(requests)


__all__ = [
    "SPEC_PATH",
    "DiscordSpec",
    "Problem",
    "RecordedRequest",
    "assert_requests_valid",
    "discriminate_one_of",
    "has_upload",
    "widen_snowflakes",
]
