"""English words the time grammar reads: normalized (lower case, no accents)."""

from __future__ import annotations

from cronbell.core.language.lexicon.en_holidays import HOLIDAYS as HOLIDAYS  # names of holidays, and their keys

# weekday numbers follow date.weekday(): Monday 0 ... Sunday 6
WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
# read only in this language: "weds", and the misspellings phone keyboards leave ("wendsday", "thrusday")
WEEKDAYS_OWN = {
    "weds": 2, "mondy": 0, "monady": 0, "tuseday": 1, "tusday": 1, "teusday": 1, "tuesdy": 1, "wendsday": 2,
    "wensday": 2, "wednsday": 2, "wedensday": 2, "wednesdy": 2, "thrusday": 3, "thurdsay": 3, "thursdy": 3,
    "firday": 4, "fridy": 4, "satuday": 5, "saturdy": 5, "sundy": 6,
}  # fmt: skip
MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
MONTHS_OWN: dict[str, int] = {}
MONTH_FIRST = True  # "12/24" is December 24, for a locale without a region ("en")
# regions where "3/4" is March 4 (CLDR's month-day pattern), and, for a language without a lexicon, those that
# write the year first ("2026/3/4"); any other reads day first: "3/4" is 3 April in en-GB, en-IN, fr-FR
MONTH_FIRST_REGIONS = frozenset(
    {"US", "AS", "GU", "MH", "MP", "PR", "UM", "VI", "PH", "ZA", "CN", "HU", "IR", "JP", "KP", "KR", "LT", "MN", "TW"}
)
BARE_DAY_AFTER_WEEKDAY = True  # "friday 8" may be the 8th or 8 o'clock: refused as ambiguous
_units = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_teens = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_tens = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
# the numbers 10 to 59 in words ("twenty-one", "twenty one")
_ten_to_fifty_nine = {
    **{word: 10 + i for i, word in enumerate(_teens)},
    **{tens: value for tens, value in _tens.items()},
    **{f"{tens}{joint}{unit}": value + i for tens, value in _tens.items() for i, unit in enumerate(_units, 1)
       for joint in ("-", " ")},
}  # fmt: skip
# counts in amounts of time ("in two weeks", "a couple of days")
NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90, "a couple of": 2, "a couple": 2,
    **_ten_to_fifty_nine,
}  # fmt: skip
# hours said in words, where they can only be a time of day ("at ten", "seven pm")
HOURS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
# minutes after an hour ("ten thirty", "seven oh five", "eleven forty-two")
MINUTES = {**{f"oh {unit}": i for i, unit in enumerate(_units, 1)}, **_ten_to_fifty_nine}
# minutes before "past"/"to" an hour ("twenty to nine", "seven minutes past ten")
MINUTES_PAST = {
    **{unit: i for i, unit in enumerate(_units, 1)}, **{w: n for w, n in _ten_to_fifty_nine.items() if n < 30},
    "a quarter": 15, "quarter": 15, "half": 30,
}  # fmt: skip
ORDINALS = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
    "twentieth",
]  # fmt: skip
# the part of the day a word names, as a clock period
PARTS = {"tonight": "noche", "night": "noche", "evening": "noche", "afternoon": "tarde", "morning": "manana"}
# the default hour of a part of the day named without a time
PART_HOURS = {"morning": 9, "afternoon": 15, "evening": 19, "night": 21}
NAMED_CLOCKS = {
    "noon": (12, 0), "noontime": (12, 0), "midday": (12, 0), "mid-day": (12, 0), "midnight": (0, 0),
    "mid-night": (0, 0), "midnite": (0, 0),
}  # fmt: skip
# a named clock as an hour with am/pm, where minutes count from it ("a quarter past noon", "ten to midnight")
NAMED_HOURS = {"noon": "12pm", "midday": "12pm", "midnight": "12am", "mid-night": "12am", "midnite": "12am"}
FILLERS = {
    "at", "on", "the", "of", "a", "in", "around", "about", "by", "for", "sharp", "approximately", "approx", "roughly",
}  # fmt: skip
# words around a time that say nothing about it
COURTESY_NOT_AFTER: tuple[str, ...] = ()  # words after which a word of courtesy is part of a name
COURTESY = ["please", "pls", "plz", "kindly", "remind me", "thanks", "thank you", "thx"]
# words that say a time is approximate ("about 20 minutes", "4ish")
APPROXIMATELY = ["about", "around", "roughly", "approximately", "approx", "circa", "or so"]
# city names that are not the last part of a zone id, for "9am <city> time"
CITIES = {
    "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "boston": "America/New_York",
    "washington": "America/New_York", "miami": "America/New_York", "mexico city": "America/Mexico_City",
    "rio": "America/Sao_Paulo", "delhi": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "beijing": "Asia/Shanghai",
}  # fmt: skip
# day numbers in words, mostly ordinals in English ("the sixth of june"), cardinals too ("june twenty one")
DAY_NUMBERS = {
    **{unit: i for i, unit in enumerate(_units, 1)}, **{w: n for w, n in _ten_to_fifty_nine.items() if n <= 31},
}  # fmt: skip
POSITIONS = {"1th": 1, "2th": 2, "3th": 3, "4th": 4, "5th": 5, "1st": 1, "2nd": 2, "3rd": 3, "last": -1}
HOLIDAY_NEXT = "this coming|the next|the coming|coming|next|this"  # before a holiday: its next date all the same
HOLIDAY_YEAR_LEAD = "in"  # between a holiday and its year ("christmas in 2027")
HOLIDAY_NEXT_YEAR = r"(?:of |in )?(?:the )?(?:next|following) year(?:'s)?"  # "christmas next year", "next year's"
HOLIDAY_THIS_YEAR = r"(?:of )?this year(?:'s)?"
WEEKDAY_FROM_LEAD = "the"  # before a weekday counted from a day ("the friday after thanksgiving")
# a phrase that names a day the lexicon does not know, refused as such (core/language/named_days.py)
UNKNOWN_DAY_LEAD = "on |the "  # before its name
UNKNOWN_DAY_END = "day|eve"  # the last word of its name ("festivus day")
UNKNOWN_DAY = ""  # the whole phrase

# --- recurring phrases (core/language/cron_phrases.py): regular-expression fragments, joined across languages
PLURAL_ENDINGS = ("s",)  # "mondays"
EVERY_DAY = "every day"  # the daily phrase an interval or "twice a day" is read as
EVERY = "every"  # put before a weekday left alone ("every other monday" -> "every monday")
DAILY = "every ?day|each day|daily|every single day|all days"
WORKDAYS = "(?:(?:every|each|on) )?(?:weekdays?|working (?:day|days)|work ?(?:day|days)|business (?:day|days))|m-f"
WEEKENDS = "(?:(?:every|each|on|at) )?(?:the )?weekends?|(?:every )?saturdays? and sundays?"
WEEKDAYS_LEAD = "(?:every|each) day from|every|each|on|from"  # before a set of weekdays
WEEKDAYS_FROM = "(?:(?:every|each) day )?from"  # a lead that needs a span after it: "from monday" alone is a start
WEEKDAY_LEAD = "every|each|on"  # before one weekday of a set
AND = "and"  # joins a list (days of the month, times of day)
AND_WEEKDAYS = "and"  # joins a list of weekdays
THROUGH = "to|through|thru|until"  # "monday to friday"
EXCEPT = "except(?: on)?(?: for)?|but(?: not)?|other than"  # before the weekdays a schedule leaves out
ORDINAL_ENDINGS = "st|nd|rd|th"
MONTH_DAYS = (  # the days of every month, in the group `d`
    r"(?:every|each|once a) month,? (?:on )?(?:the )?(?:days? )?(?P<d>.+)",
    r"monthly,? (?:on )?(?:the )?(?:days? )?(?P<d>.+)",
    r"(?:(?:on|every|each) (?:the )?|the )(?:days? )?(?P<d>.+?) of (?:every|each|the) month",
    # 1st of every month: days said as ordinals need no "the" before "of every month"
    r"(?P<d>\d{1,2}(?:st|nd|rd|th)(?:(?:,|,? and) (?:the )?\d{1,2}(?:st|nd|rd|th))*) of (?:every|each|the) month",
    # every 1st and 15th: days said as ordinals after "every" are days of the month
    r"(?:every|each) (?:the )?(?P<d>\d{1,2}(?:st|nd|rd|th)(?:(?:,|,? and) (?:the )?\d{1,2}(?:st|nd|rd|th))*)",
)
PLACES = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
          "5th": 5, "last": -1}  # fmt: skip
OF_EVERY_MONTH = "of (?:(?:every|each|the) )?month|every month"
OF_EVERY_QUARTER = "of (?:every|each|the) (?:calendar )?quarter"  # its first month's place, or its last's
MONTH_DAY_AGAIN = "the "  # before a day of the month said again in a list ("the 1st and the 15th")
PLACE_LEAD = "on|every|each"
MONTH_END = r"(?:at |on )?(?:the )?end of (?:every|each|the) month|(?:every|each|at) month end"  # its last day
# after "every" with no month said, the places that can only be the month's ("every last friday"); a
# second or third could be an interval of weeks ("every third friday"): those need "of the month"
PLACE_ALONE_LEAD = "every|each"
PLACE_ALONE = ("first", "1st", "last")
MONTH_PLACE_LEAD = "(?:(?:every|each) month|monthly),? (?:on )?(?:the )?"  # "every month on the first monday"
PLACE_ARTICLE = "the"
DAY = "day"  # "the last day of every month"
DAYS_OF_YEAR = (  # {month} and {ordinal} are filled in; the day in `d`, the month in `mon`
    r"(?:every|each|yearly|annually|every year|each year)(?: on)?(?: the)? (?P<mon>{month}) (?P<d>\d{1,2}){ordinal}",
    r"(?:every|each|yearly|annually|every year|each year)(?: on)?(?: the)? (?P<d>\d{1,2}){ordinal} (?:of )?"
    r"(?P<mon>{month})",
)
EACH_PART = "every(?: single)?|each"  # "every morning"
PART_EVERY_DAY = {"nightly": "night"}  # a part of every day said in one word
PARTS_NOT_EACH = {"tonight"}  # a part of the day that is never "every"
WINDOW_FROM = "between|from|starting(?: at| from)?|beginning at"
WINDOW_TO = "and|to|until|till"
HOUR_ARTICLE = ""  # before an hour of a window
HALF_HOUR = "half an hour|half hour"
QUARTER_HOUR = "quarter of an hour|quarter hour"
HOURLY = ("hourly", "every hour", "each hour", "on the hour every hour", "on the hour, every hour")
HOURLY_MINUTE = (  # the minute of every hour, in the group `m`: "every hour at :30", "hourly at 15 past"
    r"(?:at )?:(?P<m>\d{2})",
    r"(?:at )?(?P<m>\d{1,2}) (?:minutes? )?(?:past|after)(?: the hour)?",
)
HOURLY_MINUTE_NAMED = {"on the hour": 0, "at quarter past": 15, "at a quarter past": 15, "on the half hour": 30,
                       "at half past": 30, "at quarter to": 45, "at a quarter to": 45}  # fmt: skip
EVERY_MINUTE = ("every minute", "each minute")
EACH = "every|each"  # "every 15 minutes"
MINUTE_UNITS = "minutes?|mins?"
HOUR_UNITS = "hours?|hrs?"
AT = ("at",)  # before a time of day
AT_NAMED = ""  # "at" before a named clock only
TIMES = {"once": 1, "twice": 2, "two times": 2, "three times": 3, "four times": 4}  # "twice a day"
TIMES.update({f"{n} times": n for n in (2, 3, 4)})  # "3 times a day"
PER = "a|per"  # "twice a day"
PER_WEEK = "a week|per week"  # "twice a week on tuesday and friday"
DAYS_START = "everyday|every|each|on|from|daily|weekdays|weekends"  # how a set of days may begin
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
          "eleven": 11, "twelve": 12, "other": 2, "second": 2, "alternate": 2, "third": 3, "fourth": 4,
          "fifth": 5, "sixth": 6}  # fmt: skip
WEEK_UNITS = ("week", "weeks")
DAY_UNITS = ("day", "days")
MONTH_UNITS = ("month", "months")
EVERY_MONTH = ("every month",)  # the monthly phrase every N months is read as
EVERY_N_MONTHS = {"quarterly": 3, "every quarter": 3, "each quarter": 3, "semiannually": 6, "semi annually": 6,
                  "half yearly": 6, "every half year": 6}  # fmt: skip
# of those, the calendar's quarters: their months are the calendar's (January, April, July, October; or
# March, June, September, December for a place from the month's end), not counted from the first occurrence
CALENDAR_PERIODS = {"quarterly", "every quarter", "each quarter"}
INTERVALS = (  # {count}, {unit} and {weekday} are filled in; groups n, unit, days, rest
    # every other monday at 10 / alternate mondays at 10 / every other month on the 15th at 9
    r"(?:(?:every|each) (?P<n>other|second|alternate)|(?:on )?alternate)"
    r" (?:(?P<unit>days?|months?)|(?P<days>{weekday}))\b,? ?(?P<rest>.*)",
    # biweekly on monday at 10 (read as every two weeks, its common meaning)
    r"(?:biweekly|fortnightly|(?:every|each|once a) fortnight),? (?P<rest>.*)",
    # weekly on friday at 4 / once a week on monday at 9 / every week on monday at 9 (every one week)
    r"(?P<once>weekly|once a week|(?:every|each) week),? (?P<rest>.*)",
)
DAYS_FOR_WEEKS: dict[str, tuple[str, int, str, str]] = {}  # "in fifteen days", "every 8 days": what they say
DAYS_FOR_WEEKS_LEAD: tuple[str, ...] = ()
STARTING = r"from|starting(?: on)?|beginning"  # before a start date
SAID_APART = (  # after a schedule: what goes in arguments of its own (until, count, skip_holidays)
    r"until|till|for \d+ (?:days?|weeks?|months?|times)|starting|beginning|from"
    r"|(?:except|skipping|but not) (?:on )?(?:public |bank )?holidays"
)

# --- business days (core/domain/business.py)
BUSINESS_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}  # fmt: skip
BUSINESS_NTH_DIGITS = r"\d{1,2}(?:st|nd|rd|th)"
# business days said in any schedule ("business days at 9", "every 30 minutes on working days"): its
# weekdays, which the schedule's phrase reads as WORKDAYS, on business days only
BUSINESS_DAYS = r"\b(?:business|working|work) ?(?:day|days)\b"
BUSINESS_PHRASES = (  # (pattern, the schedule phrase it stands on); {nth} is filled in, the time in `rest`
    (  # "the first weekday of the month" too: with the calendar, its holidays are left out as well
        r"(?:on )?the {nth} (?:business|working|week) ?day of (?:the|every|each) month (?P<rest>at .+)",
        "every day {rest}",
    ),
)

# --- one-shot times (core/language/when.py)
AMOUNT_BEFORE = "in|within|after"  # "in 2 hours"
AMOUNT_AFTER = "later|from now|from today|hence"  # "2 hours later"
AMOUNT_FROM_DAY = "from|after"  # between an amount and the day it counts from ("5 days from monday")
AMOUNT_BEFORE_DAY = "before|prior to"  # between an amount and the day it counts back from ("10 days before halloween")
AMOUNT_ONE_DAY = "the day"  # before "after" a day: one day ("the day after christmas")
AMOUNT_ON = "on"  # between an amount ahead and a day read from then ("in 2 years on thanksgiving")
# a whole phrase that means an amount of time, and that amount: "a week today", "a fortnight on tuesday",
# "tuesday week" (a week from the coming tuesday), "the next business day"; "\g<r>", what follows ("at 3pm")
_weeks, _day = r"(?:an?|one) (?:week|fortnight)|(?:\d+|two|three|four) weeks", "|".join(WEEKDAYS)
NEXT_BUSINESS_DAY = r"(?:the )?next (?:business|working|work) ?day"  # said alone: a day, at 09:00
AMOUNT_IDIOMS = {
    rf"(?P<n>{_weeks}) (?:on )?(?P<day>today|tomorrow|{_day})\b(?P<r>.*)": r"\g<n> from \g<day>\g<r>",
    rf"(?P<day>{_day}) week\b(?P<r>.*)": r"a week from \g<day>\g<r>",
    r"(?:the )?next (?:business|working|work) ?day\b(?P<r>.*)": r"in 1 business day\g<r>",
}
PAST_WORDS = r"\b(?:ago|yesterday|last (?:night|week|month|year|{weekday}))\b"  # a time in the past
# "same time tomorrow", "this time next week": that day at the minute it is now, as the grammar writes it;
# next week, month and year there are that amount ahead
SAME_TIME = "(?:at )?(?:the )?same time|(?:at )?this (?:same )?time"
SAME_TIME_AS, SAME_TIME_AHEAD = "{day} at {clock}h", ("in 7 days", "in 1 months", "in 1 years")

# --- amounts of time (core/language/amounts.py): regular-expression fragments, joined across languages
AMOUNT_AT = "at"  # between whole days ahead and a time of day ("3 days at 9am")
AMOUNT_IN_TIME = "(?:['\u2019]s|['\u2019])? time"  # after an amount: "in an hour's time", "in 3 days' time"
AMOUNT_SECONDS = "seconds?|secs?|s"  # the units of an amount after its number ("30 minutes", "1h30m")
AMOUNT_MINUTES = "minutes?|mins?|m"
AMOUNT_HOURS = "hours?|hrs?|h"
AMOUNT_DAYS = "days?|d"
AMOUNT_WEEKS = "weeks?"
AMOUNT_MONTHS = "months?"
AMOUNT_YEARS = "years?"
AMOUNT_HOUR_WORD = "hours?"  # after a fraction ("3/4 hour") and before a half or a quarter ("an hour and a half")
AMOUNT_FRACTION_OF = "of an? "  # between a fraction and the hour ("1/2 of an hour")
# whole phrases that name an amount, read in turn, and the amount as this language writes it
AMOUNTS = {
    "(?:a |one )?quarter hour": "15 minutes", "half an hour|half hour": "30 minutes",
    "a quarter of an hour|quarter of an hour|quarter hour": "15 minutes", "three quarters of an hour": "45 minutes",
    "(?:an?|one) fortnight|fortnight": "2 weeks", "a couple of|a couple": "2",
}  # fmt: skip
AMOUNT_AND_A_HALF = "and a half"  # after the hours ("two hours and a half")
AMOUNT_AND_A_QUARTER = "and a quarter"
AMOUNT_NUMBER_AND_A_HALF = "and a half (?:hours?|hrs?)"  # after the number of hours ("two and a half hours")
# an amount as the grammar writes it, read back by the grammar
AMOUNT_IN_HOURS = "{n} hours"
AMOUNT_IN_MINUTES = "{n} minutes"
COUNTED_WORKDAYS = (
    "weekdays?|business days?|working days?|work days?"  # after a count: days from Monday to Friday ("3 weekdays")
)

# --- the words of calendar phrases turned into digits (core/language/day_words.py): fragments, joined
DAY_ORDINAL_ENDINGS = "st|nd|rd|th"  # after a day number ("the 8th")
CLOCK_AT = "at about|at around|at|around|about|by"  # before a time of day
NAMED_CLOCK_AT = "at"  # before a named clock ("at noon")
NAMED_CLOCK_NOT_AFTER: tuple[str, ...] = ()  # a word after which a named clock is not one ("del mediodia")
HOUR_WORD_BEFORE = "at|around|about|by|past|to"  # before an hour in words that makes it a time of day
# after an hour in words that makes it a time of day (besides am/pm)
HOUR_WORD_AFTER = "o'?clock|in the|at night|tonight|this|noon|midnight|midnite"
CLOCK_HALF_HOUR = "half"  # before an hour: half past it (British "half three")
CLOCK_HALF_HOUR_NOT = "hours?|past|to"  # after "half" and a number that is no hour ("half 2 hours")
CLOCK_PAST_WORDS = "past|after"  # between minutes and the hour they follow ("ten past nine")
CLOCK_TO_WORDS = "to"  # between minutes and the hour they come before ("twenty to nine")
CLOCK_MINUTES_WORD = "minutes?"  # after those minutes ("ten minutes past nine")
CLOCK_SHARP_AMPM = "o'?clock"  # between an hour and its am/pm ("4 o'clock pm")
AMPM_LEAD = "in the"  # between a time and its am/pm ("3 in the am")
APPROXIMATE_ENDING = "ish"  # after a time: about then ("4ish", "noonish")
ORDINAL_TENS = {"twenty": 20, "thirty": 30}  # before an ordinal of ORDINALS' first nine ("twenty-first")
ORDINALS_APART = {"thirtieth": 30}  # ordinals beyond ORDINALS
FIRST_THING = "first thing"  # kept from the ordinals, read as EARLY ("first_thing")
DAY_NUMBER_OF = ""  # between a day number in words and its month ("seis de junio")
DAY_NUMBER_LEAD = ""  # before a day number in words ("el dia doce")
DAY_NUMBERS_ALONE: dict[str, int] = {}  # day numbers in words read alone ("el primero")
TWELVE_NAMED = "noon|midnight|midnite|mid-night"  # after 12, the named clock it is ("12 noon")
ISH_NAMED = "noon|midnight"  # a named clock said approximately ("noonish")
# how the grammar writes what it reads back: a time some minutes before an hour, "at" before a time of
# day, a day's ordinal
CLOCK_BEFORE_HOUR = "{hour} menos {minutes}"
MINUTES_FOR_THE_HOUR: dict[str, int] = {}  # Spanish "un cuarto para las 8"
FOR_THE_HOUR = ("", "")
CLOCK_AT_WRITTEN = "at"
ORDINAL_DAY = "{n}th"

# --- calendar phrases (core/language/days.py): words and regular-expression fragments, joined across
# languages ({month} is filled in)
# before a weekday: the coming one, never today
NEXT = "next|nxt|this coming|the coming|coming|the following|following|this upcoming|the upcoming|upcoming"
THIS = "this"  # before a weekday: this week's
NEXT_AFTER = ""  # after a weekday: the coming one
AFTER_NEXT = "after next"  # after a weekday: the one after the coming one ("friday after next")
PARTS_ON_THE_CLOCK = {"evening": "tarde"}  # a part of the day whose hours are another's on a 12-hour clock
NIGHT_PARTS = ("night", "evening")  # parts of the day whose small hours are the next day's ("tonight at 1")
BEFORE_DAY_NUMBER = ("the", "day")  # after these, as after a weekday or a month, a number is a day
CLOCK_MARKS = "o'?clock|hrs|half|quarter"  # words that make a number a time of day, besides am/pm and "at"
DAY_NUMBER_BEFORE_PART = ""  # between a day number and a part of the day ("el viernes 12 por la manana")
_end_of = "end of (?:the )?(?:day|today|business|play)|close of business"
END_OF_DAY = f"(?:(?:by|at|before|until) )?(?:the )?(?:{_end_of})|eod|cob"
LAST_DAY = r"(?:on )?(?:the )?last day of (?:(?:the |this )?month\b|(?=next month|the following month|(?:{month})\b))"
# "end of next month": its last day, the month read as NEXT_MONTH
END_OF_MONTH = (
    "(?:(?:by|at|before|until) )?(?:the )?end of (?:(?:the |this )?month|(?=next month|the following month))|eom"
)
END_OF_WEEK = "(?:(?:by|at|before|until) )?(?:the )?end of (?:the |this )?week"
# before a day named otherwise ("end of friday", "by the end of tomorrow"): that day's end
END_OF_NAMED_DAY = (
    r"(?:(?:by|at|before|until|till) )?(?:the )?end of(?= )(?! (?:the |this |next )?(?:month|week|year)\b)"
)
THIS_WEEKEND = "(?:this|the) weekend"
# early in the morning (FIRST_THING, kept from the ordinals)
EARLY = "first_thing(?: in the morning)?|early in the morning|early morning|in the early morning"
EARLY_PART = "morning"  # the part of the day that is, as the grammar writes it
THIS_PART_ALONE = {"tonight": "night"}  # this part of the day in one word, and the part
THIS_PART_LEAD = "this"  # before one of THIS_PARTS: today's
THIS_PARTS = "morning|afternoon|evening|night"
PART_LEAD = "in the|during the|at"  # before one of PARTS_AFTER_LEAD
PARTS_AFTER_LEAD = "morning|afternoon|evening|night"
PARTS_ALONE = "morning|afternoon|evening|night"  # a part of the day said without a lead
DAY_AFTER_TOMORROW = "(?:the )?day after (?:tomorrow|tmrw|tmr|2moro)"
TOMORROW = "tomorrow|tmrw|tmw|tmr|tmrow|tomorow|tommorow|tommorrow|2moro|2morrow|2mrw"
TODAY = "(?:later )?today"
LATER_TODAY = "later today"  # today, at a time still to be said: alone, it asks for the time
OF = "of "  # before NEXT_WEEK, THIS_MONTH, THIS_WEEK, and a month after its day
OF_THE = "of "  # before NEXT_MONTH, NEXT_YEAR
NEXT_WEEK = "next week|the following week"
NEXT_MONTH = "next month|the following month"
THIS_MONTH = "this month"
OF_MONTH = "of (?:the )?month"  # after a day number ("the first of the month")
NEXT_YEAR = "next year|the following year"
THIS_WEEK = "this week"
POSITION_OF = "of|in"  # after the place of a weekday ("the 2nd monday of june")
NEXT_DATE = ""  # before a date: the coming one, left out ("el proximo 15 de mayo")
MONTH_DAY_ARTICLE = "the "  # between a month and its day ("june the 5th")
DAY_ARTICLE = "the "  # between a weekday and its day ("friday the 12th")
DAY_LEAD = ""  # before a day number alone ("el dia 15")
NUMERIC_MONTH_OF = ""  # between a day number and its month in digits ("5 del 12")

# --- times of day (core/language/clocks.py): regular-expression fragments, joined across languages
CLOCK_HALF = ""  # after an hour: half past it ("9 y media")
CLOCK_QUARTER = ""  # after an hour: a quarter past it
CLOCK_QUARTER_TO = ""  # after an hour: a quarter to it
CLOCK_PLUS = ""  # after an hour, before minutes past it ("9 y 10")
CLOCK_MINUS = ""  # after an hour, before minutes to it ("9 menos 10")
CLOCK_SHARP = "o'?clock"  # after a time: exactly then
CLOCK_HOURS = "hrs"  # after a time: its hours
CLOCK_H = ""  # after a time, as "h" (Spanish has one)
CLOCK_PERIOD_LEAD = ""  # after "o'clock", before a part of the day
CLOCK_PERIOD_BEFORE = ""  # before a part of the day ("de la tarde")
CLOCK_MIDDAY = ""  # after a time: past noon ("del mediodia")
CLOCK_OWN_PERIOD = ""  # in a time that names its own part of the day, besides am/pm
CLOCK_HALF_WORD = "half"  # before "past": thirty minutes ("half past 9")
CLOCK_QUARTER_WORD = "quarter"  # before "past" or "to": fifteen minutes
CLOCK_PAST = "past"
CLOCK_TO = "to"
# the parts of the day a time is read in, as the grammar writes them ("8 de la noche"), read by the grammar
CLOCK_MORNING = "manana"
CLOCK_AFTERNOON = "tarde"
CLOCK_NIGHT = "noche"
CLOCK_SMALL_HOURS = "madrugada"
CLOCK_IN_PART = " de la {period}"  # a time put in a part of the day

# --- zones named in a time phrase (core/language/named_zones.py)
ZONE_HOURS = {
    "utc": 0, "gmt": 0, "z": 0, "wet": 0, "west": 1, "cet": 1, "cest": 2, "bst": 1, "eet": 2, "eest": 3,
    "msk": 3, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    "est": -5, "edt": -4, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "akst": -9, "hst": -10,
}  # fmt: skip
ZONE_REGIONS = {
    "et": "America/New_York", "eastern time": "America/New_York", "ct": "America/Chicago",
    "central time": "America/Chicago", "mt": "America/Denver", "mountain time": "America/Denver",
    "pt": "America/Los_Angeles", "pacific time": "America/Los_Angeles",
    # the region alone, as people say it ("5pm pacific", "noon eastern")
    "eastern": "America/New_York", "central": "America/Chicago", "mountain": "America/Denver",
    "pacific": "America/Los_Angeles",
}  # fmt: skip
ZONE_AMBIGUOUS = {  # abbreviations of several zones, and those zones: refused, unless the schedule's is one
    "ist": ("Asia/Kolkata", "Asia/Jerusalem", "Europe/Dublin"),
    "cst": ("America/Chicago", "Asia/Shanghai", "America/Havana"),
    "ast": ("America/Halifax", "Asia/Riyadh"),
    "amt": ("America/Manaus", "Asia/Yerevan"),
}
# not abbreviations here: English words ("wet"), or too short to tell from a word in a phrase ("z")
ZONE_NOT_ABBREVIATIONS = {"wet", "z"}
ZONE_CITY_LEAD = "in"  # before a city and ZONE_CITY_AFTER ("in new york time")
ZONE_CITY_AFTER = "time"
ZONE_CITY_BEFORE = ""  # before a city ("hora de madrid")
