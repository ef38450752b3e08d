"""Settings: one declaration each, read once with every bad value named; the platform registry as the
one list of chat platforms; the use cases' ports owned by the core."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from cronbell.core.domain import platforms, routing
from cronbell.settings import Settings, SettingsError, declared

PACKAGE = Path(__file__).resolve().parents[2] / "layers" / "common" / "cronbell"


def test_every_setting_has_its_default_once_and_an_absent_or_empty_variable_keeps_it() -> None:
    defaults = Settings()
    assert Settings.from_env({}) == defaults
    assert Settings.from_env({name: "" for name in declared()}) == defaults
    for variable, f in declared().items():
        assert variable.isupper() and f.metadata["parse"], variable


def test_each_value_is_parsed_by_its_declaration() -> None:
    s = Settings.from_env(
        {
            "MAX_PER_ROOM": "7",
            "MATRIX_HOMESERVER_URL": "https://m.example.org/",
            "ALLOWED_OUTPUT_ROOMS": " slack:C1 , !n:x ,",
            "CHAT_BACKEND": "Slack, matrix,slack",
            "AGENTS": '{"echo": "EchoAgentFunction"}',
            "SLACK_TOKEN_SECRET": " arn:slack ",
        }
    )
    assert (s.max_per_room, s.matrix_homeserver_url, s.allowed_output_rooms) == (
        7,
        "https://m.example.org",
        ("slack:C1", "!n:x"),
    )
    assert s.chat_backends == ("slack", "matrix") and s.agents == {"echo": "EchoAgentFunction"}
    assert s.chat_secret("slack") == "arn:slack" and s.chat_secret("matrix") == ""


def test_the_shared_secret_stands_for_a_platform_s_token_never_for_the_webhook_s_signing_secret() -> None:
    s = Settings.from_env({"CHAT_BACKEND": "matrix,webhook", "CHAT_TOKEN_SECRET": "arn:shared"})
    assert s.chat_secret("matrix") == "arn:shared"
    assert s.chat_secret("webhook") == ""  # unsigned, as docs/chat-platforms.md says: never the bot's token
    signed = Settings.from_env({"CHAT_TOKEN_SECRET": "arn:shared", "WEBHOOK_SIGNING_SECRET": "arn:signing"})
    assert signed.chat_secret("webhook") == "arn:signing"


def test_every_bad_value_is_named_at_once() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env(
            {"MAX_PER_ROOM": "fifty", "MISSED_POLICY": "loud", "CHAT_BACKEND": "matrix,irc", "AGENTS": "{"}
        )
    message = str(refused.value)
    for expected in (
        "MAX_PER_ROOM must be a whole number",
        "MISSED_POLICY must be one of notify, silent",
        "CHAT_BACKEND must be chat platforms among matrix, slack, telegram, discord, webhook (not irc)",
        "AGENTS must be a JSON object",
    ):
        assert expected in message
    with pytest.raises(SettingsError, match="RETENTION_DAYS must be a whole number, 0 or more"):
        Settings.from_env({"RETENTION_DAYS": "-1"})
    # a misspelt zone refused every create that named none as the caller's `invalid_timezone`
    for typo in ("Europe/Madird", "../etc/passwd", "CEST"):
        with pytest.raises(SettingsError, match="DEFAULT_TIMEZONE must be an IANA time zone such as Europe/Madrid"):
            Settings.from_env({"DEFAULT_TIMEZONE": typo})
    assert Settings.from_env({"DEFAULT_TIMEZONE": "America/Argentina/Buenos_Aires"}).default_timezone


def test_the_platform_registry_is_the_one_list_of_platforms() -> None:
    assert routing.PLATFORMS is platforms.PLATFORMS
    assert platforms.PLATFORMS[0] == Settings().default_platform
    fields = {f.name for f in dataclasses.fields(Settings)}
    for platform in platforms.REGISTRY.values():
        assert all(need.setting in fields for need in platform.needs), platform.name
        module = PACKAGE / Path(*platform.sender_module.split(".")[1:]).with_suffix(".py")
        assert "def sender(" in module.read_text(encoding="utf-8"), module


def test_no_use_case_or_core_module_imports_an_adapter() -> None:
    for folder in ("usecases", "core"):
        for path in (PACKAGE / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module:
                    assert not node.module.startswith("cronbell.adapters"), (path.name, node.module)
                if isinstance(node, ast.Import):
                    assert not any(a.name.startswith("cronbell.adapters") for a in node.names), path.name


def test_no_function_in_the_use_cases_or_adapters_is_above_complexity_20() -> None:
    from radon.complexity import cc_visit

    too_complex = [
        (path.relative_to(PACKAGE).as_posix(), block.name, block.complexity)
        for folder in ("usecases", "adapters")
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        for block in cc_visit(path.read_text(encoding="utf-8"))
        if block.complexity > 20
    ]
    assert too_complex == []


def test_no_runtime_module_is_far_above_400_lines() -> None:
    """The catalogs are text, and the codec is the one module that knows every item's shape."""
    exempt = {"core/text/locales/en.py", "core/text/locales/es.py", "adapters/dynamo/codec.py"}
    long = [
        (name, lines)
        for path in PACKAGE.rglob("*.py")
        if (name := path.relative_to(PACKAGE).as_posix()) not in exempt
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > 420
    ]
    assert long == []
