"""Result budgets: per tool (`model_tool_result_budget`) and per group
(`from_list(..., result_budget=...)`), in characters and in tokens by the caller's
counter. Over budget the model reads the head, a note, and the tail; `result.cut`
keeps the full result. Text parts are cut, images kept; budgets apply after the
`after` hook; core and aio; every API takes the cut result back (its fake and
`check_history`); an MCP server's result is cut the same way."""

from __future__ import annotations

import asyncio
import copy
import pickle
from collections.abc import Callable
from typing import Any

import mcp_types as types
import pytest
from anthropic.types import Message
from inline_snapshot import snapshot
from mcp import Client

from tests.helpers import anthropic_message
from tests.mcp.servers import lowlevel_server, run
from tests.test_guardrails import first_response, second_request
from toolwire import _budget, aio
from toolwire._api import API_NAMES, Api
from toolwire.core import (
    BaseFunctionToolModel,
    ImagePart,
    ReplaceContent,
    ResultBudget,
    ToolCallEnd,
    ToolCallSuccess,
    ToolGroup,
    ToolHooks,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolBatchError, ToolDefinitionError
from toolwire.mcp import MCPTools
from toolwire.testing import check_history

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63902fdff21f00044d024acc1db5fa0000000049454e44ae426082"
)
LOG = "START " + "".join(f"line {n:04d}\n" for n in range(2000)) + " END"
"""A 20,012-character log: its head and tail are recognisable."""


class read_log(BaseFunctionToolModel[None, int]):
    """Read the build log."""

    def model_tool_handler(self, context: None) -> tuple[str, int]:
        return LOG, 7


class small_log(BaseFunctionToolModel[None, int]):
    """Read the build log, 400 characters of it at most."""

    model_tool_result_budget = ResultBudget(max_chars=400)

    def model_tool_handler(self, context: None) -> tuple[str, int]:
        return LOG, 7


class log_and_chart(BaseFunctionToolModel[None, int]):
    """The log in three parts, and a chart between them."""

    def model_tool_handler(self, context: None) -> tuple[list[Any], int]:
        return [
            "first part " + "a" * 1000,
            ImagePart(data=PNG, media_type="image/png"),
            "b" * 1000,
            "last part",
        ], 7


def anthropic_calls(*names: str) -> Message:
    return anthropic_message(*((name, dict[str, Any]()) for name in names))


def test_over_its_budget_the_model_reads_head_note_and_tail() -> None:
    group = ToolGroup.from_list([read_log, small_log], result_budget=ResultBudget(max_chars=1000))
    grouped, own = group.run_tool_calls(anthropic_calls("read_log", "small_log"), None)
    assert isinstance(grouped, ToolCallSuccess) and grouped.context == 7
    assert len(grouped.result_content) <= 1000 and len(own.result_content) <= 400
    assert own.result_content == snapshot("""\
START line 0000
line 0001
line 0002
line 0003
line 0004
line 0005
line 0006
line 00

[... 19,845 characters cut here: the full result (20,010 characters) is over this tool's limit of 400 characters. The application has the full result; you read its start and its end. Ask for a narrower result if you need the rest.]

ne 1992
line 1993
line 1994
line 1995
line 1996
line 1997
line 1998
line 1999
 END\
""")
    cut = own.cut
    assert cut is not None and cut.full_content == LOG and cut.full_parts == ()
    assert (cut.cut_chars, cut.cut_tokens, cut.budget) == (
        19_845,
        None,
        ResultBudget(max_chars=400),
    )
    assert grouped.cut is not None and grouped.cut.budget == ResultBudget(max_chars=1000)


def test_within_its_budget_a_result_is_untouched() -> None:
    group = ToolGroup.from_list([read_log], result_budget=ResultBudget(max_chars=len(LOG)))
    result = group.run_tool_call(anthropic_calls("read_log").content[0].model_dump(), None)
    assert result.result_content == LOG and result.cut is None


def words(text: str) -> int:
    return len(text.split())


def test_tokens_by_the_callers_counter() -> None:
    budget = ResultBudget(max_tokens=300, count_tokens=words)
    (result,) = ToolGroup.from_list([read_log], result_budget=budget).run_tool_calls(
        anthropic_calls("read_log"), None
    )
    assert words(result.result_content) <= 300
    assert result.result_content.startswith("START line 0000") and result.result_content.endswith(" END")  # fmt: skip
    assert (
        "4,002 tokens" in result.result_content and "limit of 300 tokens" in result.result_content
    )
    cut = result.cut
    assert cut is not None and cut.cut_tokens is not None
    kept = result.result_content.split("\n\n[...")[0] + result.result_content.split("]\n\n")[-1]
    assert cut.cut_tokens == words(LOG) - words(kept)
    wrong = ResultBudget(max_tokens=10, count_tokens=lambda text: "many")  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="must return the number of tokens"):
        ToolGroup.from_list([read_log], result_budget=wrong).run_tool_calls(
            anthropic_calls("read_log"), None
        )


def test_text_parts_are_cut_and_images_kept() -> None:
    group = ToolGroup.from_list([log_and_chart], result_budget=ResultBudget(max_chars=500))
    (result,) = group.run_tool_calls(anthropic_calls("log_and_chart"), None)
    assert isinstance(result, ToolCallSuccess)
    parts = result.result_parts
    assert [type(p).__name__ for p in parts] == ["str", "str", "ImagePart", "str", "str"]
    assert parts[2] == ImagePart(data=PNG, media_type="image/png")
    assert str(parts[0]).startswith("first part ") and parts[-1] == "last part"
    assert str(parts[1]).startswith("[... ") and parts[3] == "b" * (len(str(parts[3])))
    assert result.result_content == "\n".join(p for p in parts if isinstance(p, str))
    assert len(result.result_content) <= 500
    assert result.cut is not None and len(result.cut.full_parts) == 4


def test_the_budget_applies_to_what_the_after_hook_leaves() -> None:
    def summarise(end: ToolCallEnd) -> ReplaceContent:
        return ReplaceContent("summary: " + "s" * 2000)

    group = ToolGroup.from_list([read_log], result_budget=ResultBudget(max_chars=500))
    (result,) = group.run_tool_calls(
        anthropic_calls("read_log"), None, hooks=ToolHooks(after=summarise)
    )
    assert result.result_content.startswith("summary: ") and len(result.result_content) <= 500
    assert result.cut is not None and result.cut.full_content == "summary: " + "s" * 2000
    guardrail = result.guardrail
    assert guardrail is not None and guardrail.original is not None
    assert guardrail.original.result_content == LOG


def test_failures_are_not_cut_and_batch_errors_hold_cut_results() -> None:
    class crash(BaseFunctionToolModel[None, int]):
        """Crash."""

        def model_tool_handler(self, context: None) -> tuple[str, int]:
            raise RuntimeError("boom")

    group = ToolGroup.from_list([read_log, crash], result_budget=ResultBudget(max_chars=300))
    with pytest.raises(ToolBatchError) as raised:
        group.run_tool_calls(anthropic_calls("read_log", "crash"), None)
    answered = raised.value.answer_all()
    assert len(answered[0].result_content) <= 300 and answered[0].cut is not None
    failed = group.run_tool_calls(anthropic_calls("nothing_" + "x" * 400), None)
    assert failed[0].fail_reason == "invalid_name" and failed[0].cut is None


def test_aio_batch_and_single_call() -> None:
    class aio_log(aio.BaseFunctionToolModel[None, int]):
        """Read the build log."""

        model_tool_custom_name = "read_log"
        model_tool_result_budget = ResultBudget(max_chars=600)

        async def model_tool_handler(self, context: None) -> tuple[str, int]:
            return LOG, 7

    group = aio.ToolGroup.from_list([aio_log])
    (batched,) = asyncio.run(group.run_tool_calls(anthropic_calls("read_log"), None))
    single = asyncio.run(group.run_tool_call(anthropic_calls("read_log").content[0].model_dump(), None))  # fmt: skip
    assert batched.result_content == single.result_content
    assert len(single.result_content) <= 600 and single.cut is not None


def unpickled(group: Any) -> Any:
    return pickle.loads(pickle.dumps(group))


@pytest.mark.parametrize("arrive", [unpickled, copy.deepcopy])
def test_a_budget_that_arrives_unpickled_or_copied_applies(
    monkeypatch: pytest.MonkeyPatch, arrive: Callable[[Any], Any]
) -> None:
    """Batches skip the budget check while no `ResultBudget` exists in the process: a
    process whose only budget arrives in an unpickled (or copied) group, never built by
    `ResultBudget(...)`, still cuts by it, in core and in aio."""
    group = ToolGroup.from_list([read_log], result_budget=ResultBudget(max_chars=500))
    aio_group = aio.ToolGroup.from_list([aio_read_log], result_budget=ResultBudget(max_chars=500))
    monkeypatch.setattr(_budget, "budgets_exist", False)  # as in a fresh process
    arrived, aio_arrived = arrive(group), arrive(aio_group)
    (result,) = arrived.run_tool_calls(anthropic_calls("read_log"), None)
    assert len(result.result_content) <= 500 and result.cut is not None
    (result,) = asyncio.run(aio_arrived.run_tool_calls(anthropic_calls("read_log"), None))
    assert len(result.result_content) <= 500 and result.cut is not None


class aio_read_log(aio.BaseFunctionToolModel[None, int]):
    """Read the build log."""

    model_tool_custom_name = "read_log"

    async def model_tool_handler(self, context: None) -> tuple[str, int]:
        return LOG, 7


def test_mistakes_are_refused_early() -> None:
    with pytest.raises(ValueError, match="needs max_chars="):
        ResultBudget()
    with pytest.raises(ValueError, match="go together"):
        ResultBudget(max_tokens=10)
    with pytest.raises(ValueError, match="positive int"):
        ResultBudget(max_chars=0)
    with pytest.raises(ToolDefinitionError, match="set it to ResultBudget"):

        class wrong(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """Wrong."""

            model_tool_result_budget = 1000  # type: ignore[assignment]

    with pytest.raises(TypeError, match="result_budget takes a ResultBudget"):
        ToolGroup.from_list([read_log], result_budget=1000)  # type: ignore[arg-type]


@pytest.mark.parametrize("api", API_NAMES)
def test_every_api_takes_a_cut_result_back(api: Api) -> None:
    group: Any = ToolGroup.from_list([read_log], result_budget=ResultBudget(max_chars=300))
    history, response, client = first_response(api, group)
    results = group.run_tool_calls(response, None, api=api)
    assert results[0].cut is not None
    history += assistant_messages(response, api)
    history += tool_result_messages(results, api)
    assert check_history(history, api) == []
    rendered = repr(tool_result_messages(results, api))
    assert "characters cut here" in rendered and "line 0500" not in rendered
    second_request(api, client, history, group)


def test_an_mcp_servers_result_is_cut_the_same_way() -> None:
    """Against the MCP SDK's own server, in process: its text is cut, its image kept."""
    listed = [types.Tool(name="dump", input_schema={"type": "object"})]

    async def answer(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return types.CallToolResult(
            content=[
                types.TextContent(text=LOG),
                types.ImageContent(data="iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOQL9/yHwAETQJKzB21+gAAAABJRU5ErkJggg==", mime_type="image/png"),
            ]
        )  # fmt: skip

    async def body() -> list[Any]:
        async with Client(lowlevel_server(listed, answer)) as session:
            loaded = await MCPTools.load(session)
            group = aio.ToolGroup.from_list(loaded.tools, result_budget=ResultBudget(max_chars=500))
            by_group = await group.run_tool_calls(anthropic_calls("dump"), None)
            # The server's own budget, given when loading, wins over the group's.
            capped = await MCPTools.load(session, result_budget=ResultBudget(max_chars=300))
            group = aio.ToolGroup.from_list(capped.tools, result_budget=ResultBudget(max_chars=500))
            return [*by_group, *await group.run_tool_calls(anthropic_calls("dump"), None)]

    result, capped = run(body)
    assert len(result.result_content) <= 500 and "characters cut here" in result.result_content
    assert [type(p).__name__ for p in result.result_parts] == ["str", "str", "str", "ImagePart"]
    assert result.cut is not None and result.cut.full_parts[0] == LOG
    assert capped.cut is not None and capped.cut.budget == ResultBudget(max_chars=300)
    assert len(capped.result_content) <= 300
