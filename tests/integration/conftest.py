"""Shared fixtures for integration tests: a real Synapse homeserver on loopback, a local HTTP server
that plays a chat platform, and mocked AWS for the secret store.

Each pytest-xdist worker starts its own server (free port, own temporary directory) the
first time a test asks for one, and stops it when the session ends.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from moto import mock_aws

from sandbox.synapse import MatrixRoom, SynapseServer
from tests.support.fake_platform import FakePlatform


@pytest.fixture(scope="session")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SynapseServer]:
    """A homeserver with relaxed rate limits."""
    with SynapseServer(tmp_path_factory.mktemp("synapse")) as server:
        yield server


@pytest.fixture(scope="session")
def rate_limited_synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SynapseServer]:
    """A homeserver whose message rate limit a short burst exceeds (429 M_LIMIT_EXCEEDED)."""
    with SynapseServer(tmp_path_factory.mktemp("synapse-rate-limited"), rate_limited=True) as server:
        yield server


@pytest.fixture
def matrix_room(synapse: SynapseServer) -> MatrixRoom:
    """A fresh bot, user and room on the shared homeserver (fresh names, so tests never collide)."""
    suffix = uuid.uuid4().hex[:8]
    return synapse.provision_room(bot=f"bot-{suffix}", user=f"ana-{suffix}", name=f"room {suffix}")


@pytest.fixture
def platform() -> Iterator[FakePlatform]:
    with FakePlatform() as server:
        yield server


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from aws_lambda_powertools.utilities import parameters

    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    parameters.clear_caches()
    with mock_aws():
        yield
    parameters.clear_caches()
