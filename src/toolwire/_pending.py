"""Two-phase dispatch: validate a response's calls now, decide, run them later.

Between "the model asked" and "the handler ran" the caller may ask a person, refuse a
call, or wait days for an answer. `PendingCall` is one validated call waiting for that
decision; a list of them serializes to JSON, and restoring re-validates each call with
the group's current tool, refusing (with `PendingCallError`) a tool whose name or schema
changed meanwhile: what was approved is exactly what runs. A `PendingCall` runs at most
once, and only with the tool it was validated with.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, cast

from typing_extensions import TypeVar

from . import __version__
from ._approval import ApprovalRequired, approval_of
from ._call import StandardToolCall
from ._decisions import (
    ArgumentEdit,
    answer_result,
    edit_note,
    edited_arguments,
    mark_edit,
    refused_edit,
    restored_content,
    stored_content,
    validate_edit,
)
from ._feedback import shown
from ._limits import DEFAULT_LIMITS, ArgumentLimits
from ._mcp_approval import MCP_APPROVAL, with_mcp_approvals
from ._parts import ToolContent
from ._pipeline import Crashed, prepare, prepare_all
from ._result import ToolCallFailure, ToolCallResult, ToolCallSuccess
from ._tool import FunctionToolModel, ToolModel
from .exceptions import CallKindMismatchError, PendingCallError, UnhandledCallsError

__all__ = [
    "ChangedTools",
    "PendingCall",
    "decide",
    "dump_pending",
    "load_pending",
    "mark_edits",
    "pending_calls",
    "prepared_items",
]

Tool = TypeVar("Tool", bound=ToolModel, default=ToolModel, covariant=True)

ChangedTools = Literal["raise", "refuse"]
"""What `load_pending` does with a stored call whose tool changed since it was validated
(its arguments changed, it left the group, or a tool of its name was added): "raise"
(default) raises `PendingCallError` naming every such call; "refuse" restores the batch
with, in each such call's place, a `PendingCall` that cannot run and is answered with a
"refused" failure telling the model its tool changed."""

_FORMAT = "toolwire.pending/2"
"""The dump format this toolwire writes: /2 added each call's decision made before the
dump (`edit`, `answer`). Every format it ever wrote stays readable (`_READS`)."""
_READS = ("toolwire.pending/1", _FORMAT)

DEFAULT_REFUSAL = (
    "The user did not approve this call, so it was not run. Do not try it again unless "
    "the user asks for it."
)

_UNSET: Any = object()
"""`PendingCall._approval` before `approval` was first read."""

_CLAIMING = threading.Lock()  # makes "not run yet? then it is mine" one step across threads


@dataclass(frozen=True, slots=True, eq=False)
class PendingCall(Generic[Tool]):
    """One call of a response, validated and waiting for your decision.

    Attributes:
        call: the call as the model sent it.
        tool: the validated tool instance (its fields are the arguments), or None when
            the call cannot run (then `failure` says why).
        failure: the failure that will answer the call (unknown tool, invalid
            arguments, truncated), or None when it can run.

    Run it with `group.run_pending([...])`, refuse it with `pending.refuse(reason)`,
    or keep it for later with `group.dump_pending([...])`. It runs at most once, with
    the tool it was validated with: a `PendingCall` given to `run_pending` is answered
    by that run (its result, or the `ToolBatchError` it raised), and giving it to
    `run_pending` again, or twice in one list, raises `PendingCallError` before any
    handler runs, as does a list in which two entries answer one call id, or one that
    leaves calls of its response unanswered (unless `partial=True`). If its tool has left the group by then, it gets the "invalid_name"
    failure `run_tool_calls` gives; if its name now belongs to another tool class,
    `run_pending` raises `PendingCallError` (refuse it, or run it with the group that
    prepared it).

    Besides running or refusing it, you may run it with arguments a person edited
    (`pending.edit(arguments)`) or answer it with a result produced elsewhere
    (`pending.answer(content)`, the only way to answer an `external` tool's call):
    each gives a new `PendingCall` to list in its place, and using either one uses up
    the call they were made from.
    """

    call: StandardToolCall
    tool: Tool | None
    failure: ToolCallFailure | None
    _prepared: object
    _validated_with: type[ToolModel] | None = None  # the group's tool of that name then
    _stored_schema: str | None = None  # a stale stored call's fingerprint, kept for dumps
    _batch: tuple[str, ...] = ()  # the ids of every call of its response, one tuple shared
    _position: int = -1  # its place in `_batch`
    _approval: object = field(default=_UNSET, init=False, repr=False)  # `approval`, once asked
    _claimed: bool = field(default=False, init=False, repr=False)
    _edit: ArgumentEdit | None = None  # how a person changed its arguments (`edit`)
    _root: PendingCall[Any] | None = None  # the call `edit`/`answer` made it from

    @property
    def external(self) -> bool:
        """Whether its tool is external (`model_tool_external`): it never runs here;
        answer it with `answer(content)` once its result comes."""
        tool = self._validated_with
        return tool is not None and tool.model_tool_external

    @property
    def edited(self) -> ArgumentEdit | None:
        """The edit `edit(...)` made (the model's arguments, what runs instead, the note
        the model reads), or None."""
        return self._edit

    @property
    def answered(self) -> ToolCallSuccess[Any] | None:
        """The result `answer(...)` gave the call (what `run_pending` returns for it), or
        None."""
        item = self._prepared
        return cast("ToolCallSuccess[Any]", item) if type(item) is ToolCallSuccess else None

    def edit(
        self,
        arguments: Mapping[str, Any] | str | ToolModel,
        *,
        note: bool | str = True,
        limits: ArgumentLimits = DEFAULT_LIMITS,
    ) -> PendingCall[Tool]:
        """This call with the arguments a person edited, to list in `run_pending` in its
        place: validated again with the same tool class, as the model's were.

        `arguments`: the new arguments as a dict (JSON data) or JSON text (a custom
        tool: its new text), or an instance of the call's own tool class; an instance of
        another class raises `PendingCallError` (an edit never changes the tool). When
        they fail validation, the call comes back unable to run (`.failure`: a "refused"
        failure saying what was wrong, for the model and for you), never run. The model's
        own call stays as it sent it; `note` (default True) puts "the arguments were
        edited to ..." (or your text; False: nothing) before the result the model reads,
        and `result.edit` records the edit. Stored by `dump_pending`, applied again by
        `load_pending`."""
        tool = self._decidable("edited")
        if tool is None or self._stored_schema is not None:
            raise PendingCallError(
                f"The pending call {self.call.id!r} to {self.call.name!r} cannot be edited: "
                f"{'its tool changed since it was stored' if tool else 'no tool of its name was in the group'}"  # fmt: skip
                ", so nothing would validate the new arguments. Refuse it "
                "(`pending.refuse(reason)`) and let the model call the current tool.",
                calls=(self.call,),
            )
        changed = edited_arguments(self.call.id, tool, arguments)
        problem = _unstorable(changed)
        if problem is not None:
            raise PendingCallError(
                f"The edited arguments of call {self.call.id!r} to {self.call.name!r} "
                f"{problem}: give them as JSON data (what is approved, and stored, must be "
                "exactly what runs).",
                calls=(self.call,),
            )
        made = ArgumentEdit(self.call.input, changed, edit_note(changed, note))
        item = validate_edit(self.call, tool, changed, limits)
        if isinstance(item, ToolCallFailure):
            item = refused_edit(self.call, item, made)
        return self._decided(item, tool, made)

    def answer(self, content: ToolContent, context: Any = None) -> PendingCall[Tool]:
        """This call answered with a result produced elsewhere (a front end, another
        service, a person), to list in `run_pending` in its place, which returns that
        success result for the call's id without running anything. `content` is what
        the model reads: text, or a sequence of text, `ImagePart`, `FilePart` and
        `ToolReference`; `context` is the result's context for your code. Stored by
        `dump_pending` (its context as JSON data; parts but `ToolReference`)."""
        tool = self._decidable("answered")
        return self._decided(answer_result(self.call, content, context), tool, None)

    def _decidable(self, verb: str) -> type[ToolModel] | None:
        """The tool class that validated the call; `PendingCallError` if the call (or the
        one it was made from) was already given to `run_pending`."""
        if self._used():
            raise PendingCallError(
                f"The pending call {self.call.id!r} to {self.call.name!r} was already given "
                f"to run_pending, which answered it: it can no longer be {verb}. If the tool "
                "should run again, let the model call it again.",
                calls=(self.call,),
            )
        return self._validated_with

    def _used(self) -> bool:
        """Whether it, or the call it was made from, was given to `run_pending`."""
        root = self._root
        return self._claimed or (root is not None and root._claimed)

    def _decided(
        self, item: object, tool: type[ToolModel] | None, made: ArgumentEdit | None
    ) -> PendingCall[Tool]:
        """A `PendingCall` in this one's place holding `item` (an instance to run, a
        failure, a crash, or an answer), made from this call."""
        validated = item if isinstance(item, ToolModel) else None
        failure = item if isinstance(item, ToolCallFailure) else None
        if type(item) is ToolCallSuccess:
            validated = self.tool
        root = self._root or self
        return cast(
            "PendingCall[Tool]",
            PendingCall(
                self.call,
                validated,
                failure,
                cast(object, item),
                tool,
                self._stored_schema,
                self._batch,
                self._position,
                made,
                root,
            ),  # fmt: skip
        )

    @property
    def needs_approval(self) -> bool:
        """Whether the tool asks for your approval for these arguments
        (`model_tool_needs_approval`). A call that cannot run never does."""
        return self.approval is not None

    @property
    def approval(self) -> ApprovalRequired | None:
        """Why the call needs approval: what `model_tool_needs_approval` returned
        (`ApprovalRequired`: `hint`, `metadata`; empty for a plain True), or None when
        it needs none. Asked once per pending call."""
        asked = self._approval
        if asked is _UNSET:
            asked = approval_of(self.tool) if self.tool is not None else None
            object.__setattr__(self, "_approval", asked)
        return cast("ApprovalRequired | None", asked)

    def refuse(self, reason: str = DEFAULT_REFUSAL) -> ToolCallFailure:
        """The answer for a call you decided not to run: a "refused" failure whose text
        (`reason`) the model reads. Put it in `run_pending` in the call's place; once
        sent there, it uses up the call (and the one it was made from), which can then
        no longer run, be edited or be dumped."""
        refusal = ToolCallFailure.for_call(self.call, reason, fail_reason="refused")
        refusal._pending_origin = (self._batch, self._position)
        refusal._refusing = self  # sent, it uses up this call: it can no longer run
        return refusal


def decide(pending: PendingCall[Any], verdict: object) -> PendingCall[Any] | ToolCallFailure:
    """An approval function's answer applied: True runs the call, False refuses it with
    the default text, a string refuses it with that text, and the call itself runs it
    too, or a `PendingCall` made from it (`pending.edit(...)`, `pending.answer(...)`)
    takes its place."""
    if verdict is True or verdict is pending:
        return pending
    if isinstance(verdict, PendingCall) and verdict._root is (pending._root or pending):
        return cast("PendingCall[Any]", verdict)
    if verdict is False:
        return pending.refuse()
    if isinstance(verdict, str) and verdict.strip():
        return pending.refuse(verdict)
    raise TypeError(
        f"The approval function returned {verdict!r} for call {pending.call.id!r}; return "
        "True to run it, False to refuse it, the reason (text the model reads) to refuse "
        "it with, or the call itself or a PendingCall made from it (pending.edit(...), "
        "pending.answer(...))."
    )


def pending_calls(
    tools: Mapping[str, type[ToolModel]],
    calls: list[StandardToolCall],
    limits: ArgumentLimits,
    batch: tuple[str, ...] | None = None,
) -> list[PendingCall[Any]]:
    """Validate every call without running anything: one `PendingCall` per call.
    `batch`: the ids of every call of their response (default: these calls')."""
    if batch is None:
        batch = tuple(call.id for call in calls)
    tools = with_mcp_approvals(tools, calls)
    return [
        _pending(call, item, tools.get(call.name), batch, batch.index(call.id, at))
        for at, (call, item) in enumerate(
            zip(calls, prepare_all(tools, calls, limits, pending=True), strict=True)
        )
    ]


def _pending(
    call: StandardToolCall,
    item: object,
    tool: type[ToolModel] | None,
    batch: tuple[str, ...],
    position: int,
) -> PendingCall[Any]:
    if isinstance(item, ToolCallFailure):
        return PendingCall(call, None, item, item, tool, None, batch, position)
    if isinstance(item, Crashed):  # its validator raised: the batch policy decides at run
        return PendingCall(call, None, None, item, tool, None, batch, position)
    return PendingCall(call, cast(ToolModel, item), None, item, tool, None, batch, position)


def prepared_items(
    decided: Sequence[PendingCall[Any] | ToolCallFailure],
    tools: Mapping[str, type[ToolModel]] | None = None,
    partial: bool = False,
) -> tuple[list[StandardToolCall], list[Any]]:
    """The calls and the batch's prepared items for `run_pending`: a refusal (or any
    failure you made) answers its call as is; a pending call runs if it can.

    `tools` is the group that runs the batch: a pending call that would run, whose
    tool is no longer in it, gets the "invalid_name" failure `run_tool_calls` gives; one
    whose name now belongs to another tool class raises `PendingCallError` (what was
    validated and approved is not what would run). With `tools=None` that check is
    skipped. A pending call given twice, or already given to a `run_pending`, two
    entries answering one call id, and (unless `partial`) a list that leaves calls of a
    listed pending call's response unanswered raise `PendingCallError`. Everything
    raises before any handler runs; once this returns, every pending call of `decided`
    is used up.
    """
    calls: list[StandardToolCall] = []
    items: list[Any] = []
    pending: list[PendingCall[Any]] = []
    listed: set[int] = set()
    if tools is not None:
        tools = with_mcp_approvals(tools, [e.call for e in decided if isinstance(e, PendingCall)])
    for entry in decided:
        if isinstance(entry, PendingCall):
            call = entry.call
            if id(entry) in listed:
                raise PendingCallError(
                    f"The pending call {call.id!r} to {call.name!r} is listed twice in this "
                    "run_pending, which would answer its id twice (the API rejects that). "
                    "List each PendingCall once: the call itself to run it, or one answer "
                    "in its place (e.g. `pending.refuse(reason)`).",
                    calls=(call,),
                )
            listed.add(id(entry))
            pending.append(entry)
            item = entry._prepared
            if tools is not None and not isinstance(item, ToolCallFailure | ToolCallSuccess):
                now = tools.get(call.name)
                if now is None:  # the model's call names a tool the group no longer has
                    item = prepare(None, call, DEFAULT_LIMITS, tools)
                elif now is not entry._validated_with:
                    raise PendingCallError(
                        f"The pending call {call.id!r} to {call.name!r} was validated with "
                        f"{_class_name(entry._validated_with)}, but this group's tool of "
                        f"that name is {_class_name(now)}: what was validated (and "
                        "approved) is not what would run. Run pending calls with the group "
                        "that prepared them, or answer this one with a failure (e.g. "
                        "`pending.refuse(reason)`) and let the model call the current tool "
                        "again.",
                        calls=(call,),
                    )
            if isinstance(item, ToolModel) and item.model_tool_external:
                raise PendingCallError(
                    f"The pending call {call.id!r} to {call.name!r} is a call of an external "
                    "tool (model_tool_external), which never runs here: list "
                    "`pending.answer(content)` in its place once its result comes (or "
                    "`pending.refuse(reason)`). To run the other calls first, leave it out "
                    "and pass `partial=True`.",
                    calls=(call,),
                )
            calls.append(call)
            items.append(item)
        elif isinstance(entry, ToolCallFailure):
            calls.append(
                StandardToolCall(entry.type, entry.call_id, entry.name, None, entry.synthesized_id)
            )
            items.append(entry)
        else:
            raise TypeError(
                f"run_pending takes PendingCall objects (to run) and ToolCallFailure "
                f"objects (e.g. from pending.refuse(reason)); got {type(entry).__name__}."
            )
    refused: list[PendingCall[Any]] = [
        r for e in decided if (r := getattr(e, "_refusing", None)) is not None
    ]
    refusing = {id(r) for r in refused}
    for entry in pending:
        if id(entry) in refusing:
            call = entry.call
            raise PendingCallError(
                f"The pending call {call.id!r} to {call.name!r} is listed with its own "
                "refusal in this run_pending, which would run it and answer its id twice "
                "(the API rejects that). List the call to run it, or its refusal in its "
                "place, not both.",
                calls=(call,),
            )
    with _CLAIMING:
        for entry in pending:
            if entry._used():
                call = entry.call
                raise PendingCallError(
                    f"The pending call {call.id!r} to {call.name!r} was already given to "
                    "run_pending, which answered it (with its result, or in the "
                    "ToolBatchError it raised: see `answer_all()`). A pending call runs at "
                    "most once: use that answer, and if the tool should run again, let the "
                    "model call it again. If that run raised anything else (a hook's error, "
                    "a cancellation), the call may have no answer: give it "
                    "`pending.refuse(reason)` in the next turn.",
                    calls=(call,),
                )
        _check_answers(calls, decided, pending, partial)
        for entry in (*pending, *refused):  # a refusal sent uses up the call it refuses
            object.__setattr__(entry, "_claimed", True)
            if entry._root is not None:  # an edit or answer uses up the call it came from
                object.__setattr__(entry._root, "_claimed", True)
    return calls, items


def mark_edits(
    decided: Sequence[PendingCall[Any] | ToolCallFailure],
    results: Sequence[ToolCallResult[Any] | None],
) -> None:
    """Record each edited call's edit on its result (and its note in what the model
    reads); `run_pending` calls it on its results, or on those its `ToolBatchError`
    holds."""
    for entry, result in zip(decided, results, strict=True):
        if result is not None and isinstance(entry, PendingCall) and entry._edit is not None:
            mark_edit(result, entry._edit)


def _check_answers(
    calls: list[StandardToolCall],
    decided: Sequence[PendingCall[Any] | ToolCallFailure],
    pending: list[PendingCall[Any]],
    partial: bool,
) -> None:
    """Each call id answered once, and (unless `partial`) every call of each listed
    pending call's response answered: the API rejects a turn that answers an id twice
    or leaves one unanswered, and only after the handlers ran. Two pending calls of one
    response that the model itself gave one id are answered each, as `run_tool_calls`
    would."""
    origins: dict[str, list[tuple[tuple[str, ...], int] | None]] = {}
    for call, entry in zip(calls, decided, strict=True):
        origin = _origin(entry)
        seen = origins.setdefault(call.id, [])
        # One id answered twice is only right for calls the model itself sent with one
        # id: other positions of the same response (each answered once, as
        # `run_tool_calls` would).
        if seen and (
            origin is None
            or any(o is None or o[0] is not origin[0] or o[1] == origin[1] for o in seen)
        ):
            twice = [c for c in calls if c.id == call.id]
            raise PendingCallError(
                f"Two entries of this run_pending answer the call id {call.id!r} (to "
                f"{', '.join(repr(c.name) for c in twice)}): one would run or be answered "
                "twice, and the API rejects a second answer. Give each call of a response "
                "exactly one entry: its PendingCall to run it, or one failure in its place "
                "(e.g. `pending.refuse(reason)`); do not mix calls prepared twice from the "
                "same response.",
                calls=twice,
            )
        seen.append(origin)
    if partial:
        return
    answered = set(origins)
    batches = {id(entry._batch): entry._batch for entry in pending}
    missing = [i for batch in batches.values() for i in batch if i not in answered]
    if missing:
        raise PendingCallError(
            f"This run_pending leaves {len(missing)} of the response's calls unanswered "
            f"({describe_ids(missing)}): the API rejects the next request when a call has "
            "no result, and only after these handlers ran. Answer each declined call in "
            "its place with `pending.refuse(reason)` rather than leaving it out; if you "
            "answer the others in another run_pending (e.g. after a later approval) and "
            "send all results together, pass `partial=True`.",
        )


def describe_ids(ids: Sequence[str]) -> str:
    """A short, JSON-quoted list of call ids for error messages."""
    shown = ", ".join(json.dumps(i) for i in ids[:10])
    return shown + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")


def _origin(entry: PendingCall[Any] | ToolCallFailure) -> tuple[tuple[str, ...], int] | None:
    """The response and position a `run_pending` entry answers, when known: a pending
    call's, or the one `pending.refuse` made the refusal for."""
    if isinstance(entry, PendingCall):
        return entry._batch, entry._position
    return getattr(entry, "_pending_origin", None)


def _class_name(tool: type[ToolModel] | None) -> str:
    if tool is None:
        return "no tool"
    return f"{tool.__module__}.{tool.__qualname__}"


def fingerprint(tool: type[ToolModel]) -> str:
    """What must not change between validating a call and running it: the tool's kind
    and argument schema."""
    schema = (
        tool.model_tool_json_schema()
        if issubclass(tool, FunctionToolModel)
        else tool.model_json_schema()
    )
    text = json.dumps([tool.model_tool_type, schema], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def dump_pending(
    tools: Mapping[str, type[ToolModel]], pending: Sequence[PendingCall[Any]]
) -> dict[str, Any]:
    """Pending calls as a JSON-ready dict (`json.dumps` takes it as it is), to store
    until the decision comes: `{"format": "toolwire.pending/1", "toolwire": version,
    "calls": [...]}`.

    Each call keeps the fingerprint of the tool it was validated with (none for an
    unknown tool), so `load_pending` can tell whether that tool changed since. `tools`
    (the dumping group) is not consulted: a call is tied to the tool that validated it.
    A call already given to `run_pending` (it ran, or was answered) and two calls with
    one id raise `PendingCallError`: loading them would run a call again.
    """
    entries: list[dict[str, Any]] = []
    ids: set[str] = set()
    for item in pending:
        call = item.call
        if item._used():
            raise PendingCallError(
                f"The pending call {call.id!r} to {call.name!r} was already given to "
                "run_pending, which answered it: storing it would let a later load run it "
                "again. Dump only the calls still waiting for a decision.",
                calls=(call,),
            )
        if call.id in ids:
            raise _twice_in_dump(item, [p for p in pending if p.call.id == call.id])
        ids.add(call.id)
        problem = _unstorable(call.input)
        if problem is not None:
            raise PendingCallError(
                f"The pending call {call.id!r} to {call.name!r} cannot be stored: its "
                f"arguments {problem}, which JSON cannot keep as they are (what was approved "
                "must be exactly what runs). Decide it now with run_pending, or answer it "
                "with `pending.refuse(reason)`.",
                calls=(call,),
            )
        approval = item.approval
        if approval is not None and approval.metadata:
            problem = _unstorable(dict(approval.metadata))
            if problem is not None:
                raise PendingCallError(
                    f"The pending call {call.id!r} to {call.name!r} cannot be stored: the "
                    f"metadata of its ApprovalRequired {problem}, which JSON cannot keep as "
                    "they are. Give ApprovalRequired JSON data (dicts, lists, text, numbers, "
                    "booleans, None).",
                    calls=(call,),
                )
        tool = item._validated_with
        if item._stored_schema is not None:  # restored stale with changed="refuse"
            schema = item._stored_schema
        else:
            schema = fingerprint(tool) if tool is not None else None
        entries.append(
            {
                "type": call.type,
                "id": call.id,
                "name": call.name,
                "input": dict(call.input) if isinstance(call.input, Mapping) else call.input,
                "synthesized_id": call.synthesized_id,
                "truncated": call.truncated,
                "schema": schema,
                "approval": None
                if approval is None
                else {"hint": approval.hint, "metadata": dict(approval.metadata)},
                "edit": None
                if item._edit is None
                else {"arguments": item._edit.arguments, "note": item._edit.note},
                "answer": _stored_answer(item),
            }
        )
    return {"format": _FORMAT, "toolwire": __version__, "calls": entries}


def _twice_in_dump(item: PendingCall[Any], same_id: list[PendingCall[Any]]) -> PendingCallError:
    """Why two pending calls with one id cannot be dumped: the same call prepared twice,
    or two calls the model itself gave one id (which a dump, keyed by id, cannot tell
    apart once loaded)."""
    call = item.call
    first = same_id[0]
    if first._batch is item._batch and first._position != item._position:
        return PendingCallError(
            f"The model gave two calls of this response the id {call.id!r}: a dump keeps "
            "calls by id, so once loaded it could not tell them apart. Decide these calls "
            "now with run_pending (which answers each of them), or refuse them.",
            calls=[p.call for p in same_id],
        )
    return PendingCallError(
        f"Two of the pending calls to dump have the id {call.id!r}: once loaded, both "
        "would answer it, and the API rejects a second answer. Dump each call of a "
        "response once (prepare the response once).",
        calls=[p.call for p in same_id],
    )


def _stored_answer(item: PendingCall[Any]) -> dict[str, Any] | None:
    """The answer `item.answer(...)` gave, as JSON data (None when it has none)."""
    answer = item.answered
    if answer is None:
        return None
    call = item.call
    problem = _unstorable(answer.context)
    if problem is not None:
        raise PendingCallError(
            f"The answer of call {call.id!r} to {call.name!r} cannot be stored: the data "
            f"in its context {problem}, which JSON cannot keep as they are. Give "
            "pending.answer(...) a context of JSON data (or None).",
            calls=(call,),
        )
    return {"content": stored_content(call, answer), "context": answer.context}


def _unstorable(arguments: object) -> str | None:
    """What in `arguments` JSON would not keep as it is (None when all is JSON data):
    text keys only, no cycles, only dicts, lists and JSON scalars. Iterative, so deep
    arguments cannot exhaust the stack."""
    stack: list[object] = [arguments]
    open_containers: set[int] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, _Close):
            open_containers.discard(node.key)
            continue
        kind = type(node)
        if node is None or kind in (str, int, float, bool):
            continue
        if kind is not dict and kind is not list:
            return f"hold a {kind.__name__} value"
        if id(node) in open_containers:
            return "contain themselves"
        open_containers.add(id(node))
        stack.append(_Close(id(node)))
        if kind is dict:
            mapping = cast("dict[object, object]", node)
            if any(type(key) is not str for key in mapping):
                return "have a key that is not text"
            stack.extend(mapping.values())
        else:
            stack.extend(cast("list[object]", node))
    return None


class _Close:
    """Marks where `_unstorable` leaves a container (a container seen again while open is
    a cycle; seen again after, it is only shared)."""

    __slots__ = ("key",)

    def __init__(self, key: int) -> None:
        self.key = key


def load_pending(
    tools: Mapping[str, type[ToolModel]],
    dump: str | Mapping[str, Any],
    limits: ArgumentLimits,
    changed: ChangedTools = "raise",
) -> list[PendingCall[Any]]:
    """Pending calls from `dump_pending`'s JSON text or dict, validated again with
    today's tools (as one response's calls: `run_pending` wants each answered).

    A call is stale when the group's tool of its name is not the one it was validated
    with: the tool changed its arguments, left the group, or did not exist then and was
    added since (a call stored as an unknown tool never becomes runnable on its own).
    With `changed="raise"` (default) a stale call raises `PendingCallError`, whose
    `.calls` are all the stale calls; with `changed="refuse"` each comes back, in its
    place, as a `PendingCall` that cannot run, answered with a "refused" failure. A
    stale call answered before the dump (`pending.answer`) keeps its answer, which
    needs no tool: it is not validated again, and raises nothing.
    Raises `PendingCallError` for anything that is not a `dump_pending` dump (or is one
    from a newer toolwire, or lists a call id twice).
    """
    if changed not in ("raise", "refuse"):
        raise ValueError(
            f'load_pending(changed={changed!r}): pass "raise" (a changed tool raises '
            'PendingCallError) or "refuse" (its calls come back answered with a refusal).'
        )
    entries = _read(dump)
    tools = with_mcp_approvals(tools, [call for call, _, _ in entries])
    calls: list[StandardToolCall] = []
    stale: dict[int, tuple[str, str | None]] = {}  # index -> (what changed, stored schema)
    schemas: dict[type[ToolModel], str] = {}
    for index, (call, stored, _) in enumerate(entries):
        tool = tools.get(call.name)
        if tool is None:
            current = None
        else:
            current = schemas.get(tool)
            if current is None:
                current = schemas[tool] = fingerprint(tool)
        if current != stored:  # never validated again; an answered one is restored answered
            if stored is None:
                stale[index] = ("added", stored)
            else:
                stale[index] = ("changed" if tool is not None else "left", stored)
        calls.append(call)
    affected = [
        (calls[index], kind)
        for index, (kind, _) in stale.items()
        if not isinstance(entries[index][2], _StoredAnswer)  # an answer needs no tool
    ]
    if affected and changed == "raise":
        raise PendingCallError(
            f"{_stale_message(affected)} The {'call is' if len(affected) == 1 else 'calls are'}"
            " on this error's `.calls`. To restore the rest of the batch too, load it with "
            '`load_pending(..., changed="refuse")`: each such call then comes back in its '
            'place answered with a "refused" failure, ready for `run_pending`.',
            calls=[c for c, _ in affected],
        )
    batch = tuple(call.id for call in calls)
    fresh = [call for index, call in enumerate(calls) if index not in stale]
    try:
        validated = iter(pending_calls(tools, fresh, limits, batch))
    except (CallKindMismatchError, UnhandledCallsError) as error:  # never a stored call's
        raise _not_a_dump(error) from None
    restored: list[PendingCall[Any]] = []
    for index, call in enumerate(calls):
        decision = entries[index][2]
        if index in stale:  # its tool changed: it cannot run (an answer needs no tool)
            kind, stored = stale[index]
            refusal = ToolCallFailure.for_call(call, _refusal(kind, call.name), fail_reason="refused")  # fmt: skip
            item = PendingCall(call, None, refusal, refusal, None, stored, batch, index)
        else:
            item = next(validated)
            if isinstance(decision, ArgumentEdit):
                item = item.edit(decision.arguments, note=decision.note or False, limits=limits)
        if isinstance(decision, _StoredAnswer):
            item = item.answer(decision.content, decision.context)
        restored.append(item)
    return restored


_CHANGES = {
    "changed": "its tool changed its arguments",
    "left": "its tool is no longer in the group",
    "added": "no tool had its name then; one was added since",
}


def _refusal(kind: str, name: str) -> str:
    """What the model reads for a stale call restored with `changed="refuse"`."""
    if kind == "left":
        return (
            f"This call was not run: the tool {shown(name)} is no longer available. Do not "
            "call it again; tell the user if it mattered."
        )
    if kind == "added":
        return (
            f"This call was not run: there was no tool {shown(name)} when you called it. "
            "Call it again if it is still needed."
        )
    return (
        f"This call was not run: the tool {shown(name)} changed while the call waited for a "
        "decision. Call it again if it is still needed."
    )


def _stale_message(affected: list[tuple[StandardToolCall, str]]) -> str:
    if len(affected) == 1:
        call, kind = affected[0]
        if kind == "added":
            start = (
                f"The pending call {call.id!r} to {call.name!r} was validated when the group "
                "had no tool of that name (so it was to be answered as an unknown tool); one "
                "was added since."
            )
        else:
            change = "is no longer in the group" if kind == "left" else "changed its arguments"
            start = (
                f"The pending call {call.id!r} to {call.name!r} was validated against a tool "
                f"that {change} since."
            )
        return (
            f"{start} Its decision was made for what it was then: answer it with a failure "
            "(e.g. `ToolCallFailure.for_call(call, ...)`) and let the model call the current "
            "tool again."
        )
    listed = "; ".join(f"{call.id!r} to {call.name!r} ({_CHANGES[kind]})" for call, kind in affected[:10])  # fmt: skip
    more = f"; and {len(affected) - 10} more" if len(affected) > 10 else ""
    return (
        f"{len(affected)} pending calls were validated against tools that changed since: "
        f"{listed}{more}. Their decisions were made for what they were then: answer each with "
        "a failure (e.g. `ToolCallFailure.for_call(call, ...)`) and let the model call the "
        "current tools again."
    )


_FIELDS: dict[str, tuple[type, ...]] = {
    "type": (str,),
    "id": (str,),
    "name": (str,),
    "input": (str, dict, type(None)),
    "synthesized_id": (bool,),
    "truncated": (bool,),
    "schema": (str, type(None)),
}


@dataclass(frozen=True, slots=True)
class _StoredAnswer:
    content: ToolContent
    context: Any


_Decision = ArgumentEdit | _StoredAnswer | None
"""A stored call's decision made before the dump: its edit, its answer, or neither."""


def _read_decision(fields: Mapping[str, Any], index: int) -> _Decision:
    """The edit or answer `dump_pending` stored with a call (none in a /1 dump)."""
    edit, answer = fields.get("edit"), fields.get("answer")
    if edit is not None and answer is not None:
        raise ValueError(f"calls[{index}] holds both an edit and an answer")
    if answer is not None:
        if not isinstance(answer, dict) or "content" not in answer:
            raise TypeError(f"calls[{index}]['answer'] is not an answer")
        stored = cast("dict[str, Any]", answer)
        return _StoredAnswer(restored_content(stored["content"]), stored.get("context"))
    if edit is not None:
        if not isinstance(edit, dict):
            raise TypeError(f"calls[{index}]['edit'] is a {type(edit).__name__}")
        change = cast("dict[str, Any]", edit)
        arguments, note = change.get("arguments"), change.get("note")
        if fields["type"] == "custom" and not isinstance(arguments, str):  # its text
            raise TypeError(f"calls[{index}]['edit'] is not a custom tool's edit")
        if not isinstance(arguments, dict | str) or not isinstance(note, str | None):
            raise TypeError(f"calls[{index}]['edit'] is not an edit")
        return ArgumentEdit(fields["input"], cast("dict[str, Any] | str", arguments), note)
    return None


def _read(
    dump: str | Mapping[str, Any],
) -> list[tuple[StandardToolCall, str | None, _Decision]]:
    """The stored calls, their tools' fingerprints and their decisions;
    `PendingCallError` for anything `dump_pending` did not write, for a dump of a newer
    format, and for a call id listed twice. A dict is copied (through JSON) so that your
    state and the restored calls share nothing."""
    try:
        # A dict dump goes through JSON too: checked to be JSON data, and copied.
        loaded: Any = json.loads(dump if isinstance(dump, str) else json.dumps(dump))
        if not isinstance(loaded, dict):
            raise TypeError(f"the JSON is a {type(loaded).__name__}, not an object")
        data = cast("dict[str, Any]", loaded)
        _check_format(data)
        entries: Any = data.get("calls")
        if not isinstance(entries, list):
            raise TypeError(f'"calls" is a {type(entries).__name__}, not a list')
        read: list[tuple[StandardToolCall, str | None, _Decision]] = []
        for index, entry in enumerate(cast("list[Any]", entries)):
            if not isinstance(entry, dict):
                raise TypeError(f"calls[{index}] is a {type(entry).__name__}, not an object")
            fields = cast("dict[str, Any]", entry)
            for key, kinds in _FIELDS.items():
                if key not in fields:
                    raise ValueError(f"calls[{index}] has no {key!r}")
                if not isinstance(fields[key], kinds):
                    raise TypeError(f"calls[{index}][{key!r}] is a {type(fields[key]).__name__}")
            if fields["type"] not in ("function", "custom", "tool_search", MCP_APPROVAL):
                raise ValueError(f"calls[{index}]['type'] is {fields['type']!r}")
            call = StandardToolCall(
                fields["type"],
                fields["id"],
                fields["name"],
                fields["input"],
                fields["synthesized_id"],
                fields["truncated"],
            )
            read.append((call, fields["schema"], _read_decision(fields, index)))
    except PendingCallError:  # a dump of a newer format: its own message says what to do
        raise
    except (ValueError, TypeError, RecursionError) as error:
        raise _not_a_dump(error) from None
    ids: dict[str, StandardToolCall] = {}
    for call, _, _ in read:
        if ids.setdefault(call.id, call) is not call:
            raise PendingCallError(
                f"This dump lists the call id {call.id!r} twice: loaded, both entries would "
                "answer it (a handler could run twice), and the API rejects a second "
                "answer. dump_pending never writes that; keep one entry per call.",
                calls=[c for c, _, _ in read if c.id == call.id],
            )
    return read


def _not_a_dump(error: Exception) -> PendingCallError:
    return PendingCallError(
        "This is not toolwire pending-call JSON (made by dump_pending): "
        f"{type(error).__name__}: {str(error).rstrip('.')}. Pass load_pending the text or dict "
        "dump_pending returned, unchanged."
    )


def _check_format(data: Mapping[str, Any]) -> None:
    """Refuse a dump of a format this toolwire does not read; a newer one says so. Each
    format this toolwire ever wrote stays readable (`_READS`)."""
    stored = data.get("format")
    if stored in _READS:
        return
    family, _, number = str(stored).rpartition("/")
    newest = int(_FORMAT.rpartition("/")[2])
    if family == _FORMAT.rpartition("/")[0] and number.isdigit() and int(number) > newest:
        made_by = data.get("toolwire")
        known = isinstance(made_by, str)
        raise PendingCallError(
            f"This pending-call dump has format {stored!r}, written by "
            f"{f'toolwire {made_by}' if known else 'a newer toolwire'}; this toolwire "
            f"({__version__}) reads formats up to {_FORMAT!r}. Upgrade toolwire"
            f"{f' to {made_by} or later' if known else ''} (`pip install -U toolwire`) "
            "to load it."
        )
    raise ValueError(f"format is {stored!r}, not {_FORMAT!r}")
