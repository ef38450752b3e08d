"""Fixtures shared by every level: a moto server in server mode and the stack on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cronbell.adapters import clock as clock_module
from sandbox.aws_server import MotoServer
from tests.support.aws import START, FakeClock, Stack, provision, set_aws_env

pytest_plugins = ["tests.support.built"]  # the `built` fixture: .aws-sam/build, rebuilt when stale


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    server = MotoServer().start()
    endpoint = server.url
    set_aws_env(endpoint)
    yield endpoint
    server.stop()


@pytest.fixture
def clock() -> Iterator[FakeClock]:
    fake = FakeClock(START)
    clock_module.install(fake)
    yield fake
    clock_module.install(clock_module.SystemClock())


@pytest.fixture
def stack(moto_endpoint: str, clock: FakeClock) -> Stack:
    return provision(moto_endpoint, clock)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under xdist, a worker hands its figures to the controller, which prints them all."""
    from tests.support import figures

    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["figures"] = {search: dict(counts) for search, counts in figures.TALLIES.items()}


def pytest_testnodedown(node: object, error: object) -> None:
    from tests.support import figures

    for search, counts in getattr(node, "workeroutput", {}).get("figures", {}).items():
        figures.add(search, **counts)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the model-based searches covered (tests/support/figures.py)."""
    from tests.support import figures

    found = figures.lines()
    if found:
        terminalreporter.section("model-based search")
        for line in found:
            terminalreporter.write_line(line)
