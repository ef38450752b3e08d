"""Named holidays and observances in a one-shot phrase ("on Christmas", "Thanksgiving at noon", "Nochebuena
a las 21:00", "el día de la madre"): the name is looked up in each language's lexicon (HOLIDAYS), its date
found for the user's country, and the phrase read again with that date in place of the name.

A date comes from a rule when the day is one by the calendar or by custom in that country (Christmas Eve,
New Year's Eve, Valentine's Day, Halloween, Easter and its days by the Western calendar, Mother's and
Father's Day where their rule is known), and otherwise from the `holidays` package's public holidays of
the country (imported only when a phrase names a holiday). A name the country does not keep is refused,
naming the country; so is a phrase that names a day the lexicon does not know."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import cache
from pathlib import Path
from zoneinfo import TZPATH, ZoneInfo

from cronbell.core.language import lexicon
from cronbell.core.language.clocks import Unreadable
from cronbell.core.language.days import read_calendar
from cronbell.core.text.texts import phrase, say

Rule = Callable[[int, str], "date | None"]  # (year, country) -> the date that year, or None


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _nth(month: int, weekday: int, n: int, after: int = 0) -> Rule:
    """The `n`th `weekday` of `month`, and `after` days more (Black Friday: the day after Thanksgiving)."""

    def rule(year: int, country: str) -> date:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1) + after)

    return rule


def _fixed(month: int, day: int) -> Rule:
    return lambda year, country: date(year, month, day)


def _from_easter(days: int) -> Rule:
    return lambda year, country: _easter(year) + timedelta(days=days)


def _by_country(table: dict[str, Rule]) -> Rule:
    return lambda year, country: table[country](year, country) if country in table else None


SUNDAY = 6
RULES: dict[str, Rule] = {
    "christmas": _fixed(12, 25), "christmas_eve": _fixed(12, 24), "new_years_eve": _fixed(12, 31),
    "new_year": _fixed(1, 1), "valentines": _fixed(2, 14), "halloween": _fixed(10, 31),
    "easter": _from_easter(0), "easter_monday": _from_easter(1), "good_friday": _from_easter(-2),
    "maundy_thursday": _from_easter(-3),
    "mothers_day": _by_country({
        "US": _nth(5, SUNDAY, 2), "CA": _nth(5, SUNDAY, 2), "ES": _nth(5, SUNDAY, 1), "PT": _nth(5, SUNDAY, 1),
        "MX": _fixed(5, 10), "AR": _nth(10, SUNDAY, 3), "GB": _from_easter(-21), "IE": _from_easter(-21),
    }),
    "fathers_day": _by_country({
        "US": _nth(6, SUNDAY, 3), "CA": _nth(6, SUNDAY, 3), "GB": _nth(6, SUNDAY, 3), "MX": _nth(6, SUNDAY, 3),
        "AR": _nth(6, SUNDAY, 3), "ES": _fixed(3, 19), "PT": _fixed(3, 19), "IT": _fixed(3, 19),
    }),
    "epiphany": _by_country({c: _fixed(1, 6) for c in ("ES", "MX", "AR")}),
    "fourth_of_july": _by_country({"US": _fixed(7, 4)}),
    "day_of_the_dead": _by_country({"MX": _fixed(11, 2)}),
    "hispanic_day": _by_country({"ES": _fixed(10, 12)}),
    "st_patricks_day": _by_country({c: _fixed(3, 17) for c in ("IE", "US", "GB", "CA", "AU", "NZ")}),
    "black_friday": _by_country({"US": _nth(11, 3, 4, after=1)}),
    "cinco_de_mayo": _by_country({"MX": _fixed(5, 5), "US": _fixed(5, 5)}),
    "april_fools": _by_country({c: _fixed(4, 1) for c in ("US", "GB", "CA", "AU", "NZ", "IE", "IN")}),
    "innocents_day": _by_country({c: _fixed(12, 28) for c in ("ES", "MX", "AR", "CO", "CL", "PE", "VE")}),
    "groundhog_day": _by_country({"US": _fixed(2, 2), "CA": _fixed(2, 2)}),
    "earth_day": _fixed(4, 22),
    "ash_wednesday": _from_easter(-46), "shrove_tuesday": _from_easter(-47), "palm_sunday": _from_easter(-7),
    "holy_saturday": _from_easter(-1), "ascension": _from_easter(39), "pentecost": _from_easter(49),
    "st_johns_eve": _by_country({"ES": _fixed(6, 23)}), "st_johns_day": _by_country({"ES": _fixed(6, 24)}),
    "st_josephs_day": _by_country({"ES": _fixed(3, 19)}),
    "guadalupe": _by_country({"MX": _fixed(12, 12)}),
    "childrens_day": _by_country({"MX": _fixed(4, 30), "AR": _nth(8, SUNDAY, 3)}),
}  # fmt: skip
# the English names of the `holidays` package that a key means, where no rule gives its date
LIBRARY_NAMES = {
    "thanksgiving": ("thanksgiving",),
    "independence_day": ("independence day",),
    "labor_day": ("labor day", "labour day"),
    "memorial_day": ("memorial day",),
    "boxing_day": ("boxing day",),
    "diwali": ("diwali", "deepavali"),
    "epiphany": ("epiphany",),
    "immaculate_conception": ("immaculate conception",),
    "all_saints": ("all saints",),
    "assumption": ("assumption",),
    "mlk_day": ("martin luther king",),
    "juneteenth": ("juneteenth",),
    "veterans_day": ("veterans day",),
    "columbus_day": ("columbus day",),
    "presidents_day": ("washington's birthday", "presidents day"),
    "constitution_day": ("constitution day",),
    "chinese_new_year": ("chinese new year", "spring festival", "lunar new year"),
    "eid_al_fitr": ("eid al-fitr",),
    "eid_al_adha": ("eid al-adha",),
    "holi": ("holi",),
    "dussehra": ("dussehra",),
    "hanukkah": ("hanukkah",),
    "passover": ("passover", "pesach"),
    "yom_kippur": ("yom kippur",),
    "rosh_hashanah": ("rosh hashanah",),
    "carnival": ("carnival monday", "carnival"),
    "remembrance_day": ("remembrance day",),
}
_UNKNOWN = re.compile(r"^(?:on |the |el |la )*(?:[a-z']+ ){0,3}(?:day|eve)$|^(?:el )?dia de(?:l| la| los)? [a-z ]+$")


@cache
def _names() -> re.Pattern[str]:
    return re.compile(rf"\b(?P<name>{lexicon.alternatives(lexicon.HOLIDAYS)})\b(?:,? (?P<year>\d{{4}})\b)?")


def zone_country(zone: str) -> str | None:
    """The ISO country of an IANA zone, from the zone database's zone.tab (None for UTC and the like)."""
    return _zone_countries().get(zone)


@cache
def _zone_countries() -> dict[str, str]:
    for folder in TZPATH:
        table = Path(folder) / "zone.tab"
        if table.is_file():
            rows = (line.split("\t") for line in table.read_text(encoding="utf-8").splitlines())
            return {row[2]: row[0] for row in rows if len(row) >= 3 and not row[0].startswith("#")}
    return {}


def _library_date(key: str, year: int, country: str) -> date | None:
    from cronbell.core.domain.calendars import UnknownCalendar, normalize

    try:
        import holidays

        normalize(country)
        found = holidays.country_holidays(country, years=year, language="en_US")
    except (UnknownCalendar, NotImplementedError):
        return None
    fragments = LIBRARY_NAMES.get(key, ())
    named = [(day, name) for day, names in sorted(found.items()) for name in str(names).casefold().split("; ")]
    named = [(day, name) for day, name in named if "observed" not in name]
    # the name itself first, then a name that starts with it ("juneteenth national independence day" is last)
    for fits in (str.__eq__, str.startswith, str.__contains__):
        for day, name in named:
            if any(fits(name, fragment) for fragment in fragments):
                return day
    return None


def holiday_date(key: str, year: int, country: str) -> date | None:
    """The date of the holiday `key` in `year` in `country`, or None if the country does not keep it."""
    rule = RULES.get(key)
    found = rule(year, country) if rule else None
    return found if found is not None or key not in LIBRARY_NAMES else _library_date(key, year, country)


def find(t: str) -> tuple[re.Match[str], str] | None:
    """The holiday a normalized phrase names (the match and its key), or None."""
    match = _names().search(t)
    return (match, lexicon.HOLIDAYS[match["name"]]) if match else None


def dates(key: str, country: str | None, first_year: int, said: str) -> list[date]:
    """The holiday's dates from `first_year` on (three years), or Unreadable naming the country."""
    if not country:
        raise Unreadable(phrase("reason.holiday_no_country", name=said))
    found = [d for year in range(first_year, first_year + 3) if (d := holiday_date(key, year, country))]
    if not found:
        raise Unreadable(phrase("reason.holiday_not_there", name=said, country=country))
    return found


def unknown(t: str, country: str | None) -> Unreadable | None:
    """The reason for a phrase that names a day the lexicon does not know ('on Festivus Day')."""
    if _UNKNOWN.fullmatch(t):
        return Unreadable(phrase("reason.holiday_unknown", name=t, country=country or "?"))
    return None


def read_holiday(
    t: str,
    found: tuple[re.Match[str], str],
    now_local: datetime,
    tz: ZoneInfo,
    language: str,
    notes: list[str],
    whole_day: bool,
    country: str | None,
) -> datetime | None:
    """'christmas eve at 8pm': the phrase read again with the holiday's next date (in `country`) in its place."""
    match, key = found
    said = match["name"]
    year = int(match["year"]) if match["year"] else None
    for day in dates(key, country, year or now_local.year, said):
        if year is not None and day.year != year:
            raise Unreadable(phrase("reason.holiday_not_there", name=said, country=country))
        read: list[str] = []
        text = f"{t[: match.start()]} {day.isoformat()} {t[match.end() :]}"
        at = read_calendar(re.sub(r" +", " ", text).strip(), now_local, tz, language, read, whole_day)
        if at is None:
            return None
        if year is not None or at > now_local:
            notes.append(say("note.holiday", language, name=said, country=country, date=day.isoformat()))
            notes.extend(read)
            return at
    return None
