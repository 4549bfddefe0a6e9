"""The review's figures and their noise: a difference is called a mistake only above the
noise the estimate states (twice the standard error of the world-by-world difference)."""

from __future__ import annotations

import math

from bench.records import play
from engine import Action
from engine.ai.review import Decision, Estimate, review_game

A = Action.parse("0 take")
B = Action.parse("0 pass")


def test_noise_is_twice_the_standard_error_of_the_paired_difference() -> None:
    a = (1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0) * 4
    b = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0) * 4
    n = len(a)
    est = Estimate({A: sum(a) / n, B: sum(b) / n}, {A: a, B: b})
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    assert 2 * sd / math.sqrt(n) > 3 / n
    assert math.isclose(est.noise(A, B), 2 * sd / math.sqrt(n))
    # the same result in every world: no spread, but no more certainty than n worlds give
    same = Estimate({A: 0.5, B: 0.5}, {A: a, B: a})
    assert same.noise(A, B) == 3 / n
    assert Estimate({A: 1.0, B: 0.0}, {A: (1.0,), B: (0.0,)}, exact=True).noise(A, B) == 0.0
    more = est.merged(est)
    assert more.values == est.values and more.noise(A, B) < est.noise(A, B)


def test_a_difference_within_the_noise_is_no_mistake() -> None:
    base = Decision(0, 0, A, B, 0.5, 0.40, 0.55, noise=0.2, worlds=48)
    assert base.cost > 0.05 and not base.mistake
    assert Decision(0, 0, A, B, 0.5, 0.40, 0.55, noise=0.1, worlds=48).mistake


def test_a_review_shows_only_differences_above_their_noise() -> None:
    review = review_game(play("podkidnoy", 2, 3), 0, iterations=6, seed=0)
    assert review.decisions
    for d in review.decisions:
        assert d.noise >= 0 and (d.worlds > 0 or d.noise == 0)  # solved exactly: no noise
    for d in review.costliest(10):
        assert d.after_preferred - d.after_played > d.noise
