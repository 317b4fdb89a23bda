"""Google Gemini (google-genai): definitions, calls in, results out, history, streaming (its fake
server is in `toolwire.testing._gemini`).

The package itself imports nothing from the SDK; `results` imports `google.genai`
only when a Gemini result is actually rendered.
"""
