"""End-to-end fixtures: `python -m sandbox serve` in a subprocess on free ports, driven only through its
endpoints, with boto3 and HTTP, as a bot would."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox.demo import SandboxProcess
from tests.support.sandbox import StartSandbox


@pytest.fixture
def start_sandbox() -> Iterator[StartSandbox]:
    """Starts `python -m sandbox serve ARGS...`; every sandbox started is stopped at teardown."""
    started: list[SandboxProcess] = []

    def start(*args: str) -> SandboxProcess:
        process = SandboxProcess(*args)
        started.append(process)
        return process.start()

    yield start
    for process in started:
        process.stop()
        print(f"--- sandbox log (last lines) ---\n{process.tail()}")  # shown by pytest when a test fails
        process.log.unlink(missing_ok=True)
