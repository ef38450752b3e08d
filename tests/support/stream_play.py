"""The table's stream as the projector meets it, played by the tests: promptly, late, again, or with
different items' records interleaved.

DynamoDB Streams keeps one item's records in order and promises nothing across items (they may be
in different shards, read by different invocations); Lambda delivers a batch again from the record
that failed (a partial batch failure) or whole (a timeout), so a suffix of what was applied may be
applied once more, in order. `Stream.settle` applies what the functions wrote so far, after an
invocation, in one of these ways:

- `prompt`: every record, in order (what the sandbox does after every invocation);
- `late`: only the records that were waiting already; this invocation's wait for the next settle
  (the projector lags: another call, a fire, runs before its entries follow);
- `again`: every record, then the records from a random one on, once more (redelivery);
- `interleaved`: every record, different items' records in a random interleaving, each item's own
  in order.

`flush` applies every record still waiting, in order: before Scheduler is read to decide what fires
(production's lag is seconds; no test fire falls inside it).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.support.aws import Stack

MODES = ("prompt", "late", "again", "interleaved")


@dataclass
class Stream:
    stack: Stack
    mode: str = "prompt"
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    waiting: list[dict[str, Any]] = field(default_factory=list)
    applied: int = 0  # records applied, redeliveries included
    redelivered: int = 0

    def __post_init__(self) -> None:
        assert self.mode in MODES, self.mode

    def _apply(self, records: list[dict[str, Any]]) -> None:
        from cronbell.adapters.dynamo.codec import stream_change
        from cronbell.usecases.project import apply

        deps = self.stack.deps()
        for record in records:
            apply(stream_change(record), deps)
        self.applied += len(records)

    def _pull(self) -> list[dict[str, Any]]:
        return self.stack.stream_records()

    def settle(self) -> None:
        """Apply what the functions wrote so far, as `mode` says."""
        if self.mode == "late":
            ready, self.waiting = self.waiting, self._pull()
            self._apply(ready)
            return
        records = [*self.waiting, *self._pull()]
        self.waiting = []
        while records:  # and what the projection itself wrote (a schedule Scheduler refused, retired)
            if self.mode == "interleaved":
                records = interleave(records, self.rng)
            self._apply(records)
            if self.mode == "again":
                start = self.rng.randrange(len(records))
                self._apply(records[start:])
                self.redelivered += len(records) - start
            records = self._pull()

    def flush(self) -> None:
        """Apply every record still waiting, in order."""
        ready, self.waiting = [*self.waiting, *self._pull()], []
        while ready:
            self._apply(ready)
            ready = self._pull()


def interleave(records: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """The records in a random order that keeps each item's own in the order written."""
    from cronbell.adapters.dynamo.codec import stream_identity

    queues: defaultdict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        queues[stream_identity(record)].append(record)
    out = []
    while queues:
        item = rng.choice(sorted(queues))
        out.append(queues[item].pop(0))
        if not queues[item]:
            del queues[item]
    return out
