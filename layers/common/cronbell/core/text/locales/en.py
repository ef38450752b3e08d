"""English: every sentence cronbell says. Keys are shared by every catalog; values are `str.format`
templates whose fields every catalog uses alike."""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # --- quiet hours ---
    "quiet.set": (
        "Your quiet hours in this room are set: {start} to {end}, {days} ({zone}){next}. Reminders for "
        "you that fall in them are held and posted together when they end."
    ),
    "quiet.got": "Your quiet hours in this room: {start} to {end}, {days} ({zone}){next}.",
    "quiet.none": "You have no quiet hours in this room.",
    "quiet.cleared": "Your quiet hours in this room are cleared: reminders for you are posted at their time again.",
    "quiet.cleared_none": "You had no quiet hours in this room; nothing changed.",
    "quiet.every_day": "every day",
    "quiet.on_days": "starting on {days}",
    "quiet.next": "; the next from {start} to {end}",
    "quiet.held": "held by quiet hours until {until}",
    "quiet.held_earlier": "an earlier occurrence held by quiet hours until {until}",
    "quiet.exempt": "That time falls in your quiet hours: as you set it for then, it will be delivered anyway.",
    "error.invalid_arguments.quiet_clock": "`{argument}` must be a 24-hour time 'HH:MM', from 00:00 to 23:59",
    "error.invalid_arguments.quiet_same": "`{argument}` must differ from `start`",
    "error.invalid_arguments.quiet_no_days": "`{argument}` may not be empty: leave it out for every day",
    "error.invalid_arguments.quiet_days_twice": "`{argument}` names a day more than once",
    "error.invalid_arguments.quiet_zone": "`{argument}` {zone!r} is not an IANA zone such as 'Europe/Madrid'",
    # --- tool answers ---
    "created.message": "Scheduled reminder {id}{about}: {when}. {now}",
    "created.agent_call": "Scheduled agent call {id}{about}: {when}. {now}",
    "duplicate": "An identical schedule already exists, {id}{about}: {when}. {now}",
    "duplicate.differs": (
        "A schedule with the same action and time already exists, {id}{about}: {when}. Nothing was created, "
        "and it differs from this call in {fields}: to change that, call `update_reminder` with its id. {now}"
    ),
    "duplicate.differs_fixed": (
        "A schedule with the same action and time already exists, {id}{about}: {when}. Nothing was created, "
        "and it differs from this call in {fields}; `skills` and `timeout_seconds` are kept as they were "
        "made: delete it and create it again to change them. {now}"
    ),
    "listed": "{count} schedules in this room: {items}. {now}",
    "fitted.not_shown": (
        "{hidden} more are not in this answer, which must stay under {limit} KB: delete what is no longer needed,"
        " or name one to change it."
    ),
    "listed_one": "1 schedule in this room: {items}. {now}",
    "listed_more": "{count} schedules in this room; the first {shown}: {items}; the result lists them all. {now}",
    "listed_none": "No schedules in this room. {now}",
    "listed.item": "{id}{about}, {when}",
    "listed.next": "next {next}",
    "listed.paused": "paused",
    "listed.none": "no fire to come",
    "listed.ended": "`{status}`",
    "listed.ended_run": "`{status}`; last run {run}",
    "deleted": "Deleted {id}{about} ({when}). {now}",
    "run_started": "Running {id}{about} now; its result will be posted {where}.",
    "run_waiting": "Running {id}{about} as soon as its delivery under way ends; its result will be posted {where}.",
    "run.here": "in this room",
    "run.channel": "in its channel",
    "error": "Could not do that: {message}",
    "updated": "Updated {id}{about}: {when}. {now}",
    "paused": "Paused {id}{about}; it will not fire until resumed. {now}",
    "paused.held": (
        "Paused {id}{about}; it will not fire until resumed, but the occurrence quiet hours hold is still "
        "posted at their end, {until}. {now}"
    ),
    "resumed": "Resumed {id}{about}: {when}. {now}",
    "ended_while_paused": (
        "{id} reached its end (`until` or `count`) while it was paused: it is completed now, with no fire left. {now}"
    ),
    "skipped": "The occurrence of {id}{about} on {skipped} will be skipped; {when}. {now}",
    "snoozed": "Snoozed {id}{about} to {to}; {when}. {now}",
    "snoozed.once": "Snoozed {id}{about} to {to}{held}. {now}",
    "when.once": "{next}",
    "when.once_none": "it will not fire again",
    "when.once_due": "{at}, due now: its fire is under way",
    "when.once_overdue": "{at}, not delivered yet",
    "when.recurring": "{description}; next {next}",
    "when.recurring_none": "{description}; it will not fire again",
    "when.paused": "{description}; paused (resume_reminder turns it back on)",
    "when.paused_passed": "{description}; paused, and its time passed meanwhile (snooze_reminder gives it a new one)",
    "quoted": "“{text}”",
    "date": "{weekday} {day} {month}",
    "date_year": "{weekday} {day} {month} {year}",
    "when": "{date}, {clock}",
    "now_is": "Now it is {clock} on {date} ({zone}).",
    "now_is_one": "Now it is {clock} on {date} ({zone}).",
    "about_argument": "`{argument}`: {what}",
    "default_hour": "No time of day given: taken as {clock}.",
    # --- chat messages and notices ---
    "missed": "⏰ Missed reminder for {user} (it was due {due}): {text}",
    "chat.release": "Reminders held during your quiet hours",
    "chat.reminder": "Reminder",
    "chat.task": "Scheduled task",
    "chat.action.snooze_reminder": "Snooze {minutes} min",
    "chat.action.skip_next": "Skip next",
    "chat.action.done_reminder": "Done",
    "chat.repeat_note": "Reminder {number} of {times} more, until someone taps Done.",
    "chat.escalation": "⚠️ {who}Not acknowledged after {times} reminder(s) to {user}: {text}",
    "done": "Acknowledged {id}: its repeats stop. {now}",
    "done_after": (
        "Acknowledged {id}: its repeats and any escalation were all posted already, so nothing more was coming; "
        "the acknowledgement is recorded on its run. {now}"
    ),
    "done_nothing": "{id} has no occurrence repeating now (acknowledged already, or stopped). {now}",
    "chat.agent_failed": "⚠️ {label}: {reason}",
    "agent.reported_error": "the agent answered with an error",
    "agent.timeout": "the agent did not answer within {seconds} s",
    "agent.unreachable": "the agent could not be reached ({error})",
    "agent.unknown": "agent {agent!r} is not in this deployment's allowlist",
    "agent.failed": "the agent failed",
    "agent.unexpected_shape": "the agent answered in an unexpected shape",
    "agent.not_json": "the agent's answer was not JSON",
    # --- refusals: "error.<code>[.<variant>]", one or more per error code ---
    "error.invalid_request": "the event must be a JSON object {{tool, arguments, context}}",
    "error.invalid_request.tool": "`tool` must be a non-empty string",
    "error.invalid_request.unreadable": "the event could not be read",
    "error.missing_context": "`context` with room_id and user_id is required",
    "error.missing_context.required": "context.{name} is required (set by the bot, not the model)",
    "error.missing_context.printable": "context.{name} must be a short printable string",
    "error.missing_context.room_form.discord": "context.{name} {value!r} is not a Discord channel id (15 to 21 digits)",
    "error.unknown_tool": "unknown tool {tool!r}; tools: {tools}",
    "error.invalid_arguments": "{problems}",
    "error.invalid_arguments.not_json": "`arguments` is text that is not valid JSON",
    "error.invalid_arguments.too_deep": "`arguments` is nested too deeply",
    "error.invalid_arguments.not_object": "`arguments` must be a JSON object",
    "error.invalid_arguments.prompt_not_message": "this is an agent call: change its `prompt`, not `message`",
    "error.invalid_arguments.message_not_prompt": "this is a reminder: change its `message`, not `prompt`",
    "error.invalid_arguments.agent_call_only": "`{field}` applies to agent calls (cron_create) only",
    "error.invalid_arguments.timeout": "timeout_seconds can be at most {limit}",
    "error.invalid_arguments.skip_holidays": (
        "`skip_holidays` {code!r} is not a known holiday calendar: give an ISO 3166-1 country code with an "
        "optional subdivision, such as {forms}"
    ),
    "error.invalid_arguments.repeat_every": "`repeat_every` is in minutes, from {low} to {high} (0 stops repeating)",
    "error.invalid_arguments.repeat_needs_every": "`repeat_times` and `escalate_to` need `repeat_every`",
    "error.invalid_arguments.repeat_reminders_only": (
        "`repeat_every`, `repeat_times` and `escalate_to` apply to reminders only (create_reminder)"
    ),
    "error.invalid_arguments.ends_recurring_only": (
        "`until`, `count`, `skip_holidays`, `business_days`, `business_day_of_month` and `on_holiday` apply to"
        " recurring schedules only (`cron`, `cron_expr`)"
    ),
    "error.invalid_arguments.until_before_first": "it would never fire before its end ({until}): give a later `until`",
    "error.invalid_arguments.until_before_first_holidays": (
        "it would never fire before its end ({until}): give a later `until` (or fewer holidays)"
    ),
    "error.invalid_arguments.never_within": (
        "it would never fire within the next {years} years: every occurrence falls on a public holiday in {calendar}"
    ),
    "error.invalid_arguments.never_within_business": (
        "it would never fire within the next {years} years: every occurrence falls on a weekend or a public holiday"
        " in {calendar}, and `business_days` keeps business days only"
    ),
    "error.invalid_arguments.needs_calendar": (
        "`{field}` needs a holiday calendar: give `skip_holidays` too (such as {forms})"
    ),
    "error.invalid_arguments.business_day_of_month": (
        "`business_day_of_month` is 1 to 23, or -1 for the last; with it, `cron` gives only the times of day "
        "(day fields `*`, such as '0 9 * * *'), and it does not go with every N weeks or days"
    ),
    "error.invalid_arguments.ends_drop_snooze": (
        "{id} has an occurrence snoozed to {to}, which the new end would never post: choose a later end, or"
        " skip that occurrence first (skip_next with its occurrence)"
    ),
    "error.invalid_arguments.count_reached": (
        "it has delivered {delivered} run(s) already: `count` must be more than that, or 0 for no limit"
    ),
    "error.too_long": "{problems}",
    "error.invalid_time": "Cannot read the time {text!r}. The closest accepted forms:{forms}",
    "error.invalid_time.because": "Cannot read the time {text!r}: {reason}. The closest accepted forms:{forms}",
    "error.invalid_time.repeats": (
        "{text!r} repeats: send it as `cron` (or add `recurring: true`) to create a recurring reminder"
    ),
    "error.time_in_past": "that time ({when}) is in the past: it is now {now}",
    "error.time_in_past.words": "{text!r} names a time in the past: it is now {now}",
    "error.time_in_past.new_zone": "that wall-clock time has already passed in the new zone",
    "error.time_in_past.while_paused": "its time passed while it was paused; use snooze_reminder to set a new one",
    "error.time_in_past.already": "that is already past",
    "error.invalid_cron": (
        "Cannot read the schedule {source!r}: {reason}. Use five-field cron "
        "(MIN HOUR DAY-OF-MONTH MONTH DAY-OF-WEEK, e.g. '0 9 * * 1-5'), a macro "
        "(@hourly @daily @weekly @monthly @yearly) or a phrase such as 'every day at 9', "
        "'every monday at 10', 'every weekday at 8', 'every 15 minutes', 'the last friday of every month at 17:00', "
        "'the last day of every month at 9', 'every other monday at 10', "
        "'every 2 weeks on tuesday and thursday at 9', 'every 3 days at 9', 'every other day at 8', "
        "'every 3 months on the 1st at 9'; "
        "cron also takes L (last day of the month), 1#1 (first Monday) and L5 (last Friday)."
    ),
    "error.never_fires": "The schedule {source!r} never fires: those days do not exist in those months.",
    "error.too_frequent": "The schedule {source!r} fires only {gap} min apart; the minimum interval is {minimum} min.",
    "error.too_frequent.manual_run": (
        "{id} was run by hand at {last}; run_now runs one schedule at most once every {minutes} minutes"
    ),
    "error.invalid_timezone": (
        "Unknown time zone {zone!r}: use an IANA name such as 'Europe/Madrid' or 'America/New_York'."
    ),
    "error.invalid_timezone.abbreviation": (
        "{zone!r} is an abbreviation, not a place: its clock is not the place's all year. Use the IANA name"
        " of the place, such as {place!r}."
    ),
    "error.limit_reached": "this room already has {limit} active schedules; delete one first",
    "error.limit_reached.change": "this room is at its limit of active schedules",
    "error.not_found": "no active schedule {ref!r} in this room",
    "error.not_found.status": "no active schedule {ref!r} in this room (it is {status})",
    "error.not_found.deleted": "{id} was deleted",
    "error.not_found.ended": "{id} is {status}: it no longer runs",
    "error.not_found.no_longer_active": "{id} is no longer active",
    "error.ambiguous": "{count} schedules are named {name!r}; use an id",
    "error.duplicate": "an identical schedule already exists: {id}",
    "error.invalid_state": "{id} is already paused",
    "error.invalid_state.not_paused": "{id} is not paused",
    "error.invalid_state.skip_one_shot": "skip_next applies to active recurring schedules; delete a one-shot",
    "error.invalid_state.not_running": "{id} is {status}: resume it first (resume_reminder), then run it",
    "error.invalid_state.skip_paused": "{id} is paused, so nothing is coming to skip: resume it first",
    "error.invalid_state.nothing_to_skip": "it has no coming occurrence to skip",
    "error.invalid_state.nothing_to_snooze": "{id} is {status}: it has no coming occurrence to snooze",
    "error.invalid_state.snooze_paused": (
        "{id} is paused: resume it with resume_reminder first (its next time is {when})"
    ),
    "error.invalid_state.occurrence_past": (
        "the occurrence of {id} at {when} has already happened: there is nothing left to skip there"
    ),
    "error.invalid_state.occurrence_held": (
        "{id}'s occurrence at {when} is held by quiet hours until {until}, when it is posted; snooze it once it is"
    ),
    "error.invalid_state.occurrence_not_delivered": (
        "the occurrence of {id} at {when} was not delivered ({outcome}): there is nothing to remind again"
    ),
    "error.invalid_state.occurrence_superseded": (
        "{id} is now due at {next}, not at that occurrence: snooze it without `occurrence` to move that time"
    ),
    "error.invalid_arguments.occurrence": (
        "`occurrence` {text!r} is not an RFC3339 instant such as 2026-12-07T09:00:00Z"
    ),
    "error.invalid_arguments.not_an_occurrence": "{id} has no occurrence at {when}",
    "error.invalid_arguments.occurrence_on_its_way": (
        "{id}'s occurrence at {when} is due and on its way, not posted yet: snooze it once it is posted"
    ),
    "error.invalid_arguments.payload": "this is not a cronbell button payload",
    "error.invalid_arguments.payload_minutes": "a snooze button carries its minutes, a whole number from 1 to 99999",
    "error.invalid_arguments.payload_fields": "the button payload has fields that do not belong to it",
    "error.invalid_arguments.payload_occurrence": "the occurrence the button names is not an instant",
    "error.invalid_arguments.payload_canonical": "the button payload is not written the one way cronbell writes it",
    "error.invalid_time.snooze_not_later": (
        "a snooze postpones: {to} is not later than the occurrence it moves ({when}); "
        "use update_reminder to bring it forward"
    ),
    "error.invalid_time.snooze_past_until": (
        "{id} ends on {until}: a snooze cannot move an occurrence past its end; snooze it to an earlier time, "
        "or move the end first with update_reminder (`until`)"
    ),
    "error.invalid_time.snooze_past_count": (
        "{id} ends after {count} runs and {to} comes after its last one: snooze it to an earlier time, "
        "or raise `count` first with update_reminder"
    ),
    "error.unknown_agent": "unknown agent {agent!r}; allowed: {known}",
    "error.unknown_agent.unnamed": "no agent named: pass `target_agent` (allowed: {known})",
    "error.unknown_agent.none": "unknown agent {agent!r}; allowed: none configured",
    "error.busy": (
        "this schedule is being delivered right now; try again once its post is in the room (an agent call"
        " can take up to its timeout, minutes)"
    ),
    "error.busy.one_shot_due": "{id} is due now (at {when}): its own fire posts it once, no other run starts",
    "error.busy.last_occurrence_due": "{id} is posting its last occurrence ({when}); once, then it ends",
    "error.busy.ends_on_due": (
        "{id} is posting an occurrence now ({when}) that this change would make its last; ask again once it is posted"
    ),
    "error.name_taken": "another schedule of this room is named {name!r} ({id}); choose another name",
    "error.forbidden_channel.escalation": (
        "escalate_to {target!r} is neither a user to mention (@...) nor a room the deployment allows as output"
    ),
    "error.forbidden_channel": "answers can go to this room or to a room the deployment allows as output",
    "platform_gone": "its room is on {platform}, which this deployment no longer configures",
    "error.unknown_platform": "context.platform {platform!r} is not configured here; configured: {configured}",
    "error.backend_error": "the schedule store is not answering; try again shortly",
    "error.backend_error.delivering": "this schedule is being delivered right now; try again in a minute",
    "error.backend_error.not_deleted": "the schedule could not be deleted; nothing changed",
    "error.backend_error.not_started": "could not start the run",
    "error.backend_error.changed_meanwhile": "it was changed meanwhile; try again",
    "error.backend_error.changed_list": "it was changed meanwhile; list and try again",
    "error.backend_error.not_saved_change": "the change could not be saved; nothing was changed",
    "error.backend_error.conflicting": "a conflicting schedule is being changed; try again",
    "error.backend_error.not_created": "the schedule could not be saved; nothing was created",
    "error.internal_error": "internal error; list the schedules to see what is in place",
    "error.internal_error.run_now": "run_now is not configured in this deployment",
    # refusals of the inbound adapters (Bedrock Agents action groups, AgentCore Gateway targets)
    "error.invalid_request.no_function": (
        "the event has no `function`: only action groups defined with function details are supported"
    ),
    "error.invalid_request.openapi_schema": (
        "this action group is defined with an OpenAPI schema (apiPath {path!r}), which cronbell does not read, "
        "so nothing was done: define it with function details (functionSchema) instead"
    ),
    "error.invalid_request.parameters": "`parameters` must be a list of {{name, type, value}}",
    "error.invalid_request.parameter_name": "every parameter needs a `name`",
    "error.invalid_request.tool_name": "the client context's {field} is empty",
    "error.invalid_arguments.parameter": "parameter `{name}` ({kind}): {value!r} {why}",
    "error.invalid_arguments.given_twice": "parameter `{name}` was given twice",
    "error.invalid_arguments.both_ways": "`{name}` was given both as a parameter and in `{options}`",
    "error.missing_context.session": (
        "sessionAttributes lacks {missing}: the bot's code must set room_id and user_id "
        "in InvokeAgent's sessionState.sessionAttributes"
    ),
    "error.missing_context.user_not_pinned": "MCP_ROOM_ID is set but MCP_USER_ID is not: set both",
    "error.missing_context.headers_missing": (
        "{headers} did not arrive (X-Cronbell-Room-Id and X-Cronbell-User-Id must both come): allowlist them in"
        " the target's metadataConfiguration.allowedRequestHeaders and send them from the bot's MCP client"
    ),
    "error.missing_context.header_twice": (
        "the `{name}` header arrived more than once (two spellings, or a comma-joined list): send it once; the "
        "gateway's interceptor should overwrite it, not add to it"
    ),
    "error.missing_context.not_configured": (
        "this gateway target passes no trusted room and user. Configure one: set MCP_ROOM_ID and MCP_USER_ID "
        "on the function (one target per room), or allowlist X-Cronbell-Room-Id and X-Cronbell-User-Id in the "
        "target's metadataConfiguration.allowedRequestHeaders, have the bot's MCP client send them, and set "
        "MCP_TRUST_PROPAGATED_HEADERS=true on the function"
    ),
    # --- problems with arguments, field by field (English as the reference models say it) ---
    "problem": "`{where}` {what}",
    "problem.as_given": "{text}",
    "problem.or": " or ",
    "problem.control_character": "must not hold control characters ({code})",
    "problem.line_break": "must be one line (no line breaks)",
    "problem.bidi_control": (
        "must not hold characters that reorder text: an override, an embedding or an isolate left unmatched ({code})"
    ),
    "problem.invisible": "must not be empty (it has only invisible characters)",
    "problem.not_unicode": "must be valid text (it holds a broken character)",
    "problem.one_of": "must be {allowed}",
    "problem.string": "must be text",
    "problem.min_length_one": "must not be empty",
    "problem.min_length": "must be at least {n} characters long",
    "problem.max_length_one": "must be at most {n} character long",
    "problem.max_length": "must be at most {n} characters long",
    "problem.boolean": "must be true or false",
    "problem.integer": "must be a whole number",
    "problem.at_least": "must be {n} or more",
    "problem.at_most": "must be {n} or less",
    "problem.list": "must be a list",
    "problem.max_items": "must hold at most {n} items, not {count}",
    "problem.required": "is required",
    "problem.key_type": "is not an argument name: names are text",
    "problem.extra": "is not an argument of this tool",
    # cross-field rules: "rule.<rule>.<fields>", the same words as the contract's rules
    "rule.exactly_one.time.cron": "give exactly one of `time` (once) or `cron` (recurring)",
    "rule.refused_with.recurring.cron": "`cron` is recurring; use `time` for a one-shot reminder",
    "rule.exactly_one.cron_expr.fire_at": "give exactly one of `cron_expr` (recurring) or `fire_at` (RFC3339, once)",
    "rule.refused_with.recurring.fire_at": "`fire_at` runs once; use `cron_expr` for a recurring job",
    (
        "rule.at_least_one.message.prompt.time.cron.timezone.target_agent.channel.name.until.count.skip_holidays"
        ".business_days.business_day_of_month.on_holiday"
        ".repeat_every.repeat_times.escalate_to"
    ): (
        "give at least one field to change: message, prompt, time, cron, timezone, target_agent, channel, name, "
        "until, count, skip_holidays, business_days, business_day_of_month, on_holiday, repeat_every, repeat_times, "
        "escalate_to"
    ),
    "rule.at_most_one.time.cron": "give `time` (once) or `cron` (recurring), not both",
    "rule.exactly_one.minutes.until": "give exactly one of `minutes` or `until`",
    # --- reasons inside refusals ---
    "reason.not_whole_number": "is not a whole number",
    "reason.not_a_number": "is not a number",
    "reason.too_many_digits": "has too many digits to be any argument's value",
    "reason.too_deep": "is nested too deeply",
    "reason.not_finite": "is not a finite number",
    "reason.not_boolean": "is not true or false",
    "reason.not_list": "is not a list",
    "reason.not_json": "is not valid JSON ({error}); send an object such as {example}",
    "reason.not_an_object": "is not a JSON object such as {example}",
    "reason.given_twice": "given twice",
    "reason.empty": "empty",
    "reason.no_clock": "a time of day is missing",
    "reason.too_far": "too far ahead",
    "reason.not_month_day": "{text!r} is not a month/day date; write the month as a word",
    "reason.not_day_month": "{text!r} is not a day/month date; write the month as a word",
    "reason.weekday_mismatch": "that date is not a {weekday}",
    "reason.no_such_day": "there is no such day",
    "reason.twice": "it names a day or a time twice",
    "reason.position": "a weekday's place in a month (the first monday of june) is not read as a date",
    "reason.day_missing": "name the day of the month too",
    "reason.zone_ambiguous": "{zone} names more than one time zone ({zones}); say the city or the offset (UTC+05:30)",
    "reason.zone_offset": "{zone} is not an offset from UTC; write one such as UTC+05:30",
    "reason.holiday_no_country": "{name} is a holiday of a country: pass the timezone of a city, or say the date",
    "reason.holiday_not_there": "{name} is not a holiday in {country}; say the date instead",
    "reason.holiday_unknown": "{name} is not a holiday known in {country}; say the date instead",
    "reason.day_or_hour": (
        "{number} could be the day of the month or the hour; write 'on the {number}' for the day or 'at {number}' "
        "for the hour"
    ),
    "reason.past": "it names a time in the past; a reminder needs a time ahead",
    "reason.weekday_missing": "name the day of the week too (friday next week)",
    "reason.date_or_clock": (
        "{text} could be a date or a time of day; write 'at {text}' for the time, or the month as a word for the date"
    ),
    # the declared type of a Bedrock parameter, named in its refusal
    "type.integer": "integer",
    "type.number": "number",
    "type.boolean": "boolean",
    "type.array": "array",
    "type.json_object": "JSON object",
    "cron.unknown_macro": "unknown macro {macro!r}",
    "cron.eventbridge": "that is EventBridge syntax, give standard five-field cron",
    "cron.unreadable": "not a cron expression or a known phrase",
    "cron.said_apart": "'{schedule}' reads; when it ends goes in `until` (a date) or `count` (how many times),"
    " holidays in `skip_holidays`; a start date only after every N weeks, days or months ('... from 2026-12-14')",
    "cron.needs_time": "it names the days but no time of day; add one, e.g. '{days} at 9'",
    "cron.window": (
        "the hours must run from the first to a later one in the same day (between 9 and 17): a window does not"
        " run past midnight; for one that does, make two schedules (from 22 to 24, and from 0 to 2)"
    ),
    "cron.hours_divide": (
        "every N hours needs N to divide 24 (1, 2, 3, 4, 6, 8, 12), or hours to run between "
        "('every 5 hours from 8 to 20'): another cycle would not fall at the same times each day"
    ),
    "cron.minutes_divide": "every N minutes needs N to divide 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30): "
    "another cycle would not fall at the same minutes each hour (cron cannot say it either)",
    "cron.not_a_value": "{token!r} is not a valid {field} value",
    "cron.out_of_range": "{field} {value} is out of range {lo}-{hi}",
    "cron.bad_item": "{item!r} is not a valid {field} item",
    "cron.bad_step": "step {step!r} in the {field} field must be 1-99",
    "cron.question_mark": "'?' is only allowed alone in a day field",
    "cron.backwards": "range {range} in the {field} field goes backwards",
    "cron.field_count": "expected exactly five fields, got {count}",
    "cron.position_field": "{item!r} in the {field} field needs * in the other day field",
    "cron.interval_weeks": "every N weeks needs weekdays and a time, e.g. 'every 2 weeks on monday and thursday at 9'",
    "cron.interval_days": "every N days needs a time of day only, e.g. 'every 3 days at 9'",
    "cron.interval_count": "N must be 1-{most}",
    "cron.interval_months": "every N months needs days of the month and a time, e.g. 'every 3 months on the 1st at 9'",
    "cron.months_divide": "every N months needs N to divide 12 (1, 2, 3, 4, 6, 12): another cycle "
    "would not fall in the same months each year",
    "cron.start_needs_interval": "a start date goes with every N weeks, days or months only",
    "cron.bad_start": "{start!r} is not a start date (2000-2199)",
    "cron.two_schedules": "'{first}' and '{second}' are two schedules: create one reminder for each",
    "cron.zone_apart": (
        "'{schedule}' reads; its time zone ({zone}) goes in `timezone`, as the IANA name of a place ({place},"
        " Europe/Madrid, UTC)"
    ),
    "cron.one_minute": (
        "its times ({times}) fall at different minutes of the hour, and a schedule fires at one minute of each"
        " hour it names: create one reminder for each time"
    ),
    "cron.one_place": (
        "a schedule fires on one place of a weekday in the month ('the 2nd tuesday of every month at 10'); for"
        " two places, create one reminder for each"
    ),
    "cron.days_for_weeks": (
        "'cada {days} días' may mean '{weeks}': say '{weeks} los lunes a las 9' or 'cada {exact} días a las 9'"
    ),
    "field.minute": "minute",
    "field.hour": "hour",
    "field.day_of_month": "day-of-month",
    "field.month": "month",
    "field.day_of_week": "day-of-week",
    # --- notes in answers ---
    "note.nonexistent": "{wall} does not exist in {zone} (clocks go forward); using {clock} ({offset}) instead.",
    "note.ambiguous": "{wall} happens twice in {zone} (clocks go back); using the first one ({offset}).",
    "note.second_occurrence": "{wall} happens twice in {zone}; this is the second one ({offset}).",
    "note.twelve_hour": (
        "{said} has no am/pm: read as {clock}, the next {said} on a 12-hour clock "
        "(pass am/pm or a 24-hour time to choose)."
    ),
    "note.zone": "{said} is {clock} in {zone}.",
    "note.zone_of_schedule": (
        "The schedule runs in {zone}, the time zone it names: its times are that zone's all year. Its first"
        " run is {local} in {own}."
    ),
    "note.skip_dropped": "A new time starts afresh: the skip of {when} no longer applies (skip again if still wanted).",
    "note.snooze_dropped": (
        "A new time starts afresh: the snooze to {when} no longer applies (snooze again if still wanted)."
    ),
    "note.now_once": (
        "A `time` makes it fire once: its repeating schedule ({description}) and any end, count or holiday"
        " calendar are gone (give `cron` to keep it repeating)."
    ),
    "note.holiday": "{name} in {country}: {date}.",
    "note.afternoon_hour": (
        "{said} has no am/pm: read as {clock} (an hour of 1 to 5 with a day is in the afternoon; "
        "pass am or a 24-hour time for the night)."
    ),
    "note.no_year": "No year given: taken as {year}.",
    "note.midnight_day": (
        "Midnight with a day is read as the start of that day, {date} {clock} (say 23:59 for its end)."
    ),
    "note.night_after": "The night of {night} is read past midnight: {date} {clock}.",
    "note.month_first": "{said} is read month first, as {date} (write the month as a word to choose).",
    "note.day_first": "{said} is read day first, as {date} (write the month as a word to choose).",
    "note.seconds": "{said}: the seconds are left out, reminders fire on the minute ({clock}).",
    "note.weekday_day_later": (
        "read as {date}, the next date that is both that weekday and that day of the month; the nearer {nearer} "
        "is another weekday."
    ),
    "note.snooze_takes_count": (
        "A snooze reminded again counts towards `count` ({count}): the occurrence of {when} will not come, as "
        "the count is then used."
    ),
    "note.snooze_takes_count.more": (
        "A snooze reminded again counts towards `count` ({count}): the occurrence of {when} and {more} more after "
        "it will not come, as the count is then used."
    ),
    "note.short_months": (
        "There is no day {day} in {months}, so it does not run then ('the last day of the month' runs at the "
        "end of every month)."
    ),
    "note.february_but_leap": "February (but in leap years)",
    "note.tomorrow_small_hours": (
        "It is {time}, past midnight: 'tomorrow' is read as {date}; for today, say 'today at {clock}'."
    ),
    "note.day_skipped": "There is no day {day} sooner: the next one is {date}.",
    "note.month_end": "That month has no day {day}: its last day is used, {date}.",
    "note.days_for_weeks": "'{said}' is read as {days} days ({date}); for '{weeks}' say '{weeks}'.",
    "note.until_kept": (
        "Its end stays the same instant: {was} in the old zone is {there} in {zone}; give `until` again to end it "
        "on a day of the new zone."
    ),
    "note.day_number": (
        "{number} is read as the day of the month ({date}), not the hour; say 'at {number}:00' for the hour."
    ),
    "note.evening_twelve": "{said} in the evening is read as {clock}, at or after midnight.",
    "note.holiday_elsewhere": "{name} is not a holiday in {home}: the date it has in {country} is used, {date}.",
    "note.recurring_once": (
        "'{said}' repeats: read as its next time, {date}; ask for a recurring schedule to be reminded every time."
    ),
    "note.dst_forward_one": (
        "On {day} clocks in {zone} go forward from {old} to {new}: the {clocks} run does not happen that day "
        "(Scheduler skips a local time that does not exist)."
    ),
    "note.dst_forward_many": (
        "On {day} clocks in {zone} go forward from {old} to {new}: the runs at {clocks} do not happen that day "
        "(Scheduler skips a local time that does not exist)."
    ),
    "note.dst_back_one": (
        "On {day} clocks in {zone} go back from {new} to {old}: {clocks} happens twice and the schedule runs "
        "once, at the first occurrence ({offset})."
    ),
    "note.dst_back_many": (
        "On {day} clocks in {zone} go back from {new} to {old}: {clocks} happen twice and each runs "
        "once, at the first occurrence ({offset})."
    ),
    # --- ends and calendars ---
    "ends.until": "until {date}",
    "ends.count": "{count} times",
    "ends.count_one": "once",
    "ends.holidays": "skipping public holidays in {calendar}",
    "ends.business_days": "on business days in {calendar}",
    "ends.calendar": "business days of {calendar}",
    "preview.business_day": "on business day {n} of the month at {clocks}",
    "preview.business_day_last": "on the last business day of the month at {clocks}",
    "ends.moved_before": "moved to the previous business day when it falls on a day off",
    "ends.moved_after": "moved to the next business day when it falls on a day off",
    # --- previews ---
    "now": "{date}, {clock} ({zone}, {offset})",
    "preview.and": " and ",
    "preview.at": "at {date} {clock} ({zone})",
    "preview.at_one": "at {date} {clock} ({zone})",
    "preview.at_clocks": "at {clocks}",
    "preview.at_clocks_one": "at {clocks}",
    "preview.every_minute": "every minute",
    "preview.every_n_minutes": "every {n} minutes",
    "preview.on_the_hour": "on the hour",
    "preview.at_minute": "at minute {listed}",
    "preview.at_minutes": "at minutes {listed}",
    "preview.every_hour": "every hour {minutes}",
    "preview.every_n_hours": "every {n} hours {minutes}",
    "preview.between": "{minutes} between {first} and {last}",
    "preview.during_hours": "{minutes} during hours {hours}",
    "preview.monday_to_friday": "every weekday (Monday to Friday)",
    "preview.every_day_from_to": "every day from {first} to {last}",
    "preview.every_day_except": "every day except {days}",
    "preview.from_to": "{first} to {last}",
    "preview.on_weekday": "every {days}",
    "preview.on_weekdays": "every {days}",
    "preview.yearly": "every year on {day} {month}",
    "preview.of_every_month": "of every month",
    "preview.of_months": "of {months}",
    "preview.on_day": "on day {days} {where}",
    "preview.on_days": "on days {days} {where}",
    "preview.in_months": " in {months}",
    "preview.every_day": "every day",
    "preview.last_day": "on the last day {where}",
    "preview.nth_weekday": "on the {nth} {weekday} {where}",
    "preview.every_n_weeks": "every {n} weeks on {days} {time}",
    "preview.every_n_days": "every {n} days {time}",
    "preview.from_start": ", from {date}",
    # --- runs ---
    "run_failing": "⚠️ {name} failed ({reason}). Further failures will not be announced until it works again.",
    "run_failed_once": "⚠️ {name} failed ({reason}).",
    "run_recovered": "✅ {name} works again.",
    "run_paused": "⏸️ {name} failed {count} times in a row and is paused. Resume it with resume_reminder {id}.",
    "run_paused.elsewhere": (
        "⏸️ {name} failed {count} times in a row and is paused. It can be resumed from the room it was set up in."
    ),
    "late_note": "(late: it was due {due})",
    "history": "{count} runs of {id}, newest first: {items}. {now}",
    "history_one": "1 run of {id}: {items}. {now}",
    "history_more": "{count} runs of {id}, newest first; the first {shown}: {items}; the result lists them all. {now}",
    "history_none": "{id} has no runs yet. {now}",
    "history.item": "{when}: {outcome}",
    "history.item_reason": "{when}: {outcome} (`{reason}`)",
    "history.manual": "{item}, started by hand (run_now)",
    "outcome.delivered": "delivered",
    "outcome.failed": "failed",
    "outcome.skipped": "skipped",
    "outcome.missed": "missed",
}

LISTS: dict[str, tuple[str, ...]] = {
    # Monday first, as date.weekday() counts
    "weekdays": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "weekdays_every": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),  # after "every"
    "months": (
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ),
    "ordinals": ("first", "second", "third", "fourth", "fifth", "last"),
    # the numeric date among the accepted forms, in each order: month first, day first
    "numeric_date_forms": ("12/24 8pm (month/day)", "24/12 8pm (day/month)"),
    "accepted_forms": (
        "2026-12-31T23:59:00Z (RFC3339 with an offset)",
        "2026-12-31 23:59 / 2026-12-31",
        "23:59 (today, or tomorrow if already past) / 7:56 pm / 3 p.m. / 9a / noon",
        "in 30 minutes / in an hour / in two weeks / in 90 seconds / 30 minutes later / in 2 years",
        "tomorrow at 9 / tomorrow at 9:30am / today at 18:00 / the day after tomorrow at 9",
        "next monday at 10 / monday at 10 / friday / tuesday the 8th at 9",
        "december 1 at 9 / dec 1st 2026 at 9 / the 5th at 9 / 12/24 8pm (month/day)",
        "tomorrow morning / this afternoon / tonight at 8 / end of the day / the last day of the month at 9",
        "friday next week / the first of next month / twenty to nine / quarter past 5 pm / 11-jan-2027",
        "in 3 days at 9 (a day without a time: 09:00; morning 09:00, afternoon 15:00, evening 19:00, "
        "night 21:00, end of the day 18:00; an hour of 1 to 12 alone, without am/pm, is the next of its two "
        "readings, within 12 hours; with a day, 1 to 5 is the afternoon)",
        "5pm CET / 10am PST / 9am New York time / on Christmas / new year's eve at 8pm / the last friday of may",
        "5 days from monday / end of friday / wednesday 14 / 2027/nov/05 / 6:15:45 pm / the 21st of every month at 10",
    ),
}  # fmt: skip

# What a deployment that shows its model a smaller tool set (TOOL_SET) says instead of each text above that names
# a tool the set does not show: what to do with the tools it does show. A schedule paused there (for failing)
# is resumed by no tool it shows: deleting it and creating it again starts it anew.
BY_TOOL_SET: dict[str, dict[str, str]] = {
    "essential": {
        "when.paused": "{description}; paused (these tools do not resume it: delete it and create it again)",
        "when.paused_passed": (
            "{description}; paused, and its time passed meanwhile (delete it and create it again with a new time)"
        ),
        "error.invalid_arguments.ends_drop_snooze": (
            "{id} has an occurrence snoozed to {to}, which the new end would never post: choose a later end, or"
            " change the end once that occurrence is posted"
        ),
        "error.time_in_past.while_paused": (
            "its time passed while it was paused; delete it and create it again with a new time"
        ),
        "error.invalid_state.not_running": (
            "{id} is {status}; these tools do not resume it: delete it and create it again, then run it"
        ),
        "error.invalid_state.skip_one_shot": "only an active recurring schedule can skip a fire; delete a one-shot",
        "error.invalid_state.snooze_paused": (
            "{id} is paused, so it has nothing coming to snooze (its next time is {when}); these tools do not "
            "resume it: delete it and create it again"
        ),
        "run_paused": (
            "⏸️ {name} failed {count} times in a row and is paused ({id}). To have it run again, delete it and "
            "create it again."
        ),
    },
}
