"""Deployment configuration, parsed once from the environment the template gives each function."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from cronbell.core.fire_event import StaticAction, static_declarations


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    return int(raw) if raw else default


def _csv(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in env.get(name, "").split(",") if part.strip())


# Each chat platform's own secret (template parameter -> variable): the Matrix access token, the Slack and
# Telegram bot tokens, the Discord channel's webhook URL, the generic webhook's HMAC signing secret.
PLATFORM_SECRET_ENV = {
    "matrix": "MATRIX_TOKEN_SECRET",
    "slack": "SLACK_TOKEN_SECRET",
    "telegram": "TELEGRAM_TOKEN_SECRET",
    "discord": "DISCORD_WEBHOOK_SECRET",
    "webhook": "WEBHOOK_SIGNING_SECRET",
}


@dataclass(frozen=True)
class Settings:
    table_name: str = "cronbell"
    schedule_group: str = "cronbell"
    fire_function_arn: str = ""
    scheduler_role_arn: str = ""
    scheduler_dlq_arn: str = ""
    default_timezone: str = "UTC"
    default_locale: str = "en"
    max_per_room: int = 50
    min_interval_minutes: int = 5
    retention_days: int = 30
    # chat delivery: one backend, or several ("matrix,slack"; the first is the default platform)
    chat_backend: str = "matrix"  # matrix | slack | telegram | discord | webhook, comma-separated
    matrix_homeserver_url: str = ""
    # Secrets Manager id/ARN, or "ssm:/parameter/name": each platform's own (PLATFORM_SECRET_ENV), else the
    # shared CHAT_TOKEN_SECRET (one backend: its token; deployments from before one secret per platform:
    # a JSON object keyed by platform)
    platform_secrets: Mapping[str, str] = field(default_factory=dict)
    chat_token_secret: str = ""
    chat_webhook_url: str = ""
    slack_api_url: str = "https://slack.com/api"  # another value only for tests
    telegram_api_url: str = "https://api.telegram.org"  # or a self-hosted Bot API server; tests
    # agents
    agents: Mapping[str, str] = field(default_factory=dict)  # agent id -> function name or ARN
    agent_timeout_seconds: int = 120
    agent_timeout_max_seconds: int = 240
    allowed_output_rooms: tuple[str, ...] = ()
    static_schedules: Mapping[str, StaticAction] = field(default_factory=dict)  # those template.yaml declares
    # exactly-once: the longest a claimed slot blocks another attempt (else the invocation's time left)
    slot_lease_seconds: int = 900
    # reconciler: leave anything changed within this window alone (a create or update in flight)
    reconcile_grace_seconds: int = 900
    # a one-shot whose entry is gone this long after its time was lost (Lambda retries up to 6 h)
    missed_after_seconds: int = 23400
    missed_policy: str = "notify"  # notify: post a "missed reminder" notice | silent: only mark it
    # runs: the failure policy, lateness and where finished runs are announced
    auto_pause_after: int = 5  # consecutive failed runs that pause a schedule; 0: never
    # FireFunction's EventInvokeConfig MaximumRetryAttempts: a chat outage that outlasts the last
    # attempt is recorded as a failed run (chat_error) instead of raising once more
    fire_retries: int = 2
    max_lateness_minutes: int = 60  # a recurring run starting later than this is missed (too_late)
    event_bus_name: str = ""  # EventBridge bus for Run Finished / Schedule Paused; empty: off

    @property
    def chat_backends(self) -> tuple[str, ...]:
        """The configured chat platforms, the default one first."""
        names = [part.strip().lower() for part in self.chat_backend.split(",") if part.strip()]
        return tuple(dict.fromkeys(names)) or ("matrix",)

    @property
    def default_platform(self) -> str:
        return self.chat_backends[0]

    def chat_secret(self, platform: str) -> str:
        """Where `platform`'s token lives: its own secret, else the shared one ("" when neither is set)."""
        return self.platform_secrets.get(platform) or self.chat_token_secret

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        return cls(
            table_name=e.get("TABLE_NAME", cls.table_name),
            schedule_group=e.get("SCHEDULE_GROUP", cls.schedule_group),
            fire_function_arn=e.get("FIRE_FUNCTION_ARN", ""),
            scheduler_role_arn=e.get("SCHEDULER_ROLE_ARN", ""),
            scheduler_dlq_arn=e.get("SCHEDULER_DLQ_ARN", ""),
            default_timezone=e.get("DEFAULT_TIMEZONE", "") or "UTC",
            default_locale=e.get("DEFAULT_LOCALE", "") or "en",
            max_per_room=_int(e, "MAX_PER_ROOM", 50),
            min_interval_minutes=_int(e, "MIN_INTERVAL_MINUTES", 5),
            retention_days=_int(e, "RETENTION_DAYS", 30),
            chat_backend=e.get("CHAT_BACKEND", "") or "matrix",
            matrix_homeserver_url=e.get("MATRIX_HOMESERVER_URL", "").rstrip("/"),
            platform_secrets={p: e[var].strip() for p, var in PLATFORM_SECRET_ENV.items() if e.get(var, "").strip()},
            chat_token_secret=e.get("CHAT_TOKEN_SECRET", ""),
            chat_webhook_url=e.get("CHAT_WEBHOOK_URL", ""),
            slack_api_url=e.get("SLACK_API_URL", "").rstrip("/") or cls.slack_api_url,
            telegram_api_url=e.get("TELEGRAM_API_URL", "").rstrip("/") or cls.telegram_api_url,
            agents=json.loads(e.get("AGENTS", "") or "{}"),
            agent_timeout_seconds=_int(e, "AGENT_TIMEOUT_SECONDS", 120),
            agent_timeout_max_seconds=_int(e, "AGENT_TIMEOUT_MAX_SECONDS", 240),
            allowed_output_rooms=_csv(e, "ALLOWED_OUTPUT_ROOMS"),
            static_schedules=static_declarations(e.get("STATIC_SCHEDULES", "")),
            slot_lease_seconds=_int(e, "SLOT_LEASE_SECONDS", 900),
            reconcile_grace_seconds=_int(e, "RECONCILE_GRACE_SECONDS", 900),
            missed_after_seconds=_int(e, "MISSED_AFTER_SECONDS", 23400),
            missed_policy=e.get("MISSED_POLICY", "") or "notify",
            auto_pause_after=_int(e, "AUTO_PAUSE_AFTER", 5),
            fire_retries=_int(e, "FIRE_RETRIES", 2),
            max_lateness_minutes=_int(e, "MAX_LATENESS_MINUTES", 60),
            event_bus_name=e.get("EVENT_BUS_NAME", ""),
        )
