"""Incremental views of tool calls that arrive in fragments (private building blocks of
`ToolCallStream`): nothing here is public API."""
