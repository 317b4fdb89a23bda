"""The public surface: complete `__all__`, the same names in core and aio, no SDK imports."""

from __future__ import annotations

import subprocess
import sys

import toolwire.aio
import toolwire.core
import toolwire.exceptions
import toolwire.testing

NAMESPACE_SPECIFIC = {
    "BaseCustomToolModel",
    "BaseFunctionToolModel",
    "FunctionToolGroup",
    "ToolGroup",
    "ToolModelType",
}


def public_names(module: object) -> list[str]:
    return sorted(
        (name for name in vars(module) if not name.startswith("_") and name != "annotations"),
        key=str.casefold,
    )


def test_all_lists_every_public_name_sorted() -> None:
    """Each public module's __all__ is complete and sorted, as in httpx."""
    for module in (toolwire.core, toolwire.aio, toolwire.exceptions, toolwire.testing):
        exported: list[str] = list(module.__all__)
        assert exported == sorted(exported, key=str.casefold), module.__name__
        missing = [name for name in exported if not hasattr(module, name)]  # some load lazily
        assert not missing, module.__name__


def test_importing_core_loads_only_what_a_plain_dispatch_needs() -> None:
    """The schema compiler, streaming, the adapters, toolcall's definition models and
    asyncio load on first use, not on import; reading one of their names loads it (the
    stream's toolkit loads when a stream is made)."""
    code = (
        "import sys, toolwire.core\n"
        "lazy = ('toolwire._schema', 'toolwire._stream', 'toolwire._streaming', "
        "'toolwire._adapters', 'toolwire._standard', 'asyncio', 'toolwire.mcp', 'openai', "
        "'anthropic', 'google.genai')\n"
        "print(sorted(m for m in lazy if m in sys.modules))\n"
        "toolwire.core.ToolCallStream, toolwire.core.SchemaReport\n"
        "print(sorted(m for m in lazy if m in sys.modules))\n"
        "toolwire.core.ToolCallStream('chat.completions')\n"
        "print(sorted(m for m in lazy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "[]",
        "['toolwire._schema', 'toolwire._stream']",
        "['toolwire._adapters', 'toolwire._schema', 'toolwire._stream', 'toolwire._streaming']",
    ]


def test_core_and_aio_have_the_same_names_and_share_the_neutral_objects() -> None:
    """Same member names; everything but the tool bases and groups is the same object."""
    assert toolwire.core.__all__ == toolwire.aio.__all__
    for name in toolwire.core.__all__:
        same = getattr(toolwire.core, name) is getattr(toolwire.aio, name)
        assert same is (name not in NAMESPACE_SPECIFIC), name


def test_importing_the_namespaces_imports_no_sdk() -> None:
    """`import toolwire.core` / `toolwire.aio` load no provider SDK."""
    code = (
        "import sys, toolwire.core, toolwire.aio\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'openai', 'anthropic', 'google'})\n"
        "print(loaded)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_using_one_api_imports_only_its_sdk() -> None:
    """Building a chat definition and dispatching chat calls imports openai only."""
    code = (
        "import sys\n"
        "from toolwire.core import BaseFunctionToolModel, ToolGroup, StandardToolCall\n"
        "class t(BaseFunctionToolModel[None, None]):\n"
        "    x: int\n"
        "    def model_tool_handler(self, context): return 'ok', None\n"
        "g = ToolGroup.from_list([t])\n"
        "g.tool_definitions('chat.completions')\n"
        "[r.tool_message for r in g.run_tool_calls([{'id': 'c', 'type': 'function', 'function': {'name': 't', 'arguments': '{\"x\": 1}'}}], None)]\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'openai', 'anthropic', 'google'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_each_fake_codec_imports_on_its_own() -> None:
    """Importing an API's fake codec before toolwire.testing meets no import cycle."""
    for module in ("openai_chat", "openai_responses", "anthropic", "gemini"):
        code = f"import toolwire.testing._{module}.fake"
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
