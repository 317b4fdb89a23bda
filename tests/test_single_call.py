"""A response with one call takes a shorter path through `run_tool_calls` (most
responses hold one call). Every outcome it can have must match what the general batch
loop gives the same call; hooks force the general loop, so each case runs both ways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
import pytest
from inline_snapshot import snapshot

from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    StandardToolCall,
    ToolBatchError,
    ToolGroup,
    ToolHooks,
)
from toolwire.exceptions import CallKindMismatchError


class Act(BaseFunctionToolModel[None, None]):
    """Do what `how` says."""

    how: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.how == "refuse":
            raise ErrorForLLMToSee("Not today; ask for something else.")
        if self.how == "crash":
            raise KeyError("a bug in the handler")
        if self.how == "wrong shape":
            return "done"  # pyright: ignore[reportReturnType]
        if self.how == "parts":
            return HandlerResult(["one", "two"], None)  # pyright: ignore[reportReturnType]
        return f"did {self.how}", None


class Open(BaseFunctionToolModel[None, None]):
    """Open a file that must exist."""

    path: str

    @pydantic.field_validator("path")
    @classmethod
    def exists(cls, value: str) -> str:
        return str(Path(value).resolve(strict=True))  # FileNotFoundError: not wrapped

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "opened", None


class Shout(BaseCustomToolModel[None, None]):
    """Repeat the text, louder."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return self.input.upper(), None


GROUP = ToolGroup.from_list([Act, Open, Shout])

CALLS = {
    "success": StandardToolCall("function", "c1", "Act", '{"how": "it"}'),
    "dict arguments": StandardToolCall("function", "c1", "Act", {"how": "it"}),
    "parts": StandardToolCall("function", "c1", "Act", '{"how": "parts"}'),
    "refused": StandardToolCall("function", "c1", "Act", '{"how": "refuse"}'),
    "invalid": StandardToolCall("function", "c1", "Act", '{"how": 3}'),
    "no arguments": StandardToolCall("function", "c1", "Act", ""),
    "array arguments": StandardToolCall("function", "c1", "Act", '["it"]'),
    "padded object": StandardToolCall("function", "c1", "Act", ' {"how": "it"}'),
    "unknown tool": StandardToolCall("function", "c1", "Fly", "{}"),
    "truncated": StandardToolCall("function", "c1", "Act", '{"how": "i', truncated=True),
    "synthesized id": StandardToolCall("function", "t_1", "Act", '{"how": "it"}', True),
    "custom": StandardToolCall("custom", "c1", "Shout", "hey"),
    "handler crash": StandardToolCall("function", "c1", "Act", '{"how": "crash"}'),
    "wrong shape": StandardToolCall("function", "c1", "Act", '{"how": "wrong shape"}'),
    "validator crash": StandardToolCall("function", "c1", "Open", '{"path": "/no/such/file"}'),
}


def outcome(call: StandardToolCall, **options: Any) -> tuple[object, ...]:
    """What dispatching `call` alone gives, in a comparable form."""
    try:
        [result] = GROUP.run_tool_calls([call], None, **options)
    except ToolBatchError as error:
        return ("raised", str(error), [type(e).__name__ for e in error.exceptions], error.results)
    exception = result.exception
    return (
        type(result).__name__,
        result.call_id,
        result.name,
        result.type,
        result.synthesized_id,
        result.result_content,
        result.result_parts,
        result.fail_reason,
        None if exception is None else type(exception).__name__,
    )


@pytest.mark.parametrize("unexpected_errors", ["raise", "fail"])
@pytest.mark.parametrize("case", list(CALLS))
def test_one_call_matches_the_general_loop(case: str, unexpected_errors: str) -> None:
    call = CALLS[case]
    short = outcome(call, unexpected_errors=unexpected_errors)
    general = outcome(call, unexpected_errors=unexpected_errors, hooks=ToolHooks())
    assert short == general


def test_what_one_call_gives() -> None:
    """The outcomes themselves, so the comparison above cannot pass on two wrong paths."""
    got: dict[str, tuple[object, ...]] = {}
    for case, call in CALLS.items():
        kind, call_id, *_, content, _parts, _reason, _exception = outcome(
            call, unexpected_errors="fail"
        )
        got[case] = (kind, call_id, content)
    assert got == snapshot(
        {
            "success": ("ToolCallSuccess", "c1", "did it"),
            "dict arguments": ("ToolCallSuccess", "c1", "did it"),
            "parts": (
                "ToolCallSuccess",
                "c1",
                """\
one
two\
""",
            ),
            "refused": ("ToolCallFailure", "c1", "Not today; ask for something else."),
            "invalid": (
                "ToolCallFailure",
                "c1",
                """\
Invalid arguments for 'Act': 1 error. Fix them and call the tool again.
- how: Input should be a valid string (got 3)\
""",
            ),
            "no arguments": (
                "ToolCallFailure",
                "c1",
                """\
Invalid arguments for 'Act': 1 error. Fix them and call the tool again.
- how: Field required\
""",
            ),
            "array arguments": (
                "ToolCallFailure",
                "c1",
                "The arguments for 'Act' must be one JSON object, but they are a JSON array. Call it again with an object such as {\"field\": value}.",
            ),
            "padded object": ("ToolCallSuccess", "c1", "did it"),
            "unknown tool": (
                "ToolCallFailure",
                "c1",
                "Unknown tool 'Fly'. Available tools: Act, Open, Shout. Call one of them by its exact name.",
            ),
            "truncated": (
                "ToolCallFailure",
                "c1",
                "The call to 'Act' was cut off before its arguments were complete (the response stopped early, at the output length limit or a content filter), so it was not run. If its arguments were long, call it again with shorter ones (for example, split the work into several smaller calls).",
            ),
            "synthesized id": ("ToolCallSuccess", "t_1", "did it"),
            "custom": ("ToolCallSuccess", "c1", "HEY"),
            "handler crash": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
            "wrong shape": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
            "validator crash": (
                "ToolCallFailure",
                "c1",
                "This call failed with an internal error; its details are hidden. Tell the user, or try again if it is safe to repeat.",
            ),
        }
    )
    assert outcome(CALLS["handler crash"])[0] == "raised"


def test_a_kind_mismatch_raises_either_way() -> None:
    call = StandardToolCall("custom", "c1", "Act", "it")
    for hooks in (None, ToolHooks()):
        with pytest.raises(CallKindMismatchError):
            GROUP.run_tool_calls([call], None, hooks=hooks)
