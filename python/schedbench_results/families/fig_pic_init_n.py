"""Seed Figures 5.25-5.28 (§5.3.5): pic run time and collisions against the initial particles,
in a low (up to 1e5) and a high (from 1e5) range. Reads the results of jobs/pic-init-n.json."""

from ..figures import main
from .split_sweep import low_high_figures

JOB = "pic-init-n"
SPLIT = 100_000  # initial particles: where the seed splits its low and high figures


def figures(job):
    """Low and high range, time and collisions each, and time for dynamic-warp alone."""
    return low_high_figures(job, "init_n", SPLIT, ("5.25", "5.26", "5.27", "5.28", "9.9", "9.10"),
                            "initial particles")


if __name__ == "__main__":
    main(figures, __doc__)
