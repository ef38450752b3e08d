"""Following one schedule in the logs (docs/operations.md, "Follow one schedule by id"): every line the fire
function logs while it handles an occurrence carries the schedule's id, the occurrence and the attempt, so a
Logs Insights query `filter schedule_id = "<id>"` finds all of them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from cronbell.observability import logger
from tests.support.aws import Stack
from tests.support.envelopes import envelope
from tests.support.handlers import invoke
from tests.support.matrix_stand_in import MatrixStandIn, forget_wiring, matrix_env

TOKEN = "syt_fire_logs"
ROOM = "!room1:example.org"


class Records(logging.Handler):
    """Every record of the cronbell logger, as Powertools writes it (one JSON object)."""

    def __init__(self) -> None:
        super().__init__(level=logging.NOTSET)
        self.setFormatter(logger.registered_formatter)
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def records(monkeypatch: pytest.MonkeyPatch) -> Iterator[Records]:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")
    previous = logger.log_level
    logger.setLevel("INFO")
    handler = Records()
    logging.getLogger(logger.service).addHandler(handler)
    yield handler
    logging.getLogger(logger.service).removeHandler(handler)
    logger.setLevel(previous)
    forget_wiring()


def test_every_line_of_a_fire_names_its_schedule_occurrence_and_attempt(
    stack: Stack, records: Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    with MatrixStandIn(TOKEN) as matrix:
        matrix_env(stack, monkeypatch, matrix.url, TOKEN)
        made = invoke("tools", envelope("create_reminder", {"message": "Call mum", "time": "2026-11-30 10:00"}))
        schedule_id = made["result"]["id"]
        stack.clock.advance(hours=1)
        records.lines.clear()
        slot = "2026-11-30T09:00:00Z"
        event = {
            "room_id": ROOM,
            "reminder_id": schedule_id,
            "scheduled_time": slot,
            "execution_id": "e",
            "attempt": "2",
        }
        assert invoke("fire", event)["outcome"] == "delivered"
    assert records.lines, "the fire logged nothing"
    assert any(line["message"] == "fire done" for line in records.lines)
    for line in records.lines:
        assert (line.get("schedule_id"), line.get("attempt")) == (schedule_id, 2), line
        assert line.get("slot", "").startswith("2026-11-30T09:00:00"), line
        assert line.get("correlation_id") == f"{schedule_id}@{line['slot']}", line
