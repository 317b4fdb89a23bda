"""Test-wide settings: no test may reach the network or a real API key."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _no_api_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force offline behaviour even on a machine where API keys are set."""
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(key, raising=False)


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("TOOLWIRE_TESTING", "1")
