"""ToolsFunction: a bot's tool call ({tool, arguments, context}) in, a JSON answer out."""

from typing import Any

from cronbell.observability import logger
from cronbell.usecases import tools
from cronbell.wiring import deps


@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    if isinstance(event, dict):
        logger.append_keys(tool=event.get("tool"))
    answer = tools.handle(event, deps())
    logger.info("tool answered", extra={"ok": answer["ok"], "code": answer.get("error", {}).get("code")})
    return answer
