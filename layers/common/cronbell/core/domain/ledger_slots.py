"""A slot's key in the delivery ledger: an occurrence's scheduled time, or a run started by hand's (marked,
so it never takes a regular occurrence's slot), and what a manual run that waited its turn takes out."""

from __future__ import annotations

from cronbell.core.domain.models import Schedule

MANUAL_SUFFIX = "~manual"  # a manual run's ledger slot: never the key of a regular occurrence


def ledger_slot(slot: str, manual: bool) -> str:
    """The slot's key in the delivery ledger: the scheduled time, or for a run started by hand the
    time with a suffix, so a manual run in the same second as a regular occurrence never takes its
    slot. A suffix keeps the ledger's (and so the history's) order by time."""
    return f"{slot}{MANUAL_SUFFIX}" if manual else slot


def slot_time(ledger: str) -> tuple[str, bool]:
    """(scheduled time, manual) of a ledger slot."""
    if ledger.endswith(MANUAL_SUFFIX):
        return ledger[: -len(MANUAL_SUFFIX)], True
    return ledger, False


def waited_turn(schedule: Schedule, ledger: str) -> str | None:
    """The time a run started by hand that waited its turn (`ledger`: its slot) takes out of its
    schedule's `manual_waiting` when it is done, or None: any other run that waits still does."""
    waited, manual = slot_time(ledger)
    return waited if manual and waited in schedule.manual_waiting else None
