"""What the running bot counts, in Prometheus' terms (served by bot/httpd.py).

Two kinds of figures, kept apart on purpose:

* Counts the bot already keeps as plain integers for the benchmarks (table edits, picture
  renders and failures, live hand edits, pings, deliveries, reviews) are *read* when
  ``/metrics`` is scraped, by :class:`BotCollector`. Nothing on the hot path changes for them,
  and the benchmark and the metrics cannot disagree, because they read the same numbers.
* What has to be observed the moment it happens (latencies, think and render times, moves
  committed) are the module-level metrics below. They live in no registry of their own: each
  bot's registry (:func:`registry_for`) adds them beside its collector, so two bots in one
  test process each serve a whole page, and importing this module never touches
  ``prometheus_client``'s global registry.

Names follow Prometheus' conventions: a ``durak_`` prefix, seconds for times, ``_total`` for
counters (added by the client library).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from .app import DurakBot

__all__ = [
    "ACKNOWLEDGE_SECONDS",
    "COMMIT_SECONDS",
    "COMPUTER_OFFERS",
    "MOVES",
    "MOVE_ANSWERS",
    "PUZZLES_FINISHED",
    "RENDER_SECONDS",
    "THINK_SECONDS",
    "BotCollector",
    "move_committed",
    "registry_for",
    "think",
    "timed_render",
]

T = TypeVar("T")

#: Buckets for what a player waits on (a click's acknowledgement, a move's commit): the aim
#: is p99 under 50 ms, and the tail under load reaches seconds (docs/benchmarks.md).
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: A computer's move: engine.ai.BOT_MAX_SECONDS is 0.3 s of CPU; easy answers in microseconds.
_THINK_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 1.0, 2.0)
#: A table picture: ~7 ms on a quiet machine, the aim < 50 ms (bench/render.py).
_RENDER_BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)

MOVES = Counter(
    "durak_moves",
    "Moves committed to the database (human, computer and timed-out seats alike).",
    registry=None,
)
COMMIT_SECONDS = Histogram(
    "durak_move_commit_seconds",
    "Seconds from handing a move to storage until it was committed (group commit included).",
    buckets=_LATENCY_BUCKETS,
    registry=None,
)
ACKNOWLEDGE_SECONDS = Histogram(
    "durak_move_acknowledge_seconds",
    "Seconds from a move click (Discord's timestamp) until Discord took its first answer.",
    buckets=_LATENCY_BUCKETS,
    registry=None,
)
MOVE_ANSWERS = Counter(
    "durak_move_answers",
    "Move clicks by their first answer: with_outcome (the move was applied within"
    " bot.surfaces.answers.QUICK_ANSWER_SECONDS, the hand after it is the answer) or"
    " acknowledged (a deferred answer, the hand edited after the move).",
    ["how"],
    registry=None,
)
FIRST_ANSWER_RETRIES = Counter(
    "durak_first_answer_retries",
    "First answers to interactions tried again after Discord refused one (5xx, 429).",
    registry=None,
)
THINK_SECONDS = Histogram(
    "durak_computer_think_seconds",
    "CPU seconds a computer player spent choosing one move, by level.",
    ["level"],
    buckets=_THINK_BUCKETS,
    registry=None,
)
PUZZLES_FINISHED = Counter(
    "durak_puzzles_finished",
    "Daily puzzle attempts that ended, by outcome (solved or failed).",
    ["outcome"],
    registry=None,
)
RENDER_SECONDS = Histogram(
    "durak_picture_render_seconds",
    "Seconds to draw and encode one table picture, in the picture thread.",
    buckets=_RENDER_BUCKETS,
    registry=None,
)
ACTIVITY_MOVE_SECONDS = Histogram(
    "durak_activity_move_seconds",
    "Seconds from a move arriving on an Activity socket until it was applied and committed.",
    buckets=_LATENCY_BUCKETS,
    registry=None,
)

COMPUTER_OFFERS = Counter(
    "durak_quick_computer_offers",
    "Computer games offered to quick-match players who waited the server's time, by outcome:"
    " sent, undeliverable (direct messages closed), taken (the player chose the computer).",
    ["outcome"],
    registry=None,
)

_EVENTS: tuple[Collector, ...] = (
    MOVES,
    ACTIVITY_MOVE_SECONDS,
    COMMIT_SECONDS,
    ACKNOWLEDGE_SECONDS,
    MOVE_ANSWERS,
    FIRST_ANSWER_RETRIES,
    THINK_SECONDS,
    PUZZLES_FINISHED,
    RENDER_SECONDS,
    COMPUTER_OFFERS,
)


def move_committed(seconds: float) -> None:
    """One move is in the database, ``seconds`` after it was handed to storage."""
    MOVES.inc()
    COMMIT_SECONDS.observe(seconds)


def activity_move(seconds: float) -> None:
    """A move sent from the Activity (bot/activity/server.py) was committed after ``seconds``."""
    ACTIVITY_MOVE_SECONDS.observe(seconds)


def think(level: str, choose: Callable[[Any], T], observation: Any) -> T:
    """``choose(observation)``, timing it in CPU seconds of the calling thread: run it in the
    worker thread (``asyncio.to_thread(think, ...)``), where the search's budget is counted
    the same way, so a loaded machine does not inflate the figure."""
    start = time.thread_time()
    try:
        return choose(observation)
    finally:
        THINK_SECONDS.labels(level).observe(time.thread_time() - start)


def timed_render(render: Callable[[Any], T], scene: Any) -> T:
    """``render(scene)`` in the picture thread, timed there (queueing behind other renders is
    not the drawing's cost)."""
    start = time.perf_counter()
    result = render(scene)
    RENDER_SECONDS.observe(time.perf_counter() - start)
    return result


class BotCollector(Collector):
    """Reads one bot's own counters at scrape time (each is zero until its part started)."""

    def __init__(self, bot: DurakBot) -> None:
        self._bot = bot

    def collect(self) -> Iterator[Metric]:
        bot = self._bot
        service, publisher, live, pings = bot.service, bot.publisher, bot.live_hands, bot.pings
        yield _gauge(
            "durak_games_running",
            "Games being played in this process (lobbies not counted).",
            len(service.running_sessions()) if service is not None else 0,
        )
        pictures = publisher.pictures if publisher is not None else None
        delivery = publisher.delivery if publisher is not None else None
        yield _counter(
            "durak_table_edits",
            "Public table messages edited.",
            publisher and publisher.table_edits,
        )
        yield _counter(
            "durak_picture_renders",
            "Table pictures drawn (cache hits not counted).",
            pictures and pictures.renders,
        )
        yield _counter(
            "durak_picture_failures",
            "Table pictures that could not be drawn (text sent).",
            pictures and pictures.failures,
        )
        yield _gauge(
            "durak_deliveries_owed",
            "Table edits, results, pings and reminders owed to Discord and not yet taken.",
            delivery.owed() if delivery is not None else 0,
        )
        yield _counter(
            "durak_delivery_retries",
            "Deliveries to Discord tried again after a transient failure (5xx, 429, network).",
            delivery and delivery.retried,
        )
        stats = live.stats if live is not None else None
        yield _counter("durak_live_hand_edits", "Live hand messages edited.", stats and stats.edits)
        yield _counter(
            "durak_live_hand_retries", "Live hand edits tried again.", stats and stats.retried
        )
        yield _counter(
            "durak_live_hand_drops", "Live hand edits given up.", stats and stats.dropped
        )
        yield _counter(
            "durak_pings_posted", "Turn pings and reminders posted.", pings and pings.posted
        )
        yield _counter(
            "durak_pings_edited",
            "Unanswered turn pings brought up to date in place.",
            pings and pings.edited,
        )
        yield _counter(
            "durak_pings_skipped",
            "Turn pings not sent: the player is watching, or turned pings off.",
            pings and pings.skipped,
        )
        reviews = getattr(bot, "review_queue", None)
        yield _gauge(
            "durak_reviews_queued",
            "Reviews waiting for or running in the review worker.",
            reviews.total_waiting() if reviews is not None else 0,
        )
        yield _counter(
            "durak_reviews_completed", "Reviews finished.", reviews and reviews.completed
        )


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _counter(name: str, documentation: str, value: Any) -> CounterMetricFamily:
    # ``x and x.count``: a part not started yet (None) counts zero.
    return CounterMetricFamily(name, documentation, value=value or 0)


def registry_for(bot: DurakBot) -> CollectorRegistry:
    """The registry ``/metrics`` serves for ``bot``: its counters, the shared metrics and
    the process's own figures."""
    registry = CollectorRegistry(auto_describe=True)
    registry.register(BotCollector(bot))
    for metric in _EVENTS:
        registry.register(metric)
    # The process's CPU time, memory and open files, and Python's garbage collections: what
    # an operator looks at first when the figures above turn bad.
    ProcessCollector(registry=registry)
    GCCollector(registry=registry)
    return registry
