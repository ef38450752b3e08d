"""Bad input of any shape (invariant 5): the tools function answers a structured error or a valid
success and changes nothing on an error; the fire function never raises except RetryLater and never
posts for a schedule it does not know.

Property tests with a fixed seed. Each test provisions one moto stack and keeps it small (a low
per-room limit, two seeded schedules). DynamoDB and Scheduler can only change through a write API
call, so the full state (table scan plus every Scheduler entry) is compared whenever an example made
one; examples that made no call, or only reads, leave the state as it was by construction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from cronbell import wiring
from cronbell.adapters import aws
from cronbell.core.contract.arguments import parse
from cronbell.core.domain import refusals
from cronbell.inbound import bedrock_agents
from cronbell.usecases import tools
from cronbell.usecases.fire import RetryLater
from tests.support.aws import FakeClock, Stack, provision
from tests.support.chat import RecordingChat
from tests.support.envelopes import OTHER_ROOM, ROOM, USER, envelope
from tests.support.handlers import LambdaContext, configure_env, invoke, load_handler
from tests.support.registry import TOOL_ARGUMENTS

pytestmark = pytest.mark.slow

CODES = {value for name, value in vars(refusals).items() if name.isupper() and isinstance(value, str)}
READS = {"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems", "GetSchedule", "ListSchedules"}
IDENTITY = ("room_id", "user_id", "agent_id")
FIELDS = sorted({name for model in TOOL_ARGUMENTS.values() for name in model.model_fields} | set(IDENTITY))
MAX_PER_ROOM = 6


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
    )


# --- strategies --------------------------------------------------------------------------------

TRICKY = [
    "",
    " ",
    "\x00",
    "\t\n\r",
    "\u202e\u200b\ufeff",
    "🙂",
    "ñandú á las 9",
    "null",
    "[]",
    "{}",
    "9999-99-99 99:99",
    "2026-11-30T07:59:00Z",
    "2026-12-01 09:00",
    "1970-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "in 0 minutes",
    "in -5 minutes",
    "en 99999999999999999999 días",
    "tomorrow at 25",
    "mañana a las 9",
    "at(2026-12-01T09:00:00)",
    "cron(0 9 * * ? *)",
    "rate(1 minute)",
    "* * * * *",
    "0 0 31 2 *",
    "0 0 30 2 *",
    "*/1 * * * *",
    "0 9 1 * 5",
    "0 10 * * 1",
    "@yearly",
    "@reboot",
    "60 24 32 13 8",
    "Europe/Madrid",
    "Mars/Olympus",
    "../../etc/passwd",
    "/etc/localtime",
    "UTC",
    "echo",
    "nobody",
    ROOM,
    OTHER_ROOM,
    USER,
    "' OR '1'='1",
    "${AWS::AccountId}",
    "<script>alert(1)</script>",
    "%s%n%x",
    "{room_id}",
    "@room",
    "a" * 64,
    "k3v9q2m8xa",
]

texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(TRICKY),
    # huge strings, built cheaply: a short unit repeated
    st.builds(lambda unit, times: unit * times, st.text(min_size=1, max_size=3), st.integers(500, 30_000)),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), texts)
keys = st.one_of(st.sampled_from(FIELDS), st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=10,
)
tool_names = st.one_of(
    st.sampled_from(sorted(TOOL_ARGUMENTS)),
    st.sampled_from(["Create_Reminder", "create_reminder ", "create-reminder", "__class__", "TOOLS", "run_now\x00"]),
    texts,
)
good_context = st.fixed_dictionaries(
    {"room_id": st.just(ROOM), "user_id": st.just(USER)},
    optional={
        "agent_id": st.sampled_from(["echo", "", "nobody"]),
        "timezone": st.sampled_from(["Europe/Madrid", "UTC", "America/New_York", "", "Mars/Olympus", "../x"]),
        "locale": st.sampled_from(["en", "es", "", "xx-YY"]),
    },
)
contexts = st.one_of(
    good_context,
    st.dictionaries(st.sampled_from(["room_id", "user_id", "agent_id", "timezone", "locale"]), json_values),
    json_values,
)
argument_dicts = st.dictionaries(keys, json_values, max_size=6)
arguments = st.one_of(argument_dicts, argument_dicts.map(json.dumps), json_values, texts)
envelopes = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {}, optional={"tool": st.one_of(tool_names, json_values), "arguments": arguments, "context": contexts}
    ),
    st.fixed_dictionaries({"tool": tool_names, "arguments": arguments, "context": good_context}),
)


# --- the harness -------------------------------------------------------------------------------


@dataclass
class Snapshot:
    items: list[dict[str, Any]]
    entries: dict[str, dict[str, Any]]


def snapshot(stack: Stack) -> Snapshot:
    items = sorted(stack.items(), key=lambda row: (row["room_id"], row["sk"]))
    return Snapshot(items=items, entries=stack.entries())


def assert_well_formed(answer: Any) -> None:
    """`{"ok": true, "result", "text"}` or `{"ok": false, "error": {code, message}, "text"}`, as JSON."""
    assert isinstance(answer, dict), answer
    json.dumps(answer, allow_nan=False)
    assert isinstance(answer.get("text"), str) and answer["text"], answer
    if answer.get("ok") is True:
        assert set(answer) == {"ok", "result", "text"}, answer
        assert isinstance(answer["result"], dict | list), answer
        return
    assert answer.get("ok") is False and set(answer) == {"ok", "error", "text"}, answer
    error = answer["error"]
    assert set(error) <= {"code", "message", "details"} and isinstance(error["message"], str), answer
    assert error["code"] in CODES, answer
    assert error["code"] != refusals.INTERNAL_ERROR, answer


@dataclass
class Harness:
    """Answers every envelope, checks its shape and that an error left DynamoDB and Scheduler alone."""

    stack: Stack
    handle: Callable[[Any], Any]
    clients: list[Any]
    started: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    examples: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    seeded: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for client in self.clients:
            client.meta.events.register("before-call", self._seen)
        self.baseline = snapshot(self.stack)

    def _seen(self, model: Any, **_: Any) -> None:
        self.calls.append(model.name)

    def close(self) -> None:
        for client in self.clients:
            client.meta.events.unregister("before-call", self._seen)

    def check(self, event: Any, handle: Callable[[Any], Any] | None = None) -> dict[str, Any]:
        self.calls.clear()
        started = len(self.started)
        answer = (handle or self.handle)(event)
        writes = [name for name in self.calls if name not in READS]
        assert_well_formed(answer)
        self.examples += 1
        code = answer["error"]["code"] if not answer["ok"] else "ok"
        self.codes[code] = self.codes.get(code, 0) + 1
        if not answer["ok"]:
            assert len(self.started) == started, (event, answer)
        if writes:
            after = snapshot(self.stack)
            if not answer["ok"]:
                assert after == self.baseline, (event, answer, writes)
            self.baseline = after
        return answer

    def reseed(self) -> None:
        """Bring back a seeded schedule a successful delete removed, so later examples can reach it."""
        store, now = self.stack.deps().store, self.stack.clock.now()
        live = {s.id for s in store.list_room(ROOM, now) if s.status in ("active", "paused")}
        if not set(self.seeded.values()) <= live:
            fresh = seed(self.stack, only=[kind for kind, sid in self.seeded.items() if sid not in live])
            self.seeded.update(fresh)
            self.baseline = snapshot(self.stack)


SEEDS = {
    "reminder": ("create_reminder", {"message": "Pay rent", "cron": "0 9 1 * 5"}),
    "job": ("cron_create", {"name": "digest", "prompt": "Summarise", "cron_expr": "0 18 * * *"}),
}


def seed(stack: Stack, only: list[str] | None = None) -> dict[str, str]:
    """A recurring reminder with two Scheduler entries and an agent job, to change, run and delete."""
    ids = {}
    for kind in only or list(SEEDS):
        tool, args = SEEDS[kind]
        answer = tools.handle(envelope(tool, args), stack.deps())
        if answer["ok"]:
            ids[kind] = answer["result"]["id"]
    return ids


@pytest.fixture
def small_stack(moto_endpoint: str, clock: FakeClock) -> Stack:
    return provision(moto_endpoint, clock, max_per_room=MAX_PER_ROOM)


@pytest.fixture
def handler_env(small_stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The functions' environment for the small stack; the adapters built from it are dropped after."""
    configure_env(small_stack)
    monkeypatch.setenv("MAX_PER_ROOM", str(MAX_PER_ROOM))
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()
    yield
    wiring.settings.cache_clear()
    wiring.deps.cache_clear()


@pytest.fixture
def harness(small_stack: Stack) -> Iterator[Harness]:
    started: list[dict[str, Any]] = []
    deps = small_stack.deps(start_fire=started.append)
    seeded = seed(small_stack)
    assert set(seeded) == set(SEEDS)
    h = Harness(
        small_stack,
        lambda event: tools.handle(event, deps),
        [small_stack.ddb, small_stack.scheduler],
        started,
        seeded=seeded,
    )
    yield h
    h.close()


# --- tools: arbitrary envelopes ----------------------------------------------------------------

ARBITRARY = 600


def test_arbitrary_envelopes_get_structured_answers(harness: Harness) -> None:
    @fuzz(ARBITRARY)
    @given(event=envelopes)
    def run(event: Any) -> None:
        harness.check(event)

    run()
    assert harness.examples >= ARBITRARY * 0.9
    assert {refusals.INVALID_REQUEST, refusals.MISSING_CONTEXT, refusals.UNKNOWN_TOOL} <= set(harness.codes)


# --- tools: real tool names, junk arguments ----------------------------------------------------

JUNK_ARGUMENTS = 500


def test_known_tools_with_junk_arguments(harness: Harness) -> None:
    @fuzz(JUNK_ARGUMENTS)
    @given(tool=st.sampled_from(sorted(TOOL_ARGUMENTS)), args=arguments, context=good_context)
    def run(tool: str, args: Any, context: dict[str, Any]) -> None:
        harness.check({"tool": tool, "arguments": args, "context": context})

    run()
    assert harness.examples >= JUNK_ARGUMENTS * 0.9
    assert refusals.INVALID_ARGUMENTS in harness.codes


# --- tools: near-valid envelopes from the argument models, one field mutated --------------------


def bases(seeded: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Valid arguments per tool (checked against the models below)."""
    return {
        "create_reminder": [
            {"message": "Stand up", "time": "2026-12-01 09:00"},
            {"message": "Stand up", "cron": "0 10 * * 1", "recurring": True, "timezone": "UTC"},
        ],
        "list_reminders": [{}, {"include_inactive": True}],
        "delete_reminder": [{"id": seeded["reminder"]}],
        "cron_create": [
            {"name": "daily", "prompt": "Summarise the day", "cron_expr": "0 18 * * *", "skills": ["web"]},
            {"name": "once", "prompt": "Check", "fire_at": "2026-12-01T10:00:00Z", "target_agent": "echo"},
        ],
        "cron_list": [{}],
        "cron_delete": [{"id": seeded["job"]}],
        "run_now": [{"kind": "cron", "target": "digest"}, {"target": seeded["reminder"]}],
        "update_reminder": [
            {"id": seeded["reminder"], "message": "Pay the rent"},
            {"id": "digest", "cron": "0 19 * * *", "timezone": "Europe/Madrid"},
        ],
        "pause_reminder": [{"id": seeded["reminder"]}],
        "resume_reminder": [{"id": seeded["job"]}],
        "snooze_reminder": [{"id": seeded["reminder"], "minutes": 30}, {"id": "digest", "until": "in 2 hours"}],
        "skip_next": [{"id": seeded["job"]}],
        "reminder_history": [{"id": seeded["job"]}, {"id": "digest", "limit": 50}],
        "done_reminder": [{"id": seeded["reminder"]}, {"id": "digest"}],
        "set_quiet_hours": [
            {"start": "22:00", "end": "07:30"},
            {"start": "13:00", "end": "15:00", "timezone": "UTC", "days": ["mon", "fri"]},
        ],
        "get_quiet_hours": [{}],
        "clear_quiet_hours": [{}],
    }


def test_bases_are_valid_and_cover_every_tool(harness: Harness) -> None:
    table = bases(harness.seeded)
    assert set(table) == set(TOOL_ARGUMENTS)
    for tool, variants in table.items():
        for args in variants:
            parse(TOOL_ARGUMENTS[tool], args)


MUTATED = 700
WHEN_TEXTS = st.sampled_from([t for t in TRICKY if t]) | st.sampled_from(
    ["in 30 minutes", "tomorrow at 9", "el lunes a las 10", "0 9 * * 1-5", "@daily", "every monday at 10"]
)


def same_type_values(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Odd values of the type the argument model's JSON schema declares for a field."""
    declared = [schema, *schema.get("anyOf", [])]
    kinds = {part.get("type") for part in declared} - {None, "null"}
    options: list[st.SearchStrategy[Any]] = []
    if "string" in kinds:
        options += [texts, WHEN_TEXTS, texts.map(lambda s: f"  {s}\t")]
    if "boolean" in kinds:
        options.append(st.booleans())
    if "integer" in kinds:
        options.append(st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 10_080, 10_081, 241]))
    if "array" in kinds:
        options.append(st.lists(texts, max_size=25))
    return st.one_of(options) if options else json_values


def test_near_valid_envelopes_with_one_field_mutated(harness: Harness) -> None:
    schemas = {tool: model.model_json_schema().get("properties", {}) for tool, model in TOOL_ARGUMENTS.items()}

    @fuzz(MUTATED)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        table = bases(harness.seeded)
        tool = data.draw(st.sampled_from(sorted(TOOL_ARGUMENTS)), label="tool")
        args = dict(data.draw(st.sampled_from(table[tool]), label="base"))
        op = data.draw(st.sampled_from(["odd", "odd", "odd", "odd", "wrong_type", "drop", "extra"]), label="op")
        fields = sorted(schemas[tool])
        if op == "extra" or not fields:
            name = data.draw(st.sampled_from([*IDENTITY, "unknown", "Message", "id "]), label="field")
            args[name] = data.draw(json_values | texts, label="value")
        else:
            name = data.draw(st.sampled_from(fields), label="field")
            if op == "drop":
                args.pop(name, None)
            elif op == "wrong_type":
                args[name] = data.draw(json_values, label="value")
            else:
                args[name] = data.draw(same_type_values(schemas[tool][name]), label="value")
        as_text = data.draw(st.booleans(), label="as JSON text")
        answer = harness.check({**envelope(tool), "arguments": json.dumps(args) if as_text else args})
        if answer["ok"] and tool in ("delete_reminder", "cron_delete"):
            harness.reseed()

    run()
    assert harness.examples >= MUTATED * 0.9
    assert harness.codes.get("ok", 0) >= 20, harness.codes
    assert len(harness.codes) >= 8, harness.codes


# --- tools: through the real handler -----------------------------------------------------------

THROUGH_HANDLER = 200


def test_tools_handler_never_fails(small_stack: Stack, handler_env: None) -> None:
    seed(small_stack)
    started: list[dict[str, Any]] = []
    wiring.deps().start_fire = started.append
    harness = Harness(
        small_stack, lambda event: invoke("tools", event), [aws.client("dynamodb"), aws.client("scheduler")], started
    )

    @fuzz(THROUGH_HANDLER)
    @given(event=envelopes)
    def run(event: Any) -> None:
        assume(not bedrock_agents.is_event(event))
        harness.check(event)

    try:
        run()
    finally:
        harness.close()
    assert harness.examples >= THROUGH_HANDLER * 0.9


# --- tools: the Bedrock Agents and AgentCore Gateway shapes, through the real handler -----------

parameters = st.lists(
    st.fixed_dictionaries(
        {
            "name": keys,
            "type": st.sampled_from(["string", "integer", "number", "boolean", "array"]) | json_values,
            "value": json_values | texts,
        }
    ),
    max_size=5,
)
bedrock_events = st.fixed_dictionaries(
    {
        "messageVersion": st.just("1.0"),
        "actionGroup": st.sampled_from(["cronbell"]) | texts,
        "function": tool_names | json_values,
        "parameters": parameters | json_values,
        "sessionAttributes": st.one_of(good_context, good_context, contexts),
    },
    optional={"inputText": texts, "sessionId": texts, "promptSessionAttributes": json_values},
)
headers = st.fixed_dictionaries(
    {"X-Cronbell-Room-Id": st.just(ROOM), "X-Cronbell-User-Id": st.just(USER)},
    optional={"x-cronbell-timezone": st.sampled_from(["Europe/Madrid", "Mars/Olympus"])},
)
gateway_calls = st.tuples(
    argument_dicts | json_values,
    st.fixed_dictionaries(
        {
            "bedrockAgentCoreToolName": tool_names.map(lambda name: f"cronbell___{name}") | json_values,
            "bedrockAgentCorePropagatedHeaders": st.one_of(headers, headers.map(json.dumps), json_values),
        },
    ),
)


def through_bedrock(event: Any) -> dict[str, Any]:
    response = invoke("tools", event)
    assert response["messageVersion"] == "1.0", response
    answer: dict[str, Any] = json.loads(response["response"]["functionResponse"]["responseBody"]["TEXT"]["body"])
    state = response["response"]["functionResponse"].get("responseState")
    assert (state is None) == (answer.get("ok") is True), response
    return answer


def through_gateway(call: tuple[Any, dict[str, Any]]) -> dict[str, Any]:
    arguments, custom = call
    context = LambdaContext(function_name="tools", client_context=SimpleNamespace(custom=custom))
    result = load_handler("tools").lambda_handler(arguments, context)
    [item] = result["content"]
    answer: dict[str, Any] = json.loads(item["text"])
    assert result["isError"] is (answer.get("ok") is not True), result
    return answer


INBOUND = 300


def test_bedrock_and_gateway_shapes_never_fail(
    small_stack: Stack, handler_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_TRUST_PROPAGATED_HEADERS", "true")
    monkeypatch.delenv("MCP_ROOM_ID", raising=False)
    seed(small_stack)
    started: list[dict[str, Any]] = []
    wiring.deps().start_fire = started.append
    harness = Harness(small_stack, through_bedrock, [aws.client("dynamodb"), aws.client("scheduler")], started)

    # Hypothesis mixes constants of the imported modules into what it generates, so the generated examples
    # shift as the code grows; these explicit ones keep the successful paths reached whatever it draws.
    bedrock_call = {
        "messageVersion": "1.0",
        "actionGroup": "cronbell",
        "sessionAttributes": {"room_id": ROOM, "user_id": USER},
    }
    gateway_headers = {"X-Cronbell-Room-Id": ROOM, "X-Cronbell-User-Id": USER}

    @fuzz(INBOUND)
    @given(bedrock=st.booleans(), event=bedrock_events, call=gateway_calls)
    @example(bedrock=True, event={**bedrock_call, "function": "cron_list", "parameters": []}, call=({}, {}))
    @example(
        bedrock=True,
        event={
            **bedrock_call,
            "function": "cron_create",
            "parameters": [
                {"name": "name", "type": "string", "value": "brief"},
                {"name": "prompt", "type": "string", "value": "Summarise"},
                {"name": "cron_expr", "type": "string", "value": "0 9 * * 1"},
                {"name": "options", "type": "string", "value": '{"skills": ["web"], "timeout_seconds": "60"}'},
            ],
        },
        call=({}, {}),
    )
    @example(
        bedrock=False,
        event={},
        call=(
            {},
            {"bedrockAgentCoreToolName": "cronbell___cron_list", "bedrockAgentCorePropagatedHeaders": gateway_headers},
        ),
    )
    def run(bedrock: bool, event: Any, call: tuple[Any, dict[str, Any]]) -> None:
        if bedrock:
            harness.check(event)
        else:
            harness.check(call, through_gateway)

    try:
        run()
    finally:
        harness.close()
    assert harness.examples >= INBOUND * 0.9
    assert {refusals.MISSING_CONTEXT, refusals.INVALID_ARGUMENTS, refusals.UNKNOWN_TOOL, "ok"} <= set(harness.codes)


# --- fire: arbitrary Input ---------------------------------------------------------------------

FIRE_KEYS = ["room_id", "reminder_id", "scheduled_time", "execution_id", "attempt", "static", "action", "run_now"]
ACTION_KEYS = ["kind", "target_agent", "prompt", "prompt_template", "skills", "timezone", "name"]
fire_texts = st.one_of(
    texts,
    st.sampled_from(["<aws.scheduler.scheduled-time>", "2026-11-29T08:00:00Z", "2026-12-01T08:00:00Z", "1"]),
)
fire_values = st.one_of(json_values, fire_texts)
actions = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(ACTION_KEYS), fire_values, max_size=5),
    st.fixed_dictionaries(
        {"target_agent": st.sampled_from(["echo", "nobody", ""]), "prompt": fire_texts},
        optional={"kind": st.sampled_from(["agent_call", "message"]), "skills": json_values},
    ),
)


def fire_inputs(known_ids: list[str]) -> st.SearchStrategy[Any]:
    """Scheduler-like Input of every shape; `known_ids` (live schedules of ROOM) come with other rooms only."""
    reminder_ids = fire_texts | st.sampled_from(known_ids)
    return st.one_of(
        json_values,
        st.dictionaries(st.sampled_from(FIRE_KEYS), fire_values, max_size=6),
        st.fixed_dictionaries(
            {"room_id": st.sampled_from([ROOM, OTHER_ROOM, "!x:y"]), "reminder_id": reminder_ids},
            optional={
                "scheduled_time": fire_values,
                "execution_id": fire_values,
                "attempt": fire_values,
                "run_now": fire_values,
            },
        ),
        st.fixed_dictionaries(
            {
                "room_id": st.sampled_from([ROOM, "!x:y"]),
                "static": st.sampled_from(["daily-analysis", "nightly.report", "a"]) | fire_texts,
                "action": actions,
            },
            optional={"scheduled_time": fire_values},
        ),
    )


FIRE = 450
STATIC_DAILY_ANALYSIS = {
    "static": "daily-analysis",
    "room_id": ROOM,
    "action": {"kind": "agent_call", "target_agent": "echo", "prompt_template": "daily-analysis.txt"},
}


def test_fire_handler_never_raises_nor_posts_for_unknown_schedules(
    small_stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure_env(small_stack)
    seeded = seed(small_stack)
    chat = RecordingChat()
    monkeypatch.setattr(wiring, "build_sender", lambda settings: chat)
    before = snapshot(small_stack)
    outcomes: dict[str, int] = {}

    @fuzz(FIRE)
    @given(event=fire_inputs(sorted(seeded.values())))
    # the deep paths are always reached, whatever the random ids make the generator draw
    @example(event={**STATIC_DAILY_ANALYSIS, "scheduled_time": "2026-11-30T17:00:00Z"})
    @example(event={"room_id": ROOM, "reminder_id": "zzzzzzzzzz", "scheduled_time": "2020-01-01T00:00:00Z"})
    def run(event: Any) -> None:
        # a real fire of a seeded schedule would post, rightly: this test is about everything else
        assume(
            not (
                isinstance(event, dict) and event.get("room_id") == ROOM and event.get("reminder_id") in seeded.values()
            )
        )
        sent = len(chat.sent)
        try:
            result = invoke("fire", event)
        except RetryLater:  # documented: Lambda retries the event (e.g. a fire just before its item exists)
            outcomes["retry"] = outcomes.get("retry", 0) + 1
            assert len(chat.sent) == sent, event
            return
        json.dumps(result)
        assert isinstance(result, dict) and isinstance(result.get("outcome"), str), result
        outcomes[result["outcome"]] = outcomes.get(result["outcome"], 0) + 1
        static = isinstance(event, dict) and "static" in event and result["outcome"] != "invalid_input"
        if not static:  # only a schedule declared in the template carries its own action
            assert len(chat.sent) == sent, (event, result)

    run()
    assert sum(outcomes.values()) >= FIRE * 0.8, outcomes
    # the static analysis reaches its agent, which this stack cannot invoke: a failed run
    assert {"invalid_input", "unknown_schedule", "failed"} <= set(outcomes), outcomes
    after = snapshot(small_stack)
    # the seeded schedules and their entries are untouched; only static slot markers were added
    assert after.entries == before.entries
    # and the orphan marks of fires for unknown ids, each naming that id's entries only
    marks = [i for i in after.items if i["sk"].startswith("o#")]
    assert all(n.startswith(m["sk"][2:]) for m in marks for n in m["names"]), marks
    assert [i for i in after.items if not i["sk"].startswith(("f#static-", "o#"))] == before.items


def test_static_input_naming_a_missing_prompt_file_claims_nothing(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure_env(stack)
    chat = RecordingChat()
    monkeypatch.setattr(wiring, "build_sender", lambda settings: chat)
    event = {"room_id": ROOM, "static": "x", "action": {"target_agent": "echo", "prompt_template": "nope.txt"}}
    assert invoke("fire", event)["outcome"] == "invalid_input"
    assert stack.items() == [] and chat.sent == []


def test_fire_input_with_another_room_leaves_the_live_schedule_alone(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure_env(stack)
    chat = RecordingChat()
    monkeypatch.setattr(wiring, "build_sender", lambda settings: chat)
    answer = tools.handle(envelope("create_reminder", {"message": "m", "cron": "0 9 1 * 5"}), stack.deps())
    sid = answer["result"]["id"]
    before = stack.entries()
    assert len(before) == 2
    stack.clock.advance(days=1, minutes=2)  # past the grace in which a just-created one-shot may not be stored
    result = invoke("fire", {"room_id": OTHER_ROOM, "reminder_id": sid, "scheduled_time": "2026-12-01T08:00:00Z"})
    assert result["outcome"] == "unknown_schedule" and chat.sent == []
    assert stack.entries() == before
