"""The time language: the grammar modules reading a per-language lexicon (when, days, clocks, cron phrases)."""
