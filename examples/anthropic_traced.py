"""A traced loop on Anthropic: one OpenTelemetry span per executed call (GenAI
semantic conventions), plus your own hooks for metrics. Here the spans go to an
in-memory exporter and are printed; in your service, configure your usual exporter."""

import os
from collections import Counter

from anthropic import Anthropic
from anthropic.types import MessageParam
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from toolwire.core import (
    BaseFunctionToolModel,
    ErrorForLLMToSee,
    ToolCallEnd,
    ToolGroup,
    ToolHooks,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeAnthropic, FakeReply

# Offline, the fake replies as the model would: two lookups (one unknown), then the answer.
OFFLINE = [
    FakeReply.tool_calls(("get_order", {"order_id": "A-17"}), ("get_order", {"order_id": "Z-99"})),
    FakeReply(text="Order A-17 shipped yesterday; I could not find Z-99."),
]
client = (
    Anthropic() if os.environ.get("ANTHROPIC_API_KEY") else FakeAnthropic(script=OFFLINE).client()
)

# The application sets up tracing once; toolwire traces executed calls from then on.
exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
trace.set_tracer_provider(provider)


class get_order(BaseFunctionToolModel[None, None]):
    """Look up an order's status."""

    order_id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        if self.order_id != "A-17":
            raise ErrorForLLMToSee(f"No order {self.order_id}.")
        return "A-17 shipped yesterday.", None


tools = ToolGroup.from_list([get_order])
outcomes: Counter[str] = Counter()


def count(end: ToolCallEnd) -> None:
    """Your metrics: count outcomes per tool."""
    outcome = end.result.fail_reason if end.result is not None else "raised"
    outcomes[f"{end.call.name}:{outcome or 'success'}"] += 1


def main() -> None:
    history: list[MessageParam] = [{"role": "user", "content": "Where are orders A-17 and Z-99?"}]
    while True:
        message = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=1024,
            messages=history,
            tools=tools.tool_definitions("anthropic"),
        )
        history.extend(assistant_messages(message, "anthropic"))
        results = tools.run_tool_calls(message, None, hooks=ToolHooks(after=count))
        if not results:
            print("Answer:", "".join(b.text for b in message.content if b.type == "text"))
            break
        history.extend(tool_result_messages(results, "anthropic"))
    # The SDK traces its own requests too, so each turn reads: model call, tool calls.
    for span in exporter.get_finished_spans():
        attributes = dict(span.attributes or {})
        line = f"{span.name}"
        if attributes.get("gen_ai.operation.name") == "execute_tool":
            line += f" call={attributes['gen_ai.tool.call.id']} {span.status.status_code.name}"
            line += f" error.type={attributes['error.type']}" if "error.type" in attributes else ""
        print(line)
    print("metrics:", dict(outcomes))


if __name__ == "__main__":
    main()
