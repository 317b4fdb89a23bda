"""What a handler returns, and what toolwire returns for every call."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, overload

from typing_extensions import TypeAliasType, TypeVar

from ._api import result_renderer
from ._parts import ResultPart, ToolContent

if TYPE_CHECKING:
    from collections.abc import Callable

    from anthropic.types import ToolResultBlockParam
    from google.genai.types import Part
    from openai.types.chat import ChatCompletionToolMessageParam
    from openai.types.responses import ResponseCustomToolCallOutputParam
    from openai.types.responses.response_input_param import FunctionCallOutput

    from ._argument_repair import ArgumentRepair
    from ._budget import ResultCut
    from ._call import AnyToolCall, CallType
    from ._decisions import ArgumentEdit
    from ._guardrails import GuardrailRecord

__all__ = [
    "HandlerResult",
    "ToolCallFailReason",
    "ToolCallFailure",
    "ToolCallResult",
    "ToolCallSuccess",
]

T = TypeVar("T")

ToolCallFailReason = Literal[
    "invalid_name",
    "invalid_arguments",
    "explicit_handler_error",
    "truncated",
    "unexpected_error",
    "timeout",
    "not_run",
    "refused",
]
"""Why a call failed.

- "invalid_name": the model called a tool that is not in the group.
- "invalid_arguments": the arguments were not a JSON object, broke a size or depth
  limit, or failed the tool model's validation.
- "explicit_handler_error": the handler raised `ErrorForLLMToSee`.
- "truncated": a length limit cut the call off; it was not run.
- "unexpected_error": the handler raised something else and the caller asked for
  such exceptions to become failures (`unexpected_errors="fail"`); the model sees a
  generic message, never the exception's text.
- "timeout": (aio) the handler ran past the batch's per-call timeout and was cancelled.
- "not_run": the call was not run because another call in its batch raised
  unexpectedly (made by `ToolBatchError.answer_all()`).
- "refused": you decided not to run it (`PendingCall.refuse(reason)`, or an approval
  function saying no); the model reads your reason.
"""


Content = TypeVar("Content", bound=ToolContent, default=ToolContent)


class HandlerResult(NamedTuple, Generic[T, Content]):
    """What a handler returns: what the model sees (text, or a sequence of text,
    `ImagePart` and `FilePart`) and the context for your code.

    `HandlerResult[Context]` holds any content; the second parameter narrows it, and is
    inferred: `HandlerResult("done", 3)` is a `tuple[str, int]` (as toolcall's was).
    """

    result_content: Content
    context: T


class _NativeForm:
    """A result property holding the result in one API's native form: rendered by the
    adapter whose registry entry names the property, found on the first read."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self._name = ""
        self._render: Callable[[Any], Any] | None = None

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, result: object, owner: type | None = None) -> Any:
        if result is None:
            return self
        render = self._render
        if render is None:
            render = self._render = result_renderer(self._name)
        return render(result)


@cache
def _slot_names(cls: type) -> tuple[str, ...]:
    """The slots of a result class and its bases: what its state is made of."""
    return tuple(name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ()))


class _ReplacedFrom:
    """The channel `dataclasses.replace` (and 3.13's `copy.replace`) carries a result's
    records through.

    `replace(result, **changes)` builds the copy as `type(result)(**changes)`, adding for
    every init field it was not given the value read from `result`, InitVars with a
    default included. Each result class declares one keyword-only InitVar,
    `_replaced_from`, whose class attribute is this descriptor: read on a result it gives
    the result itself, so the copy's `__init__` receives its source and keeps the records
    that still hold (`_carry_records`). Built any other way, a result gets None and pays
    one `is None` test.
    """

    def __get__(self, result: object, owner: type | None = None) -> object:
        return result


_REPLACED_FROM: Any = _ReplacedFrom()


class _ResultBase:
    """The provider-native forms every result offers (rendered by each API's adapter)."""

    __slots__ = (
        "_cut",
        "_edit",
        "_guardrail",
        "_pending_origin",
        "_refusing",
        "_repairs",
        "_retries_exhausted",
    )

    def __getstate__(self) -> dict[str, Any]:
        """Every slot that is set: the fields, and the records kept beside them (`edit`,
        `cut`, `guardrail`, `repairs`, `retries_exhausted`, a refusal's origin), so that
        pickle (at any protocol), `copy.copy` and `copy.deepcopy` keep them all
        (`dataclasses.replace` keeps those that still hold: see `_carry_records`). Not
        `_refusing`: a link to a live `PendingCall`, which a copy must not use up."""
        return {
            name: getattr(self, name)
            for name in _slot_names(type(self))
            if name != "_refusing" and hasattr(self, name)
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    _pending_origin: tuple[tuple[str, ...], int]
    """Set only on a refusal `PendingCall.refuse` made: the response (its call ids) and
    position of the call it answers, so `run_pending` can tell it from another answer
    to the same id. Not a field: unset on every other result, costing nothing."""
    _refusing: Any
    """Set only on a refusal `PendingCall.refuse` made: that `PendingCall`, which
    `run_pending` uses up when it sends the refusal (so the refused call cannot run
    later)."""
    _repairs: tuple[ArgumentRepair, ...]
    _retries_exhausted: bool
    # Set only by a batch run with `repair=` or `retries=` (see the properties below):
    # unset on every other result, costing nothing.

    @property
    def repairs(self) -> tuple[ArgumentRepair, ...]:
        """What argument repair (`run_tool_calls(..., repair=RepairPolicy())`) changed in
        the call's arguments so that they validated, in order; empty when nothing was."""
        return getattr(self, "_repairs", ())

    @property
    def retries_exhausted(self) -> bool:
        """True on a failure that spent its tool's retry budget (`retries=RetryBudget()`):
        its text tells the model to stop calling the tool."""
        return getattr(self, "_retries_exhausted", False)

    _edit: ArgumentEdit
    """Set only on the result of a call whose arguments a person edited (see `edit`)."""

    @property
    def edit(self) -> ArgumentEdit | None:
        """How a person changed this call's arguments before it ran (`pending.edit(...)`:
        the model's arguments, what ran instead, the note the model read), or None."""
        return getattr(self, "_edit", None)

    _guardrail: GuardrailRecord
    _cut: ResultCut
    """Set only on a result a guardrail hook or a result budget changed (see
    `guardrail`, `cut`): unset on every other result, costing nothing."""

    @property
    def guardrail(self) -> GuardrailRecord | None:
        """What a guardrail hook did to this call (`RefuseCall` from `before`,
        `ReplaceContent` from `after`), keeping what the model did not see; None when
        no hook refused or replaced anything."""
        try:
            return self._guardrail
        except AttributeError:
            return None

    @property
    def cut(self) -> ResultCut | None:
        """What the result's `ResultBudget` cut (the full content the model did not read,
        and how much); None when the model reads all of it."""
        try:
            return self._cut
        except AttributeError:
            return None

    if TYPE_CHECKING:  # what the type checker sees: each SDK's own param type

        @property
        def tool_message(self) -> ChatCompletionToolMessageParam:
            """Chat Completions: the `role="tool"` message answering this call."""
            ...

        @property
        def output_item(self) -> FunctionCallOutput | ResponseCustomToolCallOutputParam:
            """Responses: the `function_call_output` (or `custom_tool_call_output`) input
            item."""
            ...

        @property
        def tool_result_block(self) -> ToolResultBlockParam:
            """Anthropic: the `tool_result` block (with `is_error: true` on failures)."""
            ...

        @property
        def function_response_part(self) -> Part:
            """Gemini: the `function_response` Part (output under "output", errors under
            "error")."""
            ...

    else:  # at run time: each rendered by the adapter that serves it
        tool_message = _NativeForm(
            'Chat Completions: the `role="tool"` message answering this call.'
        )
        output_item = _NativeForm(
            "Responses: the `function_call_output` (or `custom_tool_call_output`) input item."
        )
        tool_result_block = _NativeForm(
            "Anthropic: the `tool_result` block (with `is_error: true` on failures)."
        )
        function_response_part = _NativeForm(
            'Gemini: the `function_response` Part (output under "output", errors under "error").'
        )


@dataclass(slots=True, init=False)
class ToolCallSuccess(_ResultBase, Generic[T]):
    """A call whose handler returned. Treat it as read-only.

    Attributes:
        call_id: the id of the call this answers (see `synthesized_id`).
        name: the tool name the model called.
        result_content: the text the model will see (a result of parts: its text parts,
            joined by newlines).
        context: what the handler returned for your code.
        type: "function", "custom" or "tool_search", like the call.
        synthesized_id: True when `call_id` was made up by toolwire (the provider sent none).
        result_parts: the parts the handler returned (text, `ImagePart`, `FilePart`), in
            order; empty when it returned plain text (then `result_content` is all).

    Built by hand, it also takes toolcall's keyword form, without `name` (it stays "").
    `repr` and `==` show the fields above; `edit`, `cut`, `guardrail`, `repairs` and
    `retries_exhausted` are kept beside them, and pickle and copies keep them too
    (`dataclasses.replace` keeps those still true of the copy: see `_carry_records`).
    """

    call_id: str
    name: str
    result_content: str
    context: T
    type: CallType = "function"
    synthesized_id: bool = False
    fail_reason: None = None
    exception: None = None
    result_parts: tuple[ResultPart, ...] = ()
    if not TYPE_CHECKING:  # not a field: the source of a `dataclasses.replace` copy
        _replaced_from: InitVar[object] = field(default=_REPLACED_FROM, kw_only=True)

    @overload
    def __init__(
        self,
        call_id: str,
        name: str,
        result_content: str,
        context: T,
        type: CallType = "function",
        synthesized_id: bool = False,
        fail_reason: None = None,
        exception: None = None,
        result_parts: tuple[ResultPart, ...] = (),
    ) -> None: ...
    @overload
    def __init__(
        self,
        *,
        call_id: str,
        result_content: str,
        context: T,
        type: CallType = "function",
        fail_reason: None = None,
        exception: None = None,
    ) -> None: ...

    def __init__(  # a dataclass __init__ with `name` optional, for toolcall's form
        self,
        call_id: str,
        name: str = "",
        result_content: str = "",
        context: Any = None,
        type: CallType = "function",
        synthesized_id: bool = False,
        fail_reason: None = None,
        exception: None = None,
        result_parts: tuple[ResultPart, ...] = (),
        *,
        _replaced_from: ToolCallResult[Any] | None = None,
    ) -> None:
        self.call_id = call_id
        self.name = name
        self.result_content = result_content
        self.context = context
        self.type = type
        self.synthesized_id = synthesized_id
        self.fail_reason = fail_reason
        self.exception = exception
        self.result_parts = result_parts
        if _replaced_from is not None:
            _carry_records(_replaced_from, self)


@dataclass(slots=True, init=False)
class ToolCallFailure(_ResultBase):
    """A call answered with an error the model can act on. Treat it as read-only.

    Attributes:
        call_id: the id of the call this answers (see `synthesized_id`).
        name: the tool name the model called.
        result_content: the error text the model will see.
        fail_reason: why it failed (see `ToolCallFailReason`).
        exception: the underlying exception (a `pydantic.ValidationError`, an
            `ErrorForLLMToSee`, the handler's unexpected exception...), if any.
        type: "function", "custom" or "tool_search", like the call.
        synthesized_id: True when `call_id` was made up by toolwire (the provider sent none).

    Built by hand, it also takes toolcall's keyword form, without `name` (it stays "").
    `repr` and `==` show the fields above; `edit`, `cut`, `guardrail`, `repairs` and
    `retries_exhausted` are kept beside them, and pickle and copies keep them too
    (`dataclasses.replace` keeps those still true of the copy: see `_carry_records`).
    """

    call_id: str
    name: str
    result_content: str
    fail_reason: ToolCallFailReason
    exception: BaseException | None = None
    type: CallType = "function"
    synthesized_id: bool = False
    context: None = None
    result_parts: tuple[()] = ()
    """Always empty: a failure is text the model reads."""
    if not TYPE_CHECKING:  # not a field: the source of a `dataclasses.replace` copy
        _replaced_from: InitVar[object] = field(default=_REPLACED_FROM, kw_only=True)

    @overload
    def __init__(
        self,
        call_id: str,
        name: str,
        result_content: str,
        fail_reason: ToolCallFailReason,
        exception: BaseException | None = None,
        type: CallType = "function",
        synthesized_id: bool = False,
        context: None = None,
        result_parts: tuple[()] = (),
    ) -> None: ...
    @overload
    def __init__(
        self,
        *,
        call_id: str,
        result_content: str,
        fail_reason: ToolCallFailReason,
        exception: BaseException | None = None,
        type: CallType = "function",
        context: None = None,
    ) -> None: ...

    def __init__(  # a dataclass __init__ with `name` optional, for toolcall's form
        self,
        call_id: str,
        name: str = "",
        result_content: str = "",
        fail_reason: ToolCallFailReason = "unexpected_error",
        exception: BaseException | None = None,
        type: CallType = "function",
        synthesized_id: bool = False,
        context: None = None,
        result_parts: tuple[()] = (),
        *,
        _replaced_from: ToolCallResult[Any] | None = None,
    ) -> None:
        self.call_id = call_id
        self.name = name
        self.result_content = result_content
        self.fail_reason = fail_reason
        self.exception = exception
        self.type = type
        self.synthesized_id = synthesized_id
        self.context = context
        self.result_parts = result_parts
        if _replaced_from is not None:
            _carry_records(_replaced_from, self)

    @classmethod
    def for_call(
        cls,
        call: AnyToolCall,
        result_content: str = (
            "This call failed with an internal error; its details are hidden. "
            "Tell the user, or try again if it is safe to repeat."
        ),
        *,
        fail_reason: ToolCallFailReason = "unexpected_error",
        exception: BaseException | None = None,
    ) -> ToolCallFailure:
        """Make a failure result answering `call`, e.g. after an unexpected exception.

        Use it so every call id still gets exactly one result. The default text is
        generic on purpose: an exception's own text may hold secrets or internals.
        For a call that came without an id (usual on Gemini), pass the
        `StandardToolCall` toolwire read from the response (e.g. from
        `ToolBatchError.calls`), so the synthesized id is the one the batch used.
        """
        from ._call import StandardToolCall

        std = call if isinstance(call, StandardToolCall) else StandardToolCall.from_any_call(call)
        return cls(
            std.id, std.name, result_content, fail_reason, exception, std.type, std.synthesized_id
        )


ToolCallResult = TypeAliasType(
    "ToolCallResult", ToolCallSuccess[T] | ToolCallFailure, type_params=(T,)
)
"""The result of one call: check `result.fail_reason is None` to narrow to success."""

_CALL_RECORDS = ("_edit", "_guardrail", "_pending_origin", "_repairs", "_retries_exhausted")
"""Records of what happened to the call a result answers: how a person edited its
arguments, what a guardrail hook did (and what the handler made), the refusal's place in
its response, how argument repair fixed its arguments, that it spent its tool's retry
budget. Still true of a copy answering the same call (the same `call_id`), whatever else
changed; a copy with another `call_id` answers another call, and keeps none of them."""

_CONTENT_RECORDS = ("_cut",)
"""Records of how the content the model reads was made (`cut`: the full content a
`ResultBudget` cut it from). True only of a copy with the same `result_content` and
`result_parts`."""


def _carry_records(source: ToolCallResult[Any], copy: ToolCallResult[Any]) -> None:
    """Give `copy`, made by `dataclasses.replace(source, ...)`, the records of `source`
    that still hold for it (see `_CALL_RECORDS` and `_CONTENT_RECORDS`)."""
    kept: tuple[str, ...] = ()
    if copy.call_id == source.call_id:
        kept += _CALL_RECORDS
    if copy.result_content == source.result_content and copy.result_parts == source.result_parts:
        kept += _CONTENT_RECORDS
    for name in kept:
        if hasattr(source, name):
            object.__setattr__(copy, name, getattr(source, name))
