"""scripts/smoke.py's steps with a stand-in tools function: whatever fails, its reminder is deleted."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from tests.support.aws import ROOT

spec = importlib.util.spec_from_file_location("cronbell_smoke", ROOT / "scripts" / "smoke.py")
assert spec and spec.loader
smoke = importlib.util.module_from_spec(spec)
spec.loader.exec_module(smoke)


class StandIn:
    def __init__(self, run_outcome: str = "delivered", fail: str = "") -> None:
        self.calls: list[str] = []
        self.live: set[str] = set()
        self.run_outcome, self.fail = run_outcome, fail
        self.ran = False

    def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
        self.calls.append(tool)
        if tool == self.fail:
            raise smoke.SmokeFailed(f"{tool}: refused")
        if tool == "create_reminder":
            self.live.add("abcdefghjk")
            return {"result": {"id": "abcdefghjk"}}
        if tool == "list_reminders":
            return {"result": {"schedules": [{"id": i} for i in sorted(self.live)]}}
        if tool == "run_now":
            self.ran = True
            return {"result": {}}
        if tool == "reminder_history":
            runs = [{"manual": True, "outcome": self.run_outcome, "reason": None, "late_seconds": 0}]
            return {"result": {"runs": runs if self.ran else []}}
        if tool == "delete_reminder":
            self.live.discard(arguments["id"])
            return {"result": {"id": arguments["id"]}}
        raise AssertionError(tool)


def test_every_step_then_nothing_left() -> None:
    tools, said = StandIn(), []
    smoke.run(tools, said.append, sleep=lambda _s: None)
    assert tools.calls == [
        "create_reminder",
        "list_reminders",
        "run_now",
        "reminder_history",
        "delete_reminder",
        "list_reminders",
    ]
    assert tools.live == set() and said[-1].startswith("ok cleaned up")


@pytest.mark.parametrize(
    ("outcome", "fail"), [("failed", ""), ("delivered", "run_now"), ("delivered", "list_reminders")]
)
def test_a_failed_step_still_deletes_the_reminder(outcome: str, fail: str) -> None:
    tools = StandIn(run_outcome=outcome, fail=fail)
    with pytest.raises(smoke.SmokeFailed):
        smoke.run(tools, lambda _line: None, sleep=lambda _s: None)
    assert "delete_reminder" in tools.calls and tools.live == set()


def test_a_run_that_never_comes_is_a_failure_after_the_wait() -> None:
    class NeverRuns(StandIn):
        def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
            answer = super().__call__(tool, **arguments)
            return {"result": {"runs": []}} if tool == "reminder_history" else answer

    tools = NeverRuns()
    with pytest.raises(smoke.SmokeFailed, match="no run recorded"):
        smoke.run(tools, lambda _line: None, wait_seconds=0.0, sleep=lambda _s: None)
    assert tools.live == set()
