"""The game service and its lifecycle: everything between a click and the engine.

Sessions (locks, validation, ``engine.apply``), lobbies, forfeits and leaving, turn timers,
computer turns, restore after a restart, rematches and series tallies, game modes. Nothing
here imports discord: the service speaks in ids and i18n keys, so it can be tested without
Discord and every surface (buttons, slash commands, the terminal) drives the same rules.
"""
