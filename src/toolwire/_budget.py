"""Result budgets: how much of a tool's result the model reads.

A tool that dumps a log, a web page or an MCP server's 400k-token answer into the
context window costs every later turn, or ends the conversation with a context-length
error. A `ResultBudget` (per tool: `model_tool_result_budget`; per group:
`ToolGroup.from_list(..., result_budget=...)`) caps what the model reads, in characters
and, with the caller's own counter, in tokens. Over it, the model reads the head and
the tail with a note in the middle saying how much was cut; the result keeps the full
content for the caller (`result.cut`).

Budgets apply to successes, once every hook has run (what the model finally reads, a
guardrail's replacement included). Text parts are measured and cut; images and files
are not text: they are neither counted nor cut (the media limits of each API apply to
them). A plain dispatch pays one check per batch: `fit_results` returns at once unless
the group has a budget or some tool class defines one, and skips even that while no
`ResultBudget` exists (`budgets_exist`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ._parts import ResultPart, parts_text
from ._result import ToolCallResult, ToolCallSuccess

__all__ = [
    "ResultBudget",
    "ResultCut",
    "check_group_budget",
    "check_tool_budget",
    "fit_result",
    "fit_results",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultBudget:
    """How much of a result the model reads: `max_chars` characters and/or
    `max_tokens` tokens as counted by `count_tokens` (your tokenizer: a function from
    text to its number of tokens, e.g. `lambda text: len(encoding.encode(text))`).

    Over either, the model reads the head and the tail of the text (half each) with a
    note between them saying what was cut and that the application has the full result;
    the note counts toward the limit. `result.cut` keeps the full content.
    """

    max_chars: int | None = None
    max_tokens: int | None = None
    count_tokens: Callable[[str], int] | None = None

    def __post_init__(self) -> None:
        global budgets_exist
        budgets_exist = True
        for name in ("max_chars", "max_tokens"):
            value: object = getattr(self, name)
            if value is not None and (type(value) is not int or value < 1):
                raise ValueError(
                    f"ResultBudget({name}=...) takes a positive int or None; got {value!r}."
                )
        if self.max_chars is None and self.max_tokens is None:
            raise ValueError(
                "A ResultBudget needs max_chars=, max_tokens= (with count_tokens=), or both."
            )
        if (self.max_tokens is None) != (self.count_tokens is None):
            raise ValueError(
                "ResultBudget's max_tokens= and count_tokens= go together: tokens are "
                "counted by your tokenizer, e.g. count_tokens=lambda text: "
                "len(encoding.encode(text)). For a limit without one, use max_chars=."
            )

    def __setstate__(self, state: list[object]) -> None:
        """A budget unpickled or copied (which skips `__init__`): it exists too."""
        global budgets_exist
        budgets_exist = True
        for item, value in zip(fields(self), state, strict=True):  # as dataclasses would
            object.__setattr__(self, item.name, value)


@dataclass(frozen=True, slots=True)
class ResultCut:
    """What a `ResultBudget` cut from a result (`result.cut`), for the caller.

    Attributes:
        full_content: the result's text before the cut (its `result_content`).
        full_parts: its parts before the cut (empty for a text result).
        cut_chars: how many characters of text the model did not read.
        cut_tokens: how many tokens those were, by the budget's `count_tokens`; None
            when the budget counts no tokens.
        budget: the budget that applied (the tool's, else the group's).
    """

    full_content: str
    full_parts: tuple[ResultPart, ...]
    cut_chars: int
    cut_tokens: int | None
    budget: ResultBudget


budgets_exist = False
"""Whether this process holds a `ResultBudget` (made, copied or unpickled): until it
does, no tool and no group can have one, so a batch skips `fit_results` on this one
test, without a call. Once one exists, `fit_results` says which results it applies to."""

_tool_budgets = False
"""Whether any tool class defines `model_tool_result_budget` (then every batch looks)."""


def check_tool_budget(tool: type[Any]) -> None:
    """At class creation: a tool's `model_tool_result_budget` must be a `ResultBudget`."""
    global _tool_budgets
    budget: object = tool.__dict__["model_tool_result_budget"]
    if budget is None:
        return
    if not isinstance(budget, ResultBudget):
        from .exceptions import ToolDefinitionError

        raise ToolDefinitionError(
            f"{tool.__name__}.model_tool_result_budget is {budget!r}; set it to "
            "ResultBudget(max_chars=...) (and/or max_tokens= with count_tokens=), or None."
        )
    _tool_budgets = True


def check_group_budget(budget: object) -> ResultBudget | None:
    """A group's `result_budget=`: a `ResultBudget` or None."""
    if budget is not None and not isinstance(budget, ResultBudget):
        raise TypeError(
            f"result_budget takes a ResultBudget (e.g. ResultBudget(max_chars=20_000)) or "
            f"None; got {budget!r}."
        )
    return budget


def fit_results(
    tools: Mapping[str, type[Any]], results: MutableSequence[ToolCallResult[Any] | None]
) -> None:
    """Cut, in place, each success in `results` that is over its budget: its tool's
    (`model_tool_result_budget`), else the group's (`tools.result_budget`)."""
    group_budget: ResultBudget | None = getattr(tools, "result_budget", None)
    if group_budget is None and not _tool_budgets:
        return
    for index, result in enumerate(results):
        if result is not None:
            results[index] = _fitted(tools, group_budget, result)


def fit_result(tools: Mapping[str, type[Any]], result: ToolCallResult[Any]) -> ToolCallResult[Any]:
    """`fit_results` for one call's result."""
    group_budget: ResultBudget | None = getattr(tools, "result_budget", None)
    if group_budget is None and not _tool_budgets:
        return result
    return _fitted(tools, group_budget, result)


def _fitted(
    tools: Mapping[str, type[Any]], group_budget: ResultBudget | None, result: ToolCallResult[Any]
) -> ToolCallResult[Any]:
    if result.fail_reason is not None:
        return result
    budget: ResultBudget | None = getattr(tools.get(result.name), "model_tool_result_budget", None)
    if budget is None:
        budget = group_budget
    return result if budget is None else fit(result, budget)


def fit(result: ToolCallSuccess[Any], budget: ResultBudget) -> ToolCallSuccess[Any]:
    """`result` as the model may read it under `budget` (itself when within)."""
    parts = result.result_parts
    text = "\n".join(p for p in parts if isinstance(p, str)) if parts else result.result_content
    total = len(text)
    keep = total
    if budget.max_chars is not None and total > budget.max_chars:
        keep = budget.max_chars
    tokens: int | None = None
    count = budget.count_tokens
    if count is not None and budget.max_tokens is not None:
        tokens = _counted(count, text)
        if tokens > budget.max_tokens:  # as many characters as fit, by the text's ratio
            keep = min(keep, total * budget.max_tokens // tokens)
    if keep >= total:
        return result
    while True:
        head, tail, note = _plan(text, keep, tokens, budget)
        shown = text[:head] + note + text[total - tail :]
        if count is None or budget.max_tokens is None or keep == 0:
            break
        shown_tokens = _counted(count, shown)
        if shown_tokens <= budget.max_tokens:
            break
        keep = min(keep - 1, keep * budget.max_tokens // shown_tokens)
    kept = text[:head] + text[total - tail :]
    cut_tokens = None if tokens is None or count is None else tokens - _counted(count, kept)
    if parts:
        new_parts = _cut_parts(parts, head, total - tail, note)
        content = parts_text(new_parts)
    else:
        new_parts = ()
        content = shown
    fitted = ToolCallSuccess(
        result.call_id,
        result.name,
        content,
        result.context,
        result.type,
        result.synthesized_id,
        result_parts=new_parts,
    )
    guardrail = result.guardrail
    if guardrail is not None:
        fitted._guardrail = guardrail
    fitted._cut = ResultCut(result.result_content, parts, total - head - tail, cut_tokens, budget)
    return fitted


def _plan(text: str, keep: int, tokens: int | None, budget: ResultBudget) -> tuple[int, int, str]:
    """How many characters of the head and of the tail the model reads, and the note
    between them, all within `keep` characters (the note alone when it does not fit)."""
    total = len(text)
    room = len(_note(total, total, tokens, budget))  # the longest the note can be
    body = max(keep - room, 0)
    head, tail = (body + 1) // 2, body // 2
    return head, tail, _note(total - head - tail, total, tokens, budget)


def _note(cut: int, total: int, tokens: int | None, budget: ResultBudget) -> str:
    limits = [f"{n:,} {unit}" for n, unit in ((budget.max_chars, "characters"), (budget.max_tokens, "tokens")) if n is not None]  # fmt: skip
    size = f"{total:,} characters" + (f", {tokens:,} tokens" if tokens is not None else "")
    return (
        f"\n\n[... {cut:,} characters cut here: the full result ({size}) is over this "
        f"tool's limit of {' and '.join(limits)}. The application has the full result; you "
        "read its start and its end. Ask for a narrower result if you need the rest.]\n\n"
    )


def _cut_parts(
    parts: Sequence[ResultPart], head: int, tail_from: int, note: str
) -> tuple[ResultPart, ...]:
    """`parts` with the text between offsets `head` and `tail_from` of their joined text
    (text parts joined by newlines) replaced by `note`; images, files and references
    stay, in order."""
    out: list[ResultPart] = []
    position = 0
    noted = False
    for part in parts:
        if not isinstance(part, str):
            out.append(part)
            continue
        start, end = position, position + len(part)
        position = end + 1  # the newline joining it to the next text part
        if end <= head or start >= tail_from:  # wholly read
            if start >= tail_from and not noted:
                out.append(note.strip("\n"))
                noted = True
            out.append(part)
            continue
        if start < head:
            out.append(part[: head - start])
        if not noted:
            out.append(note.strip("\n"))
            noted = True
        if end > tail_from:
            out.append(part[tail_from - start :])
    return tuple(out)


def _counted(count: Callable[[str], int], text: str) -> int:
    tokens: object = count(text)
    if type(tokens) is not int or tokens < 0:
        raise TypeError(
            f"ResultBudget's count_tokens returned {tokens!r}; it must return the number of "
            "tokens in the text it is given (an int of 0 or more)."
        )
    return tokens
