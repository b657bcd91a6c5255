"""Seed Figures 5.4-5.5 (§5.1.3): the toy's run time, and the time per particle-step, against
the initial number of particles; the log-log views carry the seed's marker lines where the
initial particles put a block on every SM and where they fill every SM, computed from the
device the job ran on. Reads the results of jobs/toy-init-n.json."""

from ..figures import (Panel, common_value, figure, main, ok_points, sm_fill_markers,
                     sweeps_along)

JOB = "toy-init-n"


def figures(job):
    """Per init_n sub-sweep: time (linear), time (log-log) and ns per particle-step (log-log)."""
    made = []
    for _, points in sweeps_along(ok_points(job), "init_n"):
        markers = sm_fill_markers(job, common_value(points, "block_size"))
        made += [
            figure(job, "fig5.4_toy_init_n", "Figure 5.4",
                   "toy run time against the initial particles", "init_n", points,
                   (Panel(("time",)),), regime="toy, initial particles"),
            figure(job, "fig5.5_toy_init_n_log", "Figure 5.5",
                   "toy run time against the initial particles, log-log, SM-fill lines",
                   "init_n", points, (Panel(("time",), logy=True),), xscale="log",
                   markers=markers),
            figure(job, "fig5.5b_toy_init_n_per_step", "Figure 5.5 (per particle-step)",
                   "toy time per particle-step against the initial particles, SM-fill lines",
                   "init_n", points, (Panel(("ns_per_step",), logy=True),), xscale="log",
                   markers=markers),
        ]
    return made


if __name__ == "__main__":
    main(figures, __doc__)
