"""Runs examples offline and captures what they print (used by `python -m examples`,
the tests and generate_readme.py)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import io
import os
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent
API_KEYS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OLLAMA_BASE_URL",
    "GROQ_API_KEY",
    "OPENROUTER_API_KEY",
)
"""What makes an example talk to a live server: hidden while it runs offline."""
ORDER = ("chat", "responses", "anthropic", "gemini")
KINDS = (
    "tool",
    "group",
    "output",
    "stream",
    "media",
    "traced",
    "approval",
    "approval_edit",
    "external",
    "mcp",
    "search",
)


def example_names() -> list[str]:
    """Every example module: the quickstart, then grouped by API then kind, sync before
    async."""
    names = [p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("_")]

    def key(name: str) -> tuple[int, int, str]:
        if name == "quickstart":
            return (-1, 0, name)
        api, _, rest = name.partition("_")
        kind = rest.removesuffix("_async")
        api_rank = ORDER.index(api) if api in ORDER else len(ORDER)
        kind_rank = KINDS.index(kind) if kind in KINDS else len(KINDS)
        return (api_rank, kind_rank, name)

    return sorted(names, key=key)


@contextlib.contextmanager
def offline() -> Generator[None]:
    """Hide API keys so every example builds its toolwire.testing fake."""
    saved = {key: os.environ.pop(key) for key in API_KEYS if key in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def run(name: str) -> str:
    """Import `examples.<name>` afresh (so its fake starts anew) offline, run its `main()`
    (a flat script, like the quickstart, runs when imported), and return what it
    printed."""
    buffer = io.StringIO()
    sys.modules.pop(f"examples.{name}", None)
    _forget_tracer_provider()
    with offline(), contextlib.redirect_stdout(buffer):
        module = importlib.import_module(f"examples.{name}")
        main: Callable[[], Any] | None = getattr(module, "main", None)
        if main is not None and inspect.iscoroutinefunction(main):
            asyncio.run(main())
        elif main is not None:
            main()
    return buffer.getvalue()


def _forget_tracer_provider() -> None:
    """Let a traced example set OpenTelemetry's global provider again when it runs a
    second time in one process (OpenTelemetry allows setting it once per process)."""
    trace: Any = sys.modules.get("opentelemetry.trace")
    if trace is not None:
        from opentelemetry.util._once import Once

        trace._TRACER_PROVIDER = None
        trace._TRACER_PROVIDER_SET_ONCE = Once()
