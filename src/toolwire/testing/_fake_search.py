"""What the fakes' server-run tool search finds, for the codecs of the APIs whose server
searches (Responses, Anthropic); the refusal of a scripted search elsewhere, and of a
scripted call to a deferred tool no search has loaded (the live model cannot see it).

The search looks through the request's deferred tools only (`defer_loading: true`), as
the live servers do: a `FakeSearch(found=...)` names its finds, each of which must be
such a tool; without `found`, a deferred tool is found when its name (split at `_` and
camelCase) or description shares a word with a query, words read as toolwire's own
search reads them (`toolwire._search.words`: lower-cased, plurals made singular, common
words dropped), in the request's order.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from .._search import words
from ._fake import FakeCall, FakeReply, FakeRequest, FakeSearch, RejectedRequest

__all__ = ["refuse_hidden_calls", "refuse_search", "server_search_finds"]


def server_search_finds(
    search: FakeSearch, deferred: Mapping[str, str], offered: Collection[str]
) -> list[str]:
    """The names of the deferred tools `search` finds. `deferred`: name -> description of
    the request's deferred tools, in order; `offered`: the names of all its tools."""
    if search.found is not None:
        for name in search.found:
            if name not in deferred:
                why = (
                    "is not deferred (defer_loading: true)"
                    if name in offered
                    else "is not in the request's tools"
                )
                raise RejectedRequest(
                    f"toolwire fake: FakeSearch(found=...) names {name!r}, which {why}; the "
                    "server's search finds only the request's deferred tools. Name those, or "
                    "leave found out to let the fake match the queries."
                )
        return list(search.found)
    wanted = {word for query in search.query_list for word in words(query)}
    return [
        name
        for name, description in deferred.items()
        if wanted.intersection(words(f"{name} {description}"))
    ]


def refuse_search(reply: FakeReply, where: str) -> None:
    """Refuse a scripted search on an API (named by `where`) whose server has none."""
    if reply.search is not None:
        raise RejectedRequest(
            f"toolwire fake: FakeReply(search=...) is a search the server runs, and {where} "
            "has none. Script the call to the group's search tool instead: "
            'FakeCall("tool_search", {"queries": [...]}).'
        )


def refuse_hidden_calls(
    calls: Sequence[FakeCall], request: FakeRequest, found: Collection[str]
) -> None:
    """Refuse a scripted call to a deferred tool that no search loaded, in the history
    or (`found`) earlier in this turn."""
    hidden = {tool.name for tool in request.tools if tool.hidden}.difference(found)
    for call in calls:
        if call.name in hidden:
            raise RejectedRequest(
                f"toolwire fake: the reply calls {call.name!r}, a deferred tool "
                "(defer_loading: true) that no search has loaded, so the model cannot call "
                'it. Load it first: a search in this turn, FakeReply(search=FakeSearch("...")'
                ", calls=...), or in an earlier one."
            )
