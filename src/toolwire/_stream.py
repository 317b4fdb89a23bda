"""`ToolCallStream`: feed it each item the SDK's stream yields; get events and, at
the end, the API's own non-streaming response object.

The public façade stands above the adapters: it asks the registry for its API's
adapter and drives that adapter's stream accumulator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Literal, overload

from typing_extensions import TypeVar

from ._api import Api, adapter, check_api

if TYPE_CHECKING:
    from anthropic.types import Message
    from google.genai.types import GenerateContentResponse
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    from ._adapters._base import StreamAccumulator
    from ._adapters.openai_chat.servers import ChatServer
    from ._call import StandardToolCall
    from ._streaming._events import StreamEvent

__all__ = ["ToolCallStream"]

R = TypeVar("R", default=Any)


class ToolCallStream(Generic[R]):
    """Accumulates one streamed turn of `api`. The caller's loop owns the stream::

        stream = ToolCallStream("chat.completions")
        for chunk in client.chat.completions.create(..., stream=True):
            for event in stream.feed(chunk):
                ...  # TextDelta, ToolCallStarted, ToolCallArgumentsDelta, ToolCallCompleted...
        response = stream.final_response()   # a ChatCompletion, as if not streamed

    Feeding is synchronous and linear in the input, so it works in sync and async
    loops alike. A call is reported complete only when toolwire would run it; a call
    cut off by a length limit is reported as `ToolCallTruncated`.

    `partial_args` (Gemini only) says what to do with Vertex AI's argument streaming
    (`FunctionCallingConfig(stream_function_call_arguments=True)`, calls sent as
    `FunctionCall.partial_args` fragments over several chunks): `"refuse"` (the
    default) raises `ToolwireError` on the first such chunk, saying to turn the setting
    off or to fold; `"fold"` turns the fragments into `ToolCallArgumentsDelta`s with
    previews, as on the other APIs, and `final_response()` holds one merged call. Any
    other value, or `"fold"` on another API, raises `ValueError`.
    """

    @overload
    def __init__(
        self: ToolCallStream[ChatCompletion], api: Literal["chat.completions"] | ChatServer
    ) -> None: ...
    @overload
    def __init__(self: ToolCallStream[Response], api: Literal["responses"]) -> None: ...
    @overload
    def __init__(self: ToolCallStream[Message], api: Literal["anthropic"]) -> None: ...
    @overload
    def __init__(
        self: ToolCallStream[GenerateContentResponse],
        api: Literal["gemini"],
        *,
        partial_args: Literal["refuse", "fold"] = "refuse",
    ) -> None: ...
    @overload
    def __init__(
        self: ToolCallStream[Any],
        api: Api | ChatServer,
        *,
        partial_args: Literal["refuse", "fold"] = "refuse",
    ) -> None: ...
    def __init__(
        self, api: Api | ChatServer, *, partial_args: Literal["refuse", "fold"] = "refuse"
    ) -> None:
        self.api: Api = check_api(api)
        if partial_args != "refuse" and partial_args != "fold":
            raise ValueError(
                f"partial_args must be 'refuse' or 'fold', not {partial_args!r}: 'fold' folds "
                "Vertex AI's streamed argument fragments into one call, 'refuse' (the "
                "default) raises on them."
            )
        self._accumulator: StreamAccumulator = adapter(api).stream_accumulator(
            fold_partial_args=partial_args == "fold"
        )
        # `feed` runs once per streamed chunk, so the instance holds the accumulator's
        # own bound method: one call layer less (the method below documents it).
        self.feed = self._accumulator.feed

    def feed(self, item: object) -> list[StreamEvent]:
        """Fold one raw stream item (a chunk or event, exactly as the SDK yields it) and
        return the events it produced, in order."""
        return self._accumulator.feed(item)

    def final_response(self) -> R:
        """The API's own non-streaming response type, with the content the
        non-streamed call would have had. Raises `StreamIncompleteError` if the
        stream ended before the API said the turn was over."""
        response: R = self._accumulator.final_response()
        return response

    @property
    def completed_calls(self) -> list[StandardToolCall]:
        """Calls reported complete or truncated so far, in order."""
        return self._accumulator.completed_calls()
