"""The words of calendar phrases, turned into the forms core/language/days.py reads: hours and minutes in words
to digits ("at ten thirty", "twenty to nine", "las nueve y diez"), ordinal words to numbers, abbreviations
without their dot; and the patterns of a time of day, a named clock and the filler words."""

from __future__ import annotations

import re
from collections.abc import Callable

from cronbell.core.language import lexicon


def words_of(language: str) -> tuple[dict[str, int], dict[str, int]]:
    words = lexicon.of(language)
    return words.weekdays, words.months


def alternatives(names: dict[str, int]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


def never(fragment: str) -> str:
    """`fragment`, or one that never matches when it is empty (no language has the words)."""
    return fragment or "(?!)"


SECONDS = r"(?::[0-5]\d)?"  # a clock's seconds ("6:15:45 pm"): left out, said in the answer
ORD = rf"(?:{lexicon.either('DAY_ORDINAL_ENDINGS')})"
NUM = r"(?<![\w:/.])"  # a number that is not part of a word, a time or a date
END = r"(?![\w:/])"
_ORDINAL_WORDS = lexicon.ORDINAL_WORDS


def _ordinal_numbers() -> dict[str, int]:
    """Each ordinal word's number: its place in its own language's list ("first" 1, "fifth" 5)."""
    found: dict[str, int] = {}
    for module in lexicon.LANGUAGES.values():
        for place, word in enumerate(module.ORDINALS, 1):
            found.setdefault(word, place)
    return found


_ORDINAL_NUMBERS = _ordinal_numbers()
_PERIODS = "|".join(
    lexicon.own(name) for name in ("CLOCK_MORNING", "CLOCK_AFTERNOON", "CLOCK_NIGHT", "CLOCK_SMALL_HOURS")
)
CLOCK = (
    rf"(?:(?:{lexicon.some('CLOCK_HALF_WORD')}|{lexicon.some('CLOCK_QUARTER_WORD')})"
    rf" (?:{lexicon.some('CLOCK_PAST')}|{lexicon.some('CLOCK_TO')}) )?\d{{1,2}}(?:[:.h]\d{{2}}{SECONDS})?h?"
    rf"(?:\s?(?:am|pm))?"
    rf"(?: (?:{lexicon.some('CLOCK_HALF')}|{lexicon.some('CLOCK_QUARTER')}|{lexicon.some('CLOCK_QUARTER_TO')}"
    rf"|(?:{lexicon.some('CLOCK_PLUS')}) \d{{1,2}}|(?:{lexicon.some('CLOCK_MINUS')}) \d{{1,2}})(?:\s?(?:am|pm))?)?"
    rf"(?: (?:{lexicon.some('CLOCK_PERIOD_BEFORE')}) (?:{_PERIODS})| (?:{lexicon.some('CLOCK_MIDDAY')}))?"
    rf"(?: (?:{lexicon.some('CLOCK_SHARP')}|{lexicon.some('CLOCK_HOURS')}))?"
)
CLOCK_AT = rf"(?:{lexicon.either('CLOCK_AT')})"
NAMED_CLOCKS = rf"(?:{lexicon.alternatives(lexicon.NAMED_CLOCKS)})"
_NOT_AFTER = "".join(rf"(?<!{word} )" for word in lexicon.each("NAMED_CLOCK_NOT_AFTER"))  # "del mediodia"
NAMED_CLOCK = rf"(?:(?:{lexicon.either('NAMED_CLOCK_AT')}) )?{_NOT_AFTER}(?P<c>{NAMED_CLOCKS})"
FILLERS = lexicon.FILLERS | {",", "-"}


_HOUR_WORDS = lexicon.HOUR_WORDS
_HOUR_WORD = "|".join(_HOUR_WORDS)
_MINUTE_WORDS = lexicon.MINUTE_WORDS
_MINUTES_PAST = lexicon.MINUTES_PAST  # minutes before "past" / "to" an hour, and after "y" / "menos"
_PAST_WORDS, _TO_WORDS = lexicon.some("CLOCK_PAST_WORDS"), lexicon.some("CLOCK_TO_WORDS")
_HALF_WORD = lexicon.some("CLOCK_HALF_WORD")
_BEFORE_HOUR = lexicon.own("CLOCK_BEFORE_HOUR")
# words before and after an hour in words that make it a time of day ("at ten", "ten o'clock")
_HOUR_BEFORE = rf"(?:{lexicon.either('HOUR_WORD_BEFORE')}|@)"
_HOUR_AFTER = rf"(?:am|pm|{lexicon.either('HOUR_WORD_AFTER')})"
_HALF_HOUR = rf"\b(?:{lexicon.some('CLOCK_HALF_HOUR')}) ({_HOUR_WORD}|\d{{1,2}})\b"
_HALF_HOUR += rf"(?![:.]| (?:{lexicon.some('CLOCK_HALF_HOUR_NOT')})\b)"
# "las 9 y diez" -> "las 9 y 10": a language's minutes in words after the hour in digits, and their values
_MINUTES_AFTER_HOUR = [
    (rf"(?<![\w:])(\d{{1,2}}) ({ways}) ({lexicon.alternatives(module.MINUTES_PAST)})\b", module.MINUTES_PAST)
    for module in lexicon.LANGUAGES.values()
    if (ways := "|".join(way for way in (module.CLOCK_PLUS, module.CLOCK_MINUS) if way))
]


def _past_or_to(m: re.Match[str]) -> str:
    """'twenty to 9' -> '9 menos 20' (8:40), 'ten past 10' -> '10:10', '5 past 9 pm' -> '9:05 pm'.
    Digits before "to" would read as a range ("5 to 9"), and there is no "half to": both are left as they are."""
    minutes = _MINUTES_PAST[m["min"]] if m["min"] in _MINUTES_PAST else int(m["min"])
    hour = int(m["h"])
    if minutes > 59 or hour > 12:
        return m[0]
    if re.fullmatch(_TO_WORDS, m["way"]):
        if re.fullmatch(_HALF_WORD, m["min"]) or m["min"].isdigit():
            return m[0]
        # the hour's am/pm or part of the day comes first
        return _BEFORE_HOUR.format(hour=f"{hour}{m['ampm'] or ''}", minutes=minutes)
    return f"{hour}:{minutes:02d}{m['ampm'] or ''}"


def _in_digits(minutes: dict[str, int]) -> Callable[[re.Match[str]], str]:
    """'9 y diez' -> '9 y 10': the minutes in words after an hour, in digits."""
    return lambda m: f"{m[1]} {m[2]} {minutes[m[3]]}"


def _clock_words(t: str) -> str:
    """Hours in words where they can only be a time of day: 'at ten thirty' -> 'at 10:30',
    'a las nueve y media' -> 'a las 9 y media', 'seven pm' -> '7 pm', 'half past ten' -> 'half past 10'."""
    # "eleven fifteen am", "seven oh five pm", "siete cero cinco": an hour and its minutes in words
    minutes = lexicon.alternatives(_MINUTE_WORDS)
    t = re.sub(rf"\b({_HOUR_WORD})[ -](?=(?:{minutes})\b)", lambda m: f"{_HOUR_WORDS[m[1]]} ", t)
    t = re.sub(rf"(?<![\w:])(\d{{1,2}}) ({minutes})\b", lambda m: f"{m[1]}:{_MINUTE_WORDS[m[2]]:02d}", t)
    # British "half three" is 3:30 ("half an hour", "half past" are not hours)
    t = re.sub(_HALF_HOUR, lambda m: f"{_HOUR_WORDS.get(m[1], m[1])}:30", t)
    # "at five to nine": the five counts minutes, not hours
    t = re.sub(
        rf"\b({_HOUR_BEFORE}) ({_HOUR_WORD})\b(?! (?:{_PAST_WORDS}|{_TO_WORDS})\b)",
        lambda m: f"{m[1]} {_HOUR_WORDS[m[2]]}",
        t,
    )
    t = _minutes_after_hour(t)  # "las 9 y cuarenta y cinco": before "cinco de la" is read as an hour
    t = re.sub(rf"\b({_HOUR_WORD}) (?={_HOUR_AFTER}\b)", lambda m: f"{_HOUR_WORDS[m[1]]} ", t)
    named = "|".join(sorted(_MINUTES_PAST, key=len, reverse=True))
    # minutes from a named clock: "a quarter past noon" is 12:15pm, "ten to midnight" 12am less ten
    hours = lexicon.alternatives(lexicon.NAMED_HOURS)
    t = re.sub(rf"\b({_PAST_WORDS}|{_TO_WORDS}) ({hours})\b", lambda m: f"{m[1]} {lexicon.NAMED_HOURS[m[2]]}", t)
    t = re.sub(
        rf"\b(?P<min>{named}|\d{{1,2}})(?: (?:{lexicon.some('CLOCK_MINUTES_WORD')}))?"
        rf" (?P<way>{_PAST_WORDS}|{_TO_WORDS}) (?P<h>\d{{1,2}})"
        r"(?P<ampm> ?[ap]m\b)?(?![\w:])",
        _past_or_to,
        t,
    )
    return _minutes_for_the_hour(_minutes_after_hour(t))


def _written(template: str, minutes: dict[str, int]) -> Callable[[re.Match[str]], str]:
    return lambda m: template.format(hour=m["h"], minutes=minutes[m["min"]])


_FOR_THE_HOUR = [  # "un cuarto para las 8" -> "a las 8 menos 15": each language's pattern and how it is written
    (
        re.compile(pattern.format(minutes=lexicon.alternatives(module.MINUTES_FOR_THE_HOUR))),
        _written(written, module.MINUTES_FOR_THE_HOUR),
    )
    for module in lexicon.LANGUAGES.values()
    for pattern, written in [module.FOR_THE_HOUR]
    if pattern
]


def _minutes_for_the_hour(t: str) -> str:
    """'un cuarto para las 8' -> 'a las 8 menos 15' (7:45), as each language writes it."""
    for pattern, write in _FOR_THE_HOUR:
        t = pattern.sub(write, t)
    return t


def _minutes_after_hour(t: str) -> str:
    """'las 9 y diez' -> 'las 9 y 10', 'las 12 menos diez' -> 'las 12 menos 10'."""
    for pattern, minutes_of in _MINUTES_AFTER_HOUR:
        t = re.sub(pattern, _in_digits(minutes_of), t)
    return t


_AMOUNT_UNITS = "|".join(
    [lexicon.some(name) for name in ("MINUTE_UNITS", "HOUR_UNITS", "AMOUNT_SECONDS")]
    + [lexicon.alternatives(set(lexicon.each(name))) for name in ("DAY_UNITS", "WEEK_UNITS", "MONTH_UNITS")]
)
# a time of day written without its colon after a word that puts one: "at 1530" is 15:30, "at 830" 8:30 (as
# phone keyboards leave it), "@ 0900" 09:00; never an amount ("in about 120 minutes")
# (compiled at its first use, as the module's other patterns are: not at cold start)
_COLON_LEFT_OUT = (
    rf"(?<!\w)((?:{CLOCK_AT}|@) )([01]\d|2[0-3]|[1-9](?=[0-5]\d\b))([0-5]\d)\b(?![:/.-]\d)(?! ?(?:{_AMOUNT_UNITS})\b)"
)
_SHARP_AMPM = rf"\b(\d{{1,2}}) (?:{lexicon.some('CLOCK_SHARP_AMPM')}) ?([ap]m)\b"  # "4 o'clock pm"
_ISH = lexicon.some("APPROXIMATE_ENDING")  # "4ish", "noonish"
_AT = lexicon.own("CLOCK_AT_WRITTEN")  # before a time of day, as the grammar writes it


def _clock_idioms(t: str) -> str:
    """'4ish' -> '4', '5 pm-ish' -> '5 pm' (an approximate time is the time named), 'at 1530' -> 'at 15:30'."""
    t = re.sub(_SHARP_AMPM, r"\1\2", t)
    t = re.sub(rf"\b(\d{{1,2}}(?::\d\d)?)-?(?:{_ISH})\b", rf"{_AT} \1", t)  # "4ish": a time of day, not a day
    t = re.sub(rf"(?<=[\dm]) ?-?(?:{_ISH})\b", "", t)
    t = re.sub(_COLON_LEFT_OUT, r"\1\2:\3", t)
    return re.sub(_ZERO_LED, r"\1:\2", t)


_ORDINAL_DAY = lexicon.own("ORDINAL_DAY")  # a day's ordinal as the grammar writes it ("21th")
_TENS: dict[str, int] = lexicon.union("ORDINAL_TENS")
_UNITS = "|".join(word for module in lexicon.LANGUAGES.values() for word in module.ORDINALS[:9])
_COMPOUND_ORDINAL = rf"\b({never('|'.join(_TENS))})[- ]({_UNITS})\b"  # "twenty-first"
_APART: dict[str, int] = lexicon.union("ORDINALS_APART")
_FIRST_THING = rf"\b(?:{lexicon.some('FIRST_THING')})\b"  # kept from the ordinals: read as early in the morning
_DAY_NUMBER_OF = lexicon.some("DAY_NUMBER_OF")
_DAY_NUMBER_LEAD = rf"\b({lexicon.some('DAY_NUMBER_LEAD')})"
_ALONE: dict[str, int] = lexicon.union("DAY_NUMBERS_ALONE")
_MONTH_DAY_ARTICLE = lexicon.either("MONTH_DAY_ARTICLE")
_AMPM_LEAD = lexicon.some("AMPM_LEAD")
_HOURS_H = rf"(?<![\w:.])(\d{{1,2}}(?::\d{{2}})?) ?(?:h|{lexicon.some('CLOCK_H')})\b"  # "7:00 h", "20 hs": 7:00h, 20h
_ZERO_LED = r"(?<=[a-z] )(0\d)([0-5]\d)\b(?![:/.-]\d)"  # after a word, "0800" is 08:00 ("mon-fri 0800")
# a named clock after 12 ("12 noon"), or approximate ("noonish")
_TWELVE_NAMED = rf"\b12(?::00)?(?: (?:{lexicon.some('CLOCK_SHARP')}))? ({lexicon.some('TWELVE_NAMED')})\b"
_NAMED_TWELVE = rf"{_TWELVE_NAMED}|\b({lexicon.some('ISH_NAMED')})-?(?:{_ISH})\b"


def _ordinals(t: str) -> str:
    """'twenty-first' -> '21th', 'thirtieth' -> '30th', 'third' -> '3th' ('first thing' is kept, as 'first_thing')."""
    t = re.sub(_COMPOUND_ORDINAL, lambda m: _ORDINAL_DAY.format(n=_TENS[m[1]] + _ORDINAL_NUMBERS[m[2]]), t)
    t = re.sub(rf"\b({never(lexicon.alternatives(_APART))})\b", lambda m: _ORDINAL_DAY.format(n=_APART[m[1]]), t)
    t = re.sub(_FIRST_THING, lambda m: m[0].replace(" ", "_"), t)
    return re.sub(rf"\b({'|'.join(_ORDINAL_WORDS)})\b", lambda m: _ORDINAL_DAY.format(n=_ORDINAL_NUMBERS[m[1]]), t)


def in_digits(t: str) -> str:
    """Hours, minutes and ordinals said in words, in digits, for a recurring phrase ('every month on the third
    at eight' -> 'every month on the 3th at 8'); a day number in words is read where a day is ('el tres');
    '12 noon' is noon, '7:00 h' 7:00h, 'at 0900', 'at 830' and 'mon-fri 0800' at 09:00, 8:30 and 08:00."""
    t = re.sub(_COLON_LEFT_OUT, r"\1\2:\3", re.sub(_HOURS_H, r"\1h", re.sub(_TWELVE_NAMED, r"\1", t)))
    t = re.sub(_ZERO_LED, r"\1:\2", t)
    t = _clock_words(t)
    while (listed := re.sub(_LISTED_HOUR, lambda m: f"{m[1]}{m[2]}{_HOUR_WORDS[m[3]]}", t)) != t:
        t = listed  # 'at nine and five': each hour of a list after the first
    return _ordinals(t)


# an hour in words after a time of day in a list ('at 9 and five', 'a las 9 y a las cinco')
_LISTED_HOUR = (
    rf"(?<![\w:])(\d{{1,2}}(?::\d{{2}})?)((?:,|,? (?:{lexicon.some('AND')}))(?: (?:{'|'.join(lexicon.each('AT'))}))? )"
    rf"({_HOUR_WORD})\b(?! (?:{_PAST_WORDS}|{_TO_WORDS}|{lexicon.some('MINUTE_UNITS')})\b)"
)


def prepare(t: str, language: str) -> str:
    """Ordinal words to digits, hours in words to digits, 'noonish' to 'noon', '9a' to '9am', 'dec.' to
    'dec', 'tues.' to 'tues', '17 h' to '17h', '@' to 'at'."""
    t = _clock_idioms(re.sub(r"@", f" {_AT} ", t))
    t = _ordinals(_clock_words(re.sub(r" +", " ", t).strip()))
    days, mon = never(lexicon.alternatives(lexicon.DAY_NUMBERS)), alternatives(words_of(language)[1])
    t = re.sub(
        rf"\b({days}) (?=(?:{_DAY_NUMBER_OF})?(?:{mon})\b)", lambda m: f"{lexicon.DAY_NUMBERS[m[1]]} ", t
    )  # "el seis de junio"
    t = re.sub(rf"{_DAY_NUMBER_LEAD} ({days})\b", lambda m: f"{m[1]} {lexicon.DAY_NUMBERS[m[2]]}", t)  # "el día doce"
    wd = alternatives(words_of(language)[0])
    t = re.sub(rf"\b({wd}),? ({days})\b", lambda m: f"{m[1]} {lexicon.DAY_NUMBERS[m[2]]}", t)  # "el martes doce"
    t = re.sub(  # "june twenty one", "junio veintidos"
        rf"\b({mon}),? (?:{_MONTH_DAY_ARTICLE})?({days})\b(?! (?:{_HOUR_AFTER}))",
        lambda m: f"{m[1]} {lexicon.DAY_NUMBERS[m[2]]}",
        t,
    )
    t = re.sub(rf"\b({never(lexicon.alternatives(_ALONE))})\b", lambda m: str(_ALONE[m[1]]), t)
    t = re.sub(_NAMED_TWELVE, lambda m: m[1] or m[2], t)
    t = re.sub(rf"\b(\d{{1,2}}(?::\d{{2}})?) (?:{_AMPM_LEAD}) ([ap]m)\b", r"\1\2", t)  # "3 in the am"
    t = re.sub(r"\b(\d{1,2}(?::\d{2})?)([ap])\b", r"\1\2m", t)
    t = re.sub(r"(?<![\w:.])(1[0-2]|0?[1-9])([0-5]\d) ?([ap]m)\b", r"\1:\2\3", t)  # "330 pm"
    t = re.sub(_HOURS_H, r"\1h", t)
    weekdays, months = words_of(language)
    t = re.sub(rf"\b({alternatives(weekdays)}|{alternatives(months)})\.", r"\1", t)
    return _date_layouts(t, alternatives(months))


_MONTH_NAMES = {number: name for name, number in reversed(lexicon.own("MONTHS").items())}  # the first of each
_NUMERIC_MONTH_OF = lexicon.some("NUMERIC_MONTH_OF")


def _date_layouts(t: str, mon: str) -> str:
    """Dates laid out in other ways, as the calendar reads them: '20271105' -> '2027-11-05', 'nov-05-2027',
    '2027/nov/05', '05/nov/2027' -> the parts apart ('nov 05 2027'), '5 del 12' -> '5 december', '1.º' -> '1º'."""
    t = re.sub(r"(?<![\w:/.-])((?:19|2\d)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\w:/.-])", r"\1-\2-\3", t)
    t = re.sub(rf"(?<![\w:/.-])(\d{{1,2}})[/-]({mon})[/-](\d\d)(?![\w:/.-])", r"\1 \2 20\3", t)  # "31-oct-27"
    t = re.sub(rf"(?<=\d)(?:[/.-]|(?=[a-z]))(?=(?:{mon})\b)", " ", t)  # "14april", "05/nov"
    t = re.sub(rf"\b({mon})(?=\d)", r"\1 ", t)  # "feb13"
    t = re.sub(rf"\b({mon})[/.-](?=\d)", r"\1 ", t)
    t = re.sub(rf"\b({mon}) (\d{{1,2}})[/.-](\d{{4}})\b", r"\1 \2 \3", t)  # "nov 05-2027"
    t = re.sub(rf"\b({mon}) (\d{{1,2}})-?(?=\s|$)", r"\1 \2 ", t)
    t = re.sub(
        rf"(?<![\w:/.])(\d{{1,2}}) (?:{_NUMERIC_MONTH_OF}) (0?[1-9]|1[0-2])(?![\w:/.])",
        lambda m: f"{m[1]} {_MONTH_NAMES[int(m[2])]}",
        t,
    )
    return re.sub(rf"(?<![\d.])(\d{{1,2}})\.(?={ORD}\b)", r"\1", t).strip()


def take(s: str, pattern: str, marker: str, read: object) -> str:
    """Replace every match of `pattern` in `s` with `marker`, after `read(match)` accepts it (a reader
    that returns False leaves that match in place)."""
    out, last = [], 0
    for match in re.finditer(pattern, s):
        if read(match) is False:  # type: ignore[operator]
            continue
        out.append(s[last : match.start()] + f" {marker} ")
        last = match.end()
    return re.sub(r" +", " ", "".join(out) + s[last:])
