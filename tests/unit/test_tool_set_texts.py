"""A deployment that shows its model a smaller tool set (`TOOL_SET=essential`) never tells the model to call a
tool it does not have: a pause notice that said "Resume it with resume_reminder" in an essential deployment sent
the model after a tool it could not call. Every text, in every language, as each set says it, names only that
set's tools, and the hints the set's model reads (descriptions, schemas, skill text) do too."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cronbell.core.domain.fire_event import parse_fire_event
from cronbell.core.domain.ports import AgentError
from cronbell.core.text import locales, texts
from cronbell.settings import Settings, SettingsError
from cronbell.usecases import fire as fire_uc
from cronbell.usecases.tools import BY_NAME, ESSENTIAL, FULL, TOOL_SETS, TOOLS
from tests.support.envelopes import ROOM
from tests.support.memory_stack import MemoryStack

ROOT = Path(__file__).resolve().parents[2]
SKILLS = {ESSENTIAL: ROOT / "docs" / "skill-essential.md", FULL: ROOT / "docs" / "skill.md"}
NAMED = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(tool.name for tool in TOOLS) + r")(?![A-Za-z0-9_])")
CASES = [(tool_set, lang) for tool_set in TOOL_SETS for lang in locales.available()]


def named(text: str) -> set[str]:
    return set(NAMED.findall(text))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.fixture
def showing() -> Iterator[Any]:
    """Say texts as a deployment showing a set does, and the set shown before afterwards."""
    before = texts.show_tool_set("")
    yield texts.show_tool_set
    texts.show_tool_set(before)


@pytest.mark.parametrize(("tool_set", "lang"), CASES)
def test_every_text_names_only_tools_its_set_shows(tool_set: str, lang: str) -> None:
    shown = set(TOOL_SETS[tool_set])
    strays = {
        key: sorted(named(text) - shown) for key, text in locales.texts(lang, tool_set).items() if named(text) - shown
    }
    assert strays == {}, f"{lang} texts of the {tool_set} set name tools it does not show: add them to BY_TOOL_SET"


@pytest.mark.parametrize("tool_set", TOOL_SETS)
def test_the_hints_a_set_shows_its_model_name_only_its_tools(tool_set: str) -> None:
    shown = set(TOOL_SETS[tool_set])
    for name in shown:
        assert named(BY_NAME[name].described(tool_set)) <= shown, name
    for schema in (ROOT / "docs" / "tools" / tool_set).glob("*.json"):
        assert named(schema.read_text(encoding="utf-8")) <= shown, schema.name
    assert named(SKILLS[tool_set].read_text(encoding="utf-8")) <= shown


@pytest.mark.parametrize("lang", locales.available())
def test_a_set_says_instead_only_texts_the_catalog_has_with_their_fields(lang: str) -> None:
    own = locales._module(lang).BY_TOOL_SET
    assert set(own) <= set(TOOL_SETS) - {FULL}
    assert {s: set(t) for s, t in own.items()} == {
        s: set(t) for s, t in locales._module(locales.DEFAULT).BY_TOOL_SET.items()
    }
    for tool_set, said in own.items():
        for key, text in said.items():
            assert fields(text) == fields(locales.texts(lang)[key]), (tool_set, key)
            assert text != locales.texts(lang)[key], (tool_set, key)


def test_the_setting_takes_each_tool_set_and_no_other() -> None:
    for tool_set in TOOL_SETS:
        assert Settings.from_env({"TOOL_SET": tool_set}).tool_set == tool_set
    assert Settings.from_env({}).tool_set == FULL
    with pytest.raises(SettingsError, match="TOOL_SET"):
        Settings.from_env({"TOOL_SET": "minimal"})


class FailingAgents:
    configured = True

    def call(self, agent_id: str, request: dict[str, Any], timeout_seconds: int) -> str:
        raise AgentError("the agent crashed")


def _paused_by_failing(stack: MemoryStack) -> tuple[str, str]:
    """An agent call that failed until it paused: its id and the pause notice posted in its room."""
    stack.settings = replace(stack.settings, agents={"echo": "EchoAgentFunction"}, auto_pause_after=1)
    made = stack.call("cron_create", {"name": "digest", "prompt": "summarize", "cron_expr": "*/30 * * * *"})
    assert made["ok"], made
    slot = made["result"]["next_fire"]["utc"]
    due = stack.clock.now() + timedelta(minutes=30)
    stack.clock.current = due
    event = parse_fire_event({"room_id": ROOM, "reminder_id": made["result"]["id"], "scheduled_time": slot}, due)
    assert fire_uc.fire(event, stack.deps(agents=FailingAgents()), lambda: 300.0)["outcome"] == "failed"
    return made["result"]["id"], stack.chat.sent[-1][0].text


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_pause_notice_and_a_change_answer_name_resume_reminder_only_where_it_is_shown(
    showing: Any, locale: str
) -> None:
    for tool_set in (FULL, ESSENTIAL):
        showing(tool_set)
        stack = MemoryStack()
        stack.settings = replace(stack.settings, tool_set=tool_set)
        schedule_id, notice = _paused_by_failing(stack)
        changed = stack.call("update_reminder", {"id": schedule_id, "prompt": "summarize all"}, locale=locale)
        assert changed["result"]["status"] == "paused", changed
        resumes = tool_set == FULL
        assert ("resume_reminder" in notice) is resumes, notice
        assert ("resume_reminder" in changed["text"]) is resumes, changed["text"]
        assert schedule_id in notice
        if not resumes:
            assert "delete it and create it again" in notice
            assert ("elimínala y créala de nuevo" in changed["text"]) is (locale == "es"), changed["text"]


def test_a_button_that_snoozes_a_paused_schedule_is_answered_without_a_tool_the_set_leaves_out(showing: Any) -> None:
    """Buttons call tools that the essential set does not show: their answers name none of them either."""
    showing(ESSENTIAL)
    stack = MemoryStack()
    stack.settings = replace(stack.settings, tool_set=ESSENTIAL)
    made = stack.call("create_reminder", {"message": "stand-up", "cron": "0 9 * * *"})["result"]
    assert stack.call("pause_reminder", {"id": made["id"]})["ok"]
    for locale in ("en", "es"):
        refused = stack.call("snooze_reminder", {"id": made["id"], "minutes": 10}, locale=locale)
        assert refused["error"]["code"] == "invalid_state", refused
        assert named(refused["text"]) <= set(TOOL_SETS[ESSENTIAL]), refused["text"]


def test_an_unknown_tool_is_answered_with_the_tools_the_set_shows() -> None:
    stack = MemoryStack()
    stack.settings = replace(stack.settings, tool_set=ESSENTIAL)
    refused = stack.call("resume_all")
    assert refused["error"]["code"] == "unknown_tool", refused
    assert named(refused["text"]) == set(TOOL_SETS[ESSENTIAL])
    stack.settings = replace(stack.settings, tool_set=FULL)
    assert named(stack.call("resume_all")["text"]) == set(TOOL_SETS[FULL])
