"""Google Gemini (google-genai): definitions, calls in, results out, history, streaming, fake.

The package itself imports nothing from the SDK; `results` imports `google.genai`
only when a Gemini result is actually rendered.
"""
