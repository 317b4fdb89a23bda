"""Checked by pyright, never run: toolwire's outputs are accepted by the SDKs' signatures,
and its types narrow the way the README says. A failure here is a pyright error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_type

if TYPE_CHECKING:
    from anthropic import Anthropic
    from anthropic.types import Message, MessageParam
    from google.genai import types as genai_types
    from openai import OpenAI, Stream
    from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam
    from openai.types.responses import Response, ResponseInputItemParam

    from toolwire import aio
    from toolwire.core import (
        Api,
        BaseFunctionToolModel,
        ToolCallResult,
        ToolCallStream,
        ToolGroup,
        TurnStatus,
        assistant_messages,
        tool_result_messages,
        turn_status,
    )

    class Weather(BaseFunctionToolModel[int, float]):
        city: str

    group = ToolGroup.from_list([Weather])
    assert_type(group, ToolGroup[int, float])

    def tool_choice_splats(client: OpenAI, anthropic: Anthropic) -> None:
        """Each API's tool_choice params go straight into its create call."""
        client.chat.completions.create(
            model="m",
            messages=[],
            tools=group.tool_definitions("chat.completions"),
            **group.tool_choice("chat.completions", Weather, parallel=False),
        )
        client.responses.create(
            model="m",
            input="hi",
            tools=group.tool_definitions("responses"),
            **group.tool_choice("responses", "required"),
        )
        anthropic.messages.create(
            model="m",
            max_tokens=1,
            messages=[],
            tools=group.tool_definitions("anthropic"),
            **group.tool_choice("anthropic", "auto", thinking={"type": "adaptive"}),
        )
        genai_types.GenerateContentConfig(
            tools=group.tool_definitions("gemini"), **group.tool_choice("gemini", Weather)
        )

    def chat(client: OpenAI, completion: ChatCompletion) -> None:
        history: list[ChatCompletionMessageParam] = []
        client.chat.completions.create(
            model="m", messages=history, tools=group.tool_definitions("chat.completions")
        )
        client.chat.completions.create(
            model="m", messages=history, tools=[Weather.model_tool_definition("chat.completions")]
        )
        client.chat.completions.create(
            model="m",
            messages=history,
            response_format=Weather.model_tool_format("chat.completions"),
        )
        results = group.run_tool_calls(completion, 1)
        assert_type(results, list[ToolCallResult[float]])
        history.extend(assistant_messages(completion, "chat.completions"))
        history.extend(tool_result_messages(results, "chat.completions"))
        history.extend(result.tool_message for result in results)
        for result in results:
            if result.fail_reason is None:
                assert_type(result.context, float)
            else:
                assert_type(result.context, None)
        assert_type(turn_status(completion, "chat.completions"), TurnStatus)
        assert_type(ToolCallStream("chat.completions").final_response(), ChatCompletion)

    def responses(client: OpenAI, response: Response) -> None:
        items: list[ResponseInputItemParam] = []
        client.responses.create(
            model="m",
            input=items,
            tools=group.tool_definitions("responses"),
            text={"format": Weather.model_tool_format("responses")},
        )
        items.extend(assistant_messages(response, "responses"))
        items.extend(tool_result_messages(group.run_tool_calls(response, 1), "responses"))
        assert_type(ToolCallStream("responses").final_response(), Response)

    def anthropic(client: Anthropic, message: Message) -> None:
        messages: list[MessageParam] = []
        client.messages.create(
            model="m",
            max_tokens=1,
            messages=messages,
            tools=group.tool_definitions("anthropic"),
            output_config={"format": Weather.model_tool_format("anthropic")},
        )
        messages.extend(assistant_messages(message, "anthropic"))
        messages.extend(tool_result_messages(group.run_tool_calls(message, 1), "anthropic"))
        assert_type(ToolCallStream("anthropic").final_response(), Message)

    def gemini(response: genai_types.GenerateContentResponse) -> None:
        config = genai_types.GenerateContentConfig(
            tools=group.tool_definitions("gemini"), **Weather.model_tool_format("gemini")
        )
        contents: list[genai_types.Content] = []
        contents.extend(assistant_messages(response, "gemini"))
        contents.extend(tool_result_messages(group.run_tool_calls(response, 1), "gemini"))
        del config
        assert_type(ToolCallStream("gemini").final_response(), genai_types.GenerateContentResponse)
        folding = ToolCallStream("gemini", partial_args="fold")
        assert_type(folding.final_response(), genai_types.GenerateContentResponse)

    class AsyncWeather(aio.BaseFunctionToolModel[int, float]):
        city: str

    async def async_dispatch(completion: ChatCompletion) -> None:
        async_group = aio.ToolGroup.from_list([AsyncWeather])
        results = await async_group.run_tool_calls(completion, 1, max_concurrency=2, timeout=5)
        assert_type(results, list[ToolCallResult[float]])

    def wrong_objects(
        message: Message,
        completion: ChatCompletion,
        chunk: ChatCompletionChunk,
        stream: Stream[ChatCompletionChunk],
        response: Response,
    ) -> None:
        """Another API's object, a chunk or a stream where a turn belongs: type errors (each
        ignore would be reported as unnecessary if the error disappeared)."""
        turn_status(message, "chat.completions")  # pyright: ignore[reportCallIssue, reportArgumentType]
        turn_status(response, "chat.completions")  # pyright: ignore[reportCallIssue, reportArgumentType]
        turn_status(chunk, "chat.completions")  # pyright: ignore[reportCallIssue, reportArgumentType]
        turn_status(stream, "chat.completions")  # pyright: ignore[reportCallIssue, reportArgumentType]
        assistant_messages(completion, "anthropic")  # pyright: ignore[reportCallIssue, reportArgumentType]
        assistant_messages(message, "responses")  # pyright: ignore[reportCallIssue, reportArgumentType]
        assistant_messages(response, "gemini")  # pyright: ignore[reportCallIssue, reportArgumentType]
        group.run_tool_calls(stream, 1)  # pyright: ignore[reportArgumentType]

    def generic_loop(api: Api, response: Any) -> None:
        """A loop over any API (`api` a variable) still type-checks: pyright tries each API."""
        history: list[Any] = []
        history.extend(assistant_messages(response, api))
        assert_type(turn_status(response, api), TurnStatus)

    from toolwire.core import FilePart, HandlerResult, ImagePart, MediaReport, media_report

    class Screenshot(BaseFunctionToolModel[int, float]):
        """Returns an image and a file next to text: overrides narrow the base's return."""

        def model_tool_handler(
            self, context: int
        ) -> tuple[list[str | ImagePart | FilePart], float]:
            return ["Here:", ImagePart(url="https://x/a.png"), FilePart(file_id="file-1")], 1.0

    class Report(BaseFunctionToolModel[int, float]):
        def model_tool_handler(self, context: int) -> HandlerResult[float]:
            return HandlerResult(result_content=[FilePart(url="https://x/r.pdf")], context=2.0)

    def media(client: OpenAI, completion: ChatCompletion) -> None:
        both = ToolGroup.from_list([Screenshot, Report])
        results = both.run_tool_calls(completion, 1)
        history: list[ChatCompletionMessageParam] = []
        history.extend(tool_result_messages(results, "chat.completions", media="message"))
        client.chat.completions.create(model="m", messages=history)
        assert_type(media_report(results, "gemini"), MediaReport)

    from anthropic.types import ToolResultBlockParam
    from openai.types.chat import ChatCompletionToolMessageParam
    from openai.types.responses import ResponseCustomToolCallOutputParam
    from openai.types.responses.response_input_param import FunctionCallOutput

    def native_forms(result: ToolCallResult[float]) -> None:
        """Each result's native forms are the SDKs' own param types (they were `Any`), and
        go where those APIs take them."""
        assert_type(result.tool_message, ChatCompletionToolMessageParam)
        assert_type(result.output_item, FunctionCallOutput | ResponseCustomToolCallOutputParam)
        assert_type(result.tool_result_block, ToolResultBlockParam)
        assert_type(result.function_response_part, genai_types.Part)
        chat: list[ChatCompletionMessageParam] = [result.tool_message]
        items: list[ResponseInputItemParam] = [result.output_item]
        messages: list[MessageParam] = [{"role": "user", "content": [result.tool_result_block]}]
        contents = [genai_types.Content(role="user", parts=[result.function_response_part])]
        result.tool_message["no_such_key"]  # pyright: ignore[reportGeneralTypeIssues]
        del chat, items, messages, contents

    def parts_of_responses(
        response: Response, message: Message, gemini: genai_types.GenerateContentResponse
    ) -> None:
        """The items of a response are accepted where the error texts point to them."""
        group = ToolGroup.from_list([Weather])
        assert_type(group.run_tool_calls(response.output, 1), list[ToolCallResult[float]])
        assert_type(group.run_tool_calls(message.content, 1), list[ToolCallResult[float]])
        candidates = gemini.candidates or []
        assert_type(group.run_tool_calls(candidates[0], 1), list[ToolCallResult[float]])
        group.prepare_tool_calls(response.output)

    from toolwire.core import ChatServer, FailedGeneration, failed_generation, recover_text_calls
    from toolwire.testing import FakeOpenAI, check_history

    def chat_servers(client: OpenAI, completion: ChatCompletion, error: Exception) -> None:
        """A `ChatServer` goes wherever "chat.completions" goes, with the same types."""
        server = ChatServer.DEEPSEEK
        history: list[ChatCompletionMessageParam] = []
        client.chat.completions.create(
            model="m",
            messages=history,
            tools=group.tool_definitions(server),
            response_format=Weather.model_tool_format(server),
            **group.tool_choice(server, "auto", thinking=False),
        )
        results = group.run_tool_calls(completion, 1)
        history.extend(assistant_messages(completion, server))
        history.extend(tool_result_messages(results, server))
        assert_type(turn_status(completion, server), TurnStatus)
        assert_type(ToolCallStream(server).final_response(), ChatCompletion)
        assert_type(recover_text_calls(completion), ChatCompletion)
        failed = failed_generation(error)
        if failed is not None:
            assert_type(failed, FailedGeneration)
            history.extend(failed.messages)
        check_history(history, ChatServer.MISTRAL)
        FakeOpenAI(server=ChatServer("my-server", strict=False)).client()
