"""Names are one name however Unicode writes them, and a holiday calendar code is ASCII letters only
(a moto server)."""

from __future__ import annotations

import hashlib

import pytest

from cronbell.core.domain import models, refusals
from tests.support.aws import Stack
from tests.support.tools import assert_consistent, call, ok


@pytest.mark.parametrize(
    "same",
    [
        "Ｓｔａｎｄｕｐ café",  # fullwidth letters: NFKC folds them
        "stand\u200bup café",  # a zero-width space
        "Stand\u200dup\ufeff café",  # a zero-width joiner and a byte-order mark
        "STANDUP CAFE\u0301",  # the accent as a combining mark (NFD)
        "standup  café",  # spacing, as before
    ],
)
def test_names_equal_after_unicode_normalization_are_one_name(stack: Stack, same: str) -> None:
    first = ok(call(stack, "cron_create", {"name": "Standup café", "prompt": "p", "cron_expr": "0 9 * * *"}))
    taken = call(stack, "cron_create", {"name": same, "prompt": "other", "cron_expr": "0 10 * * *"})
    assert taken["error"]["code"] == refusals.NAME_TAKEN and taken["error"]["details"]["existing"] == first["id"]
    other = ok(call(stack, "cron_create", {"name": "digest", "prompt": "q", "cron_expr": "0 9 * * *"}))
    assert call(stack, "update_reminder", {"id": other["id"], "name": same})["error"]["code"] == refusals.NAME_TAKEN
    assert ok(call(stack, "reminder_history", {"id": same}))["id"] == first["id"]  # found by that name too
    assert ok(call(stack, "cron_delete", {"id": same}))["id"] == first["id"]
    assert_consistent(stack)


def test_distinct_names_stay_distinct() -> None:
    keys = {models.name_key(n) for n in ("standup", "stand up", "standup café", "standup cafe", "ＳＴＡＮＤＵＰ 2")}
    assert len(keys) == 5
    # a plain name keeps the key written when only case and spacing were folded
    for name in ("Standup", " daily  Report ", "Informe diario"):
        old = hashlib.sha256(" ".join(name.casefold().split()).encode()).hexdigest()[:24]
        assert models.name_key(name) == old


@pytest.mark.parametrize("code", ["ıt", "ıT", "es-md\u0307", "ＥＳ", "Es\u200b", "ES-ＭＤ"])
def test_a_calendar_code_is_ascii_letters_only(stack: Stack, code: str) -> None:
    before = stack.items(), stack.entries()
    answer = call(stack, "create_reminder", {"message": "x", "cron": "0 9 * * *", "skip_holidays": code})
    assert answer["ok"] is False and answer["error"]["code"] == refusals.INVALID_ARGUMENTS, answer
    assert "skip_holidays" in answer["text"]
    assert (stack.items(), stack.entries()) == before
    sid = ok(call(stack, "create_reminder", {"message": "x", "cron": "0 9 * * *", "skip_holidays": "it"}))["id"]
    assert call(stack, "update_reminder", {"id": sid, "skip_holidays": code})["error"]["code"] == (
        refusals.INVALID_ARGUMENTS
    )
    listed = ok(call(stack, "list_reminders"))["schedules"][0]
    assert listed["skip_holidays"] == "IT"
