"""The sandbox's stand-ins of Slack's, Discord's and Telegram's APIs check each bot token as the platform
does, record what a good one posts with its platform and workspace, and answer 429 with each platform's
retry hint when asked. The real senders against them, end to end: tests/e2e/test_e2e_platforms.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sandbox.chat import SinkChat
from sandbox.clock import VirtualClock
from sandbox.platforms import PlatformStandIns

SNOOZE = {"type": "button", "text": {"type": "plain_text", "text": "Snooze"}, "value": "cb1 s k3v9q2m8xa 10"}


@pytest.fixture
def stand_ins() -> PlatformStandIns:
    return PlatformStandIns(SinkChat(VirtualClock(datetime(2030, 1, 7, 8, tzinfo=UTC))), ("T0ALPHA", "T0BRAVO"))


def test_slack_takes_each_workspaces_token_and_records_whose_it_was(stand_ins: PlatformStandIns) -> None:
    body = {"channel": "C0ONE", "text": "hi <@U0ANA>", "blocks": [{"type": "actions", "elements": [SNOOZE]}]}
    for team in ("T0BRAVO", "T0ALPHA"):
        answer = stand_ins.slack_post(f"Bearer {stand_ins.slack_tokens[team]}", body)
        assert answer.status == 200 and answer.body["ok"] is True
    refused = stand_ins.slack_post("Bearer xoxb-someone-else", body)
    assert (refused.status, refused.body) == (200, {"ok": False, "error": "invalid_auth"})

    messages = stand_ins.sink.messages("C0ONE")
    assert [(m["platform"], m["workspace"]) for m in messages] == [("slack", "T0BRAVO"), ("slack", "T0ALPHA")]
    assert messages[0]["mentions"] == ["U0ANA"]
    assert messages[0]["actions"] == [
        {"label": "Snooze", "tool": "snooze_reminder", "arguments": {"id": "k3v9q2m8xa", "minutes": 10}}
    ]


def test_discord_and_telegram_take_their_bot_tokens_only(stand_ins: PlatformStandIns) -> None:
    content = {
        "content": "hi <@301234567890123456>",
        "allowed_mentions": {"parse": [], "users": ["301234567890123456"]},
    }
    assert stand_ins.discord_post("Bot wrong", "1100000000000000001", content).status == 401
    assert stand_ins.discord_post(f"Bot {stand_ins.discord_token}", "general", content).status == 404
    posted = stand_ins.discord_post(f"Bot {stand_ins.discord_token}", "1100000000000000001", content)
    assert posted.status == 200 and posted.body["id"]

    text = {"chat_id": -1001234567890, "text": 'hi <a href="tg://user?id=777000">@777000</a>', "parse_mode": "HTML"}
    assert stand_ins.telegram_send("123:wrong", text).status == 401
    sent = stand_ins.telegram_send(stand_ins.telegram_token, text)
    assert sent.status == 200 and isinstance(sent.body["result"]["message_id"], int)

    (discord,) = stand_ins.sink.messages("1100000000000000001")
    (telegram,) = stand_ins.sink.messages("-1001234567890")
    assert (discord["platform"], discord["workspace"], discord["mentions"]) == ("discord", None, ["301234567890123456"])
    assert (telegram["platform"], telegram["workspace"], telegram["mentions"]) == ("telegram", None, ["777000"])


def test_a_rate_limit_answers_each_platforms_retry_hint_then_lets_posts_through(stand_ins: PlatformStandIns) -> None:
    for platform in ("slack", "discord", "telegram"):
        stand_ins.limit(platform, 1, 2.5)
    slack = stand_ins.slack_post(f"Bearer {stand_ins.slack_tokens['T0ALPHA']}", {"channel": "C1", "text": "x"})
    assert (slack.status, slack.headers["Retry-After"]) == (429, "2.5")
    discord = stand_ins.discord_post(f"Bot {stand_ins.discord_token}", "1100000000000000001", {"content": "x"})
    assert (discord.status, discord.body["retry_after"]) == (429, 2.5)
    telegram = stand_ins.telegram_send(stand_ins.telegram_token, {"chat_id": 1, "text": "x"})
    assert (telegram.status, telegram.body["parameters"]["retry_after"]) == (429, 2.5)
    assert stand_ins.limits() == {p: {"pending": 0, "answered": 1} for p in ("slack", "discord", "telegram")}
    assert stand_ins.sink.messages("C1") == []  # a limited post is not recorded
    with pytest.raises(ValueError):
        stand_ins.limit("irc", 1, 1)


def test_serve_takes_the_readme_s_slack_teams_and_refuses_an_id_that_is_not_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--slack-teams T1,T2` (the README's) names two workspaces; a lower-case or malformed id is refused at
    the command line, where a stand-in given it would have had a token no deployment could use."""
    from sandbox.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve", "--slack-teams", "T1, T2"]).slack_teams == ("T1", "T2")
    assert parser.parse_args(["serve"]).slack_teams == ("T0SANDBOX",)
    for wrong in ("t1", "T1,workspace", "X0ABC"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--slack-teams", wrong])
        assert "is not a Slack team id" in capsys.readouterr().err
