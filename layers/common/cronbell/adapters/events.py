"""Announcing runs on an EventBridge bus: one PutEvents per event, source `cronbell`."""

from __future__ import annotations

import json
from typing import Any

from cronbell.adapters.aws import Translating
from cronbell.core.domain.errors import BackendError

SOURCE = "cronbell"


class BusEvents:
    """The `cronbell.core.domain.ports.Events` on an EventBridge bus."""

    def __init__(self, client: Any, bus_name: str) -> None:
        self._client = Translating(client)
        self._bus = bus_name

    def publish(self, detail_type: str, detail: dict[str, Any]) -> None:
        entry = {"Source": SOURCE, "DetailType": detail_type, "Detail": json.dumps(detail), "EventBusName": self._bus}
        out = self._client.put_events(Entries=[entry])
        if out.get("FailedEntryCount"):
            failed = (out.get("Entries") or [{}])[0]
            raise BackendError(f"event not accepted: {failed.get('ErrorCode', 'unknown')}")
