"""Run history planted straight into the table, as the fire function leaves it after many runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from cronbell.core.domain.instants import iso_utc

FIRST = datetime(2025, 1, 1, 8, tzinfo=UTC)


def plant_runs(ddb: Any, table: str, room_id: str, schedule_id: str, count: int) -> None:
    """`count` finished runs of one schedule (done slot items holding their run), 25 per batch."""
    requests = [
        {
            "PutRequest": {
                "Item": {
                    "room_id": {"S": room_id},
                    "sk": {"S": f"f#{schedule_id}#{iso_utc(FIRST + timedelta(hours=n))}"},
                    "state": {"S": "done"},
                    "run": {
                        "M": {
                            "scheduled_time": {"S": "2025-01-01T09:00:00+01:00"},
                            "outcome": {"S": "delivered"},
                            "reason": {"NULL": True},
                            "manual": {"BOOL": False},
                            "late_seconds": {"N": "0"},
                            "message_id": {"S": f"$m{n}"},
                        }
                    },
                }
            }
        }
        for n in range(count)
    ]
    for start in range(0, len(requests), 25):
        ddb.batch_write_item(RequestItems={table: requests[start : start + 25]})
