"""Text and embeds: how a lobby, a table, a hand, a result or a statistic reads in Discord.

Pure functions from service state (and a locale) to strings and :class:`discord.Embed`; kept
apart from :mod:`bot.surfaces` so the same wording serves buttons, commands and pictures,
and apart from :mod:`bot.pictures`, which draws PNGs.
"""
