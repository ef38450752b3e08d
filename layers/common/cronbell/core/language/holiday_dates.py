"""The dates of holidays and observances, by their key (the values of each lexicon's HOLIDAYS: "christmas",
"mothers_day"), for a country. A date comes from a rule when the day is one by the calendar or by custom in
that country (Christmas Eve, New Year's Eve, Valentine's Day, Halloween, Easter and its days by the Western
calendar, Mother's and Father's Day where their rule is known), and otherwise from the `holidays` package's
public holidays of the country (imported only when a phrase names a holiday), found by the English names that
package gives them. This module holds keys and that package's names, no word a user types: the words are in
the lexicons, and core/language/named_days.py reads them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta

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


def _last_full_week(month: int, weekday: int) -> Rule:
    """`weekday` of the last week (Sunday to Saturday) wholly in `month` (Administrative Professionals Day)."""

    def rule(year: int, country: str) -> date:
        end = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        saturday = end - timedelta(days=(end.weekday() - 5) % 7)
        return saturday - timedelta(days=(5 - weekday) % 7)

    return rule


def _orthodox_easter(year: int) -> date:
    """Orthodox Easter Sunday: the Julian computus, as a Gregorian date (13 days on, 1900 to 2099)."""
    a, b, c = year % 4, year % 7, year % 19
    d = (19 * c + 15) % 30
    e = (2 * a + 4 * b - d + 34) % 7
    month, day = divmod(d + e + 114, 31)
    return date(year, month, day + 1) + timedelta(days=13)


def _from_orthodox_easter(days: int) -> Rule:
    return lambda year, country: _orthodox_easter(year) + timedelta(days=days)


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
    "whit_monday": _from_easter(50),
    "st_johns_eve": _by_country({"ES": _fixed(6, 23)}), "st_johns_day": _by_country({"ES": _fixed(6, 24)}),
    "st_josephs_day": _by_country({"ES": _fixed(3, 19)}),
    "guadalupe": _by_country({"MX": _fixed(12, 12)}),
    "childrens_day": _by_country({"MX": _fixed(4, 30), "AR": _nth(8, SUNDAY, 3)}),
    "trinity_sunday": _from_easter(56), "corpus_christi": _from_easter(60), "all_souls": _fixed(11, 2),
    "orthodox_easter": _from_orthodox_easter(0), "orthodox_good_friday": _from_orthodox_easter(-2),
    "clean_monday": _from_orthodox_easter(-48), "lazarus_saturday": _from_orthodox_easter(-8),
    "orthodox_christmas": _fixed(1, 7),
    "st_georges_day": _fixed(4, 23), "st_andrews_day": _fixed(11, 30), "st_davids_day": _fixed(3, 1),
    "burns_night": _fixed(1, 25), "guy_fawkes": _fixed(11, 5), "pi_day": _fixed(3, 14), "star_wars_day": _fixed(5, 4),
    "world_vegan_day": _fixed(11, 1), "womens_day": _fixed(3, 8), "kwanzaa": _fixed(12, 26),
    "remembrance_day": _fixed(11, 11), "bastille_day": _fixed(7, 14), "canada_day": _fixed(7, 1),
    "australia_day": _fixed(1, 26), "anzac_day": _fixed(4, 25), "waitangi_day": _fixed(2, 6),
    "flag_day": _by_country({"US": _fixed(6, 14)}), "patriot_day": _by_country({"US": _fixed(9, 11)}),
    "bosses_day": _by_country({"US": _fixed(10, 16), "CA": _fixed(10, 16)}),
    "grandparents_day": _by_country({"US": _nth(9, 0, 1, after=6)}),
    "admin_professionals_day": _by_country({"US": _last_full_week(4, 2)}),
    "election_day": _by_country({"US": _nth(11, 0, 1, after=1)}),
    "tax_day": _by_country({"US": _fixed(4, 15)}),
    "flag_day_mx": _by_country({"MX": _fixed(2, 24), "AR": _fixed(6, 20)}),
}  # fmt: skip
# the English names of the `holidays` package that a key means, where no rule gives its date
LIBRARY_NAMES = {
    "thanksgiving": ("thanksgiving",),
    "independence_day": ("independence day",),
    "republic_day": ("republic day",),
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
    "shavuot": ("shavuot",),
    "sukkot": ("sukkot",),
    "simchat_torah": ("simchat torah",),
    "day_of_arafah": ("day of arafah",),
    "islamic_new_year": ("islamic new year",),
    "mawlid": ("prophet's birthday",),
    "ashura": ("ashura",),
    "janmashtami": ("janmashtami",),
    "ram_navami": ("ram navami",),
    "maha_shivaratri": ("maha shivaratri",),
    "mahavir_jayanti": ("mahavira's birthday",),
    "buddha_purnima": ("buddha purnima", "vesak", "buddha's birthday"),
    "guru_nanak": ("guru nanak's birthday",),
    "gandhi_jayanti": ("mahatma gandhi's birthday",),
    "ambedkar_jayanti": ("ambedkar's birthday",),
    "dragon_boat": ("dragon boat festival",),
    "mid_autumn": ("mid-autumn festival",),
    "qingming": ("tomb-sweeping day",),
    "kings_day": ("king's day",),
    "korean_new_year": ("korean new year",),
    "chuseok": ("chuseok",),
    "songkran": ("songkran",),
    "revolution_day": ("revolution day",),
    "juarez_day": ("benito juárez's birthday",),
    "purim": ("purim",),
    "lag_baomer": ("lag baomer",),
    "tisha_bav": ("tisha b'av",),
    "jerusalem_day": ("jerusalem day",),
    "ganesh_chaturthi": ("ganesh chaturthi",),
    "raksha_bandhan": ("raksha bandhan",),
    "onam": ("onam",),
    "pongal": ("pongal",),
    "makar_sankranti": ("makar sankranti",),
    "vaisakhi": ("vaisakhi",),
    "ugadi": ("ugadi", "gudi padwa"),
    "govardhan_puja": ("govardhan puja",),
    "bhai_dooj": ("bhai duj",),
    "karva_chauth": ("karwa chouth",),
    "chhath": ("chhath puja",),
    "holika_dahan": ("holika dahan",),
    "vasant_panchami": ("basant panchami",),
    "rath_yatra": ("rath yatra",),
    "naraka_chaturdashi": ("naraka chaturdashi",),
    "guru_gobind_singh": ("guru gobind singh's birthday",),
    "rabindra_jayanti": ("guru rabindranath's birthday",),
    "parsi_new_year": ("parsi new year",),
    "valmiki_jayanti": ("maharishi valmiki's birthday",),
    "guru_ravidas": ("guru ravi das's birthday",),
    "shivaji_jayanti": ("shivaji's birthday",),
    "dayanand_jayanti": ("swami dayanand saraswati's birthday",),
    "jamat_ul_vida": ("jumu'atul-wida",),
}


# where a holiday of another calendar is kept, when the user's country does not keep it ("diwali" in Spain)
HOMES = {
    "diwali": "IN", "holi": "IN", "dussehra": "IN", "yom_kippur": "IL", "rosh_hashanah": "IL", "passover": "IL",
    "eid_al_fitr": "SA", "eid_al_adha": "SA", "chinese_new_year": "CN", "shavuot": "IL", "sukkot": "IL",
    "simchat_torah": "IL", "day_of_arafah": "SA", "islamic_new_year": "AE", "mawlid": "EG", "ashura": "IN",
    "janmashtami": "IN", "ram_navami": "IN", "maha_shivaratri": "IN", "mahavir_jayanti": "IN", "buddha_purnima": "IN",
    "guru_nanak": "IN", "gandhi_jayanti": "IN", "ambedkar_jayanti": "IN", "dragon_boat": "CN", "mid_autumn": "CN",
    "qingming": "CN", "kings_day": "NL", "korean_new_year": "KR", "chuseok": "KR", "songkran": "TH",
    "hanukkah": "IL", "purim": "IL", "lag_baomer": "IL", "tisha_bav": "IL", "jerusalem_day": "IL",
    **dict.fromkeys((
        "ganesh_chaturthi", "raksha_bandhan", "onam", "pongal", "makar_sankranti", "vaisakhi", "ugadi",
        "govardhan_puja", "bhai_dooj", "karva_chauth", "chhath", "holika_dahan", "vasant_panchami", "rath_yatra",
        "naraka_chaturdashi",
        "guru_gobind_singh", "rabindra_jayanti", "parsi_new_year", "valmiki_jayanti", "guru_ravidas", "shivaji_jayanti",
        "dayanand_jayanti", "jamat_ul_vida",
    ), "IN"),
}  # fmt: skip


def _library_date(key: str, year: int, country: str) -> date | None:
    from cronbell.core.domain.calendars import UnknownCalendar, normalize

    try:
        import holidays

        normalize(country)
        kept = holidays.country_holidays(country)
        # in a holiday's home, its optional and observed days too (Purim in Israel, Onam in India)
        categories = getattr(kept, "supported_categories", None) if HOMES.get(key) == country else None
        found = holidays.country_holidays(country, years=year, language="en_US", categories=categories)
    except (UnknownCalendar, NotImplementedError):
        return None
    fragments = LIBRARY_NAMES.get(key, ())
    named = [(day, name) for day, names in sorted(found.items()) for name in str(names).casefold().split("; ")]
    named = [(day, name) for day, name in named if "observed" not in name and not name.endswith("'s eve")]
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
