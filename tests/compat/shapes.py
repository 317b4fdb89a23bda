"""The corpus of what OpenAI-compatible Chat Completions servers really send
(`tests/compat/shapes/<server>/<name>.json`), read the way a user's loop reads it.

Every shape is served by an `httpx2.MockTransport` to the real `openai` client, so the
objects toolwire gets are the SDK's own: a `ChatCompletion` built by the client (which,
unlike `ChatCompletion.model_validate`, keeps what a server sends outside the SDK's
types: object arguments, `finish_reason: ""`, extra fields) and the
`ChatCompletionChunk`s its stream yields. `wire_body` sends the next turn through the
client and returns the JSON the server would receive. See `README.md` for the fields
of a shape file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast

import httpx2
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam

SHAPES_DIR = Path(__file__).parent / "shapes"

Kind = Literal["response", "stream", "error"]
KINDS: tuple[Kind, ...] = ("response", "stream", "error")
EVIDENCE = frozenset(
    {"captured", "documented", "assembled from source code", "assembled from captured parts"}
)
"""How directly a shape's source shows it (see README.md)."""

FIRST_TURN: ChatCompletionMessageParam = {"role": "user", "content": "Weather in Paris?"}
_NEXT_TURN_ANSWER: dict[str, Any] = {
    "id": "chatcmpl-next",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [],
}


@dataclass(frozen=True)
class Shape:
    """One recorded shape: `id` is its path under `shapes/` without `.json`."""

    id: str
    data: Mapping[str, Any]

    @property
    def kind(self) -> Kind:
        return cast(Kind, self.data["kind"])

    @property
    def expect(self) -> Mapping[str, Any]:
        return cast("Mapping[str, Any]", self.data["expect"])

    def sse_body(self) -> str:
        """The SSE bytes as the server sent them: each entry of `sse` is one event
        (a `data:` line, a `: comment`, or `event:` and `data:` lines), blank-line separated."""
        events = cast("list[str]", self.data["sse"])
        return "".join(event + "\n\n" for event in events)

    def client(self) -> OpenAI:
        """A real client whose requests get this shape: its JSON, its SSE, or its error
        status and body."""

        def handle(_: httpx2.Request) -> httpx2.Response:
            if self.kind == "stream":
                headers = {"content-type": "text/event-stream"}
                return httpx2.Response(200, content=self.sse_body().encode(), headers=headers)
            return httpx2.Response(self.data.get("status", 200), json=self.data["response"])

        return _client(handle)


@cache
def all_shapes() -> tuple[Shape, ...]:
    """Every shape file, sorted by id."""
    shapes: list[Shape] = []
    for path in sorted(SHAPES_DIR.glob("*/*.json")):
        shape_id = path.relative_to(SHAPES_DIR).with_suffix("").as_posix()
        shapes.append(Shape(shape_id, json.loads(path.read_text(encoding="utf-8"))))
    return tuple(shapes)


def shapes_where(kind: Kind, *expected: str) -> list[Shape]:
    """The shapes of `kind` whose `expect` names every key in `expected`."""
    return [s for s in all_shapes() if s.kind == kind and all(k in s.expect for k in expected)]


def completion(shape: Shape) -> ChatCompletion:
    """A `response` shape as `client.chat.completions.create` returns it."""
    return shape.client().chat.completions.create(model="m", messages=[FIRST_TURN])


def chunks(shape: Shape) -> Iterator[ChatCompletionChunk]:
    """A `stream` shape's chunks as the client's stream yields them, in order."""
    return iter(
        shape.client().chat.completions.create(model="m", messages=[FIRST_TURN], stream=True)
    )


def wire_body(history: list[ChatCompletionMessageParam]) -> dict[str, Any]:
    """The JSON body of the next request carrying `history`, as the client sends it."""
    sent: list[dict[str, Any]] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        return httpx2.Response(200, json=_NEXT_TURN_ANSWER)

    _client(handle).chat.completions.create(model="m", messages=[FIRST_TURN, *history])
    return sent[0]


def _client(handle: Callable[[httpx2.Request], httpx2.Response]) -> OpenAI:
    transport = httpx2.MockTransport(handle)
    return OpenAI(api_key="k", http_client=httpx2.Client(transport=transport), max_retries=0)
