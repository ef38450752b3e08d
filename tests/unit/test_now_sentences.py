"""Every answer says the time once: a catalog entry that takes the `now` sentence adds nothing around it
(`done_reminder` once said "Now it is Now it is ..").."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.text import texts
from cronbell.core.text.locales import en, es

NOW = datetime(2027, 3, 4, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize("catalog", [en, es], ids=["en", "es"])
def test_no_entry_says_the_time_around_the_now_sentence(catalog: object) -> None:
    sentences: dict[str, str] = catalog.TEXTS
    for key, template in sentences.items():
        if "{now}" not in template or key.startswith("error."):  # an error's `now` is a time, not the sentence
            continue
        assert template.rstrip().endswith("{now}"), key
        before = template.split("{now}")[0].rstrip().lower()
        assert not before.endswith(("now it is", "it is", "son las", "ahora son las", "ahora es")), key


@pytest.mark.parametrize("locale", ["en", "es"])
def test_done_reminder_says_the_time_once(locale: str) -> None:
    now = texts.now_sentence(NOW, ZoneInfo("Europe/Madrid"), locale)
    for key in ("done", "done_nothing"):
        said = texts.say(key, locale, id="abc", now=now)
        first = now.split()[0]
        assert said.count(now) == 1
        assert f"{first} {first}" not in said
        assert "Now it is Now" not in said and "son las Son" not in said and "Ahora son las Ahora" not in said
