"""The run-time validator (`cronbell.core.contract.validation`, pydantic-free) and the strict pydantic models it is
generated from accept and refuse exactly the same arguments, with the same values and the same errors.

Values are drawn per field from the models' own JSON schema (pydantic's, not the generated contract):
near every length and number limit, with white space of every kind around them, plus wrong types and
values of every JSON kind, unknown keys and the rules' combinations.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cronbell.core.contract import arguments, errors, validation
from cronbell.core.domain.refusals import ToolError
from tests.support.python_process import run_python
from tests.support.registry import TOOL_ARGUMENTS

ROOT = Path(__file__).resolve().parents[2]

# Around and inside values: Unicode white space, the controls Python strips but pydantic keeps, and
# characters that look blank but are not white space.
SPACE = [" ", "\t", "\n", "\r", "\x0b", "\x85", "\xa0", "\u2003", "\u3000", "\u2028"]
SPACE += ["\x1c", "\x1f", "\u200b", "\ufeff"]
CHARS = ["a", "Z", "7", "é", "日", "😀", "\x00", *SPACE]
JUNK = [
    None, True, False, 0, 1, -1, 2, 10**20, 1.0, 1.5, float("nan"), "", " ", "\xa0", "true", "false", "1", "cron",
    " cron", "Cron", "\ud800", [], [""], ["a"], ["a", 5], ("a",), {}, {"a": 1},
]  # fmt: skip
ODD_KEYS = ["room_id", "user_id", "agent_id", "context", "tool", "", " id", "ID", "model_config", "\ud800", "a\udfff"]

texts = st.text(st.sampled_from(CHARS), max_size=6)
spaces = st.text(st.sampled_from(SPACE), max_size=3)


def strings(max_length: int, edges: bool) -> st.SearchStrategy[str]:
    """Text padded with any kind of space whose stripped length is 1, 2, `max_length` - 1 or `max_length`,
    or with `edges` also 0 or `max_length` + 1 (or only space, or anything short)."""
    sizes = [1, 2, max_length - 1, max_length] + ([0, max_length + 1] if edges else [])
    core = st.builds(lambda n, c: c * n, st.sampled_from(sizes), st.sampled_from(["a", "é", "😀"]))
    # short texts of anything; without `edges` between two letters, so that space and controls inside count
    core = st.one_of(core, texts if edges else st.builds(lambda t: f"x{t}x", texts))
    return st.builds(lambda pre, mid, post: pre + mid + post, spaces, core, spaces)


def unwrap(prop: dict[str, Any]) -> dict[str, Any]:
    """A property of pydantic's JSON schema without its `X | None` wrapper."""
    kept = [v for v in prop.get("anyOf", [prop]) if v != {"type": "null"}]
    return {**prop, **kept[0]}


def values(prop: dict[str, Any], edges: bool) -> st.SearchStrategy[Any]:
    """Values of the property's type: within its limits, or with `edges` also just past them."""
    prop = unwrap(prop)
    if "const" in prop or "enum" in prop:
        return st.sampled_from([prop["const"]] if "const" in prop else prop["enum"])
    kind = prop["type"]
    if kind == "string":
        return strings(prop.get("maxLength", 50), edges)
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        low, high = prop.get("minimum", -(10**6)), prop.get("maximum", 10**6)
        inside = st.one_of(st.sampled_from([low, low + 1, high - 1, high]), st.integers(low, high))
        return st.one_of(inside, st.sampled_from([low - 1, high + 1, -(10**20), 10**20])) if edges else inside
    if kind == "array":
        item = values(prop["items"], edges)
        limit = prop.get("maxItems", 5)
        sized = st.lists(item, min_size=limit - 2 if edges else 0, max_size=limit + 2 if edges else limit)
        return st.one_of(st.lists(item, max_size=3), sized)
    raise AssertionError(f"no strategy for {prop}")


def argument_dicts(tool: str) -> st.SearchStrategy[dict[Any, Any]]:
    """Well-formed objects (each field given, None or left out; the rules hold or not), objects with
    values just past their limits, objects with values of every other JSON kind, and unknown keys."""
    model = TOOL_ARGUMENTS[tool]
    props = model.model_json_schema().get("properties", {})
    required = {name for name, info in model.model_fields.items() if info.is_required()}

    def fields(value: Any) -> dict[str, st.SearchStrategy[Any]]:
        return {name: value(name, p) for name, p in props.items()}

    # one field of each "exactly one" or "at least one" group is given, so that most such calls are valid
    groups = [rule["fields"] for rule in model.RULES if rule["rule"] in ("exactly_one", "at_least_one")]
    chosen = st.tuples(*(st.sampled_from(group) for group in groups)).flatmap(
        lambda names: st.fixed_dictionaries({n: values(props[n], edges=False) for n in names})
    )
    well_formed = st.builds(
        lambda req, opt, picked: {**opt, **picked, **req},
        st.fixed_dictionaries({n: values(p, edges=False) for n, p in props.items() if n in required}),
        st.fixed_dictionaries({}, optional=fields(lambda n, p: st.one_of(values(p, edges=False), st.none()))),
        chosen,
    )
    near_limits = st.fixed_dictionaries({}, optional=fields(lambda n, p: st.one_of(values(p, edges=True), st.none())))
    junk = st.one_of(st.sampled_from(JUNK), st.sampled_from(JUNK).map(lambda v: [v]))
    wild = st.fixed_dictionaries({}, optional=fields(lambda n, p: st.one_of(values(p, edges=True), junk)))
    all_junk = st.fixed_dictionaries({}, optional=fields(lambda n, p: junk))
    extra = st.dictionaries(st.one_of(st.sampled_from(ODD_KEYS), texts, st.integers(0, 3)), junk, min_size=1)
    return st.one_of(
        well_formed,
        well_formed,
        well_formed,
        near_limits,
        wild,
        all_junk,
        st.builds(lambda a, b: {**a, **b}, well_formed, extra),
    )


def outcome(parse: Any, tool: str, args: Any) -> tuple[str, Any]:
    """What a parser answers, comparable across both: the values (typed, by repr) or the error."""
    try:
        parsed = parse(tool, args)
    except ToolError as err:
        return "refused", (err.code, errors.message(err), errors.as_dict(err).get("details", {}))
    values = parsed.as_dict() if isinstance(parsed, validation.Arguments) else parsed.model_dump()
    return "accepted", repr(values)


def pydantic_parse(tool: str, args: Any) -> Any:
    return arguments.parse(TOOL_ARGUMENTS[tool], args)


@pytest.mark.slow
@pytest.mark.parametrize("tool", sorted(TOOL_ARGUMENTS))
def test_runtime_validator_answers_like_the_models(tool: str) -> None:
    seen: Counter[str] = Counter()

    @settings(max_examples=350, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(args=argument_dicts(tool), as_text=st.sampled_from([False, False, False, True]))
    def check(args: dict[Any, Any], as_text: bool) -> None:
        if as_text:
            with contextlib.suppress(TypeError, ValueError):  # JSON text of what JSON can carry
                args = json.dumps(args)  # type: ignore[assignment]
        expected = outcome(pydantic_parse, tool, args)
        assert outcome(validation.parse, tool, args) == expected
        seen[expected[0] if expected[0] == "accepted" else expected[1][0]] += 1

    check()
    # both sides were really exercised: accepted calls, and refusals of each kind where the tool can have one
    if tool in ("cron_list", "get_quiet_hours", "clear_quiet_hours"):  # no fields: `{}` is their one valid call
        assert seen["accepted"] >= 1 and seen["invalid_arguments"] >= 50, seen
        return
    assert seen["accepted"] >= 10, seen
    assert seen["invalid_arguments"] >= 50, seen
    if tool != "list_reminders":  # the only tool without a text
        assert seen["too_long"] >= 5, seen


@settings(max_examples=200, derandomize=True, deadline=None)
@given(tool=st.sampled_from(sorted(TOOL_ARGUMENTS)), args=st.one_of(st.sampled_from(JUNK), texts))
def test_arguments_that_are_not_an_object(tool: str, args: Any) -> None:
    assert outcome(validation.parse, tool, args) == outcome(pydantic_parse, tool, args)


@pytest.mark.parametrize("function", ["tools", "fire"])
def test_the_handlers_never_import_pydantic(function: str) -> None:
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('app', 'functions/{function}/app.py')\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "assert hasattr(module, 'lambda_handler')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')"
        " or m == 'cronbell.core.contract.arguments'))\n"
    )
    assert run_python(code).strip() == "[]"


def test_a_tool_call_through_the_runtime_needs_no_pydantic() -> None:
    code = (
        "import sys\n"
        "sys.modules['pydantic'] = None  # any import of it fails\n"
        "from cronbell.core.contract import validation\n"
        'args = validation.parse(\'create_reminder\', \'{"message": " hi ", "time": "10:00"}\')\n'
        "print(args.message, args.time, args.cron)\n"
    )
    assert run_python(code).strip() == "hi 10:00 None"


def test_the_layer_does_not_ship_pydantic() -> None:
    layer = (ROOT / "layers" / "common" / "requirements.txt").read_text(encoding="utf-8")
    dev = (ROOT / "requirements-dev.txt").read_text(encoding="utf-8")
    assert "pydantic" not in [line.split("==")[0].strip() for line in layer.splitlines()]
    assert any(line.startswith("pydantic==") for line in dev.splitlines())
