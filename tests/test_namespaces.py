"""Namespaces: nested under one item on OpenAI Responses, flat names elsewhere, and calls
of every API dispatched back to the right tool, even where two namespaces reuse a name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.types import Message
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

from tests.helpers import chat_completion
from toolwire.core import (
    BaseCustomToolModel,
    BaseFunctionToolModel,
    ToolCallStarted,
    ToolCallStream,
    ToolGroup,
    ToolNamespace,
)
from toolwire.exceptions import ToolDefinitionError

crm = ToolNamespace("crm", "Customer records: find and update customers.")
billing = ToolNamespace("billing", "Invoices and payments.", defer_loading=True)


class CrmGetCustomer(BaseFunctionToolModel[None, None]):
    """Find a customer by id."""

    model_tool_namespace = crm
    model_tool_custom_name = "get_customer"

    id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"crm customer {self.id}", None


class BillingGetCustomer(BaseFunctionToolModel[None, None]):
    """Find the billing account of a customer."""

    model_tool_namespace = billing
    model_tool_custom_name = "get_customer"

    id: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"billing account {self.id}", None


class Note(BaseCustomToolModel[None, None]):
    """Write a note on the customer."""

    model_tool_namespace = crm

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return f"noted: {self.input}", None


class get_time(BaseFunctionToolModel[None, None]):
    """The time now."""

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        return "noon", None


GROUP = ToolGroup.from_list([CrmGetCustomer, get_time, BillingGetCustomer, Note])

CUSTOMER_SCHEMA = {
    "properties": {"id": {"type": "string"}},
    "required": ["id"],
    "type": "object",
}


def test_names_are_flat_in_the_group() -> None:
    """A namespaced tool's name joins the namespace's and its own with `__`."""
    assert list(GROUP) == ["crm__get_customer", "get_time", "billing__get_customer", "crm__Note"]
    assert CrmGetCustomer.model_tool_name() == "crm__get_customer"
    assert crm.flat_name("x") == "crm__x"


def test_responses_nests_each_namespace_at_its_first_tool() -> None:
    """One namespace item per namespace, where its first tool is, with its description;
    the tools inside carry their own names, and `defer_loading` where deferred."""
    definitions: list[Any] = GROUP.tool_definitions("responses")
    assert definitions == [
        {
            "type": "namespace",
            "name": "crm",
            "description": "Customer records: find and update customers.",
            "tools": [
                {
                    "type": "function",
                    "name": "get_customer",
                    "description": "Find a customer by id.",
                    "parameters": CUSTOMER_SCHEMA,
                    "strict": False,
                },
                {"type": "custom", "name": "Note", "description": "Write a note on the customer."},
            ],
        },
        {
            "type": "function",
            "name": "get_time",
            "description": "The time now.",
            "parameters": {"properties": {}, "type": "object"},
            "strict": False,
        },
        {
            "type": "namespace",
            "name": "billing",
            "description": "Invoices and payments.",
            "tools": [
                {
                    "type": "function",
                    "name": "get_customer",
                    "description": "Find the billing account of a customer.",
                    "parameters": CUSTOMER_SCHEMA,
                    "strict": False,
                    "defer_loading": True,
                }
            ],
        },
    ]
    from openai.types.responses import ToolParam

    TypeAdapter(list[ToolParam]).validate_python(definitions)  # the SDK's own param types


def test_other_apis_get_flat_names() -> None:
    """Chat Completions, Anthropic and Gemini see each tool by its flat name; Anthropic
    marks the deferred namespace's tools, and the APIs without `defer_loading` offer them
    once loaded."""
    group = ToolGroup.from_list([CrmGetCustomer, BillingGetCustomer])
    chat: list[Any] = group.tool_definitions("chat.completions")
    assert [d["function"]["name"] for d in chat] == ["crm__get_customer"]
    chat = group.tool_definitions("chat.completions", loaded=[BillingGetCustomer])
    assert [d["function"]["name"] for d in chat] == ["crm__get_customer", "billing__get_customer"]
    anthropic: list[Any] = group.tool_definitions("anthropic")
    assert [(d["name"], d.get("defer_loading")) for d in anthropic] == [
        ("crm__get_customer", None),
        ("billing__get_customer", True),
    ]
    (gemini,) = group.tool_definitions("gemini", loaded=["billing__get_customer"])
    declarations: list[Any] = gemini.function_declarations or []
    assert [d.name for d in declarations] == ["crm__get_customer", "billing__get_customer"]


def _response(*output: dict[str, Any]) -> Response:
    return Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "gpt-test",
            "output": list(output),
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "status": "completed",
        }
    )


def _call(call_id: str, name: str, namespace: str | None, arguments: str) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }
    if namespace is not None:
        item["namespace"] = namespace
    return item


RESPONSE = _response(
    _call("c1", "get_customer", "crm", '{"id": "7"}'),
    _call("c2", "get_customer", "billing", '{"id": "7"}'),
    # how the API marks a top-level tool loaded by tool search (recorded traffic)
    _call("c3", "get_time", "get_time", "{}"),
    {
        "type": "custom_tool_call",
        "id": "ctc_c4",
        "call_id": "c4",
        "name": "Note",
        "namespace": "crm",
        "input": "pays late",
    },
)


@pytest.mark.parametrize("form", ["sdk", "dicts"])
def test_responses_calls_dispatch_on_namespace_and_name(form: str) -> None:
    """Two namespaces reuse `get_customer`; each call reaches its own tool, and a
    namespace equal to the name is the top-level tool."""
    calls: Any = RESPONSE if form == "sdk" else [i.model_dump() for i in RESPONSE.output]
    results = GROUP.run_tool_calls(calls, None, api="responses")
    assert [(r.name, r.result_content) for r in results] == [
        ("crm__get_customer", "crm customer 7"),
        ("billing__get_customer", "billing account 7"),
        ("get_time", "noon"),
        ("crm__Note", "noted: pays late"),
    ]
    assert [r.call_id for r in results] == ["c1", "c2", "c3", "c4"]


def test_an_unknown_namespace_is_an_unknown_tool() -> None:
    """A namespace the group does not have: an "invalid_name" failure naming the tools."""
    (result,) = GROUP.run_tool_calls(_response(_call("c1", "get_customer", "hr", "{}")), None)
    assert result.fail_reason == "invalid_name"
    assert result.name == "hr__get_customer"
    assert "crm__get_customer" in result.result_content


def test_other_apis_call_the_flat_name() -> None:
    """Chat Completions and Anthropic calls name the flat name, and reach the tool."""
    chat = chat_completion(("billing__get_customer", {"id": "3"}))
    assert [r.result_content for r in GROUP.run_tool_calls(chat, None)] == ["billing account 3"]
    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "crm__get_customer",
                    "input": {"id": "4"},
                }
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    assert [r.result_content for r in GROUP.run_tool_calls(message, None)] == ["crm customer 4"]


def test_the_stream_names_calls_by_their_flat_name() -> None:
    """`ToolCallStarted` and the completed call carry the flat name, as dispatch needs."""
    item = _call("c1", "get_customer", "billing", '{"id": "9"}')
    events: list[Any] = [
        {"type": "response.created", "sequence_number": 0, "response": _started()},
        {
            "type": "response.output_item.added",
            "sequence_number": 1,
            "output_index": 0,
            "item": {**item, "arguments": "", "status": "in_progress"},
        },
        {
            "type": "response.function_call_arguments.delta",
            "sequence_number": 2,
            "output_index": 0,
            "item_id": "fc_c1",
            "delta": '{"id": "9"}',
        },
        {
            "type": "response.output_item.done",
            "sequence_number": 3,
            "output_index": 0,
            "item": item,
        },
        {
            "type": "response.completed",
            "sequence_number": 4,
            "response": _response(item).model_dump(),
        },
    ]
    stream = ToolCallStream("responses")
    adapter = TypeAdapter[ResponseStreamEvent](ResponseStreamEvent)
    seen = [e for raw in events for e in stream.feed(adapter.validate_python(raw))]
    started = [e for e in seen if isinstance(e, ToolCallStarted)]
    assert [e.name for e in started] == ["billing__get_customer"]
    assert [c.name for c in stream.completed_calls] == ["billing__get_customer"]
    results = GROUP.run_tool_calls(stream.final_response(), None)
    assert [r.result_content for r in results] == ["billing account 9"]


def _started() -> dict[str, Any]:
    return {**_response().model_dump(), "status": "in_progress"}


def test_a_tool_named_like_its_namespace_is_refused() -> None:
    """Responses marks top-level tools loaded by tool search with a namespace of their
    own name, so such a tool's calls could not be told apart."""
    with pytest.raises(ToolDefinitionError, match="named 'crm' like its namespace"):

        class crm_tool(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """A tool."""

            model_tool_namespace = crm
            model_tool_custom_name = "crm"


def test_namespace_mistakes_raise_when_made() -> None:
    """A namespace needs a valid name and a description; the config takes only one."""
    with pytest.raises(ToolDefinitionError, match="not valid"):
        ToolNamespace("crm tools", "Customers.")
    with pytest.raises(ToolDefinitionError, match="has no description"):
        ToolNamespace("crm", " ")
    with pytest.raises(ToolDefinitionError, match="set it to a ToolNamespace"):

        class wrong(BaseFunctionToolModel[None, None]):  # pyright: ignore[reportUnusedClass]
            """A tool."""

            model_tool_namespace = "crm"  # pyright: ignore[reportAssignmentType]


def test_two_namespaces_of_one_name_are_refused_in_a_responses_list() -> None:
    """Responses would see one namespace twice, with two descriptions."""
    other = ToolNamespace("crm", "Something else.")

    class Other(BaseFunctionToolModel[None, None]):
        """Another tool."""

        model_tool_namespace = other

        def model_tool_handler(self, context: None) -> tuple[str, None]:
            return "other", None

    group = ToolGroup.from_list([CrmGetCustomer, Other])
    with pytest.raises(ToolDefinitionError, match="Two different namespaces are named 'crm'"):
        group.tool_definitions("responses")
    assert json.dumps(group.tool_definitions("chat.completions"))  # flat names: no clash
