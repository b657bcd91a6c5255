"""The demo figure (make demo): mvp run time and particle-steps per second against the initial
particles, one line per scheduler, from the results of jobs/demo.json; writes DIR/demo.png and
demo.pdf."""

from schedbench_results.figures import Panel, figure, main, ok_points

JOB = "demo"


def figures(job):
    """Time and rate against init_n, log-log."""
    return [figure(job, "demo", "demo", "mvp run time and rate against the initial particles",
                   "init_n", ok_points(job),
                   (Panel(("time",), logy=True), Panel(("steps_per_s",), logy=True)),
                   xscale="log")]


if __name__ == "__main__":
    main(figures, __doc__)
