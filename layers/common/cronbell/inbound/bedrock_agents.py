"""Amazon Bedrock Agents action groups defined with function details: event in, function response out.

Identity and routing: room, user, agent id, time zone, locale, thread and platform come only from the
event's `sessionAttributes` (keys `room_id`, `user_id`, `agent_id`, `timezone`, `locale`, `thread_id`,
`platform`, as in the tools envelope's context). The bot's own code sets them in the
InvokeAgent request's `sessionState.sessionAttributes`; the model cannot write session attributes, and a
parameter the model sends never changes who is acting or where (the strict argument models refuse a
`room_id` or `user_id` argument).

Bedrock's default quota is 5 parameters per function, so the generated definition
(docs/tools/bedrock-agent-functions.json) moves a larger tool's rarer arguments into one JSON-object
string parameter, `options`; this module decodes it and types each key as it would a parameter.

Why not Powertools' `BedrockAgentFunctionResolver` (3.37): it routes to functions registered one by one and
passes each only the parameters named in its signature, so an argument the model invented is dropped
silently instead of refused; it coerces loosely (a boolean "yes" becomes False, an integer that does not
parse stays a string, an array stays a string); it turns any exception into a plain "Error: ..." body with
no `responseState`; and importing it adds about 60 ms to a cold start. cronbell already routes
(`usecases.tools`) and validates (strict argument models), so this module only converts: event to
envelope, answer to response. The response has exactly the shape Powertools'
`BedrockFunctionsResponseBuilder` builds (the unit tests compare the two).

An action group defined with an OpenAPI schema instead (its events carry `apiPath`, `httpMethod` and
`requestBody`, no `function`) is a misconfiguration: nothing runs, and the `invalid_request` error that
says so is answered in the OpenAPI response shape (`httpStatusCode` 400, the answer as the
`application/json` body), the only one Bedrock reads for such an action group.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Literal

from cronbell.core.contract import validation
from cronbell.core.contract.envelope import ADAPTER_REFUSAL
from cronbell.core.domain import refusals
from cronbell.core.domain.phrases import Phrase, phrase
from cronbell.core.domain.refusals import ToolError, refusal
from cronbell.core.text.texts import Listing
from cronbell.inbound.common import CONTEXT_KEYS, Call, answer, answer_text
from cronbell.inbound.fitted import BEDROCK_RESPONSE_BYTES, fit

REQUIRED_KEYS = ("room_id", "user_id")

# Refusals the model cannot fix by asking again: the deployment or the bot must change (a platform in the
# session attributes the deployment does not configure), or AWS is failing.
# Bedrock answers FAILURE with a DependencyFailedException; every other refusal (invalid_time,
# invalid_arguments, time_in_past, invalid_cron, too_frequent, never_fires, invalid_timezone, too_long,
# not_found, ambiguous, unknown_tool, forbidden_channel, unknown_agent, limit_reached, ...) is a REPROMPT:
# the model reads the error and can correct the call or tell the user.
FAILURE_CODES = frozenset(
    {
        refusals.MISSING_CONTEXT,
        refusals.INVALID_REQUEST,
        refusals.UNKNOWN_PLATFORM,
        refusals.BACKEND_ERROR,
        refusals.INTERNAL_ERROR,
    }
)

# The parameter that carries a tool's rarer arguments as one JSON object, so that every function fits
# Bedrock's default quota of 5 parameters (scripts/schemas.py decides which arguments go there).
OPTIONS = "options"
EXAMPLE_OPTIONS = '{"timezone": "Europe/Madrid"}'

_INT = re.compile(r"[+-]?\d+")
SHOWN_CHARS = 60  # of a refused parameter's value, quoted in its error
_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})


# The HTTP status of the OpenAPI-shaped answer to an action group defined with an OpenAPI schema
OPENAPI_REFUSED_STATUS = 400


def is_event(event: Any) -> bool:
    return isinstance(event, dict) and "messageVersion" in event and "actionGroup" in event


def is_openapi(event: Mapping[str, Any]) -> bool:
    """An event of an action group defined with an OpenAPI schema: Bedrock names the operation by
    `apiPath` (with `httpMethod`), never by `function`."""
    return "apiPath" in event


def _bad(name: str, kind: str, value: Any, why: Phrase) -> ToolError:
    """A parameter Bedrock sent that its declared type (`kind`: integer, number, boolean, array,
    json_object) cannot read."""
    return refusal(
        "invalid_arguments.parameter",
        {"problems": [phrase("problem", where=name, what=why)]},
        name=name,
        kind=phrase(f"type.{kind}"),
        value=_shown(value),
        why=why,
    )


def _shown(value: Any) -> Any:
    """A refused value as the error quotes it: a long text is cut, so the answer stays short."""
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return value[: SHOWN_CHARS - 1] + "…"
    return value


def _numeric(name: str, kind: str, value: Any) -> int | float:
    """An int or float from Bedrock's string value; `kind` names the declared type in errors."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    if _INT.fullmatch(text):
        try:
            return int(text)
        except ValueError:  # longer than Python reads an int (4,300 digits): no argument is that large
            raise _bad(name, kind, value, phrase("reason.too_many_digits")) from None
    try:
        number = float(text)
    except ValueError:
        raise _bad(
            name, kind, value, phrase("reason.not_whole_number" if kind == "integer" else "reason.not_a_number")
        ) from None
    if not math.isfinite(number):
        raise _bad(name, kind, value, phrase("reason.not_finite"))
    return number


def _integer(name: str, value: Any) -> int:
    number = _numeric(name, "integer", value)
    if isinstance(number, float) and not number.is_integer():
        raise _bad(name, "integer", value, phrase("reason.not_whole_number"))
    return int(number)


def _number(name: str, value: Any) -> int | float:
    return _numeric(name, "number", value)


def _boolean(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _bad(name, "boolean", value, phrase("reason.not_boolean"))


def _unquote(item: str) -> str:
    item = item.strip()
    if len(item) >= 2 and item[0] == item[-1] and item[0] in "\"'":
        return item[1:-1]
    return item


def _array(name: str, value: Any) -> list[Any]:
    """Bedrock sends arrays as text: JSON (`["a","b"]`) or not (`[a, b]`, `a, b`)."""
    if isinstance(value, list):
        return value
    if not isinstance(value, str):
        raise _bad(name, "array", value, phrase("reason.not_list"))
    text = value.strip()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    except RecursionError:
        raise _bad(name, "array", value, phrase("reason.too_deep")) from None
    if isinstance(parsed, list):
        return parsed
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return [item for item in (_unquote(part) for part in text.split(",")) if item]


def coerce(name: str, kind: Any, value: Any) -> Any:
    """A Bedrock parameter value (text, with a declared type) as the JSON value the argument models expect."""
    kind = kind.lower() if isinstance(kind, str) else "string"
    if kind == "integer":
        return _integer(name, value)
    if kind == "number":
        return _number(name, value)
    if kind == "boolean":
        return _boolean(name, value)
    if kind == "array":
        return _array(name, value)
    return value  # "string", or a type Bedrock may add later: the strict models judge it


def _declared_type(tool: str, argument: str) -> Any:
    """An argument's type in the run-time contract (None for an argument the tool does not have)."""
    return validation.contract().get(tool, {}).get("properties", {}).get(argument, {}).get("type")


def _options(value: Any) -> dict[str, Any]:
    """The `options` parameter: the tool's rarer arguments as one JSON object (sent as text)."""
    if isinstance(value, dict):
        return value
    text = value.strip() if isinstance(value, str) else None
    if text == "":
        return {}
    if text is not None:
        try:
            parsed = json.loads(text)
        except ValueError as err:
            why = phrase("reason.not_json", error=getattr(err, "msg", str(err)), example=EXAMPLE_OPTIONS)
            raise _bad(OPTIONS, "json_object", value, why) from None
        except RecursionError:  # nested deeper than the decoder goes: no argument is
            raise _bad(OPTIONS, "json_object", value, phrase("reason.too_deep")) from None
        if isinstance(parsed, dict):
            return parsed
    raise _bad(OPTIONS, "json_object", value, phrase("reason.not_an_object", example=EXAMPLE_OPTIONS))


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def session_context(event: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope's `context`, from the session attributes the bot's code set (never the model)."""
    attributes = _mapping(event.get("sessionAttributes"))
    missing = [key for key in REQUIRED_KEYS if not attributes.get(key)]
    if missing:
        raise refusal("missing_context.session", missing=Listing(tuple(missing), ", ", "preview.and"))
    return {key: attributes[key] for key in CONTEXT_KEYS if attributes.get(key) not in (None, "")}


def to_envelope(event: Mapping[str, Any]) -> dict[str, Any]:
    """`{tool, arguments, context}` from a function-details event; raises ToolError when it cannot read the
    context or the function, and hands the use case the refusal of its parameters (`ADAPTER_REFUSAL`)."""
    context = session_context(event)
    function = event.get("function")
    if not isinstance(function, str) or not function:
        raise refusal("invalid_request.no_function")
    try:
        arguments = _arguments(event, function)
    except ToolError as err:
        return {"tool": function, "arguments": {}, "context": context, ADAPTER_REFUSAL: err}
    return {"tool": function, "arguments": arguments, "context": context}


def _arguments(event: Mapping[str, Any], function: str) -> dict[str, Any]:
    """The tool's arguments from the event's parameters, converted to their declared types."""
    parameters = event.get("parameters") or []
    if not isinstance(parameters, list):
        raise refusal("invalid_request.parameters")
    arguments: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for parameter in parameters:
        name = parameter.get("name") if isinstance(parameter, dict) else None
        if not isinstance(name, str) or not name:
            raise refusal("invalid_request.parameter_name")
        if name in arguments or (name == OPTIONS and options):
            raise refusal("invalid_arguments.given_twice", name=name)
        if name == OPTIONS and _declared_type(function, OPTIONS) is None:
            options = _options(parameter.get("value"))
            continue
        arguments[name] = coerce(name, parameter.get("type"), parameter.get("value"))
    for name, value in options.items():
        if name in arguments:
            raise refusal(
                "invalid_arguments.both_ways",
                {"problems": [phrase("problem", where=name, what=phrase("reason.given_twice"))]},
                name=name,
                options=OPTIONS,
            )
        # typed like a parameter of the declared type: "60" for an integer is 60, as Bedrock sends it
        kind = _declared_type(function, name)
        arguments[name] = coerce(f"{OPTIONS}.{name}", kind, value) if isinstance(value, str) else value
    return arguments


def response_state(answer: Mapping[str, Any]) -> Literal["FAILURE", "REPROMPT"] | None:
    if answer.get("ok"):
        return None
    code = _mapping(answer.get("error")).get("code")
    return "FAILURE" if code in FAILURE_CODES else "REPROMPT"


def to_response(event: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """Bedrock's function response: the answer's JSON text as the TEXT body, session attributes kept."""
    function_response: dict[str, Any] = {"responseBody": {"TEXT": {"body": answer_text(dict(answer))}}}
    state = response_state(answer)
    if state:
        function_response["responseState"] = state
    return {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": event.get("actionGroup", ""),
            "function": event.get("function", ""),
            "functionResponse": function_response,
        },
        "sessionAttributes": _mapping(event.get("sessionAttributes")),
        "promptSessionAttributes": _mapping(event.get("promptSessionAttributes")),
    }


def to_api_response(event: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """Bedrock's API response, for an OpenAPI-schema action group: the answer's JSON text as the
    `application/json` body, with status 400 (it is only ever a refusal), session attributes kept."""
    return {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": event.get("actionGroup", ""),
            "apiPath": event.get("apiPath", ""),
            "httpMethod": event.get("httpMethod", ""),
            "httpStatusCode": OPENAPI_REFUSED_STATUS,
            "responseBody": {"application/json": {"body": answer_text(dict(answer))}},
        },
        "sessionAttributes": _mapping(event.get("sessionAttributes")),
        "promptSessionAttributes": _mapping(event.get("promptSessionAttributes")),
    }


def _openapi_refused(event: Mapping[str, Any]) -> dict[str, Any]:
    raise refusal("invalid_request.openapi_schema", path=_shown(event.get("apiPath")))


def handle(event: Mapping[str, Any], call: Call) -> dict[str, Any]:
    """One Bedrock Agents function call through the tools use case; never raises. An OpenAPI-schema
    event runs nothing: it is refused in the response shape its action group expects."""
    locale = _mapping(event.get("sessionAttributes")).get("locale")
    said_in = locale if isinstance(locale, str) else None
    if is_openapi(event):
        return to_api_response(event, answer(lambda: _openapi_refused(event), call, said_in))
    result = answer(lambda: to_envelope(event), call, said_in)
    return fit(result, lambda fitted: to_response(event, fitted), BEDROCK_RESPONSE_BYTES, said_in)
