"""ReconcileFunction: runs daily (and on demand) to repair drift between DynamoDB and Scheduler."""

from typing import Any

from cronbell.observability import count, logger, metrics
from cronbell.usecases.reconcile import reconcile
from cronbell.wiring import deps


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    report = reconcile(deps()).to_dict()
    for name, value in report.items():
        count(f"Reconcile{name.title().replace('_', '')}", value)
    return report
