"""Many workspaces, many channels, through the sandbox: the real Slack, Discord and Telegram senders post
to the sandbox's stand-ins of those platforms' APIs, which check each token as the platform would and
record which token (so which workspace) posted. A Slack room is in the workspace its bot's `context.team_id`
names; a workspace the deployment has no token for fails the run `unknown_workspace` and posts nowhere."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox.demo import SandboxProcess
from tests.support.sandbox import Bot, StartSandbox

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TEAMS = ("T0ALPHA", "T0BRAVO")  # the sandbox has bot tokens for these two; T0CHARLIE has none
SHARED = "C0SHARED1"  # the same channel id in both workspaces: two rooms all the same
SLACK_USER = "U0ANA1234"
DISCORD_USER = "301234567890123456"


@pytest.fixture
def sandbox(start_sandbox: StartSandbox) -> SandboxProcess:
    return start_sandbox("--start", "2030-01-07T08:00:00Z", "--slack-teams", ",".join(TEAMS))


def slack_bot(sandbox: SandboxProcess, team: str, room: str = SHARED) -> Bot:
    return Bot(sandbox, room, SLACK_USER, platform="slack", team_id=team)


def remind(bot: Bot, message: str) -> str:
    return bot.create(message=message, time="in 30 minutes")


def history(bot: Bot, schedule_id: str) -> list[dict[str, Any]]:
    answer = bot.call("reminder_history", id=schedule_id)
    assert answer["ok"], answer
    runs: list[dict[str, Any]] = answer["result"]["runs"]
    return runs


def test_each_workspace_is_posted_to_with_its_own_token_and_an_unknown_one_fails(sandbox: SandboxProcess) -> None:
    alpha, bravo = slack_bot(sandbox, TEAMS[0]), slack_bot(sandbox, TEAMS[1])
    charlie = slack_bot(sandbox, "T0CHARLIE")
    ids = {remind(alpha, "alpha stand-up"), remind(bravo, "bravo stand-up")}
    lost = remind(charlie, "charlie stand-up")

    fired = alpha.advance(3600)

    assert {f["schedule"] for f in fired if f["ok"]} >= ids
    posted = [(m["platform"], m["workspace"], m["text"]) for m in alpha.messages()]
    assert sorted(posted) == [
        ("slack", "T0ALPHA", f"⏰ <@{SLACK_USER}> Reminder: alpha stand-up"),
        ("slack", "T0BRAVO", f"⏰ <@{SLACK_USER}> Reminder: bravo stand-up"),
    ]
    assert all(m["mentions"] == [SLACK_USER] for m in alpha.messages())
    (run,) = history(charlie, lost)
    assert (run["outcome"], run["reason"]) == ("failed", "unknown_workspace")
    assert all(m["workspace"] != "T0CHARLIE" for m in alpha.messages())  # nothing posted with another's token
    # the same channel id in three workspaces: each run's event names the workspace its schedule is in
    finished = [
        e["detail"] for e in sandbox.get(f"/_sandbox/events?room_id={SHARED}") if e["detail_type"] == "Run Finished"
    ]
    assert sorted((e["workspace"], e["outcome"]) for e in finished) == [
        ("T0ALPHA", "delivered"),
        ("T0BRAVO", "delivered"),
        ("T0CHARLIE", "failed"),
    ]


def test_an_agent_prompt_names_the_workspace_of_its_room(sandbox: SandboxProcess) -> None:
    bot = slack_bot(sandbox, TEAMS[1], room="C0AGENTS1")
    job = bot.call("cron_create", name="ws", prompt="ws={workspace} room={room_id}", fire_at="in 30 minutes")
    assert job["ok"], job
    bot.advance(3600)
    assert [m["text"].splitlines()[-1] for m in bot.messages()] == ["echo: ws=T0BRAVO room=C0AGENTS1"]


def test_a_slack_button_works_in_its_own_workspace_only(sandbox: SandboxProcess) -> None:
    alpha, bravo = slack_bot(sandbox, TEAMS[0]), slack_bot(sandbox, TEAMS[1])
    reminder = alpha.create(message="water the plants", cron="0 10 * * *")
    alpha.advance(3 * 3600)
    (message,) = alpha.messages()
    snooze = next(a for a in message["actions"] if a["tool"] == "snooze_reminder")
    assert snooze["arguments"]["id"] == reminder

    # the bot forwards the tap with the room's context: the same channel id in another workspace is another room
    elsewhere = bravo.call(snooze["tool"], **snooze["arguments"])
    assert (elsewhere["ok"], elsewhere["error"]["code"]) == (False, "not_found")
    tapped = alpha.call(snooze["tool"], **snooze["arguments"])
    assert tapped["ok"], tapped
    alpha.advance(15 * 60)
    again = [m for m in alpha.messages() if m["text"].endswith("water the plants")]
    assert [m["workspace"] for m in again] == ["T0ALPHA", "T0ALPHA"]


def test_a_discord_bot_posts_to_each_channel_its_room_names(sandbox: SandboxProcess) -> None:
    channels = ("1100000000000000001", "1100000000000000002")
    bots = [Bot(sandbox, channel, DISCORD_USER, platform="discord") for channel in channels]
    for bot, channel in zip(bots, channels, strict=True):
        remind(bot, f"@everyone see channel {channel[-1]}")

    bots[0].advance(3600)

    for bot, channel in zip(bots, channels, strict=True):
        (message,) = bot.messages()
        assert (message["platform"], message["workspace"], message["room_id"]) == ("discord", None, channel)
        assert message["text"].startswith(f"⏰ <@{DISCORD_USER}> Reminder: ")
        assert f"see channel {channel[-1]}" in message["text"]
        assert message["mentions"] == [DISCORD_USER]  # allowed_mentions: that user alone
        assert {a["tool"] for a in message["actions"]} == {"snooze_reminder"}


def test_a_telegram_chat_gets_its_post_and_the_default_platform_keeps_its_own(sandbox: SandboxProcess) -> None:
    telegram = Bot(sandbox, "-1001234567890", "777000", platform="telegram")
    webhook = Bot(sandbox, "!plain:localhost")
    remind(telegram, "pay the rent")
    remind(webhook, "pay the rent")

    telegram.advance(3600)

    (sent,) = telegram.messages()
    assert (sent["platform"], sent["workspace"]) == ("telegram", None)
    assert "pay the rent" in sent["text"] and sent["mentions"] == ["777000"]
    (hooked,) = webhook.messages()
    assert (hooked["platform"], hooked["workspace"]) == ("webhook", None)


@pytest.mark.parametrize("platform", ["slack", "discord", "telegram"])
def test_a_rate_limit_is_waited_out_and_the_post_made_once(sandbox: SandboxProcess, platform: str) -> None:
    rooms = {"slack": "C0LIMITED", "discord": "1100000000000000009", "telegram": "424242"}
    context = {"platform": platform, **({"team_id": TEAMS[0]} if platform == "slack" else {})}
    bot = Bot(sandbox, rooms[platform], **context)
    reminder = remind(bot, "after the wait")
    limits = sandbox.post("/_sandbox/chat/rate-limit", {"platform": platform, "count": 2, "retry_after": 1})
    assert limits[platform] == {"pending": 2, "answered": 0}

    bot.advance(3600)

    assert sandbox.get("/_sandbox/chat/rate-limit")[platform] == {"pending": 0, "answered": 2}
    (message,) = bot.messages()
    assert message["platform"] == platform and "after the wait" in message["text"]
    (run,) = history(bot, reminder)
    assert run["outcome"] == "delivered"
