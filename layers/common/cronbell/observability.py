"""Logger and Metrics, created once for every function of the stack."""

from __future__ import annotations

import os

from aws_lambda_powertools import Logger, Metrics

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "cronbell"))
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "cronbell"))


def count(name: str, value: float = 1) -> None:
    unit = "Seconds" if name.endswith("Seconds") else "Count"
    metrics.add_metric(name=name, unit=unit, value=value)
