"""Schedules that fire at the same instant all fire, over weeks of virtual time and odd clock moves.

Four reminders of one room are due at 09:00 Madrid time (five-field cron, a phrase, a one-shot) or every
30 minutes, a fifth in another room at 09:00 New York time; the clock moves by odd amounts, sub-second ones
too, across the end of summer time in Europe (27 October) and in the United States (3 November). Every fire
the sandbox reports is compared one by one with croniter's reading of the five-field original in the zone.
"""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import datetime, timedelta

import pytest

from sandbox.clock import parse_instant
from tests.support.cron_oracle import cron_fires
from tests.support.sandbox import Bot, StartSandbox, instant

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

START = "2030-10-25T05:17:00Z"
DAYS = 10
MOVES = [3599.999, 0.001, 1799.5, 0.5, 86400.25, 7.3, 43199.7, 1800.0, 0.25, 20000.123]


def test_coinciding_schedules_each_fire_exactly_when_their_expression_says(start_sandbox: StartSandbox) -> None:
    sandbox = start_sandbox("--start", START)
    madrid = Bot(sandbox, "!madrid:localhost")
    new_york = Bot(sandbox, "!newyork:localhost")
    expected_cron = {  # schedule id -> (five-field original, zone)
        madrid.create(message="cron nine", cron="0 9 * * *"): ("0 9 * * *", "Europe/Madrid"),
        madrid.create(message="phrase nine", cron="every day at 9"): ("0 9 * * *", "Europe/Madrid"),
        madrid.create(message="half hours", cron="*/30 * * * *"): ("*/30 * * * *", "Europe/Madrid"),
    }
    ny = new_york.call("create_reminder", timezone="America/New_York", message="NY nine", cron="0 9 * * *")
    assert ny["ok"], ny
    expected_cron[ny["result"]["id"]] = ("0 9 * * *", "America/New_York")
    one_shot = madrid.create(message="one shot nine", time="09:00")

    start = parse_instant(START)
    end = start + timedelta(days=DAYS)
    fired: dict[str, list[datetime]] = {}
    now = start
    for seconds in itertools.cycle(MOVES):
        if now >= end:
            break
        seconds = min(seconds, (end - now).total_seconds())
        answer = sandbox.post("/_sandbox/clock", {"advance_seconds": seconds})
        now = parse_instant(answer["now"])
        for fire in answer["fired"]:
            assert fire["ok"], fire
            fired.setdefault(fire["schedule"], []).append(instant(fire["scheduled_time"]))
    assert now == end

    for schedule, (original, zone) in expected_cron.items():
        assert fired.get(schedule) == cron_fires(original, zone, start, end), (original, zone)
    assert fired[one_shot] == [instant("2030-10-25T07:00:00Z")]  # 09:00 in Madrid, CEST, that morning

    for bot, ids in ((madrid, [*list(expected_cron)[:3], one_shot]), (new_york, [ny["result"]["id"]])):
        posted = Counter(instant(m["ts"]) for m in bot.messages())
        assert posted == Counter(t for i in ids for t in fired[i])
