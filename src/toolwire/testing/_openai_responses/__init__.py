"""The testing wing's OpenAI Responses: the fake's `/responses` endpoint (`fake`), the
history, media and tool-definition rules it enforces, and the rules on a history
chained with `previous_response_id`.

`KIT` holds them for the API-neutral modules (`toolwire.testing._kits`).
"""

from __future__ import annotations

from .fake import KIT

__all__ = ["KIT"]
