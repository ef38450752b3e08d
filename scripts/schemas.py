"""Write the tool schemas in docs/tools/ and the run-time contract from the argument models, and measure what
each tool set costs a model.

    python scripts/schemas.py            # (re)write the files, then print each set's size
    python scripts/schemas.py --check    # exit 1, naming the files that are out of date or a set over budget

Two tool sets (`cronbell.usecases.tools.TOOL_SETS`), each in the four formats: `docs/tools/essential/` (the
eight tools a bot that only needs reminders and agent calls shows its model, without the arguments of what only
the full set covers, `FULL_SET_ARGUMENTS`) and `docs/tools/full/` (every tool). `docs/tools/*.json` are the full
set too, where earlier releases wrote it. What a set costs a model on every turn is its Anthropic schemas as sent
(compact JSON) plus its skill text (`docs/skill-essential.md`, `docs/skill.md`), in UTF-8 bytes, within
`BUDGETS`; in tokens too when an offline tokenizer (tiktoken with its encoding cached) is installed.

One source: the tools' registrations, `cronbell.usecases.tools.TOOLS` (name, argument model, title,
description, annotations, result shape), with the strict pydantic models of `cronbell.core.contract.arguments`
(and their `RULES`). Each provider gets the plain JSON Schema subset it accepts: no pydantic
titles, optionals as their plain type (not `anyOf` with null), `additionalProperties: false`, sorted
`required`. Rules that span fields ("exactly one of `time` or `cron`") stay in the descriptions for
the model to read. MCP's `tools/list` also gets each tool's `title`, `annotations` and an `outputSchema`: the
answer envelope `{ok, result | error, text}` with the tool's own `result` (`cronbell.core.text.views.RESULTS`).

The tools function validates arguments without pydantic, against `layers/common/cronbell/core/contract/
contract.json` (read by `cronbell.core.contract.validation`): per tool, JSON-schema-like properties in the
models' field order (type, `nullable`, `default`, `stripWhitespace`, `minLength`/`maxLength` counted
after stripping, `minimum`/`maximum`, `maxItems`, `items`, `enum`), `required`,
`additionalProperties: false` and the models' `rules`. A construct the run-time validator does not
know makes this script fail rather than write a contract that checks less than the models.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "layers" / "common") not in sys.path:
    sys.path.insert(0, str(ROOT / "layers" / "common"))

from annotated_types import Ge, Le, MaxLen  # noqa: E402
from pydantic import StringConstraints  # noqa: E402

from cronbell.core.contract.arguments import _Args  # noqa: E402
from cronbell.core.text.views import RESULTS  # noqa: E402
from cronbell.usecases.tools import (  # noqa: E402
    BY_NAME,
    ESSENTIAL,
    FULL,
    FULL_SET_ARGUMENTS,
    TOOL_SETS,
    argument_models,
)

TOOL_ARGUMENTS: dict[str, type[_Args]] = argument_models()

FORMATS = {
    "openai": "openai.json",
    "anthropic": "anthropic.json",
    "bedrock": "bedrock-agent-functions.json",
    "mcp": "mcp-tools.json",
}
OPENAI, ANTHROPIC, BEDROCK, MCP = (f"docs/tools/{name}" for name in FORMATS.values())  # the full set, as before
CONTRACT = "layers/common/cronbell/core/contract/contract.json"
SKILLS = {ESSENTIAL: "docs/skill-essential.md", FULL: "docs/skill.md"}
BUDGETS = {ESSENTIAL: 12_000, FULL: 30_000}  # bytes of Anthropic schemas and skill text, per set


def set_file(tool_set: str, fmt: str) -> str:
    """Where a set's file of one format lives: docs/tools/<set>/<format's file>."""
    return f"docs/tools/{tool_set}/{FORMATS[fmt]}"


def shown(tool_set: str) -> dict[str, type[_Args]]:
    """The tools a set shows, in the registry's order, with their argument models."""
    return {name: TOOL_ARGUMENTS[name] for name in TOOL_SETS[tool_set]}


def hidden(tool_set: str) -> frozenset[str]:
    """The arguments a set's schemas leave out."""
    return FULL_SET_ARGUMENTS if tool_set == ESSENTIAL else frozenset()


BEDROCK_TYPES = ("string", "number", "integer", "boolean", "array")
BEDROCK_PARAMETER_DESCRIPTION_MAX = 500
BEDROCK_FUNCTION_DESCRIPTION_MAX = 1200
# Bedrock Agents' default quota "parameters per function" (CreateAgentActionGroup refuses more). A tool
# with more arguments keeps its required ones and those that say when it fires as parameters; the rest
# travel in one JSON-object string parameter, `options`, which cronbell.inbound.bedrock_agents decodes.
BEDROCK_MAX_PARAMETERS = 5
BEDROCK_OPTIONS = "options"
BEDROCK_FIRST = ("time", "cron", "cron_expr", "fire_at")

# The keywords OpenAI accepts in strict mode (all properties required, no extra ones allowed).
OPENAI_STRICT_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "description",
        "enum",
        "const",
        "items",
        "anyOf",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    }
)
# Length limits are not part of OpenAI's strict subset; the tools function enforces them anyway.
OPENAI_STRICT_DROPPABLE = frozenset({"minLength", "maxLength"})


def _clean(node: dict[str, Any]) -> dict[str, Any]:
    """One property schema as every provider accepts it."""
    out = {k: v for k, v in node.items() if k != "title"}
    variants = out.pop("anyOf", None)
    if variants is not None:
        kept = [v for v in variants if v != {"type": "null"}]
        if len(kept) != 1:
            raise ValueError(f"unions other than `X | None` have no plain form: {node}")
        if out.get("default", 0) is None:
            del out["default"]  # optional: absent means None
        out = {**_clean(kept[0]), **out}
    if "const" in out:  # `Literal["x"]`: enum is understood more widely than const
        out["enum"] = [out.pop("const")]
    if isinstance(out.get("items"), dict):
        out["items"] = _clean(out["items"])
    return out


def parameters(model: type[_Args], leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The JSON Schema of a tool's arguments object, cleaned for the providers, without `leave_out`."""
    raw = model.model_json_schema()
    if "$defs" in raw:
        raise ValueError(f"{model.__name__}: nested models are not supported in tool schemas")
    if leave_out & set(raw.get("required", [])):
        raise ValueError(f"{model.__name__}: a required argument cannot be left out of a set's schema")
    properties = {name: _clean(prop) for name, prop in raw.get("properties", {}).items() if name not in leave_out}
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(raw.get("required", [])),
        "additionalProperties": False,
    }


def _keywords(schema: Any) -> set[str]:
    """Every schema keyword used anywhere in `schema` (property names excluded)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key == "properties":
            for prop in value.values():
                found |= _keywords(prop)
        elif key == "items":
            found |= _keywords(value)
        elif key == "anyOf":
            for variant in value:
                found |= _keywords(variant)
    return found


def _without(schema: dict[str, Any], keys: frozenset[str]) -> dict[str, Any]:
    """`schema` without the keywords `keys`, anywhere (property names are never touched)."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in keys:
            continue
        if key == "properties":
            value = {name: _without(prop, keys) for name, prop in value.items()}
        elif key == "items" and isinstance(value, dict):
            value = _without(value, keys)
        elif key == "anyOf":
            value = [_without(variant, keys) for variant in value]
        out[key] = value
    return out


def openai_strict_ok(schema: dict[str, Any]) -> bool:
    """Whether `schema` meets OpenAI's strict-mode rules: every property required, no extra
    properties, only supported keywords (checked at this level and in the properties)."""
    if schema.get("type") != "object" or schema.get("additionalProperties") is not False:
        return False
    properties = schema.get("properties", {})
    if sorted(schema.get("required", [])) != sorted(properties):
        return False
    return _keywords(schema) <= OPENAI_STRICT_KEYWORDS


def openai_tools(tool_set: str = FULL) -> list[dict[str, Any]]:
    """Chat Completions `tools`; `strict` only where the schema allows it."""
    tools = []
    for name, model in shown(tool_set).items():
        params = parameters(model, hidden(tool_set))
        function: dict[str, Any] = {"name": name, "description": BY_NAME[name].described(tool_set)}
        candidate = _without(params, OPENAI_STRICT_DROPPABLE)
        if openai_strict_ok(candidate):
            function["parameters"] = candidate
            function["strict"] = True
        else:
            function["parameters"] = params
        tools.append({"type": "function", "function": function})
    return tools


def anthropic_tools(tool_set: str = FULL) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "description": BY_NAME[name].described(tool_set),
            "input_schema": parameters(model, hidden(tool_set)),
        }
        for name, model in shown(tool_set).items()
    ]


def output_schema(name: str) -> dict[str, Any]:
    """The answer envelope of tool `name`: `result` when ok, `error` when not, `text` always."""
    return {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "description": "Whether the call did what it asked."},
            "result": {**RESULTS[BY_NAME[name].result], "description": "What the call did (when ok)."},
            "error": {
                "type": "object",
                "description": "Why nothing was done (when not ok): a stable code and a sentence.",
                "properties": {
                    "code": {"type": "string", "description": "One of the stable codes the README lists."},
                    "message": {"type": "string"},
                    "details": {"type": "object"},
                },
                "required": ["code", "message"],
            },
            "text": {"type": "string", "description": "One or two lines to relay to the user."},
        },
        "required": ["ok", "text"],
    }


def mcp_tools(tool_set: str = FULL) -> dict[str, Any]:
    """The result of MCP's `tools/list`."""
    return {
        "tools": [
            {
                "name": name,
                "title": BY_NAME[name].title,
                "description": BY_NAME[name].described(tool_set),
                "inputSchema": parameters(model, hidden(tool_set)),
                "outputSchema": output_schema(name),
                "annotations": BY_NAME[name].hints.annotations(),
            }
            for name, model in shown(tool_set).items()
        ]
    }


def _bedrock_parameter(name: str, prop: dict[str, Any], required: bool) -> dict[str, Any]:
    kind = prop.get("type")
    if kind not in BEDROCK_TYPES:
        raise ValueError(f"argument {name!r} has type {kind!r}, which Bedrock function details lack")
    description = prop.get("description", "")
    if "enum" in prop and len(prop["enum"]) > 1:
        description += " One of: " + ", ".join(str(v) for v in prop["enum"]) + "."
    if kind == "array":
        description += f" A list of {prop.get('items', {}).get('type', 'value')}s."
    if len(description) > BEDROCK_PARAMETER_DESCRIPTION_MAX:
        raise ValueError(f"argument {name!r}: description longer than {BEDROCK_PARAMETER_DESCRIPTION_MAX}")
    return {"type": kind, "description": description, "required": required}


def bedrock_split(name: str, params: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A tool's arguments as (Bedrock parameters, arguments moved into `options`), each in model order."""
    names = list(params["properties"])
    if BEDROCK_OPTIONS in names:
        raise ValueError(f"{name}: an argument named {BEDROCK_OPTIONS!r} would clash with Bedrock's options")
    if len(names) <= BEDROCK_MAX_PARAMETERS:
        return names, []
    required = [n for n in names if n in params["required"]]
    if len(required) >= BEDROCK_MAX_PARAMETERS:
        raise ValueError(f"{name}: {len(required)} required arguments leave no room for Bedrock's options")
    first = [n for n in BEDROCK_FIRST if n in names and n not in required]
    rest = [n for n in names if n not in required and n not in first]
    kept = set((required + first + rest)[: BEDROCK_MAX_PARAMETERS - 1])
    return [n for n in names if n in kept], [n for n in names if n not in kept]


_OPTION_EXAMPLES: dict[str, Any] = {
    "timezone": "Europe/Madrid",
    "string": "text",
    "integer": 60,
    "number": 1.5,
    "boolean": True,
    "array": ["text"],
}


def _options_parameter(name: str, params: dict[str, Any], rare: list[str]) -> dict[str, Any]:
    """The `options` parameter: what each key holds, as fully as the description limit allows."""
    shown = "timezone" if "timezone" in rare else rare[0]
    example = json.dumps({shown: _OPTION_EXAMPLES.get(shown, _OPTION_EXAMPLES[params["properties"][shown]["type"]])})
    head = f"Optional settings as one JSON object, for example {example}. Keys: "

    def key(arg: str, full: bool) -> str:
        prop = params["properties"][arg]
        kind = prop.get("type")
        if kind == "array":
            kind = f"list of {prop.get('items', {}).get('type', 'value')}s"
        elif len(prop.get("enum", [])) > 1:
            kind = "one of " + ", ".join(str(v) for v in prop["enum"])
        text = f"{arg} ({kind})"
        return f"{text}: {prop.get('description', '').rstrip('.')}" if full else text

    for full in (True, False):
        description = head + "; ".join(key(arg, full) for arg in rare) + "."
        if len(description) <= BEDROCK_PARAMETER_DESCRIPTION_MAX:
            return {"type": "string", "description": description, "required": False}
    raise ValueError(f"{name}: the options of {', '.join(rare)} do not fit a Bedrock description")


def bedrock_functions(tool_set: str = FULL) -> dict[str, Any]:
    """Bedrock Agents action group function details (`functionSchema`), within the parameters quota."""
    functions = []
    for name, model in shown(tool_set).items():
        description = BY_NAME[name].described(tool_set)
        if len(description) > BEDROCK_FUNCTION_DESCRIPTION_MAX:
            raise ValueError(f"{name}: description longer than {BEDROCK_FUNCTION_DESCRIPTION_MAX}")
        params = parameters(model, hidden(tool_set))
        direct, rare = bedrock_split(name, params)
        details = {arg: _bedrock_parameter(arg, params["properties"][arg], arg in params["required"]) for arg in direct}
        if rare:
            details[BEDROCK_OPTIONS] = _options_parameter(name, params, rare)
        functions.append({"name": name, "description": description, "parameters": details})
    return {"functions": functions}


def _runtime_property(annotation: Any, metadata: list[Any], where: str) -> dict[str, Any]:
    """One field's type and constraints as `cronbell.core.contract.validation` reads them."""
    if get_origin(annotation) is Annotated:
        return _runtime_property(get_args(annotation)[0], [*annotation.__metadata__, *metadata], where)
    if get_origin(annotation) in (Union, types.UnionType):
        kept = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(kept) != 1 or len(kept) == len(get_args(annotation)):
            raise ValueError(f"{where}: only `X | None` unions are supported")
        return {**_runtime_property(kept[0], metadata, where), "nullable": True}
    prop: dict[str, Any]
    if get_origin(annotation) is Literal:
        choices = list(get_args(annotation))
        if not all(isinstance(c, str) for c in choices):
            raise ValueError(f"{where}: only string literals are supported")
        prop = {"type": "string", "enum": choices}
    elif annotation is str:
        prop = {"type": "string"}
    elif annotation is bool:
        prop = {"type": "boolean"}
    elif annotation is int:
        prop = {"type": "integer"}
    elif get_origin(annotation) is list:
        prop = {"type": "array", "items": _runtime_property(get_args(annotation)[0], [], f"{where}[]")}
    else:
        raise ValueError(f"{where}: type {annotation!r} has no run-time check")
    for item in metadata:
        if isinstance(item, StringConstraints) and prop["type"] == "string" and "enum" not in prop:
            known = {"strip_whitespace": "stripWhitespace", "min_length": "minLength", "max_length": "maxLength"}
            for attr in ("to_upper", "to_lower", "strict", "pattern", "ascii_only"):
                if getattr(item, attr) is not None:
                    raise ValueError(f"{where}: string constraint {attr} has no run-time check")
            prop.update({key: getattr(item, attr) for attr, key in known.items() if getattr(item, attr) is not None})
        elif isinstance(item, Ge) and prop["type"] == "integer":
            prop["minimum"] = item.ge
        elif isinstance(item, Le) and prop["type"] == "integer":
            prop["maximum"] = item.le
        elif isinstance(item, MaxLen) and prop["type"] == "array":
            prop["maxItems"] = item.max_length
        else:
            raise ValueError(f"{where}: constraint {item!r} has no run-time check")
    return prop


def runtime_contract() -> dict[str, Any]:
    """What `cronbell.core.contract.validation` checks, per tool (see the module docstring)."""
    tools: dict[str, Any] = {}
    for name, model in TOOL_ARGUMENTS.items():
        if model.model_config.get("extra") != "forbid" or not model.model_config.get("strict"):
            raise ValueError(f"{name}: the run-time check assumes strict models that forbid extra arguments")
        properties: dict[str, Any] = {}
        required = []
        for field, info in model.model_fields.items():
            if info.alias is not None or info.validation_alias is not None:
                raise ValueError(f"{name}.{field}: aliases have no run-time check")
            prop = _runtime_property(info.annotation, list(info.metadata), f"{name}.{field}")
            if info.is_required():
                required.append(field)
            else:
                prop["default"] = info.get_default(call_default_factory=True)
            properties[field] = prop
        tools[name] = {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
            "rules": [dict(rule) for rule in model.RULES],
        }
    return {
        "about": "The tools' argument contract, generated from cronbell.core.contract.arguments by scripts/schemas.py.",
        "tools": tools,
    }


MAKERS = {"openai": openai_tools, "anthropic": anthropic_tools, "bedrock": bedrock_functions, "mcp": mcp_tools}


def documents() -> dict[str, Any]:
    """Each generated file (path relative to the repository root) and its content."""
    found: dict[str, Any] = {OPENAI: openai_tools(), ANTHROPIC: anthropic_tools(), BEDROCK: bedrock_functions()}
    found[MCP] = mcp_tools()
    for tool_set in TOOL_SETS:
        for fmt, make in MAKERS.items():
            found[set_file(tool_set, fmt)] = make(tool_set)
    found[CONTRACT] = runtime_contract()
    return found


def compact(document: Any) -> str:
    """A document as an SDK sends it: JSON without indentation."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def model_text(tool_set: str, root: Path = ROOT) -> str:
    """What a set costs a model on every turn: its Anthropic schemas as sent, then its skill text."""
    return compact(anthropic_tools(tool_set)) + "\n" + (root / SKILLS[tool_set]).read_text(encoding="utf-8")


def model_bytes(tool_set: str, root: Path = ROOT) -> int:
    return len(model_text(tool_set, root).encode("utf-8"))


def tokens(text: str) -> int | None:
    """The text's tokens by an offline tokenizer, when one is installed with its data (tiktoken's cl100k_base,
    a stand-in: each provider counts with its own); None otherwise."""
    try:
        import tiktoken  # type: ignore[import-not-found]

        return len(tiktoken.get_encoding("cl100k_base").encode(text))
    except Exception:  # not installed, or its encoding cannot be fetched offline
        return None


def over_budget(root: Path = ROOT) -> list[str]:
    """The sets whose schemas and skill text exceed their budget, each with its size."""
    return [
        f"{tool_set}: {model_bytes(tool_set, root)} bytes, budget {budget}"
        for tool_set, budget in BUDGETS.items()
        if model_bytes(tool_set, root) > budget
    ]


def sizes(root: Path = ROOT) -> list[str]:
    """One line per set: what it costs a model, against its budget."""
    lines = []
    for tool_set, budget in BUDGETS.items():
        text = model_text(tool_set, root)
        count = tokens(text)
        counted = f", about {count} tokens (cl100k_base)" if count is not None else ""
        lines.append(
            f"{tool_set} set: {len(TOOL_SETS[tool_set])} tools, schemas and {SKILLS[tool_set]}: "
            f"{len(text.encode('utf-8'))} bytes of {budget}{counted}"
        )
    return lines


def render(document: Any, path: str = "") -> str:
    """A file's text: sorted keys, except in the run-time contract, whose field order is the order in
    which problems are reported."""
    if path == CONTRACT:
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def stale(root: Path = ROOT) -> list[str]:
    """The generated files whose content on disk differs from what the models produce now."""
    out = []
    for path, document in documents().items():
        target = root / path
        if not target.exists() or target.read_text(encoding="utf-8") != render(document, path):
            out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()) if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = parser.parse_args(argv)
    if args.check:
        differing = stale()
        for path in differing:
            print(f"out of date: {path} (run `make schemas`)", file=sys.stderr)
        for finding in over_budget():
            print(f"over budget: {finding} (shorten the descriptions or the skill text)", file=sys.stderr)
        return 1 if differing or over_budget() else 0
    for path, document in documents().items():
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(document, path), encoding="utf-8")
        print(f"wrote {path}")
    for line in sizes():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
