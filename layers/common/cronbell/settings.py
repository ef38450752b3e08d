"""Deployment configuration, parsed once from the environment the template gives each function.

Each setting is one declaration: a field of `Settings` whose metadata names its environment variable
and its parser, and whose default is the field's own. `Settings.from_env` reads every declared
variable, parses it, and refuses the whole environment at once (`SettingsError`, naming each bad
variable and what it expected) before any function does anything. A variable that is absent or
empty means the default.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronbell.core.domain import platforms, routing
from cronbell.core.domain.fire_event import BadFireEvent, StaticAction, static_declarations
from cronbell.core.values import value

Parser = Callable[[str], Any]


class SettingsError(ValueError):
    """The environment holds a value a setting cannot take; the message names every one of them."""


def setting(env: str, default: Any, parse: Parser = str, factory: Callable[[], Any] | None = None) -> Any:
    """A field read from `env` with `parse` (a ValueError says what was expected); `factory` for defaults
    that are containers."""
    meta = {"env": env, "parse": parse}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def whole_number(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ValueError("a whole number") from None
    if value < 0:
        raise ValueError("a whole number, 0 or more")
    return value


def zone(raw: str) -> str:
    """An IANA time zone this Python knows (`Europe/Madrid`, `UTC`): a misspelt DefaultTimezone fails the
    function at its start, named, instead of refusing every call that names no zone as the caller's error."""
    try:
        ZoneInfo(raw)
    except (ValueError, ZoneInfoNotFoundError):
        raise ValueError("an IANA time zone such as Europe/Madrid or UTC") from None
    return raw


def url(raw: str) -> str:
    return raw.rstrip("/")


def csv(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())


def one_of(*allowed: str) -> Parser:
    def parse(raw: str) -> str:
        if raw not in allowed:
            raise ValueError(f"one of {', '.join(allowed)}")
        return raw

    return parse


def backends(raw: str) -> str:
    names = [part.strip().lower() for part in raw.split(",") if part.strip()]
    unknown = [name for name in names if name not in platforms.PLATFORMS]
    if unknown:
        raise ValueError(f"chat platforms among {', '.join(platforms.PLATFORMS)} (not {', '.join(unknown)})")
    return ",".join(dict.fromkeys(names))


def agent_map(raw: str) -> dict[str, str]:
    """The agents allowlist, agent id -> function name or ARN: a JSON object, or `id=target` pairs
    separated by commas (as the template's AgentFunctions parameter writes them)."""
    text = raw.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            raise ValueError("a JSON object of agent id -> function name or ARN") from None
        pairs: list[tuple[Any, Any]] = list(data.items()) if isinstance(data, dict) else [("", "")]
    else:
        pairs = [(entry.partition("=")[0], entry.partition("=")[2]) for entry in csv(text)]
    found: dict[str, str] = {}
    for agent, target in pairs:
        if not (isinstance(agent, str) and isinstance(target, str) and agent.strip() and target.strip()):
            raise ValueError("agent id=function name or ARN, separated by commas")
        if found.get(agent.strip(), target.strip()) != target.strip():
            raise ValueError(f"one function per agent id ({agent.strip()} is given twice)")
        found[agent.strip()] = target.strip()
    return found


def statics(raw: str) -> dict[str, StaticAction]:
    try:
        return static_declarations(raw)
    except (BadFireEvent, ValueError) as err:
        raise ValueError(f"the template's schedule declarations ({err})") from None


@value
class Settings:
    table_name: str = setting("TABLE_NAME", "cronbell")
    schedule_group: str = setting("SCHEDULE_GROUP", "cronbell")
    fire_function_arn: str = setting("FIRE_FUNCTION_ARN", "")
    scheduler_role_arn: str = setting("SCHEDULER_ROLE_ARN", "")
    scheduler_dlq_arn: str = setting("SCHEDULER_DLQ_ARN", "")
    default_timezone: str = setting("DEFAULT_TIMEZONE", "UTC", zone)
    default_locale: str = setting("DEFAULT_LOCALE", "en")
    # the tool set the bots show their models (cronbell.usecases.tools.TOOL_SETS): every text names only its tools
    tool_set: str = setting("TOOL_SET", "full", one_of("full", "essential"))
    max_per_room: int = setting("MAX_PER_ROOM", 50, whole_number)
    min_interval_minutes: int = setting("MIN_INTERVAL_MINUTES", 5, whole_number)
    retention_days: int = setting("RETENTION_DAYS", 30, whole_number)
    # chat delivery: one backend, or several ("matrix,slack"; the first is the default platform);
    # what each needs is its entry in cronbell.core.domain.platforms
    chat_backend: str = setting("CHAT_BACKEND", "matrix", backends)
    matrix_homeserver_url: str = setting("MATRIX_HOMESERVER_URL", "", url)
    # Secrets Manager id/ARN, or "ssm:/parameter/name": each platform's own (its entry's `secret`), else
    # the shared CHAT_TOKEN_SECRET (one backend: its token; several: a JSON object keyed by platform)
    platform_secrets: Mapping[str, str] = field(default_factory=dict)
    chat_token_secret: str = setting(platforms.SHARED_SECRET.env, "")
    chat_webhook_url: str = setting("CHAT_WEBHOOK_URL", "")
    slack_api_url: str = setting("SLACK_API_URL", "https://slack.com/api", url)  # another value only for tests
    # a Bolt app's AmazonS3InstallationStore: a bot token per workspace (adapters/chat/slack_tokens.py)
    slack_installation_bucket: str = setting("SLACK_INSTALLATION_BUCKET", "")
    slack_client_id: str = setting("SLACK_CLIENT_ID", "")
    telegram_api_url: str = setting("TELEGRAM_API_URL", "https://api.telegram.org", url)  # or a self-hosted one
    # Discord's bot token (posts to the channel a room id names), instead of one channel's webhook
    discord_bot_token_secret: str = setting("DISCORD_BOT_TOKEN_SECRET", "")
    discord_api_url: str = setting("DISCORD_API_URL", "https://discord.com/api/v10", url)  # another only for tests
    # agents
    agents: Mapping[str, str] = setting("AGENTS", None, agent_map, factory=dict)  # agent id -> function name/ARN
    agent_timeout_seconds: int = setting("AGENT_TIMEOUT_SECONDS", 120, whole_number)
    agent_timeout_max_seconds: int = setting("AGENT_TIMEOUT_MAX_SECONDS", 240, whole_number)
    allowed_output_rooms: tuple[str, ...] = setting("ALLOWED_OUTPUT_ROOMS", (), csv)
    # the schedules template.yaml declares, each room keyed as the store keys it (from_env)
    static_schedules: Mapping[str, StaticAction] = setting("STATIC_SCHEDULES", None, statics, factory=dict)
    # exactly-once: the longest a claimed slot blocks another attempt (else the invocation's time left)
    slot_lease_seconds: int = setting("SLOT_LEASE_SECONDS", 900, whole_number)
    # reconciler: leave anything changed within this window alone (a create or update in flight)
    reconcile_grace_seconds: int = setting("RECONCILE_GRACE_SECONDS", 900, whole_number)
    # a one-shot whose entry is gone this long after its time was lost, and a slot whose every attempt died
    # is ended: past the last retry (Scheduler retries its invoke up to 1 h, then Lambda up to 6 h), 30 min more
    missed_after_seconds: int = setting("MISSED_AFTER_SECONDS", 27000, whole_number)
    # notify: post a "missed reminder" notice | silent: only mark it
    missed_policy: str = setting("MISSED_POLICY", "notify", one_of("notify", "silent"))
    # runs: the failure policy, lateness and where finished runs are announced
    auto_pause_after: int = setting("AUTO_PAUSE_AFTER", 5, whole_number)  # failed runs that pause; 0: never
    # FireFunction's EventInvokeConfig MaximumRetryAttempts: a chat outage that outlasts the last
    # attempt is recorded as a failed run (chat_error) instead of raising once more
    fire_retries: int = setting("FIRE_RETRIES", 2, whole_number)
    max_lateness_minutes: int = setting("MAX_LATENESS_MINUTES", 60, whole_number)  # later: missed (too_late)
    event_bus_name: str = setting("EVENT_BUS_NAME", "")  # EventBridge bus for Run Finished / Schedule Paused

    @property
    def chat_backends(self) -> tuple[str, ...]:
        """The configured chat platforms, the default one first."""
        names = [part.strip().lower() for part in self.chat_backend.split(",") if part.strip()]
        return tuple(dict.fromkeys(names)) or (platforms.PLATFORMS[0],)

    @property
    def default_platform(self) -> str:
        return self.chat_backends[0]

    def chat_secret(self, platform: str) -> str:
        """Where `platform`'s token lives: its own secret, else the shared one ("" when neither is set). A
        platform that goes without a secret (the webhook, which then posts unsigned) takes its own only:
        it never signs with another platform's token."""
        own = self.platform_secrets.get(platform)
        entry = platforms.REGISTRY.get(platform)
        return own or (self.chat_token_secret if entry is None or entry.secret_required else "")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Every declared setting from the environment; raises SettingsError naming each bad value."""
        e = os.environ if env is None else env
        values: dict[str, Any] = {}
        problems: list[str] = []
        for f in dataclasses.fields(cls):
            name = f.metadata.get("env")
            raw = (e.get(name) or "").strip() if name else ""
            if not raw:
                continue
            try:
                values[f.name] = f.metadata["parse"](raw)
            except ValueError as err:
                problems.append(f"{name} must be {err}")
        if problems:
            raise SettingsError("bad deployment settings: " + "; ".join(problems))
        values["platform_secrets"] = {
            p.name: (e.get(p.secret.env) or "").strip()
            for p in platforms.REGISTRY.values()
            if (e.get(p.secret.env) or "").strip()
        }
        settings = cls(**values)
        if settings.static_schedules:  # a declared room, platform-qualified or bare, as the store keys it
            keyed = {
                name: dataclasses.replace(
                    action, room_id=routing.allowed_key(action.room_id, settings.default_platform)
                )
                for name, action in settings.static_schedules.items()
            }
            settings = dataclasses.replace(settings, static_schedules=keyed)
        return settings


def declared() -> dict[str, dataclasses.Field[Any]]:
    """The settings read from the environment, by variable name."""
    return {f.metadata["env"]: f for f in dataclasses.fields(Settings) if "env" in f.metadata}


PLATFORM_SECRET_ENV = {p.name: p.secret.env for p in platforms.REGISTRY.values()}  # platform -> its secret's variable
