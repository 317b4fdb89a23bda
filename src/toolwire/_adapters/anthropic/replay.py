"""The assistant turn as Anthropic accepts it back: response content blocks turned into
the SDK's param dicts. No SDK import.

`Message.to_param()` hands back the response models themselves, which serialize keys
the param types do not define (a citation's `file_id`) and, dumped naively, `None`
values they do not allow (`caller: None`). Here every block becomes a plain,
JSON-serializable dict holding only keys its param `TypedDict` defines (the table
below, checked against the installed SDK by the tests) and no `None` values (no
param key is both required and nullable). Thinking signatures and redacted thinking
data are copied as they are, and blocks keep their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..._json import copy_json

__all__ = ["PARAM_KEYS", "block_param"]

PARAM_KEYS: dict[str, frozenset[str]] = {
    kind: frozenset(keys.split())
    for kind, keys in {
        "text": "type text citations cache_control",
        "thinking": "type thinking signature",
        "redacted_thinking": "type data",
        "tool_use": "type id name input caller toolset_name cache_control",
        "server_tool_use": "type id name input caller cache_control",
        "web_search_tool_result": "type tool_use_id content caller cache_control",
        "web_fetch_tool_result": "type tool_use_id content caller cache_control",
        "code_execution_tool_result": "type tool_use_id content cache_control",
        "bash_code_execution_tool_result": "type tool_use_id content cache_control",
        "text_editor_code_execution_tool_result": "type tool_use_id content cache_control",
        "tool_search_tool_result": "type tool_use_id content cache_control",
        "container_upload": "type file_id cache_control",
        # Beta-only blocks (`client.beta.messages`).
        "advisor_tool_result": "type tool_use_id content cache_control",
        "mcp_tool_use": "type id name input server_name cache_control",
        "mcp_tool_result": "type tool_use_id content is_error cache_control",
        "mcp_tool_listing": "type mcp_server_name tools",
        "compaction": "type content encrypted_content signature tool_changes cache_control",
        "fallback": "type from to trigger",
        "tool_addition": "type tool cache_control",
        "tool_removal": "type tool cache_control",
    }.items()
}
"""Keys each content block's param `TypedDict` defines, by block `type` (the same in
`ContentBlockParam` and `BetaContentBlockParam` where both have the block)."""

_CITATIONS_WITHOUT_FILE_ID = frozenset({"char_location", "page_location", "content_block_location"})
"""Citation types whose response model has a `file_id` that their param does not define."""

_OPAQUE_KEYS = frozenset({"input", "input_schema"})
"""Keys holding the model's or the user's own JSON, copied as they are (None kept)."""


def block_param(block: object, call_id: str | None = None) -> dict[str, Any]:
    """The param dict replaying one response content block (an SDK model or its dict form).

    `call_id` is the id to write on a `tool_use` block that came without one.
    """
    kind = getattr(block, "type", None)
    if kind == "tool_use":
        param: dict[str, Any] = {
            "type": "tool_use",
            "id": getattr(block, "id", None) or call_id,
            "name": getattr(block, "name", ""),
            "input": copy_json(getattr(block, "input", None) or {}),
        }
        caller = getattr(block, "caller", None)
        if caller is not None:
            param["caller"] = _plain(caller)
        toolset_name = getattr(block, "toolset_name", None)
        if toolset_name is not None:
            param["toolset_name"] = toolset_name
        return param
    if kind == "text":
        param = {"type": "text", "text": getattr(block, "text", "")}
        citations: list[Any] | None = getattr(block, "citations", None)
        if citations:
            param["citations"] = [_plain(c) for c in citations]
        return param
    if kind == "thinking":
        return {
            "type": "thinking",
            "thinking": getattr(block, "thinking", ""),
            "signature": getattr(block, "signature", ""),
        }
    if kind == "redacted_thinking":
        return {"type": "redacted_thinking", "data": getattr(block, "data", "")}
    if isinstance(block, Mapping):
        data = cast("Mapping[str, Any]", block)
        keys = PARAM_KEYS.get(data.get("type", ""))
        if keys is not None:  # drop unknown keys before cleaning: they are never read
            data = {k: v for k, v in data.items() if k in keys}
        param = _plain_dict(data)
        if param.get("type") == "tool_use" and not param.get("id"):
            param["id"] = call_id
        return param
    param = _plain(block)
    if not isinstance(param, dict):
        raise TypeError(f"Not an Anthropic content block: a {type(block).__name__}.")
    keys = PARAM_KEYS.get(param.get("type", ""))
    if keys is None:
        return param  # a block type this table does not know yet: replay what it holds
    return {k: v for k, v in param.items() if k in keys}


def _plain(value: object) -> Any:
    """An SDK model as JSON-like data: fields by their wire names, None fields left out,
    dict fields (free-form JSON such as `input`) copied as they are."""
    fields: Any = getattr(type(value), "model_fields", None)
    if fields is None:
        if isinstance(value, list | tuple):
            return [_plain(v) for v in cast("list[Any]", value)]
        if isinstance(value, Mapping):
            return _plain_dict(cast("Mapping[str, Any]", value))
        return value
    out: dict[str, Any] = {}
    for name, info in cast("dict[str, Any]", fields).items():
        item = getattr(value, name, None)
        if item is None:
            continue
        key: str = info.alias or name
        out[key] = copy_json(item) if isinstance(item, dict) else _plain(item)
    if out.get("type") in _CITATIONS_WITHOUT_FILE_ID:
        out.pop("file_id", None)
    return out


def _plain_dict(value: Mapping[str, Any]) -> dict[str, Any]:
    """A block's dict form cleaned like `_plain`: None values dropped at every level,
    except inside free-form JSON (`input`, `input_schema`)."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        if item is None:
            continue
        if key in _OPAQUE_KEYS:
            out[key] = copy_json(item)
        elif isinstance(item, Mapping):
            out[key] = _plain_dict(cast("Mapping[str, Any]", item))
        elif isinstance(item, list | tuple):
            out[key] = [_plain(v) for v in cast("list[Any]", item)]
        else:
            out[key] = item
    if out.get("type") in _CITATIONS_WITHOUT_FILE_ID:
        out.pop("file_id", None)
    return out
