"""Fixtures the interleaving tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox.aws_server import MotoServer
from tests.support.aws import FakeClock, Stack, provision


@pytest.fixture(scope="module")
def local_moto(moto_endpoint: str) -> Iterator[str]:
    """A moto server that this process's clients reach without HTTP (a killed worker still reaches it
    over HTTP), with moto's transaction backup limited to the items a transaction names. (The
    session's server stays as it is; its fixture sets the test credentials.)"""
    server = MotoServer(in_process=True, fast_transactions=True).start()
    yield server.url
    server.stop()


@pytest.fixture
def base(local_moto: str, clock: FakeClock) -> Stack:
    return provision(local_moto, clock)
