"""The testing wing's Anthropic Messages: `FakeAnthropic`, its `/v1/messages` endpoint
(`fake`), and the history, media and tool-definition rules it enforces.

`KIT` holds them for the API-neutral modules (`toolwire.testing._kits`).
"""

from __future__ import annotations

from .fake import KIT

__all__ = ["KIT"]
