"""The tests' tables of tools, derived from the one registration of each (cronbell.usecases.tools.TOOLS)."""

from __future__ import annotations

from typing import Any

from cronbell.usecases.tools import TOOLS, argument_models

TOOL_ARGUMENTS: dict[str, Any] = argument_models()  # tool name -> its pydantic argument model
TOOL_DESCRIPTIONS: dict[str, str] = {tool.name: tool.description for tool in TOOLS}
