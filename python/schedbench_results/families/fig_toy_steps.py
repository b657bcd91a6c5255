"""Seed Figures 5.6-5.8 (§5.1.4) and 9.2: the toy's run time against the number of time
steps, linear, log-log and zoomed, and the final number of particles, which drives it. Reads
the results of jobs/toy-steps.json."""

from ..figures import Panel, distinct, figure, in_range, main, ok_points, sweeps_along

JOB = "toy-steps"
ZOOM = 5000  # steps: the seed's appendix figure 9.2 zooms in on the runs up to here


def figures(job):
    """Per steps sub-sweep: time (linear), time (log-log), final particles, and time for the
    short runs alone (appendix 9.2, zoomed)."""
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
        short = in_range(points, "steps", 0, ZOOM)
        if distinct(short, "steps") >= 2:
            made.append(figure(job, "fig9.2_toy_steps_zoomed", "Figure 9.2",
                               f"toy run time against time steps, up to {ZOOM} steps (zoomed)",
                               "steps", short, (Panel(("time",)),)))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
