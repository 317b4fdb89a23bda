"""What the pending-call tests share: a `pay` tool that needs approval (its handler raises
on invoice "BOOM"), the log of what ran, calls as Anthropic `tool_use` blocks, and
results as tuples to compare."""

from __future__ import annotations

from typing import Any

from toolwire.core import BaseFunctionToolModel

RAN: list[str] = []
"""What the handlers ran, in order; each test module clears it before each test."""


class pay(BaseFunctionToolModel[None, None]):
    """Pay an invoice."""

    model_tool_requires_approval = True
    invoice: str

    def model_tool_handler(self, context: None) -> tuple[str, None]:
        RAN.append(f"pay {self.invoice}")
        if self.invoice == "BOOM":
            raise RuntimeError("the bank is down")
        return f"Paid {self.invoice}.", None


def use(call_id: str, name: str, **arguments: str) -> dict[str, Any]:
    """An Anthropic `tool_use` block (dict form)."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def answers(results: list[Any]) -> list[tuple[str, str | None, str]]:
    """Each result as (call id, fail reason, the text the model reads)."""
    return [(r.call_id, r.fail_reason, r.result_content) for r in results]
