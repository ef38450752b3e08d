"""The catalogs of texts: every language says every sentence with the same fields, every error code has
its sentences, and a Spanish reader gets no English sentence (every key rendered, and every refusal
the core raises, as the answer is shaped)."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from cronbell.core.contract import errors, validation
from cronbell.core.contract.envelope import ADAPTER_REFUSAL, parse_request, refused
from cronbell.core.domain import phrases, refusals
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.language.recurring import parse_recurring
from cronbell.core.language.when import parse_one_shot
from cronbell.core.language.zone_ids import resolve_timezone
from cronbell.core.text import locales, texts
from cronbell.core.text.chat_text import agent_answer_message, agent_failed_message, reminder_message
from cronbell.core.text.preview import describe_at, describe_cron, dst_notes
from cronbell.inbound import agentcore, bedrock_agents, common
from tests.support.words import english_in_answer, english_words

LANGUAGES = locales.available()
EN = locales.texts("en")
MADRID = ZoneInfo("Europe/Madrid")
NOW = datetime(2026, 3, 20, 10, 0, tzinfo=UTC)

# the same sentence is right in both languages only where it holds no words
SAME_EVERYWHERE = {
    "now",
    "chat.agent_failed",
    "error.invalid_arguments",
    "error.too_long",
    "problem",
    "problem.as_given",
    "when",
    "listed.item",
    "history.item",
    "history.item_reason",
    "about_argument",
}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def sample(template: str) -> dict[str, object]:
    return dict.fromkeys(fields(template), "7")


def test_there_are_two_catalogs_and_the_detector_finds_them() -> None:
    assert {"en", "es"} <= set(LANGUAGES)
    assert [texts.language(x) for x in ("es", "es-ES", "es_MX", "ES", "en-GB", "fr", "", None, "../x")] == [
        "es", "es", "es", "es", "en", "en", "en", "en", "en",
    ]  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_every_key_with_the_same_fields(lang: str) -> None:
    catalog = locales.texts(lang)
    assert set(catalog) == set(EN)
    for key, template in EN.items():
        assert fields(catalog[key]) == fields(template), key
    for key, items in locales.lists("en").items():
        assert len(locales.lists(lang)[key]) == len(items), key


def test_every_error_code_has_its_sentence() -> None:
    for code in refusals.ALL_CODES:
        assert f"error.{code}" in EN, code
    for key in EN:
        if key.startswith("error."):
            assert refusal(key.removeprefix("error."), **sample(EN[key])).code in refusals.ALL_CODES


def test_every_rule_of_the_contract_has_its_sentence() -> None:
    """The English catalog says each cross-field rule with the contract's own words."""
    rules = [rule for spec in validation.contract().values() for rule in spec.get("rules", [])]
    assert len(rules) >= 5
    for rule in rules:
        names = rule.get("fields") or [rule["field"], rule["when_given"]]
        assert EN[f"rule.{rule['rule']}.{'.'.join(names)}"] == rule["message"]


def test_refused_arguments_are_said_field_by_field_in_spanish() -> None:
    cases = [
        ("create_reminder", {}),
        ("create_reminder", {"message": "x", "time": "9", "cron": "0 9 * * *"}),
        ("create_reminder", {"message": "", "time": 9, "recurring": "yes", "extra": 1}),
        ("create_reminder", {"message": "x" * 3000, "time": "9"}),
        ("cron_create", {"name": "n", "prompt": "p", "fire_at": "x", "recurring": True, "skills": ["a"] * 50}),
        ("list_reminders", {"include_inactive": 3}),
        ("snooze_reminder", {"id": "a", "minutes": 0}),
        ("snooze_reminder", {"id": "a", "minutes": 10**9}),
        ("update_reminder", {"id": "a"}),
        ("run_now", {"kind": "other", "target": "a"}),
    ]
    for tool, arguments in cases:
        with pytest.raises(ToolError) as info:
            validation.parse(tool, arguments)
        spanish = refused(info.value, "es")
        assert english_words(spanish["text"] + " " + str(spanish["error"])) == set(), spanish
        assert refused(info.value, "en")["error"]["message"] == errors.message(info.value)


def test_a_refusal_needs_a_known_code() -> None:
    with pytest.raises(ValueError, match="no error code"):
        refusal("no_such_code")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_english_sentence_in_another_language(lang: str) -> None:
    catalog = locales.texts(lang)
    for key, template in catalog.items():
        said = template.format(**sample(template))
        assert english_words(said) == set(), (key, said)
        if key not in SAME_EVERYWHERE:
            assert said != EN[key].format(**sample(template)), key
    for key, items in locales.lists(lang).items():
        for item in items:
            assert english_words(item) == set(), (key, item)


def core_refusals() -> list[ToolError]:
    """One refusal of every kind the core raises, made as the tools make them."""
    made: list[ToolError] = []
    attempts = [
        lambda: parse_request([]),
        lambda: parse_request({"tool": ""}),
        lambda: parse_request({"tool": "x"}),
        lambda: parse_request({"tool": "x", "context": {"room_id": "!r:x"}}),
        lambda: parse_request({"tool": "x", "context": {"room_id": "!r:x", "user_id": "\x00"}}),
        lambda: resolve_timezone("Mars/Olympus", "UTC"),
        lambda: parse_one_shot("", NOW, MADRID, "es"),
        lambda: parse_one_shot("pronto", NOW, MADRID, "es"),
        lambda: parse_one_shot("mañana de madrugada", NOW, MADRID, "es"),
        lambda: parse_one_shot("12/24 a las 9", NOW, MADRID, "es"),
        lambda: parse_one_shot("el día de Acción de Gracias", NOW, MADRID, "es"),
        lambda: parse_one_shot("el martes 9 de diciembre", NOW, MADRID, "es"),
        lambda: parse_one_shot("diciembre a las 9", NOW, MADRID, "es"),
        lambda: parse_one_shot("mañana a las 9 mañana a las 10", NOW, MADRID, "es"),
        lambda: parse_one_shot("2020-01-01 09:00", NOW, MADRID, "es"),
        lambda: parse_one_shot("2300-01-01 09:00", NOW, MADRID, "es"),
        lambda: parse_recurring("", 5, "es"),
        lambda: parse_recurring("@sometimes", 5, "es"),
        lambda: parse_recurring("cron(0 9 * * ? *)", 5, "es"),
        lambda: parse_recurring("a veces", 5, "es"),
        lambda: parse_recurring("cada 7 horas", 5, "es"),
        lambda: parse_recurring("cada 7 minutos", 5, "es"),
        lambda: parse_recurring("61 * * * *", 5, "es"),
        lambda: parse_recurring("x * * * *", 5, "es"),
        lambda: parse_recurring("1,,2 * * * *", 5, "es"),
        lambda: parse_recurring("*/100 * * * *", 5, "es"),
        lambda: parse_recurring("? * * * *", 5, "es"),
        lambda: parse_recurring("5-1 * * * *", 5, "es"),
        lambda: parse_recurring("0 9 * *", 5, "es"),
        lambda: parse_recurring("0 9 31 2 *", 5, "es"),
        lambda: parse_recurring("* * * * *", 5, "es"),
    ]
    for attempt in attempts:
        with pytest.raises(ToolError) as info:
            attempt()
        made.append(info.value)
    return made


def test_every_core_refusal_answers_a_spanish_reader_in_spanish_only() -> None:
    found = core_refusals()
    assert {r.code for r in found} >= {
        refusals.INVALID_REQUEST, refusals.MISSING_CONTEXT, refusals.INVALID_TIMEZONE, refusals.INVALID_TIME,
        refusals.TIME_IN_PAST, refusals.INVALID_CRON, refusals.NEVER_FIRES, refusals.TOO_FREQUENT,
    }  # fmt: skip
    for err in found:
        spanish, english = refused(err, "es"), refused(err, "en")
        assert english_words(spanish["text"] + " " + str(spanish["error"])) == set(), spanish
        assert spanish["text"].startswith("No se pudo hacer: ")
        assert spanish["error"]["code"] == english["error"]["code"] == err.code
        assert english["error"]["message"] == errors.message(err)  # the English wording is the message


def test_the_english_wording_is_unchanged() -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring("a veces", 5, "es")
    assert errors.message(info.value).startswith("Cannot read the schedule 'a veces': not a cron expression or a known")
    assert errors.message(info.value, "es").startswith(
        "No entiendo la programación 'a veces': no es una expresión cron"
    )
    assert errors.as_dict(info.value, "es")["details"] == {"reason": "no es una expresión cron ni una frase conocida"}


def test_notices_previews_and_chat_messages_in_spanish() -> None:
    spec = CronSpec("30 2 * * *", "30 2 * * *")
    said = [
        describe_cron(CronSpec("0 9 1 * 1-5", ""), "es"),
        describe_cron(CronSpec("*/15 8-17 * 1,7 *", ""), "es"),
        describe_cron(CronSpec("0 */2 * * 0,6", ""), "es"),
        describe_at(datetime(2026, 12, 1, 1, 0, tzinfo=MADRID), "es"),
        *dst_notes(spec, NOW, MADRID, "es"),
        *parse_one_shot("2026-03-29 02:30", NOW, MADRID, "es").notes,
        *parse_one_shot("2026-10-25 02:30", NOW, MADRID, "es").notes,
        reminder_message("!r:x", "@ana:x", "hola", "es").text,
        agent_answer_message("!r:x", "resumen", "hola", "es").text,
        agent_failed_message("!r:x", "resumen", phrases.phrase("agent.timeout", seconds=120), "es").text,
        texts.say("missed", "es", user="ana", due="martes 1 de diciembre, 09:00", text="hola"),
    ]
    assert len(said) >= 11
    for sentence in said:
        assert english_words(sentence) == set(), sentence


# --- the inbound adapters: a refusal made before the use case runs, in the caller's language ----------

INBOUND = Path(common.__file__).parent
GATEWAY_TOOL = {agentcore.TOOL_NAME_KEY: "cronbell___create_reminder"}


def bedrock(locale: str, function: str = "create_reminder", *params: tuple[str, str, Any], **event: Any) -> Any:
    """A Bedrock Agents function-details event whose session attributes carry `locale`."""
    base: dict[str, Any] = {
        "messageVersion": "1.0",
        "actionGroup": "cronbell",
        "function": function,
        "parameters": [{"name": n, "type": t, "value": v} for n, t, v in params],
        "sessionAttributes": {"room_id": "!r:example.org", "user_id": "@ana:example.org", "locale": locale},
    }
    base.update(event)
    return body_of(bedrock_agents.handle({k: v for k, v in base.items() if v is not None}, says_refusals_only))


def body_of(response: dict[str, Any]) -> Any:
    """The answer in a Bedrock response: a function response's, or an OpenAPI-schema refusal's."""
    if "apiPath" in response["response"]:
        return json.loads(response["response"]["responseBody"]["application/json"]["body"])
    return json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])


def gateway(custom: dict[str, Any], environ: dict[str, str]) -> Any:
    """An AgentCore Gateway call; its locale is in `environ` (MCP_LOCALE) or a propagated header."""
    return json.loads(agentcore.handle({"message": "x"}, custom, environ, not_called)["content"][0]["text"])


def not_called(envelope: dict[str, Any]) -> dict[str, Any]:
    raise AssertionError(f"the use case was called with {envelope}")


def says_refusals_only(envelope: dict[str, Any]) -> dict[str, Any]:
    """The use case, for an envelope the adapter refused the parameters of: says that refusal (no tool runs)."""
    adapter_refusal = envelope.get(ADAPTER_REFUSAL)
    if not isinstance(adapter_refusal, ToolError):
        return not_called(envelope)
    return common.refused(adapter_refusal, envelope["context"].get("locale"))


def crashes(envelope: dict[str, Any]) -> dict[str, Any]:
    raise RuntimeError("the wiring failed")


def unreadable() -> dict[str, Any]:
    raise KeyError("an event shape nobody planned")


def refused_by_coerce(kind: str, value: Any) -> Callable[[str], Any]:
    """A parameter value its declared type cannot read, refused as the adapter refuses it."""

    def said(locale: str) -> Any:
        with pytest.raises(ToolError) as info:
            bedrock_agents.coerce("p", kind, value)
        return common.refused(info.value, locale)

    return said


INBOUND_CASES: dict[str, Callable[[str], Any]] = {
    "bedrock: no user in the session": lambda loc: bedrock(
        loc, sessionAttributes={"room_id": "!r:example.org", "locale": loc}
    ),
    "bedrock: no function": lambda loc: bedrock(loc, function=None),
    "bedrock: an OpenAPI-schema action group": lambda loc: bedrock(
        loc, function=None, apiPath="/reminders", httpMethod="POST", requestBody={}
    ),
    "bedrock: parameters not a list": lambda loc: bedrock(loc, parameters="message=x"),
    "bedrock: a nameless parameter": lambda loc: bedrock(loc, parameters=[{"type": "string", "value": "x"}]),
    "bedrock: a parameter twice": lambda loc: bedrock(
        loc, "delete_reminder", ("id", "string", "a"), ("id", "string", "b")
    ),
    "bedrock: options repeat a parameter": lambda loc: bedrock(
        loc, "create_reminder", ("timezone", "string", "UTC"), ("options", "string", '{"timezone": "UTC"}')
    ),
    "bedrock: options not JSON": lambda loc: bedrock(loc, "create_reminder", ("options", "string", "{timezone")),
    "bedrock: options not an object": lambda loc: bedrock(loc, "create_reminder", ("options", "string", "[1]")),
    "bedrock: an integer that is a word": lambda loc: bedrock(
        loc, "snooze_reminder", ("id", "string", "a"), ("minutes", "integer", "ten")
    ),
    "bedrock: an integer with a fraction": lambda loc: bedrock(
        loc, "snooze_reminder", ("id", "string", "a"), ("minutes", "integer", "1.5")
    ),
    "bedrock: a boolean that is neither": lambda loc: bedrock(
        loc, "list_reminders", ("include_inactive", "boolean", "perhaps")
    ),
    "bedrock: a number that is a word": refused_by_coerce("number", "many"),
    "bedrock: a number that is infinite": refused_by_coerce("number", "inf"),
    "bedrock: an array that is not text": refused_by_coerce("array", 5),
    "bedrock: an integer with more digits than Python reads": refused_by_coerce("integer", "9" * 4301),
    "bedrock: an array nested too deeply": refused_by_coerce("array", "[" * 5000 + "]" * 5000),
    "agentcore: a pinned room without a user": lambda loc: gateway(
        GATEWAY_TOOL, {"MCP_ROOM_ID": "!r:example.org", "MCP_LOCALE": loc}
    ),
    "agentcore: trusted headers that did not arrive": lambda loc: gateway(
        {**GATEWAY_TOOL, agentcore.HEADERS_KEY: {"X-Cronbell-Locale": loc}},
        {agentcore.TRUST_HEADERS_ENV: "true"},
    ),
    "agentcore: an identity header given twice": lambda loc: gateway(
        {
            **GATEWAY_TOOL,
            agentcore.HEADERS_KEY: {"X-Cronbell-Room-Id": "!a", "x-cronbell-room-id": "!b", "X-Cronbell-Locale": loc},
        },
        {agentcore.TRUST_HEADERS_ENV: "true"},
    ),
    "agentcore: no identity configured": lambda loc: gateway(GATEWAY_TOOL, {"MCP_LOCALE": loc}),
    "agentcore: an empty tool name": lambda loc: gateway(
        {agentcore.TOOL_NAME_KEY: ""}, {"MCP_ROOM_ID": "!r:x", "MCP_USER_ID": "@a:x", "MCP_LOCALE": loc}
    ),
    "an event that cannot be read": lambda loc: common.answer(unreadable, not_called, loc),
    "the use case's wiring fails": lambda loc: common.answer(lambda: {"tool": "cron_list"}, crashes, loc),
}


def phrase_keys(value: Any) -> set[str]:
    """Every catalog key a refusal's sentence is made of (its own and those of the values in it)."""
    if isinstance(value, phrases.Phrase):
        return {value.key} | phrase_keys(list(value.values.values()))
    if isinstance(value, texts.Listing):
        return phrase_keys(list(value.items))
    if isinstance(value, dict):
        return phrase_keys(list(value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(phrase_keys(item) for item in value))
    return set()


def test_every_inbound_refusal_answers_a_spanish_caller_in_spanish_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each refusal the Bedrock and AgentCore adapters make, in the locale each reads from its event, and
    every catalog key the adapters' code names is among them."""
    made: list[ToolError] = []

    def spy(error: ToolError, locale: str | None) -> dict[str, Any]:
        made.append(error)
        return refused(error, locale)

    monkeypatch.setattr(common, "refused", spy)
    said: set[str] = set()
    for case, answer_in in INBOUND_CASES.items():
        made.clear()
        spanish, english = answer_in("es"), answer_in("en")
        assert len(made) == 2 and made[0].code == made[1].code, case
        err = made[0]
        assert spanish["ok"] is False and spanish["error"]["code"] == english["error"]["code"] == err.code, case
        assert english_in_answer(spanish) == set(), (case, spanish)
        assert spanish["text"].startswith("No se pudo hacer: "), case
        assert spanish["error"]["message"] != english["error"]["message"], case
        assert english["text"] == f"Could not do that: {errors.message(err)}", case
        assert english["error"]["message"] == errors.message(err)  # the English wording is the message
        said |= phrase_keys([err.said, err.details])
    named = set()
    for source in INBOUND.glob("*.py"):
        named |= {f"error.{key}" for key in re.findall(r'refusal\(\s*"([\w.]+)"', source.read_text())}
        named |= set(re.findall(r'"((?:reason|type)\.[\w.]+)"', source.read_text()))
        named |= {f"type.{kind}" for kind in re.findall(r'_bad\([^,]+, "(\w+)"', source.read_text())}
    assert len(named) >= 20 and named <= said, named - said
