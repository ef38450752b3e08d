"""How cronbell writes and reads instants: RFC3339 UTC with a Z, second precision."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo


def iso_utc(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def instant(dt: datetime, tz: tzinfo) -> dict[str, str]:
    """The same instant as local ISO time with its offset in `tz`, and as UTC with a Z (`local`, `utc`:
    how answers show a time, `now` among them)."""
    return {"local": dt.astimezone(tz).isoformat(timespec="seconds"), "utc": iso_utc(dt)}


def stored_second(dt: datetime) -> datetime:
    """`dt` as cronbell keeps it: UTC, whole seconds (what `iso_utc` writes)."""
    return dt.astimezone(UTC).replace(microsecond=0)


def parse_iso(text: str) -> datetime:
    """An aware datetime from RFC3339 (Z or offset). Raises ValueError on anything else."""
    dt = datetime.fromisoformat(text.strip().replace("z", "Z").replace("Z", "+00:00"))
    if dt.tzinfo is None:
        raise ValueError(f"no offset in {text!r}")
    return dt
