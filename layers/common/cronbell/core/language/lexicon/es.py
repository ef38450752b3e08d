"""Spanish words the time grammar reads: normalized (lower case, no accents)."""

from __future__ import annotations

# weekday numbers follow date.weekday(): Monday 0 ... Sunday 6
WEEKDAYS = {"lunes": 0, "martes": 1, "miercoles": 2, "jueves": 3, "viernes": 4, "sabado": 5, "domingo": 6}
WEEKDAYS_OWN = {"lun": 0, "mie": 2, "jue": 3, "vie": 4, "sab": 5, "dom": 6}  # "sun" is English, "dom" is not
MONTHS = {
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
    "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
}  # fmt: skip
MONTHS_OWN = {"ene": 1, "abr": 4, "ago": 8, "set": 9, "dic": 12}  # "ago" is English for the past
MONTH_FIRST = False  # "24/12" is 24 December
MONTH_FIRST_REGIONS = frozenset({"PA", "PR"})  # es-PA, es-PR write "12/24" (CLDR); es-US, es-MX do not
BARE_DAY_AFTER_WEEKDAY = False  # "el viernes 8" is the 8th
NUMBERS = {
    "un": 1, "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12, "quince": 15, "veinte": 20, "treinta": 30, "cuarenta": 40,
    "cincuenta": 50, "sesenta": 60, "noventa": 90, "un par de": 2,
}  # fmt: skip
# the other numbers to 31 are added with the day numbers, below
HOURS = {
    "una": 1, "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}  # fmt: skip
MINUTES = {"cero cinco": 5, "cero uno": 1, "cero dos": 2, "cero tres": 3, "cero cuatro": 4}
ORDINALS: list[str] = []
PARTS = {"noche": "noche", "tarde": "tarde", "manana": "manana"}
PART_HOURS = {"manana": 9, "tarde": 15, "noche": 21}
NAMED_CLOCKS = {
    "mediodia": (12, 0), "el mediodia": (12, 0), "medianoche": (0, 0), "la medianoche": (0, 0), "media noche": (0, 0),
    "la media noche": (0, 0), "medio dia": (12, 0), "el medio dia": (12, 0),
}  # fmt: skip
NAMED_HOURS = {"mediodia": "12pm", "medianoche": "12am", "media noche": "12am", "medio dia": "12pm"}
FILLERS = {"las", "la", "el", "de", "del", "en", "por", "sobre", "hacia", "para", "dia", "aproximadamente"}
COURTESY_NOT_AFTER = ("de",)  # "el día de acción de gracias": those thanks are the holiday's name
COURTESY = [
    "por favor",
    "porfavor",
    "porfa",
    "porfis",
    "muchas gracias",
    "gracias",
    "recuerdamelo",
    "recuerdame",
    "avisame",
]
APPROXIMATELY = ["unos", "unas", "aproximadamente", "mas o menos", "como", "alrededor de"]
# city names in Spanish, for "a las 10 hora de <ciudad>"
CITIES = {
    "nueva york": "America/New_York", "londres": "Europe/London", "ciudad de mexico": "America/Mexico_City",
    "mexico": "America/Mexico_City", "tokio": "Asia/Tokyo", "paris": "Europe/Paris", "berlin": "Europe/Berlin",
    "roma": "Europe/Rome", "lisboa": "Europe/Lisbon", "sao paulo": "America/Sao_Paulo", "pekin": "Asia/Shanghai",
    "canarias": "Atlantic/Canary", "espana": "Europe/Madrid", "argentina": "America/Argentina/Buenos_Aires",
    "colombia": "America/Bogota", "chile": "America/Santiago", "peru": "America/Lima",
}  # fmt: skip
# day numbers in words ("el seis de junio", "el día doce")
DAY_NUMBERS = {
    "uno": 1, "primero": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15, "dieciseis": 16,
    "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "veintiuno": 21, "veintiun": 21,
    "veintidos": 22, "veintitres": 23, "veinticuatro": 24, "veinticinco": 25, "veintiseis": 26, "veintisiete": 27,
    "veintiocho": 28, "veintinueve": 29, "treinta": 30, "treinta y uno": 31,
}  # fmt: skip
NUMBERS.update({word: n for word, n in DAY_NUMBERS.items() if word != "primero"})
# minutes after "y" / "menos" ("las nueve y diez", "las doce menos veinte", "las dos y cuarenta y cinco")
MINUTES_PAST = {
    **{word: n for word, n in DAY_NUMBERS.items() if word not in ("primero", "veintiun")},
    **{f"{tens} y {unit}": value + n for tens, value in (("treinta", 30), ("cuarenta", 40), ("cincuenta", 50))
       for unit, n in list(DAY_NUMBERS.items())[:10] if unit not in ("primero",)},
    "cuarenta": 40, "cincuenta": 50,
}  # fmt: skip
# the place of a weekday in its month ("el primer lunes de junio", "el último viernes de mayo")
POSITIONS = {"primer": 1, "primero": 1, "segundo": 2, "tercer": 3, "tercero": 3, "cuarto": 4, "quinto": 5, "ultimo": -1}
# holidays and observances by name, and their keys (core/language/holiday_dates.py finds their dates)
HOLIDAYS = {
    "navidad": "christmas", "dia de navidad": "christmas", "nochebuena": "christmas_eve",
    "nochevieja": "new_years_eve", "ano nuevo": "new_year", "dia de ano nuevo": "new_year", "reyes": "epiphany",
    "dia de reyes": "epiphany", "dia de los reyes magos": "epiphany", "epifania": "epiphany",
    "dia de la madre": "mothers_day", "dia de las madres": "mothers_day", "dia del padre": "fathers_day",
    "viernes santo": "good_friday",
    "jueves santo": "maundy_thursday", "domingo de pascua": "easter", "domingo de resurreccion": "easter",
    "pascua": "easter", "lunes de pascua": "easter_monday", "san valentin": "valentines",
    "dia de san valentin": "valentines", "dia de los enamorados": "valentines", "dia de muertos": "day_of_the_dead",
    "dia de los muertos": "day_of_the_dead", "dia de la independencia": "independence_day",
    "dia del trabajo": "labor_day", "dia del trabajador": "labor_day", "dia de la hispanidad": "hispanic_day",
    "dia de accion de gracias": "thanksgiving", "accion de gracias": "thanksgiving",
    "la inmaculada": "immaculate_conception", "inmaculada concepcion": "immaculate_conception",
    "dia de todos los santos": "all_saints", "todos los santos": "all_saints", "la asuncion": "assumption",
}  # fmt: skip
HOLIDAYS.update({
    "dia de los inocentes": "innocents_day", "los santos inocentes": "innocents_day",
    "miercoles de ceniza": "ash_wednesday", "martes de carnaval": "shrove_tuesday", "domingo de ramos": "palm_sunday",
    "sabado santo": "holy_saturday", "pentecostes": "pentecost", "dia de la ascension": "ascension",
    "noche de san juan": "st_johns_eve", "san juan": "st_johns_day", "dia de san juan": "st_johns_day",
    "san jose": "st_josephs_day", "dia de san jose": "st_josephs_day", "dia de la virgen de guadalupe": "guadalupe",
    "dia de la guadalupana": "guadalupe", "dia del nino": "childrens_day", "dia de la constitucion": "constitution_day",
    "ano nuevo chino": "chinese_new_year", "carnaval": "carnival", "lunes de carnaval": "carnival",
    "dia de la tierra": "earth_day", "cinco de mayo": "cinco_de_mayo", "viernes negro": "black_friday",
})  # fmt: skip
HOLIDAYS.update({
    "lunes de pentecostes": "whit_monday", "yom kipur": "yom_kippur", "fiesta del cordero": "eid_al_adha",
    "fiesta del sacrificio": "eid_al_adha", "fin del ramadan": "eid_al_fitr", "fiesta de la ruptura": "eid_al_fitr",
    "nuevo ano judio": "rosh_hashanah", "pascua judia": "passover", "fiesta de la primavera": "chinese_new_year",
})  # fmt: skip
HOLIDAYS.update({
    "corpus christi": "corpus_christi", "dia de los fieles difuntos": "all_souls", "dia de difuntos": "all_souls",
    "pascua ortodoxa": "orthodox_easter", "navidad ortodoxa": "orthodox_christmas",
    "dia de san jorge": "st_georges_day",
    "sant jordi": "st_georges_day", "dia de la mujer": "womens_day", "dia internacional de la mujer": "womens_day",
    "dia de la marmota": "groundhog_day", "dia de la bastilla": "bastille_day", "santisima trinidad": "trinity_sunday",
    "ano nuevo islamico": "islamic_new_year", "nacimiento del profeta": "mawlid", "fiesta de la luna": "mid_autumn",
    "fiesta del medio otono": "mid_autumn", "fiesta del bote del dragon": "dragon_boat", "dia del rey": "kings_day",
    "dia de las elecciones": "election_day", "dia de los abuelos": "grandparents_day",
    "dia de la revolucion": "revolution_day", "aniversario de la revolucion": "revolution_day",
    "natalicio de benito juarez": "juarez_day", "dia de benito juarez": "juarez_day", "fiesta nacional": "hispanic_day",
    "dia de la bandera": "flag_day_mx", "januca": "hanukkah", "fiesta de las luces": "diwali",
    "sabado de lazaro": "lazarus_saturday",
})  # fmt: skip
HOLIDAY_NEXT = "la proxima|el proximo|proxima|proximo|esta|este"
HOLIDAY_YEAR_LEAD = "de|del ano|en"
HOLIDAY_NEXT_YEAR = r"(?:de |del )?(?:el )?(?:ano que viene|proximo ano|ano proximo|ano siguiente)"
HOLIDAY_THIS_YEAR = r"(?:de )?este ano"
WEEKDAY_FROM_LEAD = "el"
UNKNOWN_DAY_LEAD = "el |la "
UNKNOWN_DAY_END = ""
UNKNOWN_DAY = "(?:el )?dia de(?:l| la| los)? [a-z ]+"  # "el dia del orgullo"

# --- recurring phrases (core/language/cron_phrases.py): regular-expression fragments, joined across languages
PLURAL_ENDINGS = ("s", "es")  # "sabados", "martes"
EVERY_DAY = "todos los dias"
EVERY = "todos los"
DAILY = "todos los dias|cada dia|diariamente|a diario|diario|todos los dias de la semana"
WORKDAYS = "(?:todos )?(?:los )?(?:cada )?dias? (?:laborables?|habiles?|entre semana)|entre semana"
WEEKENDS = "(?:todos )?(?:los |cada )?(?:fin(?:es)? de semana|findes?)|(?:todos )?(?:los )?sabados y domingos"
WEEKDAYS_LEAD = "(?:todos los dias|cada dia) de|todos los|todas las|cada|los|el|de"
WEEKDAYS_FROM = "(?:(?:todos los dias|cada dia) )?de"
WEEKDAY_LEAD = "los|el|cada"
AND = "y"
AND_WEEKDAYS = "y|e"
THROUGH = "a|hasta(?: el)?"
EXCEPT = "excepto(?: el| los)?|menos(?: el| los)?|salvo(?: el| los)?"  # antes de los días que se excluyen
ORDINAL_ENDINGS = "ro|er|o"  # "el 1ro", "el 1er", "el 1o"
MONTH_DAYS = (
    r"(?:el|los) (?:dias? )?(?P<d>.+?) de (?:cada|todos los) mes(?:es)?",
    r"(?:cada|todos los) mes(?:es)? (?:el|los) (?:dias? )?(?P<d>.+)",
    r"(?:mensualmente|una vez al mes),? (?:el |los )?(?:dias? )?(?P<d>.+)",
    r"todos los dias (?P<d>\d{1,2}(?:(?:,| y) \d{1,2})*)",  # "todos los dias 21": the 21st of every month
    r"cada (?:dia )?(?P<d>.+?) del? mes",
)
PLACES = {"primer": 1, "primero": 1, "segundo": 2, "tercer": 3, "tercero": 3, "cuarto": 4, "quinto": 5, "ultimo": -1}
OF_EVERY_MONTH = "de cada mes|de todos los meses|del mes|de mes"
OF_EVERY_QUARTER = "de cada trimestre|del trimestre"  # el primer día: de su primer mes; el último: del último
MONTH_DAY_AGAIN = "(?:el )?(?:dia )?"  # "el día 1 y el día 15 de cada mes"
PLACE_LEAD = "el|cada|todos los"
MONTH_END = r"(?:a |al )?(?:el )?(?:final|fin) de (?:cada )?mes|cada (?:final|fin) de mes"  # su último día
PLACE_ALONE_LEAD = "cada"
PLACE_ALONE = ("primer", "ultimo")  # "cada último viernes": only the month's
MONTH_PLACE_LEAD = "(?:cada|todos los) mes(?:es)?,? (?:el )?"  # "cada mes el primer lunes"
PLACE_ARTICLE = ""
DAY = "dia"
DAYS_OF_YEAR = (
    r"(?:cada|todos los) (?:anos? )?(?:el )?(?P<d>\d{1,2}) de (?P<mon>{month})",
    r"(?:el )?(?P<d>\d{1,2}) de (?P<mon>{month}) de (?:cada|todos los) anos?",
)
EACH_PART = "cada|todas las"
PARTS_NOT_EACH: set[str] = set()
PART_EVERY_DAY: dict[str, str] = {}
WINDOW_FROM = "entre|de|desde|a partir de|empezando a"
WINDOW_TO = "y|a|hasta"
HOUR_ARTICLE = "las?"
HALF_HOUR = "media hora"
QUARTER_HOUR = "cuarto de hora"
HOURLY = ("cada hora", "a cada hora")
HOURLY_MINUTE = (r"(?:a los|al minuto) (?P<m>\d{1,2})(?: minutos?)?",)  # "cada hora a los 20 minutos"
# "cada hora y media" is every 90 minutes: only "a y media" names the minute
HOURLY_MINUTE_NAMED = {"en punto": 0, "a en punto": 0, "a y cuarto": 15, "a y media": 30, "a menos cuarto": 45}
EVERY_MINUTE = ("cada minuto",)
EACH = "cada"
MINUTE_UNITS = "minutos?"
HOUR_UNITS = "horas?"
AT = ("a las", "a la")
AT_NAMED = "al?(?= mediodia| medianoche)"  # "a mediodía", "al mediodía"
TIMES = {"una vez": 1, "dos veces": 2, "tres veces": 3, "2 veces": 2, "3 veces": 3}
PER = "al"
PER_WEEK = "a la semana|por semana|semanales"  # "dos veces por semana los martes y viernes"
DAYS_START = "todos|todas|cada|los|el|de|diariamente|a diario|entre semana"
COUNTS = {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
          "once": 11, "doce": 12, "quince": 15, "otra": 2, "otro": 2, "segundo": 2, "segunda": 2, "tercer": 3,
          "tercero": 3, "tercera": 3, "cuarto": 4, "cuarta": 4, "quinto": 5, "quinta": 5}  # fmt: skip
WEEK_UNITS = ("semana", "semanas")
DAY_UNITS = ("dia", "dias")
MONTH_UNITS = ("mes", "meses")
EVERY_MONTH = ("cada mes",)
EVERY_N_MONTHS = {"bimestralmente": 2, "cada bimestre": 2, "trimestralmente": 3, "cada trimestre": 3,
                  "semestralmente": 6, "cada semestre": 6}  # fmt: skip
CALENDAR_PERIODS = {"trimestralmente", "cada trimestre"}
INTERVALS = (
    # lunes por medio a las 10 / dia por medio a las 8 / semana por medio los lunes a las 10 / mes por medio el dia 1
    r"(?:(?:el|los|un|una) )?(?:(?P<unit>dias?|semanas?|mes(?:es)?)|(?P<days>{weekday})) por medio,? ?(?P<rest>.*)",
    # un lunes si y otro no a las 10 / un dia si y otro no a las 8
    r"(?:(?:el|un|una) )?(?:(?P<unit>dias?|semanas?|mes(?:es)?)|(?P<days>{weekday})),? si,? y? ?"
    r"(?:otro|uno|otra|una) no,? ?(?P<rest>.*)",
    # quincenalmente los lunes a las 9: with weekdays, every two weeks (as "biweekly" is read)
    r"(?:quincenalmente|cada quincena),? (?P<rest>.*)",
    # semanalmente los viernes a las 16 / una vez a la semana los lunes / cada semana el lunes (cada una semana)
    r"(?P<once>semanalmente|una vez (?:a|por) (?:la )?semana|cada semana|todas las semanas),? (?P<rest>.*)",
)
# days said for weeks: "cada quince dias" often means every two weeks, "cada ocho dias" every week (refused);
# "dentro de quince dias" is read as 15 days, said. Words as normalized -> (as written, days, the weeks as said,
# every so many weeks as said)
DAYS_FOR_WEEKS = {
    "quince dias": ("quince días", 15, "dos semanas", "cada 2 semanas"),
    "ocho dias": ("ocho días", 8, "una semana", "cada semana"),
}
DAYS_FOR_WEEKS_LEAD = ("cada",)
STARTING = r"desde(?: el)?|a partir del?|empezando el"
SAID_APART = (  # after a schedule: what goes in arguments of its own (until, count, skip_holidays)
    r"hasta|durante \d+ (?:dias|semanas|meses|veces)|empezando|comenzando|a partir de|desde"
    r"|(?:excepto|salvo|menos) (?:los )?(?:dias )?(?:festivos|feriados)"
)

# --- business days (core/domain/business.py)
BUSINESS_NTH = {"primer": 1, "segundo": 2, "tercer": 3, "cuarto": 4, "quinto": 5, "sexto": 6, "septimo": 7,
                "octavo": 8, "noveno": 9, "decimo": 10, "primero": 1, "tercero": 3, "ultimo": -1}  # fmt: skip
BUSINESS_NTH_DIGITS = r"\d{1,2}"
BUSINESS_DAYS = r"\bdias? (?:laborables?|habil|habiles)\b"
BUSINESS_PHRASES = (
    (r"(?:el )?{nth} dia (?:habil|laborable) (?:del|de cada) mes (?P<rest>a las? .+)", "todos los dias {rest}"),
)

# --- one-shot times (core/language/when.py)
AMOUNT_BEFORE = "en|dentro de|de aqui a"
AMOUNT_AFTER = "mas tarde|despues|a partir de ahora|a partir de hoy"
AMOUNT_FROM_DAY = "despues del?|a partir del?|contando desde el|desde el"
AMOUNT_BEFORE_DAY = "antes del?"
AMOUNT_ONE_DAY = "el dia"
AMOUNT_ON = "el|en"
NEXT_BUSINESS_DAY = r"el (?:proximo|siguiente) dia (?:habil|laborable)"  # dicho solo: un día, a las 09:00
AMOUNT_IDIOMS = {
    "de hoy en ocho(?: dias)?": "dentro de 1 semanas", "de hoy en quince(?: dias)?": "dentro de 2 semanas",
    r"el (?:proximo|siguiente) dia (?:habil|laborable)(?P<r>.*)": r"dentro de 1 dias habiles\g<r>",
}  # fmt: skip
# "mañana a esta hora", "la semana que viene a la misma hora": that day at the minute it is now
SAME_TIME = "(?:a )?(?:la misma hora|esta (?:misma )?hora)"
SAME_TIME_AS, SAME_TIME_AHEAD = "{day} a las {clock}h", ("dentro de 7 dias", "dentro de 1 meses", "dentro de 1 anos")
PAST_WORDS = r"\b(?:hace|ayer|anoche|anteayer)\b|\bpasad[oa]\b(?! manana)"

# --- amounts of time (core/language/amounts.py): regular-expression fragments, joined across languages
AMOUNT_AT = "a las|a la|a|sobre las|hacia las"
AMOUNT_IN_TIME = ""  # after an amount, a word that adds nothing ("in an hour's time")
AMOUNT_SECONDS = "segundos?"
AMOUNT_MINUTES = "minutos?"
AMOUNT_HOURS = "horas?"
AMOUNT_DAYS = "dias?"
AMOUNT_WEEKS = "semanas?"
AMOUNT_MONTHS = "mes|meses"
AMOUNT_YEARS = "anos?"
AMOUNT_HOUR_WORD = "horas?"
AMOUNT_FRACTION_OF = "de "
AMOUNTS = {"media hora": "30 minutos", "un cuarto de hora": "15 minutos", "tres cuartos de hora": "45 minutos",
           "un par de": "2"}  # fmt: skip
AMOUNT_AND_A_HALF = "y media"
AMOUNT_AND_A_QUARTER = "y cuarto"
AMOUNT_NUMBER_AND_A_HALF = ""
AMOUNT_IN_HOURS = "{n} horas"
AMOUNT_IN_MINUTES = "{n} minutos"
COUNTED_WORKDAYS = "dias habiles|dias laborables|dias laborales"

# --- the words of calendar phrases turned into digits (core/language/day_words.py): fragments, joined
DAY_ORDINAL_ENDINGS = "º|ª|o|ro|do|to|er|ero"
CLOCK_AT = "a eso de las|a eso de la|a las|a la|las|la|sobre las|hacia las"
NAMED_CLOCK_AT = "a|al|a las"
NAMED_CLOCK_NOT_AFTER = ("del",)
HOUR_WORD_BEFORE = "a las|a la|sobre las|hacia las|las"
HOUR_WORD_AFTER = "de la|por la|y|menos|en punto"
CLOCK_HALF_HOUR = ""
CLOCK_HALF_HOUR_NOT = ""
CLOCK_PAST_WORDS = ""
CLOCK_TO_WORDS = ""
CLOCK_MINUTES_WORD = ""
CLOCK_SHARP_AMPM = ""
AMPM_LEAD = ""
APPROXIMATE_ENDING = ""
ORDINAL_TENS: dict[str, int] = {}
ORDINALS_APART: dict[str, int] = {}
FIRST_THING = ""
DAY_NUMBER_OF = "de "
DAY_NUMBER_LEAD = "dia"
DAY_NUMBERS_ALONE = {"primero": 1}
TWELVE_NAMED = ""
ISH_NAMED = ""
CLOCK_BEFORE_HOUR = "{hour} menos {minutes}"
# minutes before an hour, as Mexico and much of Latin America say them ("un cuarto para las 8": 7:45), written
# as the grammar reads them; only these minutes ("el dos para las 8" is a day and an hour)
MINUTES_FOR_THE_HOUR = {"un cuarto": 15, "cuarto": 15, "cinco": 5, "diez": 10, "veinte": 20, "veinticinco": 25}
FOR_THE_HOUR = (r"\b(?:a )?(?:las? )?(?P<min>{minutes}) para las? (?P<h>\d{{1,2}})\b", "a las {hour} menos {minutes}")
CLOCK_AT_WRITTEN = "a las"
ORDINAL_DAY = "{n}o"

# --- calendar phrases (core/language/days.py): words and regular-expression fragments, joined across
# languages ({month} is filled in)
NEXT = "el proximo|este proximo|proximo|el prox.|el prox|prox.|prox"
THIS = "este"
NEXT_AFTER = "que viene|proximo|siguiente|prox"
AFTER_NEXT = "despues del proximo|despues del que viene"
PARTS_ON_THE_CLOCK: dict[str, str] = {}
NIGHT_PARTS = ("noche",)
BEFORE_DAY_NUMBER = ("el", "dia")
CLOCK_MARKS = "de la|por la|en la|del|y |menos|horas"
DAY_NUMBER_BEFORE_PART = "(?:por|en) la"
END_OF_DAY = "(?:al |a |para el )?(?:final|fin) del dia"
LAST_DAY = (
    r"(?:el )?ultimo dia de (?=(?:{month})\b)"
    r"|(?:el )?ultimo dia (?:del mes\b(?! que viene| proximo)|del? (?=mes que viene|proximo mes|mes proximo))"
)
# "a final de mes", "a fin del mes que viene": the last day of the month NEXT_MONTH reads
END_OF_MONTH = (
    "(?:a|al|para) (?:fin|final) "
    "(?:del? mes\\b(?! que viene| proximo)|(?=del (?:mes que viene|proximo mes|mes proximo)))"
)
END_OF_WEEK = "(?:a|al) final de (?:la )?semana"
END_OF_NAMED_DAY = r"(?:al |a |para el |hasta el |antes del )?(?:final|fin) del?(?= )(?! (?:la )?(?:mes|semana|ano)\b)"
THIS_WEEKEND = "(?:este|el) fin de semana"
EARLY = "a primera hora(?: de la manana)?|temprano por la manana|por la manana temprano"
EARLY_PART = "manana"
THIS_PART_ALONE: dict[str, str] = {}
THIS_PART_LEAD = "esta"
THIS_PARTS = "manana|tarde|noche"
PART_LEAD = "por la|de la|en la|a la"
PARTS_AFTER_LEAD = "manana|tarde|noche|madrugada"
PARTS_ALONE = "tarde|noche|madrugada"  # "manana" alone is tomorrow
DAY_AFTER_TOMORROW = "pasado manana"
TOMORROW = "manana|mnana|mnn"  # and the chat spellings "mñana", "mñn"
TODAY = "hoy"
LATER_TODAY = ""
OF = "de "
OF_THE = "de |del "
NEXT_WEEK = "la semana que viene|la proxima semana|la semana proxima"
NEXT_MONTH = "el mes que viene|mes que viene|el proximo mes|proximo mes|el mes proximo|mes proximo"
THIS_MONTH = "este mes"
OF_MONTH = "de mes|del mes"
NEXT_YEAR = "el ano que viene|ano que viene|el proximo ano|proximo ano"
THIS_WEEK = "esta semana"
POSITION_OF = "de|del|en"
NEXT_DATE = r"(?:el )?proximo (?=(?:dia )?\d)"
MONTH_DAY_ARTICLE = ""
DAY_ARTICLE = "el "
DAY_LEAD = "el (?:dia )?|dia "
NUMERIC_MONTH_OF = "del"

# --- times of day (core/language/clocks.py): regular-expression fragments, joined across languages
CLOCK_HALF = "y media"
CLOCK_QUARTER = "y cuarto"
CLOCK_QUARTER_TO = "menos cuarto"
CLOCK_PLUS = "y"
CLOCK_MINUS = "menos"
CLOCK_SHARP = "en punto"
CLOCK_HOURS = "horas"
CLOCK_H = "hs"  # after a time, as "h" ("a las 20 hs", in the Río de la Plata)
CLOCK_PERIOD_LEAD = "de|por|en|del"
CLOCK_PERIOD_BEFORE = "de la|por la|en la"
CLOCK_MIDDAY = "del mediodia"
CLOCK_OWN_PERIOD = "de la|del|por la"
CLOCK_HALF_WORD = ""
CLOCK_QUARTER_WORD = ""
CLOCK_PAST = ""
CLOCK_TO = ""
CLOCK_MORNING = "manana"
CLOCK_AFTERNOON = "tarde"
CLOCK_NIGHT = "noche"
CLOCK_SMALL_HOURS = "madrugada"
CLOCK_IN_PART = " de la {period}"

# --- zones named in a time phrase (core/language/named_zones.py)
ZONE_HOURS: dict[str, int] = {}
ZONE_REGIONS = {"hora canaria": "Atlantic/Canary", "hora peninsular": "Europe/Madrid"}
ZONE_AMBIGUOUS: dict[str, tuple[str, ...]] = {}
ZONE_NOT_ABBREVIATIONS: set[str] = set()
ZONE_CITY_LEAD = ""
ZONE_CITY_AFTER = ""
ZONE_CITY_BEFORE = "(?:hora|horario) (?:de (?:la )?|del )?"
