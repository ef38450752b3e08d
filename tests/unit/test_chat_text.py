"""Chat texts: mentions, locales, escaping, and no way to mention the whole room."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.domain.messages import MENTION, STRONG, ChatMessage, Span
from cronbell.core.text.chat_text import (
    MAX_TEXT_CHARS,
    WORD_JOINER,
    agent_answer_message,
    display_name,
    fit,
    late_note,
    mention_label,
    missed_text,
    notice_message,
    reminder_message,
)
from cronbell.core.text.texts import language
from tests.support.html import parse_html

ROOM = "!abc:example.org"
ANA = "@ana:example.org"
MADRID = ZoneInfo("Europe/Madrid")


def test_reminder_in_english_mentions_the_user() -> None:
    msg = reminder_message(ROOM, ANA, "Team meeting", "en")
    assert msg.room_id == ROOM
    assert msg.text == "⏰ @ana Reminder: Team meeting"
    assert msg.html == '⏰ <a href="https://matrix.to/#/@ana:example.org">@ana</a> Reminder: Team meeting'
    assert msg.mentions == (ANA,)


@pytest.mark.parametrize("locale", ["es", "es-ES", "es_MX", "ES"])
def test_reminder_in_spanish(locale: str) -> None:
    msg = reminder_message(ROOM, ANA, "Reunión con el equipo", locale)
    assert msg.text == "⏰ @ana Recordatorio: Reunión con el equipo"
    assert msg.html.endswith("Recordatorio: Reunión con el equipo")


@pytest.mark.parametrize("locale", ["en", "en-GB", "fr", "", "pt-BR", "e"])
def test_other_locales_fall_back_to_english(locale: str) -> None:
    assert language(locale) == "en"
    assert "Reminder:" in reminder_message(ROOM, ANA, "x", locale).text


def test_display_name_is_the_localpart() -> None:
    assert display_name("@ana:example.org") == "ana"
    assert display_name("@bob.smith:matrix.example.org:8448") == "bob.smith"
    assert display_name("carol") == "carol"


def test_html_in_the_reminder_text_is_escaped() -> None:
    attack = '<img src=x onerror=alert(1)> <a href="https://evil">click</a> & <script>x</script>'
    msg = reminder_message(ROOM, ANA, attack, "en")
    tags = parse_html(msg.html).tags
    assert [tag for tag, _ in tags] == ["a"], "only the mention link is markup"
    assert tags[0][1] == {"href": "https://matrix.to/#/@ana:example.org"}
    assert "&lt;img src=x onerror=alert(1)&gt;" in msg.html
    assert "&amp;" in msg.html
    assert "<script>" not in msg.html
    assert msg.text.endswith(attack), "the plain body keeps the text as written"


def test_a_hostile_user_id_cannot_break_the_link() -> None:
    msg = reminder_message(ROOM, '@x"><script>:example.org', "hi", "en")
    tags = parse_html(msg.html).tags
    assert [tag for tag, _ in tags] == ["a"]
    assert tags[0][1]["href"] == 'https://matrix.to/#/@x"><script>:example.org'


@pytest.mark.parametrize("text", ["@room wake up", "hey @ROOM!", "ping @room", "a\n@Room"])
def test_room_mentions_are_neutralized(text: str) -> None:
    for msg in (
        reminder_message(ROOM, ANA, text, "en"),
        agent_answer_message(ROOM, "daily", text, "en"),
        notice_message(ROOM, text),
    ):
        for rendered in (msg.text, parse_html(msg.html).text):
            assert not re.search(r"@room\b", rendered, re.IGNORECASE), rendered
            assert "@" + WORD_JOINER in rendered
        assert msg.text.replace(WORD_JOINER, "").lower().count("@room") == 1


def test_words_that_only_start_like_room_are_left_alone() -> None:
    msg = reminder_message(ROOM, ANA, "ask @roommate and email a@rooms.example", "en")
    assert msg.text.endswith("ask @roommate and email a@rooms.example")


def test_a_user_called_room_does_not_mention_the_room() -> None:
    msg = reminder_message(ROOM, "@room:example.org", "x", "en")
    assert "@room " not in msg.text
    assert "@room<" not in msg.html
    assert msg.mentions == ("@room:example.org",)


def test_line_breaks_survive_in_html() -> None:
    msg = reminder_message(ROOM, ANA, "line one\nline <two>", "en")
    assert msg.html.endswith("line one<br>line &lt;two&gt;")
    assert msg.text.endswith("line one\nline <two>")


def test_agent_answer_has_a_header_naming_the_schedule() -> None:
    msg = agent_answer_message(ROOM, "weekly <summary>", "All good.\n3 items & 1 risk", "en")
    assert msg.text == "🤖 Scheduled task: weekly <summary>\nAll good.\n3 items & 1 risk"
    assert msg.html == (
        "🤖 <strong>Scheduled task: weekly &lt;summary&gt;</strong><br>All good.<br>3 items &amp; 1 risk"
    )
    assert msg.mentions == ()
    es = agent_answer_message(ROOM, "resumen", "Todo bien", "es-ES")
    assert es.text == "🤖 Tarea programada: resumen\nTodo bien"


def test_long_answers_are_clipped() -> None:
    msg = agent_answer_message(ROOM, "n", "é" * (MAX_TEXT_CHARS * 3), "en")
    answer = msg.text.split("\n", 1)[1]
    assert len(answer) == MAX_TEXT_CHARS
    assert answer.endswith("…")
    assert len(msg.text.encode()) + len(msg.html.encode()) < 60_000


def test_notice_is_escaped_plain_text() -> None:
    msg = notice_message(ROOM, "the agent did not answer within 120 s <b>")
    assert msg.text == "the agent did not answer within 120 s <b>"
    assert msg.html == "the agent did not answer within 120 s &lt;b&gt;"
    assert msg.mentions == ()


# ---- the platform-neutral spans other platforms render from ----------------------------------------


def _plain(spans: tuple[Span, ...]) -> str:
    return "".join(mention_label(s.text) if s.style == MENTION else s.text for s in spans)


def test_reminder_spans_keep_the_user_id_and_the_raw_text() -> None:
    msg = reminder_message(ROOM, ANA, "tea <b> & @room", "es")
    assert msg.spans == (
        Span("⏰ "),
        Span(ANA, MENTION),
        Span(" Recordatorio: "),
        Span(f"tea <b> & @{WORD_JOINER}room"),
    )


def test_agent_answer_spans_have_a_strong_header() -> None:
    msg = agent_answer_message(ROOM, " weekly <summary> ", "All good.\n3 items", "en")
    assert msg.spans == (
        Span("🤖 "),
        Span("Scheduled task: weekly <summary>", STRONG),
        Span("\n"),
        Span("All good.\n3 items"),
    )


@pytest.mark.parametrize("text", ["x", "@room <i>hi</i>\nline", "é" * (MAX_TEXT_CHARS + 10)])
def test_spans_read_the_same_as_the_plain_body(text: str) -> None:
    for msg in (
        reminder_message(ROOM, ANA, text, "en"),
        agent_answer_message(ROOM, text, text, "es"),
        notice_message(ROOM, text),
    ):
        assert msg.parts() == msg.spans
        assert _plain(msg.spans) == msg.text


def test_a_message_built_by_hand_is_one_plain_span() -> None:
    assert ChatMessage(ROOM, "hello <b>", "hello &lt;b&gt;").parts() == (Span("hello <b>"),)


def test_fit_shortens_the_longest_text_and_never_a_mention() -> None:
    spans = (Span("⏰ "), Span("U" + "1" * 40, MENTION), Span(" Reminder: "), Span("a" * 100))
    short = fit(spans, 100)
    assert sum(len(s.text) for s in short) == 100
    assert short[:3] == spans[:3]
    assert short[3].text == "a" * (100 - 2 - 41 - 11 - 1) + "…"
    assert fit(spans, 1000) == spans


def test_fit_shares_the_cut_between_header_and_answer() -> None:
    spans = (Span("🤖 "), Span("h" * 300, STRONG), Span("\n"), Span("b" * 300))
    short = fit(spans, 200)
    assert sum(len(s.text) for s in short) == 199  # 2 + 1 + two shares of 98
    assert [s.style for s in short] == ["plain", STRONG, "plain", "plain"]
    assert short[1] == Span("h" * 97 + "…", STRONG) and short[3] == Span("b" * 97 + "…")
    assert short[:1] + short[2:3] == (Span("🤖 "), Span("\n"))


@pytest.mark.parametrize(
    ("due", "locale", "expected"),
    [
        ("2026-12-04T16:00:00Z", "en", "(late: it was due Friday 4 December, 17:00)"),  # CET, UTC+1
        ("2026-07-03T15:00:00Z", "en", "(late: it was due Friday 3 July, 17:00)"),  # CEST, UTC+2
        ("2026-12-04T16:00:00Z", "es", "(con retraso: era para el viernes 4 de diciembre, 17:00)"),
        ("2026-07-03T15:00:00Z", "es-ES", "(con retraso: era para el viernes 3 de julio, 17:00)"),
    ],
)
def test_the_late_note_says_the_date_as_the_answers_do(due: str, locale: str, expected: str) -> None:
    at = datetime.fromisoformat(due)
    assert late_note(at, MADRID, at.replace(hour=20), locale) == expected


@pytest.mark.parametrize(
    ("zone", "locale", "expected"),
    [  # 22:50 UTC on New Year's Eve is 23:50 in Madrid, where it is already 2027 at delivery (23:10 UTC)
        (MADRID, "en", "(late: it was due Thursday 31 December 2026, 23:50)"),
        (MADRID, "es", "(con retraso: era para el jueves 31 de diciembre de 2026, 23:50)"),
        (ZoneInfo("UTC"), "en", "(late: it was due Thursday 31 December, 22:50)"),
        (ZoneInfo("UTC"), "es", "(con retraso: era para el jueves 31 de diciembre, 22:50)"),
    ],
)
def test_the_year_is_said_when_it_is_not_the_current_one_in_the_zone(
    zone: ZoneInfo, locale: str, expected: str
) -> None:
    due, now = datetime(2026, 12, 31, 22, 50, tzinfo=UTC), datetime(2026, 12, 31, 23, 10, tzinfo=UTC)
    assert late_note(due, zone, now, locale) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", "⏰ Missed reminder for ana (it was due Sunday 29 March, 03:30): Call the dentist"),
        ("es", "⏰ Recordatorio perdido para ana (era para el domingo 29 de marzo, 03:30): Call the dentist"),
    ],
)
def test_the_missed_notice_says_its_date_in_the_zone_on_a_dst_day(locale: str, expected: str) -> None:
    due = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # the night Madrid skips 02:00-03:00: 03:30 CEST
    now = datetime(2026, 3, 29, 10, 0, tzinfo=UTC)
    said = missed_text(ANA, "Call the dentist", due, MADRID, now, locale)
    assert said == expected
    assert "CEST" not in said and "2026-03-29" not in said and "Europe/Madrid" not in said
