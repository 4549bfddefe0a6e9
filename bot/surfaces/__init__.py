"""The Discord surfaces: what players click and what the bot posts.

Views and dynamic buttons (lobby, hand, table, leaderboard), rematch buttons, answering an
interaction in time, live private hands, turn pings, and the publisher/delivery pair that
keeps one public message per game up to date. These modules map Discord onto
:mod:`bot.game` and draw with :mod:`bot.rendering`; no rule is decided here.
"""
