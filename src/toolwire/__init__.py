"""toolwire: typed tool calling for OpenAI, Anthropic and Gemini. You write the loop.

Import from `toolwire.core` (plain handlers) or `toolwire.aio` (async handlers).
"""

__version__ = "0.1.0"
