"""FakeOpenAI's Responses endpoint calls the tools of a `namespace` tool and its server
search finds a namespace's deferred tools: a `FakeCall` names such a tool by its flat
name (`crm__get_customer`), the call item names the tool and its namespace apart (the
SDK's `ResponseFunctionToolCall.namespace`), and the `tool_search_output` holds the
found definitions inside their namespace (the SDK types its `tools` as the request's
tool union; no recorded exchange shows a namespaced search, so this is the
least-invented form). A whole loop through the real client, JSON and streamed."""

from __future__ import annotations

from typing import Any

import openai
import pytest
from inline_snapshot import snapshot
from openai.types.responses import Response, ResponseFunctionToolCall

from toolwire.core import (
    BaseFunctionToolModel,
    ToolCallStream,
    ToolGroup,
    ToolNamespace,
    assistant_messages,
    tool_result_messages,
)
from toolwire.testing import FakeCall, FakeOpenAI, FakeReply, FakeSearch, check_history

CRM = ToolNamespace("crm", "Customer records.")


class get_customer(BaseFunctionToolModel[None, None]):
    """A customer's record by id."""

    model_tool_namespace = CRM
    customer_id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.customer_id}: Ada", None


class list_invoices(BaseFunctionToolModel[None, None]):
    """The invoices of a customer."""

    model_tool_namespace = CRM
    model_tool_defer_loading = True
    customer_id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"{self.customer_id}: 2 invoices", None


class refund_invoice(BaseFunctionToolModel[None, None]):
    """Refund one invoice."""

    model_tool_namespace = CRM
    model_tool_defer_loading = True
    invoice_id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "refunded", None


def tools() -> ToolGroup[None, None]:
    group = ToolGroup.from_list([get_customer, list_invoices, refund_invoice])
    group.add_tool_search()
    return group


def turn(fake: FakeOpenAI, history: list[Any], stream: bool) -> Response:
    definitions = tools().tool_definitions("responses")
    client = fake.client()
    if not stream:
        return client.responses.create(model="gpt-5.5", input=history, tools=definitions)
    reader = ToolCallStream("responses")
    events = client.responses.create(model="gpt-5.5", input=history, tools=definitions, stream=True)
    for event in events:
        reader.feed(event)
    return reader.final_response()


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_a_search_finds_a_namespaced_tool_and_the_model_calls_it(stream: bool) -> None:
    fake = FakeOpenAI(
        script=[
            FakeReply(
                search=FakeSearch("invoices"),
                calls=(
                    FakeCall("crm__get_customer", {"customer_id": "c1"}),
                    FakeCall("crm__list_invoices", {"customer_id": "c1"}),
                ),
            ),
            FakeReply(text="Ada has 2 invoices."),
        ]
    )
    history: list[Any] = [{"role": "user", "content": "Invoices of c1?"}]
    first = turn(fake, history, stream)
    items = [item.model_dump(mode="json", exclude_unset=True) for item in first.output]
    assert [(i["type"], i.get("name"), i.get("namespace")) for i in items] == snapshot(
        [
            ("tool_search_call", None, None),
            ("tool_search_output", None, None),
            ("function_call", "get_customer", "crm"),
            ("function_call", "list_invoices", "crm"),
        ]
    )
    assert items[1]["tools"] == snapshot(
        [
            {
                "type": "namespace",
                "name": "crm",
                "description": "Customer records.",
                "tools": [
                    {
                        "type": "function",
                        "name": "list_invoices",
                        "description": "The invoices of a customer.",
                        "parameters": {
                            "properties": {"customer_id": {"type": "string"}},
                            "required": ["customer_id"],
                            "type": "object",
                        },
                        "strict": False,
                        "defer_loading": True,
                    },
                    {
                        "name": "refund_invoice",
                        "type": "function",
                        "defer_loading": True,
                        "description": "Refund one invoice.",
                        "parameters": {
                            "properties": {"invoice_id": {"type": "string"}},
                            "required": ["invoice_id"],
                            "type": "object",
                        },
                        "strict": False,
                    },
                ],
            }
        ]
    )
    results = tools().run_tool_calls(first, None)
    assert [(r.name, r.result_content) for r in results] == snapshot(
        [("crm__get_customer", "c1: Ada"), ("crm__list_invoices", "c1: 2 invoices")]
    )
    history += assistant_messages(first, "responses")
    history += tool_result_messages(results, "responses")
    assert check_history(history, "responses") == []
    assert turn(fake, history, stream).output_text == "Ada has 2 invoices."


def test_found_names_a_namespaced_tool_by_its_flat_name() -> None:
    fake = FakeOpenAI(
        script=[FakeReply(search=FakeSearch("money", found=("crm__refund_invoice",)))]
    )
    response = turn(fake, [{"role": "user", "content": "Refund it."}], False)
    output: Any = response.output[1]
    assert [t.name for t in output.tools[0].tools] == ["refund_invoice"]


def test_a_namespaced_deferred_tool_no_search_loaded_is_refused() -> None:
    fake = FakeOpenAI(
        script=[FakeReply(calls=(FakeCall("crm__refund_invoice", {"invoice_id": "i1"}),))]
    )
    with pytest.raises(openai.BadRequestError, match="'crm__refund_invoice', a deferred tool"):
        turn(fake, [{"role": "user", "content": "Refund i1."}], False)


def test_the_default_policy_calls_a_namespaced_tool() -> None:
    response = turn(FakeOpenAI(), [{"role": "user", "content": "Who is c1?"}], False)
    calls = [
        (i.name, i.namespace) for i in response.output if isinstance(i, ResponseFunctionToolCall)
    ]
    assert calls == [("get_customer", "crm")]
