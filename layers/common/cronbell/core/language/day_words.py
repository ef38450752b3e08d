"""The words of calendar phrases, turned into the forms core/language/days.py reads: hours and minutes in words
to digits ("at ten thirty", "twenty to nine", "las nueve y diez"), ordinal words to numbers, abbreviations
without their dot; and the patterns of a time of day, a named clock and the filler words."""

from __future__ import annotations

import re

from cronbell.core.language import lexicon


def words_of(language: str) -> tuple[dict[str, int], dict[str, int]]:
    words = lexicon.of(language)
    return words.weekdays, words.months


def alternatives(names: dict[str, int]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


ORD = r"(?:st|nd|rd|th|º|ª|o|ro|do|to|er|ero)"
NUM = r"(?<![\w:/.])"  # a number that is not part of a word, a time or a date
END = r"(?![\w:/])"
_ORDINAL_WORDS = lexicon.ORDINAL_WORDS
CLOCK = (
    r"(?:(?:half|quarter) (?:past|to) )?\d{1,2}(?:[:.h]\d{2})?h?(?:\s?(?:am|pm))?"
    r"(?: (?:y media|y cuarto|menos cuarto|y \d{1,2}|menos \d{1,2}))?"
    r"(?: (?:de la|por la|en la) (?:manana|tarde|noche|madrugada)| del mediodia)?"
    r"(?: (?:en punto|o'?clock|horas|hrs))?"
)
CLOCK_AT = r"(?:at about|at around|at|a eso de las|a eso de la|a las|a la|las|la|sobre las|hacia las|around|about|by)"
NAMED_CLOCKS = r"(?:noon|midday|el mediodia|mediodia|midnight|la medianoche|medianoche)"
NAMED_CLOCK = rf"(?:(?:at|a|al|a las) )?(?<!del )(?P<c>{NAMED_CLOCKS})"
FILLERS = lexicon.FILLERS | {","}


_HOUR_WORDS = lexicon.HOUR_WORDS
_HOUR_WORD = "|".join(_HOUR_WORDS)
_MINUTE_WORDS = lexicon.MINUTE_WORDS
_MINUTES_PAST = lexicon.MINUTES_PAST  # minutes before "past" / "to" an hour, and after "y" / "menos"


def _past_or_to(m: re.Match[str]) -> str:
    """'twenty to 9' -> '9 menos 20' (8:40), 'ten past 10' -> '10:10', '5 past 9 pm' -> '9:05 pm'.
    Digits before "to" would read as a range ("5 to 9"), and there is no "half to": both are left as they are."""
    minutes = _MINUTES_PAST[m["min"]] if m["min"] in _MINUTES_PAST else int(m["min"])
    hour = int(m["h"])
    if minutes > 59 or hour > 12:
        return m[0]
    if m["way"] == "to":
        if m["min"] == "half" or m["min"].isdigit():
            return m[0]
        return f"{hour}{m['ampm'] or ''} menos {minutes}"  # the hour's am/pm or part of the day comes first
    return f"{hour}:{minutes:02d}{m['ampm'] or ''}"


def _clock_words(t: str) -> str:
    """Hours in words where they can only be a time of day: 'at ten thirty' -> 'at 10:30',
    'a las nueve y media' -> 'a las 9 y media', 'seven pm' -> '7 pm', 'half past ten' -> 'half past 10'."""
    before = r"(?:at|a las|a la|@|around|about|by|sobre las|hacia las|past|to)"
    after = r"(?:am|pm|o'?clock|in the|de la|por la|y media|y cuarto|menos cuarto|en punto)"
    # "eleven fifteen am", "seven oh five pm", "siete cero cinco": an hour and its minutes in words
    minutes = lexicon.alternatives(_MINUTE_WORDS)
    t = re.sub(rf"\b({_HOUR_WORD}) (?=(?:{minutes})\b)", lambda m: f"{_HOUR_WORDS[m[1]]} ", t)
    t = re.sub(rf"(?<![\w:])(\d{{1,2}}) ({minutes})\b", lambda m: f"{m[1]}:{_MINUTE_WORDS[m[2]]:02d}", t)
    # British "half three" is 3:30 ("half an hour", "half past" are not hours)
    t = re.sub(
        rf"\bhalf ({_HOUR_WORD}|\d{{1,2}})\b(?![:.]| (?:hours?|past|to)\b)",
        lambda m: f"{_HOUR_WORDS.get(m[1], m[1])}:30",
        t,
    )
    # "at five to nine": the five counts minutes, not hours
    t = re.sub(rf"\b({before}) ({_HOUR_WORD})\b(?! (?:past|after|to)\b)", lambda m: f"{m[1]} {_HOUR_WORDS[m[2]]}", t)
    t = re.sub(rf"\b({_HOUR_WORD}) (?={after}\b)", lambda m: f"{_HOUR_WORDS[m[1]]} ", t)
    named = "|".join(sorted(_MINUTES_PAST, key=len, reverse=True))
    # minutes from a named clock: "a quarter past noon" is 12:15pm, "ten to midnight" 12am less ten
    hours = lexicon.alternatives(lexicon.NAMED_HOURS)
    t = re.sub(rf"\b(past|after|to) ({hours})\b", lambda m: f"{m[1]} {lexicon.NAMED_HOURS[m[2]]}", t)
    t = re.sub(
        rf"\b(?P<min>{named}|\d{{1,2}})(?: minutes?)? (?P<way>past|after|to) (?P<h>\d{{1,2}})"
        r"(?P<ampm> ?[ap]m\b)?(?![\w:])",
        _past_or_to,
        t,
    )
    spanish = "|".join(lexicon.es.MINUTES_PAST)  # "las 9 y diez" -> "las 9 y 10", "las 12 menos diez"
    return re.sub(
        rf"(?<![\w:])(\d{{1,2}}) (y|menos) ({spanish})\b", lambda m: f"{m[1]} {m[2]} {_MINUTES_PAST[m[3]]}", t
    )


def _clock_idioms(t: str) -> str:
    """'4ish' -> '4', '5 pm-ish' -> '5 pm' (an approximate time is the time named), 'at 1530' -> 'at 15:30'."""
    t = re.sub(r"\b(\d{1,2}) o'?clock ?([ap]m)\b", r"\1\2", t)  # "4 o'clock pm"
    t = re.sub(r"\b(\d{1,2}(?::\d\d)?)-?ish\b", r"at \1", t)  # "4ish": a time of day, not a day number
    t = re.sub(r"(?<=[\dm]) ?-?ish\b", "", t)
    return re.sub(rf"\b({CLOCK_AT}) ([01]\d|2[0-3])([0-5]\d)\b(?![:/.-]\d)", lambda m: f"{m[1]} {m[2]}:{m[3]}", t)


def prepare(t: str, language: str) -> str:
    """Ordinal words to digits, hours in words to digits, 'noonish' to 'noon', '9a' to '9am', 'dec.' to
    'dec', 'tues.' to 'tues', '17 h' to '17h', '@' to 'at'."""
    t = _clock_idioms(re.sub(r"@", " at ", t))
    t = _clock_words(re.sub(r" +", " ", t).strip())
    t = re.sub(r"\b(twenty|thirty)[- ](first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b",
               lambda m: f"{(20 if m[1] == 'twenty' else 30) + _ORDINAL_WORDS.index(m[2]) + 1}th", t)  # fmt: skip
    t = re.sub(r"\bfirst thing\b", "first_thing", re.sub(r"\bthirtieth\b", "30th", t))
    t = re.sub(rf"\b({'|'.join(_ORDINAL_WORDS)})\b", lambda m: f"{_ORDINAL_WORDS.index(m[1]) + 1}th", t)
    days, mon = lexicon.alternatives(lexicon.DAY_NUMBERS), alternatives(words_of(language)[1])
    t = re.sub(
        rf"\b({days}) (?=(?:de )?(?:{mon})\b)", lambda m: f"{lexicon.DAY_NUMBERS[m[1]]} ", t
    )  # "el seis de junio"
    t = re.sub(rf"\bdia ({days})\b", lambda m: f"dia {lexicon.DAY_NUMBERS[m[1]]}", t)  # "el día doce"
    t = re.sub(r"\bprimero\b", "1", t)
    t = re.sub(r"\b12 (noon|midnight)\b|\b(noon)ish\b", lambda m: m[1] or m[2], t)
    t = re.sub(r"\b(\d{1,2}(?::\d{2})?)([ap])\b", r"\1\2m", t)
    t = re.sub(r"(?<![\w:.])(\d{1,2}(?::\d{2})?) h\b", r"\1h", t)
    weekdays, months = words_of(language)
    t = re.sub(rf"\b({alternatives(weekdays)}|{alternatives(months)})\.", r"\1", t)
    mon = alternatives(months)
    t = re.sub(rf"\b(\d{{1,2}})-({mon})\b-?", r"\1 \2 ", t)  # "11-jan-2027", "7-sep"
    return re.sub(rf"\b({mon})-(?=\d)", r"\1 ", t).strip()  # "jan-11-2027"


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
