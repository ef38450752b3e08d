"""Refusals say times as every other answer does, in the schedule's zone (the UTC instant stays in
`details`)."""

from __future__ import annotations

from dataclasses import replace

from tests.support.memory_stack import MemoryStack


def test_run_now_too_soon_says_the_last_manual_run_in_the_schedule_s_zone() -> None:
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "x", "cron": "0 10 * * *", "timezone": "Europe/Madrid"})
    assert stack.call("run_now", {"target": made["result"]["id"]})["ok"]
    refused = stack.call("run_now", {"target": made["result"]["id"]})["error"]
    assert refused["code"] == "too_frequent" and refused["details"]["last_run"] == "2026-11-30T08:00:00Z"
    assert "run by hand at Monday 30 November, 09:00;" in refused["message"]


def test_every_answer_with_a_context_carries_now_in_its_result_or_its_error_and_its_text() -> None:
    """docs/skill.md: read `now` in the last answer before computing a time, whichever tool it was."""
    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "x", "cron": "0 10 * * *", "timezone": "Europe/Madrid"})
    sid = made["result"]["id"]
    calls = [
        ("run_now", {"target": sid}),
        ("set_quiet_hours", {"start": "23:00", "end": "06:00"}),
        ("get_quiet_hours", {}),
        ("clear_quiet_hours", {}),
        ("reminder_history", {"id": sid}),
        ("create_reminder", {"message": "y", "time": "gibberish"}),  # refusals too
        ("create_reminder", {"message": "y", "time": "yesterday at 9"}),  # time_in_past, in words or not
        ("create_reminder", {"message": "y", "time": "2026-11-30 08:00"}),
        ("create_reminder", {"message": "y", "cron": "0 9 * * *", "until": "yesterday"}),
        ("cron_create", {"name": "n", "prompt": "p", "fire_at": "2020-01-01T10:00:00Z"}),
        ("delete_reminder", {"id": "nosuchid00"}),
        ("no_such_tool", {}),
    ]
    for tool, args in calls:
        answer = stack.call(tool, args)
        now = answer["result"]["now"] if answer["ok"] else answer["error"]["details"]["now"]
        assert now["local"] == "2026-11-30T09:00:00+01:00" and now["utc"] == "2026-11-30T08:00:00Z", (tool, answer)
        assert answer["text"].endswith("Now it is 09:00 on Monday 30 November 2026 (Europe/Madrid)."), answer["text"]
    listed = stack.call("cron_list")
    assert isinstance(listed["result"], list) and "Now it is 09:00" in listed["text"]  # its array as contracted


def test_a_clock_said_in_words_is_named_in_its_note_as_it_reads_never_in_the_grammar_s_words() -> None:
    stack = MemoryStack()  # 09:00: "twenty to nine" is tonight's
    made = stack.call("create_reminder", {"message": "x", "time": "twenty to nine"})
    assert made["result"]["notes"][0].startswith("8:40 has no am/pm: read as 20:40"), made["result"]["notes"]


def test_the_context_zone_is_read_as_create_reads_it_and_one_it_cannot_read_shows_the_deployment_s() -> None:
    """A listing's times follow the context's zone in any case ("europe/madrid"), as create does; an old
    abbreviation or an unknown zone, which create refuses, shows the deployment's zone and names it (it
    showed UTC, or EST's fixed offset)."""
    stack = MemoryStack()  # Monday 30 November 2026, 08:00 UTC
    stack.settings = replace(stack.settings, default_timezone="America/New_York")
    made = stack.call("create_reminder", {"message": "x", "cron": "0 10 * * *", "timezone": "Europe/Madrid"})
    assert made["ok"], made
    listed = stack.call("list_reminders", {}, timezone="europe/madrid")
    assert listed["result"]["now"]["local"] == "2026-11-30T09:00:00+01:00"
    assert listed["text"].endswith("(Europe/Madrid)."), listed["text"]
    for unknown in ("EST", "Mars/Olympus"):
        for tool in ("list_reminders", "get_quiet_hours"):
            shown = stack.call(tool, {}, timezone=unknown)
            assert shown["ok"] and shown["result"]["now"]["local"] == "2026-11-30T03:00:00-05:00", (unknown, shown)
            assert shown["text"].endswith("(America/New_York)."), shown["text"]
        refused = stack.call("create_reminder", {"message": "y", "time": "tomorrow at 9"}, timezone=unknown)
        assert refused["error"]["code"] == "invalid_timezone"


def test_a_day_of_the_month_some_months_lack_is_said_with_the_months_it_does_not_run_in() -> None:
    """`every 3 months on the 31st` from December runs in December and March only, while its text named
    June and September too, and nothing said so (Google Calendar and cron skip such months too)."""
    stack = MemoryStack()  # Monday 30 November 2026 in Madrid: the first 31st is in December
    cases = [
        ("every 3 months on the 31st at 9", "en", "There is no day 31 in June and September, so it does not run"),
        ("every month on the 30th at 9", "en", "There is no day 30 in February, so it does not run"),
        ("0 9 29 2 *", "en", "There is no day 29 in February (but in leap years)"),
        ("cada 6 meses el día 31 a las 9", "es", "No hay día 31 en junio, así que entonces no se ejecuta"),
    ]
    for phrase, locale, said in cases:
        made = stack.call("create_reminder", {"message": phrase, "cron": phrase}, locale=locale)
        assert made["ok"], made
        assert any(said in note for note in made["result"]["notes"]), (phrase, made["result"].get("notes"))
        assert said in made["text"]
    kept = ("every month on the 28th at 9", "on the last day of every month at 9", "every 3 months on the 30th at 9")
    for phrase in kept:
        made = stack.call("create_reminder", {"message": phrase, "cron": phrase})
        assert not any("There is no day" in note for note in made["result"].get("notes", [])), phrase


def test_a_one_shot_changed_in_its_own_minute_is_said_to_be_due_not_never_to_fire() -> None:
    """An update in the minute a one-shot's fire is under way answered "it will not fire again", and the
    fire then posted it (with the new text): its time has come and it is being delivered."""
    from datetime import timedelta

    stack = MemoryStack()  # Monday 30 November 2026, 09:00 in Madrid
    made = stack.call("create_reminder", {"message": "Call Ana", "time": "in 10 minutes"})["result"]
    stack.clock.current += timedelta(minutes=10, seconds=20)
    changed = stack.call("update_reminder", {"id": made["id"], "message": "Call Ana back"})
    assert changed["ok"], changed
    assert "09:10, due now: its fire is under way" in changed["text"] and "will not fire again" not in changed["text"]
    es = stack.call("list_reminders", locale="es")
    assert "ya toca: su envío está en curso" in es["text"], es["text"]
    stack.clock.current += timedelta(hours=5)  # not recorded hours later: no longer said to be under way
    assert "09:10, not delivered yet" in stack.call("list_reminders")["text"]
    paused = stack.call("create_reminder", {"message": "Paused", "time": "in 10 minutes"})["result"]["id"]
    stack.call("pause_reminder", {"id": paused})
    stack.clock.current += timedelta(minutes=30)  # resuming is refused now: the answer says what works
    said = stack.call("update_reminder", {"id": paused, "message": "Paused still"})["text"]
    assert "paused, and its time passed meanwhile (snooze_reminder gives it a new one)" in said, said
    stack.fire(made["id"], "2026-11-30T08:10:00Z")
    listed = stack.call("list_reminders", {"include_inactive": True})["text"]
    assert "due now" not in listed and "not delivered yet" not in listed


def test_an_answer_about_a_schedule_in_another_zone_says_now_once_in_that_zone() -> None:
    """A schedule's answers say now in its own zone; the context's was added after it, so a change of zone
    read "Now it is 03:00 ... (America/New_York). Now it is 09:00 ... (Europe/Madrid)."."""
    stack = MemoryStack()  # the context's zone is Europe/Madrid
    made = stack.call("create_reminder", {"message": "x", "cron": "0 9 * * *", "timezone": "America/New_York"})
    sid = made["result"]["id"]
    answers = [
        made,
        stack.call("update_reminder", {"id": sid, "message": "y"}),
        stack.call("skip_next", {"id": sid}),
        stack.call("pause_reminder", {"id": sid}),
        stack.call("resume_reminder", {"id": sid}),
        stack.call("update_reminder", {"id": sid, "timezone": "Asia/Kolkata"}),
    ]
    for answer in answers:
        assert answer["ok"], answer
        assert answer["text"].count("Now it is") == 1, answer["text"]
    assert answers[0]["text"].endswith("(America/New_York).") and "(Asia/Kolkata)." in answers[-1]["text"]
    listed = stack.call("list_reminders")["text"]  # about the room: the context's zone
    assert listed.count("Now it is") == 1 and listed.endswith("(Europe/Madrid).")


def test_a_snooze_across_a_clock_change_says_which_time_it_moved_to() -> None:
    """Snoozed by 60 minutes from 02:00 CEST on the night the clocks go back, the answer read "to Sunday 31
    October, 02:00", as if nothing moved: a wall time shown twice is said with its offset. A snooze `until`
    a time the clocks skip was moved on silently; it is said as create says it."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    stack = MemoryStack()
    stack.clock.current = datetime(2027, 10, 27, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    sid = stack.call("create_reminder", {"message": "x", "cron": "0 2 * * *"})["result"]["id"]
    moved = stack.call("snooze_reminder", {"id": sid, "minutes": 60, "occurrence": "2027-10-31T02:00:00+02:00"})
    assert "to Sunday 31 October, 02:00 (UTC+01:00)" in moved["text"], moved["text"]
    stack.clock.current = datetime(2027, 10, 31, 1, 31, tzinfo=UTC)  # the second 02:31: now is said with its offset
    assert "Now it is 02:31 (UTC+01:00) on Sunday 31 October 2027" in stack.call("list_reminders")["text"]
    assert moved["result"]["snoozed_to"] == "2027-10-31T01:00:00Z"
    stack.clock.current = datetime(2027, 3, 27, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    sid = stack.call("create_reminder", {"message": "y", "cron": "0 1 * * *"})["result"]["id"]
    gap = stack.call(
        "snooze_reminder", {"id": sid, "until": "2027-03-28 02:15", "occurrence": "2027-03-28T01:00:00+01:00"}
    )
    said = "2027-03-28 02:15 does not exist in Europe/Madrid (clocks go forward); using 03:15 (UTC+02:00) instead."
    assert gap["ok"] and said in gap["result"]["notes"] and said in gap["text"], gap


def test_a_repeating_phrase_sent_as_time_is_hinted_at_cron_but_a_time_refused_for_its_own_reason_keeps_it() -> None:
    """'every monday at 9' as `time` is told to go in `cron`; 'sat 10', which the recurring grammar reads as
    every Saturday, is refused as a one-shot is, for what it is: the 10th or 10 o'clock."""
    stack = MemoryStack()
    hinted = stack.call("create_reminder", {"message": "x", "time": "every monday at 9"})["error"]
    assert hinted["code"] == "invalid_time" and "send it as `cron`" in hinted["message"]
    for said in ("sat 10", "saturday 10"):
        kept = stack.call("create_reminder", {"message": "x", "time": said})["error"]
        assert kept["code"] == "invalid_time" and "10 could be the day of the month or the hour" in kept["message"]
        assert "`cron`" not in kept["message"]
