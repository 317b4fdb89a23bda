"""OpenAI Chat Completions: definitions, calls in, results out, history, streaming (its fake
server is in `toolwire.testing._openai_chat`).

The package itself imports nothing from the SDK, so `results` can be used by the
neutral result objects without importing `openai`.
"""
