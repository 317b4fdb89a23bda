"""The fakes run a scripted tool search as the live servers do (`FakeReply.search`):
Responses' server search (`tool_search_call` and `tool_search_output` before the
unlocked call, in one response) and its client search (a `tool_search_call` with a
`call_id`, answered by toolwire's search), Anthropic's server search (`server_tool_use`
and `tool_search_tool_result` with `tool_reference`s), each through the real SDK
clients, streamed and not, matched field for field with the recorded turns; and the
requests the live APIs refuse."""

from __future__ import annotations

import json
from typing import Any, cast

import anthropic
import openai
import pytest
from anthropic.types import Message, MessageParam
from inline_snapshot import snapshot
from openai.types.responses import Response, ResponseInputItemParam

from tests.shared_data import all_cases
from tests.test_tool_search import GetExchangeRate, case, group
from toolwire.core import (
    BaseFunctionToolModel,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import (
    FakeAnthropic,
    FakeCall,
    FakeGemini,
    FakeOpenAI,
    FakeReply,
    FakeSearch,
    check_history,
)
from toolwire.testing._anthropic.tools import anthropic_reference_problems

RATE_CALL = FakeCall("get_exchange_rate", {"from_currency": "USD", "to_currency": "EUR"})
SEARCH_THEN_CALL = FakeReply(search=FakeSearch("exchange rate"), calls=(RATE_CALL,))
DONE = FakeReply(text="1 USD is 0.92 EUR.")
QUESTION = "How many euros is one US dollar?"


def dumped(items: list[Any]) -> list[dict[str, Any]]:
    """SDK items as the JSON the fake sent (keys the fake left out stay out)."""
    return [item.model_dump(mode="json", exclude_unset=True, by_alias=True) for item in items]


# -- OpenAI Responses: the server searches -------------------------------------------


def responses_turn(fake: FakeOpenAI, tools: ToolGroup[None, None], *, stream: bool) -> Response:
    """One turn through the real client: `create()`, or its SSE events fed to a
    `ToolCallStream` whose `final_response()` is the turn."""
    client = fake.client()
    definitions = tools.tool_definitions("responses")
    if not stream:
        return client.responses.create(model="gpt-5.4", input=QUESTION, tools=definitions)
    accumulator = ToolCallStream("responses")
    events = client.responses.create(
        model="gpt-5.4", input=QUESTION, tools=definitions, stream=True
    )
    happened = [e for event in events for e in accumulator.feed(event)]
    started = [e.name for e in happened if isinstance(e, ToolCallStarted)]
    completed = [e.call.name for e in happened if isinstance(e, ToolCallCompleted)]
    assert started == completed == ["get_exchange_rate"]  # the server's search is no call
    return accumulator.final_response()


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_responses_server_search_opens_the_turn(stream: bool) -> None:
    tools = group()
    fake = FakeOpenAI(script=[SEARCH_THEN_CALL, DONE])
    response = responses_turn(fake, tools, stream=stream)
    assert dumped(response.output) == snapshot(
        [
            {
                "id": "tsc_fake2",
                "arguments": {"queries": ["exchange rate"]},
                "call_id": None,
                "execution": "server",
                "status": "completed",
                "type": "tool_search_call",
            },
            {
                "id": "tso_fake3",
                "call_id": None,
                "execution": "server",
                "status": "completed",
                "tools": [
                    {
                        "name": "get_exchange_rate",
                        "parameters": {
                            "properties": {
                                "from_currency": {"type": "string"},
                                "to_currency": {"type": "string"},
                            },
                            "required": ["from_currency", "to_currency"],
                            "type": "object",
                        },
                        "strict": False,
                        "type": "function",
                        "defer_loading": True,
                        "description": "Look up the current exchange rate between two currencies.",
                    }
                ],
                "type": "tool_search_output",
            },
            {
                "arguments": '{"from_currency": "USD", "to_currency": "EUR"}',
                "call_id": "call_4",
                "name": "get_exchange_rate",
                "type": "function_call",
                "id": "fc_fake4",
                "namespace": "get_exchange_rate",
                "status": "completed",
            },
        ]
    )
    # the deferred definition found is the one the request sent
    assert dumped(response.output)[1]["tools"] == [fake.requests[0]["tools"][1]]
    results = tools.run_tool_calls(response, None)
    assert [(r.name, r.result_content) for r in results] == [
        ("get_exchange_rate", "1 USD = 0.92 EUR")
    ]
    history: list[ResponseInputItemParam] = [{"role": "user", "content": QUESTION}]
    history += assistant_messages(response, "responses")
    history += tool_result_messages(results, "responses")
    assert tools.loaded_tools(history, "responses") == [GetExchangeRate]
    answer = fake.client().responses.create(
        model="gpt-5.4", input=history, tools=tools.tool_definitions("responses")
    )
    assert answer.output_text == "1 USD is 0.92 EUR."


def test_responses_server_search_items_match_the_recorded_ones() -> None:
    """Field for field (keys and value kinds) with a recorded server search, and the
    unlocked call carries its namespace as recorded."""
    recorded = case("test_tool_search__test_openai_native_tool_search_round_trip__i0")
    want = recorded["response"]["output"]
    got = dumped(
        responses_turn(FakeOpenAI(script=[SEARCH_THEN_CALL]), group(), stream=False).output
    )

    def shape(item: dict[str, Any]) -> dict[str, str]:
        return {key: type(value).__name__ for key, value in item.items()}

    assert [shape(item) for item in got] == [shape(item) for item in want]
    assert [(i["execution"], i["call_id"], i["status"]) for i in got[:2]] == [
        (i["execution"], i["call_id"], i["status"]) for i in want[:2]
    ]
    assert got[2]["namespace"] == got[2]["name"]
    assert want[2]["namespace"] == want[2]["name"]


@pytest.mark.parametrize("execution", ["server", "client"])
def test_the_sdk_stream_helper_reads_the_search_as_the_json_response(execution: Any) -> None:
    """`client.responses.stream()` accumulates the fake's search events into the items
    the JSON response holds."""
    tools = group(execution=execution)
    reply = SEARCH_THEN_CALL if execution == "server" else FakeReply(search=FakeSearch("rate"))
    outputs: list[list[dict[str, Any]]] = []
    for stream in (False, True):
        client = FakeOpenAI(script=[reply]).client()
        definitions = tools.tool_definitions("responses")
        if stream:
            with client.responses.stream(model="m", input=QUESTION, tools=definitions) as events:
                parsed = dumped(events.get_final_response().output)
                outputs.append(
                    [{k: v for k, v in i.items() if k != "parsed_arguments"} for i in parsed]
                )
        else:
            response = client.responses.create(model="m", input=QUESTION, tools=definitions)
            outputs.append(dumped(response.output))
    assert outputs[0] == outputs[1]


# -- OpenAI Responses: the client searches -------------------------------------------


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_responses_client_search_is_answered_by_toolwire(stream: bool) -> None:
    tools = group(execution="client")
    fake = FakeOpenAI(
        script=[FakeReply(search=FakeSearch("exchange rate")), FakeReply(calls=(RATE_CALL,)), DONE]
    )
    client = fake.client()
    history: list[ResponseInputItemParam] = [{"role": "user", "content": QUESTION}]
    if stream:
        accumulator = ToolCallStream("responses")
        for event in client.responses.create(
            model="gpt-5.4", input=history, tools=tools.tool_definitions("responses"), stream=True
        ):
            accumulator.feed(event)
        response = accumulator.final_response()
    else:
        response = client.responses.create(
            model="gpt-5.4", input=history, tools=tools.tool_definitions("responses")
        )
    assert dumped(response.output) == snapshot(
        [
            {
                "id": "tsc_fake2",
                "arguments": {"queries": ["exchange rate"]},
                "call_id": "call_3",
                "execution": "client",
                "status": "completed",
                "type": "tool_search_call",
            }
        ]
    )
    recorded = case("test_tool_search__test_openai_execution_client_round_trip__i1")
    assert dumped(response.output)[0].keys() == recorded["request"]["input"][1].keys()
    results = tools.run_tool_calls(response, None)
    history += assistant_messages(response, "responses")
    history += tool_result_messages(results, "responses")
    assert check_history(history, "responses") == []
    assert tools.loaded_tools(history, "responses") == [GetExchangeRate]
    unlocked = client.responses.create(
        model="gpt-5.4", input=history, tools=tools.tool_definitions("responses")
    )
    (call,) = tools.run_tool_calls(unlocked, None)
    assert (call.name, call.result_content) == ("get_exchange_rate", "1 USD = 0.92 EUR")
    assert dumped(unlocked.output)[0]["namespace"] == "get_exchange_rate"


# -- Anthropic: the server searches --------------------------------------------------


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_anthropic_server_search_opens_the_turn(stream: bool) -> None:
    tools = group()
    reply = FakeReply(
        text="Let me find a tool.", search=SEARCH_THEN_CALL.search, calls=(RATE_CALL,)
    )
    fake = FakeAnthropic(script=[reply, DONE])
    client = fake.client()
    history: list[MessageParam] = [{"role": "user", "content": QUESTION}]
    definitions = tools.tool_definitions("anthropic")

    def create(messages: list[MessageParam]) -> Message:
        return client.messages.create(
            model="claude-sonnet-4-6", max_tokens=1024, messages=messages, tools=definitions
        )

    if stream:
        accumulator = ToolCallStream("anthropic")
        events = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=history,
            tools=definitions,
            stream=True,
        )
        happened = [e for event in events for e in accumulator.feed(event)]
        started = [e.name for e in happened if isinstance(e, ToolCallStarted)]
        assert started == ["get_exchange_rate"]  # the server's search is no call
        message = accumulator.final_response()
    else:
        message = create(history)
    content = [block.model_dump(mode="json", exclude_unset=True) for block in message.content]
    assert content == snapshot(
        [
            {"text": "Let me find a tool.", "type": "text"},
            {
                "id": "srvtoolu_fake2",
                "caller": {"type": "direct"},
                "input": {"query": "exchange rate"},
                "name": "tool_search_tool_bm25",
                "type": "server_tool_use",
            },
            {
                "content": {
                    "tool_references": [
                        {"tool_name": "get_exchange_rate", "type": "tool_reference"}
                    ],
                    "type": "tool_search_tool_search_result",
                },
                "tool_use_id": "srvtoolu_fake2",
                "type": "tool_search_tool_result",
            },
            {
                "id": "toolu_fake3",
                "caller": {"type": "direct"},
                "input": {"from_currency": "USD", "to_currency": "EUR"},
                "name": "get_exchange_rate",
                "type": "tool_use",
            },
        ]
    )
    assert message.stop_reason == "tool_use"
    recorded = case("test_native_tool_search_vcr__test_anthropic_native_tool_search__i0")
    want = [b for b in recorded["response"]["content"] if b["type"] != "text"]
    assert [sorted(b) for b in content[1:]] == [sorted(b) for b in want]
    results = tools.run_tool_calls(message, None)
    history += assistant_messages(message, "anthropic")
    history += tool_result_messages(results, "anthropic")
    assert tools.loaded_tools(history, "anthropic") == [GetExchangeRate]
    answer = create(history)
    assert [b.type for b in answer.content] == ["text"]


def test_anthropic_regex_search_and_what_it_finds() -> None:
    """The regex sibling names its own tool; without `found` the fake matches words of
    the deferred tools' names and descriptions; `found` names the finds."""
    tools = group(server="regex")
    script = [
        FakeReply(search=FakeSearch(("ticker", "price"))),
        FakeReply(search=FakeSearch("anything", found=("stock_lookup", "get_exchange_rate"))),
    ]
    client = FakeAnthropic(script=script).client()
    finds: list[tuple[str, list[str]]] = []
    for _ in script:
        message = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Stock?"}],
            tools=tools.tool_definitions("anthropic"),
        )
        use, result = cast("list[Any]", message.content)
        finds.append((use.name, [r.tool_name for r in result.content.tool_references]))
    assert finds == [
        ("tool_search_tool_regex", ["stock_lookup"]),
        ("tool_search_tool_regex", ["stock_lookup", "get_exchange_rate"]),
    ]


# -- what the fakes refuse ---------------------------------------------------------------


def test_a_scripted_search_needs_the_server_search_tool() -> None:
    script = [FakeReply(search=FakeSearch("rate"))]
    plain = ToolGroup.from_list([GetExchangeRate])
    with pytest.raises(openai.BadRequestError, match=r'add \{"type": "tool_search"\}'):
        FakeOpenAI(script=script).client().responses.create(
            model="m", input="x", tools=plain.tool_definitions("responses")
        )
    with pytest.raises(anthropic.BadRequestError, match="A search the client runs is a plain"):
        FakeAnthropic(script=script).client().messages.create(
            model="m",
            max_tokens=10,
            messages=[{"role": "user", "content": "x"}],
            tools=group(execution="client").tool_definitions("anthropic"),
        )
    with pytest.raises(openai.BadRequestError, match="Chat Completions has none"):
        FakeOpenAI(script=script).client().chat.completions.create(
            model="m", messages=[{"role": "user", "content": "x"}]
        )
    with pytest.raises(Exception, match="Gemini has none"):
        FakeGemini(script=script).client().models.generate_content(model="m", contents="x")


def test_found_names_only_deferred_tools_of_a_server_search() -> None:
    client = FakeOpenAI(
        script=[
            FakeReply(search=FakeSearch("x", found=("get_weather",))),
            FakeReply(search=FakeSearch("x", found=("nowhere",))),
        ]
    ).client()
    definitions = group().tool_definitions("responses")
    with pytest.raises(openai.BadRequestError, match=r"'get_weather', which is not deferred"):
        client.responses.create(model="m", input="x", tools=definitions)
    with pytest.raises(openai.BadRequestError, match=r"'nowhere', which is not in the request"):
        client.responses.create(model="m", input="x", tools=definitions)
    client = FakeOpenAI(script=[FakeReply(search=FakeSearch("x", found=()))]).client()
    with pytest.raises(openai.BadRequestError, match='execution: "client": the client answers'):
        client.responses.create(
            model="m", input="x", tools=group(execution="client").tool_definitions("responses")
        )


def test_fake_search_checks_its_shape() -> None:
    assert FakeSearch(["a", "b"]).queries == ("a", "b")  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match="give one query or a tuple of them"):
        FakeSearch(())
    with pytest.raises(TypeError, match="a tuple of strings"):
        FakeSearch("a", found="stock_lookup")  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match="give a FakeSearch"):
        FakeReply(search="rate")  # pyright: ignore[reportArgumentType]


def test_anthropic_refuses_a_tool_reference_to_a_tool_not_deferred() -> None:
    """As the live API: a `tool_reference` in a tool result loads a deferred tool only."""
    tools = group(execution="client")
    definitions = tools.tool_definitions("anthropic")
    use = {"type": "tool_use", "id": "toolu_1", "name": "tool_search", "input": {"queries": ["x"]}}

    def history(name: str) -> list[MessageParam]:
        reference = {"type": "tool_reference", "tool_name": name}
        result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": [reference]}
        return cast(
            "list[MessageParam]",
            [
                {"role": "user", "content": QUESTION},
                {"role": "assistant", "content": [use]},
                {"role": "user", "content": [result]},
            ],
        )

    client = FakeAnthropic().client()
    options: dict[str, Any] = {"model": "m", "max_tokens": 10, "tools": definitions}
    client.messages.create(**options, messages=history("stock_lookup"))  # deferred: taken
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.create(**options, messages=history("get_weather"))
    assert (
        "messages.2.content.0.content.0: the tool_reference names 'get_weather', which is "
        "not deferred (defer_loading: true)" in str(refused.value)
    )
    with pytest.raises(anthropic.BadRequestError, match="'nowhere', which is not in tools"):
        client.messages.create(**options, messages=history("nowhere"))


def test_the_recorded_accepted_tool_references_pass() -> None:
    """Every recorded Anthropic request the API took that holds a `tool_reference`."""
    checked = 0
    for recorded in all_cases():
        if recorded["api"] != "anthropic":
            continue
        sent = [
            (recorded["request"], 200),
            (recorded["followup_request"], recorded["followup_status"]),
        ]
        for body, status in sent:
            if body and status == 200 and '"tool_reference"' in json.dumps(body):
                checked += 1
                assert anthropic_reference_problems(body["messages"], body.get("tools", [])) == []
    assert checked >= (20 if all_cases() else 0)


def test_the_recorded_mid_conversation_tool_addition_is_taken() -> None:
    """The recorded `tool_addition` system block (Anthropic's beta) loads a deferred
    tool: `check_history` and the fake take the request, `loaded_tools` reads it."""
    recorded = case(
        "models__test_anthropic_mid_conversation_system__test_native_tool_availability_delta__i0"
    )
    body = recorded["request"]
    assert check_history(body["messages"], "anthropic") == []
    fake = FakeAnthropic(script=[FakeReply(calls=(FakeCall("lookup_refund_policy", {}),))])
    message = fake.client().messages.create(
        model=body["model"],
        max_tokens=body["max_tokens"],
        messages=body["messages"],
        tools=body["tools"],
    )
    assert [b.type for b in message.content] == ["tool_use"]

    class LookupRefundPolicy(BaseFunctionToolModel[None, None]):
        """Look up the refund policy for an order."""

        model_tool_custom_name = "lookup_refund_policy"
        model_tool_defer_loading = True
        order_id: str

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "Refunds within 30 days.", None

    tools = ToolGroup.from_list([LookupRefundPolicy])
    assert tools.loaded_tools(body["messages"], "anthropic") == [LookupRefundPolicy]


def test_a_deferred_tool_no_search_loaded_cannot_be_called() -> None:
    """The live model sees no deferred tool before a search loads it: a scripted call to
    one is refused, and the default policy calls only the tools the model sees."""
    tools = group()
    script = [FakeReply(calls=(RATE_CALL,))]
    with pytest.raises(openai.BadRequestError) as refused:
        FakeOpenAI(script=script).client().responses.create(
            model="m", input=QUESTION, tools=tools.tool_definitions("responses")
        )
    assert (
        "the reply calls 'get_exchange_rate', a deferred tool (defer_loading: true) that "
        "no search has loaded, so the model cannot call it" in str(refused.value)
    )
    with pytest.raises(anthropic.BadRequestError, match="no search has loaded"):
        FakeAnthropic(script=script).client().messages.create(
            model="m",
            max_tokens=10,
            messages=[{"role": "user", "content": QUESTION}],
            tools=tools.tool_definitions("anthropic"),
        )
    response = (
        FakeOpenAI()
        .client()
        .responses.create(model="m", input=QUESTION, tools=tools.tool_definitions("responses"))
    )
    assert [r.name for r in tools.run_tool_calls(response, None)] == ["get_weather"]
    message = (
        FakeAnthropic()
        .client()
        .messages.create(
            model="m",
            max_tokens=10,
            messages=[{"role": "user", "content": QUESTION}],
            tools=tools.tool_definitions("anthropic"),
        )
    )
    assert [r.name for r in tools.run_tool_calls(message, None)] == ["get_weather"]
