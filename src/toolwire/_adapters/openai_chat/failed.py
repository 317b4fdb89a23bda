"""`failed_generation`: a turn a Chat Completions server refused to return because the
model's tool call failed the server's own check, made into a retry the model can act on.

Groq checks each call against its tool's schema and answers HTTP 400 `tool_use_failed`,
with what the model wrote in `failed_generation`, instead of the turn (mid-stream, as an
`error` event the SDK raises). There is no completion to dispatch: the next request must
tell the model what went wrong, or it repeats the same call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

__all__ = ["FailedGeneration", "failed_generation"]


@dataclass(frozen=True, slots=True)
class FailedGeneration:
    """What the model wrote, and why the server refused it."""

    text: str
    """The model's output as the server quotes it (its attempted call)."""
    reason: str
    """The server's message: what was wrong with the call."""
    code: str | None
    """The server's error code (Groq: "tool_use_failed")."""

    @property
    def messages(self) -> list[ChatCompletionMessageParam]:
        """What to append to the history before asking again: the model's attempt, as an
        assistant message, and a user message saying why it failed and what to do."""
        return [
            {"role": "assistant", "content": self.text},
            {
                "role": "user",
                "content": (
                    "Your tool call above was rejected before it could run: "
                    f"{self.reason.rstrip('. ')}. Call the tool again, with arguments that "
                    "match its schema exactly."
                ),
            },
        ]


def failed_generation(error: BaseException) -> FailedGeneration | None:
    """The refused generation an SDK error carries (`openai.BadRequestError`, or the
    `openai.APIError` a stream raises at its `error` event), or None when `error` is not
    one: then raise it again.

    Reads an error body holding `failed_generation` (Groq's `tool_use_failed`)::

        try:
            response = client.chat.completions.create(...)
        except openai.BadRequestError as error:
            failed = failed_generation(error)
            if failed is None:
                raise
            history.extend(failed.messages)  # then ask again
    """
    body: object = getattr(error, "body", None)
    if isinstance(body, Mapping) and "error" in body:  # a body the SDK did not unwrap
        body = cast("Mapping[str, Any]", body)["error"]
    if not isinstance(body, Mapping):
        return None
    fields = cast("Mapping[str, Any]", body)
    text = fields.get("failed_generation")
    if not isinstance(text, str):
        return None
    message = fields.get("message")
    reason = message if isinstance(message, str) and message else "the server refused it."
    code = fields.get("code")
    return FailedGeneration(text, reason, code if isinstance(code, str) else None)
