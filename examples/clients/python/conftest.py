# SPDX-License-Identifier: BSL-1.0
"""pytest fixtures: one reference server per session, a fresh team per test.

Copy this file (and esign_reference.py) next to your tests; the server is found
from $ESIGN_SERVER or PATH.
"""
import pytest

from esign_reference import start_server


@pytest.fixture(scope="session")
def esign_server():
    """The reference server, started once for the whole test session."""
    with start_server() as server:
        yield server


@pytest.fixture
def esign_team(esign_server, request):
    """A new team for each test, named after the test; teams never see each other's data."""
    return esign_server.create_team(name=request.node.name[:100])
