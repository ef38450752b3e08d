"""FireFunction: invoked by EventBridge Scheduler (asynchronously) when a schedule is due."""

from typing import Any

from cronbell.adapters import clock
from cronbell.core.domain.fire_event import BadFireEvent, parse_fire_event
from cronbell.core.domain.ports import Outcome
from cronbell.observability import logger, metrics
from cronbell.usecases.fire import fire
from cronbell.wiring import deps, warm_up

warm_up()


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    try:
        parsed = parse_fire_event(event, clock.now())
    except BadFireEvent as err:
        logger.error("invalid fire input; nothing done", extra={"error": str(err)})
        return {"outcome": Outcome.INVALID_INPUT, "error": str(err)}
    logger.set_correlation_id(f"{parsed.schedule_id}@{parsed.slot}")
    logger.append_keys(schedule_id=parsed.schedule_id, slot=parsed.slot, attempt=parsed.attempt)
    result = fire(parsed, deps(), remaining_seconds=lambda: context.get_remaining_time_in_millis() / 1000.0)
    logger.info("fire done", extra={"outcome": result["outcome"]})
    return result
