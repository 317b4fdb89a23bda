"""Vertex AI's streamed function-call arguments (`FunctionCall.partial_args`): refused by
`ToolCallStream("gemini")` with an error naming both remedies; with
`partial_args="fold"`, the same argument events and previews as the other APIs, one
merged call in the final response, and a call cut before its last fragment refused,
never run. Read directly (no stream), fragments are folded."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx2
import pytest
from google import genai
from google.genai import types

from toolwire._adapters.gemini.partial_args import MAX_UNSENT, fold_arguments, parse_json_path
from toolwire._limits import MAX_DEPTH_CEILING
from toolwire._read import read_calls
from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    StandardToolCall,
    StringDelta,
    ToolCallArgumentsDelta,
    ToolCallCompleted,
    ToolCallStarted,
    ToolCallStream,
    ToolCallTruncated,
    ToolGroup,
    TurnEnded,
    assistant_messages,
    tool_result_messages,
)
from toolwire.exceptions import ToolwireError
from toolwire.testing import check_history

SIGNATURE = base64.b64encode(b"sig-w").decode()


def chunk(*parts: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """One streamed chunk in the API's camelCase JSON."""
    candidate: dict[str, Any] = {"index": 0, "content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "responseId": "r-9", "modelVersion": "gemini-3-pro"}


def fragment(path: str, **value: Any) -> dict[str, Any]:
    return {"jsonPath": path, **value}


# A Vertex AI run: the call named with will_continue, its fragments (a string over three
# pieces, a nested array of objects, a number, a bool, a null), the empty closing part.
VERTEX = [
    chunk({"text": "Writing."}),
    chunk(
        {
            "functionCall": {"name": "write_file", "willContinue": True},
            "thoughtSignature": SIGNATURE,
        }
    ),
    chunk(
        {
            "functionCall": {
                "partialArgs": [
                    fragment("$.path", stringValue="notes/a.md"),
                    fragment("$.content", stringValue="# Ti", willContinue=True),
                ],
                "willContinue": True,
            }
        }
    ),
    chunk(
        {
            "functionCall": {
                "partialArgs": [fragment("$.content", stringValue='tle "x"\n', willContinue=True)],
                "willContinue": True,
            }
        }
    ),
    chunk(
        {
            "functionCall": {
                "partialArgs": [
                    fragment("$.content", stringValue="body"),
                    fragment("$.tags[0].name", stringValue="draft"),
                    fragment("$.tags[1]['name']", stringValue="é"),
                    fragment("$.mode", numberValue=420),
                    fragment("$.overwrite", boolValue=True),
                    fragment("$.owner", nullValue="NULL_VALUE"),
                ],
                "willContinue": True,
            }
        }
    ),
    chunk({"functionCall": {}}, finish="STOP"),
]

ARGUMENTS = {
    "path": "notes/a.md",
    "content": '# Title "x"\nbody',
    "tags": [{"name": "draft"}, {"name": "é"}],
    "mode": 420,
    "overwrite": True,
    "owner": None,
}


class WriteFile(BaseFunctionToolModel[list[str], None]):
    """Write a file."""

    model_tool_custom_name = "write_file"

    path: str
    content: str
    tags: list[dict[str, str]] = []
    mode: int = 0o644
    overwrite: bool = False
    owner: str | None = None

    def model_tool_handler(self, context: list[str]) -> tuple[str, None]:
        context.append(self.content)
        return "written", None


GROUP = ToolGroup.from_list([WriteFile])


def parts_of(response: types.GenerateContentResponse) -> list[types.Part]:
    candidates = response.candidates
    assert candidates and candidates[0].content and candidates[0].content.parts
    return candidates[0].content.parts


def feed_all(items: list[Any]) -> tuple[ToolCallStream[types.GenerateContentResponse], list[Any]]:
    stream = ToolCallStream("gemini", partial_args="fold")
    return stream, [event for item in items for event in stream.feed(item)]


def test_fragments_stream_as_argument_deltas_and_fold_into_one_call() -> None:
    """SDK chunks: started on the first part, a delta per fragment whose text joins to the
    arguments' JSON (string deltas with their paths, previews), completed on the last part;
    the final response holds one merged call with the first part's signature."""
    chunks = [types.GenerateContentResponse.model_validate(c) for c in VERTEX]
    stream, events = feed_all(chunks[:4])
    last = events[-1]  # a preview is read from the stream's state when read: read it now
    assert isinstance(last, ToolCallArgumentsDelta)
    assert last.partial_arguments == {"path": "notes/a.md", "content": '# Title "x"\n'}
    events += [event for item in chunks[4:] for event in stream.feed(item)]
    call = StandardToolCall("function", "toolwire_r-9_0", "write_file", ARGUMENTS, True)
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert [type(e) for e in events if not isinstance(e, ToolCallArgumentsDelta)][1:] == [
        ToolCallStarted,
        ToolCallCompleted,
        TurnEnded,
    ]
    assert json.loads("".join(d.fragment for d in deltas)) == ARGUMENTS
    strings = [(d.string_delta.path, d.string_delta.text) for d in deltas if d.string_delta]
    assert (("content",), 'tle "x"\n') in strings
    completed = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    assert completed == [call]

    final = stream.final_response()
    parts = parts_of(final)
    assert [p.text for p in parts] == ["Writing.", None]
    assert parts[1].function_call == types.FunctionCall(name="write_file", args=ARGUMENTS)
    assert parts[1].thought_signature == b"sig-w"
    assert read_calls(final) == [call]  # the same id and arguments as the stream's event
    ran: list[str] = []
    [result] = GROUP.run_tool_calls(final, ran)
    assert result.fail_reason is None
    assert ran == ['# Title "x"\nbody']
    history = [
        types.Content(role="user", parts=[types.Part(text="write it")]),
        *assistant_messages(final, "gemini"),
        *tool_result_messages([result], "gemini"),
    ]
    assert check_history(history, "gemini") == []


def test_a_call_cut_before_its_last_fragment_is_truncated_and_never_run() -> None:
    """MAX_TOKENS while a call is open: `ToolCallTruncated`, the final part keeps
    will_continue with the arguments received, and dispatching it answers "truncated"."""
    stream, events = feed_all([*VERTEX[1:3], chunk(finish="MAX_TOKENS")])
    [cut] = [e.call for e in events if isinstance(e, ToolCallTruncated)]
    assert cut == StandardToolCall(
        "function",
        "toolwire_r-9_0",
        "write_file",
        {"path": "notes/a.md", "content": "# Ti"},
        True,
        truncated=True,
    )
    assert isinstance(events[-1], TurnEnded) and events[-1].status == "truncated"
    final = stream.final_response()
    [part] = parts_of(final)
    assert part.function_call is not None and part.function_call.will_continue is True
    assert read_calls(final) == [cut]
    ran: list[str] = []
    assert [r.fail_reason for r in GROUP.run_tool_calls(final, ran)] == ["truncated"]
    assert ran == []


def test_a_new_call_cuts_the_open_one() -> None:
    """A call named while another is still open ends that one as cut."""
    second = chunk({"functionCall": {"name": "other", "args": {"a": 1}}}, finish="STOP")
    _, events = feed_all([*VERTEX[1:3], second])
    kinds = [type(e).__name__ for e in events if not isinstance(e, ToolCallArgumentsDelta)]
    assert kinds == [
        "ToolCallStarted",
        "ToolCallTruncated",
        "ToolCallStarted",
        "ToolCallCompleted",
        "TurnEnded",
    ]


def test_a_path_back_into_a_closed_container_rewrites_the_text() -> None:
    """Out of document order, the preview starts again from the whole text; the call's
    arguments are exact either way."""
    parts = [
        fragment("$.a.b", numberValue=1),
        fragment("$.c", numberValue=2),
        fragment("$.a.d", numberValue=3.5),
    ]
    run = [
        chunk(
            {"functionCall": {"name": "f", "id": "c1", "partialArgs": parts, "willContinue": True}}
        ),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    _, events = feed_all(run)
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert [d.fragment for d in deltas] == [
        '{"a":{"b":1',
        '},"c":2',
        '{"a":{"b":1,"d":3.5},"c":2',
        "}",
    ]
    assert deltas[-1].partial_arguments == {"a": {"b": 1, "d": 3.5}, "c": 2}
    [done] = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    assert done == StandardToolCall("function", "c1", "f", {"a": {"b": 1, "d": 3.5}, "c": 2})


def test_an_unreadable_path_is_refused_not_run() -> None:
    """A path toolwire cannot place (a wildcard) makes the call invalid: answered as
    invalid arguments, in the stream and from the final response alike."""
    bad = [fragment("$.path", stringValue="a"), fragment("$.tags[*]", stringValue="x")]
    run = [
        chunk({"functionCall": {"name": "write_file", "partialArgs": bad, "willContinue": True}}),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    stream, events = feed_all(run)
    [done] = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    assert done.input == """{"path": "a", <unreadable JSON path '$.tags[*]'>"""
    final = stream.final_response()
    assert read_calls(final) == [done]
    ran: list[str] = []
    [result] = GROUP.run_tool_calls(final, ran)
    assert result.fail_reason == "invalid_arguments"
    assert ran == []


def test_json_paths() -> None:
    """Singular RFC 9535 paths read; paths naming several places (or none) do not."""
    assert parse_json_path('$.a[0][\'b c\']["d\\"e"].f') == ("a", 0, "b c", 'd"e', "f")
    for path in ("a.b", "$..a", "$[*]", "$[-1]", "$.a[?@.b]", "$[01]", "$['a'"):
        assert parse_json_path(path) is None


def test_a_real_client_streams_vertex_fragments_over_sse() -> None:
    """The SDK's own client, reading SSE from an in-process transport, yields chunks that
    fold into the same events and final call as above."""
    body = "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in VERTEX)

    def reply(request: httpx2.Request) -> httpx2.Response:
        assert request.url.path.endswith(":streamGenerateContent")
        return httpx2.Response(200, text=body, headers={"content-type": "text/event-stream"})

    options = types.HttpOptions(
        base_url="https://vertex.invalid/",
        httpx_client=httpx2.Client(transport=httpx2.MockTransport(reply)),
    )
    client = genai.Client(api_key="offline", vertexai=False, http_options=options)
    stream = ToolCallStream("gemini", partial_args="fold")
    completed: list[StandardToolCall] = []
    for item in client.models.generate_content_stream(model="gemini-3-pro", contents="write"):
        completed += [e.call for e in stream.feed(item) if isinstance(e, ToolCallCompleted)]
    assert completed == [
        StandardToolCall("function", "toolwire_r-9_0", "write_file", ARGUMENTS, True)
    ]
    assert read_calls(stream.final_response()) == completed


def test_the_default_stream_refuses_fragments_naming_both_remedies() -> None:
    """Without `partial_args="fold"`, the first chunk of a call sent in fragments raises
    a ToolwireError (SDK chunk or wire dict; `partial_args` or `will_continue` alone)
    that says to turn argument streaming off or to fold, before any event of the call."""
    named = VERTEX[1]
    fragments_only = chunk({"functionCall": {"name": "w", "partialArgs": [fragment("$.a")]}})
    for item in (named, types.GenerateContentResponse.model_validate(named), fragments_only):
        stream = ToolCallStream("gemini")
        assert [type(e) for e in stream.feed(VERTEX[0])] != []
        with pytest.raises(ToolwireError) as refused:
            stream.feed(item)
        message = str(refused.value)
        assert "stream_function_call_arguments=False" in message
        assert "ToolCallStream('gemini', partial_args='fold')" in message
        assert stream.completed_calls == []


def test_the_option_is_checked() -> None:
    """A value other than "refuse" or "fold" raises ValueError listing both; "fold" on an
    API whose streams carry no fragments raises ValueError saying to leave it out, while
    "refuse" is accepted everywhere (so one line can serve every API)."""
    with pytest.raises(ValueError, match="partial_args must be 'refuse' or 'fold', not True"):
        ToolCallStream("gemini", partial_args=True)  # type: ignore[call-overload]
    for api in ("chat.completions", "responses", "anthropic", ChatServer.VLLM):
        with pytest.raises(ValueError, match="Leave partial_args out"):
            ToolCallStream(api, partial_args="fold")
        assert ToolCallStream(api, partial_args="refuse").feed is not None


def test_read_directly_fragments_are_folded_never_refused() -> None:
    """A response built past the stream (chunks merged by hand) is read, not refused:
    one call holding every fragment runs with the merged arguments, and the chunks'
    parts merely concatenated get one result each, none run."""
    pieces = [c["candidates"][0]["content"]["parts"][0] for c in VERTEX[1:]]
    fragments = [f for p in pieces for f in p["functionCall"].get("partialArgs", [])]
    merged = {"functionCall": {"name": "write_file", "partialArgs": fragments}}
    ran: list[str] = []
    [result] = GROUP.run_tool_calls(chunk(merged, finish="STOP"), ran)
    assert (result.fail_reason, ran) == (None, ['# Title "x"\nbody'])
    concatenated = chunk(*pieces, finish="STOP")
    results = GROUP.run_tool_calls(concatenated, ran)
    assert [(r.name, r.fail_reason) for r in results] == [
        ("write_file", "truncated"),
        ("", "truncated"),
        ("", "truncated"),
        ("", "truncated"),
        ("", "invalid_name"),
    ]
    assert ran == ['# Title "x"\nbody']


def test_a_huge_index_is_refused_in_bounded_memory() -> None:
    """An index that skips more elements than `MAX_UNSENT` (arguments that large cannot fit
    in the default size limit) makes its call unreadable at once, read directly and in the
    stream alike; the other calls keep their results. Up to the bound the nulls are filled."""
    huge = fragment("$.tags[10000000000000]", numberValue=1)
    ok = {"functionCall": {"name": "write_file", "args": {"path": "p", "content": "c"}}}
    refused = {"functionCall": {"name": "write_file", "partialArgs": [huge]}}
    response = types.GenerateContentResponse.model_validate(chunk(ok, refused, finish="STOP"))
    ran: list[str] = []
    results = GROUP.run_tool_calls(response, ran)
    assert [(r.name, r.fail_reason) for r in results] == [
        ("write_file", None),
        ("write_file", "invalid_arguments"),
    ]
    assert ran == ["c"]

    run = [
        chunk({"functionCall": {"name": "write_file", "willContinue": True}}),
        chunk({"functionCall": {"partialArgs": [huge], "willContinue": True}}),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    stream, events = feed_all(run)
    [done] = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    unreadable = """{"tags": [], <unreadable JSON path '$.tags[10000000000000]'>"""
    assert done == StandardToolCall("function", "toolwire_r-9_0", "write_file", unreadable, True)
    assert parts_of(stream.final_response()) == [
        types.Part(
            function_call=types.FunctionCall(
                name="write_file",
                args={"tags": []},
                partial_args=[types.PartialArg(json_path="$.tags[10000000000000]")],
            )
        )
    ]

    last = MAX_UNSENT - 1  # fills the whole budget: read; one element more is refused
    within = fold_arguments(None, [types.PartialArg(json_path=f"$.a[{last}]", bool_value=True)])
    assert within == {"a": [None] * last + [True]}
    past = [types.PartialArg(json_path=f"$.a[{last}]"), types.PartialArg(json_path="$.b[1]")]
    refused_past = fold_arguments(None, past)
    assert (
        refused_past
        == f"""{{"a": {json.dumps([None] * MAX_UNSENT)}, "b": [], <unreadable JSON path '$.b[1]'>"""
    )
    assert parse_json_path(f"$[{2**53 - 1}]") == (2**53 - 1,)
    assert parse_json_path(f"$[{2**53}]") is None
    assert parse_json_path("$[" + "9" * 5000 + "]") is None


def test_a_path_deeper_than_any_depth_limit_fails_the_depth_limit() -> None:
    """A path of more than `MAX_DEPTH_CEILING` keys makes its call fail the depth limit
    (read directly and streamed, and again from the final response), never a
    RecursionError; a path at the ceiling folds, rewrites included."""
    deep = "$" + ".a" * (MAX_DEPTH_CEILING + 1)
    too_deep = (
        "The arguments for 'write_file' were rejected: the arguments are nested deeper than "
        "the limit of 64 levels. Call it again with smaller, flatter arguments."
    )
    ok = {"functionCall": {"name": "write_file", "args": {"path": "p", "content": "c"}}}
    refused = {
        "functionCall": {
            "name": "write_file",
            "partialArgs": [fragment(deep, numberValue=1), fragment("$.data[*]")],
        }
    }
    ran: list[str] = []
    results = GROUP.run_tool_calls(chunk(ok, refused, finish="STOP"), ran)
    assert [(r.fail_reason, r.result_content) for r in results] == [
        (None, "written"),
        ("invalid_arguments", too_deep),
    ]

    def streamed(path: str) -> list[dict[str, Any]]:
        back = [fragment(path, numberValue=1), fragment("$.b"), fragment("$.a.z")]
        return [
            chunk({"functionCall": {"name": "write_file", "willContinue": True}}),
            chunk({"functionCall": {"partialArgs": back, "willContinue": True}}),
            chunk({"functionCall": {}}, finish="STOP"),
        ]

    stream, events = feed_all(streamed(deep))
    [done] = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    opened = '"a":{' * MAX_DEPTH_CEILING
    assert done == StandardToolCall(
        "function", "toolwire_r-9_0", "write_file", "{, " + opened, True
    )
    final = stream.final_response()
    assert parts_of(final) == [
        types.Part(
            function_call=types.FunctionCall(
                name="write_file", args={}, partial_args=[types.PartialArg(json_path=deep)]
            )
        )
    ]
    assert [(r.fail_reason, r.result_content) for r in GROUP.run_tool_calls(final, ran)] == [
        ("invalid_arguments", too_deep)
    ]

    _, events = feed_all(streamed("$" + ".a" * MAX_DEPTH_CEILING))
    [done] = [e.call for e in events if isinstance(e, ToolCallCompleted)]
    nested: Any = 1
    for _ in range(MAX_DEPTH_CEILING - 1):
        nested = {"a": nested}
    assert done.input == {"a": {**nested, "z": None}, "b": None}


def test_after_a_rewrite_fragments_append_and_rewrites_stay_linear() -> None:
    """After a rewrite the text appends again (a long string after it costs no more than
    without it); a rewrite waits until the text grew by its length, so fragments that go
    back again and again are written in text linear in theirs, and exact at the end."""
    back = [fragment("$.o.x", numberValue=1), fragment("$.p", numberValue=2)]
    back.append(fragment("$.o.y", numberValue=3))
    content = [fragment("$.content", stringValue="ab", willContinue=True)] * 2
    content.append(fragment("$.content", stringValue="c"))
    run = [
        chunk({"functionCall": {"name": "f", "partialArgs": back + content, "willContinue": True}}),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    _, events = feed_all(run)
    assert [e.fragment for e in events if isinstance(e, ToolCallArgumentsDelta)] == [
        '{"o":{"x":1',
        '},"p":2',
        '{"o":{"x":1,"y":3},"p":2',
        ',"content":"ab',
        "ab",
        'c"',
        "}",
    ]

    zigzag = [fragment("$.o.x", numberValue=0)]
    for n in range(1, 200):  # each member of "o" after "p{n}" closed it: back again
        zigzag += [fragment(f"$.p{n}", numberValue=n), fragment(f"$.o.x{n}", numberValue=n)]
    run[0]["candidates"][0]["content"]["parts"][0]["functionCall"]["partialArgs"] = zigzag
    stream, events = feed_all(run)
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    arguments = {"o": {"x": 0, **{f"x{n}": n for n in range(1, 200)}}}
    arguments |= {f"p{n}": n for n in range(1, 200)}
    assert stream.completed_calls[0].input == arguments
    assert deltas[-1].partial_arguments == arguments
    text = json.dumps(arguments, separators=(",", ":"))
    assert deltas[-1].fragment == text  # the rewrite waiting at the end, made by close
    assert sum(len(d.fragment) for d in deltas) < 4 * len(text)  # not one rewrite each


def test_folding_never_changes_the_callers_objects() -> None:
    """A fragment into an object the call's first part sent in `args` is written into a
    copy: the chunk fed (or the response read) is unchanged, the call holds both."""
    args = {"x": {"y": 1}}
    first = chunk({"functionCall": {"name": "f", "args": args, "willContinue": True}})
    into = chunk({"functionCall": {"partialArgs": [fragment("$.x.z", numberValue=2)]}})
    chunks = [types.GenerateContentResponse.model_validate(c) for c in (first, into)]
    unchanged = types.GenerateContentResponse.model_validate(json.loads(json.dumps(first)))
    stream, _ = feed_all([*chunks, chunk(finish="STOP")])
    assert chunks[0] == unchanged
    assert stream.completed_calls[0].input == {"x": {"y": 1, "z": 2}}

    fragments = [types.PartialArg(json_path="$.x.z", number_value=2)]
    call = types.FunctionCall(name="f", args={"x": {"y": 1}}, partial_args=fragments)
    [read] = read_calls([call], api="gemini")
    assert read.input == {"x": {"y": 1, "z": 2}}
    assert call == types.FunctionCall(name="f", args={"x": {"y": 1}}, partial_args=fragments)


def test_quoted_names_read_as_rfc_9535_spells_them() -> None:
    """A single-quoted name holds `"` as is and escapes `'`; a double-quoted one the other
    way round; both take JSON's escapes and \\u escapes of whole characters. Anything
    else (the other quote escaped, a lone surrogate, a control character, an unknown
    escape) is no path. The stream folds such a name like any other."""
    read = {
        """$.greetings['say "hi"']""": ("greetings", 'say "hi"'),
        r"$['it\'s']": ("it's",),
        """$["it's"]""": ("it's",),
        r'$["a\"b"]': ('a"b',),
        r"""$['\\"']""": ('\\"',),
        r"$['\u00e9\n\/\\\b\f\r\t']": ("\u00e9\n/\\\b\f\r\t",),
        r"$['\ud83d\ude00']": ("\U0001f600",),
        "$[ 'a' ][\t0\n]": ("a", 0),
    }
    assert {path: parse_json_path(path) for path in read} == read
    for path in (r"$['a\"b']", r'$["a\'b"]', r"$['\ud800']", r"$['\udc00\ud800']"):
        assert parse_json_path(path) is None, path
    for path in ("$['a\x01']", r"$['\x']", r"$['\u12']", "$[\x0b'a']", "$.\ud800"):
        assert parse_json_path(path) is None, path

    path = """$.greetings['say "hi"']"""
    run = [
        chunk({"functionCall": {"name": "greet", "willContinue": True}}),
        chunk({"functionCall": {"partialArgs": [fragment(path, stringValue="hello")]}}),
        chunk(finish="STOP"),
    ]
    stream, events = feed_all(run)
    arguments = {"greetings": {'say "hi"': "hello"}}
    assert [e.fragment for e in events if isinstance(e, ToolCallArgumentsDelta)] == [
        '{"greetings":{"say \\"hi\\"":"hello"',
        "}}",
    ]
    assert stream.completed_calls == [
        StandardToolCall("function", "toolwire_r-9_0", "greet", arguments, True)
    ]
    assert parts_of(stream.final_response()) == [
        types.Part(function_call=types.FunctionCall(name="greet", args=arguments))
    ]


def test_earlier_deltas_preview_the_rewritten_text() -> None:
    """After a rewrite, the deltas made before it preview the arguments as they are now
    (read late, they show later fragments, and the final arguments once complete),
    while each keeps the string delta of its own fragment."""
    back = [fragment("$.o.x", numberValue=1), fragment("$.s", stringValue="ab")]
    back.append(fragment("$.o.y", numberValue=3))
    run = [
        chunk({"functionCall": {"name": "f", "partialArgs": back, "willContinue": True}}),
        chunk({"functionCall": {}}, finish="STOP"),
    ]
    _, events = feed_all(run)
    arguments = {"o": {"x": 1, "y": 3}, "s": "ab"}
    deltas = [e for e in events if isinstance(e, ToolCallArgumentsDelta)]
    assert [(d.fragment, d.string_delta, d.partial_arguments) for d in deltas] == [
        ('{"o":{"x":1', None, arguments),
        ('},"s":"ab"', StringDelta(("s",), "ab"), arguments),
        ('{"o":{"x":1,"y":3},"s":"ab"', StringDelta(("s",), "ab"), arguments),
        ("}", None, arguments),
    ]


def test_a_delta_read_before_a_rewrite_previews_the_rewritten_text_after_it() -> None:
    """A preview read (and cached, fresh) before the arguments were written again is not
    served from that cache afterwards: the same delta then shows the new text's preview."""
    stream = ToolCallStream("gemini", partial_args="fold")
    first = [fragment("$.o.x", numberValue=1), fragment("$.s", stringValue="ab")]
    events = stream.feed(
        chunk({"functionCall": {"name": "f", "partialArgs": first, "willContinue": True}})
    )
    early = next(e for e in events if isinstance(e, ToolCallArgumentsDelta))
    assert early.partial_arguments == {"o": {"x": 1}, "s": "ab"}
    assert early.string_delta is None
    back = [fragment("$.o.y", numberValue=3)]  # back into a closed object: a rewrite
    stream.feed(chunk({"functionCall": {"partialArgs": back, "willContinue": True}}))
    stream.feed(chunk({"functionCall": {}}, finish="STOP"))
    assert early.string_delta is None  # its own fragment's, read again after the rewrite
    assert early.partial_arguments == {"o": {"x": 1, "y": 3}, "s": "ab"}
