"""Runnable examples; `python -m examples` runs them all, offline."""
