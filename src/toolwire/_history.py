"""History helpers: the assistant turn to replay, and the results to append after it.

With these, one loop shape fits all four APIs::

    while True:
        response = call_the_api(history)
        history.extend(assistant_messages(response, api))
        results = group.run_tool_calls(response, context)
        if not results:
            break
        history.extend(tool_result_messages(results, api))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from typing_extensions import TypeAliasType

from ._api import Api, adapter, check_api, kind_words
from ._definition import CacheBreakpoint, cache_ttl
from ._media import ChosenPlacement, MediaPlacement, MediaReport, plan
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess
from ._turn import TurnStatus
from .exceptions import UnexpectedObjectError

if TYPE_CHECKING:
    from anthropic.types import ContentBlock, Message, MessageParam
    from anthropic.types.beta import BetaContentBlock, BetaMessage
    from google.genai.types import Candidate, Content, GenerateContentResponse
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionAssistantMessageParam,
        ChatCompletionMessage,
        ChatCompletionMessageParam,
    )
    from openai.types.responses import Response, ResponseInputItemParam, ResponseOutputItem

    from ._adapters._base import Adapter
    from ._adapters.openai_chat.servers import ChatServer

__all__ = [
    "AnyResponse",
    "AnthropicTurn",
    "ChatTurn",
    "GeminiTurn",
    "ResponsesTurn",
    "TurnStatus",
    "assistant_messages",
    "media_report",
    "tool_result_messages",
    "turn_status",
]

if TYPE_CHECKING:
    ChatTurn = TypeAliasType(
        "ChatTurn",
        ChatCompletion
        | ChatCompletionMessage
        | ChatCompletionAssistantMessageParam
        | Mapping[str, Any],
    )
    """A Chat Completions turn: the `ChatCompletion`, its message, or their dict forms."""
    ResponsesTurn = TypeAliasType("ResponsesTurn", Response | list[Any] | Mapping[str, Any])
    """A Responses turn: the `Response`, its output items, or their dict forms."""
    AnthropicTurn = TypeAliasType(
        "AnthropicTurn", Message | BetaMessage | MessageParam | Mapping[str, Any]
    )
    """An Anthropic turn: the `Message` (or `BetaMessage`), or its dict form."""
    GeminiTurn = TypeAliasType(
        "GeminiTurn", GenerateContentResponse | Candidate | Content | list[Any] | Mapping[str, Any]
    )
    """A Gemini turn: the response, its candidate, its `Content`, its parts, or dict forms."""
    AnyResponse = TypeAliasType(
        "AnyResponse",
        ChatCompletion
        | ChatCompletionMessage
        | Response
        | Message
        | BetaMessage
        | GenerateContentResponse
        | Candidate
        | Content
        | Sequence[ResponseOutputItem]
        | Sequence[ContentBlock]
        | Sequence[BetaContentBlock],
    )
    """A whole response or message of any API, a Gemini candidate, or the items of one
    (`response.output`, `message.content`): only their calls are read."""
else:
    ChatTurn = TypeAliasType("ChatTurn", object)
    ResponsesTurn = TypeAliasType("ResponsesTurn", object)
    AnthropicTurn = TypeAliasType("AnthropicTurn", object)
    GeminiTurn = TypeAliasType("GeminiTurn", object)
    AnyResponse = TypeAliasType("AnyResponse", object)


@overload
def assistant_messages(
    response: ChatTurn, api: Literal["chat.completions"] | ChatServer
) -> list[ChatCompletionAssistantMessageParam]: ...
@overload
def assistant_messages(
    response: ResponsesTurn, api: Literal["responses"]
) -> list[ResponseInputItemParam]: ...
@overload
def assistant_messages(
    response: AnthropicTurn, api: Literal["anthropic"]
) -> list[MessageParam]: ...
@overload
def assistant_messages(response: GeminiTurn, api: Literal["gemini"]) -> list[Content]: ...
def assistant_messages(response: object, api: Api | ChatServer) -> list[Any]:
    """The assistant turn of `response`, in the form `api` accepts back in its history.

    chat: one assistant message param, with what the server sent that its next turn
    needs (reasoning fields, each call's `extra_content`; which ones, and the form of
    content and ids, follow the `ChatServer` given as `api`); responses: the output
    items (reasoning items with `encrypted_content` kept); anthropic: one assistant
    message (thinking blocks and signatures kept); gemini: the candidate's `Content`,
    unchanged. Otherwise only keys the SDK's param types define. A call that came
    without an id gets the same synthesized id here as in the results (pass the same
    object to both). An object that is not `api`'s (another API's response, a stream,
    one chunk of it) raises `UnexpectedObjectError`.
    """
    return adapter(api).assistant_messages(response)


@overload
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Literal["chat.completions"] | ChatServer,
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[ChatCompletionMessageParam]: ...
@overload
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Literal["responses"],
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[ResponseInputItemParam]: ...
@overload
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Literal["anthropic"],
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[MessageParam]: ...
@overload
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Literal["gemini"],
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[Content]: ...
@overload
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Api | ChatServer,
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[Any]: ...
def tool_result_messages(
    results: Sequence[ToolCallResult[Any]],
    api: Api | ChatServer,
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
    cache_breakpoint: CacheBreakpoint = False,
) -> list[Any]:
    """What to append after the assistant turn: one tool message per call (chat), one
    output item per call (responses), one user message starting with every
    `tool_result` (anthropic), one user `Content` with every function response (gemini).
    Empty when `results` is empty.

    Images and files a handler returned go inside the results where the API takes them
    (`media="native"`, the default), or in one user message right after them
    (`media="message"`). `media="auto"` chooses by `model`, the model that made the
    calls (the name you called, or the response's model version): inside the results,
    except for Gemini models before 3, which answer 400 to media in function responses,
    and for Gemini when `model` is not given, where only the message is safe. Chat Completions
    always uses the message: its tool messages take text only. What an API takes
    nowhere becomes a note the model reads; `media_report` says what went where. Rules that count a request's images count the images of
    `results` together: Anthropic takes sides of up to 2000 px (not 8000) past 20
    images, and counts earlier turns' images too, which `check_history` sees.

    `cache_breakpoint=True` (or a lifetime) ends the answer with a prompt-cache
    breakpoint where the API takes explicit ones: Anthropic (`cache_control` on the
    message's last block; "5m" or "1h"), Responses and OpenAI's Chat Completions
    (`prompt_cache_breakpoint` on the answer's last content part, a tool message's text
    becoming its one text part; "30m" or "12h"; items with none, such as the
    `additional_tools` a tool reference adds, may follow it). Use it on long results
    the next turns reread; Anthropic takes at most four breakpoints in a request,
    tools, system and messages together. Gemini and the Chat Completions servers that
    take no explicit breakpoints (`ChatServer.cache_breakpoints`) cache on their own:
    nothing is added.
    """
    if not results:
        return []
    try:
        if media == "native" and cache_breakpoint is False:
            try:  # each result's answer, enclosed as its API wants: looked up once per API
                answer, enclose = _TEXT_ANSWERS[api]
            except (KeyError, TypeError):  # TypeError: unhashable, so no API (adapter says)
                answer, enclose = _text_answer(api)
            answers: list[Any] = []
            for result in results:  # an answer of text results (the common case), in one pass
                if result.result_parts:
                    break  # images or files: the adapter places them
                answers.append(answer(result))
            else:
                return answers if enclose is None else enclose(answers)
    except (AttributeError, TypeError):  # checked only once rendering failed
        mistake = _not_results(results, "tool_result_messages", api)
        if mistake is None:
            raise
        raise mistake from None
    ttl = False if cache_breakpoint is False else cache_ttl(cache_breakpoint)
    served = adapter(api)
    chosen = "native" if media == "native" else _chosen_placement(served, media, model)
    try:
        rendered = served.tool_result_messages(results, chosen)
    except (AttributeError, TypeError):  # checked only once rendering failed
        mistake = _not_results(results, "tool_result_messages", api)
        if mistake is None:
            raise
        raise mistake from None
    if ttl is not False:
        served.mark_cache_breakpoint(rendered, ttl, where="results")
    return rendered


_TextAnswer = tuple[Callable[[Any], Any], Callable[[list[Any]], list[Any]] | None]

_TEXT_ANSWERS: dict[Api | ChatServer, _TextAnswer] = {}
"""API (or dialect) -> how its adapter renders an answer of text results: each result's
`native_result` and its `enclose_answers`, looked up once."""


def _text_answer(api: Api | ChatServer) -> _TextAnswer:
    """How `api`'s adapter renders an answer of text results, remembered; an `api` that
    is no API raises `UnknownApiError` (from `adapter`)."""
    served = adapter(api)
    text_answer = _TEXT_ANSWERS[api] = (served.native_result, served.enclose_answers)
    return text_answer


def media_report(
    results: Sequence[ToolCallResult[Any]],
    api: Api | ChatServer,
    *,
    media: MediaPlacement = "native",
    model: str | None = None,
) -> MediaReport:
    """Where `tool_result_messages(results, api, media=media, model=model)` puts each
    image and file of the results, and why when not inside the result;
    `report.undelivered` lists the ones the API takes nowhere (the model reads a note
    about each instead)."""
    served = adapter(api)
    name = check_api(api)
    chosen = _chosen_placement(served, media, model)
    try:
        deliveries = plan(
            results,
            name,
            served.media_rule(results),
            chosen,
            native_search_results=served.native_search_results,
        )
        return MediaReport(name, tuple(deliveries))
    except (AttributeError, TypeError):  # checked only once planning failed
        mistake = _not_results(results, "media_report", api)
        if mistake is None:
            raise
        raise mistake from None


def _chosen_placement(served: Adapter, media: MediaPlacement, model: str | None) -> ChosenPlacement:
    """`media` with "auto" decided by `served`'s API for `model`; a clear error for a
    value that is no placement."""
    if media == "auto":
        return served.auto_media(model)
    if media not in ("native", "message"):
        raise ValueError(f"media must be 'auto', 'native' or 'message', not {media!r}.")
    return media


def _not_results(
    results: object, function: str, api: Api | ChatServer
) -> UnexpectedObjectError | None:
    """The error for `results` that is not a sequence of results (a response, one result,
    a list of calls...), saying what to pass; None when it is one (the failure lies
    elsewhere)."""
    fix = "pass the list that group.run_tool_calls(response, context) returned"
    kind = type(results).__name__
    if isinstance(results, ToolCallSuccess | ToolCallFailure):
        return UnexpectedObjectError(
            f"{function}() takes the results of a turn, not one {kind}: "
            f"{fix}, whole (every call of a turn is answered at once)."
        )
    if not isinstance(results, Sequence) or isinstance(results, str | bytes):
        return UnexpectedObjectError(
            f"{function}() takes the results of a turn, not {kind_words(results)}: {fix} "
            f"(the response itself goes to assistant_messages(response, {api!r}))."
        )
    items = cast("Sequence[object]", results)
    for index, item in enumerate(items):
        if not isinstance(item, ToolCallSuccess | ToolCallFailure):
            return UnexpectedObjectError(
                f"{function}() takes the results of a turn, but item [{index}] of this "
                f"{kind} is {kind_words(item)}: {fix}."
            )
    return None


@overload
def turn_status(
    response: ChatTurn, api: Literal["chat.completions"] | ChatServer
) -> TurnStatus: ...
@overload
def turn_status(response: ResponsesTurn, api: Literal["responses"]) -> TurnStatus: ...
@overload
def turn_status(response: AnthropicTurn, api: Literal["anthropic"]) -> TurnStatus: ...
@overload
def turn_status(response: GeminiTurn, api: Literal["gemini"]) -> TurnStatus: ...
def turn_status(response: object, api: Api | ChatServer) -> TurnStatus:
    """Why the turn ended: "tool_calls", "done", "truncated", "paused", "refused",
    "malformed" or "calls_in_text" (see `TurnStatus`). An object that is not `api`'s
    raises `UnexpectedObjectError`."""
    return adapter(api).turn_status(response)
