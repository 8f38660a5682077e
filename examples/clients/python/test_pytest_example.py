# SPDX-License-Identifier: BSL-1.0
"""A test suite written with pytest and the fixtures of conftest.py.

Run: python3 -m pytest -p no:cacheprovider examples/clients/python/test_pytest_example.py
"""
import pytest

from esign_reference import EsignError


def test_a_draft_envelope_is_listed(esign_team):
    created = esign_team.create_envelope("Contract", tags=["sales"])
    listed = esign_team.call("/public/envelope/list", {"tags": ["sales"]})["envelopes"]
    assert [e["uuid"] for e in listed] == [created["envelopeUuid"]]
    assert listed[0]["status"] == "draft"


def test_a_fresh_team_sees_nothing_of_another(esign_server, esign_team):
    envelope = esign_team.create_envelope("Private")["envelopeUuid"]
    other = esign_server.create_team()
    with pytest.raises(EsignError) as caught:
        other.call("/public/envelope/get", {"envelopeUuid": envelope})
    assert (caught.value.status, caught.value.code) == (400, "ENVELOPE_NOT_FOUND")


def test_my_retry_logic_sees_a_server_error(esign_team):
    esign_team.add_fault("/public/envelope/list", error="INTERNAL_SERVER_ERROR")
    with pytest.raises(EsignError) as caught:
        esign_team.call("/public/envelope/list", {})
    assert caught.value.status == 500
    assert esign_team.call("/public/envelope/list", {})["envelopes"] == []
