"""Test-wide settings: no test may reach the network or a real API key, and property
tests run as many examples as the suite's strength says (tests/strength.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from tests.strength import FULL, scaled

# Hypothesis's own caches (Unicode tables, constants read from the source) save seconds
# per process: they live in the user's cache folder, not in the project.
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(CACHE / "toolwire" / "hypothesis"))

# Loaded here, before any test module builds its own `settings(...)` on the profile.
# CI draws fresh examples on every run and prints how to replay a failure
# (@reproduce_failure); the quick run draws the same examples each time, so a failure
# there comes back on the next run. Neither keeps a database of examples.
PROFILE = "full" if FULL else "quick"
# No timing checks either (deadline, too_slow): on a shared two-core machine they fail
# on load, not on a defect, and the project keeps timing out of its tests.
settings.register_profile(
    PROFILE,
    max_examples=scaled(100),
    derandomize=not FULL,
    database=None,
    print_blob=FULL,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(PROFILE)

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


@pytest.fixture(autouse=True)
def _no_api_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force offline behaviour even on a machine where API keys are set."""
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(key, raising=False)


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("TOOLWIRE_TESTING", "1")


@pytest.fixture
def pydantic_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the classes whose field docstrings pydantic's own reader read (it
    searches the call stack for each class's source)."""
    from pydantic._internal import _fields

    read: list[str] = []
    original: Callable[..., dict[str, str]] = _fields.extract_docstrings_from_cls  # pyright: ignore[reportPrivateImportUsage]

    def spy(cls: type, use_inspect: bool = False) -> dict[str, str]:
        read.append(cls.__name__)
        return original(cls, use_inspect=use_inspect)

    monkeypatch.setattr(_fields, "extract_docstrings_from_cls", spy)
    yield read


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemorySpanExporter]:
    """The application's tracer provider, for this test only (OpenTelemetry lets a
    process set its global provider once). Imported here, not at the top: the other
    tests run without OpenTelemetry loaded, as most applications do."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", provider)
    yield exporter
    provider.shutdown()
