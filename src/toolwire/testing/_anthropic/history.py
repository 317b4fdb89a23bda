"""History rules of the Anthropic Messages API, on the request's `messages` list.

What the live API rejects, and how each rule reads:

- an assistant message with `tool_use` blocks whose ids do not each get a
  `tool_result` in the next message, which must be a user message (live:
  "`tool_use` ids were found without `tool_result` blocks immediately
  after");
- a user message answering tool calls that does not begin with its
  `tool_result` blocks: text or other content before a result (live:
  "Messages following `tool_use` blocks must begin with a matching number
  of `tool_result` blocks");
- a `tool_result` whose `tool_use_id` is not a `tool_use` of the assistant
  message right before it (live: "unexpected `tool_use_id` found in
  `tool_result` blocks"), a second result for one id, and blocks without ids;
- results for one assistant turn split across two user messages;
- a user message answering calls a program made (their `caller` is a code execution
  version) that holds anything besides its `tool_result` blocks (the programmatic tool
  calling guide: while a program waits for its results, "your response message must
  contain only tool_result blocks");
- a text block whose text is empty, in any message (live: "text content
  blocks must be non-empty"). The API itself sometimes returns one next to a
  `tool_use` (anthropic-sdk-python#461); `assistant_messages` leaves it out;
- a message whose content is text blocks that are all blank, with some
  whitespace (live: "text content blocks must contain non-whitespace text"),
  or a user message whose content is a whitespace string; whitespace beside
  other content (`[text " ", text "ok"]`, `[text "\n\n", tool_use]`) is accepted;
- a user message with no content, `""` or `[]` (live: "user messages must
  have non-empty content"; an assistant message may be empty);
- more than four blocks with `cache_control` (`cache.py`).

Accepted: string content for plain user messages, text or images after the
results, server-tool blocks (`server_tool_use` and their results live in the
assistant message itself), thinking blocks, and `role: "system"` messages
(skipped, since where the API allows them is not documented). The API
documents that consecutive same-role messages are combined into one turn;
toolwire follows that for assistant messages (their `tool_use` blocks form
one turn) but reports results split across user messages, so a history
works however the API merges it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._rules import HistoryProblem, blocks_of, field, quoted, sorted_problems, text_field
from .cache import breakpoint_problems

__all__ = ["anthropic_history_problems"]


class _Turn:
    """The `tool_use` blocks of one assistant turn (one or more consecutive messages)."""

    def __init__(self) -> None:
        self.uses: list[tuple[str, str, int]] = []  # id, name, message index
        self.answered: dict[str, int] = {}
        self.programmatic: set[str] = set()  # ids of the uses a program made

    @property
    def index(self) -> int:
        return self.uses[0][2]

    def owns(self, use_id: str) -> bool:
        return any(use_id == u for u, _, _ in self.uses)


def anthropic_history_problems(
    messages: Sequence[Mapping[str, Any]], *, outside_breakpoints: int = 0
) -> list[HistoryProblem]:
    """Every reason the Messages API would reject `messages`, in order
    (`outside_breakpoints`: the cache breakpoints of the request's tools and system)."""
    problems: list[HistoryProblem] = breakpoint_problems(messages, outside=outside_breakpoints)
    owner: dict[str, int] = {}
    consumed: set[tuple[int, int]] = set()
    turn: _Turn | None = None
    order = [i for i, m in enumerate(messages) if text_field(m, "role") != "system"]
    for position, index in enumerate(order):
        message = messages[index]
        role = text_field(message, "role")
        blocks = blocks_of(message, "content")
        problems += _empty_texts(index, role, blocks)
        problems += _blank(index, role, field(message, "content"), blocks)
        if role == "assistant":
            turn = turn or _Turn()
            problems += _collect_uses(index, blocks, turn)
            owner.update((u, i) for u, _, i in turn.uses)
            if position + 1 == len(order) and turn.uses:
                problems += _missing(turn, None)
            continue
        if turn is not None and turn.uses:
            problems += _answers(index, blocks, turn, owner)
            problems += _beside_program_results(index, blocks, turn)
            problems += _split_or_missing(index, turn, messages, order[position + 1 :], consumed)
        else:
            problems += _orphans(index, blocks, owner, consumed)
        turn = None
    return sorted_problems(problems)


def _empty_texts(index: int, role: str, blocks: list[Mapping[str, Any]]) -> list[HistoryProblem]:
    return [
        HistoryProblem(
            index,
            f"messages[{index}] ({role or 'no role'}) has an empty text block at "
            f'content[{position}], and the API rejects empty text blocks ("text content '
            'blocks must be non-empty"); drop the block (assistant_messages leaves them out)',
        )
        for position, block in enumerate(blocks)
        if text_field(block, "type") == "text" and field(block, "text") == ""
    ]


def _blank(
    index: int, role: str, content: object, blocks: list[Mapping[str, Any]]
) -> list[HistoryProblem]:
    """A message with nothing visible in it: no content (user), or whitespace text only."""
    if role == "user" and content in (None, "", []):
        return [
            HistoryProblem(
                index,
                f'messages[{index}] (user) has no content, and the API rejects it ("user '
                'messages must have non-empty content"); give it text, or leave the message out',
            )
        ]
    if isinstance(content, str):
        blank = role == "user" and not content.strip()
    else:
        texts = [text_field(b, "text") for b in blocks if text_field(b, "type") == "text"]
        blank = len(texts) == len(blocks) and any(texts) and not any(t.strip() for t in texts)
    if not blank:
        return []
    return [
        HistoryProblem(
            index,
            f"messages[{index}] ({role or 'no role'}) holds only whitespace text, and the API "
            'rejects that ("text content blocks must contain non-whitespace text"); drop the '
            "blank text, and the message if nothing is left (assistant_messages leaves out a "
            "turn of blank text)",
        )
    ]


def _collect_uses(index: int, blocks: list[Mapping[str, Any]], turn: _Turn) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for block in blocks:
        if text_field(block, "type") != "tool_use":
            continue
        name = text_field(block, "name") or "unnamed"
        use_id = text_field(block, "id")
        if not use_id:
            problems.append(
                HistoryProblem(
                    index,
                    f"messages[{index}] (assistant) has a tool_use block ({name}) with no id; "
                    "replay tool_use blocks exactly as the API returned them",
                )
            )
            continue
        turn.uses.append((use_id, name, index))
        if text_field(field(block, "caller"), "type") not in ("", "direct"):
            turn.programmatic.add(use_id)
    return problems


def _answers(
    index: int, blocks: list[Mapping[str, Any]], turn: _Turn, owner: dict[str, int]
) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    before_results = ""
    for block in blocks:
        kind = text_field(block, "type")
        if kind != "tool_result":
            before_results = before_results or kind or "untyped"
            continue
        use_id = text_field(block, "tool_use_id")
        if before_results:
            problems.append(
                HistoryProblem(
                    index,
                    f"messages[{index}] (user) has a {before_results} block before the "
                    f"tool_result for {use_id!r}; begin the message with all its tool_result "
                    "blocks, one per tool_use id, and put text or other content after them",
                )
            )
            before_results = ""
        problems += _one_result(index, use_id, turn, owner)
    return problems


def _beside_program_results(
    index: int, blocks: list[Mapping[str, Any]], turn: _Turn
) -> list[HistoryProblem]:
    """The blocks besides the results in a user message answering a program's calls."""
    answered = [
        text_field(block, "tool_use_id")
        for block in blocks
        if text_field(block, "type") == "tool_result"
        and text_field(block, "tool_use_id") in turn.programmatic
    ]
    if not answered:
        return []
    return [
        HistoryProblem(
            index,
            f"messages[{index}] (user) answers calls a program made ({quoted(answered)}) and "
            f"also holds a {text_field(block, 'type') or 'untyped'} block at "
            f"content[{position}]; while a program waits for its results, the message must "
            "hold only tool_result blocks: send other content once the program has ended",
        )
        for position, block in enumerate(blocks)
        if text_field(block, "type") != "tool_result"
    ]


def _one_result(
    index: int, use_id: str, turn: _Turn, owner: dict[str, int]
) -> list[HistoryProblem]:
    if not use_id:
        return [
            HistoryProblem(
                index,
                f"messages[{index}] (user) has a tool_result block with no tool_use_id; set it "
                "to the id of the tool_use it answers",
            )
        ]
    if use_id in turn.answered:
        return [
            HistoryProblem(
                index,
                f"messages[{index}] (user) has a second tool_result for {use_id!r}; give "
                "exactly one tool_result per tool_use id",
            )
        ]
    if turn.owns(use_id):
        turn.answered[use_id] = index
        return []
    elsewhere = ""
    if use_id in owner and owner[use_id] < turn.index:
        elsewhere = (
            f"; {use_id!r} is a tool_use of messages[{owner[use_id]}], and its result "
            "belongs in the message right after that one"
        )
    ids = quoted(dict.fromkeys(u for u, _, _ in turn.uses))
    return [
        HistoryProblem(
            index,
            f"messages[{index}] (user) has a tool_result for {use_id!r}, but "
            f"messages[{turn.index}] (assistant) has no tool_use with that id (its tool_use "
            f"ids: {ids}); use the id of one of its tool_use blocks{elsewhere}",
        )
    ]


def _split_or_missing(
    index: int,
    turn: _Turn,
    messages: Sequence[Mapping[str, Any]],
    following: list[int],
    consumed: set[tuple[int, int]],
) -> list[HistoryProblem]:
    """Report results that arrive in later user messages, then those that never arrive."""
    problems: list[HistoryProblem] = []
    for later in following:
        if text_field(messages[later], "role") != "user":
            break
        for position, block in enumerate(blocks_of(messages[later], "content")):
            use_id = text_field(block, "tool_use_id")
            if text_field(block, "type") != "tool_result" or not turn.owns(use_id):
                continue
            if use_id in turn.answered:
                continue
            turn.answered[use_id] = later
            consumed.add((later, position))
            problems.append(
                HistoryProblem(
                    later,
                    f"messages[{later}] (user) holds the tool_result for {use_id!r}, but the "
                    f"results for the tool calls of messages[{turn.index}] started in "
                    f"messages[{index}]; put every tool_result of one assistant turn in a "
                    "single user message",
                )
            )
    return problems + _missing(turn, index)


def _missing(turn: _Turn, next_index: int | None) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for use_id, name, where in turn.uses:
        if use_id in turn.answered:
            continue
        if next_index is None:
            text = (
                f"messages[{where}] (assistant) has tool_use {use_id!r} ({name}) with no user "
                "message after it; append one user message that begins with a tool_result "
                "block for each tool_use id"
            )
        else:
            text = (
                f"messages[{where}] (assistant) has tool_use {use_id!r} ({name}) with no "
                f"tool_result in the next message, messages[{next_index}]; begin that message "
                "with one tool_result block per tool_use id"
            )
        problems.append(HistoryProblem(where, text))
        turn.answered[use_id] = where
    return problems


def _orphans(
    index: int,
    blocks: list[Mapping[str, Any]],
    owner: dict[str, int],
    consumed: set[tuple[int, int]],
) -> list[HistoryProblem]:
    problems: list[HistoryProblem] = []
    for position, block in enumerate(blocks):
        if text_field(block, "type") != "tool_result" or (index, position) in consumed:
            continue
        use_id = text_field(block, "tool_use_id")
        elsewhere = ""
        if use_id in owner:
            elsewhere = (
                f" ({use_id!r} is a tool_use of messages[{owner[use_id]}]; its result belongs "
                "in the message right after that one)"
            )
        problems.append(
            HistoryProblem(
                index,
                f"messages[{index}] (user) has a tool_result for {use_id!r}, but the message "
                "before it is not an assistant message with tool_use blocks; a tool_result "
                f"must answer a tool_use of the assistant message right before it{elsewhere}",
            )
        )
    return problems
