"""Gemini history rules, on recorded traffic and on broken variants of it."""

from __future__ import annotations

import base64
from typing import Any

from google.genai import types
from inline_snapshot import snapshot

from toolwire.testing._gemini.history import gemini_history_problems, gemini_signature_key
from toolwire.testing._rules import HistoryProblem

from ._corpus import Case, accepted_followups, corpus_case, corpus_cases

CROSS = "test_tool_search__test_cross_provider_capability_replay-openai-responses-gpt-5.4-google-gemini-3-flash-preview__i3"
"""user; model load_capability + model search_tools (two contents, one turn); user with both
responses; model lookup_refund_policy; its response; model text; user text; model
lookup_refund_policy; its response. Every call and response carries an id."""

IDENTICAL = "models__test_google__test_google_instructions_only_with_tool_calls__i0"
"""user; model with three generate_topic({}) calls, only the first signed; user with 3 responses."""

NO_IDS = "models__test_openai__test_multiple_agent_tool_calls__i0"
"""user; model get_capital without id; user with its response, without id."""


def _pairs(problems: list[HistoryProblem]) -> list[tuple[int, str]]:
    return [(p.index, p.message) for p in problems]


def _contents(case_id: str) -> list[dict[str, Any]]:
    return corpus_case(case_id)["followup_request"]["contents"]


def _recorded_signatures(case: Case) -> dict[str, str]:
    signatures: dict[str, str] = {}
    for part in case["response"]["candidates"][0]["content"]["parts"]:
        if "functionCall" in part and "thoughtSignature" in part:
            signatures[gemini_signature_key(part["functionCall"])] = part["thoughtSignature"]
    return signatures


def test_every_accepted_followup_has_no_problems() -> None:
    """Every Gemini follow-up the live API accepted (status 200) passes the rules."""
    followups = accepted_followups("gemini")
    found = {i: _pairs(gemini_history_problems(b["contents"])) for i, b in followups}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(followups) == snapshot(78)


def test_every_recorded_request_has_no_problems() -> None:
    """The requests that produced the recorded calls are valid histories too."""
    cases = [c for c in corpus_cases() if c["api"] == "gemini"]
    found = {c["id"]: _pairs(gemini_history_problems(c["request"]["contents"])) for c in cases}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(cases) == snapshot(89)


def test_recorded_signatures_survive_in_accepted_followups() -> None:
    """The follow-ups keep each signature the model sent (re-encoded URL-safe), and losing it is caught."""
    checked = 0
    lost = 0
    for case in corpus_cases():
        if case["api"] != "gemini" or case["followup_status"] != 200 or case["stream"]:
            continue
        signatures = _recorded_signatures(case)
        if not signatures:
            continue
        tail = case["followup_request"]["contents"][len(case["request"]["contents"]) :]
        assert gemini_history_problems(tail, signatures=signatures) == [], case["id"]
        stripped = [
            {
                **c,
                "parts": [
                    {k: v for k, v in p.items() if k != "thoughtSignature"} for p in c["parts"]
                ],
            }
            for c in tail
        ]
        lost += bool(gemini_history_problems(stripped, signatures=signatures))
        checked += 1
    assert (checked, lost) == snapshot((71, 71))


def test_sdk_content_dumps_are_accepted() -> None:
    """A model Content replayed through google-genai (camelCase or snake_case dump) passes."""
    case = corpus_case(IDENTICAL)
    content = types.Content.model_validate(case["response"]["candidates"][0]["content"])
    signatures = _recorded_signatures(case)
    for by_alias, call_key in ((True, "functionCall"), (False, "function_call")):
        contents = _contents(IDENTICAL)
        contents[1] = content.model_dump(mode="json", by_alias=by_alias, exclude_none=True)
        assert call_key in contents[1]["parts"][0]
        assert gemini_history_problems(contents, signatures=signatures) == []


def test_dropped_response() -> None:
    """One response short for a two-call turn is a count problem naming the calls."""
    contents = _contents(CROSS)
    del contents[3]["parts"][1]
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                3,
                "contents[3] (user) answers with 1 functionResponse part(s), but the function call turn before it (contents[1:3]) made 2 call(s) ('load_capability', 'search_tools'); send exactly one functionResponse part per call, in call order",
            )
        ]
    )


def test_responses_split_across_user_contents() -> None:
    """Responses for one turn in two user contents are reported where they continue."""
    contents = _contents(CROSS)
    second = contents[3]["parts"].pop()
    contents.insert(4, {"role": "user", "parts": [second]})
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                4,
                "contents[4] (user) continues the function responses for the calls of contents[1:3]; put all 2 responses in the single user content right after the calls (contents[3])",
            )
        ]
    )


def test_media_after_the_responses_is_accepted() -> None:
    """A later user content without function responses (media, text) is fine."""
    contents = _contents(CROSS)
    contents.insert(4, {"role": "user", "parts": [{"text": "also, here is a picture"}]})
    assert gemini_history_problems(contents) == []


def test_orphan_responses_and_trailing_calls() -> None:
    """Responses with no call turn before them, and calls nobody answered, are reported."""
    contents = _contents(CROSS)
    del contents[8]
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                8,
                "contents[8] (user) has function responses ('lookup_refund_policy') but no function call turn comes right before it; send function responses in the user content that directly follows the model content with the calls",
            )
        ]
    )
    assert _pairs(gemini_history_problems(_contents(CROSS)[:9])) == snapshot(
        [
            (
                8,
                "contents[8] (model) makes 1 function call(s) ('lookup_refund_policy') with no user content answering them; append one user content with one functionResponse part per call, in call order",
            )
        ]
    )


def test_text_instead_of_responses() -> None:
    """A user content with text only, right after calls, is reported."""
    contents = _contents(CROSS)
    contents[5] = {"role": "user", "parts": [{"text": "never mind"}]}
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                5,
                "contents[5] (user) comes right after the function calls of contents[4] ('lookup_refund_policy') but has no functionResponse part; answer with one functionResponse part per call, in call order, in this user content",
            )
        ]
    )


def test_responses_matched_by_id() -> None:
    """A response id that matches no call, or names another tool, is reported."""
    contents = _contents(CROSS)
    contents[3]["parts"][0]["functionResponse"]["id"] = "call_nope"
    contents[5]["parts"][0]["functionResponse"]["name"] = "load_capability"
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                3,
                "contents[3] (user) has a functionResponse with id 'call_nope' (load_capability), but no call of contents[1:3] has that id (call ids: 'call_30QT8TKHJVZ7ktawZDPtvzjf', 'auto_load_97d4a2341e6817ea'); give each response the id of the call it answers",
            ),
            (
                5,
                "contents[5] (user) has a functionResponse named 'load_capability' for call id 'call_ZIYh6lTGNz01q0XHRAcH4lfw', which is a call to 'lookup_refund_policy'; name each response after the call it answers",
            ),
        ]
    )


def test_responses_without_ids_are_matched_by_position() -> None:
    """Without ids, responses must follow call order and carry names."""
    contents = _contents(CROSS)
    for index in (1, 2):
        del contents[index]["parts"][0]["functionCall"]["id"]
    responses = contents[3]["parts"]
    for part in responses:
        del part["functionResponse"]["id"]
    assert gemini_history_problems(contents) == []
    responses.reverse()
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                3,
                "contents[3] (user): functionResponse #1 is for 'search_tools' but call #1 of contents[1:3] is 'load_capability'; list the responses in call order, one per call",
            ),
            (
                3,
                "contents[3] (user): functionResponse #2 is for 'load_capability' but call #2 of contents[1:3] is 'search_tools'; list the responses in call order, one per call",
            ),
        ]
    )
    del responses[0]["functionResponse"]["name"]
    assert _pairs(gemini_history_problems(contents))[:1] == snapshot(
        [
            (
                3,
                "contents[3] (user) has a functionResponse with no name; set it to the name of the call it answers",
            )
        ]
    )


def test_calls_without_ids_accept_positional_responses() -> None:
    """The plain Gemini API shape (no ids anywhere) passes."""
    assert gemini_history_problems(_contents(NO_IDS)) == []


def test_lost_signature() -> None:
    """A replayed call that lost the signature the fake sent is reported once."""
    case = corpus_case(IDENTICAL)
    contents = _contents(IDENTICAL)
    del contents[1]["parts"][0]["thoughtSignature"]
    assert _pairs(gemini_history_problems(contents, signatures=_recorded_signatures(case))) == (
        snapshot(
            [
                (
                    1,
                    "contents[1] (model): the functionCall part for 'generate_topic' lost its thoughtSignature; replay the model's Content exactly as received, keeping every part's thought_signature",
                )
            ]
        )
    )


def test_changed_signature() -> None:
    """Another signature is reported; the same bytes in URL-safe or standard base64 are not."""
    contents = _contents(NO_IDS)
    contents[1]["parts"][0]["thoughtSignature"] = base64.b64encode(b"other").decode()
    signatures = {'get_capital:{"country":"France"}': b"\xfb\xffsig"}
    assert _pairs(gemini_history_problems(contents, signatures=signatures)) == snapshot(
        [
            (
                1,
                "contents[1] (model): the functionCall part for 'get_capital' carries a thoughtSignature different from the one the model sent; replay the model's Content exactly as received, keeping every part's thought_signature",
            )
        ]
    )
    url_safe = base64.urlsafe_b64encode(b"\xfb\xffsig").decode()
    assert url_safe.startswith("-_")
    contents[1]["parts"][0]["thoughtSignature"] = url_safe
    assert gemini_history_problems(contents, signatures=signatures) == []
    signatures = {'get_capital:{"country":"France"}': base64.b64encode(b"\xfb\xffsig").decode()}
    assert gemini_history_problems(contents, signatures=signatures) == []


def test_signature_moved_off_the_first_call() -> None:
    """A turn whose first call lost its signature while a later one has it is reported."""
    contents = _contents(IDENTICAL)
    parts = contents[1]["parts"]
    parts[1]["thoughtSignature"] = parts[0].pop("thoughtSignature")
    assert _pairs(gemini_history_problems(contents)) == snapshot(
        [
            (
                1,
                "contents[1] (model): the first functionCall part ('generate_topic') has no thoughtSignature while a later one has; the model signs the first call of a turn, so replay its Content unchanged, without dropping or reordering parts",
            )
        ]
    )


def test_signature_key_is_canonical() -> None:
    """The key ignores argument order and treats missing args as {}."""
    assert gemini_signature_key({"name": "f", "args": {"b": 1, "a": [1, "é"]}}) == snapshot(
        'f:{"a":[1,"é"],"b":1}'
    )
    assert gemini_signature_key({"name": "f", "args": None}) == gemini_signature_key({"name": "f"})
