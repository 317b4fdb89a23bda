"""The testing wing's layout: one package per API, found through the registry.

`toolwire.testing._kits.kit(api)` loads the wing's package named after the API's adapter
folder (from its entry in `toolwire._api`). `tests/test_architecture.py` holds the rest
of the layout (no shared module of the wing names an API; no adapter imports the wing).
"""

from __future__ import annotations

import pytest

from toolwire._api import API_NAMES, Api
from toolwire.testing._kits import kit


@pytest.mark.parametrize("api", API_NAMES)
def test_the_registry_finds_each_apis_own_package(api: Api) -> None:
    found = kit(api)
    assert found.codec().api == api
    assert (found.chained_history_problems is not None) == (api == "responses")
