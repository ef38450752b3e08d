"""What `make bench` counts for the projector: the Scheduler calls the inline design made for the same change,
and the projector's price (its invocations and GB-seconds; Scheduler API calls are not billed per call)."""

from __future__ import annotations

import pytest

from bench.cost import MEMORY_GB, PRICE_GB_SECOND, PRICE_LAMBDA_REQUEST, Row
from bench.operations import Projection
from bench.units import Units


def test_the_inline_calls_are_the_projectors_scheduler_calls_that_did_something_in_order() -> None:
    projection = Projection(
        calls=[
            ("scheduler", "UpdateSchedule", {"Name": "a"}),  # no entry yet: answered ResourceNotFound
            ("scheduler", "CreateSchedule", {"Name": "a"}),
            ("dynamodb", "GetItem", {}),
            ("scheduler", "DeleteSchedule", {"Name": "a-2"}),
        ],
        failed={0: "ResourceNotFoundException"},
    )
    assert [(service, operation) for service, operation, _ in projection.inline_calls()] == [
        ("scheduler", "CreateSchedule"),
        ("scheduler", "DeleteSchedule"),
    ]
    assert projection.which() == [
        "UpdateSchedule ResourceNotFound",
        "CreateSchedule",
        "GetItem",
        "DeleteSchedule",
    ]
    assert Projection().inline_calls() == []


def test_the_projector_is_billed_per_invocation_and_gb_second_and_never_per_scheduler_call() -> None:
    def projector(invocations: int, scheduler_calls: int) -> Row:
        return Row("projector", 0, Units(), 0.0, 0.004, invocations=invocations, scheduler_calls=scheduler_calls)

    one = projector(1, scheduler_calls=2)
    assert one.dollars == pytest.approx(PRICE_LAMBDA_REQUEST + 0.004 * MEMORY_GB * PRICE_GB_SECOND)
    assert projector(1, scheduler_calls=0).dollars == one.dollars
    assert projector(2, scheduler_calls=2).dollars == pytest.approx(one.dollars + PRICE_LAMBDA_REQUEST)
    nothing = Row("projector", 0, Units(), 0.0, 0.0, invocations=0)
    assert nothing.dollars == 0.0

    create = Row("create", 2, Units(read=1.0, write=8.0), 0.0, 0.010, projector=one)
    assert create.total_dollars == pytest.approx(create.dollars + one.dollars)
    assert create.as_dict()["total_dollars_per_million"] == pytest.approx(create.total_dollars * 1e6, abs=1e-4)
    alone = Row("list", 1, Units(read=0.5), 0.0, 0.010)
    assert alone.total_dollars == alone.dollars
