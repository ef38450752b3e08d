"""ToolsFunction: a bot's tool call in, a JSON answer out, whichever way the bot calls.

Three event shapes reach the one use case (`usecases.tools.handle`), converted by `cronbell.inbound`:
the plain envelope `{tool, arguments, context}`, a Bedrock Agents action group with function details,
and an AgentCore Gateway Lambda target (MCP tools, recognised by its client context).
"""

import os
from typing import Any

from cronbell import inbound
from cronbell.inbound import agentcore, bedrock_agents
from cronbell.observability import logger
from cronbell.usecases import tools
from cronbell.wiring import deps, warm_up

warm_up()


def _answer(envelope: Any) -> dict[str, Any]:
    answer = tools.handle(envelope, deps())
    logger.info("tool answered", extra={"ok": answer["ok"], "code": answer.get("error", {}).get("code")})
    return answer


@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    kind = inbound.detect(event, context)
    logger.append_keys(inbound=kind)
    if kind == inbound.AGENTCORE:
        custom = agentcore.client_custom(context) or {}
        logger.append_keys(tool=custom.get(agentcore.TOOL_NAME_KEY), **{k: custom.get(k) for k in agentcore.TRACE_KEYS})
        return agentcore.handle(event, custom, os.environ, _answer)
    if kind == inbound.BEDROCK_AGENT:
        logger.append_keys(tool=event.get("function"), action_group=event.get("actionGroup"))
        return bedrock_agents.handle(event, _answer)
    if isinstance(event, dict):
        logger.append_keys(tool=event.get("tool"))
    return _answer(event)
