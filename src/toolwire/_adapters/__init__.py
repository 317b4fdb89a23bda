"""One package per API (and per dialect of an API): everything toolwire needs about it
in production.

Each folder holds `adapter.py` (its `ADAPTER`: definitions, tool choice, calls in,
results out, history, turn status), `stream.py` (its stream accumulator), and the
modules those share. The registry (`toolwire._api`) imports a folder's adapter on
first use; nothing here imports the testing wing.
"""
