"""Chat message texts: a plain body and an HTML body for every message cronbell posts, and the
platform-neutral spans they are made of, for senders that render their own markup (Slack, Telegram,
Discord).

User and agent text is always escaped (it can never inject HTML) and can never mention the
whole room: "@room" gets an invisible word joiner after the "@", so no client or push rule
reads it as a room mention.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from datetime import datetime, tzinfo

from cronbell.core.domain.actions import Action
from cronbell.core.domain.messages import MENTION, STRONG, ChatMessage, Span
from cronbell.core.domain.phrases import Phrase
from cronbell.core.text.texts import say, when_text

MAX_TEXT_CHARS = 6000  # keeps body + formatted_body well under Matrix's 64 KiB event limit
WORD_JOINER = "\u2060"
_ROOM_MENTION = re.compile(r"@(?=room(?![A-Za-z0-9_]))", re.IGNORECASE)


def neutralize_room_mention(text: str) -> str:
    return _ROOM_MENTION.sub("@" + WORD_JOINER, text)


def clip(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(spans: tuple[Span, ...], limit: int) -> tuple[Span, ...]:
    """Clip the longest text spans (never a mention) to one common length, the largest that keeps the
    spans' text within `limit` characters: for platforms whose limit is lower than MAX_TEXT_CHARS
    (Discord 2000, Telegram 4096). A long header and a long answer share the cut."""
    if sum(len(s.text) for s in spans) <= limit:
        return spans
    budget = limit - sum(len(s.text) for s in spans if s.style == MENTION)
    lengths = [len(s.text) for s in spans if s.style != MENTION]
    low, high = 1, max(lengths, default=1)  # the largest cap whose clipped total fits the budget
    while low < high:
        cap = (low + high + 1) // 2
        if sum(min(n, cap) for n in lengths) <= budget:
            low = cap
        else:
            high = cap - 1
    return tuple(s if s.style == MENTION else Span(clip(s.text, low), s.style) for s in spans)


def _safe(text: str) -> str:
    """Untrusted text, ready for the plain body."""
    return neutralize_room_mention(clip(text))


def _html(text: str) -> str:
    """Untrusted text (already `_safe`), ready for the HTML body: escaped, line breaks kept."""
    return html.escape(text, quote=False).replace("\r\n", "\n").replace("\n", "<br>")


def display_name(user_id: str) -> str:
    """The localpart of a Matrix user id: "@ana:example.org" -> "ana"."""
    return user_id.removeprefix("@").split(":", 1)[0] or user_id


def mention_label(user_id: str) -> str:
    """ "@ana" for "@ana:example.org" (and never a bare "@room")."""
    return neutralize_room_mention("@" + display_name(user_id))


def mention_link(user_id: str) -> str:
    """An HTML mention ("pill") of the user."""
    label = html.escape(mention_label(user_id), quote=False)
    href = html.escape(f"https://matrix.to/#/{user_id}", quote=True)
    return f'<a href="{href}">{label}</a>'


def release_message(
    room_id: str, user_id: str, items: list[tuple[str, str, tuple[Action, ...]]], locale: str
) -> ChatMessage:
    """ "🌙 @ana Held during your quiet hours:" then one line per held reminder (its text and its
    time said, oldest first), mentioning the user once, with each reminder's actions. Several are
    numbered, and so is each of their buttons ("2 · Skip next"), one row of buttons per reminder."""
    label = say("chat.release", locale)
    several = len(items) > 1
    marks = [f"{n}." if several else "•" for n in range(1, len(items) + 1)]
    lines = [(mark, _safe(text), when) for mark, (text, when, _) in zip(marks, items, strict=True)]
    plain = "".join(f"\n{mark} {text} ({when})" for mark, text, when in lines)
    rich = "".join(f"<br>{mark} {_html(text)} ({html.escape(when, quote=False)})" for mark, text, when in lines)
    actions = tuple(
        replace(action, label=f"{n} · {action.label}" if several else action.label, row=n - 1)
        for n, (_, _, listed) in enumerate(items, start=1)
        for action in listed
    )
    return ChatMessage(
        room_id=room_id,
        text=f"🌙 {mention_label(user_id)} {label}:{plain}",
        html=f"🌙 {mention_link(user_id)} {label}:{rich}",
        mentions=(user_id,),
        spans=(Span("🌙 "), Span(user_id, MENTION), Span(f" {label}:{plain}")),
        actions=actions,
    )


def button_rows(actions: tuple[Action, ...], width: int, rows: int) -> list[list[Action]]:
    """The actions as rows of buttons for a platform that allows `width` buttons a row and `rows`
    rows: one row per `Action.row` (a reminder of a release), split when wider, and what does not fit
    left out (the message's text still lists every reminder)."""
    grouped: list[list[Action]] = []
    for action in actions:
        if grouped and grouped[-1][0].row == action.row and len(grouped[-1]) < width:
            grouped[-1].append(action)
        else:
            grouped.append([action])
    return grouped[:rows]


def reminder_message(room_id: str, user_id: str, text: str, locale: str) -> ChatMessage:
    """ "⏰ @ana Reminder: <text>", mentioning the user who set it."""
    label = say("chat.reminder", locale)
    body_text = _safe(text)
    return ChatMessage(
        room_id=room_id,
        text=f"⏰ {mention_label(user_id)} {label}: {body_text}",
        html=f"⏰ {mention_link(user_id)} {label}: {_html(body_text)}",
        mentions=(user_id,),
        spans=(Span("⏰ "), Span(user_id, MENTION), Span(f" {label}: "), Span(body_text)),
    )


def repeat_note(number: int, times: int, locale: str) -> str:
    """The line under a repeated reminder: which repeat it is, and how to stop them."""
    return say("chat.repeat_note", locale, number=number, times=times)


def escalation_message(room_id: str, mention: str, user_id: str, text: str, times: int, locale: str) -> ChatMessage:
    """ "⚠️ @boss Not acknowledged after 3 reminder(s) to @ana: <text>", mentioning `mention` (a user
    id; "" when the escalation goes to a room of its own) and naming the user reminded."""
    body_text = _safe(text)
    plain = say("chat.escalation", locale, who="{who}", times=times, user=mention_label(user_id), text=body_text)
    marked = say("chat.escalation", locale, who="{who}", times=times, user="\x00", text="\x01")
    head, _, rest = marked.partition("{who}")
    before_user, _, after_user = rest.partition("\x00")
    between, _, tail = after_user.partition("\x01")
    who_text = f"{mention_label(mention)} " if mention else ""
    who_html = f"{mention_link(mention)} " if mention else ""
    spans = (
        Span(head),
        *((Span(mention, MENTION), Span(" ")) if mention else ()),
        Span(before_user),
        Span(user_id, MENTION),
        Span(between),
        Span(body_text),
        Span(tail),
    )
    return ChatMessage(
        room_id=room_id,
        text=plain.replace("{who}", who_text),
        html=(
            f"{_html(head)}{who_html}{_html(before_user)}{mention_link(user_id)}{_html(between)}"
            f"{_html(body_text)}{_html(tail)}"
        ),
        mentions=(mention,) if mention else (),
        spans=tuple(s for s in spans if s.text),
    )


def agent_answer_message(room_id: str, name: str, answer: str, locale: str) -> ChatMessage:
    """An agent's answer, under a short header naming the schedule that asked for it."""
    label = say("chat.task", locale)
    safe_name = _safe(name.strip())
    safe_answer = _safe(answer.strip())
    return ChatMessage(
        room_id=room_id,
        text=f"🤖 {label}: {safe_name}\n{safe_answer}",
        html=f"🤖 <strong>{label}: {_html(safe_name)}</strong><br>{_html(safe_answer)}",
        spans=(Span("🤖 "), Span(f"{label}: {safe_name}", STRONG), Span("\n"), Span(safe_answer)),
    )


def due_text(due: datetime, tz: tzinfo, now: datetime, locale: str) -> str:
    """When a run was due, said as the answers say a date: in the schedule's zone `tz`, with its
    weekday ('Friday 4 December, 17:00' / 'viernes 4 de diciembre, 17:00'), the year only when it is
    not the reader's current one."""
    return when_text(due, tz, locale, now.astimezone(tz).year)


def late_note(due: datetime, tz: tzinfo, now: datetime, locale: str) -> str:
    """The line under a one-shot delivered late: '(late: it was due Friday 4 December, 17:00)'."""
    return say("late_note", locale, due=due_text(due, tz, now, locale))


def missed_text(user_id: str, what: str, due: datetime, tz: tzinfo, now: datetime, locale: str) -> str:
    """The notice of a one-shot whose time passed undelivered, naming the user and when it was due."""
    return say("missed", locale, user=display_name(user_id), due=due_text(due, tz, now, locale), text=what)


def agent_failed_message(room_id: str, name: str, reason: Phrase | str, locale: str) -> ChatMessage:
    """The notice that an agent call produced no answer, naming the schedule and the reason."""
    return notice_message(room_id, say("chat.agent_failed", locale, label=name.strip(), reason=reason))


def notice_message(room_id: str, text: str) -> ChatMessage:
    """A short plain notice, e.g. that an agent did not answer in time."""
    safe = _safe(text)
    return ChatMessage(room_id=room_id, text=safe, html=_html(safe), spans=(Span(safe),))


def with_note(message: ChatMessage, note: str) -> ChatMessage:
    """The message with one more line at its end (a lateness mark, "works again")."""
    safe = _safe(note)
    return replace(
        message,
        text=f"{message.text}\n{safe}",
        html=f"{message.html}<br>{_html(safe)}",
        spans=(*message.parts(), Span("\n"), Span(safe)) if message.spans else (),
    )
