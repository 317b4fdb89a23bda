"""Gemini history: the model turn replayed unchanged, one user Content of function responses,
and why the turn ended."""

from __future__ import annotations

import base64
import copy
import pickle
from typing import Any

import pytest
from google.genai import types
from inline_snapshot import snapshot

from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    ToolCallFailure,
    ToolGroup,
    assistant_messages,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import check_history

SIGNATURE = bytes(range(256))


def model_parts(response: types.GenerateContentResponse) -> list[types.Part]:
    """The parts of the response's first candidate."""
    assert response.candidates and response.candidates[0].content
    return list(response.candidates[0].content.parts or [])


def response(
    *parts: dict[str, Any], finish: str | None = "STOP", response_id: str = "resp-9"
) -> types.GenerateContentResponse:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return types.GenerateContentResponse.model_validate(
        {"candidates": [candidate], "responseId": response_id}
    )


def call(name: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args, **extra}}


SIGNED = {"thoughtSignature": base64.b64encode(SIGNATURE).decode()}
TURN = response(
    {"text": "Thinking it over", "thought": True},
    {"text": "Let me check."},
    call("lookup", {"q": "a"}) | SIGNED,
    call("lookup", {"q": "b"}),
    call("fail", {}, id="call-7"),
)


class Lookup(BaseFunctionToolModel[None, None]):
    model_tool_custom_name = "lookup"

    q: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"found {self.q}", None


class Fail(BaseFunctionToolModel[None, None]):
    model_tool_custom_name = "fail"

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        raise ErrorForLLMToSee("The index is offline; try later.")


GROUP = ToolGroup.from_list([Lookup, Fail])


def test_assistant_messages_is_the_candidate_content_itself() -> None:
    """The model turn is the candidate's Content, unchanged: same object, signature bytes intact."""
    [content] = assistant_messages(TURN, "gemini")
    assert content is (TURN.candidates or [])[0].content
    parts = content.parts or []
    assert len(parts) == 5
    assert parts[2].thought_signature == SIGNATURE
    assert [p.function_call.id for p in parts if p.function_call] == [None, None, "call-7"]


def test_assistant_messages_from_dict_forms_keep_the_signature_bytes() -> None:
    """Wire JSON and SDK dumps become an equal types.Content with the same bytes."""
    expected = assistant_messages(TURN, "gemini")
    wire = TURN.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert assistant_messages(wire, "gemini") == expected
    assert assistant_messages(TURN.model_dump(), "gemini") == expected
    content = (TURN.candidates or [])[0].content
    assert content is not None
    assert assistant_messages(content, "gemini") == [content]


def test_assistant_messages_sets_the_model_role() -> None:
    """A Content without a role is replayed as role "model" (an equal copy, the rest unchanged)."""
    content = types.Content(parts=[types.Part(text="hi", thought_signature=b"s")])
    [replayed] = assistant_messages(content, "gemini")
    assert replayed == types.Content(role="model", parts=content.parts)
    assert content.role is None


NOTHING_TO_REPLAY: list[dict[str, Any]] = [
    {"promptFeedback": {"blockReason": "SAFETY"}},
    {"candidates": [{"finishReason": "SAFETY", "index": 0}]},
    {"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": []}}]},
]


@pytest.mark.parametrize("body", NOTHING_TO_REPLAY)
def test_nothing_to_replay(body: dict[str, Any]) -> None:
    """No candidate, no content or no parts: nothing to append (the API rejects empty parts)."""
    assert assistant_messages(types.GenerateContentResponse.model_validate(body), "gemini") == []


def test_tool_result_messages_is_one_user_content_in_call_order() -> None:
    """One user Content, one function_response per call; `id` only where the call had one."""
    results = GROUP.run_tool_calls(TURN, None)
    assert tool_result_messages(results, "gemini") == [
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        name="lookup", response={"output": "found a"}
                    )
                ),
                types.Part(
                    function_response=types.FunctionResponse(
                        name="lookup", response={"output": "found b"}
                    )
                ),
                types.Part(
                    function_response=types.FunctionResponse(
                        id="call-7",
                        name="fail",
                        response={"error": "The index is offline; try later."},
                    )
                ),
            ],
        )
    ]
    assert [r.call_id for r in results] == ["toolwire_resp-9_0", "toolwire_resp-9_1", "call-7"]


def test_rendered_results_are_what_validation_makes() -> None:
    """Results are built without validating toolwire's own values again: each Content,
    Part and FunctionResponse still equals the validated model, with the same fields set
    (what `exclude_unset` dumps and the SDK's request converter read)."""
    results = GROUP.run_tool_calls(TURN, None)
    (content,) = tool_result_messages(results, "gemini")
    answers: list[tuple[str, str | None, str, str]] = [
        ("lookup", None, "output", "found a"),
        ("lookup", None, "output", "found b"),
    ]
    answers.append(("fail", "call-7", "error", "The index is offline; try later."))
    validated = types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id=call_id, name=name, response={key: text}, parts=None
                )
            )
            for name, call_id, key, text in answers
        ],
    )
    assert content == validated
    assert content.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)
    # Copies and pickles are whole models too (every slot pydantic reads is set).
    for copied in (
        pickle.loads(pickle.dumps(content)),
        copy.deepcopy(content),
        content.model_copy(),
    ):
        assert copied == validated
        assert copied.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)
    # Each rendering is its own: editing one leaves the next (and the template) alone.
    assert content.parts is not None and content.parts[0].function_response is not None
    content.parts[0].function_response.name = "edited"
    content.role = "model"
    (again,) = tool_result_messages(results, "gemini")
    assert again == validated
    assert again.model_dump(exclude_unset=True)["parts"][0] == snapshot(
        {
            "function_response": {
                "parts": None,
                "id": None,
                "name": "lookup",
                "response": {"output": "found a"},
            }
        }
    )


def test_result_parts_and_failures_made_for_a_call() -> None:
    """`.function_response_part` renders each result; ToolCallFailure.for_call keeps the policy."""
    parts = model_parts(TURN)
    failure = ToolCallFailure.for_call(parts[2], "Not now.")
    assert failure.synthesized_id
    assert failure.function_response_part == types.Part(
        function_response=types.FunctionResponse(name="lookup", response={"error": "Not now."})
    )
    with_id = ToolCallFailure.for_call(parts[4], "Not now.")
    assert (with_id.function_response_part.function_response or types.FunctionResponse()).id == (
        "call-7"
    )


def test_no_results_no_messages() -> None:
    """Nothing to answer gives nothing to append."""
    assert tool_result_messages([], "gemini") == []


def test_the_whole_history_serializes_like_the_api_expects() -> None:
    """Replayed turn + results, as the SDK sends them: no synthesized ids anywhere."""
    results = GROUP.run_tool_calls(TURN, None)
    history = [*assistant_messages(TURN, "gemini"), *tool_result_messages(results, "gemini")]
    wire = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in history]
    assert "toolwire_" not in str(wire)
    assert wire[0]["parts"][2]["thoughtSignature"] == base64.urlsafe_b64encode(SIGNATURE).decode()
    assert [p["functionResponse"].get("id") for p in wire[1]["parts"]] == [None, None, "call-7"]


def test_the_history_passes_the_api_rules() -> None:
    """check_history finds nothing wrong with the helpers' history, and flags a lost result."""
    prompt = types.Content(role="user", parts=[types.Part(text="Look up a and b.")])
    results = GROUP.run_tool_calls(TURN, None)
    turn = assistant_messages(TURN, "gemini")
    assert check_history([prompt, *turn, *tool_result_messages(results, "gemini")], "gemini") == []
    [problem] = check_history(
        [prompt, *turn, *tool_result_messages(results[:2], "gemini")], "gemini"
    )
    assert "made 3 call(s)" in problem.message


CALLS = (call("lookup", {"q": "a"}),)


@pytest.mark.parametrize(
    ("finish", "parts", "status"),
    [
        ("STOP", CALLS, "tool_calls"),
        ("STOP", ({"text": "Done."},), "done"),
        (None, ({"text": "Done."},), "done"),
        ("OTHER", ({"text": "?"},), "done"),
        ("FINISH_REASON_UNSPECIFIED", CALLS, "tool_calls"),
        ("MAX_TOKENS", ({"text": "Once upon"},), "truncated"),
        ("MAX_TOKENS", CALLS, "truncated"),
        ("CONTINUATION", ({"text": "Once"},), "truncated"),
        ("TOO_MANY_TOOL_CALLS", (), "truncated"),
        ("MALFORMED_FUNCTION_CALL", (), "malformed"),
        ("UNEXPECTED_TOOL_CALL", (), "malformed"),
        ("MALFORMED_RESPONSE", (), "malformed"),
        ("SAFETY", (), "refused"),
        ("RECITATION", ({"text": "It was"},), "refused"),
        ("PROHIBITED_CONTENT", (), "refused"),
        ("BLOCKLIST", (), "refused"),
        ("SPII", (), "refused"),
        ("IMAGE_SAFETY", (), "refused"),
        ("LANGUAGE", (), "refused"),
        ("MISSING_THOUGHT_SIGNATURE", (), "refused"),
    ],
)
def test_turn_status(finish: str | None, parts: tuple[dict[str, Any], ...], status: str) -> None:
    """Finish reasons map to the neutral status as the adapter documents (read from the
    wire JSON when the installed SDK predates the reason, as google-genai 3.0 does for
    MISSING_THOUGHT_SIGNATURE)."""
    if finish is not None and finish not in types.FinishReason.__members__:
        content = {"role": "model", "parts": list(parts)}
        wire = {"candidates": [{"content": content, "finishReason": finish}]}
        assert turn_status(wire, "gemini") == status
        return
    assert turn_status(response(*parts, finish=finish), "gemini") == status


def test_turn_status_of_a_blocked_prompt_and_of_other_shapes() -> None:
    """A blocked prompt (no candidate) is refused; Contents and dicts are read too."""
    blocked = types.GenerateContentResponse.model_validate(
        {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}}
    )
    assert turn_status(blocked, "gemini") == "refused"
    assert turn_status({"promptFeedback": {"blockReason": "OTHER"}}, "gemini") == "refused"
    assert (
        turn_status(types.Content(role="model", parts=[types.Part(text="x")]), "gemini") == "done"
    )
    wire = TURN.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert turn_status(wire, "gemini") == "tool_calls"
    assert turn_status(types.GenerateContentResponse(candidates=[]), "gemini") == "done"
