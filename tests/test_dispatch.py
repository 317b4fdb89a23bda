"""Dispatch in toolwire.core: one result per call, in order, whatever the model sent."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletionMessageFunctionToolCall

from tests.helpers import chat_completion
from toolwire.core import (
    ArgumentLimits,
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    HandlerResult,
    StandardToolCall,
    ToolBatchError,
    ToolCallFailure,
    ToolCallSuccess,
    ToolGroup,
    assistant_messages,
)
from toolwire.exceptions import CallKindMismatchError


class GetWeather(BaseFunctionToolModel[list[str], float]):
    """Get the weather somewhere."""

    model_tool_custom_name = "get_weather"

    city: str
    state: Literal["California", "New York", "Texas"]
    days: int = 1

    def model_tool_handler(self, context: list[str]) -> tuple[str, float]:
        context.append(self.city)
        if self.city == "Atlantis":
            raise ErrorForLLMToSee("Atlantis has no weather service. Pick a real city.")
        if self.city == "Boom":
            raise RuntimeError("database password is hunter2")
        return f"Sunny in {self.city} for {self.days} day(s).", 21.5


class Ping(BaseFunctionToolModel[list[str], float]):
    """Check the service is up."""

    def model_tool_handler(self, context: list[str]) -> HandlerResult[float]:
        context.append("ping")
        return HandlerResult(result_content="pong", context=0.0)


group = ToolGroup.from_list([GetWeather, Ping])
GOOD = {"city": "Austin", "state": "Texas"}


def outcome(result: Any) -> tuple[str, str | None, str]:
    return (result.call_id, result.fail_reason, result.result_content)


class TestInputs:
    def test_whole_completion(self) -> None:
        """A ChatCompletion is read whole: every call gets one result, in order."""
        log: list[str] = []
        results = group.run_tool_calls(chat_completion(("get_weather", GOOD), ("Ping", "{}")), log)
        assert [outcome(r) for r in results] == [
            ("call_0", None, "Sunny in Austin for 1 day(s)."),
            ("call_1", None, "pong"),
        ]
        assert log == ["Austin", "ping"]

    def test_message_list_dicts_and_standard_calls(self) -> None:
        """The message, its tool_calls list, their dict forms and StandardToolCall all work."""
        completion = chat_completion(("get_weather", GOOD))
        message = completion.choices[0].message
        as_dicts = [c.model_dump() for c in message.tool_calls or []]
        standard = StandardToolCall(
            "function", "call_0", "get_weather", '{"city": "Austin", "state": "Texas"}'
        )
        for calls in (message, message.tool_calls or [], as_dicts, [standard], standard):
            results = group.run_tool_calls(calls, [])
            assert [outcome(r) for r in results] == [
                ("call_0", None, "Sunny in Austin for 1 day(s).")
            ]

    def test_success_is_typed(self) -> None:
        """Narrowing on fail_reason gives the handler's typed context."""
        (result,) = group.run_tool_calls(chat_completion(("get_weather", GOOD)), [])
        assert isinstance(result, ToolCallSuccess)
        if result.fail_reason is None:
            temperature: float = result.context
            assert temperature == 21.5

    @pytest.mark.parametrize("empty", [None, "", "   ", "null", " null "])
    def test_empty_arguments_mean_none(self, empty: str | None) -> None:
        """None, "", whitespace and null validate as {}."""
        call = StandardToolCall("function", "c", "Ping", empty)
        assert outcome(group.run_tool_call(call, [])) == ("c", None, "pong")

    def test_no_tool_calls_no_results(self) -> None:
        """A completion without calls gives no results."""
        assert group.run_tool_calls(chat_completion(content="Hi", finish_reason="stop"), []) == []


class TestModelMistakes:
    def test_unknown_names(self) -> None:
        """Unknown, hostile and huge names each get one invalid_name failure, never a lookup."""
        names = ["get_wether", "__class__", "model_tool_handler", "a\x00b", "x" * 10_000]
        results = group.run_tool_calls(
            [StandardToolCall("function", f"c{i}", n, "{}") for i, n in enumerate(names)], []
        )
        assert [r.fail_reason for r in results] == ["invalid_name"] * 5
        assert results[1].result_content == snapshot(
            "Unknown tool '__class__'. Available tools: Ping, get_weather. Call one of them by its exact name."
        )
        assert "\\x00" in results[3].result_content
        assert len(results[4].result_content) < 300

    def test_invalid_json_and_non_objects(self) -> None:
        """Malformed JSON and JSON that is not an object are invalid_arguments failures."""
        texts = ['{"city": "Austin"', "[1, 2]", '"Austin"', "42", "true", "Austin"]
        results = group.run_tool_calls(
            [StandardToolCall("function", f"c{i}", "get_weather", t) for i, t in enumerate(texts)],
            [],
        )
        assert [r.result_content for r in results] == snapshot(
            [
                "The arguments for 'get_weather' are not valid JSON (Invalid JSON: EOF while parsing an object at line 1 column 17). Call it again with the arguments as one complete JSON object.",
                "The arguments for 'get_weather' must be one JSON object, but they are a JSON array. Call it again with an object such as {\"field\": value}.",
                "The arguments for 'get_weather' must be one JSON object, but they are a JSON string. Call it again with an object such as {\"field\": value}.",
                "The arguments for 'get_weather' must be one JSON object, but they are a number. Call it again with an object such as {\"field\": value}.",
                "The arguments for 'get_weather' must be one JSON object, but they are true. Call it again with an object such as {\"field\": value}.",
                "The arguments for 'get_weather' must be one JSON object, but they are not JSON. Call it again with an object such as {\"field\": value}.",
            ]
        )
        assert {r.fail_reason for r in results} == {"invalid_arguments"}

    def test_what_is_not_an_object_is_named_as_json_reads_it(self) -> None:
        """Text is named by what it parses to, not by its first character ("tomorrow" is
        not `true`); a dict-argument API's non-object input by its JSON kind."""
        texts = ["tomorrow", "fetch it", "-x", '"unterminated', "[1, 2", "-1.5e3", "x" * 5000]
        calls = [
            StandardToolCall("function", f"c{i}", "get_weather", t) for i, t in enumerate(texts)
        ]
        calls += [
            StandardToolCall("function", f"d{i}", "get_weather", raw)  # pyright: ignore[reportArgumentType]
            for i, raw in enumerate([5, [1, 2], True, 2.5])
        ]
        results = group.run_tool_calls(calls, [])
        got = [r.result_content.split("but they are ")[1].split(". Call")[0] for r in results]
        assert got == snapshot(
            [
                "not JSON",
                "not JSON",
                "not JSON",
                "not JSON",
                "not JSON",
                "a number",
                "5,000 characters of other text",
                "a number",
                "a JSON array",
                "true",
                "a number",
            ]
        )
        assert {r.fail_reason for r in results} == {"invalid_arguments"}

    def test_validation_errors_are_compact(self) -> None:
        """Each error names the field path, the problem with allowed values, and what was sent."""
        args = {"city": "x" * 5000, "state": "Cal", "days": "many", "extra": 1}
        (result,) = group.run_tool_calls(
            [StandardToolCall("function", "c", "get_weather", args)], []
        )
        assert result.result_content == snapshot(
            """\
Invalid arguments for 'get_weather': 2 errors. Fix them and call the tool again.
- state: Input should be 'California', 'New York' or 'Texas' (got "Cal")
- days: Input should be a valid integer, unable to parse string as an integer (got "many")\
"""
        )
        assert "errors.pydantic.dev" not in result.result_content

    def test_explicit_handler_error(self) -> None:
        """ErrorForLLMToSee's text is the result; the exception is kept."""
        (result,) = group.run_tool_calls(
            chat_completion(("get_weather", {"city": "Atlantis", "state": "Texas"})), []
        )
        assert isinstance(result, ToolCallFailure)
        assert (result.fail_reason, result.result_content) == (
            "explicit_handler_error",
            "Atlantis has no weather service. Pick a real city.",
        )
        assert isinstance(result.exception, ErrorForLLMToSee)

    def test_dict_arguments_are_lax_like_json(self) -> None:
        """Dict arguments validate like JSON input: 3.0 is an int."""
        call = StandardToolCall(
            "function", "c", "get_weather", {"city": "Austin", "state": "Texas", "days": 3.0}
        )
        assert outcome(group.run_tool_call(call, [])) == (
            "c",
            None,
            "Sunny in Austin for 3 day(s).",
        )


class TestLimits:
    def test_size_limit(self) -> None:
        """Arguments over max_chars fail without being parsed."""
        big = '{"city": "' + "a" * 2000 + '", "state": "Texas"}'
        result = group.run_tool_call(
            StandardToolCall("function", "c", "get_weather", big),
            [],
            limits=ArgumentLimits(max_chars=1000),
        )
        assert result.result_content == snapshot(
            "The arguments for 'get_weather' were rejected: the arguments are 2,030 characters long; the limit is 1,000. Call it again with smaller, flatter arguments."
        )

    def test_depth_limit_on_text(self) -> None:
        """JSON nested past max_depth fails, including 100,000 levels, without recursion."""
        for depth in (65, 100_000):
            deep = '{"city": ' + "[" * depth + "]" * depth + "}"
            result = group.run_tool_call(StandardToolCall("function", "c", "get_weather", deep), [])
            assert result.fail_reason == "invalid_arguments"
            assert "nested deeper than the limit of 64 levels" in result.result_content

    def test_brackets_inside_strings_do_not_count(self) -> None:
        """Brackets inside string values are not nesting."""
        text = '{"city": "' + "[{" * 100 + '", "state": "Texas"}'
        result = group.run_tool_call(StandardToolCall("function", "c", "get_weather", text), [])
        assert result.fail_reason is None

    def test_depth_limit_on_dicts_and_cycles(self) -> None:
        """Deep and cyclic dict arguments fail at the limit instead of recursing."""
        deep: dict[str, Any] = {}
        node = deep
        for _ in range(5000):
            node["a"] = {}
            node = node["a"]
        cyclic: dict[str, Any] = {"city": "x", "state": "Texas"}
        cyclic["self"] = cyclic
        for args in (deep, cyclic):
            result = group.run_tool_call(StandardToolCall("function", "c", "get_weather", args), [])
            assert result.fail_reason == "invalid_arguments"
            assert "nested deeper" in result.result_content

    def test_limits_are_validated(self) -> None:
        """A depth limit above pydantic's 200 is refused."""
        with pytest.raises(ValueError, match="between 1 and 200"):
            ArgumentLimits(max_depth=500)


class TestTruncation:
    def test_cut_call_is_not_run(self) -> None:
        """With finish_reason=length, the cut call fails as truncated; complete ones run."""
        log: list[str] = []
        completion = chat_completion(
            ("Ping", "{}"), ("get_weather", '{"city": "Aus'), finish_reason="length"
        )
        results = group.run_tool_calls(completion, log)
        assert [r.fail_reason for r in results] == [None, "truncated"]
        assert log == ["ping"]
        assert results[1].result_content == snapshot(
            "The call to 'get_weather' was cut off before its arguments were complete (the response stopped early, at the output length limit or a content filter), so it was not run. If its arguments were long, call it again with shorter ones (for example, split the work into several smaller calls)."
        )


class TestIds:
    def test_missing_ids_are_synthesized_consistently(self) -> None:
        """A call without an id gets a stable id that the replayed assistant turn carries too."""
        completion = chat_completion(("Ping", "{}", ""), completion_id="chatcmpl-9")
        (result,) = group.run_tool_calls(completion, [])
        (replayed,) = assistant_messages(completion, "chat.completions")
        assert result.call_id == "toolwire_chatcmpl-9_0"
        assert result.synthesized_id
        assert [c["id"] for c in replayed.get("tool_calls", [])] == ["toolwire_chatcmpl-9_0"]

    def test_duplicate_ids_each_get_a_result(self) -> None:
        """Two calls sharing an id still get one result each, in order."""
        completion = chat_completion(("Ping", "{}", "same"), ("Ping", "{}", "same"))
        assert [r.call_id for r in group.run_tool_calls(completion, [])] == ["same", "same"]


class TestUnexpectedExceptions:
    def test_single_call_raises_the_handler_exception(self) -> None:
        """run_tool_call lets the handler's own exception through."""
        with pytest.raises(RuntimeError, match="hunter2"):
            completion = chat_completion(("get_weather", {"city": "Boom", "state": "Texas"}))
            (call,) = completion.choices[0].message.tool_calls or []
            group.run_tool_call(call, [])

    def test_batch_error_keeps_results_and_marks_the_rest(self) -> None:
        """Calls before the failure keep results; later ones do not run; answer_all covers all."""
        log: list[str] = []
        completion = chat_completion(
            ("Ping", "{}"), ("get_weather", {"city": "Boom", "state": "Texas"}), ("Ping", "{}")
        )
        with pytest.raises(ToolBatchError) as caught:
            group.run_tool_calls(completion, log)
        error = caught.value
        assert log == ["ping", "Boom"]
        assert [type(e).__name__ for e in error.exceptions] == ["RuntimeError"]
        assert [r is not None for r in error.results] == [True, False, False]
        assert [c.id for c in error.not_run] == ["call_2"]
        answered = error.answer_all()
        assert [(r.call_id, r.fail_reason) for r in answered] == [
            ("call_0", None),
            ("call_1", "unexpected_error"),
            ("call_2", "not_run"),
        ]
        assert all("hunter2" not in r.result_content for r in answered)
        assert str(error) == snapshot(
            "1 of 3 tool calls raised an unexpected exception (first: RuntimeError); 1 completed, 1 did not run. Answer every call id before the next request: see ToolBatchError.answer_all(). (1 sub-exception)"
        )

    def test_fail_policy_answers_and_goes_on(self) -> None:
        """unexpected_errors="fail" turns the exception into a generic failure and runs the rest."""
        log: list[str] = []
        completion = chat_completion(
            ("get_weather", {"city": "Boom", "state": "Texas"}), ("Ping", "{}")
        )
        results = group.run_tool_calls(completion, log, unexpected_errors="fail")
        assert [r.fail_reason for r in results] == ["unexpected_error", None]
        assert isinstance(results[0].exception, RuntimeError)
        assert "hunter2" not in results[0].result_content
        assert log == ["Boom", "ping"]

    def test_bad_handler_return_is_a_type_error(self) -> None:
        """A handler returning something other than (str, context) raises TypeError."""

        class Bad(BaseFunctionToolModel[None, None]):
            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return 42, None  # pyright: ignore[reportReturnType]

        with pytest.raises(TypeError) as error:
            Bad.model_tool_run_tool_call(StandardToolCall("function", "c", "Bad", "{}"), None)
        assert str(error.value) == snapshot(
            "Bad.model_tool_handler returned a pair whose first item is of type int; it must return (content, context) or HandlerResult(result_content=..., context=...), where content is a str or a list of str, ImagePart and FilePart."
        )


class TestSingleTool:
    def test_other_name_is_invalid(self) -> None:
        """model_tool_run_tool_call answers a call to another tool with invalid_name."""
        call = ChatCompletionMessageFunctionToolCall.model_validate(
            {"id": "c", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
        )
        assert Ping.model_tool_run_tool_call(call, []).fail_reason == "invalid_name"

    def test_custom_call_to_function_tool_is_a_developer_mistake(self) -> None:
        """A custom call sent to a function tool raises (the tool was offered as the wrong kind)."""
        with pytest.raises(CallKindMismatchError):
            Ping.model_tool_run_tool_call(StandardToolCall("custom", "c", "Ping", "text"), [])

    def test_custom_tool_gets_the_text(self) -> None:
        """A custom tool receives the raw text as `input`."""

        class Echo(BaseCustomToolModel[None, None]):
            def model_tool_handler(self, context: None) -> tuple[str, None]:
                return self.input.upper(), None

        result = Echo.model_tool_run_tool_call(StandardToolCall("custom", "c", "Echo", "hi"), None)
        assert (result.type, result.result_content) == ("custom", "HI")
