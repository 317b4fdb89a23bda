"""OpenAI Responses: definitions, calls in, results out, history, streaming, fake.

The package itself imports nothing from the SDK, so `results` can be used by the
neutral result objects without importing `openai`.
"""
