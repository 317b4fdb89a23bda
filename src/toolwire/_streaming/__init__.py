"""Streaming: one accumulator for the four APIs, with live argument previews."""
