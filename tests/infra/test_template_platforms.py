"""The template's chat-platform parts are what the platform registry writes (scripts/template_platforms.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from cronbell.core.domain import platforms

ROOT = Path(__file__).resolve().parents[2]


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("template_platforms", ROOT / "scripts" / "template_platforms.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_templates_platform_parts_are_the_registrys() -> None:
    text = (ROOT / "template.yaml").read_text(encoding="utf-8")
    assert script().render(text) == text, "run scripts/template_platforms.py"


def test_every_part_is_marked_and_each_poster_carries_the_platform_parts() -> None:
    lines = (ROOT / "template.yaml").read_text(encoding="utf-8").splitlines()
    parts = [part for _, _, part, _ in script().marked_parts(lines)]
    assert sorted(set(parts)) == sorted(script().PARTS)
    assert parts.count("environment") == parts.count("read-secrets") == 2  # the fire and reconcile functions


def test_a_new_registry_entry_reaches_every_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hypothetical platform, one entry: its parameter, condition, rule, variable and grant appear."""
    module = script()
    entry = platforms.Platform(
        "zulip", platforms.Needed("", "ZULIP_TOKEN_SECRET", "ZulipTokenSecretArn", "Its token."), True
    )
    monkeypatch.setitem(platforms.REGISTRY, "zulip", entry)
    monkeypatch.setattr(platforms, "PLATFORMS", (*platforms.PLATFORMS, "zulip"))
    text = (ROOT / "template.yaml").read_text(encoding="utf-8")
    written = module.render(text)
    assert written != text
    for expected in (
        "- ZulipTokenSecretArn",
        "ZulipTokenSecretArn:",
        'HasZulipTokenSecret: !Not [!Equals [!Ref ZulipTokenSecretArn, ""]]',
        "ZulipBackendSettings:",
        "ChatBackend zulip needs ZulipTokenSecretArn (or ChatTokenSecretArn)",
        "ZULIP_TOKEN_SECRET: !Ref ZulipTokenSecretArn",
        "- !If [HasZulipTokenSecret, !Ref ZulipTokenSecretArn, !Ref AWS::NoValue]",
    ):
        assert expected in written, expected
    assert written.count("ZULIP_TOKEN_SECRET: !Ref ZulipTokenSecretArn") == 2


def test_help_prints_the_usage_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = script()
    stale = tmp_path / "template.yaml"
    stale.write_text("# BEGIN chat-platforms: parameters\n# END chat-platforms: parameters\n", encoding="utf-8")
    before = stale.read_text(encoding="utf-8")
    monkeypatch.setattr(module, "TEMPLATE", stale)
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0 and "--check" in capsys.readouterr().out
    assert stale.read_text(encoding="utf-8") == before
