"""DynamoDB's documented unit rules, as bench/units.py applies them to the items a call touches."""

from __future__ import annotations

import pytest

from bench.units import Units, call_units, item_size, number_size, read_units, touched_keys, write_units


def test_an_items_size_counts_names_and_values() -> None:
    item = {"room_id": {"S": "!r:x"}, "n": {"N": "12345"}, "ok": {"BOOL": True}, "none": {"NULL": True}}
    assert item_size(item) == (7 + 4) + (1 + 4) + (2 + 1) + (4 + 1)


@pytest.mark.parametrize(
    ("text", "size"), [("0", 2), ("1", 2), ("12", 2), ("123", 3), ("1000", 2), ("-5", 3), ("0.0012", 2), ("123.45", 4)]
)
def test_a_number_costs_a_byte_per_two_significant_digits_plus_one(text: str, size: int) -> None:
    assert number_size(text) == size


def test_lists_and_maps_cost_three_bytes_plus_one_per_element() -> None:
    assert item_size({"l": {"L": [{"S": "ab"}, {"N": "1"}]}}) == 1 + 3 + (1 + 2) + (1 + 2)
    assert item_size({"m": {"M": {"k": {"S": "ab"}}}}) == 1 + 3 + (1 + 1 + 2)


def test_a_write_unit_is_1kb_of_the_larger_image_and_at_least_one() -> None:
    small, big = {"a": {"S": "x"}}, {"a": {"S": "x" * 2000}}
    assert write_units(None, small) == 1
    assert write_units(big, small) == 2  # an update that shrinks an item pays for the old size
    assert write_units(small, None) == 1


def test_reads_are_4kb_units_halved_when_eventually_consistent() -> None:
    assert read_units(0, True) == 1.0
    assert read_units(4097, True) == 2.0
    assert read_units(4097, False) == 1.0


def test_a_transaction_costs_twice_per_item_and_a_check_is_a_read() -> None:
    params = {
        "TransactItems": [
            {"Put": {"TableName": "t", "Item": {"room_id": {"S": "r"}, "sk": {"S": "a"}}}},
            {"Update": {"TableName": "t", "Key": {"room_id": {"S": "r"}, "sk": {"S": "b"}}}},
            {"ConditionCheck": {"TableName": "t", "Key": {"room_id": {"S": "r"}, "sk": {"S": "c"}}}},
        ]
    }
    assert len(touched_keys("TransactWriteItems", params, ("room_id", "sk"))) == 3
    big = {"v": {"S": "x" * 1500}}
    units = call_units("TransactWriteItems", params, [None, big, big], [big, big, big])
    assert units == Units(read=2.0, write=2 * 2 + 2 * 2)


def test_a_query_pays_for_what_it_evaluated_once_per_request() -> None:
    items = [{"v": {"S": "x" * 1000}} for _ in range(5)]  # 5,005 bytes: two 4 KB units
    assert call_units("Query", {"ConsistentRead": True}, [], [], items) == Units(read=2.0)
    assert call_units("Query", {}, [], [], items) == Units(read=1.0)
