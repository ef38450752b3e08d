"""Writes the chat-platform parts of template.yaml from the platform registry.

Each part sits between a `# BEGIN chat-platforms: <part>` and a `# END chat-platforms: <part>` comment; this
script rewrites what is between them, at the BEGIN line's indentation, from
`cronbell.core.domain.platforms`. Everything else in the template is left as it is.

    python scripts/template_platforms.py          # rewrite template.yaml
    python scripts/template_platforms.py --check  # exit 1 when template.yaml differs (tests/infra does too)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "common"))

from cronbell.core.domain import platforms  # noqa: E402
from cronbell.core.domain.platforms import SHARED_SECRET, Needed, Platform  # noqa: E402

TEMPLATE = ROOT / "template.yaml"
# a full ARN, with the six characters Secrets Manager adds: IAM matches no partial one
SECRET_ARN = "^$|^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$"
MARK = re.compile(r"^(?P<indent> *)# (?P<edge>BEGIN|END) chat-platforms: (?P<part>[a-z-]+)")
WIDTH = 110


def parameters_of(platform: Platform) -> list[Needed]:
    """A platform's template parameters in the order the template lists them."""
    return [*platform.needs, platform.secret, *(need for group in platform.instead for need in group)]


def every_parameter() -> list[Needed]:
    return [need for p in platforms.REGISTRY.values() for need in parameters_of(p)] + [SHARED_SECRET]


def condition(need: Needed) -> str:
    """The condition that says a secret parameter is set (HasMatrixTokenSecret for MatrixTokenSecretArn)."""
    return f"Has{need.parameter.removesuffix('Arn')}"


def folded(key: str, text: str) -> list[str]:
    """`key: text`, folded over several lines when long."""
    if len(key) + len(text) + 2 <= WIDTH and not re.search(r"[:#{}\[\]\"'&*!|>%@`]", text):
        return [f"{key}: {text}"]
    return [f"{key}: >", *("  " + line for line in textwrap.wrap(text, WIDTH - 2))]


# ----------------------------------------------------------------- the parts


def parameter_group() -> list[str]:
    return ["- ChatBackend", *(f"- {need.parameter}" for need in every_parameter())]


def parameters() -> list[str]:
    names = ", ".join(platforms.PLATFORMS)
    lines = [
        "ChatBackend:",
        "  Type: CommaDelimitedList",
        f"  Default: {platforms.PLATFORMS[0]}",
        f"  AllowedValues: [{names}]",
        *(
            "  " + line
            for line in folded(
                "Description",
                f"Where the fire function posts messages: one of {names}, or several separated by commas (the"
                " first is the default; context.platform picks another). Each needs its own parameters below"
                " (the stack is refused without them). See docs/chat-platforms.md.",
            )
        ),
    ]
    for need in every_parameter():
        lines += [
            f"{need.parameter}:",
            "  Type: String",
            '  Default: ""',
            f"  AllowedPattern: {json.dumps(need.pattern or SECRET_ARN)}",
            *("  " + line for line in folded("Description", need.doc)),
        ]
    return lines


def conditions() -> list[str]:
    secrets = [need for need in every_parameter() if need.is_secret]
    lines = [f'{condition(need)}: !Not [!Equals [!Ref {need.parameter}, ""]]' for need in secrets]
    return [*lines, "HasAnyChatSecret: !Or", *(f"  - !Condition {condition(need)}" for need in secrets)]


def _is_set(parameter: str) -> str:
    return f'{{"Fn::Not": [{{"Fn::Equals": [{{Ref: {parameter}}}, ""]}}]}}'


def _all_or_any(function: str, terms: list[str | list[str]]) -> list[str]:
    """`Fn::And` / `Fn::Or` of terms, each a line or the lines of a nested one."""
    lines = [f"Fn::{function}:"]
    for term in terms:
        if isinstance(term, str):
            lines.append(f"  - {term}")
        else:
            lines += [f"  - {term[0]}", *(f"    {line}" for line in term[1:])]
    return lines


def needs_text(platform: Platform) -> str:
    """What a platform needs, in the template's parameter names (the rule's message)."""
    needed = [need.parameter for need in platform.needs]
    if platform.secret_required:
        others = "".join(f", or {' and '.join(n.parameter for n in group)}" for group in platform.instead)
        needed.append(f"{platform.secret.parameter} (or {SHARED_SECRET.parameter}{others})")
    return f"ChatBackend {platform.name} needs {' and '.join(needed)}"


def rules() -> list[str]:
    lines: list[str] = []
    for platform in platforms.REGISTRY.values():
        terms: list[str | list[str]] = [_is_set(need.parameter) for need in platform.needs]
        if platform.secret_required:
            ways: list[str | list[str]] = [_is_set(platform.secret.parameter), _is_set(SHARED_SECRET.parameter)]
            for group in platform.instead:
                sets: list[str | list[str]] = [_is_set(need.parameter) for need in group]
                ways.append(sets[0] if len(sets) == 1 else _all_or_any("And", sets))
            terms.append(_all_or_any("Or", ways))
        if not terms:
            continue
        only = terms[0] if len(terms) == 1 else _all_or_any("And", terms)
        assertion = [f"- Assert: {only}"] if isinstance(only, str) else ["- Assert:", *(f"    {x}" for x in only)]
        lines += [
            f"{platform.name.capitalize()}BackendSettings:",
            f'  RuleCondition: {{"Fn::Contains": [{{Ref: ChatBackend}}, {platform.name}]}}',
            "  Assertions:",
            *(f"    {line}" for line in assertion),
            f"      AssertDescription: {needs_text(platform)}",
        ]
    return lines


def environment() -> list[str]:
    """The variables of a function that posts: the backends, and what each platform reads."""
    lines = ['CHAT_BACKEND: !Join [",", !Ref ChatBackend]  # routes each room to its platform']
    return lines + [f"{need.env}: !Ref {need.parameter}" for need in every_parameter()]


def room_forms() -> list[str]:
    """The tools function's variables that say whether a platform's room ids have a form to check (a Discord
    bot's channel ids): only whether each is set is read there, never the secret it names."""
    needs = {need.setting: need for need in every_parameter()}
    return [
        f"{needs[p.room_ids_with].env}: !Ref {needs[p.room_ids_with].parameter}  # set or not: the room ids' form"
        for p in platforms.REGISTRY.values()
        if p.room_ids_with
    ]


def read_secrets() -> list[str]:
    """The grant of a function that posts: each platform's secret and the shared one, those that are set."""
    secrets = [need for need in every_parameter() if need.is_secret]
    return [
        "- !If",
        "  - HasAnyChatSecret",
        "  - Sid: ReadChatTokens",
        "    Effect: Allow",
        "    Action: secretsmanager:GetSecretValue",
        "    Resource:",
        *(f"      - !If [{condition(n)}, !Ref {n.parameter}, !Ref AWS::NoValue]" for n in secrets),
        "  - !Ref AWS::NoValue",
    ]


PARTS: dict[str, Callable[[], list[str]]] = {
    "parameter-group": parameter_group,
    "parameters": parameters,
    "conditions": conditions,
    "rules": rules,
    "environment": environment,
    "room-forms": room_forms,
    "read-secrets": read_secrets,
}


# ----------------------------------------------------------------- rewriting


def marked_parts(lines: list[str]) -> Iterator[tuple[int, int, str, str]]:
    """(BEGIN line, END line, part, indentation) of each marked part, in order."""
    begin: tuple[int, str, str] | None = None
    for number, line in enumerate(lines):
        found = MARK.match(line)
        if not found:
            continue
        edge, part, indent = found["edge"], found["part"], found["indent"]
        if edge == "BEGIN":
            if begin is not None or part not in PARTS:
                raise ValueError(f"line {number + 1}: unexpected BEGIN chat-platforms: {part}")
            begin = (number, part, indent)
        else:
            if begin is None or begin[1] != part:
                raise ValueError(f"line {number + 1}: END chat-platforms: {part} without its BEGIN")
            yield begin[0], number, part, begin[2]
            begin = None
    if begin is not None:
        raise ValueError(f"line {begin[0] + 1}: BEGIN chat-platforms: {begin[1]} without its END")


def render(text: str) -> str:
    """The template with every marked part written from the registry."""
    lines = text.splitlines()
    out: list[str] = []
    done = 0
    for begin, end, part, indent in marked_parts(lines):
        out += lines[done : begin + 1]
        out += [indent + line for line in PARTS[part]()]
        done = end
    out += lines[done:]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when template.yaml differs, writing nothing")
    args = parser.parse_args(argv)
    current = TEMPLATE.read_text(encoding="utf-8")
    wanted = render(current)
    if args.check:
        if wanted != current:
            print("template.yaml's chat-platform parts differ from the registry: run scripts/template_platforms.py")
            return 1
        return 0
    if wanted != current:
        TEMPLATE.write_text(wanted, encoding="utf-8")
        print("template.yaml: chat-platform parts rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
