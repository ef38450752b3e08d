"""Inbound adapters: each event shape that reaches the tools function, turned into the one envelope.

- `envelope`: DESIGN's `{tool, arguments, context}`, sent by a bot with `lambda:Invoke`; passed as is.
- `bedrock_agent`: an Amazon Bedrock Agents action group with function details (`bedrock_agents`).
- `agentcore`: an Amazon Bedrock AgentCore Gateway Lambda target serving MCP tools (`agentcore`).

Every shape reaches the same use case, `usecases.tools.handle`, and its answer is reshaped for the caller.
The modules are pure (no AWS, no clock): the handler passes in the event, the client context, the
environment and the use-case call.
"""

from __future__ import annotations

from typing import Any

from cronbell.inbound import agentcore, bedrock_agents

ENVELOPE = "envelope"
BEDROCK_AGENT = "bedrock_agent"
AGENTCORE = "agentcore"


def detect(event: Any, context: Any) -> str:
    """Which adapter an invocation needs.

    The gateway's client context is checked first: an AgentCore event is the model's own arguments, so
    arguments that happen to look like an envelope (`tool`, `context`) must never be read as one.
    """
    if agentcore.is_call(agentcore.client_custom(context)):
        return AGENTCORE
    if bedrock_agents.is_event(event):
        return BEDROCK_AGENT
    return ENVELOPE
