"""toolwire as the MCP client of servers nobody here wrote: the reference servers
`mcp-server-time` and `mcp-server-git`, started as subprocesses over stdio."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from inline_snapshot import snapshot
from mcp import Client

from toolwire.aio import ToolGroup, tool_result_messages
from toolwire.mcp import MCPTools

from .servers import reference_server, run


def chat_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def test_time_server_tools_are_strict_and_answer_every_call() -> None:
    async def body() -> tuple[Any, ...]:
        async with Client(reference_server("mcp-server-time")) as client:
            server = await MCPTools.load(client, timeout=20)
            group = ToolGroup.from_list(server.tools)
            results = await group.run_tool_calls(
                [
                    chat_call("c1", "get_current_time", {"timezone": "Europe/Paris"}),
                    chat_call("c2", "get_current_time", {"timezone": 5}),
                    chat_call("c3", "get_current_time", {"timezone": "Nowhere/Atlantis"}),
                    chat_call("c4", "convert_time", {"source_timezone": "Etc/UTC"}),
                ],
                None,
            )
            return server, group.tool_definitions("chat.completions")[0], results

    server, definition, results = run(body)
    assert server.server == "'mcp-time'"
    assert [tool.model_tool_name() for tool in server.tools] == ["get_current_time", "convert_time"]
    assert [tool.mcp_strict_refused for tool in server.tools] == [None, None]
    assert definition == snapshot(
        {
            "type": "function",
            "function": {
                "name": "get_current_time",
                "description": "Get current time in a specific timezone",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "timezone": {
                            "description": "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'Etc/UTC' as local timezone if no timezone provided by the user.",
                            "title": "Timezone",
                            "type": "string",
                        }
                    },
                    "required": ["timezone"],
                    "title": "get_current_timeArguments",
                    "additionalProperties": False,
                },
                "strict": True,
            },
        }
    )
    paris, wrong_type, unknown_zone, missing = results
    assert paris.fail_reason is None
    assert set(json.loads(paris.result_content)) == {
        "timezone",
        "datetime",
        "day_of_week",
        "is_dst",
    }
    assert (wrong_type.fail_reason, wrong_type.result_content) == snapshot(
        (
            "invalid_arguments",
            """\
Invalid arguments for 'get_current_time': 1 error. Fix them and call the tool again.
- timezone: 5 is not of type 'string' (got 5)\
""",
        )
    )
    assert unknown_zone.fail_reason == "explicit_handler_error"
    assert unknown_zone.result_content.startswith("The tool 'get_current_time' reported an error:")
    assert "Invalid timezone" in unknown_zone.result_content
    assert (missing.fail_reason, missing.result_content) == snapshot(
        (
            "invalid_arguments",
            """\
Invalid arguments for 'convert_time': 2 errors. Fix them and call the tool again.
- time: Field required
- target_timezone: Field required\
""",
        )
    )


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def test_git_server_on_a_temporary_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "notes.txt").write_text("first\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "Add the notes")
    (repo / "todo.txt").write_text("ship it\n")
    path = str(repo)

    async def body() -> tuple[Any, ...]:
        async with Client(reference_server("mcp-server-git", "--repository", path)) as client:
            server = await MCPTools.load(client, prefix="repo_", timeout=20)
            group = ToolGroup.from_list(server.tools)
            log = next(t for t in server.tools if t.model_tool_name() == "repo_git_log")
            results = await group.run_tool_calls(
                [
                    # Anthropic-shaped calls: the arguments arrive as a dict.
                    {"type": "tool_use", "id": "t1", "name": "repo_git_status",
                     "input": {"repo_path": path}},
                    # Strict: an optional argument arrives as null, meaning "leave it out".
                    {"type": "tool_use", "id": "t2", "name": "repo_git_log",
                     "input": {"repo_path": path, "max_count": 5, "start_timestamp": None,
                               "end_timestamp": None}},
                    # minItems: answered without a round trip to the server.
                    {"type": "tool_use", "id": "t3", "name": "repo_git_add",
                     "input": {"repo_path": path, "files": []}},
                    {"type": "tool_use", "id": "t4", "name": "repo_git_add",
                     "input": {"repo_path": path, "files": ["todo.txt"]}},
                    {"type": "tool_use", "id": "t5", "name": "repo_git_status",
                     "input": {"repo_path": path}},
                ],
                None,
                api="anthropic",
                max_concurrency=1,  # in order: the last status must see the add before it
            )  # fmt: skip
            return log, results

    log, results = run(body)
    assert log.model_tool_strict
    # Strict on OpenAI: every property required, the optional ones nullable.
    parameters: Any = log.model_tool_definition("chat.completions")["function"]["parameters"]
    assert sorted(parameters["required"]) == sorted(parameters["properties"])
    assert parameters["properties"]["max_count"] == {
        "anyOf": [{"type": "integer"}, {"type": "null"}],
        "title": "Max Count",
        "description": "Send null to use the default (10).",
    }
    status, history, empty_add, add, status_after = results
    assert [r.fail_reason for r in results] == [
        None,
        None,
        "invalid_arguments",
        None,
        None,
    ]
    assert "todo.txt" in status.result_content
    assert "Add the notes" in history.result_content
    assert empty_add.result_content == snapshot(
        """\
Invalid arguments for 'repo_git_add': 1 error. Fix them and call the tool again.
- files: [] should be non-empty (got an array)\
"""
    )
    assert add.result_content == "Files staged successfully"
    assert "Changes to be committed" in status_after.result_content
    blocks: Any = tool_result_messages(results, "anthropic")[0]["content"]
    assert [block["tool_use_id"] for block in blocks] == [
        "t1",
        "t2",
        "t3",
        "t4",
        "t5",
    ]
