"""Discord faults for the offline simulator: 429s, 5xx, timeouts and expired interaction tokens.

SimCord replaces discord.py's transports (``HTTPClient.request`` and the webhook adapter that carries
interaction answers) with calls straight into its backend, which skips discord.py's own handling of
failed requests. :func:`install` puts that handling back and feeds it faults: each SimCord call is
made through the *real* ``HTTPClient.request`` / ``AsyncWebhookAdapter.request`` of discord.py, on
a fake aiohttp session that, per attempt, either answers with a fault or forwards the call to
SimCord. So the bot sees exactly what discord.py makes of each fault:

- ``429`` (with ``retry_after`` and Discord's ``Via`` header): discord.py sleeps and retries;
- ``500`` / ``502``: discord.py sleeps and retries, up to five attempts;
- ``timeout_before`` (the request never reached Discord) and ``timeout_after`` (Discord acted on it
  but the answer was lost): ``asyncio.TimeoutError`` reaches the bot, as from aiohttp;
- ``expire``: an interaction's token is dead (it took longer than Discord allows): its callback
  answers ``404 Unknown interaction`` (10062) and every later use of the token fails too.

discord.py's back-off sleeps (1 s, 3 s … after a 5xx) are scaled down by ``sleep_scale`` so a test
does not wait for them; the decisions around them are discord.py's own.
"""

from __future__ import annotations

import asyncio
import fnmatch
import functools
import re
import types
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord.http
import discord.webhook.async_ as webhook_async
from multidict import CIMultiDict
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

from games.core import GameRng

_Forward = Callable[[], Awaitable[Any]]
_FORWARD: ContextVar[_Forward | None] = ContextVar("resilience_forward", default=None)
_CALLBACK = re.compile(r"^/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback$")
_WEBHOOK = re.compile(r"^/webhooks/\d+/(?P<token>[^/]+)(/.*)?$")

#: Fault kinds and their share of all requests when the plan is on (≈ 15% in all).
DEFAULT_WEIGHTS: dict[str, float] = {
    "429": 0.05,
    "500": 0.025,
    "502": 0.025,
    "timeout_before": 0.025,
    "timeout_after": 0.025,
}


@dataclass
class FaultPlan:
    """Which requests fail and how: a seeded draw per request attempt.

    ``weights`` give each kind's probability per attempt; ``expire_rate`` is the probability that an
    interaction's first callback finds its token already dead. ``enabled`` switches the plan off
    (e.g. while a test sets a table up).
    """

    seed: str
    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    expire_rate: float = 0.04
    retry_after: tuple[float, float] = (0.01, 0.12)
    enabled: bool = True
    injected: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    dead_tokens: set[str] = field(default_factory=set)
    dead_interactions: set[int] = field(default_factory=set)
    log: list[tuple[str, str, str]] = field(default_factory=list)
    forced: list[list[Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = GameRng(f"faults:{self.seed}")

    def force(self, kind: str, method: str, path: str, times: int = 1) -> None:
        """Fail the next ``times`` attempts at ``method`` on paths matching the glob ``path`` with ``kind``."""
        self.forced.append([kind, method, path, times])

    def decide(self, method: str, path: str) -> str | None:
        """Return the fault for this attempt at ``method path``, or ``None`` to let it through."""
        self.requests += 1
        callback = _CALLBACK.match(path)
        token = callback["token"] if callback else (m["token"] if (m := _WEBHOOK.match(path)) else None)
        if token is not None and token in self.dead_tokens:
            return self._count("dead_token", method, path)
        for entry in self.forced:
            kind, wanted, pattern, times = entry
            if times > 0 and wanted in (method, "*") and fnmatch.fnmatch(path, pattern):
                entry[3] -= 1
                if kind == "expire" and callback is not None:
                    self.dead_tokens.add(callback["token"])
                    self.dead_interactions.add(int(callback["id"]))
                return self._count(kind, method, path)
        if not self.enabled:
            return None
        if callback is not None and self._rng.random() < self.expire_rate:
            self.dead_tokens.add(callback["token"])
            self.dead_interactions.add(int(callback["id"]))
            return self._count("expire", method, path)
        draw = self._rng.random()
        for kind, weight in self.weights.items():
            if draw < weight:
                return self._count(kind, method, path)
            draw -= weight
        return None

    def _count(self, kind: str, method: str, path: str) -> str:
        self.injected[kind] += 1
        self.log.append((kind, method, path))
        return kind

    def retry_after_seconds(self) -> float:
        """Return the ``retry_after`` of a 429."""
        low, high = self.retry_after
        return low + (high - low) * self._rng.random()

    @property
    def share(self) -> float:
        """Return the share of request attempts that met a fault."""
        return sum(self.injected.values()) / self.requests if self.requests else 0.0


#: The rate-limit headers Discord puts on every answer: a roomy bucket. Without them discord.py takes a
#: bucket to allow one request at a time, and a request queued behind another waits on a future whose
#: fallback is 30 s of real time; a wake-up lost there stalled the whole test (SimCord's settle gave up
#: on "an unknown wait (Future)" in ``Ratelimit.acquire``), a harness artefact Discord never causes.
RATE_LIMIT_HEADERS: dict[str, str] = {
    "X-Ratelimit-Limit": "50",
    "X-Ratelimit-Remaining": "50",
    "X-Ratelimit-Reset-After": "1.0",
}


class _Response:
    """Just enough of an aiohttp response for discord.py's request loops."""

    def __init__(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway"}.get(status, "OK")
        self.payload = payload
        self.headers: CIMultiDict[str] = CIMultiDict(
            {"content-type": "application/json", **RATE_LIMIT_HEADERS, **(headers or {})}
        )


class _Attempt:
    """One attempt of one request: the context manager ``session.request(...)`` returns."""

    def __init__(self, plan: FaultPlan, method: str, url: str) -> None:
        self.plan = plan
        self.method = method
        self.path = _path_of(url)

    async def __aenter__(self) -> _Response:
        kind = self.plan.decide(self.method, self.path)
        if kind == "timeout_before":
            raise TimeoutError
        if kind == "429":
            body = {"message": "You are being rate limited.", "retry_after": self.plan.retry_after_seconds()}
            return _Response(429, {**body, "global": False}, {"Via": "1.1 google"})
        if kind in {"500", "502"}:
            return _Response(int(kind), {"message": "injected server error", "code": 0})
        if kind in {"expire", "dead_token"}:
            if _CALLBACK.match(self.path):
                return _Response(404, {"message": "Unknown interaction", "code": 10062})
            return _Response(404, {"message": "Unknown Webhook", "code": 10015})
        forward = _FORWARD.get()
        if forward is None:
            raise RuntimeError("a faulty request outside an installed transport")
        data = await forward()
        if kind == "timeout_after":
            raise TimeoutError
        return _Response(200, data)

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    """The fake aiohttp session every faulty request goes through."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self.closed = False

    def request(self, method: str, url: str, **_kwargs: Any) -> _Attempt:
        return _Attempt(self.plan, method, url)


def _path_of(url: str) -> str:
    path = url.split("?", 1)[0]
    index = path.find("/api/v")
    if index != -1:
        path = path[index + len("/api/v") :]
        path = path[path.find("/") :]
    return path


async def _json_or_text(response: Any) -> Any:
    if isinstance(response, _Response):
        return response.payload
    return await _REAL_JSON_OR_TEXT(response)


_REAL_JSON_OR_TEXT = discord.http.json_or_text
_REAL_HTTP_REQUEST = discord.http.HTTPClient.request
_REAL_WEBHOOK_REQUEST = webhook_async.AsyncWebhookAdapter.request
_SIMCORD_HTTP_REQUEST = FakeHTTPClient.request
_SIMCORD_WEBHOOK_REQUEST = FakeWebhookAdapter.request


def _scaled_asyncio(scale: float) -> types.SimpleNamespace:
    """Return a stand-in for the ``asyncio`` module whose ``sleep`` waits ``scale`` times as long."""

    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * scale, result)

    namespace = types.SimpleNamespace(**{name: getattr(asyncio, name) for name in dir(asyncio) if name[:2] != "__"})
    namespace.sleep = sleep
    return namespace


def install(monkeypatch: Any, plan: FaultPlan, *, sleep_scale: float = 0.02) -> FaultPlan:
    """Route every SimCord request through discord.py's real request loops and ``plan``'s faults."""
    session = _Session(plan)

    async def http_request(self: FakeHTTPClient, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any):
        forward = functools.partial(_SIMCORD_HTTP_REQUEST, self, route, files=files, form=form, **dict(kwargs))
        token = _FORWARD.set(forward)
        self._HTTPClient__session = session  # type: ignore[attr-defined]  # discord.py's mangled session
        if not isinstance(self._global_over, asyncio.Event):
            # Set by the real static_login, which SimCord replaces: no global rate limit is on.
            self._global_over = asyncio.Event()
            self._global_over.set()
        try:
            return await _REAL_HTTP_REQUEST(self, route, files=files, form=form, **kwargs)
        finally:
            _FORWARD.reset(token)

    async def webhook_request(self: FakeWebhookAdapter, route: Any, session_given: Any = None, **kwargs: Any) -> Any:
        given = kwargs.pop("session", session_given)
        forward = functools.partial(_SIMCORD_WEBHOOK_REQUEST, self, route, given, **dict(kwargs))
        token = _FORWARD.set(forward)
        # The real adapter keeps a lock per webhook; FakeWebhookAdapter resolves unknown attributes
        # to SDK helpers, so the dictionary is put on the instance first.
        self.__dict__.setdefault("_locks", weakref.WeakValueDictionary())
        try:
            return await _REAL_WEBHOOK_REQUEST(self, route, session, **kwargs)  # type: ignore[arg-type]  # the fake session
        finally:
            _FORWARD.reset(token)

    scaled = _scaled_asyncio(sleep_scale)
    monkeypatch.setattr(FakeHTTPClient, "request", http_request)
    monkeypatch.setattr(FakeWebhookAdapter, "request", webhook_request)
    monkeypatch.setattr(discord.http, "json_or_text", _json_or_text)
    monkeypatch.setattr(webhook_async, "json_or_text", _json_or_text)
    monkeypatch.setattr(discord.http, "asyncio", scaled)
    monkeypatch.setattr(webhook_async, "asyncio", scaled)
    return plan
