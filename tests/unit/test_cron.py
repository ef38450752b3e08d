"""Recurring schedules: parsing, refusals, EventBridge translation and next fires across DST."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from croniter import croniter

from cronbell.core.contract import errors
from cronbell.core.domain.cron.expressions import at_expression, eventbridge_expressions
from cronbell.core.domain.cron.fields import parse_fields
from cronbell.core.domain.cron.fires import next_fires
from cronbell.core.domain.cron.spec import CronSpec
from cronbell.core.domain.refusals import INVALID_CRON, NEVER_FIRES, TOO_FREQUENT, ToolError
from cronbell.core.language.recurring import parse_recurring
from cronbell.usecases.planning import afternoon_notes

MADRID = ZoneInfo("Europe/Madrid")
NEW_YORK = ZoneInfo("America/New_York")
KOLKATA = ZoneInfo("Asia/Kolkata")
ADELAIDE = ZoneInfo("Australia/Adelaide")

# text -> (normalized five-field expression, EventBridge expressions)
TRANSLATIONS = [
    ("0 10 * * 1", "0 10 * * 1", ["cron(0 10 ? * 2 *)"]),
    ("0 9 * * *", "0 9 * * *", ["cron(0 9 * * ? *)"]),
    ("0  9 * *   *", "0 9 * * *", ["cron(0 9 * * ? *)"]),
    ("*/15 * * * *", "*/15 * * * *", ["cron(0/15 * * * ? *)"]),
    ("5/15 * * * *", "5,20,35,50 * * * *", ["cron(5/15 * * * ? *)"]),
    ("0 */6 * * *", "0 */6 * * *", ["cron(0 0/6 * * ? *)"]),
    ("0 9-17/2 * * *", "0 9,11,13,15,17 * * *", ["cron(0 9,11,13,15,17 * * ? *)"]),
    ("30 8 * * MON-FRI", "30 8 * * 1-5", ["cron(30 8 ? * 2-6 *)"]),
    ("30 8 * * mon-fri", "30 8 * * 1-5", ["cron(30 8 ? * 2-6 *)"]),
    ("0 10 * * 0", "0 10 * * 0", ["cron(0 10 ? * 1 *)"]),
    ("0 10 * * 7", "0 10 * * 0", ["cron(0 10 ? * 1 *)"]),
    ("0 10 * * SUN", "0 10 * * 0", ["cron(0 10 ? * 1 *)"]),
    ("0 10 * * 6", "0 10 * * 6", ["cron(0 10 ? * 7 *)"]),
    ("0 10 * * 5-7", "0 10 * * 0,5,6", ["cron(0 10 ? * 1,6,7 *)"]),
    ("0 10 * * SAT-SUN", "0 10 * * 0,6", ["cron(0 10 ? * 1,7 *)"]),
    ("0 10 * * FRI-MON", "0 10 * * 0,1,5,6", ["cron(0 10 ? * 1,2,6,7 *)"]),
    ("0 10 * * 0-7", "0 10 * * *", ["cron(0 10 * * ? *)"]),
    ("0 10 * * */2", "0 10 * * 0,2,4,6", ["cron(0 10 ? * 1,3,5,7 *)"]),
    ("0 0 1 * *", "0 0 1 * *", ["cron(0 0 1 * ? *)"]),
    ("0 0 L * *".replace("L", "31"), "0 0 31 * *", ["cron(0 0 31 * ? *)"]),
    ("0 0 1 JAN,jul *", "0 0 1 1,7 *", ["cron(0 0 1 1,7 ? *)"]),
    ("0 0 1 NOV-FEB *", "0 0 1 1,2,11,12 *", ["cron(0 0 1 1,2,11,12 ? *)"]),
    ("0 0 29 2 *", "0 0 29 2 *", ["cron(0 0 29 2 ? *)"]),
    ("0 0 1 */3 *", "0 0 1 */3 *", ["cron(0 0 1 1/3 ? *)"]),
    ("0 12 1,15 * 1", "0 12 1,15 * 1", ["cron(0 12 1,15 * ? *)", "cron(0 12 ? * 2 *)"]),
    ("0 0 13 * 5", "0 0 13 * 5", ["cron(0 0 13 * ? *)", "cron(0 0 ? * 6 *)"]),
    ("0 0 31 2 1", "0 0 31 2 1", ["cron(0 0 ? 2 2 *)"]),  # the day-of-month half never fires: dropped
    ("0 0 1-31 * 1", "0 0 * * *", ["cron(0 0 * * ? *)"]),  # either rule with every day: every day
    ("0 0 * * 1", "0 0 * * 1", ["cron(0 0 ? * 2 *)"]),
    ("0 0 ? * 1", "0 0 * * 1", ["cron(0 0 ? * 2 *)"]),
    ("@hourly", "0 * * * *", ["cron(0 * * * ? *)"]),
    ("@daily", "0 0 * * *", ["cron(0 0 * * ? *)"]),
    ("@weekly", "0 0 * * 0", ["cron(0 0 ? * 1 *)"]),
    ("@monthly", "0 0 1 * *", ["cron(0 0 1 * ? *)"]),
    ("@yearly", "0 0 1 1 *", ["cron(0 0 1 1 ? *)"]),
    ("@ANNUALLY", "0 0 1 1 *", ["cron(0 0 1 1 ? *)"]),
    # places in the month, as croniter writes them, in EventBridge's words
    ("0 9 L * *", "0 9 L * *", ["cron(0 9 L * ? *)"]),
    ("0 9 l 2 ?", "0 9 L 2 *", ["cron(0 9 L 2 ? *)"]),
    ("0 10 * * 1#1", "0 10 * * 1#1", ["cron(0 10 ? * 2#1 *)"]),
    ("0 10 * * MON#2", "0 10 * * 1#2", ["cron(0 10 ? * 2#2 *)"]),
    ("0 10 * * 7#3", "0 10 * * 0#3", ["cron(0 10 ? * 1#3 *)"]),
    ("0 10 * * L5", "0 10 * * L5", ["cron(0 10 ? * 6L *)"]),
    ("0 10 ? * L0", "0 10 * * L0", ["cron(0 10 ? * 1L *)"]),
]


@pytest.mark.parametrize(("text", "expr", "expressions"), TRANSLATIONS)
def test_translation(text: str, expr: str, expressions: list[str]) -> None:
    spec = parse_recurring(text, 5)
    assert spec == CronSpec(expr=expr, source=text)
    assert eventbridge_expressions(spec) == expressions
    # croniter reads the normalized expression with the same meaning as the original
    start = datetime(2026, 1, 1)
    original, normalized = croniter(text.replace("@ANNUALLY", "@annually"), start), croniter(expr, start)
    assert [original.get_next(datetime) for _ in range(20)] == [normalized.get_next(datetime) for _ in range(20)]


def test_equal_range_is_one_value() -> None:
    """croniter reads `A-A` as the whole cycle; cron and this module read the single value A,
    and the normalized expression spells it so that croniter agrees."""
    spec = parse_recurring("5-5 1 * * *", 5)
    assert spec.expr == "5 1 * * *"
    assert eventbridge_expressions(spec) == ["cron(5 1 * * ? *)"]


PHRASES = [
    # said by users outside the project: digits for "N times a day", "monthly" before a place, "of month"
    ("3 times a day at 8, 14 and 20", "0 8,14,20 * * *"),
    ("3 veces al día a las 8, 14 y 20", "0 8,14,20 * * *"),
    ("monthly on the last day at 5pm", "0 17 L * *"),
    ("monthly on the first monday at 9", "0 9 * * 1#1"),
    ("every last day of month at 9", "0 9 L * *"),
    ("el primer lunes de cada mes a las 9", "0 9 * * 1#1"),
    ("the last friday of every month at 5pm", "0 17 * * L5"),
    ("every last friday of the month at 17:00", "0 17 * * L5"),
    ("el último viernes de cada mes a las 18:30", "30 18 * * L5"),
    ("el último día de cada mes a las 20:00", "0 20 L * *"),
    ("on the last day of every month at 9", "0 9 L * *"),
    ("the 2nd tuesday of every month at 10", "0 10 * * 2#2"),
    ("el tercer domingo de cada mes a las 12", "0 12 * * 0#3"),
    ("on the first day of every month at 8", "0 8 1 * *"),
    ("every day at 9", "0 9 * * *"),
    ("daily at 21:30", "30 21 * * *"),
    ("todos los días a las 9", "0 9 * * *"),
    ("cada día a las 7 y media", "30 7 * * *"),
    ("every monday at 10", "0 10 * * 1"),
    ("todos los lunes a las 10", "0 10 * * 1"),
    ("cada lunes a las 10", "0 10 * * 1"),
    ("every weekday at 8", "0 8 * * 1-5"),
    ("weekdays at 8am", "0 8 * * 1-5"),
    ("de lunes a viernes a las 8", "0 8 * * 1-5"),
    ("entre semana a las 8", "0 8 * * 1-5"),
    ("from monday to friday at 7:30", "30 7 * * 1-5"),
    ("mon-fri at 9", "0 9 * * 1-5"),
    ("every weekend at 10", "0 10 * * 0,6"),
    ("los fines de semana a las 11", "0 11 * * 0,6"),
    ("cada fin de semana a las 10", "0 10 * * 0,6"),  # "fin", one weekend
    ("every sunday at 9:30am", "30 9 * * 0"),
    ("Every Sunday at 9:30 PM", "30 21 * * 0"),
    ("los martes a las 18:00", "0 18 * * 2"),
    ("los sábados a las 10 de la mañana", "0 10 * * 6"),
    ("los lunes y miércoles a las 9", "0 9 * * 1,3"),
    ("los lunes, miércoles y viernes a las 9", "0 9 * * 1,3,5"),
    ("every monday and thursday at 10 pm", "0 22 * * 1,4"),
    ("at 9 every monday", "0 9 * * 1"),
    ("every friday to monday at 9", "0 9 * * 0,1,5,6"),
    ("every day at 9 and 17", "0 9,17 * * *"),
    ("todos los días a las 9 y a las 21", "0 9,21 * * *"),
    # a bare hour said after a later one of the morning is the afternoon's, as in 'from 9 to 5'
    ("twice a day at 9 and 5", "0 9,17 * * *"),
    ("every day at 9, 12 and 3", "0 9,12,15 * * *"),
    ("every weekday at 8:30 and 1:30", "30 8,13 * * 1-5"),
    ("todos los días a las 9 y a las 5", "0 9,17 * * *"),
    ("every day at 9 and 5am", "0 5,9 * * *"),  # its period said: kept
    ("every day at 05:00 and 03:00", "0 3,5 * * *"),  # a 24-hour clock: kept
    ("every day at 7 and 11", "0 7,11 * * *"),  # in order already
    ("every day at noon and midnight", "0 0,12 * * *"),  # named: kept
    ("todos los días a mediodía y a medianoche", "0 0,12 * * *"),
    ("todos los días a las 9 y al mediodía", "0 9,12 * * *"),
    ("los lunes al mediodía", "0 12 * * 1"),
    # a part of the day said once is each earlier time's that reads in it before the next; said apart,
    # each time has its own
    ("every day at 7 and 8 in the evening", "0 19,20 * * *"),
    ("every day at 2 and 4 in the afternoon", "0 14,16 * * *"),
    ("every day at 9, 12 and 3 in the afternoon", "0 9,12,15 * * *"),
    ("every day at 10 and 2 in the afternoon", "0 10,14 * * *"),  # 22:00 is not before 14:00
    ("every day at 8 and 8 in the evening", "0 8,20 * * *"),
    ("every day at 9 and 11 at night", "0 21,23 * * *"),
    ("every day at 8 and at 8 in the evening", "0 8,20 * * *"),
    ("every day at 8am and 8 in the evening", "0 8,20 * * *"),
    ("every day at 9 in the morning and at 5 in the afternoon", "0 9,17 * * *"),
    ("todos los días a las 8 y a las 8 de la noche", "0 8,20 * * *"),
    ("todos los días a las 9 de la mañana y a las 5 de la tarde", "0 9,17 * * *"),
    ("cada noche a las 10 y a las 11", "0 22,23 * * *"),
    # an ordinal weekday 'of the month' is the month's, not an interval of weeks
    ("every second tuesday of the month at 3pm", "0 15 * * 2#2"),
    ("every third friday of every month at 4pm", "0 16 * * 5#3"),
    ("cada segundo martes del mes a las 15", "0 15 * * 2#2"),
    # once a day, a week, a month
    ("once a day at 9", "0 9 * * *"),
    ("once a week on monday at 9", "0 9 * * 1"),
    ("every week on monday at 9", "0 9 * * 1"),
    ("weekly on mondays and thursdays at 10", "0 10 * * 1,4"),
    ("once a month on the 3rd at 9", "0 9 3 * *"),
    ("una vez al día a las 9", "0 9 * * *"),
    ("una vez a la semana los lunes a las 9", "0 9 * * 1"),
    ("semanalmente los viernes a las 16", "0 16 * * 5"),
    ("cada semana el lunes a las 9", "0 9 * * 1"),
    ("una vez al mes el día 3 a las 9", "0 9 3 * *"),
    ("el primer lunes de mes a las 9", "0 9 * * 1#1"),
    # an interval on some days, with or without a window
    ("every 10 minutes on weekdays", "*/10 * * * 1-5"),
    ("every hour on weekends", "0 * * * 0,6"),
    ("every 10 minutes on weekdays between 9 and 17", "*/10 9-16 * * 1-5"),
    # a window with its start alone runs to the day's end
    ("every 4 hours starting at 6", "0 6,10,14,18,22 * * *"),
    ("every 3 hours from 9", "0 9,12,15,18,21 * * *"),
    ("every 2 hours starting at 8am on weekdays", "0 8,10,12,14,16,18,20,22 * * 1-5"),
    ("cada 4 horas a partir de las 6", "0 6,10,14,18,22 * * *"),
    # every day, then its weekdays; every day but some
    ("every day from monday to saturday at 9", "0 9 * * 1-6"),
    ("cada día de lunes a sábado a las 8", "0 8 * * 1-6"),
    ("every day but sunday at 10", "0 10 * * 1-6"),
    ("weekdays and saturday at 8", "0 8 * * 1-6"),
    # one schedule said twice: its times in one list
    ("every day at 9 and every day at 5", "0 9,17 * * *"),
    ("every weekday at 9 and every weekday at 1pm", "0 9,13 * * 1-5"),
    ("every day 9am and every day 5pm", "0 9,17 * * *"),
    ("todos los días a las 8 y todos los días a las 20", "0 8,20 * * *"),  # not 8:20
    ("weekends and monday at 9", "0 9 * * 0,1,6"),
    ("entre semana y los sábados a las 8", "0 8 * * 1-6"),
    ("cada hora los lunes", "0 * * * 1"),
    ("cada 10 minutos entre semana de 9 a 17", "*/10 9-16 * * 1-5"),
    # counts in words
    ("every four hours", "0 */4 * * *"),
    ("every fifteen minutes", "*/15 * * * *"),
    ("cada diez minutos entre semana", "*/10 * * * 1-5"),
    # ordinal days after 'every' are days of the month
    ("every 1st and 15th at noon", "0 12 1,15 * *"),
    ("every 15th at 9", "0 9 15 * *"),
    # a quarter of an hour is fifteen minutes, not a quarter of the year
    ("every quarter hour", "*/15 * * * *"),
    ("every quarter of an hour", "*/15 * * * *"),
    ("every month on the 1st at 9", "0 9 1 * *"),
    ("on the 1st and 15th of every month at 9", "0 9 1,15 * *"),
    ("el día 1 de cada mes a las 9", "0 9 1 * *"),
    ("cada mes el día 15 a las 10:30", "30 10 15 * *"),
    ("every hour", "0 * * * *"),
    ("hourly", "0 * * * *"),
    ("cada hora", "0 * * * *"),
    ("every 2 hours", "0 */2 * * *"),
    ("cada 6 horas", "0 */6 * * *"),
    ("every 15 minutes", "*/15 * * * *"),
    ("cada 30 minutos", "0,30 * * * *"),
    ("cada media hora", "0,30 * * * *"),
    ("every minute", "* * * * *"),
    ("every tuesday 14:00", "0 14 * * 2"),  # no "at"
    ("weekdays 9am", "0 9 * * 1-5"),
    ("todos los lunes 10:00", "0 10 * * 1"),
    ("9am every day", "0 9 * * *"),
    ("every morning at 8", "0 8 * * *"),
    ("every evening at 7", "0 19 * * *"),
    ("every night at 12", "0 0 * * *"),
    ("todas las noches a las 10", "0 22 * * *"),
    ("cada tarde a las 5 y media", "30 17 * * *"),
    ("every 1st of the month at 9", "0 9 1 * *"),
    ("every year on december 25 at 9", "0 9 25 12 *"),
    ("every 25th of december at 9am", "0 9 25 12 *"),
    ("yearly on jan 1 at 0:00", "0 0 1 1 *"),
    ("cada 25 de diciembre a las 9", "0 9 25 12 *"),
    ("el 6 de enero de cada año a las 10", "0 10 6 1 *"),
    # a first or last weekday after 'every' alone can only be the month's
    ("every first monday at 9", "0 9 * * 1#1"),
    ("every 1st monday at 10", "0 10 * * 1#1"),
    ("every last sunday at 10", "0 10 * * L0"),
    ("cada último viernes a las 17", "0 17 * * L5"),
    ("cada primer lunes a las 9", "0 9 * * 1#1"),
    # the end of the month is its last day
    ("at the end of every month at 6pm", "0 18 L * *"),
    ("every month end at 9", "0 9 L * *"),
    ("a fin de mes a las 18", "0 18 L * *"),
    ("al final de cada mes a las 9", "0 9 L * *"),
    # 12 said with its name
    ("every friday at 12 noon", "0 12 * * 5"),
    ("every friday at 12 midnight", "0 0 * * 5"),  # the start of friday, as a one-shot reads it
    ("todos los días a las 7:00 h", "0 7 * * *"),
    ("every day at 2130", "30 21 * * *"),
    ("every day at 3 in the morning", "0 3 * * *"),
    ("first of every month at 8", "0 8 1 * *"),
    ("el día 1 y el día 15 de cada mes a las 10", "0 10 1,15 * *"),  # the day said again
    ("el 1ro de cada mes a las 9", "0 9 1 * *"),
    ("cada 1ro de mes a las 9", "0 9 1 * *"),
    ("diario a las 8", "0 8 * * *"),
    ("on the 1st and the 15th of every month at 10", "0 10 1,15 * *"),
    ("every morning at 6:30 on weekdays", "30 6 * * 1-5"),  # a daily schedule, then its days
    ("every evening at 8 on weekends", "0 20 * * 0,6"),
    ("todos los días a las 3 de la mañana", "0 3 * * *"),
    ("every weekday @ 0900", "0 9 * * 1-5"),
    # weekdays written with a slash
    ("every tue/thu at 10", "0 10 * * 2,4"),
    ("lunes/miércoles a las 9", "0 9 * * 1,3"),
    # so many times a week, on as many days
    ("twice a week on tuesday and friday at 9", "0 9 * * 2,5"),
    ("three times a week on monday, wednesday and friday at 7am", "0 7 * * 1,3,5"),
    ("dos veces por semana los martes y viernes a las 9", "0 9 * * 2,5"),
    # a bare hour of 1 to 5 is the afternoon's, as a one-shot with a day reads it; a leading zero, am/pm
    # or a part of the day keeps it
    ("every friday at 4", "0 16 * * 5"),
    ("every day at 5", "0 17 * * *"),
    ("weekdays at 1", "0 13 * * 1-5"),
    ("every friday at 4:30", "30 16 * * 5"),
    ("every friday at half past 4", "30 16 * * 5"),
    ("every friday at four", "0 16 * * 5"),
    ("every day at 5 and 9", "0 9,17 * * *"),
    ("every friday at 04:30", "30 4 * * 5"),
    ("every friday at 4am", "0 4 * * 5"),
    ("every morning at 5", "0 5 * * *"),
    ("every night at 3", "0 3 * * *"),
    ("every day at 10", "0 10 * * *"),
    ("los viernes a las 4 y media", "30 16 * * 5"),
    ("todos los días a la 1", "0 13 * * *"),
    ("cada noche a las 3", "0 3 * * *"),
    # the hours of a window, read as a day's are; a part of the day said after them is both hours'
    ("every hour from 2 to 6 in the afternoon", "0 14-17 * * *"),
    ("every half hour from 9 to 12 in the morning", "0,30 9-11 * * *"),
    ("every hour from 8 to 10 at night", "0 20,21 * * *"),
    ("every 30 minutes from 1 to 5", "0,30 13-16 * * *"),
    ("every hour from 9am to 5", "0 9-16 * * *"),
    ("every hour from 5pm to 9", "0 17-20 * * *"),
    ("every 2 hours starting at 3", "0 15,17,19,21,23 * * *"),
    ("cada hora de 2 a 6 de la tarde", "0 14-17 * * *"),
    ("cada media hora de 9 a 12 de la mañana", "0,30 9-11 * * *"),
    ("cada hora de 8 a 10 de la noche", "0 20,21 * * *"),
    # the evening's hours of 1 to 5 are the afternoon's, as 'at 4 in the evening' is; a small hour before an
    # evening end is the evening's; the small hours (madrugada) are read as said
    ("every hour from 4 to 6 in the evening", "0 16,17 * * *"),
    ("every 30 minutes between 5 and 7 in the evening", "0,30 17,18 * * *"),
    ("every 30 minutes from 5 to 7 at night", "0,30 17,18 * * *"),
    ("every hour from 1 to 4 at night", "0 1-3 * * *"),
    ("cada 15 minutos entre la 1 y las 4 de la madrugada", "*/15 1-3 * * *"),
    ("cada hora de 1 a 4 por la madrugada", "0 1-3 * * *"),
    # a half said on the second hour only is the first's too, when the first comes before it so read
    ("every 15 minutes between 1 and 4am", "*/15 1-3 * * *"),
    ("every hour between 8 and 11pm", "0 20-22 * * *"),
    ("every hour from 9 to 5pm", "0 9-16 * * *"),
    ("every hour from 11 to 2pm", "0 11-13 * * *"),
    # a place of a day in every quarter: the calendar quarter's first month, or its last for 'last'
    ("the first day of every quarter at 9am", "0 9 1 */3 *"),
    ("the last day of every quarter at 17:00", "0 17 L 3,6,9,12 *"),
    ("the first monday of each quarter at 10", "0 10 * */3 1#1"),
    ("the last friday of every quarter at 4pm", "0 16 * 3,6,9,12 L5"),
    ("el primer día de cada trimestre a las 9", "0 9 1 */3 *"),
    ("el último día del trimestre a las 18", "0 18 L 3,6,9,12 *"),
    # a named clock in a part of the day; the hour on the hour; hours of a list said in words
    ("every night at midnight", "0 0 * * *"),
    ("cada noche a medianoche", "0 0 * * *"),
    ("every morning at noon", "0 12 * * *"),
    ("on the hour, every hour", "0 * * * *"),
    ("on the hour every hour from 9 to 5", "0 9-16 * * *"),
    ("every day at nine and five", "0 9,17 * * *"),
    ("every day at nine, twelve and five", "0 9,12,17 * * *"),
    ("todos los días a las nueve y a las cinco", "0 9,17 * * *"),
    ("todos los días a las nueve y cinco", "5 9 * * *"),
    # weekdays listed without commas, Spanish abbreviations, M-F, findes; nightly; every single; 20 hs
    ("mon wed fri 7am", "0 7 * * 1,3,5"),
    ("lun, mié y vie a las 7", "0 7 * * 1,3,5"),
    ("M-F 6am", "0 6 * * 1-5"),
    ("los findes a las 11", "0 11 * * 0,6"),
    ("nightly at 10:30", "30 22 * * *"),
    ("every single morning at 7", "0 7 * * *"),
    ("todos los martes a las 20 hs", "0 20 * * 2"),
    # a quarter of an hour in a window is minutes, not a quarter of the year; minutes before the hour
    ("every quarter hour between 8 and 18", "*/15 8-17 * * *"),
    ("todos los días a un cuarto para las 8", "45 7 * * *"),
]


@pytest.mark.parametrize(
    ("text", "locale", "notes"),
    [
        ("every friday at 4", "en", ["4 has no am/pm: read as 16:00"]),
        ("every day at 9:30 and 5:30", "en", ["5:30 has no am/pm: read as 17:30"]),
        ("every 3rd of the month at 4", "en", ["4 has no am/pm: read as 16:00"]),
        ("every 30 minutes from 1 to 5", "en", ["1 has no am/pm: read as 13:00"]),
        ("todos los días a la 1", "es", ["1 no dice mañana ni tarde: leído como 13:00"]),
        ("every friday at 4pm", "en", []),
        ("every evening at 5", "en", []),
        ("every day at 2 and 4 in the afternoon", "en", []),
        ("every friday at 04:30", "en", []),
        ("0 16 * * 5", "en", []),
        ("0 15 3 * mon", "en", []),  # five fields, a weekday named: its hour is as written
        ("every 2 weeks on tuesday at 9", "en", []),
        # a number the rule did not move is no hour read in the afternoon: a count, a day of the month
        ("every 2 hours from 8 to 20", "en", []),
        ("el día 3 de cada mes a las 15:00", "es", []),
        ("every 2 weeks on thursday at 2", "en", ["2 has no am/pm: read as 14:00"]),
        ("every 2 weeks on sunday at 2:30", "en", ["2:30 has no am/pm: read as 14:30"]),  # the 2 of the weeks: none
        ("cada 2 semanas los domingos a las 2:30", "es", ["2:30 no dice mañana ni tarde: leído como 14:30"]),
        ("los días 3 y 5 de cada mes a las 17:00", "es", []),
        ("todos los días a las 9 y a las 3", "es", ["3 no dice mañana ni tarde: leído como 15:00"]),
    ],
)
def test_a_bare_hour_read_in_the_afternoon_is_said(text: str, locale: str, notes: list[str]) -> None:
    said = afternoon_notes(parse_recurring(text, 1, locale), text, locale)
    assert [note.split(" (")[0] for note in said] == notes


@pytest.mark.parametrize(("text", "expr"), PHRASES)
def test_phrases(text: str, expr: str) -> None:
    spec = parse_recurring(text, 1, "en")
    assert spec.expr == expr
    assert spec.source == text


INVALID = [
    "",
    "0 9 * *",  # four fields
    "0 0 9 * * *",  # six fields: croniter would read seconds
    "0 9 * * * 2026",
    "60 * * * *",
    "* 24 * * *",
    "0 0 0 * *",
    "0 0 32 * *",
    "0 0 * 13 *",
    "0 0 * 0 *",
    "0 0 * * 8",
    "0 0 * * MONDAY",
    "0 0 * FOO *",
    "0 0 * * -1",
    "*/0 * * * *",
    "1-60/5 * * * *",
    "30-10 * * * *",  # backwards outside the month and weekday fields
    "0 0 * * 1-3/0",
    "0 0 * * 1,,2",
    "0 0 ? ? *".replace("? ? *", "* ? ?"),  # '?' in the month field
    "0 0 15W * *",
    "H 0 * * *",
    "cron(0 10 ? * 2 *)",
    "rate(5 minutes)",
    "@reboot",
    "sometimes",
    "every 45 minutes",  # does not divide the hour: would not really be every 45 minutes
    "every 5 hours",
    "every monday",  # no time of day
    "every blursday at 9",
    "every morning",  # no time of day
    "every december 32 at 9",
    "every 15",
    "0 0 L * 1",  # a place in the month needs * in the other day field
    "0 0 1 * 1#2",
    "0 0 L,1 * *",
    "0 0 * * 1#6",
    "0 0 * * 1#0",
    "0 0 * * L8",
    "0 0 * * 1#2,3",
    "el martes 8 a las 9",  # a date: never a weekly reminder
    "tuesday the 8th at 9",
    "the last friday of every month",  # no time of day
    "the sixth monday of every month at 9",
    "every third friday at 9",  # the month's third friday, or every third one: it does not say
    "twice a week at 9",  # no days
    "twice a week on tuesday at 9",  # one day for two times
    "twice a week on weekdays at 9",
    "every day at 2460",  # four digits that are no time of day
]


@pytest.mark.parametrize("text", INVALID)
def test_invalid(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring(text, 1)
    assert info.value.code == INVALID_CRON
    assert "five-field cron" in errors.message(info.value)
    assert errors.as_dict(info.value)["details"]["reason"]


@pytest.mark.parametrize(
    ("text", "locale", "said"),
    [
        ("at 9:00 and 13:30 on weekdays", "en", "its times (09:00, 13:30) fall at different minutes of the hour"),
        ("twice a day at 9 and 5:30", "en", "its times (09:00, 17:30) fall at different minutes of the hour"),
        ("todos los días a las 9 y a las 13:30", "es", "sus horas (09:00, 13:30) caen en minutos distintos"),
    ],
)
def test_times_at_different_minutes_are_refused_with_the_reason(text: str, locale: str, said: str) -> None:
    """Cron's hours share their minutes: one reminder for each time, said as such (it was refused as unread)."""
    with pytest.raises(ToolError) as info:
        parse_recurring(text, 1, locale)
    assert info.value.code == INVALID_CRON and said in errors.message(info.value, locale)


def test_invalid_message_in_spanish() -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring("a veces", 1, "es")
    assert info.value.code == INVALID_CRON
    assert errors.message(info.value, "es").startswith("No entiendo la programación 'a veces'")
    assert "todos los lunes a las 10" in errors.message(info.value, "es")


@pytest.mark.parametrize(
    "text", ["0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 30-31 FEB *", "0 0 31 2 *", "every february 30 at 9"]
)
def test_never_fires(text: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring(text, 1)
    assert info.value.code == NEVER_FIRES
    assert "never fires" in errors.message(info.value)


@pytest.mark.parametrize(
    ("text", "minimum", "gap"),
    [
        ("*/2 * * * *", 5, 2),
        ("* * * * *", 5, 1),
        ("0,3 * * * *", 5, 3),
        ("0 0,23 * * *", 120, 60),  # 23:00 then 00:00 the next day
        ("0 9,10 * * 1", 90, 60),
        ("every 15 minutes", 30, 15),
        ("0 0,22 * * 1,3", 1400, 1320),
        ("59 23 1,31 * *", 1500, 1440),  # the 31st 23:59, then the 1st 23:59
    ],
)
def test_too_frequent(text: str, minimum: int, gap: int) -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring(text, minimum)
    assert info.value.code == TOO_FREQUENT
    assert errors.as_dict(info.value)["details"]["shortest_gap_minutes"] == gap
    assert errors.as_dict(info.value)["details"]["min_interval_minutes"] == minimum


@pytest.mark.parametrize(
    ("text", "minimum"),
    [
        ("0 9 * * *", 5),
        ("*/5 * * * *", 5),
        ("*/15 * * * *", 15),
        ("0 0,23 * * *", 60),
        ("0 0,22 * * 1,3", 120),
        ("59 23 * * *", 1440),
        ("0 0 * * 1", 10080),
    ],
)
def test_frequent_enough(text: str, minimum: int) -> None:
    assert parse_recurring(text, minimum).expr


def test_too_frequent_in_spanish() -> None:
    with pytest.raises(ToolError) as info:
        parse_recurring("cada minuto", 5, "es")
    assert "el mínimo es 5 min" in errors.message(info.value, "es")


def test_parse_fields_day_rules() -> None:
    assert parse_fields("0 0 * * *").day_rule == "every"
    assert parse_fields("0 0 1 * *").day_rule == "dom"
    assert parse_fields("0 0 * * 1").day_rule == "dow"
    assert parse_fields("0 0 1 * 1").day_rule == "either"
    assert parse_fields("0 0 */2 * 1").day_rule == "either"  # croniter: a stepped '*' is a restriction
    assert parse_fields("0 0 1-31 * */2").day_rule == "dow"  # all days and a '*' on the other side
    assert parse_fields("0 0 * * 7").weekdays == (0,)


def test_at_expression_is_wall_clock() -> None:
    at = datetime(2026, 12, 1, 9, 0, tzinfo=MADRID)
    assert at_expression(at) == "at(2026-12-01T09:00:00)"
    assert at_expression(at.astimezone(UTC)) == "at(2026-12-01T08:00:00)"


# --- next fires ---------------------------------------------------------------------------------------


def _local(values: list[datetime]) -> list[str]:
    return [v.isoformat() for v in values]


@pytest.mark.parametrize("text", ["0 9 * * *", "*/20 8-10 * * 1-5", "0 12 1,15 * 1", "30 6 29 2 *", "0 0 * * 0"])
@pytest.mark.parametrize("zone", [UTC, KOLKATA])
def test_next_fires_match_croniter_without_dst(text: str, zone: ZoneInfo) -> None:
    spec = parse_recurring(text, 1)
    after = datetime(2026, 5, 13, 10, 23, tzinfo=zone)
    expected = croniter(spec.expr, after.replace(tzinfo=None))
    want = [expected.get_next(datetime).replace(tzinfo=zone) for _ in range(30)]
    got = next_fires(spec, after, zone, 30)
    assert got == want
    assert all(g.tzinfo == zone for g in got)


def test_next_fires_is_strictly_after() -> None:
    spec = parse_recurring("0 9 * * *", 1)
    after = datetime(2026, 5, 13, 9, 0, tzinfo=MADRID)
    assert next_fires(spec, after, MADRID, 1)[0].isoformat() == "2026-05-14T09:00:00+02:00"
    assert next_fires(spec, after - timedelta(seconds=1), MADRID, 1)[0] == after
    # `after` in another zone is the same instant
    assert next_fires(spec, after.astimezone(NEW_YORK), MADRID, 1)[0].isoformat() == "2026-05-14T09:00:00+02:00"
    assert next_fires(spec, after, MADRID, 0) == []


def test_madrid_spring_gap_is_skipped_that_day() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    got = next_fires(spec, datetime(2026, 3, 27, 12, 0, tzinfo=MADRID), MADRID, 3)
    assert _local(got) == [
        "2026-03-28T02:30:00+01:00",
        "2026-03-30T02:30:00+02:00",  # 2026-03-29 02:30 does not exist
        "2026-03-31T02:30:00+02:00",
    ]


def test_madrid_autumn_overlap_runs_once_at_the_first() -> None:
    spec = parse_recurring("*/30 2 * * *", 1)
    got = next_fires(spec, datetime(2026, 10, 24, 12, 0, tzinfo=MADRID), MADRID, 4)
    assert [g.astimezone(UTC).isoformat() for g in got] == [
        "2026-10-25T00:00:00+00:00",  # 02:00 CEST, the first 02:00
        "2026-10-25T00:30:00+00:00",
        "2026-10-26T01:00:00+00:00",
        "2026-10-26T01:30:00+00:00",
    ]
    assert all(g.fold == 0 for g in got)


def test_new_york_spring_and_autumn() -> None:
    hourly = parse_recurring("15 * * * *", 1)
    spring = next_fires(hourly, datetime(2026, 3, 8, 0, 30, tzinfo=NEW_YORK), NEW_YORK, 3)
    assert _local(spring) == [
        "2026-03-08T01:15:00-05:00",
        "2026-03-08T03:15:00-04:00",
        "2026-03-08T04:15:00-04:00",
    ]
    autumn = next_fires(hourly, datetime(2026, 11, 1, 0, 30, tzinfo=NEW_YORK), NEW_YORK, 3)
    assert _local(autumn) == [
        "2026-11-01T01:15:00-04:00",
        "2026-11-01T02:15:00-05:00",
        "2026-11-01T03:15:00-05:00",
    ]
    # every fire is a distinct instant, strictly increasing
    instants = [a.astimezone(UTC) for a in autumn]
    assert instants == sorted(set(instants))


def test_adelaide_half_hour_zone_and_its_dst() -> None:
    spec = parse_recurring("30 2 * * *", 1)
    spring = next_fires(spec, datetime(2026, 10, 3, 12, 0, tzinfo=ADELAIDE), ADELAIDE, 2)
    assert _local(spring) == ["2026-10-05T02:30:00+10:30", "2026-10-06T02:30:00+10:30"]
    autumn = next_fires(spec, datetime(2026, 4, 4, 12, 0, tzinfo=ADELAIDE), ADELAIDE, 2)
    assert _local(autumn) == ["2026-04-05T02:30:00+10:30", "2026-04-06T02:30:00+09:30"]
    kolkata = next_fires(spec, datetime(2026, 3, 28, 12, 0, tzinfo=KOLKATA), KOLKATA, 2)
    assert _local(kolkata) == ["2026-03-29T02:30:00+05:30", "2026-03-30T02:30:00+05:30"]


def test_leap_day_fires_every_four_years() -> None:
    spec = parse_recurring("0 9 29 2 *", 1)
    got = next_fires(spec, datetime(2026, 1, 1, tzinfo=UTC), MADRID, 3)
    assert [g.date().isoformat() for g in got] == ["2028-02-29", "2032-02-29", "2036-02-29"]
