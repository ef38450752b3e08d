"""The tools' arguments checked at run time, from the contract generated out of the argument models.

The strict pydantic models in `cronbell.core.contract.arguments` are the one source of the argument contract;
`make schemas` writes it down as `contract.json` next to this module (per tool: JSON-schema-like
properties, the required names and the cross-field rules). Importing pydantic and building the models
cost the tools function about 50 ms of every cold start and pydantic 9 MB of the layer, so the Lambda
runtime checks arguments here instead, with plain Python, and never imports `cronbell.core.contract.arguments`.

It checks exactly what the strict models check, and refuses exactly what they refuse (a property test
holds the two side by side): no coercion (a bool is not an int, "true" is not a bool, an int is not a
string), strings stripped of whitespace before their length is checked, unknown keys refused, `None`
only for optional fields, every field problem reported, then the first broken rule.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from functools import cache
from typing import Any

from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.refusals import INVALID_ARGUMENTS, TOO_LONG, ToolError
from cronbell.core.domain.refusals import refusal as refuse
from cronbell.core.text import texts
from cronbell.core.text.texts import Listing

CONTRACT_FILE = os.path.join(os.path.dirname(__file__), "contract.json")

# What pydantic strips with `strip_whitespace`: Unicode White_Space (Rust's `char::is_whitespace`).
# Python's `str.strip()` would also strip the control characters U+001C..U+001F.
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


class Arguments:
    """One tool's validated arguments, read-only: every declared field is an attribute (defaults applied)."""

    __slots__ = ("_tool", "_values")

    _tool: str
    _values: dict[str, Any]

    def __init__(self, tool: str, values: dict[str, Any]) -> None:
        object.__setattr__(self, "_tool", tool)
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"{self._tool} has no argument {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("arguments are read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("arguments are read-only")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arguments):
            return NotImplemented
        return self._tool == other._tool and self._values == other._values

    def __hash__(self) -> int:
        return hash((self._tool, tuple(self._values)))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Arguments[{self._tool}]({inner})"

    def as_dict(self) -> dict[str, Any]:
        """The values as a new dict (lists copied), in the contract's field order."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self._values.items()}


@cache
def contract() -> dict[str, Any]:
    """Tool name -> its arguments' contract, read once from `contract.json`."""
    with open(CONTRACT_FILE, encoding="utf-8") as f:
        tools: dict[str, Any] = json.load(f)["tools"]
    return tools


def tool_names() -> list[str]:
    return list(contract())


def arguments_object(arguments: Any) -> dict[Any, Any]:
    """`arguments` as a dict: JSON text is decoded (function-calling APIs often hand arguments over as
    text), None and blank text are `{}`; anything else that is not an object is refused."""
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            raise refuse("invalid_arguments.not_json") from None
        except RecursionError:  # nested deeper than any tool's arguments could be
            raise refuse("invalid_arguments.too_deep") from None
    if not isinstance(arguments, dict):
        raise refuse("invalid_arguments.not_object")
    return arguments


def refusal(problems: list[str] | list[Phrase], too_long: bool) -> ToolError:
    """The one error for a refused arguments object: TOO_LONG when any text or list was too long.
    Problems are phrases (said in the reader's language) or, from the reference models, English text."""
    code = TOO_LONG if too_long else INVALID_ARGUMENTS
    english = [str(texts.render(p, "en")) for p in problems]
    said = Phrase(f"error.{code}", {"problems": Listing(tuple(problems))})
    return ToolError(code, said, {"problems": problems[:10]}, english="; ".join(english)[:1000])


def _problem(where: str, key: str, **values: Any) -> Phrase:
    """'<field>: <what is wrong>', the second part from the catalog."""
    return phrase("problem", where=where, what=phrase(f"problem.{key}", **values))


def _rule_problem(rule: dict[str, Any]) -> Phrase:
    """A broken cross-field rule, in the catalog's words when it has them (`rule.<kind>.<fields>`)."""
    names = rule.get("fields") or [rule.get("field"), rule.get("when_given")]
    key = f"rule.{rule['rule']}.{'.'.join(str(n) for n in names)}"
    return phrase(key) if texts.has(key) else phrase("problem.as_given", text=str(rule["message"]))


def broken_rule(rules: list[dict[str, Any]], values: dict[str, Any]) -> str | None:
    """The message of the first cross-field rule that `values` (every field, None when not given)
    breaks, or None. The rules are declared on the argument models and copied into the contract."""
    rule = _broken(rules, values)
    return None if rule is None else str(rule["message"])


def _broken(rules: list[dict[str, Any]], values: dict[str, Any]) -> dict[str, Any] | None:
    for rule in rules:
        kind = rule["rule"]
        given = [name for name in rule.get("fields", ()) if values.get(name) is not None]
        if kind == "exactly_one":
            broken = len(given) != 1
        elif kind == "at_most_one":
            broken = len(given) > 1
        elif kind == "at_least_one":
            broken = not given
        elif kind == "refused_with":  # `field` may not be `value` while `when_given` is given
            value = values.get(rule["field"])
            broken = (
                values.get(rule["when_given"]) is not None
                and type(value) is type(rule["value"])
                and value == rule["value"]
            )
        else:
            raise ValueError(f"unknown rule {kind!r}")
        if broken:
            return rule
    return None


def _is_unicode(text: str) -> bool:
    """False for text with a lone surrogate, which JSON text can carry (`"\\ud800"`)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check(spec: dict[str, Any], value: Any, where: str, problems: list[Phrase]) -> tuple[Any, bool]:
    """`value` checked against one property's `spec`: (the parsed value, whether a length limit was hit).
    Problems are appended as `where: what`; the parsed value is meaningless when any was added."""
    if value is None and spec.get("nullable"):
        return None, False
    kind = spec["type"]
    if kind == "string" and isinstance(value, str) and not _is_unicode(value):
        problems.append(_problem(where, "not_unicode"))
        return None, False
    if "enum" in spec:
        if isinstance(value, str) and value in spec["enum"]:
            return value, False
        choices = tuple(repr(v) for v in spec["enum"])
        problems.append(_problem(where, "one_of", allowed=Listing(choices, ", ", "problem.or")))
        return None, False
    if kind == "string":
        if not isinstance(value, str):
            problems.append(_problem(where, "string"))
            return None, False
        if spec.get("stripWhitespace"):
            value = value.strip(WHITESPACE)
        if "minLength" in spec and len(value) < spec["minLength"]:
            n = spec["minLength"]
            problems.append(_problem(where, "min_length_one" if n == 1 else "min_length", n=n))
        elif "maxLength" in spec and len(value) > spec["maxLength"]:
            n = spec["maxLength"]
            problems.append(_problem(where, "max_length_one" if n == 1 else "max_length", n=n))
            return value, True
        return value, False
    if kind == "boolean":
        if not isinstance(value, bool):
            problems.append(_problem(where, "boolean"))
        return value, False
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(_problem(where, "integer"))
        elif "minimum" in spec and value < spec["minimum"]:
            problems.append(_problem(where, "at_least", n=spec["minimum"]))
        elif "maximum" in spec and value > spec["maximum"]:
            problems.append(_problem(where, "at_most", n=spec["maximum"]))
        return value, False
    if kind == "array":
        if not isinstance(value, list):
            problems.append(_problem(where, "list"))
            return None, False
        if "maxItems" in spec and len(value) > spec["maxItems"]:  # refused before its items are read
            problems.append(_problem(where, "max_items", n=spec["maxItems"], count=len(value)))
            return None, True
        items, too_long = [], False
        for i, item in enumerate(value):
            parsed, long_item = _check(spec["items"], item, f"{where}.{i}", problems)
            items.append(parsed)
            too_long = too_long or long_item
        return items, too_long
    raise ValueError(f"unknown type {kind!r} in the contract")


def validate(tool: str, arguments: dict[Any, Any]) -> Arguments:
    """`arguments` (an object already) checked against `tool`'s contract, or a ToolError."""
    spec = contract()[tool]
    properties: dict[str, Any] = spec["properties"]
    if not all(_is_unicode(key) for key in arguments if isinstance(key, str)):
        raise refusal([_problem("arguments", "not_unicode")], False)  # the models stop at such a key too
    problems: list[Phrase] = []
    too_long = False
    values: dict[str, Any] = {}
    for name, prop in properties.items():
        if name in arguments:
            values[name], hit = _check(prop, arguments[name], name, problems)
            too_long = too_long or hit
        elif "default" in prop:
            default = prop["default"]
            values[name] = list(default) if isinstance(default, list) else default
        else:
            problems.append(_problem(name, "required"))
    for key in arguments:
        if not isinstance(key, str):
            problems.append(_problem(str(key), "key_type"))
        elif key not in properties:
            problems.append(_problem(key or "arguments", "extra"))
    if not problems:
        rule = _broken(spec.get("rules", []), values)
        if rule is None:
            return Arguments(tool, values)
        problems.append(_rule_problem(rule))
    raise refusal(problems, too_long)


# C0 controls but tab, line feed and carriage return, and DEL: text a chat shows as nothing or as a box,
# which the answer would say differently from the post (NUL, escape sequences, a bell)
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# a schedule's name is shown inside cronbell's own lines (a failure notice, a listing): one line, so that it
# cannot read as lines of their own; a message or prompt may have several
_ONE_LINE = frozenset({"name"})
_LINE_BREAKS = re.compile("[\n\r\x85\u2028\u2029]")

# a reminder's message and a schedule's name are posted, and shown inside cronbell's own lines: an override or
# embedding (U+202A..U+202E), or an isolate that its paragraph does not close or that closes none (U+2066..U+2069),
# makes them read in another order than they are written (a spoofed post). The marks (LRM, RLM, ALM) and isolates
# closed within their paragraph stay: right-to-left writing needs them.
_ORDERED = frozenset({"message", "name"})
_EMBEDDINGS = re.compile("[\u202a-\u202e]")
_ISOLATES = re.compile("[\u2066-\u2069]")
_PARAGRAPH_ENDS = re.compile("[\n\r\x1c-\x1e\x85\u2029]")  # Unicode's bidi paragraph separators (class B)
_OPENS, _CLOSES = "\u2066\u2067\u2068", "\u2069"


def refuse_unreadable(args: Arguments) -> None:
    """After the contract (which the models share): no text argument may hold a control character, and
    one that may not be empty may not be made of invisible characters alone (zero-width spaces, joiners,
    byte-order marks): a name or message that reads as nothing."""
    properties = contract()[args._tool]["properties"]
    problems = []
    for name, value in args.as_dict().items():
        for i, text in enumerate(value if isinstance(value, list) else [value]):
            if not isinstance(text, str):
                continue
            where = f"{name}.{i}" if isinstance(value, list) else name
            if (found := _CONTROLS.search(text)) is not None:
                problems.append(_problem(where, "control_character", code=f"U+{ord(found.group()):04X}"))
            elif name in _ONE_LINE and _LINE_BREAKS.search(text):
                problems.append(_problem(where, "line_break"))
            elif name in _ORDERED and (reorders := _reordering(text)) is not None:
                problems.append(_problem(where, "bidi_control", code=f"U+{ord(reorders):04X}"))
            elif text and properties.get(name, {}).get("minLength") and not _visible(text):
                problems.append(_problem(where, "invisible"))
    if problems:
        raise refusal(problems, False)


def _reordering(text: str) -> str | None:
    """The first character of `text` that reorders what follows it: an override or embedding, a closing
    isolate with none open, or an opening one its paragraph leaves open; None when there is none."""
    if (found := _EMBEDDINGS.search(text)) is not None:
        return found.group()
    for paragraph in _PARAGRAPH_ENDS.split(text):
        opened: list[str] = []
        for isolate in _ISOLATES.findall(paragraph):
            if isolate in _OPENS:
                opened.append(isolate)
            elif not opened:
                return isolate
            else:
                opened.pop()
        if opened:
            return opened[-1]
    return None


# letters that render as blank space (Hangul fillers, the blank Braille pattern)
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(text: str) -> bool:
    """Whether some character shows: not whitespace, a format character (zero-width, joiners), a mark with
    nothing to sit on (a variation selector, the grapheme joiner) or a blank letter."""
    return any(
        not (ch in WHITESPACE or ch in _BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Mn")) for ch in text
    )


def parse(tool: str, arguments: Any) -> Arguments:
    """Validate a call's `arguments` (an object, JSON text or None) for `tool`, or raise a ToolError
    (TOO_LONG or INVALID_ARGUMENTS) whose message says what is wrong, field by field."""
    return validate(tool, arguments_object(arguments))
