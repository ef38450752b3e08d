"""FireFunction: invoked by EventBridge Scheduler (asynchronously) when a schedule is due."""

from functools import cache
from pathlib import Path
from typing import Any

from cronbell.adapters import clock
from cronbell.adapters.agents import LambdaAgents
from cronbell.adapters.chat import build_sender
from cronbell.core.fire_event import BadFireEvent, parse_fire_event
from cronbell.observability import count, logger, metrics
from cronbell.usecases.fire import FireDeps, fire
from cronbell.wiring import deps, settings, warm_up

PROMPTS = Path(__file__).resolve().parent / "prompts"


warm_up()


@cache
def _chat() -> Any:
    return build_sender(settings())


@cache
def _prompt_file(name: str) -> str:
    """A prompt template shipped with this function (names are checked: no paths)."""
    return (PROMPTS / Path(name).name).read_text(encoding="utf-8")


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    try:
        parsed = parse_fire_event(event, clock.now())
    except BadFireEvent as err:
        logger.error("invalid fire input; nothing done", extra={"error": str(err)})
        return {"outcome": "invalid_input", "error": str(err)}
    logger.set_correlation_id(f"{parsed.reminder_id}@{parsed.slot}")
    logger.append_keys(schedule_id=parsed.reminder_id, slot=parsed.slot, attempt=parsed.attempt)
    fire_deps = FireDeps(
        deps=deps(),
        chat=_chat,
        agents=LambdaAgents(settings().agents),
        prompt_file=_prompt_file,
        metric=count,
        remaining_seconds=lambda: context.get_remaining_time_in_millis() / 1000.0,
    )
    result = fire(parsed, fire_deps)
    logger.info("fire done", extra={"outcome": result["outcome"]})
    return result
