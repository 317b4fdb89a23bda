"""Guardrails as hooks: what a `before` hook returns to refuse a call, what an `after`
hook returns to replace what the model sees, and the record of either on the result.

The hooks of `ToolHooks` were observers; a guardrail is the same hook with a verdict.
`before` returns `RefuseCall(text)`: the handler does not run and the model reads the
text as a "refused" failure. `after` returns `ReplaceContent(content)`: the model reads
that content instead of the handler's (a redaction, a summary). Either way the result
says so (`result.guardrail`, a `GuardrailRecord` keeping what the model did not see),
and so does the call's span. Returning None changes nothing, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ._parts import FilePart, ImagePart, ResultPart, SearchResultPart, ToolContent, parts_text
from ._references import ToolReference
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess

if TYPE_CHECKING:
    from ._call import StandardToolCall

__all__ = [
    "GuardrailRecord",
    "RefuseCall",
    "ReplaceContent",
    "after_verdict",
    "before_verdict",
]


@dataclass(frozen=True, slots=True)
class RefuseCall:
    """Return it from a `before` hook to refuse the call: its handler does not run, and
    the call is answered with a "refused" failure whose text (`text`) the model reads,
    e.g. `RefuseCall("Paths outside /workspace are not allowed; pick one inside it.")`.
    """

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text.strip():
            raise TypeError(
                f"RefuseCall(text) takes the text the model reads (non-empty); got {self.text!r}."
            )


@dataclass(frozen=True, slots=True)
class ReplaceContent:
    """Return it from an `after` hook to replace what the model sees of the call's
    result: text, or a sequence of text, `ImagePart`, `FilePart` and `ToolReference`
    (as a handler returns). A success stays a success with the same `context`; a
    failure stays a failure with the same reason, and takes text only.
    """

    content: ToolContent

    def __post_init__(self) -> None:
        content: object = self.content
        if isinstance(content, str):
            return
        if isinstance(content, Sequence) and all(isinstance(part, _PART_TYPES) for part in content):
            object.__setattr__(self, "content", tuple(content))
            return
        raise TypeError(
            "ReplaceContent(content) takes text, or a list of str, ImagePart, FilePart, "
            f"ToolReference and SearchResultPart (as a handler returns); got {content!r}."
        )


_PART_TYPES = (str, ImagePart, FilePart, ToolReference, SearchResultPart)


@dataclass(frozen=True, slots=True)
class GuardrailRecord:
    """What a guardrail hook did to a call (`result.guardrail`).

    Attributes:
        hook: "before" (it refused the call: no handler ran) or "after" (it replaced
            the result's content).
        action: "refused" or "replaced".
        original: for "replaced", the result as the handler made it (its content,
            parts and context), which the model did not see; None for "refused".
    """

    hook: Literal["before", "after"]
    action: Literal["refused", "replaced"]
    original: ToolCallResult[Any] | None = None


def before_verdict(returned: object, call: StandardToolCall) -> ToolCallFailure | None:
    """What a `before` hook's return value means: None (run the call), or the "refused"
    failure answering it. Anything else is a mistake in the hook: `TypeError`."""
    if returned is None:
        return None
    if type(returned) is RefuseCall:
        refusal = ToolCallFailure(
            call.id, call.name, returned.text, "refused", None, call.type, call.synthesized_id
        )
        refusal._guardrail = GuardrailRecord("before", "refused")
        return refusal
    raise TypeError(
        f"The before hook returned {returned!r}; return None to run the call, or "
        "RefuseCall(text) to refuse it (the model reads the text)."
    )


def after_verdict(
    returned: object, result: ToolCallResult[Any] | None
) -> ToolCallResult[Any] | None:
    """What an `after` hook's return value makes of `result`: the same result (None
    returned), or one with the replacement content. Anything else, or a replacement for
    a call whose handler raised (no result to replace), is a mistake: `TypeError`."""
    if returned is None:
        return result
    if type(returned) is not ReplaceContent:
        raise TypeError(
            f"The after hook returned {returned!r}; return None to keep the result, or "
            "ReplaceContent(content) to replace what the model sees."
        )
    if result is None:
        raise TypeError(
            "The after hook returned ReplaceContent for a call whose handler raised: there "
            "is no result to replace. Check `end.result is not None` first."
        )
    content = returned.content
    record = GuardrailRecord("after", "replaced", result)
    if result.fail_reason is not None:
        if not isinstance(content, str):
            raise TypeError(
                "The after hook returned ReplaceContent with parts for a failed call; a "
                "failure's content is text: pass a str."
            )
        replaced: ToolCallResult[Any] = ToolCallFailure(
            result.call_id,
            result.name,
            content,
            result.fail_reason,
            result.exception,
            result.type,
            result.synthesized_id,
        )
    else:
        parts: tuple[ResultPart, ...] = () if isinstance(content, str) else tuple(content)
        replaced = ToolCallSuccess(
            result.call_id,
            result.name,
            content if isinstance(content, str) else parts_text(parts),
            result.context,
            result.type,
            result.synthesized_id,
            result_parts=parts,
        )
    replaced._guardrail = record
    return replaced
