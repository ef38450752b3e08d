"""Logger and Metrics, created once for every function of the stack."""

from __future__ import annotations

import os

from aws_lambda_powertools import Logger, Metrics, single_metric
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "cronbell"))
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "cronbell"))


def count(name: str, value: float = 1) -> None:
    unit = "Seconds" if name.endswith("Seconds") else "Count"
    metrics.add_metric(name=name, unit=unit, value=value)


def count_run(outcome: str, reason: str) -> None:
    """One finished run: `Runs<Outcome>` in total (what the failed-runs alarm watches) and the
    same count by reason, so a dashboard splits failures into timeouts, errors, refusals."""
    name = f"Runs{outcome.capitalize()}"
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=1)
    if reason and os.environ.get("POWERTOOLS_METRICS_DISABLED", "").lower() not in ("1", "true"):
        with single_metric(name=name, unit=MetricUnit.Count, value=1, namespace=metrics.namespace) as metric:
            metric.add_dimension(name="reason", value=reason)
