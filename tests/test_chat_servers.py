"""`ChatServer`: a Chat Completions server other than OpenAI's, given wherever `api` is.

What toolwire writes for each server (definitions, tool_choice, the replayed turn, result
ids), what `check_history` reports for it, and its fake (`FakeOpenAI(server=...)`), which
sends as the server does and refuses what it refuses. The recorded shapes of each server
are checked in `tests/compat`; these tests pin each rule and its edges."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from typing import Any, cast

import openai
import pytest
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

from toolwire._adapters.openai_chat.servers import KNOWN_SERVERS
from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    ToolCallCompleted,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    failed_generation,
    recover_text_calls,
    tool_result_messages,
    turn_status,
)
from toolwire.exceptions import ToolChoiceError, UnknownApiError
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply, check_history

USER: ChatCompletionMessageParam = {"role": "user", "content": "Weather in Paris and Rome?"}


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


class strict_weather(BaseFunctionToolModel[None, None]):
    """Get the weather, strictly."""

    model_tool_strict = True
    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


GROUP = ToolGroup.from_list([get_weather])


def completion(message: dict[str, Any], response_id: str = "chatcmpl-1") -> ChatCompletion:
    """A response as the SDK builds it from a server's JSON (extra fields kept)."""
    return ChatCompletion.construct(
        id=response_id,
        object="chat.completion",
        created=0,
        model="m",
        choices=[{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    )


def call(call_id: str, city: str = "Paris") -> dict[str, Any]:
    arguments = json.dumps({"city": city})
    return {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": arguments}}  # fmt: skip


# -- what toolwire writes for a server ----------------------------------------------------


def test_strict_is_left_out_for_a_server_that_takes_none() -> None:
    """Kimi's tools take no `strict`: definitions and response formats leave it out,
    the schema unchanged."""
    tools = ToolGroup.from_list([strict_weather])
    openai_tool = cast("dict[str, Any]", tools.tool_definitions("chat.completions")[0])
    kimi_tool = cast("dict[str, Any]", tools.tool_definitions(ChatServer.KIMI)[0])
    assert openai_tool["function"].pop("strict") is True
    assert kimi_tool == openai_tool
    assert "strict" not in strict_weather.model_tool_format(ChatServer.KIMI)["json_schema"]
    assert strict_weather.model_tool_format(ChatServer.VLLM)["json_schema"].get("strict") is True


def test_a_forced_tool_choice_on_a_server_that_thinks() -> None:
    """DeepSeek and Kimi refuse "required" or one named tool while they think (their
    default); `thinking=False` (or the request's own `{"type": "disabled"}`) lifts it."""
    with pytest.raises(ToolChoiceError) as refused:
        GROUP.tool_choice(ChatServer.DEEPSEEK, "required")
    assert str(refused.value) == snapshot(
        'DeepSeek refuses a forced tool_choice (\'required\') while thinking is on, its default. Turn thinking off in the request (extra_body={"thinking": {"type": "disabled"}}) and pass thinking=False here, or use \'auto\'.'
    )
    with pytest.raises(ToolChoiceError, match="the tool 'get_weather'"):
        GROUP.tool_choice(ChatServer.KIMI, get_weather)
    assert GROUP.tool_choice(ChatServer.DEEPSEEK, "required", thinking=False) == {
        "tool_choice": "required"
    }
    assert GROUP.tool_choice(ChatServer.KIMI, get_weather, thinking={"type": "disabled"}) == {
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}}
    }
    assert GROUP.tool_choice(ChatServer.DEEPSEEK, "auto") == {"tool_choice": "auto"}
    never = ChatServer("strict-gateway", forced_tool_choice="refused")
    with pytest.raises(ToolChoiceError, match="strict-gateway refuses a forced tool_choice"):
        GROUP.tool_choice(never, "required", thinking=False)


def test_a_turn_without_text_in_each_servers_form() -> None:
    """A tool-call turn without text: `null` (OpenAI), `""` (Ollama), or no content key;
    text a server sent is replayed as sent."""
    silent = completion({"role": "assistant", "content": None, "tool_calls": [call("c1")]})
    absent = ChatServer("no-content-key", empty_content="absent")
    assert assistant_messages(silent, "chat.completions")[0].get("content", "?") is None
    assert assistant_messages(silent, ChatServer.OLLAMA)[0].get("content") == ""
    assert "content" not in assistant_messages(silent, absent)[0]
    spoken = completion({"role": "assistant", "content": "On it.", "tool_calls": [call("c1")]})
    assert {assistant_messages(spoken, s)[0].get("content") for s in (absent, ChatServer.OLLAMA)} == {"On it."}  # fmt: skip


REASONING = {
    "reasoning_content": "Paris first.",
    "reasoning": "Paris first.",
    "reasoning_details": [{"type": "reasoning.text", "text": "Paris first.", "index": 0}],
}


@pytest.mark.parametrize(
    ("server", "kept"),
    [
        ("chat.completions", ["reasoning_content", "reasoning_details"]),
        (ChatServer.VLLM, ["reasoning_content", "reasoning_details", "reasoning"]),
        (ChatServer.GROQ, []),
        (ChatServer.MISTRAL, []),
    ],
)
def test_the_reasoning_each_server_takes_back(server: Any, kept: list[str]) -> None:
    """What the server sent goes back in the same field, as far as the server takes it:
    Groq and Mistral answer 400 to any reasoning field, vLLM takes `reasoning` too."""
    response = completion({"role": "assistant", "content": None, "tool_calls": [call("c1")], **REASONING})  # fmt: skip
    replayed = cast("dict[str, Any]", assistant_messages(response, server)[0])
    assert [key for key in replayed if key in REASONING] == kept
    assert all(replayed[key] == REASONING[key] for key in kept)


def test_ids_in_the_form_a_server_takes() -> None:
    """Mistral takes only 9 letters and digits: other ids, and the ids toolwire makes for
    calls without one, become stable 9-character ids, the same in the turn and in the
    results, so Mistral's fake and `check_history` accept the history."""
    response = completion(
        {"role": "assistant", "content": None, "tool_calls": [call("call_abc"), call("", "Rome")]},
        "gen-1",
    )
    results = GROUP.run_tool_calls(response, None)
    history = [
        USER,
        *assistant_messages(response, ChatServer.MISTRAL),
        *tool_result_messages(results, ChatServer.MISTRAL),
    ]
    sent = cast("list[dict[str, Any]]", history)
    ids = [c["id"] for c in sent[1]["tool_calls"]]
    assert [m["tool_call_id"] for m in sent[2:]] == ids
    assert all(re.fullmatch("[A-Za-z0-9]{9}", i) for i in ids) and len(set(ids)) == 2
    assert assistant_messages(response, ChatServer.MISTRAL) == history[1:2]  # stable
    assert check_history(history, ChatServer.MISTRAL) == []
    as_openai = [USER, *assistant_messages(response, "chat.completions"), *tool_result_messages(results, "chat.completions")]  # fmt: skip
    assert [p.index for p in check_history(as_openai, ChatServer.MISTRAL)] == [1, 1, 2, 3]
    reply = FakeOpenAI(server=ChatServer.MISTRAL, script=[FakeReply(text="Done.")]).client()
    assert reply.chat.completions.create(model="m", messages=history).choices[0].message.content == "Done."  # fmt: skip


def test_the_running_entry_points_take_a_server_as_api() -> None:
    """A loop passes one value as `api` everywhere: the run and prepare entry points read
    with it as with "chat.completions" (reading needs no profile)."""
    from toolwire.aio import BaseFunctionToolModel as AioTool
    from toolwire.aio import ToolGroup as AioGroup

    class get_weather(AioTool[None, None]):
        """Get the weather."""

        city: str

        async def model_tool_handler(self, context: None) -> tuple[str, None]:
            return f"Sunny in {self.city}.", None

    response = completion({"role": "assistant", "content": None, "tool_calls": [call("c1")]})
    server = ChatServer.MISTRAL
    (ran,) = GROUP.run_tool_calls(response, None, api=server)
    assert (ran.call_id, ran.result_content) == ("c1", "Sunny in Paris.")
    only = response.choices[0].message.tool_calls or []
    assert GROUP.run_tool_call(only[0], None, api=server).result_content == "Sunny in Paris."
    (pending,) = GROUP.prepare_tool_calls(response, api=server)
    assert (pending.call.id, pending.failure) == ("c1", None)
    assert GROUP.run_with_approval(response, None, lambda _: True, api=server) == [ran]
    aio = AioGroup.from_list([get_weather])
    (ran_async,) = asyncio.run(aio.run_tool_calls(response, None, api=server))
    assert ran_async.result_content == "Sunny in Paris."


def test_check_history_reports_a_thinking_turn_that_lost_its_reasoning() -> None:
    """Once the history shows DeepSeek thinking (a turn carries `reasoning_content`), a
    tool-call turn without it is reported; a history that never thought is not."""
    thought = {"role": "assistant", "content": None, "tool_calls": [call("c1")], "reasoning_content": "Hm."}  # fmt: skip
    lost = {"role": "assistant", "content": None, "tool_calls": [call("c2")]}
    answer = [{"role": "tool", "tool_call_id": "c1", "content": "Sunny."}]
    history: list[Any] = [USER, thought, *answer, lost, {**answer[0], "tool_call_id": "c2"}]
    (problem,) = check_history(history, ChatServer.DEEPSEEK)
    assert problem.index == 3 and "'reasoning_content'" in problem.message
    assert check_history([USER, lost, {**answer[0], "tool_call_id": "c2"}], ChatServer.DEEPSEEK) == []  # fmt: skip


def test_a_server_of_your_own() -> None:
    """A profile is plain data: checked when made, hashable, and usable everywhere."""
    mine = dataclasses.replace(ChatServer.OLLAMA, name="ollama-fork")
    assert mine.empty_content == "empty" and hash(mine) == hash(dataclasses.replace(mine))
    assert ToolCallStream(mine).api == "chat.completions"
    with pytest.raises(ValueError, match="needs a name"):
        ChatServer("")
    with pytest.raises(ValueError, match="add it to replays"):
        ChatServer("x", replays=(), required_reasoning="reasoning_content")
    with pytest.raises(ValueError, match="call_id_length"):
        ChatServer("x", call_id_length=2)
    with pytest.raises(UnknownApiError, match="or a ChatServer"):
        assistant_messages(completion({"role": "assistant"}), ToolCallStream("responses"))  # type: ignore[arg-type]


# -- calls written as text ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "calls", "rest"),
    [
        (
            'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
            '<tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Rome\\"}"}',
            [{"city": "Paris"}, {"city": "Rome"}],
            "Checking.",
        ),
        (
            "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>",  # fmt: skip
            [{"city": "Oslo"}],
            None,
        ),
    ],
    ids=["hermes, the last tag unclosed", "glm"],
)
def test_calls_written_as_text_are_recovered(
    content: str, calls: list[dict[str, Any]], rest: str | None
) -> None:
    """Hermes/Qwen JSON (arguments as an object or as JSON text; the closing tag a server
    stripped) and GLM's keys and values: each block is a call, the text around them is
    the content, the calls get synthesized ids."""
    response = completion({"role": "assistant", "content": content})
    response.choices[0].finish_reason = "stop"
    assert turn_status(response, "chat.completions") == "calls_in_text"
    recovered = recover_text_calls(response)
    message = recovered.choices[0].message
    assert (message.content, recovered.choices[0].finish_reason) == (rest, "tool_calls")
    results = GROUP.run_tool_calls(recovered, None)
    assert [r.result_content for r in results] == [f"Sunny in {c['city']}." for c in calls]
    assert [r.call_id for r in results] == [f"toolwire_chatcmpl-1_{i}" for i in range(len(calls))]
    as_dict = recover_text_calls(response.model_dump())
    assert GROUP.run_tool_calls(as_dict, None) == results


@pytest.mark.parametrize(
    "content",
    [
        "Use <tool_call> tags to call tools.",
        '<tool_call>{"name": "get_weather", "arguments": [1]}</tool_call>',
        '<tool_call>{"arguments": {"city": "Paris"}}</tool_call>',
        "<tool_call>get weather now</tool_call>",
    ],
)
def test_text_that_only_looks_like_a_call_is_an_answer(content: str) -> None:
    """A tag without a whole call in it (no name, arguments that are not an object,
    prose) is text: the turn is done, and nothing is recovered."""
    response = completion({"role": "assistant", "content": content})
    response.choices[0].finish_reason = "stop"
    assert turn_status(response, "chat.completions") == "done"
    assert recover_text_calls(response).choices[0].message.content == content


# -- failed generations ---------------------------------------------------------------------


def test_a_failed_generation_becomes_a_retry() -> None:
    """Groq refuses a call that breaks its schema (400 `tool_use_failed`); the retry
    messages tell the model why, and the next request gets a valid call."""
    fake = FakeOpenAI(server=ChatServer.GROQ, invalid_arguments_first=True)
    client = fake.client()
    tools = GROUP.tool_definitions(ChatServer.GROQ)
    history: list[ChatCompletionMessageParam] = [USER]
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="m", messages=history, tools=tools)
    failed = failed_generation(raised.value)
    assert failed is not None and failed.code == "tool_use_failed"
    assert json.loads(failed.text)["name"] == "get_weather"
    assert failed.messages[1].get("content") == snapshot(
        "Your tool call above was rejected before it could run: Tool call validation failed: tool call validation failed: parameters for tool get_weather did not match schema: errors: [at '/city': got integer, want string]. Call the tool again, with arguments that match its schema exactly."
    )
    history.extend(failed.messages)
    response = client.chat.completions.create(model="m", messages=history, tools=tools)
    assert [r.fail_reason for r in GROUP.run_tool_calls(response, None)] == [None]


def test_a_failed_generation_mid_stream_and_errors_that_are_not_one() -> None:
    """Streamed, Groq sends the error as an event after its reasoning: the SDK raises it,
    and it reads the same. Other errors are no failed generation."""
    fake = FakeOpenAI(
        server=ChatServer.GROQ,
        script=[FakeReply(calls=(FakeCall("get_weather", {"town": "Paris"}),), thinking="Hm.")],
    )
    tools = GROUP.tool_definitions(ChatServer.GROQ)
    stream = ToolCallStream(ChatServer.GROQ)
    with pytest.raises(openai.APIError) as raised:
        for chunk in fake.client().chat.completions.create(model="m", messages=[USER], tools=tools, stream=True):  # fmt: skip
            stream.feed(chunk)
    failed = failed_generation(raised.value)
    assert failed is not None
    assert json.loads(failed.text) == {"name": "get_weather", "arguments": {"town": "Paris"}}
    assert failed_generation(ValueError("no body")) is None
    with pytest.raises(openai.BadRequestError) as other:  # the fake's own 400: unanswered call
        fake.client().chat.completions.create(
            model="m",
            messages=[USER, {"role": "assistant", "tool_calls": [call("c1")]}],  # type: ignore[list-item]
        )
    assert failed_generation(other.value) is None


# -- the fakes of each server ---------------------------------------------------------------

ID_FORMS = {
    "OpenAI": r"call_\d+",
    "Ollama": r"call_[a-z0-9]{8}",
    "vLLM": r"chatcmpl-tool-[0-9a-f]{16}",
    "llama.cpp server": r"[A-Za-z0-9]{32}",
    "LM Studio": r"\d{9}",
    "SGLang": r"\d",
    "Groq": r"fc_[0-9a-f]{32}",
    "Mistral": r"[A-Za-z0-9]{9}",
    "DeepSeek": r"call_\d\d_[A-Za-z0-9]{24}",
    "Kimi (Moonshot)": r"functions\.get_weather:\d",
    "Z.AI (GLM)": r"call_[0-9a-f]{24}",
    "MiniMax": r"call_function_[a-z0-9]{12}_\d",
    "OpenRouter": r"call_[A-Za-z0-9]{24}",
    "Fireworks": r"call_[A-Za-z0-9]{24}",
    "Gemini (OpenAI endpoint)": r"function-call-\d{19}",
}


@pytest.mark.parametrize("server", KNOWN_SERVERS, ids=[s.name for s in KNOWN_SERVERS])
def test_each_servers_fake_round_trips_through_toolwire(server: ChatServer) -> None:
    """Each server's fake sends two parallel calls (with reasoning) the way that server
    does, streamed and not: toolwire reads the same calls from both, with ids of the
    server's form, and the next turn, replayed for the server, is accepted."""
    reply = FakeReply(
        calls=(
            FakeCall("get_weather", {"city": "Paris, the capital"}),
            FakeCall("get_weather", {"city": "Rome, Italy"}),
        ),  # fmt: skip
        thinking="Two cities, two calls.",
    )
    fake = FakeOpenAI(server=server, script=[reply, reply, FakeReply(text="Done.")])
    client = fake.client()
    tools = GROUP.tool_definitions(server)
    response = client.chat.completions.create(model="m", messages=[USER], tools=tools)
    stream = ToolCallStream(server)
    completed = [
        event.call
        for chunk in client.chat.completions.create(
            model="m", messages=[USER], tools=tools, stream=True
        )  # fmt: skip
        for event in stream.feed(chunk)
        if isinstance(event, ToolCallCompleted)
    ]
    folded = stream.final_response()
    results = GROUP.run_tool_calls(response, None)
    assert [r.result_content for r in results] == ["Sunny in Paris, the capital.", "Sunny in Rome, Italy."]  # fmt: skip
    assert [(c.name, json.loads(str(c.input))) for c in completed] == [
        ("get_weather", {"city": "Paris, the capital"}),
        ("get_weather", {"city": "Rome, Italy"}),
    ]
    assert all(re.fullmatch(ID_FORMS.get(server.name, ID_FORMS["OpenAI"]), r.call_id) for r in results)  # fmt: skip
    assert turn_status(folded, server) == "tool_calls"
    for turn in (response, folded):
        history = [USER, *assistant_messages(turn, server), *tool_result_messages(GROUP.run_tool_calls(turn, None), server)]  # fmt: skip
        assert check_history(history, server) == []
    answer = client.chat.completions.create(model="m", messages=history, tools=tools)
    assert answer.choices[0].message.content == "Done."


def test_a_thinking_servers_fake_refuses_a_forced_choice_until_thinking_is_off() -> None:
    """DeepSeek's fake answers DeepSeek's 400 to a forced choice while it thinks; with
    thinking off it calls, and sends no reasoning."""
    client = FakeOpenAI(server=ChatServer.DEEPSEEK).client()
    tools = GROUP.tool_definitions(ChatServer.DEEPSEEK)
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model="m", messages=[USER], tools=tools, tool_choice="required")  # fmt: skip
    assert refused.value.response.json()["error"]["message"] == snapshot(
        "Thinking mode does not support this tool_choice"
    )
    response = client.chat.completions.create(
        model="m",
        messages=[USER],
        tools=tools,
        extra_body={"thinking": {"type": "disabled"}},
        **GROUP.tool_choice(ChatServer.DEEPSEEK, "required", thinking=False),
    )
    message = response.choices[0].message
    assert message.tool_calls and message.model_dump(exclude_unset=True).get("reasoning_content") is None  # fmt: skip
