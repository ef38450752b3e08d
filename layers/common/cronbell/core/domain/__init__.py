"""The domain: schedules, their timing and cron, runs, the fire decision and contract, routing, the ports."""
