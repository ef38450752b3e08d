"""`repeat_every`, `repeat_times` and `escalate_to` read from create_reminder's and update_reminder's
arguments (core/domain/repeats.py holds the rules)."""

from __future__ import annotations

import re
from typing import Any

from cronbell.core.contract.envelope import Context
from cronbell.core.domain import repeats, routing
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.refusals import refusal
from cronbell.usecases.deps import Deps

_CHAT_MENTION = re.compile(r"<@!?([A-Za-z0-9]+)>")
_USER = re.compile(r"@[^\s@]+")  # a user id after its "@" (a Matrix id's server after a colon)
_CLEAR_ESCALATION = ("none", "ninguno", "ninguna", "nadie", "nobody")


def read_repeats(args: Any, ctx: Context, deps: Deps, old: Schedule | None) -> dict[str, Any]:
    """`repeat_every`, `repeat_times` and `escalate_to` as a schedule stores them (core/domain/repeats.py);
    with `old` (update) what is not given stays, `repeat_every: 0` stops repeating and
    `escalate_to: "none"` removes the escalation. Empty when nothing is given."""
    every, times, escalate = args.repeat_every, args.repeat_times, args.escalate_to
    if every is None and times is None and escalate is None:
        return {}
    fields: dict[str, Any] = {
        "repeat_every": old.repeat_every if old is not None else 0,
        "repeat_times": (old.repeat_times if old is not None else 0) or repeats.DEFAULT_TIMES,
        "escalate_to": old.escalate_to if old is not None else "",
    }
    if every is not None:
        if every and every < repeats.MIN_EVERY:
            raise refusal("invalid_arguments.repeat_every", low=repeats.MIN_EVERY, high=repeats.MAX_EVERY)
        fields["repeat_every"] = every
    if times is not None:
        fields["repeat_times"] = times
    if escalate is not None:
        fields["escalate_to"] = _escalation(escalate, ctx, deps, clearing=old is not None)
    if not fields["repeat_every"] and (times is not None or (escalate is not None and fields["escalate_to"])):
        raise refusal("invalid_arguments.repeat_needs_every")
    if not fields["repeat_every"]:
        fields["repeat_slot"] = ""
    return fields


def _escalation(escalate: str, ctx: Context, deps: Deps, *, clearing: bool) -> str:
    """A user to mention (`@...`), or a room the deployment allows as output; on update, "none"
    removes it."""
    target = escalate.strip()
    if clearing and target.casefold() in _CLEAR_ESCALATION:
        return ""
    if (quoted := _CHAT_MENTION.fullmatch(target)) is not None:  # <@U0BOSS>, as Slack and Discord write it
        target = "@" + quoted.group(1)
    if target.startswith("@") and not _USER.fullmatch(target):  # "@" alone, or with spaces: nobody to mention
        raise refusal("forbidden_channel.escalation", {"argument": "escalate_to"}, target=target)
    if not target.startswith("@"):
        default = deps.settings.default_platform
        key = routing.named_room(target, ctx.room_id, default)
        if key is None or not routing.output_allowed(key, ctx.room_id, deps.settings.allowed_output_rooms, default):
            raise refusal("forbidden_channel.escalation", {"argument": "escalate_to"}, target=target)
    return target
