"""The tool schemas in docs/tools/ and the run-time contract come from the argument models; the schemas are
what each provider accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cronbell.core.contract import arguments, validation
from cronbell.core.contract.arguments import MAX_SNOOZE_MINUTES, parse
from cronbell.core.domain import refusals
from cronbell.core.domain.refusals import ToolError
from cronbell.usecases.tools import TOOLS, USE_CASES
from scripts import schemas
from tests.support.registry import TOOL_ARGUMENTS, TOOL_DESCRIPTIONS

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
BEDROCK_NAME = re.compile(r"^([0-9a-zA-Z][_-]?){1,100}$")

# One valid call per tool: the schemas must accept what the models accept.
VALID: dict[str, dict[str, Any]] = {
    "create_reminder": {"message": "Stand-up", "time": "tomorrow at 9", "timezone": "Europe/Madrid"},
    "list_reminders": {"include_inactive": True},
    "delete_reminder": {"id": "k3v9q2m8xa"},
    "cron_create": {"name": "digest", "prompt": "Summarise the news", "cron_expr": "0 9 * * 1", "skills": ["web"]},
    "cron_list": {},
    "cron_delete": {"id": "digest"},
    "run_now": {"kind": "cron", "target": "digest"},
    "update_reminder": {"id": "k3v9q2m8xa", "time": "in 2 hours"},
    "pause_reminder": {"id": "k3v9q2m8xa"},
    "resume_reminder": {"id": "k3v9q2m8xa"},
    "snooze_reminder": {"id": "k3v9q2m8xa", "minutes": 15},
    "skip_next": {"id": "k3v9q2m8xa"},
    "reminder_history": {"id": "k3v9q2m8xa", "limit": 5},
    "done_reminder": {"id": "k3v9q2m8xa"},
    "set_quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Madrid", "days": ["fri", "sat"]},
    "get_quiet_hours": {},
    "clear_quiet_hours": {},
}


def by_name(tools: list[dict[str, Any]], key: str = "name") -> dict[str, dict[str, Any]]:
    return {tool[key]: tool for tool in tools}


def input_schemas() -> dict[str, dict[str, dict[str, Any]]]:
    """Per format, tool name -> its JSON Schema for the arguments."""
    docs = schemas.documents()
    return {
        "openai": {t["function"]["name"]: t["function"]["parameters"] for t in docs[schemas.OPENAI]},
        "anthropic": {t["name"]: t["input_schema"] for t in docs[schemas.ANTHROPIC]},
        "mcp": {t["name"]: t["inputSchema"] for t in docs[schemas.MCP]["tools"]},
    }


def test_committed_files_match_the_models() -> None:
    for path, document in schemas.documents().items():
        on_disk = (ROOT / path).read_text(encoding="utf-8")
        assert on_disk == schemas.render(document, path), f"{path} is out of date: run `make schemas`"
    assert schemas.main(["--check"]) == 0


def test_check_names_the_files_that_differ(tmp_path: Path) -> None:
    assert sorted(schemas.stale(tmp_path)) == sorted(schemas.documents())
    for path, document in schemas.documents().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(schemas.render(document, path), encoding="utf-8")
    assert schemas.stale(tmp_path) == []
    mcp = tmp_path / schemas.MCP
    mcp.write_text(mcp.read_text(encoding="utf-8").replace("skip_next", "skip_later"), encoding="utf-8")
    assert schemas.stale(tmp_path) == [schemas.MCP]
    contract = tmp_path / schemas.CONTRACT
    contract.write_text(contract.read_text(encoding="utf-8").replace('"maxLength": 2000', '"maxLength": 2001'))
    assert schemas.stale(tmp_path) == [schemas.MCP, schemas.CONTRACT]


def test_output_is_deterministic_and_sorted() -> None:
    text = schemas.render({"b": 1, "a": [{"d": 2, "c": 3}]})
    assert text == '{\n  "a": [\n    {\n      "c": 3,\n      "d": 2\n    }\n  ],\n  "b": 1\n}\n'
    assert schemas.render(schemas.documents()) == schemas.render(schemas.documents())
    # the run-time contract keeps the models' field order: problems are reported in that order
    assert schemas.render({"b": 1, "a": 2}, schemas.CONTRACT) == '{\n "b": 1,\n "a": 2\n}\n'


def test_runtime_contract_follows_the_models() -> None:
    tools = validation.contract()
    assert tools == schemas.runtime_contract()["tools"]
    assert list(tools) == list(TOOL_ARGUMENTS)
    for name, model in TOOL_ARGUMENTS.items():
        spec = tools[name]
        assert list(spec["properties"]) == list(model.model_fields)  # same order
        assert spec["required"] == [f for f, info in model.model_fields.items() if info.is_required()]
        assert spec["additionalProperties"] is False
        assert spec["rules"] == list(model.RULES)
        for field, prop in spec["properties"].items():
            info = model.model_fields[field]
            assert ("default" in prop) is not info.is_required()
            if prop["type"] == "string" and "enum" not in prop:
                assert prop["stripWhitespace"] is True and prop["minLength"] == 1
    props = tools["snooze_reminder"]["properties"]
    assert props["minutes"] == {
        "type": "integer", "minimum": 1, "maximum": MAX_SNOOZE_MINUTES, "nullable": True, "default": None
    }  # fmt: skip
    assert tools["cron_create"]["properties"]["skills"]["maxItems"] == 20
    assert tools["cron_create"]["properties"]["skills"]["default"] == []
    assert tools["run_now"]["properties"]["kind"] == {"type": "string", "enum": ["cron"], "default": "cron"}
    assert tools["list_reminders"]["properties"]["include_inactive"] == {"type": "boolean", "default": False}


def test_a_constraint_without_a_runtime_check_stops_the_generator() -> None:
    from typing import Annotated

    from pydantic import Field, StringConstraints

    with pytest.raises(ValueError, match="no run-time check"):
        schemas._runtime_property(Annotated[str, StringConstraints(pattern="^a")], [], "x")
    with pytest.raises(ValueError, match="no run-time check"):
        schemas._runtime_property(float, [], "x")
    with pytest.raises(ValueError, match=r"only `X \| None`"):
        schemas._runtime_property(str | int, [], "x")
    with pytest.raises(ValueError, match="no run-time check"):
        schemas._runtime_property(int, list(Field(gt=0).metadata), "x")


def test_every_format_lists_every_tool_once() -> None:
    docs = schemas.documents()
    names = {
        "openai": [t["function"]["name"] for t in docs[schemas.OPENAI]],
        "anthropic": [t["name"] for t in docs[schemas.ANTHROPIC]],
        "bedrock": [f["name"] for f in docs[schemas.BEDROCK]["functions"]],
        "mcp": [t["name"] for t in docs[schemas.MCP]["tools"]],
    }
    for listed in names.values():
        assert listed == list(TOOL_ARGUMENTS)
        assert all(NAME.match(n) for n in listed)
    assert all(BEDROCK_NAME.match(n) for n in names["bedrock"])
    assert all(t["type"] == "function" for t in docs[schemas.OPENAI])


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "mcp"])
def test_input_schemas_are_valid_and_follow_the_models(fmt: str) -> None:
    for name, schema in input_schemas()[fmt].items():
        Draft202012Validator.check_schema(schema)
        model = TOOL_ARGUMENTS[name]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(schema["properties"]) == set(model.model_fields)
        assert set(schema["required"]) <= set(schema["properties"])
        assert set(schema["required"]) == {f for f, info in model.model_fields.items() if info.is_required()}
        for prop in schema["properties"].values():
            assert "title" not in prop and "anyOf" not in prop and prop["type"] != "null"
            assert prop.get("description")


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "mcp"])
def test_schemas_accept_valid_calls_and_refuse_extra_arguments(fmt: str) -> None:
    assert set(VALID) == set(TOOL_ARGUMENTS)
    for name, schema in input_schemas()[fmt].items():
        parse(TOOL_ARGUMENTS[name], VALID[name])  # the model accepts it...
        Draft202012Validator(schema).validate(VALID[name])  # ...and so does the schema
        assert not Draft202012Validator(schema).is_valid({**VALID[name], "room_id": "!other:x"})


def test_openai_strict_only_where_the_rules_hold() -> None:
    strict = set()
    for tool in schemas.documents()[schemas.OPENAI]:
        function = tool["function"]
        params = function["parameters"]
        if function.get("strict"):
            strict.add(function["name"])
            assert sorted(params["required"]) == sorted(params["properties"])
            assert params["additionalProperties"] is False
            used = {k for prop in params["properties"].values() for k in prop} | set(params)
            assert used <= schemas.OPENAI_STRICT_KEYWORDS
        else:
            assert "strict" not in function
            assert not schemas.openai_strict_ok(params)
    assert {"cron_list", "delete_reminder", "pause_reminder"} <= strict
    assert "create_reminder" not in strict  # optional arguments: not strict-mode material


BEDROCK_QUOTA_PARAMETERS_PER_FUNCTION = 5  # CreateAgentActionGroup's default quota, "parameters-per-function"


def test_bedrock_function_details_fit_the_quota_and_keep_every_argument() -> None:
    """The committed file, as CreateAgentActionGroup reads it: at most 5 parameters per function; every
    argument of the models either a parameter or a key named in the `options` parameter."""
    document = json.loads((ROOT / schemas.BEDROCK).read_text(encoding="utf-8"))
    functions = by_name(document["functions"])
    assert list(functions) == list(TOOL_ARGUMENTS)
    for name, function in functions.items():
        assert 1 <= len(function["description"]) <= schemas.BEDROCK_FUNCTION_DESCRIPTION_MAX
        params = function["parameters"]
        assert len(params) <= BEDROCK_QUOTA_PARAMETERS_PER_FUNCTION, (name, list(params))
        model = TOOL_ARGUMENTS[name]
        direct = set(params) - {"options"}
        assert direct <= set(model.model_fields)
        required = {f for f, info in model.model_fields.items() if info.is_required()}
        assert required <= direct, name  # a required argument is never hidden in options
        rare = set(model.model_fields) - direct
        if rare:
            options = params["options"]
            assert options["type"] == "string" and options["required"] is False
            for arg in rare:
                assert re.search(rf"\b{arg} \(", options["description"]), (name, arg)
        else:
            assert "options" not in params
        for arg, detail in params.items():
            assert set(detail) == {"type", "description", "required"}
            assert detail["type"] in schemas.BEDROCK_TYPES
            assert 1 <= len(detail["description"]) <= schemas.BEDROCK_PARAMETER_DESCRIPTION_MAX
            assert BEDROCK_NAME.match(arg)
            assert detail["required"] is (arg in required)
    assert set(functions["cron_create"]["parameters"]) == {"name", "prompt", "cron_expr", "fire_at", "options"}
    assert set(functions["update_reminder"]["parameters"]) == {"id", "time", "cron", "message", "options"}
    assert functions["snooze_reminder"]["parameters"]["minutes"]["type"] == "integer"
    assert functions["run_now"]["parameters"]["kind"]["type"] == "string"


def test_a_tool_with_many_arguments_still_fits_bedrock() -> None:
    params = {
        "properties": {f"a{i}": {"type": "string", "description": f"argument {i}"} for i in range(12)},
        "required": ["a3"],
    }
    direct, rare = schemas.bedrock_split("many", params)
    assert len(direct) == BEDROCK_QUOTA_PARAMETERS_PER_FUNCTION - 1 and "a3" in direct
    assert sorted(direct + rare) == sorted(params["properties"])
    options = schemas._options_parameter("many", params, rare)
    assert len(options["description"]) <= schemas.BEDROCK_PARAMETER_DESCRIPTION_MAX
    with pytest.raises(ValueError, match="no room"):
        schemas.bedrock_split("crowded", {**params, "required": ["a0", "a1", "a2", "a3", "a4"]})


def test_every_tool_has_a_description() -> None:
    assert set(TOOL_DESCRIPTIONS) == set(TOOL_ARGUMENTS)
    for name, text in TOOL_DESCRIPTIONS.items():
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
        assert 2 <= len(sentences) <= 4, name
        assert text == text.strip() and "  " not in text, name


def test_every_tool_in_the_catalog_has_a_use_case() -> None:
    assert list(USE_CASES) == list(TOOL_ARGUMENTS) == validation.tool_names()


def pydantic_parse(tool: str, args: Any) -> Any:
    return parse(TOOL_ARGUMENTS[tool], args)


PARSERS = pytest.mark.parametrize("parse", [validation.parse, pydantic_parse], ids=["runtime", "pydantic"])


def refusal(parse: Any, tool: str, args: dict[str, Any]) -> str:
    with pytest.raises(ToolError) as info:
        parse(tool, args)
    return info.value.code


@PARSERS
def test_update_needs_a_change_and_one_kind_of_time(parse: Any) -> None:
    u = "update_reminder"
    assert parse(u, {"id": "standup", "cron": "0 9 * * 1-5"}).cron == "0 9 * * 1-5"
    for field in arguments.UPDATABLE:  # each one alone is a change
        samples = {"cron": "0 9 * * *", "count": 3, "business_days": True, "business_day_of_month": -1}
        samples |= {"repeat_every": 10, "repeat_times": 2}
        value = {**samples, "on_holiday": "after"}.get(field, "x")
        assert getattr(parse(u, {"id": "standup", field: value}), field) == value
    assert refusal(parse, u, {"id": "standup"}) == refusals.INVALID_ARGUMENTS
    assert refusal(parse, u, {"id": "standup", "message": None, "time": None}) == refusals.INVALID_ARGUMENTS
    assert refusal(parse, u, {"id": "x", "time": "10:00", "cron": "0 9 * * *"}) == refusals.INVALID_ARGUMENTS
    assert refusal(parse, u, {"id": "x", "message": "m" * 2001}) == refusals.TOO_LONG
    assert refusal(parse, u, {"id": "x", "room_id": "!other:x", "name": "n"}) == refusals.INVALID_ARGUMENTS


@PARSERS
def test_when_rules_of_the_create_tools(parse: Any) -> None:
    c, j = "create_reminder", "cron_create"
    assert parse(c, {"message": "m", "cron": "0 9 * * *", "recurring": True}).recurring is True
    assert parse(c, {"message": "m", "time": "10:00", "recurring": False}).recurring is False
    assert parse(c, {"message": "m", "time": "10:00", "recurring": True}).recurring is True  # not refused
    assert refusal(parse, c, {"message": "m", "cron": "0 9 * * *", "recurring": False}) == refusals.INVALID_ARGUMENTS
    assert refusal(parse, c, {"message": "m", "time": "10:00", "cron": "0 9 * * *"}) == refusals.INVALID_ARGUMENTS
    job = {"name": "n", "prompt": "p"}
    assert parse(j, {**job, "fire_at": "2030-01-01T09:00:00", "recurring": False}).recurring is False
    assert parse(j, {**job, "cron_expr": "0 9 * * *", "recurring": False}).recurring is False  # not refused
    assert refusal(parse, j, {**job, "fire_at": "2030-01-01T09:00:00", "recurring": True}) == refusals.INVALID_ARGUMENTS
    assert refusal(parse, j, job) == refusals.INVALID_ARGUMENTS


@PARSERS
def test_snooze_takes_exactly_one_delay_within_a_week(parse: Any) -> None:
    s = "snooze_reminder"
    assert parse(s, {"id": "x", "minutes": MAX_SNOOZE_MINUTES}).minutes == 10080
    assert parse(s, {"id": "x", "until": "tomorrow at 9"}).until == "tomorrow at 9"
    for bad in (
        {"id": "x"},
        {"id": "x", "minutes": 5, "until": "10:00"},
        {"id": "x", "minutes": 0},
        {"id": "x", "minutes": 10081},
        {"id": "x", "minutes": "15"},
        {"id": "x", "minutes": 1.5},
    ):
        assert refusal(parse, s, bad) == refusals.INVALID_ARGUMENTS, bad


# what DESIGN says of each tool's annotations; a tool added to the registry must be added here too
READ_ONLY = {"list_reminders", "cron_list", "reminder_history", "get_quiet_hours"}
DESTRUCTIVE = {"delete_reminder", "cron_delete"}
OPEN_WORLD = {"cron_create", "run_now"}
NOT_IDEMPOTENT = {"run_now", "snooze_reminder", "skip_next"}  # the same call again does more


def test_every_mcp_tool_has_a_title_annotations_and_an_output_schema() -> None:
    from jsonschema import Draft202012Validator

    listed = schemas.documents()[schemas.MCP]["tools"]
    assert [t["name"] for t in listed] == [tool.name for tool in TOOLS]
    titles = [t["title"] for t in listed]
    assert len(set(titles)) == len(titles) and all(t and t[0].isupper() for t in titles)
    for tool in listed:
        name, hints = tool["name"], tool["annotations"]
        assert hints["readOnlyHint"] is (name in READ_ONLY), name
        assert hints["openWorldHint"] is (name in OPEN_WORLD), name
        if name not in READ_ONLY:
            assert hints["destructiveHint"] is (name in DESTRUCTIVE), name
            assert hints["idempotentHint"] is (name not in NOT_IDEMPOTENT), name
        Draft202012Validator.check_schema(tool["outputSchema"])
        assert tool["outputSchema"]["type"] == "object"
        assert tool["outputSchema"]["required"] == ["ok", "text"]
        assert set(tool["outputSchema"]["properties"]) == {"ok", "result", "error", "text"}


def test_the_registry_is_the_one_table_of_tools() -> None:
    """USE_CASES, the argument models, the contract and every format list the registered tools, in order."""
    names = [tool.name for tool in TOOLS]
    assert list(USE_CASES) == names == validation.tool_names() == list(TOOL_ARGUMENTS)
    assert len(set(names)) == len(names)
    for tool in TOOLS:
        assert USE_CASES[tool.name] is tool.use_case
        assert TOOL_DESCRIPTIONS[tool.name] == tool.description


def test_the_bedrock_guide_lists_every_options_key_and_the_argument_counts() -> None:
    """docs/bedrock-and-mcp.md matches the generated functions: each large tool's argument count, its direct
    parameters, and one row (with the model's meaning) per key of its `options`."""
    guide = (ROOT / "docs" / "bedrock-and-mcp.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)` \| `(\w+)` \| (.+) \|$", guide, re.M))
    documented = {(tool, key) for tool, key, _ in rows}
    expected = set()
    for function in schemas.documents()[schemas.BEDROCK]["functions"]:
        name = function["name"]
        if schemas.BEDROCK_OPTIONS not in function["parameters"]:
            continue
        model = TOOL_ARGUMENTS[name]
        options = [arg for arg in model.model_fields if arg not in function["parameters"]]
        expected |= {(name, key) for key in options}
        direct = ", ".join(f"`{p}`" for p in model.model_fields if p in function["parameters"])
        assert f"`{name}` ({len(model.model_fields)} arguments) has {direct} and `options`" in guide, name
        for tool, key, meaning in rows:
            if tool == name:
                assert meaning == model.model_fields[key].description, (tool, key)
    assert documented == expected


# --- the tool sets ----------------------------------------------------------------------------------------

ESSENTIAL_TOOLS = [  # DESIGN's essential set, in the registry's order
    "create_reminder",
    "list_reminders",
    "delete_reminder",
    "cron_create",
    "cron_list",
    "cron_delete",
    "run_now",
    "update_reminder",
]


def set_schemas(tool_set: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Per format, tool name -> its argument schema, read from the committed files of one set."""
    read = lambda fmt: json.loads((ROOT / schemas.set_file(tool_set, fmt)).read_text(encoding="utf-8"))  # noqa: E731
    return {
        "openai": {t["function"]["name"]: t["function"]["parameters"] for t in read("openai")},
        "anthropic": {t["name"]: t["input_schema"] for t in read("anthropic")},
        "mcp": {t["name"]: t["inputSchema"] for t in read("mcp")["tools"]},
        "bedrock": {f["name"]: f["parameters"] for f in read("bedrock")["functions"]},
    }


def test_each_set_is_in_the_four_formats_and_the_full_set_where_it_always_was() -> None:
    expected = {"essential": tuple(ESSENTIAL_TOOLS), "full": tuple(TOOL_ARGUMENTS)}
    assert expected == schemas.TOOL_SETS
    for tool_set, names in schemas.TOOL_SETS.items():
        for fmt, listed in set_schemas(tool_set).items():
            assert list(listed) == list(names), (tool_set, fmt)
    docs = schemas.documents()
    legacies = (schemas.OPENAI, schemas.ANTHROPIC, schemas.BEDROCK, schemas.MCP)
    for fmt, legacy in zip(schemas.FORMATS, legacies, strict=True):
        assert docs[schemas.set_file("full", fmt)] == docs[legacy]


def test_the_essential_set_loads_in_every_shape_and_takes_the_valid_calls() -> None:
    """MCP's own types read its `tools/list`; every argument schema is a valid JSON Schema that accepts the
    valid calls and refuses a foreign argument; Bedrock's function details keep their quota."""
    import mcp_types

    listed = mcp_types.ListToolsResult.model_validate(
        json.loads((ROOT / schemas.set_file("essential", "mcp")).read_text(encoding="utf-8"))
    )
    assert [tool.name for tool in listed.tools] == ESSENTIAL_TOOLS
    openai = json.loads((ROOT / schemas.set_file("essential", "openai")).read_text(encoding="utf-8"))
    assert all(t["type"] == "function" and t["function"]["description"] for t in openai)
    for fmt, found in set_schemas("essential").items():
        for name, schema in found.items():
            if fmt == "bedrock":
                assert len(schema) <= BEDROCK_QUOTA_PARAMETERS_PER_FUNCTION, name
                continue
            Draft202012Validator.check_schema(schema)
            Draft202012Validator(schema).validate(VALID[name])
            assert not Draft202012Validator(schema).is_valid({**VALID[name], "room_id": "!other:x"})


def test_the_essential_schemas_leave_out_only_the_full_sets_arguments() -> None:
    """What only the full set covers (repeats until done, acknowledged with done_reminder; business-day rules):
    left out of the essential schemas, and out of their descriptions; every other argument is there."""
    from cronbell.usecases.tools import FULL_SET_ARGUMENTS

    for name, schema in set_schemas("essential")["anthropic"].items():
        model = TOOL_ARGUMENTS[name]
        assert set(schema["properties"]) == set(model.model_fields) - FULL_SET_ARGUMENTS, name
        assert schema["required"] == sorted(f for f, info in model.model_fields.items() if info.is_required())
    for tool in (schemas.BY_NAME[name] for name in ESSENTIAL_TOOLS):
        named = set(re.findall(r"`(\w+)`", tool.described("essential")))
        assert not named & FULL_SET_ARGUMENTS, tool.name
        assert set(re.findall(r"`(\w+)`", tool.more)) <= set(TOOL_ARGUMENTS[tool.name].model_fields), tool.name
    assert "`repeat_every`" in schemas.BY_NAME["create_reminder"].described("full")  # the full set says more
    assert not schemas.hidden("full")


def test_each_set_costs_a_model_no_more_than_its_budget() -> None:
    """Anthropic schemas as sent (compact JSON) and the skill text, in UTF-8 bytes: 12 KB for the essential set,
    30 KB for the full one (43 KB before there were sets)."""
    assert schemas.BUDGETS == {"essential": 12_000, "full": 30_000}
    assert schemas.over_budget() == []
    for tool_set, budget in schemas.BUDGETS.items():
        size = schemas.model_bytes(tool_set)
        assert 0 < size <= budget
        sent = json.dumps(schemas.anthropic_tools(tool_set), separators=(",", ":"), ensure_ascii=False)
        skill = (ROOT / schemas.SKILLS[tool_set]).read_text(encoding="utf-8")
        assert size == len(sent.encode()) + 1 + len(skill.encode())
    assert schemas.model_bytes("essential") < schemas.model_bytes("full")


def test_a_set_over_its_budget_fails_the_check(tmp_path: Path) -> None:
    for path in schemas.SKILLS.values():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text((ROOT / path).read_text(encoding="utf-8"), encoding="utf-8")
    assert schemas.over_budget(tmp_path) == []
    (tmp_path / schemas.SKILLS["essential"]).write_text("x" * 12_000, encoding="utf-8")
    (finding,) = schemas.over_budget(tmp_path)
    assert finding.startswith("essential: ") and "budget 12000" in finding
    lines = schemas.sizes(tmp_path)
    assert [line.split(" set:")[0] for line in lines] == ["essential", "full"]
    assert all(" bytes of " in line for line in lines)
