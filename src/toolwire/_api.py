"""The one module that tells the APIs apart.

Everything else reaches an API through what is here:

- its name: the public `Api` literal, `API_NAMES`, `check_api`; and its dialects (a
  server speaking the API its own way, such as Chat Completions' `ChatServer`), accepted
  wherever a name is: `adapter(dialect)` is the API's adapter bound to that server;
- its registry entry (`API_ENTRIES`): its title, its adapter folder under
  `_adapters/`, the SDK modules its objects come from, its schema rules, and the result
  property its adapter renders; `adapter(api)` imports that adapter on first use, so
  `import toolwire.core` imports no SDK;
- detection: `api_of(obj)` says which API an SDK object, a dict form or a stream item
  belongs to;
- the mismatch messages: an object given to the wrong entry point raises
  `UnexpectedObjectError` saying what it is (a stream, one chunk of a stream, a
  coroutine, another API's response...) and what to do instead. Nothing of these runs
  on the accepted path.

It sits low: it imports only `exceptions`, and adapters import it (never the reverse
but through `adapter()`).
"""

from __future__ import annotations

import importlib
import inspect
import reprlib
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeGuard, cast

from .exceptions import ToolwireError, UnexpectedObjectError, UnknownApiError

if TYPE_CHECKING:
    import pydantic

    from ._adapters._base import Adapter

__all__ = [
    "ANTHROPIC_BLOCK_TYPES",
    "API_ENTRIES",
    "API_NAMES",
    "GEMINI_PART_KEYS",
    "RESPONSES_ITEM_TYPES",
    "Api",
    "ApiEntry",
    "Dialect",
    "adapter",
    "api_of",
    "api_or_none",
    "check_api",
    "first_problem",
    "gemini_keys",
    "is_api",
    "is_sdk_type",
    "kind_words",
    "mro_names",
    "result_renderer",
    "sdk_api",
    "stream_item_api",
    "unplaceable",
    "wrong_object",
    "wrong_stream_item",
]

Api = Literal["chat.completions", "responses", "anthropic", "gemini"]
"""An API toolwire speaks: OpenAI Chat Completions, OpenAI Responses,
Anthropic Messages, or Google Gemini (google-genai)."""

API_NAMES: tuple[Api, ...] = ("chat.completions", "responses", "anthropic", "gemini")


def is_api(value: object) -> TypeGuard[Api]:
    """Whether `value` is one of the API names."""
    return value in API_NAMES


class Dialect(Protocol):
    """One server's way of speaking an API (Chat Completions' `ChatServer`): accepted
    wherever an `api` is; its API's adapter, bound to it, writes for that server."""

    @property
    def api(self) -> Api: ...


def check_api(value: object) -> Api:
    """The API `value` names (an API name, or a dialect of one), or raise
    `UnknownApiError` naming the valid ones."""
    if value in API_NAMES:
        return value
    api = _dialect_api(value)
    if api is not None:
        return api
    dialects = [entry.dialect.split(":")[1] for entry in API_ENTRIES.values() if entry.dialect]
    also = f" (or a {' or '.join(dialects)})" if dialects else ""
    raise UnknownApiError(
        f"Unknown api {value!r}. Use one of: {', '.join(repr(a) for a in API_NAMES)}{also}."
    )


_DIALECT_OF: dict[type, Api | None] = {}
"""Class -> the API whose dialect class it is (or subclasses), or None."""


def _dialect_api(value: object) -> Api | None:
    kind = type(value)
    if kind in _DIALECT_OF:
        return _DIALECT_OF[kind]
    found: Api | None = None
    for entry in API_ENTRIES.values():
        if entry.dialect is None:
            continue
        module, name = entry.dialect.split(":")
        module = f"{__package__}._adapters.{entry.folder}.{module}"
        if any(c.__module__ == module and c.__qualname__ == name for c in kind.__mro__):
            found = entry.name
    _DIALECT_OF[kind] = found
    return found


# -- the registry ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ApiEntry:
    """What must be known about one API before its adapter is loaded."""

    name: Api
    title: str
    """How messages name it: "Chat Completions"."""
    folder: str
    """Its adapter package under `toolwire/_adapters/` (and its testing package,
    `toolwire/testing/_<folder>/`)."""
    sdk_modules: tuple[str, ...]
    """Module prefixes of the SDK classes that are its objects."""
    schema_rules: str
    """Where the rules its tool schemas compile with are: `<module>:<function>` under
    `toolwire._schema`, the function giving the `Profile` for strict or non-strict."""
    result_property: str
    """The property of every result that holds its native answer (`tool_message`...),
    rendered by the adapter's `native_result`."""
    dialect: str | None = None
    """The class of its dialects, `<module>:<class>` in its adapter folder (values of it
    name a server speaking this API its own way), whose adapter's `for_dialect(value)`
    binds it; None when the API has none."""


API_ENTRIES: dict[Api, ApiEntry] = {
    entry.name: entry
    for entry in (
        ApiEntry(
            name="chat.completions",
            title="Chat Completions",
            folder="openai_chat",
            sdk_modules=("openai.types.chat",),
            schema_rules="_openai:chat_profile",
            result_property="tool_message",
            dialect="servers:ChatServer",
        ),
        ApiEntry(
            name="responses",
            title="OpenAI Responses",
            folder="openai_responses",
            sdk_modules=("openai.types.responses",),
            schema_rules="_openai:responses_profile",
            result_property="output_item",
        ),
        ApiEntry(
            name="anthropic",
            title="Anthropic Messages",
            folder="anthropic",
            sdk_modules=("anthropic.types",),
            schema_rules="_anthropic:anthropic_profile",
            result_property="tool_result_block",
        ),
        ApiEntry(
            name="gemini",
            title="Gemini",
            folder="gemini",
            sdk_modules=("google.genai.types",),
            schema_rules="_gemini:gemini_profile",
            result_property="function_response_part",
        ),
    )
}
"""One entry per API: adding an API adds one here (see docs/architecture.md)."""

_LOADED: dict[object, Adapter] = {}
"""API name or dialect -> its adapter."""


def adapter(api: Api | Dialect) -> Adapter:
    """The adapter for `api` (an API name, imported on first use), or for a dialect: its
    API's adapter bound to it. Anything else raises `UnknownApiError`."""
    try:
        loaded = _LOADED.get(api)
    except TypeError:  # unhashable: not an API
        loaded = None
    if loaded is None:
        name = check_api(api)
        if isinstance(api, str):
            folder = API_ENTRIES[name].folder
            module = importlib.import_module(f"toolwire._adapters.{folder}.adapter")
            loaded = module.ADAPTER
        else:
            bind: Callable[[object], Adapter] = getattr(adapter(name), "for_dialect")  # noqa: B009
            loaded = bind(api)
        _LOADED[api] = loaded
    return loaded


def result_renderer(result_property: str) -> Callable[[Any], Any]:
    """What renders a result's `result_property` (`tool_message`...): the `native_result`
    of the adapter whose entry names it."""
    for entry in API_ENTRIES.values():
        if entry.result_property == result_property:
            return adapter(entry.name).native_result
    raise AttributeError(f"No API renders a result's {result_property!r}.")


# -- detection ---------------------------------------------------------------------


def sdk_api(kind: type) -> Api | None:
    """The API whose SDK defines `kind` (a response, message, call or item class)."""
    module = kind.__module__
    for entry in API_ENTRIES.values():
        if module.startswith(entry.sdk_modules):
            return entry.name
    return None


def api_of(obj: object) -> Api:
    """Which API `obj` (an SDK model or its dict form) belongs to.

    Raises `UnexpectedObjectError` saying to pass `api=` when no API's objects look so.
    """
    if isinstance(obj, Mapping):
        found = _api_of_dict(cast("Mapping[str, Any]", obj))
    else:
        found = sdk_api(type(obj))
    if found is None:
        raise unplaceable(cast(object, obj))
    return found


def api_or_none(obj: object) -> Api | None:
    """The API `obj` belongs to, or None when it is no API's object."""
    try:
        return api_of(obj)
    except ToolwireError:  # what it cannot place is simply not another API's object
        return None


def gemini_keys(*snake_case: str) -> frozenset[str]:
    """Gemini field names as dict keys: the SDK's snake_case and the wire's camelCase."""
    camel_case = (
        head + "".join(word.title() for word in rest)
        for head, *rest in (name.split("_") for name in snake_case)
    )
    return frozenset(snake_case) | frozenset(camel_case)


_GEMINI_ONLY_KEYS = gemini_keys(
    "candidates",
    "parts",
    "function_call",
    "thought_signature",
    "partial_args",
    "response_id",
    "prompt_feedback",
    "usage_metadata",
) | {"finishReason"}
"""Dict keys only Gemini shapes have (`finish_reason` is a chat choice's too)."""

GEMINI_PART_KEYS = gemini_keys(
    "media_resolution",
    "code_execution_result",
    "executable_code",
    "file_data",
    "function_call",
    "function_response",
    "inline_data",
    "text",
    "thought",
    "thought_signature",
    "video_metadata",
    "tool_call",
    "tool_response",
    "part_metadata",
    "audio_transcription",
    "media_processing",
    "speech_metadata",
    "document_metadata",
    "spreadsheet_metadata",
    "audio_metadata",
)
"""The keys of a Gemini `Part` dict (what `PartDict` or the wire JSON may hold)."""

ANTHROPIC_BLOCK_TYPES = frozenset(
    {
        "tool_use",
        "text",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "container_upload",
        "mcp_tool_use",
        "mcp_tool_result",
        # beta-only blocks (client.beta.messages)
        "advisor_tool_result",
        "compaction",
        "fallback",
        "mcp_tool_listing",
        "tool_addition",
        "tool_removal",
    }
)
"""The `type` of every Anthropic response content block toolwire knows."""

RESPONSES_ITEM_TYPES = frozenset(
    {
        # calls toolwire runs
        "function_call",
        "custom_tool_call",
        # client-side calls toolwire does not run
        "computer_call",
        "local_shell_call",
        "shell_call",
        "apply_patch_call",
        "mcp_approval_request",
        "tool_search_call",
        # text, reasoning, server-side tool calls (the server ran them) and outputs
        "message",
        "reasoning",
        "compaction",
        "additional_tools",
        "program",  # programmatic tool calling: the server runs the program
        "program_output",
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_response",
        "function_call_output",
        "custom_tool_call_output",
        "computer_call_output",
        "local_shell_call_output",
        "shell_call_output",
        "apply_patch_call_output",
        "tool_search_output",
        "item_reference",
    }
)
"""The `type` of every Responses output (and input) item toolwire knows."""


def _api_of_dict(data: Mapping[str, Any]) -> Api | None:
    kind = data.get("type")
    if "choices" in data or "tool_calls" in data:
        return "chat.completions"
    if _GEMINI_ONLY_KEYS & data.keys():
        return "gemini"
    if "stop_reason" in data:
        return "anthropic"
    if data.get("object") == "response" or (kind is None and "output" in data):
        return "responses"
    if isinstance(kind, str):
        if kind in ("function", "custom") and ("function" in data or "custom" in data):
            return "chat.completions"
        if kind in ANTHROPIC_BLOCK_TYPES and kind != "message":
            return "anthropic"
        if kind in RESPONSES_ITEM_TYPES:
            return "responses"
    if "function" in data and "id" in data:
        return "chat.completions"
    role, content = data.get("role"), data.get("content")
    if role == "assistant":
        if isinstance(content, list) and content and isinstance(content[0], Mapping):
            return "anthropic"
        return "chat.completions"
    if "name" in data and ("args" in data or set(data) <= {"name", "id", "args"}):
        return "gemini"
    if "content" in data and ("finishReason" in data or "finish_reason" in data):
        return "gemini"  # a candidate (a chat choice holds a "message" instead)
    if kind is None and data and data.keys() <= GEMINI_PART_KEYS:
        return "gemini"  # a text, thought or other non-call part
    return None


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


_SDK_PREFIXES = ("openai.", "anthropic.", "google.genai.")
_SDK_PACKAGES = frozenset({"openai", "anthropic"})
"""Modules the SDKs rewrite their public classes' `__module__` to (`openai.Stream`)."""


def is_sdk_type(kind: type) -> bool:
    """Whether `kind` is defined by one of the three provider SDKs."""
    module = kind.__module__
    return module.startswith(_SDK_PREFIXES) or module in _SDK_PACKAGES


def mro_names(kind: type, module_prefix: str) -> frozenset[str]:
    """Names of the classes `kind` is (itself and its bases) defined under `module_prefix`:
    an SDK subclass (`ParsedChatCompletion`, `BetaMessage`...) counts as its base."""
    return frozenset(c.__name__ for c in kind.__mro__ if c.__module__.startswith(module_prefix))


# -- mismatch messages -------------------------------------------------------------


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
        advice = f"it belongs to the {_title(other)} API: pass api={other!r}."
    else:
        advice = f"pass what the {_title(api)} client returned, or its dict form."
    return UnexpectedObjectError(f"Expected {expected}, got {_describe(obj)}: {advice}")


def first_problem(error: pydantic.ValidationError) -> str:
    """Where an SDK model refused a dict, and why (`candidates: Input should be...`)."""
    first = error.errors(include_url=False, include_input=False)[0]
    return ".".join(str(piece) for piece in first["loc"]) + ": " + first["msg"]


def wrong_stream_item(item: object, api: Api) -> UnexpectedObjectError:
    """The error for `item` fed to a `ToolCallStream(api)` that cannot take it."""
    if inspect.isawaitable(item):
        advice = "await the request first, then feed each chunk of the stream it returns."
    elif _is_stream(item) and type(item).__name__.endswith("Manager"):
        advice = (
            "this is the SDK's stream helper before it is entered: enter it (`with "
            "client....stream(...) as stream:`, or `async with`) and feed each event of "
            "`stream` (`for event in stream: events = tool_stream.feed(event)`)."
        )
    elif _is_stream(item):
        advice = (
            "this is the whole stream: feed its items one by one (`for chunk in stream: "
            "events = tool_stream.feed(chunk)`, or `async for` with the async client)."
        )
    elif (other := stream_item_api(type(item))) is not None and other != api:
        advice = f"it comes from a {_title(other)} stream: use ToolCallStream({other!r})."
    elif (other := api_or_none(item)) is not None and other != api:
        advice = f"it belongs to the {_title(other)} API: use ToolCallStream({other!r})."
    else:
        advice = f"feed the chunks or events the {_title(api)} SDK's stream yields."
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


def kind_words(obj: object) -> str:
    """`obj`'s kind in a few words: 'an openai ChatCompletion', 'a dict', 'a str'."""
    kind = type(obj)
    if is_sdk_type(kind):
        package = kind.__module__.split(".")[0]
        package = "google-genai" if package == "google" else package
        return f"{_article(package)} {package} {kind.__name__}"
    return f"{_article(kind.__name__)} {kind.__name__}"


def _title(api: Api) -> str:
    return API_ENTRIES[api].title


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


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


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


def _is_stream(obj: object) -> bool:
    """A stream, its manager, or a generator of chunks (google-genai's streams)."""
    kind = type(obj)
    if kind.__name__ in _STREAM_CLASSES and is_sdk_type(kind):
        return True
    if isinstance(obj, Mapping | str | bytes | list | tuple):
        return False
    return isinstance(obj, Iterator | AsyncIterator)
