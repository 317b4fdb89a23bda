"""Minimal stub: google-genai annotates with PIL.Image; Pillow is not a dependency."""
