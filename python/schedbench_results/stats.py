"""Intervals for the claims the report makes of two points: a bootstrap over their repetitions.

A median of a handful of repetitions moves from one sweep to the next, so "A is 1.08x faster
than B" is written with the range the repetitions support: scipy.stats.bootstrap resamples both
points' repetitions_ms independently with replacement, takes the medians' ratio, and keeps the
central CONFIDENCE of RESAMPLES ratios (the percentile method). The generator is seeded per
call, so the same results give the same report. A single point's interval of its median is the
one its results file records (frames.INTERVAL), not computed here."""

import numpy as np
from scipy import stats

SEED = 20261126
RESAMPLES = 2000
CONFIDENCE = 0.95


def ratio_interval(slower, faster):
    """(low, high) of median(slower) / median(faster), the two sets of repetitions resampled
    independently; None where either has fewer than two (scipy resamples no single value, and one
    repetition supports no interval)."""
    if len(slower or ()) < 2 or len(faster or ()) < 2:
        return None
    found = stats.bootstrap(
        (np.asarray(slower, dtype=float), np.asarray(faster, dtype=float)),
        lambda a, b, axis: np.median(a, axis=axis) / np.median(b, axis=axis),
        n_resamples=RESAMPLES, confidence_level=CONFIDENCE, method="percentile",
        random_state=np.random.default_rng(SEED), vectorized=True)
    return float(found.confidence_interval.low), float(found.confidence_interval.high)
