"""`sam deploy --guided`'s questions about the template's parameters, each answered with Enter, as the SAM CLI
asks them (its own `GuidedContext.prompt_parameters`, reading a terminal that holds one Enter per parameter).

Run by the SAM CLI's Python (.venv-sam): `python tests/support/sam_guided.py template.yaml`. Prints the value
each parameter got, as JSON, or `{"aborted": true}` when a question was asked again after every Enter was
used (a NoEcho parameter keeps no default, so click asks it until something is typed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

import click.termui
from click.exceptions import Abort
from click.testing import CliRunner
from samcli.commands._utils.template import get_template_parameters
from samcli.commands.deploy.guided_context import GuidedContext


def main(template: str) -> dict[str, object]:
    parameters = get_template_parameters(template_file=template)
    left = [len(parameters)]

    def ending(read: Callable[[str], str]) -> Callable[[str], str]:
        """The terminal's input, which ends after the Enters typed (click aborts at its end)."""

        def answer(text: str) -> str:
            if not left[0]:
                raise EOFError
            left[0] -= 1
            return read(text)

        return answer

    guided = GuidedContext.__new__(GuidedContext)  # only its questions about parameters are asked
    with CliRunner().isolation(input="\n" * len(parameters)):
        click.termui.visible_prompt_func = ending(click.termui.visible_prompt_func)
        click.termui.hidden_prompt_func = ending(click.termui.hidden_prompt_func)
        try:
            asked = guided.prompt_parameters(parameters, {}, "", "")
        except Abort:
            return {"aborted": True}
    return {name: answer["Value"] for name, answer in asked.items()}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
