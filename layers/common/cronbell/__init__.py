"""cronbell: reminders and scheduled agent calls for chat bots on AWS.

Layout:
  core/      pure rules: models, time grammar, cron translation, previews, texts (no I/O)
  adapters/  the impure shell: DynamoDB store, Scheduler gateway, chat senders, agents, clock
  usecases/  what the tools and the fire function do, composed from core and adapters
"""
