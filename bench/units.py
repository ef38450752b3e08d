"""DynamoDB's request units by its documented rules, from the items a call reads and writes.

moto answers `ReturnConsumedCapacity` with a fixed figure whatever the item's size (and nothing for
transactions), so the units are computed here from the items themselves, as DynamoDB bills on-demand
tables (the "Read and write capacity units" and "Item sizes" pages of the DynamoDB developer guide):

- an item's size is the sum, over its attributes, of the name's UTF-8 bytes and the value's size: a
  string its UTF-8 bytes, a binary its bytes, a number about one byte per two significant digits plus
  one, a boolean or null one byte, a list or map three bytes plus one per element and its elements
  (a map's element counts its name too);
- a write unit covers 1 KB of the larger of the item before and after the write (a delete: the item
  deleted; a write whose condition fails: the item as it is), at least one;
- a read unit covers 4 KB, read strongly consistent; eventually consistent costs half; a GetItem of no
  item costs the minimum; a Query or Scan adds up the sizes of every item it evaluates (before any filter
  or projection) and rounds once per request;
- a transaction costs twice: two write units per 1 KB of each item written, two read units per 4 KB of
  each item it checks (the transaction is billed whether or not it is cancelled);
- TTL deletes cost nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

WRITE_UNIT_BYTES = 1024
READ_UNIT_BYTES = 4096


def value_size(value: dict[str, Any]) -> int:
    """Bytes of one attribute value in DynamoDB JSON (`{"S": "..."}`, `{"M": {...}}`, ...)."""
    (kind, raw), *_ = value.items()
    if kind == "S":
        return len(str(raw).encode())
    if kind == "N":
        return number_size(str(raw))
    if kind == "B":
        return len(raw) if isinstance(raw, bytes | bytearray) else len(str(raw).encode())
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(str(s).encode()) for s in raw)
    if kind == "NS":
        return sum(number_size(str(n)) for n in raw)
    if kind == "BS":
        return sum(len(b) if isinstance(b, bytes | bytearray) else len(str(b).encode()) for b in raw)
    if kind == "L":
        return 3 + sum(1 + value_size(element) for element in raw)
    if kind == "M":
        return 3 + sum(1 + len(name.encode()) + value_size(element) for name, element in raw.items())
    raise ValueError(f"not a DynamoDB value: {kind}")


def number_size(text: str) -> int:
    """A number's bytes: one per two significant digits (leading and trailing zeros trimmed), plus one,
    plus one when negative."""
    number = Decimal(text)
    digits = number.as_tuple().digits
    significant = "".join(map(str, digits)).strip("0") or "0"
    return math.ceil(len(significant) / 2) + 1 + (1 if number < 0 else 0)


def item_size(item: dict[str, Any] | None) -> int:
    """Bytes of a whole item in DynamoDB JSON; 0 for no item."""
    if not item:
        return 0
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


def write_units(before: dict[str, Any] | None, after: dict[str, Any] | None) -> int:
    return max(1, math.ceil(max(item_size(before), item_size(after)) / WRITE_UNIT_BYTES))


def read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / READ_UNIT_BYTES))
    return float(units) if consistent else units / 2


@dataclass
class Units:
    """What one call, or a sum of calls, consumes."""

    read: float = 0.0
    write: float = 0.0

    def __add__(self, other: Units) -> Units:
        return Units(self.read + other.read, self.write + other.write)


def call_units(
    operation: str,
    params: dict[str, Any],
    before: list[dict[str, Any] | None],
    after: list[dict[str, Any] | None],
    evaluated: list[dict[str, Any]] | None = None,
) -> Units:
    """The units of one DynamoDB call. `before` and `after` are the images of the items it touches (in
    the order `touched_keys` gives them); `evaluated` the items a Query or Scan evaluated."""
    if operation in ("PutItem", "UpdateItem", "DeleteItem"):
        return Units(write=write_units(before[0], after[0]))
    if operation == "GetItem":
        return Units(read=read_units(item_size(before[0]), bool(params.get("ConsistentRead"))))
    if operation in ("Query", "Scan"):
        size = sum(item_size(item) for item in evaluated or [])
        return Units(read=read_units(size, bool(params.get("ConsistentRead"))))
    if operation == "TransactWriteItems":
        total = Units()
        for entry, old, new in zip(params["TransactItems"], before, after, strict=True):
            if "ConditionCheck" in entry:
                total += Units(read=2 * read_units(item_size(old), True))
            else:
                total += Units(write=2 * write_units(old, new))
        return total
    if operation == "TransactGetItems":
        return Units(read=sum(2 * read_units(item_size(old), True) for old in before))
    if operation == "BatchWriteItem":
        return Units(write=sum(write_units(old, new) for old, new in zip(before, after, strict=True)))
    if operation == "BatchGetItem":  # each key a GetItem: consistent as its table's request asks
        consistent = any(spec.get("ConsistentRead") for spec in params["RequestItems"].values())
        return Units(read=sum(read_units(item_size(old), consistent) for old in before))
    return Units()  # DescribeTable and the like: no request units


def touched_keys(operation: str, params: dict[str, Any], key_names: tuple[str, ...]) -> list[tuple[str, dict]]:
    """(table, key) of every item a call reads or writes by key, in a stable order."""

    def key_of(table: str, item: dict[str, Any]) -> tuple[str, dict]:
        return table, {name: item[name] for name in key_names}

    if operation == "PutItem":
        return [key_of(params["TableName"], params["Item"])]
    if operation in ("UpdateItem", "DeleteItem", "GetItem"):
        return [(params["TableName"], params["Key"])]
    if operation == "TransactWriteItems":
        found = []
        for entry in params["TransactItems"]:
            (kind, body), *_ = entry.items()
            found.append(key_of(body["TableName"], body["Item"]) if kind == "Put" else (body["TableName"], body["Key"]))
        return found
    if operation == "TransactGetItems":
        return [(entry["Get"]["TableName"], entry["Get"]["Key"]) for entry in params["TransactItems"]]
    if operation == "BatchWriteItem":
        found = []
        for table, requests in params["RequestItems"].items():
            for request in requests:
                if "PutRequest" in request:
                    found.append(key_of(table, request["PutRequest"]["Item"]))
                else:
                    found.append((table, request["DeleteRequest"]["Key"]))
        return found
    if operation == "BatchGetItem":
        return [(table, key) for table, spec in params["RequestItems"].items() for key in spec["Keys"]]
    return []
