"""The integration tests' dependencies are the composition root's (cronbell.wiring.build): a dependency
added there reaches every test that uses `Stack.deps`, and only the test's stand-ins differ."""

from __future__ import annotations

import dataclasses

from cronbell import wiring
from tests.support.aws import Stack

STOOD_IN = {"start_fire", "sleep", "chat", "agents", "metric", "run_metric"}  # Stack.deps' boundaries


def test_stack_deps_are_built_by_the_composition_root(stack: Stack) -> None:
    tests = stack.deps()
    functions = wiring.build(stack.settings, lambda service: stack.ddb if service == "dynamodb" else stack.scheduler)
    for f in dataclasses.fields(tests):
        if f.name in STOOD_IN or f.name == "now":
            continue
        assert type(getattr(tests, f.name)) is type(getattr(functions, f.name)), f.name
    assert tests.prompt_file is functions.prompt_file and tests.settings is stack.settings
    assert tests.now is not functions.now and tests.now() == stack.clock.now()


def test_a_test_stands_in_for_what_it_names_and_nothing_else(stack: Stack) -> None:
    marker = object()
    deps = stack.deps(agents=marker)
    assert deps.agents is marker and deps.start_fire is None
    assert type(deps.store).__name__ == "DynamoStore"


def test_no_scheduler_client_is_built_until_scheduler_is_called(stack: Stack) -> None:
    """The fire and tools functions never call Scheduler (the projector writes it): building their
    dependencies at a cold start builds the DynamoDB client alone; the first Scheduler call builds its."""
    built: list[str] = []

    def client(service: str) -> object:
        built.append(service)
        return stack.ddb if service == "dynamodb" else stack.scheduler

    deps = wiring.build(dataclasses.replace(stack.settings, event_bus_name=""), client)
    assert built == ["dynamodb"]
    deps.scheduler.delete("no-such-entry")
    assert built == ["dynamodb", "scheduler"]
    deps.scheduler.delete("no-such-entry")
    assert built == ["dynamodb", "scheduler"]  # built once


def test_no_events_client_is_built_until_an_event_is_published(stack: Stack) -> None:
    """With an event bus configured, a cold start still builds the DynamoDB client alone: of the tool
    calls only done_reminder announces an event, so a function builds the EventBridge client at its
    first event."""
    built: list[str] = []
    published: list[dict[str, object]] = []

    class Bus:
        def put_events(self, Entries: list[dict[str, object]]) -> dict[str, int]:
            published.extend(Entries)
            return {"FailedEntryCount": 0}

    def client(service: str) -> object:
        built.append(service)
        return Bus() if service == "events" else stack.ddb

    deps = wiring.build(dataclasses.replace(stack.settings, event_bus_name="bots"), client)
    assert built == ["dynamodb"] and deps.events is not None
    deps.events.publish("Run Finished", {"id": "x"})
    deps.events.publish("Run Finished", {"id": "y"})
    assert built == ["dynamodb", "events"]  # built once, at the first event
    assert [e["EventBusName"] for e in published] == ["bots", "bots"]
