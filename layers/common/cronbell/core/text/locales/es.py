"""Español: las mismas claves y los mismos campos que el catálogo inglés."""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # --- horas de silencio ---
    "quiet.set": (
        "Tus horas de silencio en esta sala quedan guardadas: de {start} a {end}, {days} ({zone}){next}. "
        "Los recordatorios para ti que caigan en ellas se retienen y se publican juntos cuando terminan."
    ),
    "quiet.got": "Tus horas de silencio en esta sala: de {start} a {end}, {days} ({zone}){next}.",
    "quiet.none": "No tienes horas de silencio en esta sala.",
    "quiet.cleared": (
        "Tus horas de silencio en esta sala se han quitado: los recordatorios para ti vuelven a publicarse a su hora."
    ),
    "quiet.cleared_none": "No tenías horas de silencio en esta sala; no ha cambiado nada.",
    "quiet.every_day": "todos los días",
    "quiet.on_days": "días de inicio: {days}",
    "quiet.next": "; las próximas, del {start} al {end}",
    "quiet.held": "retenido por las horas de silencio hasta el {until}",
    "quiet.held_earlier": "una vez anterior retenida por las horas de silencio hasta el {until}",
    "quiet.exempt": "Esa hora cae en tus horas de silencio: como la pusiste para entonces, se entregará igualmente.",
    "error.invalid_arguments.quiet_clock": "`{argument}` debe ser una hora de 24 horas 'HH:MM', de 00:00 a 23:59",
    "error.invalid_arguments.quiet_same": "`{argument}` debe ser distinto de `start`",
    "error.invalid_arguments.quiet_no_days": "`{argument}` no puede estar vacío: omítelo para todos los días",
    "error.invalid_arguments.quiet_days_twice": "`{argument}` nombra algún día más de una vez",
    "error.invalid_arguments.quiet_zone": "`{argument}` {zone!r} no es una zona IANA como 'Europe/Madrid'",
    # --- respuestas de las herramientas ---
    "created.message": "Recordatorio {id}{about} programado: {when}. {now}",
    "created.agent_call": "Llamada al agente {id}{about} programada: {when}. {now}",
    "duplicate": "Ya existe una programación idéntica, {id}{about}: {when}. {now}",
    "duplicate.differs": (
        "Ya existe una programación con la misma acción y hora, {id}{about}: {when}. No se creó nada, y "
        "difiere de esta llamada en {fields}: para cambiarlo, usa `update_reminder` con su id. {now}"
    ),
    "duplicate.differs_fixed": (
        "Ya existe una programación con la misma acción y hora, {id}{about}: {when}. No se creó nada, y "
        "difiere de esta llamada en {fields}; `skills` y `timeout_seconds` se quedan como se crearon: bórrala "
        "y créala de nuevo para cambiarlos. {now}"
    ),
    "listed": "{count} programaciones en esta sala: {items}. {now}",
    "fitted.not_shown": (
        "{hidden} más no caben en esta respuesta, que no puede pasar de {limit} KB: borra lo que ya no haga falta,"
        " o nombra una para cambiarla."
    ),
    "listed_one": "Una programación en esta sala: {items}. {now}",
    "listed_more": (
        "{count} programaciones en esta sala; las {shown} primeras: {items}; el resultado las incluye todas. {now}"
    ),
    "listed_none": "No hay ninguna programación en esta sala. {now}",
    "listed.item": "{id}{about}, {when}",
    "listed.next": "próxima: {next}",
    "listed.paused": "en pausa",
    "listed.none": "sin ejecución pendiente",
    "listed.ended": "estado `{status}`",
    "listed.ended_run": "estado `{status}`; última ejecución: {run}",
    "deleted": "Se ha eliminado {id}{about} ({when}). {now}",
    "run_started": "Se ejecuta {id}{about} ahora; el resultado se publicará {where}.",
    "run_waiting": "Se ejecuta {id}{about} en cuanto termine la entrega en curso; el resultado se publicará {where}.",
    "run.here": "en esta sala",
    "run.channel": "en su canal",
    "error": "No se pudo hacer: {message}",
    "updated": "Cambio guardado en {id}{about}: {when}. {now}",
    "paused": "{id}{about} queda en pausa; no se ejecutará hasta que se reanude. {now}",
    "paused.held": (
        "{id}{about} queda en pausa; no se ejecutará hasta que se reanude, pero la ejecución que retienen las "
        "horas de silencio se publica igualmente al terminar, {until}. {now}"
    ),
    "resumed": "Se reanuda {id}{about}: {when}. {now}",
    "ended_while_paused": (
        "{id} llegó a su fin (`until` o `count`) mientras estaba en pausa: queda completado y no volverá a "
        "ejecutarse. {now}"
    ),
    "skipped": "Se omitirá la ejecución de {id}{about} del {skipped}; {when}. {now}",
    "snoozed": "Se pospone {id}{about} al {to}; {when}. {now}",
    "snoozed.once": "Se pospone {id}{about} al {to}{held}. {now}",
    "when.once": "el {next}",
    "when.once_none": "no volverá a ejecutarse",
    "when.once_due": "{at}, ya toca: su envío está en curso",
    "when.once_overdue": "{at}, aún sin entregar",
    "when.recurring": "{description}; la próxima, el {next}",
    "when.recurring_none": "{description}; no volverá a ejecutarse",
    "when.paused": "{description}; en pausa (resume_reminder la reanuda)",
    "when.paused_passed": "{description}; en pausa, y su hora ya pasó (snooze_reminder le da una nueva)",
    "quoted": "«{text}»",
    "date": "{weekday} {day} de {month}",
    "date_year": "{weekday} {day} de {month} de {year}",
    "when": "{date}, {clock}",
    "now_is": "Son las {clock} del {date} ({zone}).",
    "now_is_one": "Es la {clock} del {date} ({zone}).",
    "about_argument": "`{argument}`: {what}",
    "default_hour": "Sin hora del día: se entiende las {clock}.",
    # --- mensajes del chat y avisos ---
    "missed": "⏰ Recordatorio perdido para {user} (era para el {due}): {text}",
    "chat.release": "Recordatorios retenidos durante tus horas de silencio",
    "chat.reminder": "Recordatorio",
    "chat.task": "Tarea programada",
    "chat.action.snooze_reminder": "Posponer {minutes} min",
    "chat.action.skip_next": "Saltar la próxima",
    "chat.action.done_reminder": "Hecho",
    "chat.repeat_note": "Recordatorio {number} de {times} más, hasta que alguien pulse Hecho.",
    "chat.escalation": "⚠️ {who}Sin confirmar tras {times} recordatorio(s) a {user}: {text}",
    "done": "Confirmado {id}: sus repeticiones se detienen. {now}",
    "done_after": (
        "Confirmado {id}: sus repeticiones y cualquier aviso ya se habían publicado, así que no quedaba nada "
        "por llegar; la confirmación queda registrada en su ejecución. {now}"
    ),
    "done_nothing": ("{id} no tiene ahora ninguna ejecución que se repita (ya confirmada, o detenida). {now}"),
    "chat.agent_failed": "⚠️ {label}: {reason}",
    "agent.reported_error": "el agente respondió con un error",
    "agent.timeout": "el agente no respondió en {seconds} s",
    "agent.unreachable": "no se pudo contactar con el agente ({error})",
    "agent.unknown": "el agente {agent!r} no está en la lista de permitidos de este despliegue",
    "agent.failed": "el agente falló",
    "agent.unexpected_shape": "el agente respondió con una forma inesperada",
    "agent.not_json": "la respuesta del agente no era JSON",
    # --- rechazos: "error.<código>[.<variante>]" ---
    "error.invalid_request": "el evento debe ser un objeto JSON {{tool, arguments, context}}",
    "error.invalid_request.tool": "`tool` debe ser un texto no vacío",
    "error.invalid_request.unreadable": "no se pudo leer el evento",
    "error.missing_context": "falta `context` con room_id y user_id",
    "error.missing_context.required": "falta context.{name} (lo pone el bot, no el modelo)",
    "error.missing_context.printable": "context.{name} debe ser un texto corto e imprimible",
    "error.missing_context.room_form.discord": (
        "context.{name} {value!r} no es un id de canal de Discord (de 15 a 21 cifras)"
    ),
    "error.unknown_tool": "herramienta desconocida {tool!r}; herramientas: {tools}",
    "error.invalid_arguments": "{problems}",
    "error.invalid_arguments.not_json": "`arguments` es un texto que no es JSON válido",
    "error.invalid_arguments.too_deep": "`arguments` está anidado a demasiada profundidad",
    "error.invalid_arguments.not_object": "`arguments` debe ser un objeto JSON",
    "error.invalid_arguments.prompt_not_message": "es una llamada al agente: cambia su `prompt`, no `message`",
    "error.invalid_arguments.message_not_prompt": "es un recordatorio: cambia su `message`, no `prompt`",
    "error.invalid_arguments.agent_call_only": "`{field}` solo vale para llamadas al agente (cron_create)",
    "error.invalid_arguments.timeout": "timeout_seconds puede ser como mucho {limit}",
    "error.invalid_arguments.skip_holidays": (
        "`skip_holidays` {code!r} no es un calendario de festivos conocido: da un código de país ISO 3166-1 con "
        "una subdivisión opcional, como {forms}"
    ),
    "error.invalid_arguments.repeat_every": "`repeat_every` va en minutos, de {low} a {high} (0 deja de repetir)",
    "error.invalid_arguments.repeat_needs_every": "`repeat_times` y `escalate_to` necesitan `repeat_every`",
    "error.invalid_arguments.repeat_reminders_only": (
        "`repeat_every`, `repeat_times` y `escalate_to` solo se aplican a recordatorios (create_reminder)"
    ),
    "error.invalid_arguments.ends_recurring_only": (
        "`until`, `count`, `skip_holidays`, `business_days`, `business_day_of_month` y `on_holiday` solo se"
        " aplican a programaciones periódicas (`cron`, `cron_expr`)"
    ),
    "error.invalid_arguments.until_before_first": (
        "nunca se dispararía antes de su fin ({until}): da un `until` posterior"
    ),
    "error.invalid_arguments.until_before_first_holidays": (
        "nunca se dispararía antes de su fin ({until}): da un `until` posterior (o menos festivos)"
    ),
    "error.invalid_arguments.never_within": (
        "nunca se dispararía en los próximos {years} años: todas sus ejecuciones caen en festivos de {calendar}"
    ),
    "error.invalid_arguments.never_within_business": (
        "nunca se dispararía en los próximos {years} años: todas sus ejecuciones caen en fin de semana o en"
        " festivos de {calendar}, y `business_days` deja solo los días laborables"
    ),
    "error.invalid_arguments.needs_calendar": (
        "`{field}` necesita un calendario de festivos: da también `skip_holidays` (como {forms})"
    ),
    "error.invalid_arguments.business_day_of_month": (
        "`business_day_of_month` va de 1 a 23, o -1 para el último; con él, `cron` da solo las horas del día "
        "(campos de día `*`, como '0 9 * * *'), y no se combina con cada N semanas o días"
    ),
    "error.invalid_arguments.ends_drop_snooze": (
        "{id} tiene una vez pospuesta a {to}, que el nuevo final no llegaría a enviar: elige un final más"
        " tardío, u omite antes esa vez (skip_next con su occurrence)"
    ),
    "error.invalid_arguments.count_reached": (
        "ya ha entregado {delivered} ejecución(es): `count` debe ser mayor, o 0 para no tener límite"
    ),
    "error.too_long": "{problems}",
    "error.invalid_time": "No entiendo la hora {text!r}. Las formas aceptadas más parecidas:{forms}",
    "error.invalid_time.because": "No entiendo la hora {text!r}: {reason}. Las formas aceptadas más parecidas:{forms}",
    "error.invalid_time.repeats": (
        "{text!r} se repite: envíalo como `cron` (o añade `recurring: true`) para crear un recordatorio periódico"
    ),
    "error.time_in_past": "esa hora ({when}) ya ha pasado: ahora es {now}",
    "error.time_in_past.words": "{text!r} nombra un momento pasado: ahora es {now}",
    "error.time_in_past.new_zone": "esa hora local ya ha pasado en la nueva zona",
    "error.time_in_past.while_paused": "su hora pasó mientras estaba en pausa; usa snooze_reminder para fijar otra",
    "error.time_in_past.already": "esa hora ya ha pasado",
    "error.invalid_cron": (
        "No entiendo la programación {source!r}: {reason}. Usa cron de cinco campos "
        "(MIN HORA DÍA-DEL-MES MES DÍA-DE-LA-SEMANA, p. ej. '0 9 * * 1-5'), una macro "
        "(@hourly @daily @weekly @monthly @yearly) o una frase como 'todos los días a las 9', "
        "'todos los lunes a las 10', 'de lunes a viernes a las 8', 'cada 15 minutos', "
        "'el primer lunes de cada mes a las 9', 'el último día de cada mes a las 20:00', "
        "'cada dos semanas el lunes a las 10', 'cada 2 semanas los martes y jueves a las 9', "
        "'lunes por medio a las 10', 'cada 3 días a las 9', 'día por medio a las 8', "
        "'cada 3 meses el día 1 a las 9'; cron admite también "
        "L (último día del mes), 1#1 (primer lunes) y L5 (último viernes)."
    ),
    "error.never_fires": "La programación {source!r} nunca se ejecuta: esos días no existen en esos meses.",
    "error.too_frequent": (
        "La programación {source!r} se ejecuta con solo {gap} min de separación; el mínimo es {minimum} min."
    ),
    "error.too_frequent.manual_run": (
        "{id} se ejecutó a mano a las {last}; run_now ejecuta una programación "
        "como mucho una vez cada {minutes} minutos"
    ),
    "error.invalid_timezone": (
        "Zona horaria desconocida {zone!r}: usa un nombre IANA como 'Europe/Madrid' o 'America/New_York'."
    ),
    "error.invalid_timezone.abbreviation": (
        "{zone!r} es una abreviatura, no un lugar: su hora no es la del lugar todo el año. Usa el nombre IANA"
        " del lugar, como {place!r}."
    ),
    "error.limit_reached": "esta sala ya tiene {limit} programaciones activas; elimina una primero",
    "error.limit_reached.change": "esta sala está en su límite de programaciones activas",
    "error.not_found": "no hay ninguna programación activa {ref!r} en esta sala",
    "error.not_found.status": "no hay ninguna programación activa {ref!r} en esta sala (su estado es `{status}`)",
    "error.not_found.deleted": "{id} se eliminó",
    "error.not_found.ended": "el estado de {id} es `{status}`: ya no se ejecuta",
    "error.not_found.no_longer_active": "{id} ya no está activo",
    "error.ambiguous": "hay {count} programaciones llamadas {name!r}; usa un id",
    "error.duplicate": "ya existe una programación idéntica: {id}",
    "error.invalid_state": "{id} ya está en pausa",
    "error.invalid_state.not_paused": "{id} no está en pausa",
    "error.invalid_state.skip_one_shot": (
        "skip_next vale para programaciones periódicas activas; elimina una programación de una sola vez"
    ),
    "error.invalid_state.not_running": (
        "el estado de {id} es `{status}`: reanúdala primero (resume_reminder) y después ejecútala"
    ),
    "error.invalid_state.skip_paused": "{id} está en pausa y no tiene nada próximo que omitir: reanúdala primero",
    "error.invalid_state.nothing_to_skip": "no tiene ninguna ejecución próxima que omitir",
    "error.invalid_state.nothing_to_snooze": (
        "el estado de {id} es `{status}`: no tiene ninguna ejecución próxima que posponer"
    ),
    "error.invalid_state.snooze_paused": (
        "{id} está en pausa: reanúdalo antes con resume_reminder (su próxima hora es el {when})"
    ),
    "error.invalid_state.occurrence_past": "la ejecución de {id} del {when} ya pasó: ya no hay nada que omitir ahí",
    "error.invalid_state.occurrence_held": (
        "la ejecución de {id} de {when} la retienen las horas de silencio hasta {until}, cuando se publica; "
        "pospónla después"
    ),
    "error.invalid_state.occurrence_not_delivered": (
        "la ejecución de {id} del {when} no se entregó ({outcome}): no hay nada que volver a recordar"
    ),
    "error.invalid_state.occurrence_superseded": (
        "a {id} ahora le toca el {next}, no esa ejecución: posponlo sin `occurrence` para mover esa hora"
    ),
    "error.invalid_arguments.occurrence": ("`occurrence` {text!r} no es un instante RFC3339 como 2026-12-07T09:00:00Z"),
    "error.invalid_arguments.not_an_occurrence": "{id} no tiene ninguna ejecución el {when}",
    "error.invalid_arguments.occurrence_on_its_way": (
        "la ejecución de {id} del {when} vence ahora y está en camino, sin publicar aún: pospónla cuando se publique"
    ),
    "error.invalid_arguments.payload": "esto no es el contenido de un botón de cronbell",
    "error.invalid_arguments.payload_minutes": (
        "un botón de posponer lleva sus minutos: un número entero de 1 a 99999"
    ),
    "error.invalid_arguments.payload_fields": "el contenido del botón tiene campos que no le corresponden",
    "error.invalid_arguments.payload_occurrence": "la ejecución que nombra el botón no es un instante válido",
    "error.invalid_arguments.payload_canonical": (
        "el contenido del botón no está escrito de la única forma en que lo escribe cronbell"
    ),
    "error.invalid_time.snooze_not_later": (
        "posponer es retrasar: el {to} no es posterior a la ejecución que mueve (el {when}); "
        "usa update_reminder para adelantarla"
    ),
    "error.invalid_time.snooze_past_until": (
        "{id} termina el {until}: no se puede posponer una ejecución más allá de su fin; posponla a una hora "
        "anterior, o cambia antes el fin con update_reminder (`until`)"
    ),
    "error.invalid_time.snooze_past_count": (
        "{id} termina tras {count} ejecuciones y el {to} cae después de la última: posponla a una hora "
        "anterior, o aumenta antes `count` con update_reminder"
    ),
    "error.unknown_agent": "agente desconocido {agent!r}; permitidos: {known}",
    "error.unknown_agent.unnamed": "no se nombró ningún agente: pasa `target_agent` (permitidos: {known})",
    "error.unknown_agent.none": "agente desconocido {agent!r}; no hay ninguno configurado",
    "error.busy": (
        "esta programación se está entregando ahora mismo; inténtalo de nuevo cuando su mensaje esté en la sala"
        " (una llamada a un agente puede tardar hasta su tiempo límite, minutos)"
    ),
    "error.busy.one_shot_due": "{id} vence ahora ({when}): su propio disparo la publica una vez, sin otra ejecución",
    "error.busy.last_occurrence_due": "{id} publica ahora su última ejecución ({when}); una vez, y termina",
    "error.busy.ends_on_due": (
        "{id} publica ahora una ejecución ({when}) que este cambio haría la última; "
        "pídelo de nuevo cuando se haya publicado"
    ),
    "error.name_taken": "otra programación de esta sala se llama {name!r} ({id}); elige otro nombre",
    "error.forbidden_channel.escalation": (
        "escalate_to {target!r} no es un usuario a mencionar (@...) ni una sala que el despliegue permita como salida"
    ),
    "error.forbidden_channel": (
        "las respuestas pueden ir a esta sala o a una sala que el despliegue permita como salida"
    ),
    "platform_gone": "su sala está en {platform}, que este despliegue ya no configura",
    "error.unknown_platform": "context.platform {platform!r} no está configurada aquí; configuradas: {configured}",
    "error.backend_error": "el almacén de programaciones no responde; inténtalo de nuevo en un momento",
    "error.backend_error.delivering": "esta programación se está entregando ahora mismo; inténtalo en un minuto",
    "error.backend_error.not_deleted": "no se pudo eliminar la programación; no ha cambiado nada",
    "error.backend_error.not_started": "no se pudo iniciar la ejecución",
    "error.backend_error.changed_meanwhile": "ha cambiado mientras tanto; inténtalo de nuevo",
    "error.backend_error.changed_list": "ha cambiado mientras tanto; consulta la lista e inténtalo de nuevo",
    "error.backend_error.not_saved_change": "no se pudo guardar el cambio; no ha cambiado nada",
    "error.backend_error.conflicting": "se está cambiando una programación en conflicto; inténtalo de nuevo",
    "error.backend_error.not_created": "no se pudo guardar la programación; no se ha creado nada",
    "error.internal_error": "error interno; consulta la lista de programaciones para ver qué hay",
    "error.internal_error.run_now": "run_now no está configurado en este despliegue",
    # rechazos de los adaptadores de entrada (grupos de acciones de Bedrock Agents, destinos de AgentCore Gateway)
    "error.invalid_request.no_function": (
        "el evento no tiene `function`: solo se admiten grupos de acciones definidos con detalles de función"
    ),
    "error.invalid_request.openapi_schema": (
        "este grupo de acciones está definido con un esquema OpenAPI (apiPath {path!r}), que cronbell no lee, "
        "así que no se ha hecho nada: defínelo con detalles de función (functionSchema)"
    ),
    "error.invalid_request.parameters": "`parameters` debe ser una lista de {{name, type, value}}",
    "error.invalid_request.parameter_name": "cada parámetro necesita un `name`",
    "error.invalid_request.tool_name": "el {field} del contexto de cliente está vacío",
    "error.invalid_arguments.parameter": "parámetro `{name}` ({kind}): {value!r} {why}",
    "error.invalid_arguments.given_twice": "el parámetro `{name}` se dio dos veces",
    "error.invalid_arguments.both_ways": "`{name}` se dio a la vez como parámetro y dentro de `{options}`",
    "error.missing_context.session": (
        "a sessionAttributes le falta {missing}: el código del bot debe poner room_id y user_id "
        "en sessionState.sessionAttributes de InvokeAgent"
    ),
    "error.missing_context.user_not_pinned": "MCP_ROOM_ID está definido pero MCP_USER_ID no: define los dos",
    "error.missing_context.headers_missing": (
        "no llegó {headers} (deben llegar las dos cabeceras, `X-Cronbell-Room-Id` y `X-Cronbell-User-Id`): permítelas"
        " en metadataConfiguration.allowedRequestHeaders del destino y envíalas desde el cliente MCP del bot"
    ),
    "error.missing_context.header_twice": (
        "la cabecera `{name}` llegó más de una vez (dos grafías, o una lista separada por comas): envíala una "
        "sola vez; el interceptor del gateway debe sobrescribirla, no añadirla"
    ),
    "error.missing_context.not_configured": (
        "este destino del gateway no pasa ninguna sala ni usuario de confianza. Configura una de dos: define "
        "MCP_ROOM_ID y MCP_USER_ID en la función (un destino por sala), o permite `X-Cronbell-Room-Id` y "
        "`X-Cronbell-User-Id` en metadataConfiguration.allowedRequestHeaders del destino, haz que el cliente "
        "MCP del bot las envíe y define MCP_TRUST_PROPAGATED_HEADERS=true en la función"
    ),
    # --- problemas de los argumentos, campo a campo ---
    "problem": "`{where}`: {what}",
    "problem.as_given": "{text}",
    "problem.or": " o ",
    "problem.control_character": "no puede contener caracteres de control ({code})",
    "problem.line_break": "debe ser una sola línea (sin saltos de línea)",
    "problem.bidi_control": (
        "no puede contener caracteres que reordenen el texto: una anulación, una incrustación o un aislamiento "
        "sin pareja ({code})"
    ),
    "problem.invisible": "no puede estar vacío (solo tiene caracteres invisibles)",
    "problem.not_unicode": "debe ser un texto válido; no se pudo leer como texto unicode",
    "problem.one_of": "debe ser {allowed}",
    "problem.string": "debe ser un texto",
    "problem.min_length_one": "no puede estar vacío",
    "problem.min_length": "el texto debe tener al menos {n} caracteres",
    "problem.max_length_one": "el texto debe tener como mucho {n} carácter",
    "problem.max_length": "el texto debe tener como mucho {n} caracteres",
    "problem.boolean": "debe ser un booleano (true o false)",
    "problem.integer": "debe ser un número entero",
    "problem.at_least": "debe ser mayor o igual que {n}",
    "problem.at_most": "debe ser menor o igual que {n}",
    "problem.list": "debe ser una lista",
    "problem.max_items": "la lista debe tener como mucho {n} elementos, no {count}",
    "problem.required": "falta este campo",
    "problem.key_type": "las claves deben ser textos",
    "problem.extra": "no se admiten campos de más",
    # reglas entre campos
    "rule.exactly_one.time.cron": "da exactamente uno de `time` (una vez) o `cron` (periódico)",
    "rule.refused_with.recurring.cron": "`cron` es periódico; usa `time` para un recordatorio de una sola vez",
    "rule.exactly_one.cron_expr.fire_at": (
        "da exactamente uno de `cron_expr` (periódico) o `fire_at` (RFC3339, una vez)"
    ),
    "rule.refused_with.recurring.fire_at": "`fire_at` se ejecuta una vez; usa `cron_expr` para una tarea periódica",
    (
        "rule.at_least_one.message.prompt.time.cron.timezone.target_agent.channel.name.until.count.skip_holidays"
        ".business_days.business_day_of_month.on_holiday"
        ".repeat_every.repeat_times.escalate_to"
    ): (
        "da al menos un campo que cambiar: `message`, `prompt`, `time`, `cron`, `timezone`, `target_agent`, "
        "`channel`, `name`, `until`, `count`, `skip_holidays`, `business_days`, `business_day_of_month`, `on_holiday`, "
        "`repeat_every`, `repeat_times`, `escalate_to`"
    ),
    "rule.at_most_one.time.cron": "da `time` (una vez) o `cron` (periódico), no ambos",
    "rule.exactly_one.minutes.until": "da exactamente uno de `minutes` o `until`",
    # --- motivos dentro de los rechazos ---
    "reason.not_whole_number": "no es un número entero",
    "reason.not_a_number": "no es un número",
    "reason.too_many_digits": "tiene demasiadas cifras para ser el valor de un argumento",
    "reason.too_deep": "está anidado a demasiada profundidad",
    "reason.not_finite": "no es un número finito",
    "reason.not_boolean": "no es true ni false",
    "reason.not_list": "no es una lista",
    "reason.not_json": "no es JSON válido ({error!r}); envía un objeto como {example}",
    "reason.not_an_object": "no es un objeto JSON como {example}",
    "reason.given_twice": "se dio dos veces",
    "reason.empty": "vacía",
    "reason.no_clock": "falta la hora del día",
    "reason.too_far": "demasiado lejos",
    "reason.not_day_month": "{text!r} no es una fecha día/mes; escribe el mes con letras",
    "reason.not_month_day": "{text!r} no es una fecha mes/día; escribe el mes con letras",
    "reason.weekday_mismatch": "esa fecha no es {weekday}",
    "reason.no_such_day": "ese día no existe",
    "reason.twice": "nombra dos veces un día o una hora",
    "reason.position": "el puesto de un día en un mes (el primer lunes de junio) no se lee como una fecha",
    "reason.day_missing": "indica también el día del mes",
    "reason.zone_ambiguous": "{zone} nombra más de una zona horaria ({zones}); di la ciudad o el desfase (UTC+05:30)",
    "reason.zone_offset": "{zone} no es un desfase respecto a UTC; escribe uno como UTC+05:30",
    "reason.holiday_no_country": "{name} es una fiesta de un país: indica la zona horaria de una ciudad o di la fecha",
    "reason.holiday_not_there": "{name} no es una fiesta en {country}; di la fecha",
    "reason.holiday_unknown": "{name} no es una fiesta conocida en {country}; di la fecha",
    "reason.day_or_hour": (
        "{number} puede ser el día del mes o la hora; escribe 'el día {number}' para el día o 'a las {number}' "
        "para la hora"
    ),
    "reason.past": "nombra un momento pasado; un recordatorio necesita una hora futura",
    "reason.weekday_missing": "indica también el día de la semana (el viernes de la semana que viene)",
    "reason.date_or_clock": (
        "{text} puede ser una fecha o una hora; escribe 'a las {text}' para la hora, o el mes con letras para la fecha"
    ),
    # el tipo declarado de un parámetro de Bedrock, nombrado en su rechazo
    "type.integer": "entero",
    "type.number": "número",
    "type.boolean": "booleano",
    "type.array": "lista",
    "type.json_object": "objeto JSON",
    "cron.unknown_macro": "macro desconocida {macro!r}",
    "cron.eventbridge": "eso es sintaxis de EventBridge; da cron estándar de cinco campos",
    "cron.unreadable": "no es una expresión cron ni una frase conocida",
    "cron.said_apart": "'{schedule}' se entiende; cuándo termina va en `until` (una fecha) o `count` (cuántas"
    " veces), los festivos en `skip_holidays`; una fecha de inicio solo tras cada N semanas, días o meses"
    " ('... desde el 2026-12-14')",
    "cron.needs_time": "indica los días pero no la hora; añade una, p. ej. '{days} a las 9'",
    "cron.window": (
        "las horas deben ir de la primera a otra más tarde del mismo día (entre las 9 y las 17): un intervalo no"
        " pasa de la medianoche; para uno que sí, crea dos programaciones (de 22 a 24, y de 0 a 2)"
    ),
    "cron.hours_divide": (
        "cada N horas necesita que N divida 24 (1, 2, 3, 4, 6, 8, 12), o las horas entre las que va "
        "('cada 5 horas de 8 a 20'): otro ciclo no caería a las mismas horas cada día"
    ),
    "cron.minutes_divide": "cada N minutos necesita que N divida 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30): "
    "otro ciclo no caería en los mismos minutos cada hora (cron tampoco puede decirlo)",
    "cron.not_a_value": "{token!r} no es un valor válido de {field}",
    "cron.out_of_range": "{field} {value} está fuera del rango {lo}-{hi}",
    "cron.bad_item": "{item!r} no es un elemento válido de {field}",
    "cron.bad_step": "el paso {step!r} en el campo {field} debe ser 1-99",
    "cron.question_mark": "'?' solo se admite a solas en un campo de día",
    "cron.backwards": "el rango {range} en el campo {field} va hacia atrás",
    "cron.field_count": "se esperaban exactamente cinco campos, hay {count}",
    "cron.position_field": "{item!r} en el campo {field} necesita * en el otro campo de día",
    "cron.interval_weeks": (
        "cada N semanas necesita días de la semana y una hora, p. ej. 'cada 2 semanas los lunes y jueves a las 9'"
    ),
    "cron.interval_days": "cada N días necesita solo una hora del día, p. ej. 'cada 3 días a las 9'",
    "cron.interval_count": "N debe estar entre 1 y {most}",
    "cron.interval_months": "cada N meses necesita días del mes y una hora, p. ej. 'cada 3 meses el día 1 a las 9'",
    "cron.months_divide": "cada N meses necesita que N divida 12 (1, 2, 3, 4, 6, 12): otro ciclo no "
    "caería en los mismos meses cada año",
    "cron.start_needs_interval": "una fecha de inicio solo va con cada N semanas, días o meses",
    "cron.bad_start": "{start!r} no es una fecha de inicio (2000-2199)",
    "cron.two_schedules": "'{first}' y '{second}' son dos programaciones: crea un recordatorio para cada una",
    "cron.zone_apart": (
        "'{schedule}' se entiende; su zona horaria ({zone}) va en `timezone`, como nombre IANA de un lugar"
        " ({place}, Europe/Madrid, UTC)"
    ),
    "cron.one_minute": (
        "sus horas ({times}) caen en minutos distintos, y una programación va en un solo minuto de cada hora que"
        " nombra: crea un recordatorio para cada hora"
    ),
    "cron.one_place": (
        "una programación va en un solo lugar de un día de la semana en el mes ('el segundo martes de cada mes a"
        " las 10'); para dos, crea un recordatorio para cada uno"
    ),
    "cron.days_for_weeks": (
        "¿cada {days} días exactos o {weeks}? di '{weeks} los lunes a las 9' o 'cada {exact} días a las 9'"
    ),
    "field.minute": "minuto",
    "field.hour": "hora",
    "field.day_of_month": "día del mes",
    "field.month": "mes",
    "field.day_of_week": "día de la semana",
    # --- notas en las respuestas ---
    "note.nonexistent": (
        "La hora {wall} no existe en {zone} (cambio de hora: se adelantan los relojes); se usa {clock} ({offset})."
    ),
    "note.ambiguous": (
        "La hora {wall} ocurre dos veces en {zone} (cambio de hora: se atrasan los relojes); "
        "se usa la primera ({offset})."
    ),
    "note.second_occurrence": "La hora {wall} ocurre dos veces en {zone}; esta es la segunda ({offset}).",
    "note.twelve_hour": (
        "{said} no dice mañana ni tarde: leído como {clock}, el próximo {said} en un reloj de 12 horas "
        "(di de la mañana, de la tarde o la hora en 24 horas para elegir)."
    ),
    "note.zone": "{said} son las {clock} en {zone}.",
    "note.zone_of_schedule": (
        "El horario va en {zone}, la zona que nombra: sus horas son las de esa zona todo el año. Su primera"
        " vez es {local} en {own}."
    ),
    "note.skip_dropped": (
        "Una hora nueva empieza de cero: ya no se omite la vez de {when} (omítela otra vez si aún quieres)."
    ),
    "note.snooze_dropped": (
        "Una hora nueva empieza de cero: ya no hay aplazamiento a {when} (vuelve a aplazarla si aún quieres)."
    ),
    "note.now_once": (
        "Con `time` se ejecuta una sola vez: su repetición ({description}) y su final, recuento o calendario"
        " de festivos desaparecen (da `cron` para que siga repitiéndose)."
    ),
    "note.holiday": "{name} en {country}: {date}.",
    "note.afternoon_hour": (
        "{said} no dice mañana ni tarde: leído como {clock} (una hora de 1 a 5 con un día es de la tarde; "
        "di de la madrugada o la hora en 24 horas para la noche)."
    ),
    "note.no_year": "Sin año: se entiende {year}.",
    "note.midnight_day": (
        "Medianoche con un día se entiende al empezar ese día, {date} {clock} (di 23:59 para su final)."
    ),
    "note.night_after": "La noche del {night} se entiende pasada la medianoche: {date} {clock}.",
    "note.day_first": "{said} se entiende con el día primero, como {date} (escribe el mes con letras para elegir).",
    "note.month_first": "{said} se entiende con el mes primero, como {date} (escribe el mes con letras para elegir).",
    "note.seconds": "{said}: se omiten los segundos, los recordatorios suenan al minuto ({clock}).",
    "note.weekday_day_later": (
        "se entiende como {date}, la próxima fecha que es a la vez ese día de la semana y ese día del mes; la "
        "más cercana, {nearer}, es otro día de la semana."
    ),
    "note.snooze_takes_count": (
        "Un aviso pospuesto cuenta para `count` ({count}): la ejecución del {when} ya no llega, porque la cuenta "
        "se agota."
    ),
    "note.snooze_takes_count.more": (
        "Un aviso pospuesto cuenta para `count` ({count}): la ejecución del {when} y {more} más después ya no "
        "llegan, porque la cuenta se agota."
    ),
    "note.short_months": (
        "No hay día {day} en {months}, así que entonces no se ejecuta («el último día del mes» se ejecuta al "
        "final de cada mes)."
    ),
    "note.february_but_leap": "febrero (salvo en años bisiestos)",
    "note.tomorrow_small_hours": (
        "Son las {time}, pasada la medianoche: 'mañana' se entiende como {date}; para hoy, di 'hoy a las {clock}'."
    ),
    "note.day_skipped": "No hay un día {day} antes: el próximo es el {date}.",
    "note.month_end": "Ese mes no tiene día {day}: se usa su último día, el {date}.",
    "note.days_for_weeks": "'{said}' se entiende como {days} días ({date}); para {weeks} di '{weeks}'.",
    "note.until_kept": (
        "Su fin sigue siendo el mismo instante: {was} en la zona anterior es {there} en {zone}; vuelve a dar "
        "`until` para terminarla en un día de la zona nueva."
    ),
    "note.day_number": (
        "{number} se entiende como el día del mes ({date}), no la hora; di 'a las {number}' para la hora."
    ),
    "note.evening_twelve": "{said} de la noche se entiende como las {clock}, a medianoche o después.",
    "note.holiday_elsewhere": "{name} no es festivo en {home}: se usa su fecha en {country}, {date}.",
    "note.recurring_once": (
        "'{said}' se repite: se entiende la próxima vez, {date}; pide un recordatorio periódico para que avise siempre."
    ),
    "note.dst_forward_one": (
        "El {day} en {zone} los relojes se adelantan de {old} a {new}: la ejecución de las {clocks} no ocurre "
        "ese día (Scheduler omite una hora local que no existe)."
    ),
    "note.dst_forward_many": (
        "El {day} en {zone} los relojes se adelantan de {old} a {new}: las ejecuciones de las {clocks} no "
        "ocurren ese día (Scheduler omite una hora local que no existe)."
    ),
    "note.dst_back_one": (
        "El {day} en {zone} los relojes se atrasan de {new} a {old}: las {clocks} ocurren dos veces y la "
        "programación se ejecuta una sola vez, en la primera ({offset})."
    ),
    "note.dst_back_many": (
        "El {day} en {zone} los relojes se atrasan de {new} a {old}: las {clocks} ocurren dos veces y cada una "
        "se ejecuta una sola vez, en la primera ({offset})."
    ),
    # --- fines y calendarios ---
    "ends.until": "hasta el {date}",
    "ends.count": "{count} veces",
    "ends.count_one": "una vez",
    "ends.holidays": "salvo festivos de {calendar}",
    "ends.business_days": "en días hábiles de {calendar}",
    "ends.calendar": "días hábiles de {calendar}",
    "preview.business_day": "el día hábil {n} del mes a las {clocks}",
    "preview.business_day_last": "el último día hábil del mes a las {clocks}",
    "ends.moved_before": "pasa al día hábil anterior cuando cae en un día no hábil",
    "ends.moved_after": "pasa al día hábil siguiente cuando cae en un día no hábil",
    # --- vistas previas ---
    "now": "{date}, {clock} ({zone}, {offset})",
    "preview.and": " y ",
    "preview.at": "el {date} a las {clock} ({zone})",
    "preview.at_one": "el {date} a la {clock} ({zone})",
    "preview.at_clocks": "a las {clocks}",
    "preview.at_clocks_one": "a la {clocks}",
    "preview.every_minute": "cada minuto",
    "preview.every_n_minutes": "cada {n} minutos",
    "preview.on_the_hour": "en punto",
    "preview.at_minute": "en el minuto {listed}",
    "preview.at_minutes": "en los minutos {listed}",
    "preview.every_hour": "cada hora {minutes}",
    "preview.every_n_hours": "cada {n} horas {minutes}",
    "preview.between": "{minutes} entre las {first} y las {last}",
    "preview.during_hours": "{minutes} durante las horas {hours}",
    "preview.monday_to_friday": "de lunes a viernes",
    "preview.every_day_from_to": "de {first} a {last}",
    "preview.every_day_except": "todos los días salvo los {days}",
    "preview.from_to": "de {first} a {last}",
    "preview.on_weekday": "todos los {days}",
    "preview.on_weekdays": "los {days}",
    "preview.yearly": "cada año el {day} de {month}",
    "preview.of_every_month": "de cada mes",
    "preview.of_months": "de {months}",
    "preview.on_day": "el día {days} {where}",
    "preview.on_days": "los días {days} {where}",
    "preview.in_months": " de {months}",
    "preview.every_day": "todos los días",
    "preview.last_day": "el último día {where}",
    "preview.nth_weekday": "el {nth} {weekday} {where}",
    "preview.every_n_weeks": "cada {n} semanas, los {days} {time}",
    "preview.every_n_days": "cada {n} días {time}",
    "preview.from_start": ", desde el {date}",
    # --- runs ---
    "run_failing": "⚠️ {name} ha fallado ({reason}). No se avisará de más fallos hasta que vuelva a funcionar.",
    "run_failed_once": "⚠️ {name} ha fallado ({reason}).",
    "run_recovered": "✅ {name} vuelve a funcionar.",
    "run_paused": "⏸️ {name} ha fallado {count} veces seguidas y está en pausa. Reanúdalo con resume_reminder {id}.",
    "run_paused.elsewhere": (
        "⏸️ {name} ha fallado {count} veces seguidas y está en pausa. Se puede reanudar desde la sala donde se creó."
    ),
    "late_note": "(con retraso: era para el {due})",
    "history": "{count} ejecuciones de {id}, de la más reciente a la más antigua: {items}. {now}",
    "history_one": "Una ejecución de {id}: {items}. {now}",
    "history_more": (
        "{count} ejecuciones de {id}, de la más reciente a la más antigua; las {shown} primeras: {items}; "
        "el resultado las incluye todas. {now}"
    ),
    "history_none": "{id} aún no tiene ninguna ejecución. {now}",
    "history.item": "{when}: {outcome}",
    "history.item_reason": "{when}: {outcome} (`{reason}`)",
    "history.manual": "{item}, iniciada a mano (run_now)",
    "outcome.delivered": "entregada",
    "outcome.failed": "fallida",
    "outcome.skipped": "omitida",
    "outcome.missed": "perdida",
}

LISTS: dict[str, tuple[str, ...]] = {
    "weekdays": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    "weekdays_every": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábados", "domingos"),
    "months": (
        "enero", "febrero", "marzo", "abril", "mayo", "junio",
        "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
    ),
    "ordinals": ("primer", "segundo", "tercer", "cuarto", "quinto", "último"),
    # la fecha numérica de las formas aceptadas, en cada orden: mes primero, día primero
    "numeric_date_forms": ("12/24 a las 20:00 (mes/día)", "24/12 a las 20:00 (día/mes)"),
    "accepted_forms": (
        "2026-12-31T23:59:00Z (RFC3339 con desfase)",
        "2026-12-31 23:59 / 2026-12-31",
        "23:59 (hoy, o mañana si ya ha pasado) / 7:56 pm / a las 17h / a mediodía",
        "en 30 minutos / en una hora / dentro de dos semanas / en 90 segundos / dentro de 2 años",
        "mañana a las 9 / mañana a las 9:30 / hoy a las 18:00 / pasado mañana a las 9",
        "el lunes a las 10 / el próximo lunes a las 10 / el viernes / el martes 8 a las 9",
        "el 1 de diciembre a las 9 / el día 5 a las 9 / 24/12 a las 20:00 (día/mes)",
        "mañana por la mañana / esta tarde / esta noche a las 10 / al final del día / el último día del mes a las 9",
        "el viernes de la semana que viene / el 1 del mes que viene / las nueve menos cuarto / 3 de marzo de 2027",
        "dentro de 3 días a las 9 (un día sin hora: 09:00; mañana 09:00, tarde 15:00, noche 21:00, "
        "final del día 18:00; una hora de 1 a 12 sola, sin «de la tarde» ni pm, es la próxima de sus dos "
        "lecturas, dentro de 12 horas; con un día, de 1 a 5 es de la tarde)",
        "a las 17:00 CET / a las 10 hora de Madrid / Nochebuena / el día de la madre / el primer lunes de junio",
        "5 días después del lunes / al final del viernes / el miércoles 14 / 5 del 12 / las 18:15:45 / "
        "el día 21 de cada mes a las 10",
    ),
}  # fmt: skip

# Lo que dice en lugar de cada texto de arriba que nombra una herramienta que no muestra un despliegue que
# muestra a su modelo un conjunto menor (TOOL_SET): qué hacer con las que sí muestra.
BY_TOOL_SET: dict[str, dict[str, str]] = {
    "essential": {
        "when.paused": "{description}; en pausa (estas herramientas no la reanudan: elimínala y créala de nuevo)",
        "when.paused_passed": (
            "{description}; en pausa, y su hora ya pasó (elimínala y créala de nuevo con otra hora)"
        ),
        "error.invalid_arguments.ends_drop_snooze": (
            "{id} tiene una vez pospuesta a {to}, que el nuevo final no llegaría a enviar: elige un final más"
            " tardío, o cambia el final cuando esa vez se haya enviado"
        ),
        "error.time_in_past.while_paused": (
            "su hora pasó mientras estaba en pausa; elimínala y créala de nuevo con otra hora"
        ),
        "error.invalid_state.not_running": (
            "el estado de {id} es `{status}`; estas herramientas no la reanudan: elimínala y créala de nuevo, y"
            " después ejecútala"
        ),
        "error.invalid_state.skip_one_shot": (
            "solo una programación periódica activa puede omitir una vez; elimina una programación de una sola vez"
        ),
        "error.invalid_state.snooze_paused": (
            "{id} está en pausa y no tiene nada próximo que posponer (su próxima hora es el {when}); estas "
            "herramientas no lo reanudan: elimínalo y créalo de nuevo"
        ),
        "run_paused": (
            "⏸️ {name} ha fallado {count} veces seguidas y está en pausa ({id}). Para que vuelva a ejecutarse, "
            "elimínalo y créalo de nuevo."
        ),
    },
}
