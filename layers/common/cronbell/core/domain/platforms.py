"""The chat platforms a deployment may configure, each declared once.

An entry names what the platform needs: its own secret (the variable the functions read, the template
parameter that sets it), the settings it cannot work without, and the module of its sender. Routing,
the settings, the sender factory (`cronbell.adapters.chat.build_sender`) and the template's checks
(`Rules`, the secret parameters and grants, tested in `tests/infra`) all read this table: adding a
platform is an entry here, its sender module, and its template parameters.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Needed:
    """One setting a platform reads: the `Settings` attribute, its variable, its template parameter."""

    setting: str
    env: str
    parameter: str


@dataclass(frozen=True)
class Platform:
    name: str
    secret: Needed  # the platform's own secret (else the shared one, SHARED_SECRET)
    secret_required: bool  # False: the platform works without any secret (the webhook posts unsigned)
    needs: tuple[Needed, ...] = ()  # settings it cannot work without
    sender: str = ""  # the module whose `sender(settings, secret, refresh)` builds its ChatSender
    # other ways to reach the platform without `secret`: each group, all set, serves instead of it
    instead: tuple[tuple[Needed, ...], ...] = ()
    workspaces: bool = False  # one bot, several workspaces with a token each (the context names the workspace)

    @property
    def sender_module(self) -> str:
        return self.sender or f"cronbell.adapters.chat.{self.name}"


SHARED_SECRET = Needed("chat_token_secret", "CHAT_TOKEN_SECRET", "ChatTokenSecretArn")

REGISTRY: dict[str, Platform] = {
    p.name: p
    for p in (
        Platform(
            "matrix",
            Needed("", "MATRIX_TOKEN_SECRET", "MatrixTokenSecretArn"),  # the bot's access token
            True,
            (Needed("matrix_homeserver_url", "MATRIX_HOMESERVER_URL", "MatrixHomeserverUrl"),),
        ),
        Platform(
            "slack",
            Needed("", "SLACK_TOKEN_SECRET", "SlackTokenSecretArn"),  # xoxb- bot token, or {team id: token}
            True,
            instead=(  # a Bolt app's AmazonS3InstallationStore: a bot token per workspace
                (
                    Needed("slack_installation_bucket", "SLACK_INSTALLATION_BUCKET", "SlackInstallationBucket"),
                    Needed("slack_client_id", "SLACK_CLIENT_ID", "SlackClientId"),
                ),
            ),
            workspaces=True,
        ),
        Platform("telegram", Needed("", "TELEGRAM_TOKEN_SECRET", "TelegramTokenSecretArn"), True),  # BotFather's
        Platform(
            "discord",
            Needed("", "DISCORD_WEBHOOK_SECRET", "DiscordWebhookSecretArn"),  # one channel's webhook URL
            True,
            instead=((Needed("discord_bot_token_secret", "DISCORD_BOT_TOKEN_SECRET", "DiscordBotTokenSecretArn"),),),
        ),
        Platform(
            "webhook",
            Needed("", "WEBHOOK_SIGNING_SECRET", "WebhookSigningSecretArn"),  # HMAC signing secret, optional
            False,
            (Needed("chat_webhook_url", "CHAT_WEBHOOK_URL", "ChatWebhookUrl"),),
        ),
    )
}

PLATFORMS = tuple(REGISTRY)  # the chat backends a deployment may configure; the default one is "matrix"
