"""A local server (Ollama; vLLM, llama.cpp's server, LM Studio and SGLang work the same
way): the `openai` client pointed at it, and one `ChatServer` value passed wherever the
loop passes `api`. toolwire reads the server's stream as it comes (whole calls in one
chunk, content ""), replays what it needs back (content "" rather than null, its
`reasoning`), and says when the model wrote a call as text instead of calling."""

import os

from openai import OpenAI
from openai.types.chat import ChatCompletionMessageParam

from toolwire.core import (
    BaseFunctionToolModel,
    ChatServer,
    ToolCallCompleted,
    ToolCallResult,
    ToolCallStream,
    ToolGroup,
    assistant_messages,
    recover_text_calls,
    tool_result_messages,
    turn_status,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply, check_history

SERVER = ChatServer.OLLAMA  # one value, given wherever the loop gives `api`
OFFLINE = [  # the fake sends as Ollama does, and refuses what Ollama refuses
    FakeReply(calls=(FakeCall("read_file", {"path": "notes.txt"}),), thinking="Read it first."),
    # A model whose chat template lacks tools writes its call as text:
    FakeReply(
        text='<tool_call>{"name": "read_file", "arguments": {"path": "todo.txt"}}</tool_call>'
    ),
    FakeReply(text="Water the plants on Friday; the todo list says to buy soil."),
]
if os.environ.get("OLLAMA_BASE_URL"):  # e.g. http://localhost:11434/v1
    client = OpenAI(base_url=os.environ["OLLAMA_BASE_URL"], api_key="ollama")
else:
    client = FakeOpenAI(server=SERVER, script=OFFLINE).client()

FILES = {"notes.txt": "Water the plants on Friday.", "todo.txt": "Buy soil."}


class read_file(BaseFunctionToolModel[None, None]):
    """Read a text file."""

    path: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return FILES.get(self.path, f"No file named {self.path}."), None


tools = ToolGroup.from_list([read_file])


def main() -> None:
    history: list[ChatCompletionMessageParam] = [
        {"role": "user", "content": "What do my notes and my todo list say?"}
    ]
    while True:
        stream = ToolCallStream(SERVER)
        results: list[ToolCallResult[None]] = []
        for chunk in client.chat.completions.create(
            model="qwen3", messages=history, tools=tools.tool_definitions(SERVER), stream=True
        ):
            for event in stream.feed(chunk):
                if isinstance(event, ToolCallCompleted):
                    results.append(tools.run_tool_call(event.call, None, api=SERVER))
        response = stream.final_response()
        status = turn_status(response, SERVER)
        print(f"Turn: {status}")
        if status == "calls_in_text":
            # The model wrote its call as text (the server's tool parser is off):
            # read it as the server would have, and run it like any other call.
            response = recover_text_calls(response)
            results = tools.run_tool_calls(response, None, api=SERVER)
        history.extend(assistant_messages(response, SERVER))
        if not results:
            print(f"Answer: {response.choices[0].message.content}")
            break
        for result in results:
            print(f"{result.name} -> {result.result_content}")
        history.extend(tool_result_messages(results, SERVER))
    replayed = history[1]
    print(f"Replayed: content={replayed.get('content')!r}, reasoning={replayed.get('reasoning')!r}")
    print(f"Problems Ollama would answer 400 to: {check_history(history, SERVER)}")


if __name__ == "__main__":
    main()
