"""The text a reader sees: the catalogs (locales), the tools' views, previews, chat text, agent prompts."""
