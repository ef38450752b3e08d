"""done_reminder: acknowledge the occurrence of a repeating reminder that is being posted again.

The acknowledgement is written on the occurrence's run, on the condition that the occurrence is
still the schedule's current one and not acknowledged yet (the store's one conditional write), so a
repeat claimed after it is never posted (core/domain/repeats.py). Nothing to acknowledge is no error: the
answer says so (`acknowledged: false`)."""

from __future__ import annotations

from typing import Any

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import models, repeats
from cronbell.core.domain.refusals import refusal
from cronbell.core.text import texts
from cronbell.usecases import fire_writes as writes
from cronbell.usecases.answers import now_fields
from cronbell.usecases.deps import Deps
from cronbell.usecases.manage import find


def done_reminder(args: Any, ctx: Context, deps: Deps) -> dict[str, Any]:
    locale = ctx.locale or deps.settings.default_locale
    schedule = find(ctx, args.id, deps, live_only=False)
    if schedule.status == models.DELETED:
        raise refusal("not_found.deleted", id=schedule.id)
    occurrence = schedule.repeat_slot if repeats.repeats(schedule) else ""
    acknowledged = bool(occurrence) and deps.store.acknowledge(schedule, occurrence, deps.now())
    key = "done" if acknowledged else "done_nothing"
    if acknowledged:
        run = deps.store.run_at(schedule.room_id, schedule.id, occurrence)
        if run is not None:
            writes.announce_repeat("Run Acknowledged", run, schedule, deps)
            if repeats.chain_over(schedule, run):  # acknowledged, but no repeat or escalation was left to stop
                key = "done_after"
    now_dict, now_text = now_fields(ctx, deps)
    result: dict[str, Any] = {"id": schedule.id, "acknowledged": acknowledged, "now": now_dict}
    if acknowledged:
        result["occurrence"] = occurrence
    return {"result": result, "text": texts.say(key, locale, id=schedule.id, now=now_text)}
