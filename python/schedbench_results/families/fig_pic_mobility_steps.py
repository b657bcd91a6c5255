"""Seed Figures 5.21-5.24 (§5.3.4): pic run time and collisions against the mobility steps per
poisson step, in a low (up to 100) and a high (from 100) range. Reads the results of
jobs/pic-mobility-steps.json."""

from ..figures import main
from .split_sweep import low_high_figures

JOB = "pic-mobility-steps"
SPLIT = 100  # mobility steps: where the seed splits its low and high figures


def figures(job):
    """Low and high range, time and collisions each, and time for dynamic-warp alone."""
    return low_high_figures(job, "mobility_steps", SPLIT, ("5.21", "5.22", "5.23", "5.24", "9.7", "9.8"),
                            "mobility steps")


if __name__ == "__main__":
    main(figures, __doc__)
