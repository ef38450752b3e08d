"""docs/skill.md names only tools, arguments and answer fields that exist, and covers every tool; so does
docs/skill-essential.md for the essential set, naming no tool or argument that set's schemas leave out."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from cronbell.core.domain import business, models, refusals, runs
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.runs import Run
from cronbell.core.domain.timing import Timing
from cronbell.core.text.views import cron_view, schedule_view
from tests.support.registry import TOOL_ARGUMENTS

DOCS = Path(__file__).resolve().parents[2] / "docs"
SKILL = DOCS / "skill.md"
ESSENTIAL_SKILL = DOCS / "skill-essential.md"
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")

# Words of the answers (not arguments) that the skill text may name.
VIEW_FIELDS = {"id", "kind", "name", "preview", "description", "timezone", "enabled", "status"}
VIEW_FIELDS |= {"next_fire", "next_fires", "last_fired", "cron_expr", "fire_at", "delivered_count", "held_until"}
ANSWER_FIELDS = {"now", "local", "utc", "schedules", "duplicate", "notes", "dst_notes"}
ANSWER_FIELDS |= {"quiet_hours", "next_period", "cleared"}  # the quiet hours tools' results
CLEARING_WORDS = {"never", "none"}  # update_reminder's values that remove an end or a calendar
CLEARING_WORDS |= set(business.ON_HOLIDAY)  # the values of `on_holiday`
RUN_WORDS = set(Run.__dataclass_fields__) | {"runs", "last_run", "failure_streak", "status_reason", "failing"}
RUN_WORDS |= {value for key, value in vars(runs).items() if key.isupper() and isinstance(value, str)}
STATUSES = {models.ACTIVE, models.PAUSED, models.FIRED, models.DELETED, models.MISSED, models.DELIVERY_FAILED}
STATUSES |= {models.COMPLETED, models.FAILED}
RUN_WORDS.add(models.SCHEDULER_REFUSED)  # a `failed` schedule's status_reason
KINDS = {models.MESSAGE, models.AGENT_CALL}
ERROR_CODES = {
    value
    for key, value in vars(refusals).items()
    if key.isupper() and isinstance(value, str) and not key.startswith("_")
}


def backticked(path: Path = SKILL) -> list[str]:
    return re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8"))


def test_every_identifier_is_known() -> None:
    tools = set(TOOL_ARGUMENTS)
    arguments = {field for model in TOOL_ARGUMENTS.values() for field in model.model_fields}
    known = (
        tools | arguments | VIEW_FIELDS | ANSWER_FIELDS | STATUSES | KINDS | ERROR_CODES | RUN_WORDS | CLEARING_WORDS
    )
    unknown = sorted({word for word in backticked() if IDENTIFIER.match(word) and word not in known})
    assert unknown == [], f"docs/skill.md names unknown tools or arguments: {unknown}"


def test_every_tool_and_status_is_mentioned() -> None:
    mentioned = set(backticked())
    assert set(TOOL_ARGUMENTS) - mentioned == set()
    assert STATUSES - mentioned == set()


def test_the_allowed_answer_fields_are_real() -> None:
    """The view field names the test allows are the ones the tools really answer with."""
    schedule = Schedule(
        id="k3v9q2m8xa",
        room_id="!r:x",
        user_id="@u:x",
        agent_id="a",
        kind=models.AGENT_CALL,
        timing=Timing(zone="Europe/Madrid", cron="0 9 * * 1"),
        locale="en",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        prompt="p",
        name="digest",
    )
    now = datetime(2026, 1, 1, tzinfo=UTC)
    produced = set(schedule_view(schedule, now, "en")) | set(cron_view(schedule, now))
    assert produced >= VIEW_FIELDS
    assert set(schedule_view(schedule, now, "en")["next_fire"]) == {"local", "utc"}


def test_the_checker_catches_a_made_up_name() -> None:
    assert IDENTIFIER.match("delete_all") and IDENTIFIER.match("now")
    assert not IDENTIFIER.match("in 30 minutes") and not IDENTIFIER.match("Europe/Madrid")


def test_the_essential_skill_names_only_what_the_essential_set_shows() -> None:
    from cronbell.usecases.tools import FULL_SET_ARGUMENTS, TOOL_SETS

    tools = set(TOOL_SETS["essential"])
    arguments = {f for name in tools for f in TOOL_ARGUMENTS[name].model_fields} - FULL_SET_ARGUMENTS
    known = (
        tools | arguments | VIEW_FIELDS | ANSWER_FIELDS | STATUSES | KINDS | ERROR_CODES | RUN_WORDS | CLEARING_WORDS
    )
    words = {word for word in backticked(ESSENTIAL_SKILL) if IDENTIFIER.match(word)}
    assert sorted(words - known) == []
    assert tools <= words
    assert words >= STATUSES
    assert not words & (set(TOOL_ARGUMENTS) - tools)  # no tool of the full set alone
