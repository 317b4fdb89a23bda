"""The testing wing's OpenAI Chat Completions: the fake's `/chat/completions` endpoint
(`fake`) and the history, media and tool-definition rules it enforces.

`KIT` holds them for the API-neutral modules (`toolwire.testing._kits`).
"""

from __future__ import annotations

from .fake import KIT

__all__ = ["KIT"]
