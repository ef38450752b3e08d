"""Cron: a recurrence's fields (fields), its spec and interval (spec), its expressions for croniter and
EventBridge Scheduler (expressions) and its fire times in a zone (fires)."""
