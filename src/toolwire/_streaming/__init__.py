"""The toolkit every API's stream accumulator is built from: the events, the argument
preview and its JSON scanner, the call tracker and the item gate.

It sits below the adapters (nothing here imports one); the public `ToolCallStream`,
which drives an adapter's accumulator, stands above them in `toolwire._stream`.
"""
