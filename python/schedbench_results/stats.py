"""Intervals for the claims the report makes: a bootstrap over the points' repetitions.

A median of a handful of repetitions moves from one sweep to the next, so "A is 1.08x faster
than B" is written with the range the repetitions support. Each interval resamples both points'
repetitions_ms with replacement, takes the medians' ratio, and keeps the central CONFIDENCE of
RESAMPLES ratios. The generator is seeded per call, so the same results give the same report."""

import numpy as np

SEED = 20261126
RESAMPLES = 2000
CONFIDENCE = 0.95


def resampled_medians(repetitions, rng):
    """RESAMPLES medians of `repetitions` drawn with replacement."""
    reps = np.asarray(repetitions, dtype=float)
    return np.median(reps[rng.integers(0, len(reps), (RESAMPLES, len(reps)))], axis=1)


def interval(samples):
    """The central CONFIDENCE interval of `samples` as (low, high)."""
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    return float(low), float(high)


def median_interval(repetitions):
    """(low, high) of the median of `repetitions`; None without repetitions."""
    if not repetitions:
        return None
    return interval(resampled_medians(repetitions, np.random.default_rng(SEED)))


def ratio_interval(slower, faster):
    """(low, high) of median(slower) / median(faster), the two sets of repetitions resampled
    independently; None where either has no repetitions."""
    if not slower or not faster:
        return None
    rng = np.random.default_rng(SEED)
    return interval(resampled_medians(slower, rng) / resampled_medians(faster, rng))
