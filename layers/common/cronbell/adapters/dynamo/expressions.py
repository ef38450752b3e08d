"""UpdateExpressions built from their parts, never patched as text."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from cronbell.adapters.dynamo.codec import CLAIM_ONLY, DONE, SlotRef, dump, run_fields
from cronbell.core.domain.models import Schedule
from cronbell.core.domain.runs import History


class Update:
    """SET and REMOVE clauses with their names and values. `set` names the attribute through a
    placeholder (any attribute name is safe); `clause` adds a clause written out, with its values."""

    def __init__(self) -> None:
        self._sets: list[str] = []
        self._removes: list[str] = []
        self._adds: list[str] = []
        self._deletes: list[str] = []
        self.names: dict[str, str] = {}
        self.values: dict[str, Any] = {}

    def set(self, attribute: str, value: Any) -> Update:
        i = len(self._sets)
        self._sets.append(f"#u{i} = :u{i}")
        self.names[f"#u{i}"] = attribute
        self.values[f":u{i}"] = value
        return self

    def set_all(self, attributes: dict[str, Any]) -> Update:
        for attribute, value in attributes.items():
            self.set(attribute, value)
        return self

    def clause(self, text: str, **values: Any) -> Update:
        """A SET clause as written (`fire_count = if_not_exists(fire_count, :z) + :one`), its values
        named without their colon (`z=0, one=1`)."""
        self._sets.append(text)
        self.values.update({f":{name}": value for name, value in values.items()})
        return self

    def remove(self, *attributes: str) -> Update:
        """REMOVE each attribute (a text may list several, comma separated), named by placeholder."""
        for attribute in (a.strip() for text in attributes for a in text.split(",")):
            if attribute:
                i = len(self._removes)
                self._removes.append(f"#r{i}")
                self.names[f"#r{i}"] = attribute
        return self

    def add(self, attribute: str, members: Collection[str]) -> Update:
        """ADD the members to a string set (created when absent)."""
        return self._member_clause(self._adds, "a", attribute, members)

    def delete(self, attribute: str, members: Collection[str]) -> Update:
        """DELETE the members from a string set (one left empty is removed; an absent one stays absent)."""
        return self._member_clause(self._deletes, "x", attribute, members)

    def _member_clause(self, clauses: list[str], tag: str, attribute: str, members: Collection[str]) -> Update:
        i = len(clauses)
        clauses.append(f"#{tag}{i} :{tag}{i}")
        self.names[f"#{tag}{i}"] = attribute
        self.values[f":{tag}{i}"] = set(members)
        return self

    @property
    def expression(self) -> str:
        parts = []
        for action, clauses in (("SET", self._sets), ("REMOVE", self._removes)):
            if clauses:
                parts.append(f"{action} " + ", ".join(clauses))
        for action, clauses in (("ADD", self._adds), ("DELETE", self._deletes)):
            if clauses:
                parts.append(f"{action} " + ", ".join(clauses))
        return " ".join(parts)

    def request(
        self, condition: str = "", names: dict[str, str] | None = None, values: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The UpdateItem (or transaction Update) fields: the expression, the condition and every
        name and value either uses."""
        out: dict[str, Any] = {"UpdateExpression": self.expression}
        if condition:
            out["ConditionExpression"] = condition
        all_names = {**self.names, **(names or {})}
        all_values = {**self.values, **(values or {})}
        if all_names:
            out["ExpressionAttributeNames"] = all_names
        if all_values:
            out["ExpressionAttributeValues"] = dump(all_values)
        return out


# --- conditions ----------------------------------------------------------------------------------
# a slot's run is recorded once: a write that ends a slot never overwrites one already done
NOT_DONE = "(attribute_not_exists(#st) OR #st <> :done)"
IDLE = "(attribute_not_exists(inflight_until) OR inflight_until < :t)"  # no delivery holds the schedule at :t
LIVE = "#s IN (:active, :paused)"  # its names: {"#s": "status"}; its values: :active, :paused


def same_version(schedule: Schedule) -> tuple[str, dict[str, Any]]:
    """The condition that the schedule's item is still at the version `schedule` was read at (an item
    written before versions were kept reads as version 0), and its value."""
    if schedule.version:
        return "version = :ver", {":ver": schedule.version}
    return "(attribute_not_exists(version) OR version = :ver)", {":ver": 0}


# a schedule's last recorded slots, newest first: a claim of one of them is refused (claims.py), so a
# fire that read the slot free just before its run was recorded cannot deliver it again
RECORDED = ("done_1", "done_2", "done_3")
NOT_RECORDED = " AND ".join(f"(attribute_not_exists({name}) OR {name} <> :slot)" for name in RECORDED)


def is_recorded(item: dict[str, Any], slot: str) -> bool:
    """Whether a schedule's item (raw) keeps `slot` among its last recorded slots."""
    return any(item.get(name, {}).get("S") == slot for name in RECORDED)


def recorded(update: Update, slot: str) -> Update:
    """The slot recorded on its schedule: first of its last recorded slots, the oldest let go."""
    shifted = [f"{RECORDED[i]} = if_not_exists({RECORDED[i - 1]}, :none)" for i in range(len(RECORDED) - 1, 0, -1)]
    return update.clause(", ".join([*shifted, f"{RECORDED[0]} = :recorded"]), none="", recorded=slot)


def history_written(history: History, ref: SlotRef, expires_at: int) -> dict[str, Any]:
    """The UpdateItem that makes a slot done with the run its schedule recorded (`History`): its run and
    outcome, what an attempt noted on it while claimed removed; never over a slot done already."""
    update = Update().clause("#st = :done", done=DONE).set("outcome", history.outcome)
    update.set("run", run_fields(history.run))
    update.clause("expires_at = if_not_exists(expires_at, :exp)", exp=expires_at)
    update.remove(CLAIM_ONLY)
    return {"Key": ref.key, **update.request(NOT_DONE, {"#st": "state"})}
