"""The one or two lines each tool answer gives the model to relay, in English or Spanish."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

_EN = {
    "created": "Scheduled {what} {id}: {description}. Next: {next}. Now it is {now}.",
    "duplicate": "An identical schedule already exists ({id}): {description}. Next: {next}. Now it is {now}.",
    "listed": "{count} schedule(s) in this room. Now it is {now}.",
    "listed_none": "No schedules in this room. Now it is {now}.",
    "deleted": "Deleted {id} ({description}). Now it is {now}.",
    "run_started": "Running {id} now; its result will be posted in {room}.",
    "error": "Could not do that: {message}",
    "updated": "Updated {id}: {description}. Next: {next}. Now it is {now}.",
    "paused": "Paused {id}; it will not fire until resumed. Now it is {now}.",
    "resumed": "Resumed {id}: {description}. Next: {next}. Now it is {now}.",
    "skipped": "The occurrence at {skipped} of {id} will be skipped. Next: {next}. Now it is {now}.",
    "snoozed": "Snoozed {id} to {next}. Now it is {now}.",
    "never": "no further fire",
    "missed": "⏰ Missed reminder for {user} (it was due {due}): {text}",
    "reminder": "reminder",
    "agent_call": "agent call",
    "run_failing": "⚠️ {name} failed ({reason}). Further failures will not be announced until it works again.",
    "run_recovered": "✅ {name} works again.",
    "run_paused": "⏸️ {name} failed {count} times in a row and is paused. Resume it with resume_reminder {id}.",
    "late_note": "(late: it was due {due})",
    "history": "{count} run(s) of {id}, newest first. Now it is {now}.",
}
_ES = {
    "created": "Programado {what} {id}: {description}. Próximo: {next}. Ahora son las {now}.",
    "duplicate": "Ya existe uno idéntico ({id}): {description}. Próximo: {next}. Ahora son las {now}.",
    "listed": "{count} programación(es) en esta sala. Ahora son las {now}.",
    "listed_none": "No hay programaciones en esta sala. Ahora son las {now}.",
    "deleted": "Eliminado {id} ({description}). Ahora son las {now}.",
    "run_started": "Ejecutando {id} ahora; el resultado se publicará en {room}.",
    "error": "No se pudo hacer: {message}",
    "updated": "Actualizado {id}: {description}. Próximo: {next}. Ahora son las {now}.",
    "paused": "Pausado {id}; no se ejecutará hasta reanudarlo. Ahora son las {now}.",
    "resumed": "Reanudado {id}: {description}. Próximo: {next}. Ahora son las {now}.",
    "skipped": "Se omitirá la ejecución de {id} del {skipped}. Próximo: {next}. Ahora son las {now}.",
    "snoozed": "Pospuesto {id} hasta {next}. Ahora son las {now}.",
    "never": "sin más ejecuciones",
    "missed": "⏰ Recordatorio perdido para {user} (era para {due}): {text}",
    "reminder": "recordatorio",
    "agent_call": "llamada al agente",
    "run_failing": "⚠️ {name} ha fallado ({reason}). No se avisará de más fallos hasta que vuelva a funcionar.",
    "run_recovered": "✅ {name} vuelve a funcionar.",
    "run_paused": "⏸️ {name} ha fallado {count} veces seguidas y está en pausa. Reanúdalo con resume_reminder {id}.",
    "late_note": "(con retraso: era para {due})",
    "history": "{count} ejecución(es) de {id}, de la más reciente a la más antigua. Ahora son las {now}.",
}


def is_spanish(locale: str) -> bool:
    return locale.lower().startswith("es")


def say(key: str, locale: str, **values: object) -> str:
    return (_ES if is_spanish(locale) else _EN)[key].format(**values)


def clock_text(dt: datetime, tz: ZoneInfo) -> str:
    """'2026-12-01 09:00 CET (Europe/Madrid)': unambiguous for the model and the user."""
    local = dt.astimezone(tz)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({tz.key})"
