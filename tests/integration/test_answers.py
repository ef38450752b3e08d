"""Answers a model can relay as they are, walked kind by kind in both languages: every date with its
weekday, the schedule's message or name echoed, no time said twice, no room id, listings that name each
item up to their bound, Spanish with no English sentence, and one code for a time in the past."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cronbell.core.text import texts
from cronbell.usecases import tools
from cronbell.usecases.answers import LISTED_ITEMS
from tests.support.aws import Stack
from tests.support.envelopes import ROOM, envelope
from tests.support.tools import fire_at, ok
from tests.support.words import english_words

MESSAGES = {
    "en": {"one": "Call the dentist", "weekly": "Team stand-up", "agent": "morning news", "prompt": "Sum up the news"},
    "es": {
        "one": "Llamar al dentista",
        "weekly": "Reunión del equipo",
        "agent": "noticias",
        "prompt": "Resume las noticias",
    },
}
MONTHS = {lang: "|".join(texts.words("months", lang)) for lang in ("en", "es")}
WEEKDAYS = {lang: "|".join(texts.words("weekdays", lang)) for lang in ("en", "es")}
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def dates_without_weekday(text: str, lang: str) -> list[str]:
    """Every '4 December' / '4 de diciembre' not said right after its weekday, and every raw ISO date."""
    missing = ISO_DATE.findall(text)
    for found in re.finditer(rf"(?:^|(\S+) )(\d{{1,2}}) (?:de )?(?:{MONTHS[lang]})\b", text):
        if not re.fullmatch(WEEKDAYS[lang], (found[1] or "").strip("(«“")):
            missing.append(found[0])
    return missing


def times_said_twice(text: str, lang: str) -> list[str]:
    """A date and time said more than once in one answer."""
    said = re.findall(
        rf"(?:{WEEKDAYS[lang]}) \d{{1,2}} (?:de )?(?:{MONTHS[lang]})(?: (?:de )?\d{{4}})?, \d{{2}}:\d{{2}}", text
    )
    return sorted({s for s in said if said.count(s) > 1})


def check(answer: dict[str, Any], lang: str) -> None:
    # the forms an invalid_time refusal names ("- 2026-12-31 23:59") are examples of a format, not dates
    text = "\n".join(line for line in answer["text"].splitlines() if not line.startswith("- "))
    assert dates_without_weekday(text, lang) == [], text
    assert times_said_twice(text, lang) == [], text
    assert ROOM not in text and "example.org" not in text, text
    assert "(s)" not in text and "(es)" not in text, text
    if lang == "es":
        assert english_words(text) == set(), text
        assert "sin más ejecuciones" not in text and "programación(es)" not in text, text
        if answer["ok"]:
            assert re.search(r"(Son las|Es la) \d{2}:\d{2} del ", text) or "Se ejecuta" in text, text


class Walk:
    def __init__(self, stack: Stack, lang: str) -> None:
        self.stack, self.lang, self.seen = stack, lang, []

    def __call__(self, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        deps = self.stack.deps(start_fire=lambda event: None)
        answer = tools.handle(envelope(tool, args, locale=self.lang), deps)
        json.dumps(answer)
        check(answer, self.lang)
        self.seen.append((tool, answer["ok"] or answer["error"]["code"]))
        return answer


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_answer_kind_is_fit_to_relay(stack: Stack, lang: str) -> None:
    said = MESSAGES[lang]
    call = Walk(stack, lang)
    empty = call("list_reminders")
    one = call("create_reminder", {"message": said["one"], "time": "2026-12-04 17:00"})
    assert said["one"] in one["text"] and one["text"].count("17:00") == 1  # echoed; its time said once
    again = call("create_reminder", {"message": said["one"], "time": "2026-12-04 17:00"})
    assert again["result"]["duplicate"] and said["one"] in again["text"]
    weekly = call("create_reminder", {"message": said["weekly"], "cron": "0 9 * * 1-5", "until": "2027-01-31"})
    agent = call("cron_create", {"name": said["agent"], "prompt": said["prompt"], "cron_expr": "0 8 * * *"})
    ids = {"one": ok(one)["id"], "weekly": ok(weekly)["id"], "agent": ok(agent)["id"]}
    assert said["agent"] in agent["text"] and said["prompt"] not in agent["text"]  # the name, not the prompt

    listed = call("list_reminders")
    for key, schedule_id in ids.items():  # every item named: its id, what it says and its next fire
        assert schedule_id in listed["text"] and said[key] in listed["text"], listed["text"]
    assert "viernes 4 de diciembre, 17:00" in listed["text"] or "Friday 4 December, 17:00" in listed["text"]
    compact = call("cron_list")
    assert all(schedule_id in compact["text"] for schedule_id in ids.values())

    fire_at(stack, ids["weekly"], "2026-12-01T08:00:00Z")
    history = call("reminder_history", {"id": ids["weekly"]})
    assert ("martes 1 de diciembre, 09:00" if lang == "es" else "Tuesday 1 December, 09:00") in history["text"]
    call("reminder_history", {"id": ids["agent"]})
    for tool, args in [
        ("update_reminder", {"id": ids["weekly"], "cron": "0 10 * * 1-5"}),
        ("snooze_reminder", {"id": ids["weekly"], "minutes": 10}),
        ("skip_next", {"id": ids["weekly"]}),
        ("pause_reminder", {"id": ids["weekly"]}),
        ("resume_reminder", {"id": ids["weekly"]}),
        ("run_now", {"target": ids["agent"]}),
    ]:
        answer = call(tool, args)
        assert answer["ok"], answer
        assert said["weekly" if tool != "run_now" else "agent"] in answer["text"], answer["text"]

    for argument, args in [
        ("time", {"message": "x", "time": "2020-01-01 09:00"}),
        ("time", {"message": "x", "time": "yesterday at 9" if lang == "en" else "ayer a las 9"}),
        ("until", {"message": "x", "cron": "0 9 * * *", "until": "2020-01-01"}),
    ]:
        past = call("create_reminder", args)
        assert past["error"]["code"] == "time_in_past" and past["error"]["details"]["argument"] == argument, past
        assert f"`{argument}`" in past["text"]
    past = call("cron_create", {"name": "n", "prompt": "p", "fire_at": "2020-01-01T09:00:00Z"})
    assert past["error"]["details"]["argument"] == "fire_at"
    past = call("snooze_reminder", {"id": ids["weekly"], "until": "2020-01-01 09:00"})
    assert (past["error"]["code"], past["error"]["details"]["argument"]) == ("time_in_past", "until")
    unreadable = call("create_reminder", {"message": "x", "time": "next blursday at 10"})
    assert unreadable["error"]["code"] == "invalid_time" and len(unreadable["text"].splitlines()) <= 4
    call("create_reminder", {"message": "", "time": 5, "extra": 1})
    call("pause_reminder", {"id": "zzzzzzzzzz"})

    for key in ("one", "weekly", "agent"):
        deleted = call("delete_reminder" if key != "agent" else "cron_delete", {"id": ids[key]})
        assert deleted["ok"] and said[key] in deleted["text"]
    assert len({kind for kind in call.seen}) >= 18, call.seen
    assert empty["ok"] and empty["result"]["schedules"] == []


def test_a_listing_names_its_items_up_to_its_bound(stack: Stack) -> None:
    for i in range(LISTED_ITEMS + 2):
        ok(
            tools.handle(
                envelope("create_reminder", {"message": f"item {i}", "time": f"2026-12-0{1 + i % 9} 1{i % 10}:00"}),
                stack.deps(),
            )
        )
    listed = tools.handle(envelope("list_reminders"), stack.deps())
    named = [s["id"] for s in listed["result"]["schedules"] if s["id"] in listed["text"]]
    assert len(named) == LISTED_ITEMS and len(listed["result"]["schedules"]) == LISTED_ITEMS + 2
    assert f"{LISTED_ITEMS + 2} schedules in this room; the first {LISTED_ITEMS}:" in listed["text"]


def test_the_checks_catch_what_they_look_for() -> None:
    assert dates_without_weekday("Next: 4 December, 17:00; then 2026-12-04", "en") == ["2026-12-04", "Next: 4 December"]
    assert dates_without_weekday("el viernes 4 de diciembre, 17:00", "es") == []
    assert dates_without_weekday("el 4 de diciembre", "es") == ["el 4 de diciembre"]
    assert times_said_twice("Friday 4 December, 17:00. Next: Friday 4 December, 17:00", "en") == [
        "Friday 4 December, 17:00"
    ]
    assert english_words("Recordatorio programado. Now it is 9") != set()
