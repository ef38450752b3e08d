"""English words the time grammar reads: normalized (lower case, no accents)."""

from __future__ import annotations

# weekday numbers follow date.weekday(): Monday 0 ... Sunday 6
WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
    "sunday": 6, "sun": 6,
}  # fmt: skip
WEEKDAYS_OWN = {"weds": 2}  # read only in this language
MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
MONTHS_OWN: dict[str, int] = {}
MONTH_FIRST = True  # "12/24" is December 24, for a locale without a region ("en")
# regions where "3/4" is March 4 (CLDR's month-day pattern): en-US and the places that write dates as it
# does; and, for a locale whose language has no lexicon (read with these words), the regions that write
# the year first ("2026/3/4"). Any other region reads day first: "3/4" is 3 April in en-GB, en-IN, fr-FR.
MONTH_FIRST_REGIONS = frozenset(
    {"US", "AS", "GU", "MH", "MP", "PR", "UM", "VI", "PH", "ZA"}
    | {"CN", "HU", "IR", "JP", "KP", "KR", "LT", "MN", "TW"}
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
COURTESY = ["please", "pls", "plz", "kindly", "remind me"]
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
# holidays and observances by name, and their keys (core/language/holiday_dates.py finds their dates)
HOLIDAYS = {
    "christmas day": "christmas", "christmas": "christmas", "xmas": "christmas", "christmas eve": "christmas_eve",
    "xmas eve": "christmas_eve", "new year's eve": "new_years_eve", "new years eve": "new_years_eve",
    "new year's day": "new_year", "new years day": "new_year", "new year's": "new_year",
    "thanksgiving day": "thanksgiving", "thanksgiving": "thanksgiving", "mother's day": "mothers_day",
    "mothers day": "mothers_day", "mothering sunday": "mothers_day", "father's day": "fathers_day",
    "fathers day": "fathers_day", "easter sunday": "easter", "easter": "easter", "easter monday": "easter_monday",
    "good friday": "good_friday", "maundy thursday": "maundy_thursday", "holy thursday": "maundy_thursday",
    "halloween": "halloween", "valentine's day": "valentines", "valentines day": "valentines",
    "valentine's": "valentines", "valentine day": "valentines", "valentines": "valentines",
    "boxing day": "boxing_day", "independence day": "independence_day",
    "the fourth of july": "fourth_of_july", "fourth of july": "fourth_of_july", "labor day": "labor_day",
    "labour day": "labor_day", "memorial day": "memorial_day", "diwali": "diwali", "deepavali": "diwali",
    "epiphany": "epiphany", "juneteenth": "juneteenth", "mlk day": "mlk_day", "martin luther king day": "mlk_day",
    "all saints' day": "all_saints", "all saints day": "all_saints",
}  # fmt: skip
HOLIDAYS.update({
    "st patrick's day": "st_patricks_day", "st. patrick's day": "st_patricks_day",
    "saint patrick's day": "st_patricks_day", "st patricks day": "st_patricks_day",
    "black friday": "black_friday", "cinco de mayo": "cinco_de_mayo",
    "april fools' day": "april_fools", "april fools day": "april_fools", "april fool's day": "april_fools",
    "groundhog day": "groundhog_day", "earth day": "earth_day", "ash wednesday": "ash_wednesday",
    "shrove tuesday": "shrove_tuesday", "mardi gras": "shrove_tuesday", "pancake day": "shrove_tuesday",
    "palm sunday": "palm_sunday", "holy saturday": "holy_saturday", "ascension day": "ascension",
    "pentecost": "pentecost", "whit sunday": "pentecost", "veterans day": "veterans_day",
    "veterans' day": "veterans_day", "columbus day": "columbus_day", "presidents day": "presidents_day",
    "presidents' day": "presidents_day", "president's day": "presidents_day", "constitution day": "constitution_day",
    "chinese new year": "chinese_new_year", "lunar new year": "chinese_new_year", "eid al-fitr": "eid_al_fitr",
    "eid al-adha": "eid_al_adha", "holi": "holi", "dussehra": "dussehra", "hanukkah": "hanukkah",
    "chanukah": "hanukkah", "passover": "passover", "yom kippur": "yom_kippur", "rosh hashanah": "rosh_hashanah",
    "remembrance day": "remembrance_day", "new year": "new_year", "nye": "new_years_eve", "xmas day": "christmas",
})  # fmt: skip
HOLIDAYS.update({
    "saint paddy's day": "st_patricks_day", "st paddy's day": "st_patricks_day", "st. paddy's day": "st_patricks_day",
    "st paddys day": "st_patricks_day", "st. paddys day": "st_patricks_day", "paddy's day": "st_patricks_day",
    "st. patricks day": "st_patricks_day", "saint patricks day": "st_patricks_day",
    "washington's birthday": "presidents_day", "washingtons birthday": "presidents_day",
    "whit monday": "whit_monday", "pentecost monday": "whit_monday", "whitsun": "pentecost",
    "eid al adha": "eid_al_adha", "eid ul adha": "eid_al_adha", "eid al fitr": "eid_al_fitr",
    "eid ul fitr": "eid_al_fitr", "spring festival": "chinese_new_year", "deepawali": "diwali",
    "rosh hashana": "rosh_hashanah", "pesach": "passover", "halloween day": "halloween",
})  # fmt: skip
HOLIDAYS.update({
    "trinity sunday": "trinity_sunday", "corpus christi": "corpus_christi", "all souls' day": "all_souls",
    "all souls day": "all_souls", "orthodox easter": "orthodox_easter", "orthodox good friday": "orthodox_good_friday",
    "clean monday": "clean_monday", "orthodox christmas": "orthodox_christmas",
    "coptic christmas": "orthodox_christmas",
    "st george's day": "st_georges_day", "saint george's day": "st_georges_day", "st andrew's day": "st_andrews_day",
    "saint andrew's day": "st_andrews_day", "st david's day": "st_davids_day", "saint david's day": "st_davids_day",
    "burns night": "burns_night", "guy fawkes night": "guy_fawkes", "guy fawkes day": "guy_fawkes",
    "bonfire night": "guy_fawkes", "pi day": "pi_day", "star wars day": "star_wars_day",
    "world vegan day": "world_vegan_day", "international women's day": "womens_day", "women's day": "womens_day",
    "womens day": "womens_day", "kwanzaa": "kwanzaa", "armistice day": "remembrance_day",
    "bastille day": "bastille_day", "canada day": "canada_day", "australia day": "australia_day",
    "anzac day": "anzac_day", "waitangi day": "waitangi_day", "flag day": "flag_day", "patriot day": "patriot_day",
    "boss's day": "bosses_day", "bosses day": "bosses_day", "boss day": "bosses_day",
    "national boss day": "bosses_day", "grandparents day": "grandparents_day",
    "grandparents' day": "grandparents_day", "national grandparents day": "grandparents_day",
    "administrative professionals day": "admin_professionals_day", "secretaries day": "admin_professionals_day",
    "admin professionals day": "admin_professionals_day", "admin day": "admin_professionals_day",
    "election day": "election_day", "tax day": "tax_day", "shavuot": "shavuot", "shavuos": "shavuot",
    "sukkot": "sukkot", "succot": "sukkot", "simchat torah": "simchat_torah", "day of arafah": "day_of_arafah",
    "arafat day": "day_of_arafah", "islamic new year": "islamic_new_year", "hijri new year": "islamic_new_year",
    "muharram": "islamic_new_year", "mawlid": "mawlid", "mawlid al-nabi": "mawlid", "prophet's birthday": "mawlid",
    "milad un nabi": "mawlid", "ashura": "ashura", "janmashtami": "janmashtami", "krishna janmashtami": "janmashtami",
    "ram navami": "ram_navami", "rama navami": "ram_navami", "maha shivaratri": "maha_shivaratri",
    "mahashivratri": "maha_shivaratri", "shivaratri": "maha_shivaratri", "mahavir jayanti": "mahavir_jayanti",
    "buddha purnima": "buddha_purnima", "vesak": "buddha_purnima", "wesak": "buddha_purnima",
    "buddha's birthday": "buddha_purnima", "guru nanak jayanti": "guru_nanak", "guru nanak's birthday": "guru_nanak",
    "gandhi jayanti": "gandhi_jayanti", "ambedkar jayanti": "ambedkar_jayanti",
    "dragon boat festival": "dragon_boat", "mid-autumn festival": "mid_autumn", "mid autumn festival": "mid_autumn",
    "moon festival": "mid_autumn", "qingming festival": "qingming", "qingming": "qingming",
    "tomb sweeping day": "qingming", "tomb-sweeping day": "qingming", "king's day": "kings_day",
    "kings day": "kings_day", "koningsdag": "kings_day", "seollal": "korean_new_year",
    "korean new year": "korean_new_year", "chuseok": "chuseok", "songkran": "songkran", "tet": "chinese_new_year",
    "dussehra": "dussehra", "dasara": "dussehra", "vijayadashami": "dussehra", "hari raya puasa": "eid_al_fitr",
    "hari raya haji": "eid_al_adha", "eid ul-fitr": "eid_al_fitr", "eid ul-adha": "eid_al_adha",
    "bakrid": "eid_al_adha", "yom kipur": "yom_kippur", "passover day": "passover",
    "hanukkah": "hanukkah", "chanukah": "hanukkah", "hanukah": "hanukkah", "purim": "purim",
    "lag baomer": "lag_baomer", "lag b'omer": "lag_baomer", "tisha b'av": "tisha_bav", "tisha bav": "tisha_bav",
    "jerusalem day": "jerusalem_day", "yom yerushalayim": "jerusalem_day", "ganesh chaturthi": "ganesh_chaturthi",
    "vinayaka chaturthi": "ganesh_chaturthi", "raksha bandhan": "raksha_bandhan", "rakhi": "raksha_bandhan",
    "onam": "onam", "pongal": "pongal", "thai pongal": "pongal", "makar sankranti": "makar_sankranti",
    "vaisakhi": "vaisakhi", "baisakhi": "vaisakhi", "ugadi": "ugadi", "gudi padwa": "ugadi",
    "govardhan puja": "govardhan_puja", "bhai dooj": "bhai_dooj", "bhai duj": "bhai_dooj",
    "karva chauth": "karva_chauth", "karwa chauth": "karva_chauth", "chhath": "chhath", "chhath puja": "chhath",
    "holika dahan": "holika_dahan", "vasant panchami": "vasant_panchami", "basant panchami": "vasant_panchami",
    "rath yatra": "rath_yatra", "ratha yatra": "rath_yatra", "naraka chaturdashi": "naraka_chaturdashi",
    "guru gobind singh jayanti": "guru_gobind_singh", "rabindra jayanti": "rabindra_jayanti",
    "parsi new year": "parsi_new_year", "valmiki jayanti": "valmiki_jayanti", "guru ravidas jayanti": "guru_ravidas",
    "shivaji jayanti": "shivaji_jayanti", "dayananda saraswati jayanti": "dayanand_jayanti",
    "jamat ul-vida": "jamat_ul_vida", "lazarus saturday": "lazarus_saturday",
    "martin luther king's day": "mlk_day", "martin luther king jr day": "mlk_day",
    "martin luther king jr. day": "mlk_day", "mlk jr day": "mlk_day", "mlk": "mlk_day",
})  # fmt: skip
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
WORKDAYS = "(?:(?:every|each|on) )?(?:weekdays?|working days?|work ?days?|business days?)"
WEEKENDS = "(?:(?:every|each|on|at) )?(?:the )?weekends?|(?:every )?saturdays? and sundays?"
WEEKDAYS_LEAD = "every|each|on|from"  # before a set of weekdays
WEEKDAY_LEAD = "every|each|on"  # before one weekday of a set
AND = "and"  # joins a list (days of the month, times of day)
AND_WEEKDAYS = "and"  # joins a list of weekdays
THROUGH = "to|through|thru|until"  # "monday to friday"
ORDINAL_ENDINGS = "st|nd|rd|th"
MONTH_DAYS = (  # the days of every month, in the group `d`
    r"(?:every|each) month,? (?:on )?(?:the )?(?:days? )?(?P<d>.+)",
    r"monthly,? (?:on )?(?:the )?(?:days? )?(?P<d>.+)",
    r"(?:(?:on|every|each) (?:the )?|the )(?:days? )?(?P<d>.+?) of (?:every|each|the) month",
)
PLACES = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
          "5th": 5, "last": -1}  # fmt: skip
OF_EVERY_MONTH = "of (?:every|each|the) month|every month"
PLACE_LEAD = "on|every|each"
PLACE_ARTICLE = "the"
DAY = "day"  # "the last day of every month"
DAYS_OF_YEAR = (  # {month} and {ordinal} are filled in; the day in `d`, the month in `mon`
    r"(?:every|each|yearly|annually|every year|each year)(?: on)?(?: the)? (?P<mon>{month}) (?P<d>\d{1,2}){ordinal}",
    r"(?:every|each|yearly|annually|every year|each year)(?: on)?(?: the)? (?P<d>\d{1,2}){ordinal} (?:of )?"
    r"(?P<mon>{month})",
)
EACH_PART = "every|each"  # "every morning"
PARTS_NOT_EACH = {"tonight"}  # a part of the day that is never "every"
WINDOW_FROM = "between|from"
WINDOW_TO = "and|to|until|till"
HOUR_ARTICLE = ""  # before an hour of a window
HALF_HOUR = "half an hour|half hour"
QUARTER_HOUR = "quarter of an hour|quarter hour"
HOURLY = ("hourly", "every hour", "each hour")
EVERY_MINUTE = ("every minute", "each minute")
EACH = "every|each"  # "every 15 minutes"
MINUTE_UNITS = "minutes?|mins?"
HOUR_UNITS = "hours?|hrs?"
AT = ("at",)  # before a time of day
AT_NAMED = ""  # "at" before a named clock only
TIMES = {"twice": 2, "two times": 2, "three times": 3, "four times": 4}  # "twice a day"
PER = "a|per"  # "twice a day"
DAYS_START = "everyday|every|each|on|from|daily|weekdays|weekends"  # how a set of days may begin
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
          "eleven": 11, "twelve": 12, "other": 2, "second": 2, "alternate": 2}  # fmt: skip
WEEK_UNITS = ("week", "weeks")
DAY_UNITS = ("day", "days")
INTERVALS = (  # {count}, {unit} and {weekday} are filled in; groups n, unit, days, rest
    # every other monday at 10 / alternate mondays at 10
    r"(?:(?:every|each) (?P<n>other|second|alternate)|(?:on )?alternate) (?:(?P<unit>days?)|(?P<days>{weekday}))\b"
    r",? ?(?P<rest>.*)",
    # biweekly on monday at 10 (read as every two weeks, its common meaning)
    r"(?:biweekly|fortnightly|(?:every|each|once a) fortnight),? (?P<rest>.*)",
)
FIFTEEN_DAYS_LEAD: tuple[str, ...] = ()  # "every 15 days" is what it says
STARTING = r"from|starting(?: on)?|beginning"  # before a start date

# --- business days (core/domain/business.py)
BUSINESS_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}  # fmt: skip
BUSINESS_NTH_DIGITS = r"\d{1,2}(?:st|nd|rd|th)"
BUSINESS_PHRASES = (  # (pattern, the schedule phrase it stands on); {nth} is filled in, the time in `rest`
    (r"(?:every|each) (?:business|working|work) ?day (?P<rest>at .+)", "every weekday {rest}"),
    (r"(?:on )?the {nth} (?:business|working) day of (?:the|every|each) month (?P<rest>at .+)", "every day {rest}"),
)

# --- one-shot times (core/language/when.py)
AMOUNT_BEFORE = "in|within|after"  # "in 2 hours"
AMOUNT_AFTER = "later|from now|from today|hence"  # "2 hours later"
AMOUNT_FROM_DAY = "from|after"  # between an amount and the day it counts from ("5 days from monday")
AMOUNT_BEFORE_DAY = "before|prior to"  # between an amount and the day it counts back from ("10 days before halloween")
AMOUNT_ONE_DAY = "the day"  # before "after" a day: one day ("the day after christmas")
AMOUNT_ON = "on"  # between an amount ahead and a day read from then ("in 2 years on thanksgiving")
AMOUNT_IDIOMS: dict[str, str] = {}  # a whole phrase that means an amount of time, and that amount
PAST_WORDS = r"\b(?:ago|yesterday|last (?:night|week|month|year|{weekday}))\b"  # a time in the past

# --- amounts of time (core/language/amounts.py): regular-expression fragments, joined across languages
AMOUNT_AT = "at"  # between whole days ahead and a time of day ("3 days at 9am")
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
END_OF_DAY = "(?:(?:by|at|before|until) )?(?:the )?(?:end of (?:the )?(?:day|today|business)|close of business)|eod|cob"
LAST_DAY = r"(?:on )?(?:the )?last day of (?:(?:the |this )?month\b|(?=next month|the following month|(?:{month})\b))"
END_OF_MONTH = "(?:(?:by|at|before|until) )?(?:the )?end of (?:the |this )?month|eom"
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
}  # fmt: skip
ZONE_AMBIGUOUS = ("ist", "cst", "ast", "amt")  # abbreviations of several zones, refused
# not abbreviations here: English words ("wet"), or too short to tell from a word in a phrase ("z")
ZONE_NOT_ABBREVIATIONS = {"wet", "z"}
ZONE_CITY_LEAD = "in"  # before a city and ZONE_CITY_AFTER ("in new york time")
ZONE_CITY_AFTER = "time"
ZONE_CITY_BEFORE = ""  # before a city ("hora de madrid")
