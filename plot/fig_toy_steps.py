"""Seed Figures 5.6-5.8 (§5.1.4): the toy's run time against the number of time steps, linear
and log-log, and the final number of particles, which drives it. Reads the results of
jobs/toy-steps.json."""

from results import Panel, figure, main, ok_points, sweeps_along

JOB = "toy-steps"


def figures(job):
    """Per steps sub-sweep: time (linear), time (log-log), final particles."""
    made = []
    for _, points in sweeps_along(ok_points(job), "steps"):
        made += [
            figure(job, "fig5.6_toy_steps", "Figure 5.6", "toy run time against time steps",
                   "steps", points, (Panel(("time",)),), regime="toy, time steps"),
            figure(job, "fig5.7_toy_steps_log", "Figure 5.7",
                   "toy run time against time steps, log-log", "steps", points,
                   (Panel(("time",), logy=True),), xscale="log"),
            figure(job, "fig5.8_toy_steps_final", "Figure 5.8",
                   "final particles against time steps", "steps", points,
                   (Panel(("final",)),)),
        ]
    return made


if __name__ == "__main__":
    main(figures, __doc__)
