"""Anthropic Messages: definitions, calls in, results out, history, streaming (its fake
server is in `toolwire.testing._anthropic`).

The package itself imports nothing from the SDK, so `results` can be used by the
neutral result objects without importing `anthropic`.
"""
