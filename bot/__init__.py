"""Discord service layer: config, storage, i18n, sessions and the bot itself."""
