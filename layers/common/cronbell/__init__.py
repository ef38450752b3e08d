"""cronbell: reminders and scheduled agent calls for chat bots on AWS.

Layout:
  core/      pure rules (no I/O): domain/ (models, timing, cron, firing, ports), language/ (time grammar),
             text/ (catalogs, views, previews), contract/ (envelope, errors, arguments, validation)
  adapters/  the impure shell: DynamoDB store, Scheduler gateway, chat senders, agents, clock
  usecases/  what the tools and the fire function do, composed from core and adapters
"""
