"""Tool search and deferred loading on every API: toolwire's ranking, the search tool's
definition per API, and recorded tool-search turns (OpenAI Responses client search,
Anthropic client search with `tool_reference` blocks, Anthropic's server search)
round-tripping through the real SDK clients; the Chat Completions and Gemini fallback
growing the next request's tool list."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

import httpx2
import pytest
from anthropic import Anthropic
from anthropic.types import Message, MessageParam, ToolUnionParam
from openai.types.responses import ResponseInputItemParam, ToolParam
from pydantic import TypeAdapter

from tests.shared_data import CASES, require_shared
from tests.test_responses_support import response_json, sdk_response
from toolwire import aio
from toolwire._search import rank_tools, words
from toolwire.core import (
    BaseFunctionToolModel,
    ToolGroup,
    ToolReference,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolDefinitionError, ToolwireError


class GetWeather(BaseFunctionToolModel[None, None]):
    """Get the current weather for a city."""

    model_tool_custom_name = "get_weather"
    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}", None


class GetExchangeRate(BaseFunctionToolModel[None, None]):
    """Look up the current exchange rate between two currencies."""

    model_tool_custom_name = "get_exchange_rate"
    model_tool_defer_loading = True
    from_currency: str
    to_currency: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "1 USD = 0.92 EUR", None


class StockLookup(BaseFunctionToolModel[None, None]):
    """Look up stock price by ticker symbol."""

    model_tool_custom_name = "stock_lookup"
    model_tool_defer_loading = True
    symbol: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "42", None


def group(**search: Any) -> ToolGroup[None, None]:
    tools = ToolGroup.from_list([GetWeather, GetExchangeRate, StockLookup])
    tools.add_tool_search(**search)
    return tools


def case(name: str) -> dict[str, Any]:
    require_shared()
    return json.loads(Path(CASES / f"{name}.json").read_text())


# -- the ranking -------------------------------------------------------------------


def test_words_split_names_and_drop_common_words() -> None:
    assert words("getExchangeRates for the USD") == ["exchange", "rate", "usd"]
    assert words("currencies") == ["currency"]


def test_ranking_scores_names_over_fields_over_descriptions() -> None:
    tools = [GetExchangeRate, StockLookup]
    assert rank_tools(["exchange rate"], tools, 5) == [GetExchangeRate]
    assert rank_tools(["ticker symbol"], tools, 5) == [StockLookup]  # symbol: a field
    assert rank_tools(["stock_lookup"], tools, 5) == [StockLookup]  # the whole name
    assert rank_tools(["price", "currency"], tools, 1) == [GetExchangeRate]  # field 2 > desc 1
    assert rank_tools(["nothing like it"], tools, 5) == []


def test_add_tool_search_checks_its_options() -> None:
    tools = ToolGroup.from_list([GetWeather])
    with pytest.raises(ToolDefinitionError, match="execution must be"):
        tools.add_tool_search(execution=cast(Any, "local"))
    with pytest.raises(ToolDefinitionError, match="limit must be"):
        tools.add_tool_search(limit=0)
    tools.add_tool_search()
    with pytest.raises(ToolDefinitionError, match="already has a tool named 'tool_search'"):
        tools.add_tool_search()


# -- definitions per API -------------------------------------------------------------


def test_server_search_definitions() -> None:
    """Server search: the API's own search tool; deferred tools marked on Responses and
    Anthropic, left out on Chat Completions and Gemini until loaded."""
    tools = group()
    responses: list[Any] = tools.tool_definitions("responses")
    assert [(d["type"], d.get("name"), d.get("defer_loading")) for d in responses] == [
        ("function", "get_weather", None),
        ("function", "get_exchange_rate", True),
        ("function", "stock_lookup", True),
        ("tool_search", None, None),
    ]
    assert responses[-1] == {"type": "tool_search"}
    TypeAdapter(list[ToolParam]).validate_python(responses)
    anthropic: list[Any] = tools.tool_definitions("anthropic")
    assert anthropic[-1] == {
        "type": "tool_search_tool_bm25_20251119",
        "name": "tool_search_tool_bm25",
    }
    TypeAdapter(list[ToolUnionParam]).validate_python(anthropic)
    regex: list[Any] = group(server="regex").tool_definitions("anthropic")
    assert regex[-1]["type"] == "tool_search_tool_regex_20251119"
    chat: list[Any] = tools.tool_definitions("chat.completions")
    assert [d["function"]["name"] for d in chat] == ["get_weather", "tool_search"]
    (gemini,) = tools.tool_definitions("gemini", loaded=[StockLookup])
    declarations: list[Any] = gemini.function_declarations or []
    assert [d.name for d in declarations] == [
        "get_weather",
        "stock_lookup",
        "tool_search",
    ]


def test_client_search_definition_on_responses() -> None:
    (*_, search) = cast("list[Any]", group(execution="client").tool_definitions("responses"))
    assert search["type"] == "tool_search"
    assert search["execution"] == "client"
    assert search["parameters"]["required"] == ["queries"]
    with pytest.raises(TypeError, match="write loaded=\\['stock_lookup'\\]"):
        group().tool_definitions("chat.completions", loaded="stock_lookup")


# -- OpenAI Responses: the client runs the search ----------------------------------


def test_responses_client_search_round_trip() -> None:
    """The recorded `tool_search_call` is answered by a `tool_search_output` holding the
    recorded definitions; the call it unlocks (namespace == name) runs the tool."""
    recorded = case("test_tool_search__test_openai_execution_client_round_trip__i1")
    search_call, recorded_output = recorded["request"]["input"][1:3]
    tools = group(execution="client")
    response = sdk_response(response_json(search_call))
    replayed = assistant_messages(response, "responses")
    assert replayed == [search_call]
    results = tools.run_tool_calls(response, None)
    assert [(r.type, r.name) for r in results] == [("tool_search", "tool_search")]
    (output,) = tool_result_messages(results, "responses")
    TypeAdapter(ResponseInputItemParam).validate_python(output)
    rendered = cast(dict[str, Any], output)
    assert {k: v for k, v in rendered.items() if k != "tools"} == {
        k: v for k, v in recorded_output.items() if k != "tools"
    }
    (tool,) = rendered["tools"]
    (want,) = recorded_output["tools"]
    assert {k: tool.get(k) for k in ("type", "name", "description", "defer_loading")} == {
        k: want.get(k) for k in ("type", "name", "description", "defer_loading")
    }
    assert tool["parameters"]["properties"].keys() == want["parameters"]["properties"].keys()
    assert tools.loaded_tools([*replayed, output], "responses") == [GetExchangeRate]
    # the next response calls the loaded tool inside a namespace of its own name
    (called,) = tools.run_tool_calls(sdk_response(recorded["response"]), None)
    assert (called.name, called.result_content) == ("get_exchange_rate", "1 USD = 0.92 EUR")


def test_responses_own_search_function_and_nothing_found() -> None:
    """Your search function decides the matches; none matched is said in text."""
    seen: list[tuple[list[str], list[str]]] = []

    def search(queries: list[str], tools: list[Any]) -> list[Any]:
        seen.append((queries, [t.model_tool_name() for t in tools]))
        return ["stock_lookup"] if "stock" in queries[0] else []

    tools = group(execution="client", search=search)
    item = {
        "type": "tool_search_call",
        "id": "tsc_1",
        "call_id": "call_s",
        "arguments": {"queries": ["stock"]},
        "execution": "client",
        "status": "completed",
    }
    (result,) = tools.run_tool_calls(sdk_response(response_json(item)), None)
    (output,) = cast("list[Any]", tool_result_messages([result], "responses"))
    assert [t["name"] for t in output["tools"]] == ["stock_lookup"]
    assert seen == [(["stock"], ["get_exchange_rate", "stock_lookup"])]
    item["arguments"] = {"queries": ["weather radar"]}
    (result,) = tools.run_tool_calls(sdk_response(response_json(item)), None)
    (output,) = cast("list[Any]", tool_result_messages([result], "responses"))
    assert output["tools"] == []
    assert result.result_content.startswith("No tool matched (weather radar).")


def test_search_function_returning_a_stranger_raises() -> None:
    """A search function naming a tool that is not deferred is a developer mistake."""

    def search(queries: list[str], tools: list[Any]) -> list[str]:
        return ["get_weather"]

    tools = group(execution="client", search=search)
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "tool_search", "arguments": '{"queries": ["x"]}'},
    }
    with pytest.raises(ToolwireError, match="'get_weather', which is not a deferred tool"):
        tools.run_tool_call(call, None, api="chat.completions")


def test_aio_search_function_may_be_async() -> None:
    class Rate(aio.BaseFunctionToolModel[None, None]):
        """Exchange rates."""

        model_tool_defer_loading = True
        pair: str

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "0.92", None

    async def search(queries: list[str], tools: list[Any]) -> list[Any]:
        return tools

    tools = aio.ToolGroup.from_list([Rate])
    tools.add_tool_search(execution="client", search=search)
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "tool_search", "arguments": '{"queries": "rate"}'},
    }
    (result,) = asyncio.run(tools.run_tool_calls([call], None, api="chat.completions"))
    assert json.loads(result.result_content) == {
        "loaded_tools": [{"name": "Rate", "description": "Exchange rates."}]
    }


# -- Anthropic ---------------------------------------------------------------------


def _anthropic_message(data: dict[str, Any]) -> Message:
    """`data` parsed by the real client, as `client.messages.create()` returns it."""
    body = json.dumps(data).encode()

    def handle(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "application/json"})

    client = Anthropic(
        api_key="x", http_client=httpx2.Client(transport=httpx2.MockTransport(handle))
    )
    return client.messages.create(model="claude-test", max_tokens=10, messages=[])


def test_anthropic_client_search_answers_with_tool_references() -> None:
    """The recorded search call (to the caller's search tool, here toolwire's) is answered
    with the `tool_reference` block the API accepted; the next turn's call runs."""
    recorded = case("test_tool_search__test_anthropic_custom_callable_round_trip__i0")
    data = recorded["response"]
    for block in data["content"]:
        if block["type"] == "tool_use":
            block["name"] = "tool_search"  # the recording's search tool is "search_tools"
    tools = group(execution="client")
    results = tools.run_tool_calls(_anthropic_message(data), None)
    (message,) = tool_result_messages(results, "anthropic")
    (want,) = recorded["followup_request"]["messages"][-1]["content"]
    (block,) = cast("list[Any]", message["content"])
    assert (
        block["content"]
        == want["content"]
        == [{"type": "tool_reference", "tool_name": "get_exchange_rate"}]
    )
    assert tools.loaded_tools([message], "anthropic") == [GetExchangeRate]
    definition = cast("list[Any]", tools.tool_definitions("anthropic"))[-1]
    assert (definition["name"], definition.get("type")) == ("tool_search", None)


def test_anthropic_reference_to_a_loaded_tool_is_text() -> None:
    """Anthropic refuses a `tool_reference` to a tool that is not deferred: toolwire
    names such a tool in text."""

    class LoadWeather(BaseFunctionToolModel[None, None]):
        """Load the weather tool."""

        def model_tool_handler(self, context: None) -> tuple[list[Any], None]:
            return ["Loaded.", ToolReference(GetWeather), ToolReference(StockLookup)], None

    tools = ToolGroup.from_list([GetWeather, StockLookup, LoadWeather])
    call: dict[str, Any] = {"type": "tool_use", "id": "toolu_1", "name": "LoadWeather", "input": {}}
    results = tools.run_tool_calls([call], None, api="anthropic")
    (message,) = tool_result_messages(results, "anthropic")
    (block,) = cast("list[Any]", message["content"])
    assert block["content"] == [
        {"type": "text", "text": "Loaded."},
        {
            "type": "text",
            "text": '{"loaded_tools": [{"name": "get_weather", "description": '
            '"Get the current weather for a city."}]}',
        },
        {"type": "tool_reference", "tool_name": "stock_lookup"},
    ]


def test_anthropic_server_search_round_trip() -> None:
    """The server searched: its blocks are no calls, replay unchanged, and name what
    they loaded; the deferred tool's call runs and its result is what the API took."""
    recorded = case("test_tool_search__test_anthropic_native_tool_search_round_trip__i0")
    tools = ToolGroup.from_list([GetExchangeRate, StockLookup])
    tools.add_tool_search()
    definitions: list[Any] = tools.tool_definitions("anthropic")
    assert [(d.get("type"), d["name"], d.get("defer_loading")) for d in definitions] == [
        (t.get("type"), t["name"], t.get("defer_loading")) for t in recorded["request"]["tools"]
    ]
    message = _anthropic_message(recorded["response"])
    replayed = assistant_messages(message, "anthropic")
    followup = recorded["followup_request"]["messages"]
    (turn,) = cast("list[Any]", replayed)
    for block in turn["content"]:
        block.pop(
            "caller", None
        )  # kept by toolwire (the API takes it back); the recording left it out
    assert turn == followup[1]
    results = tools.run_tool_calls(message, None)
    assert tool_result_messages(results, "anthropic") == [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_016VSqyszw35EYg7XCuPZ8cg",
                    "content": "1 USD = 0.92 EUR",
                }
            ],
        }
    ]
    history = cast("list[MessageParam]", followup)
    assert tools.loaded_tools(history, "anthropic") == [GetExchangeRate]


# -- Chat Completions and Gemini: the fallback --------------------------------------


def test_chat_fallback_grows_the_next_tool_list() -> None:
    tools = group()
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "tool_search", "arguments": '{"queries": ["exchange rate"]}'},
    }
    results = tools.run_tool_calls([call], None, api="chat.completions")
    messages = tool_result_messages(results, "chat.completions")
    assert messages == [
        {
            "role": "tool",
            "tool_call_id": "call_1",
            "content": '{"loaded_tools": [{"name": "get_exchange_rate", "description": '
            '"Look up the current exchange rate between two currencies."}]}',
        }
    ]
    loaded = tools.loaded_tools(messages, "chat.completions")
    assert loaded == [GetExchangeRate]
    chat: list[Any] = tools.tool_definitions("chat.completions", loaded=loaded)
    assert [d["function"]["name"] for d in chat] == [
        "get_weather",
        "get_exchange_rate",
        "tool_search",
    ]


def test_gemini_fallback_grows_the_next_tool_list() -> None:
    from google.genai import types

    tools = group()
    call = types.FunctionCall(name="tool_search", args={"queries": ["ticker"]}, id="g1")
    results = tools.run_tool_calls([call], None, api="gemini")
    history = tool_result_messages(results, "gemini")
    assert tools.loaded_tools(history, "gemini") == [StockLookup]


def test_check_history_pairs_client_searches() -> None:
    """A client-run `tool_search_call` needs its `tool_search_output`, and an output its
    call; the recorded histories (server and client searches) pass."""
    from toolwire.testing import check_history

    recorded = case("test_tool_search__test_openai_execution_client_round_trip__i1")
    history = recorded["request"]["input"]
    assert check_history(history, "responses") == []
    (missing,) = check_history(history[:2], "responses")
    assert missing.message.endswith(
        "has no tool_search_output with call_id 'call_dAz29NuO19FtcApDC03CTtjL' after it; "
        "append one tool_search_output item per call, carrying its call_id"
    )
    (orphan,) = check_history([history[0], history[2]], "responses")
    assert "but no tool_search_call before it has that call_id" in orphan.message
    server = case("test_tool_search__test_openai_native_tool_search_with_deferred_capability__i1")
    assert check_history(server["followup_request"]["input"], "responses") == []


def test_stream_carries_a_client_search_into_the_final_response() -> None:
    """A streamed `tool_search_call` the client runs starts and completes as a call
    (its arguments whole at the end), and `final_response()` holds it for the search to
    answer and for replay."""
    from tests.test_responses_support import sdk_events, sse_text
    from toolwire.core import ToolCallCompleted, ToolCallStarted, ToolCallStream

    recorded = case("test_tool_search__test_openai_execution_client_round_trip__i1")
    item = recorded["request"]["input"][1]
    started: dict[str, Any] = {**item, "status": "in_progress", "arguments": {}}
    body = response_json(item)
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**body, "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": started},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": body},
    ]
    stream = ToolCallStream("responses")
    happened = [e for event in sdk_events(sse_text(events)) for e in stream.feed(event)]
    starts = [e for e in happened if isinstance(e, ToolCallStarted)]
    completions = [e for e in happened if isinstance(e, ToolCallCompleted)]
    assert [(e.call_id, e.name) for e in starts] == [(item["call_id"], "tool_search")]
    assert [(c.call.type, c.call.input) for c in completions] == [
        ("tool_search", item["arguments"])
    ]
    final = stream.final_response()
    assert assistant_messages(final, "responses") == [item]
    (result,) = group(execution="client").run_tool_calls(final, None)
    (output,) = cast("list[Any]", tool_result_messages([result], "responses"))
    assert [t["name"] for t in output["tools"]] == ["get_exchange_rate"]


def test_openai_fallback_keeps_the_tool_list_and_narrows_allowed_tools() -> None:
    """The cache-keeping fallback on OpenAI: every tool is sent each turn (the prompt
    prefix never changes), and `tool_choice(among=...)` lets the model call only the
    visible tools, the search and what the history's searches loaded."""
    tools = group(execution="client")
    every: list[Any] = tools.tool_definitions("chat.completions", loaded=[GetExchangeRate, StockLookup])  # fmt: skip
    visible = [GetWeather, tools["tool_search"]]
    history: list[Any] = [{"role": "user", "content": "USD in EUR?"}]
    first = tools.tool_choice("chat.completions", among=[*visible, *tools.loaded_tools(history, "chat.completions")])  # fmt: skip
    search = {"id": "s1", "type": "function", "function": {"name": "tool_search", "arguments": '{"queries": ["exchange rate"]}'}}  # fmt: skip
    history.append({"role": "assistant", "content": None, "tool_calls": [search]})
    history += tool_result_messages(tools.run_tool_calls([search], None, api="chat.completions"), "chat.completions")  # fmt: skip
    loaded = tools.loaded_tools(history, "chat.completions")
    second = tools.tool_choice("chat.completions", among=[*visible, *loaded])
    assert (
        tools.tool_definitions("chat.completions", loaded=[GetExchangeRate, StockLookup]) == every
    )
    names: list[list[str]] = []
    for choice in (first, second):
        allowed: Any = choice["tool_choice"]
        names.append([t["function"]["name"] for t in allowed["allowed_tools"]["tools"]])
    assert names == [
        ["get_weather", "tool_search"],
        ["get_weather", "get_exchange_rate", "tool_search"],
    ]
