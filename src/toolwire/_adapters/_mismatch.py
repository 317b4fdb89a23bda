"""What an object given to the wrong entry point is, and the error that says what to do.

An adapter that read any object without complaint would end a conversation silently
(a Responses `Response` read as a chat message holds no calls, so the loop stops).
Each adapter accepts only its API's objects; everything else raises
`UnexpectedObjectError`, whose text comes from here: it names what was given (a
stream, one chunk of a stream, a coroutine, another API's response...) and what to
do instead. Nothing here runs on the accepted path.
"""

from __future__ import annotations

import inspect
import reprlib
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import cast

from .._api import Api
from ..exceptions import ToolwireError, UnexpectedObjectError

__all__ = [
    "API_TITLES",
    "SKIP",
    "TAKE",
    "UNWRAP",
    "StreamGate",
    "is_sdk_type",
    "mro_names",
    "stream_item_api",
    "unplaceable",
    "wrong_object",
    "wrong_stream_item",
]

API_TITLES: dict[Api, str] = {
    "chat.completions": "Chat Completions",
    "responses": "OpenAI Responses",
    "anthropic": "Anthropic Messages",
    "gemini": "Gemini",
}

_SDK_PREFIXES = ("openai.", "anthropic.", "google.genai.")
_SDK_PACKAGES = frozenset({"openai", "anthropic"})
"""Modules the SDKs rewrite their public classes' `__module__` to (`openai.Stream`)."""

_STREAM_CLASSES = frozenset(
    {
        "Stream",
        "AsyncStream",
        "ChatCompletionStream",
        "AsyncChatCompletionStream",
        "ChatCompletionStreamManager",
        "AsyncChatCompletionStreamManager",
        "ResponseStream",
        "AsyncResponseStream",
        "ResponseStreamManager",
        "AsyncResponseStreamManager",
        "MessageStream",
        "AsyncMessageStream",
        "MessageStreamManager",
        "AsyncMessageStreamManager",
        "BetaMessageStream",
        "BetaAsyncMessageStream",
        "BetaMessageStreamManager",
        "BetaAsyncMessageStreamManager",
    }
)
"""The SDKs' stream and stream-manager classes (openai and anthropic)."""


TAKE, UNWRAP, SKIP = 0, 1, 2
"""What a stream accumulator does with an item: fold it; fold the chunk it wraps (the
openai chat helper's `ChunkEvent`); or ignore it (helper events that restate a chunk)."""


class StreamGate:
    """Which items one API's stream accumulator takes, decided once per item type.

    Accumulators look an item's type up in `actions` (one dict lookup per chunk) and
    call `admit` only for a type not seen yet, which classifies it or raises
    `UnexpectedObjectError` saying what was fed instead.
    """

    __slots__ = ("_api", "_classify", "actions")

    def __init__(self, api: Api, classify: Callable[[object], int | None]) -> None:
        self._api: Api = api
        self._classify = classify
        self.actions: dict[type, int] = {}

    def admit(self, item: object) -> int:
        """Classify an item of a type not seen yet (SDK types by their class, objects of
        compatible libraries by their attributes), remember it, or raise."""
        kind = type(item)
        action = None if issubclass(kind, Mapping) else self._classify(item)
        if action is None:
            raise wrong_stream_item(item, self._api)
        self.actions[kind] = action
        return action


def is_sdk_type(kind: type) -> bool:
    """Whether `kind` is defined by one of the three provider SDKs."""
    module = kind.__module__
    return module.startswith(_SDK_PREFIXES) or module in _SDK_PACKAGES


def mro_names(kind: type, module_prefix: str) -> frozenset[str]:
    """Names of the classes `kind` is (itself and its bases) defined under `module_prefix`:
    an SDK subclass (`ParsedChatCompletion`, `BetaMessage`...) counts as its base."""
    return frozenset(c.__name__ for c in kind.__mro__ if c.__module__.startswith(module_prefix))


def stream_item_api(kind: type) -> Api | None:
    """The API whose stream yields objects of `kind` (a chunk or an event), if any."""
    module, name = kind.__module__, kind.__name__
    if module.startswith("openai.types.chat") and "ChatCompletionChunk" in mro_names(
        kind, "openai.types.chat"
    ):
        return "chat.completions"
    if module.startswith("openai.lib.streaming.chat"):
        return "chat.completions"
    if module.startswith(("openai.types.responses", "openai.lib.streaming.responses")):
        return "responses" if name.endswith("Event") else None
    if module.startswith(("anthropic.types", "anthropic.lib.streaming")):
        return "anthropic" if name.endswith("Event") else None
    return None


def wrong_object(obj: object, api: Api, expected: str) -> UnexpectedObjectError:
    """The error for `obj` given where `api`'s `expected` was required."""
    if inspect.isawaitable(obj):
        advice = "a coroutine is not a response yet: await it first."
    elif _is_stream(obj):
        advice = (
            "this is a stream, not a finished response: feed each of its chunks to "
            f"ToolCallStream({api!r}) and pass its final_response() here."
        )
    elif (chunk_api := stream_item_api(type(obj))) is not None:
        advice = (
            "this is one piece of a stream, not a whole turn: feed every chunk to "
            f"ToolCallStream({chunk_api!r}) and pass its final_response() here."
        )
    elif (other := api_or_none(obj)) is not None and other != api:
        advice = f"it belongs to the {API_TITLES[other]} API: pass api={other!r}."
    else:
        advice = f"pass what the {API_TITLES[api]} client returned, or its dict form."
    return UnexpectedObjectError(f"Expected {expected}, got {_describe(obj)}: {advice}")


def wrong_stream_item(item: object, api: Api) -> UnexpectedObjectError:
    """The error for `item` fed to a `ToolCallStream(api)` that cannot take it."""
    if inspect.isawaitable(item):
        advice = "await the request first, then feed each chunk of the stream it returns."
    elif _is_stream(item):
        advice = (
            "this is the whole stream: feed its items one by one (`for chunk in stream: "
            "events = tool_stream.feed(chunk)`, or `async for` with the async client)."
        )
    elif (other := stream_item_api(type(item))) is not None and other != api:
        advice = f"it comes from a {API_TITLES[other]} stream: use ToolCallStream({other!r})."
    elif (other := api_or_none(item)) is not None and other != api:
        advice = f"it belongs to the {API_TITLES[other]} API: use ToolCallStream({other!r})."
    else:
        advice = f"feed the chunks or events the {API_TITLES[api]} SDK's stream yields."
    return UnexpectedObjectError(
        f"ToolCallStream({api!r}).feed() cannot take {_describe(item)}: {advice}"
    )


def unplaceable(obj: object) -> UnexpectedObjectError:
    """The error for an object no API's adapter recognises (so `api=` cannot be guessed)."""
    if inspect.isawaitable(obj):
        advice = "a coroutine is not a response yet: await it first."
    elif _is_stream(obj):
        advice = (
            "this is a stream, not a finished response: feed each of its chunks to "
            "ToolCallStream(api) and pass its final_response() here."
        )
    else:
        advice = (
            "pass the SDK object itself, its dict form or a StandardToolCall, or say "
            "which API with `api=`."
        )
    return UnexpectedObjectError(f"Cannot tell which API {_describe(obj)} comes from: {advice}")


def _describe(obj: object) -> str:
    kind = type(obj)
    if isinstance(obj, Mapping):
        keys = sorted(str(key) for key in list(cast("Mapping[object, object]", obj))[:50])
        return f"a {kind.__name__} with keys {keys[:8]}"
    if is_sdk_type(kind):
        return kind_words(obj)
    text = reprlib.repr(obj)
    shown = text if len(text) <= 80 else text[:77] + "..."
    return f"{kind_words(obj)} ({shown})"


def kind_words(obj: object) -> str:
    """`obj`'s kind in a few words: 'an openai ChatCompletion', 'a dict', 'a str'."""
    kind = type(obj)
    if is_sdk_type(kind):
        package = kind.__module__.split(".")[0]
        package = "google-genai" if package == "google" else package
        return f"{_article(package)} {package} {kind.__name__}"
    return f"{_article(kind.__name__)} {kind.__name__}"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _is_stream(obj: object) -> bool:
    """A stream, its manager, or a generator of chunks (google-genai's streams)."""
    kind = type(obj)
    if kind.__name__ in _STREAM_CLASSES and is_sdk_type(kind):
        return True
    if isinstance(obj, Mapping | str | bytes | list | tuple):
        return False
    return isinstance(obj, Iterator | AsyncIterator)


def api_or_none(obj: object) -> Api | None:
    """The API `obj` belongs to, or None when it is no API's object."""
    from . import api_of

    try:
        return api_of(obj)
    except ToolwireError:  # what it cannot place is simply not another API's object
        return None
