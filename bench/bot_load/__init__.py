"""Load on one bot process: many live games driven by real clicks through simcord.

The targets (issue 30), on the 2-core reference machine, at 1,000 live games: p99 time to
acknowledge a move under 50 ms, at most 50 KB of bot heap per idle game, and the bot's CPU
per move (see "CPU per move" below); the report ends with a verdict line per aim, and
``--capacity`` runs every one of them in one command. This
script measures them in-process against the same offline simulated Discord the tests use
(simcord), so the whole path is real: gateway payload -> discord.py -> DynamicItem ->
``GameService.act`` -> engine -> SQLite commit -> interaction response. It prints figures and
never asserts them (they are machine-dependent).

How each figure is taken:

* Setup: for every game a host runs the real ``/durak new`` slash command in its own channel,
  then the other players click Join and the host clicks Start (one game per channel, every
  user in exactly one game, all seats human: computers are off, turn timers too by default).
  Seeds come from a counter, so a run is reproducible. The games are set up in batches
  (``--setup-batch``): a batch's commands and clicks go out 25 at once without simcord's
  settles, and the batch then waits until the bot has recorded its lobbies, drawn its tables
  and owes Discord nothing (see ``clicks.open_tables``).
* Memory per idle game: ``tracemalloc`` runs only while the measured games are set up (after
  a warm-up game has loaded lazy imports and caches, then been cancelled); once every game is
  idle, the live heap is split by the innermost frame that belongs to either side: the bot
  (bot/, cogs/, engine/, discord.py, asyncpg) or the simulated Discord (simcord keeps every
  message, interaction and a transcript, which a real bot does not); "other" is what the
  stdlib allocated with no owner in the recorded frames. Three frames are recorded: with one,
  what json, copy or dataclasses allocated for the bot fell in "other" (a quarter of the
  bot's share at 200 games); deeper ones move more of "other" to simcord but no more to the
  bot. simcord gets its own copy of every request body and upload during the traced setup
  (bench/simcord_shortcuts.py): it kept the bot's own objects, every table picture ever
  sent among them. SQLite's own C allocations are not traced (its page cache is bounded,
  about 2 MB).
* Clicks: after the setup every player opens their hand once with the table's "Show my
  hand" button ("open" rows, in the setup's bursts); from then on the bot keeps each hand
  live. Every round, each live game's next human (defender first, then attackers, the
  order in which waiting is harmless) refreshes their hand only if no live edit has brought
  it up to date yet ("hand" rows), then clicks one of the legal-move buttons on it ("move"
  rows). simcord's ``actor.click()``
  refuses overlapping operations (each actor verb settles the whole loop before returning),
  so ``asyncio.gather`` of actor clicks is impossible; instead the bench builds each click
  exactly as ``actor.click`` does (same interaction payload, same visibility check) and
  emits the INTERACTION_CREATE events itself.
* Load: by default the players of every live game click independently, on average every
  ``--think`` seconds (4 s), so the clicks of a round form a Poisson stream of games/4
  clicks per second: 250/s at 1,000 games, the busy end of real play (a person needs a few
  seconds per decision). ``--rate R`` spaces clicks evenly instead; ``--think 0`` sends
  bursts of ``--inflight`` simultaneous clicks (100), a stress test far beyond real play,
  whose tail is queueing behind the other 99 clicks (and simcord's work for them). The
  games are always set up in such bursts.
* Acknowledge ("ack"): from discord.py starting to parse the click's gateway event to the
  bot sending its interaction response, by ``time.perf_counter``. For a hand click it
  includes the rendering; a move click is answered with the hand after the move when the
  game lock, the engine and the commit are done within bot/surfaces/answers.py's
  ``QUICK_ANSWER_SECONDS`` (then its ack includes them), else acknowledged then, before the
  move is applied (the outcome follows as an edit; "act"/"commit" below time that part).
  simcord's clock is virtual and jumps when a bot timer falls due, so that budget is not
  real time here (often shorter). Either way the ack includes any queueing on the event
  loop, which the simulated Discord shares; it excludes only simcord's own work before the
  event reaches the bot and after the response leaves it (deep copies of every payload),
  which a real Discord does on its own machines. "e2e" adds that work back: click emitted
  to response recorded by simcord, an upper bound.
* The simulated Discord keeps every message and interaction it ever saw, so its heap grows
  with every click; CPython's full garbage collections scan that whole history and paused
  the loop for up to a second at 1,000 games. The bench therefore freezes the heap
  (``gc.freeze``) before each round and every 50 clicks, which a real bot (whose history
  lives on Discord) does not need, and prints the full collections left during the
  clicks; ``--no-freeze`` keeps those pauses in the figures. Nothing is frozen during the
  setup, so the memory figure is not affected.
* Act: ``perf_counter`` around ``GameService.act`` (lock, engine apply on a copy, SQLite
  commit); "commit" is ``Storage.save_state``/``finish_game`` alone, which waits for the
  storage lock every write shares. Both are measured by wrapping the service's methods from
  the outside; neither bot/ nor cogs/ is changed.
* CPU per move: the bot's CPU seconds over the moves committed, during the click rounds and
  the drain after them, at the bot's own table edit interval (1 s; the setup runs with 0),
  live hands and pictures on; the event loop's thread is shared between the bot and the
  simulated Discord by sampling its stack (see ``CpuSplit``). From it, the games one core
  carries at a move every 4 s. ``--profile PATH`` writes a cProfile of the same stretch.
* The picture thread: beside its CPU per move, what it drew in the same stretch (pictures
  drawn whole, in part, unchanged; the painter's CPU per picture by stage). Every table card
  face is drawn before the clicks (~5 ms each, once per process), as a bot that has run a
  while has them. A game's first moves cost the picture thread more than its later ones
  (new names, pairs and counts not yet kept): the default 4 rounds measure only the first
  moves of each game, ``--clicks 40`` a game's worth (docs/benchmarks.md says which counts).

The package: options (aims, constants, command line), measure (latencies, heap by owner,
the CPU sampler), clicks (the simulated world: setup and clicks), report (the printed
figures), run (one run per size and configuration, PostgreSQL processes, main).

    .venv/bin/python bench/bot_load.py [--sizes 10,100,1000] [--clicks 4] [--think 4]
    .venv/bin/python -m bench.bot_load [same options]
"""

from __future__ import annotations

from bench.bot_load.measure import _CPU_BOT_DIRS, _CPU_SIM_DIRS, _THREAD_BACKEND, _area
from bench.bot_load.options import KINDS
from bench.bot_load.run import main

# bench/loop_areas.py attributes a profile with the sampler's own rules (the underscored
# names), so they stay importable from the package.
__all__ = ["KINDS", "_CPU_BOT_DIRS", "_CPU_SIM_DIRS", "_THREAD_BACKEND", "_area", "main"]
