"""The entries the fire function writes target the alias it is published under, whatever ARN it was invoked
with (Scheduler's role invokes the alias: template.yaml, tests/infra/test_operations.py)."""

from __future__ import annotations

import pytest

from cronbell import wiring
from cronbell.settings import Settings

FUNCTION = "arn:aws:lambda:eu-west-1:123456789012:function:cronbell-FireFunction-AbC"


@pytest.mark.parametrize(
    ("invoked", "alias", "targeted"),
    [
        (f"{FUNCTION}:live", "live", f"{FUNCTION}:live"),  # Scheduler, through the alias
        (FUNCTION, "live", f"{FUNCTION}:live"),  # a redrive by hand, of the bare function
        (f"{FUNCTION}:7", "live", f"{FUNCTION}:live"),  # a version
        (FUNCTION, "", FUNCTION),  # no alias configured: the ARN as invoked
    ],
)
def test_the_fire_function_writes_entries_for_its_alias(invoked: str, alias: str, targeted: str) -> None:
    deps = wiring.build(Settings(fire_alias=alias), client=lambda _name: object())
    own = wiring.with_own_arn(deps, invoked)
    assert own.scheduler.target_arn == targeted


def test_a_function_told_the_fire_functions_arn_keeps_it() -> None:
    """The tools and the reconciler are told the alias ARN (FIRE_FUNCTION_ARN): nothing is derived."""
    told = f"{FUNCTION}:live"
    deps = wiring.build(Settings(fire_function_arn=told, fire_alias="live"), client=lambda _name: object())
    assert wiring.with_own_arn(deps, FUNCTION) is deps
    assert deps.scheduler.target_arn == told
