"""The chat platforms a deployment may configure, each declared once.

An entry names what the platform needs: its own secret (the variable the functions read, the template
parameter that sets it), the settings it cannot work without, and the module of its sender. Routing,
the settings, the sender factory (`cronbell.adapters.chat.build_sender`) and the template read this
table: scripts/template_platforms.py writes the template's chat parameters, conditions, rules, secret
grants and function variables from it (tests/infra fails when the template differs). Adding a platform
is an entry here, its sender module and its tests (docs/architecture.md, "Adding a chat platform").
"""

from __future__ import annotations

from cronbell.core.values import value


@value
class Needed:
    """One setting a platform reads: the `Settings` attribute, its variable, its template parameter, and
    what the template says of that parameter (`doc`; `pattern`, which defaults to a secret's ARN)."""

    setting: str
    env: str
    parameter: str
    doc: str = ""
    pattern: str = ""

    @property
    def is_secret(self) -> bool:
        """A Secrets Manager secret's ARN: the functions that post are granted it when it is set."""
        return self.parameter.endswith("SecretArn")


@value
class Platform:
    name: str
    secret: Needed  # the platform's own secret (else the shared one, SHARED_SECRET)
    secret_required: bool  # False: the platform works without any secret (the webhook posts unsigned)
    needs: tuple[Needed, ...] = ()  # settings it cannot work without
    sender: str = ""  # the module whose `sender(settings, secret, refresh)` builds its ChatSender
    # other ways to reach the platform without `secret`: each group, all set, serves instead of it
    instead: tuple[tuple[Needed, ...], ...] = ()
    workspaces: bool = False  # one bot, several workspaces with a token each (the context names the workspace)
    # the form of a room (and thread) id when the platform posts to the room an id names: refused at the call,
    # not at the first fire; `room_ids_with` is the setting that makes it post so ("": always)
    room_ids: str = ""
    room_ids_with: str = ""

    @property
    def sender_module(self) -> str:
        return self.sender or f"cronbell.adapters.chat.{self.name}"


SHARED_SECRET = Needed(
    "chat_token_secret",
    "CHAT_TOKEN_SECRET",
    "ChatTokenSecretArn",
    "Shared secret, read by every configured platform that has no secret of its own above: with one backend,"
    " simply its token (deployments from before each platform had its own secret keep working unchanged);"
    " with several, a JSON object holding each platform's token under its name, e.g."
    ' {"matrix": "syt_...", "slack": "xoxb-..."}. Prefer one secret per platform. Empty when unused.',
)

REGISTRY: dict[str, Platform] = {
    p.name: p
    for p in (
        Platform(
            "matrix",
            Needed(
                "",
                "MATRIX_TOKEN_SECRET",
                "MatrixTokenSecretArn",
                "Full ARN of an existing Secrets Manager secret holding the Matrix bot's access token (raw, or"
                ' {"access_token": "..."}). Create it yourself; it never appears in this template.',
            ),
            True,
            (
                Needed(
                    "matrix_homeserver_url",
                    "MATRIX_HOMESERVER_URL",
                    "MatrixHomeserverUrl",
                    "Base URL of the Matrix homeserver (https, e.g. https://matrix.example.org) when ChatBackend is"
                    " matrix: the access token goes with every request.",
                    r'^$|^https://[^\s"]+$',
                ),
            ),
        ),
        Platform(
            "slack",
            Needed(
                "",
                "SLACK_TOKEN_SECRET",
                "SlackTokenSecretArn",
                "Full ARN of an existing secret holding the Slack bot token (xoxb-..., scope chat:write), or a JSON"
                ' object of bot tokens by workspace, {"T0123": "xoxb-...", "T0456": "xoxb-..."}: a room\'s workspace'
                " is the bot's context.team_id, and a workspace without a token is never posted to.",
            ),
            True,
            instead=(  # a Bolt app's AmazonS3InstallationStore: a bot token per workspace
                (
                    Needed(
                        "slack_installation_bucket",
                        "SLACK_INSTALLATION_BUCKET",
                        "SlackInstallationBucket",
                        "Instead of a token secret: the S3 bucket of your Bolt app's AmazonS3InstallationStore"
                        " (with SlackClientId); the bot token of each workspace is read from it.",
                        r"^$|^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
                    ),
                    Needed(
                        "slack_client_id",
                        "SLACK_CLIENT_ID",
                        "SlackClientId",
                        "The Slack app's client id, the installation store's prefix in SlackInstallationBucket.",
                        r"^$|^[0-9]+\.[0-9]+$",
                    ),
                ),
            ),
            workspaces=True,
        ),
        Platform(
            "telegram",
            Needed(
                "",
                "TELEGRAM_TOKEN_SECRET",
                "TelegramTokenSecretArn",
                "Full ARN of an existing secret holding the Telegram bot token from BotFather.",
            ),
            True,
        ),
        Platform(
            "discord",
            Needed(
                "",
                "DISCORD_WEBHOOK_SECRET",
                "DiscordWebhookSecretArn",
                "Full ARN of an existing secret holding the Discord channel's incoming-webhook URL (one channel).",
            ),
            True,
            instead=(
                (
                    Needed(
                        "discord_bot_token_secret",
                        "DISCORD_BOT_TOKEN_SECRET",
                        "DiscordBotTokenSecretArn",
                        "Instead of a webhook: full ARN of an existing secret holding the Discord bot's token; a"
                        " room id is then a channel id, and each post goes to its channel (one bot, many servers"
                        " and channels).",
                    ),
                ),
            ),
            room_ids=r"[0-9]{15,21}",  # a channel's snowflake (a thread is a channel)
            room_ids_with="discord_bot_token_secret",
        ),
        Platform(
            "webhook",
            Needed(
                "",
                "WEBHOOK_SIGNING_SECRET",
                "WebhookSigningSecretArn",
                "Full ARN of an existing secret holding the generic webhook's HMAC signing secret; empty sends"
                " the webhook's posts unsigned.",
            ),
            False,  # optional: without it the webhook's posts go unsigned
            (
                Needed(
                    "chat_webhook_url",
                    "CHAT_WEBHOOK_URL",
                    "ChatWebhookUrl",
                    "Endpoint URL when ChatBackend includes webhook (Discord's webhook URL goes in"
                    " DiscordWebhookSecretArn's secret instead). Shown as typed in the stack and the functions'"
                    " environment: use an endpoint whose credential is the signing secret (WebhookSigningSecretArn),"
                    " not one whose URL holds it.",
                    r'^$|^https://[^\s"]+$',
                ),
            ),
        ),
    )
}

PLATFORMS = tuple(REGISTRY)  # the chat backends a deployment may configure; the default one is "matrix"
