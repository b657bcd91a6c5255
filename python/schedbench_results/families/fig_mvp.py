"""Seed Figures 5.9-5.14 (§5.2): mvp run time against block size (with and without Naive),
against the initial particles and against time steps, each with children simulated and with
them stored only (skip_spawned). One job holds all these sub-sweeps; they are told apart by
which parameters vary. Reads the results of jobs/mvp.json."""

from ..figures import (Panel, common_value, figure, main, ok_points, sm_fill_markers,
                     sweeps_along, view_without)

JOB = "mvp"
TIME = (Panel(("time",)),)
TIME_LOG = (Panel(("time",), logy=True),)


def skip_text(points):
    """How the sub-sweep treats children: the seed's figures differ by it."""
    return ("children stored, not simulated" if common_value(points, "skip_spawned")
            else "children simulated")


def block_size_figures(job):
    """Figures 5.9 and 5.10 (the latter without naive and naive-buffered)."""
    made = []
    for _, points in sweeps_along(ok_points(job), "block_size"):
        made.append(figure(job, "fig5.9_mvp_block_size", "Figure 5.9",
                           f"mvp run time against block size, {skip_text(points)}",
                           "block_size", points, TIME, xscale="log2",
                           regime="mvp, block size"))
        rest = view_without(points, "naive")
        if rest:
            made.append(figure(job, "fig5.10_mvp_block_size_no_naive", "Figure 5.10",
                               "mvp run time against block size, without Naive",
                               "block_size", rest, TIME, xscale="log2"))
    return made


def init_n_figures(job):
    """Figures 5.11 (children simulated) and 5.12 (skip_spawned), log-log with SM-fill lines."""
    made = []
    for _, points in sweeps_along(ok_points(job), "init_n"):
        skip = bool(common_value(points, "skip_spawned"))
        number = "5.12" if skip else "5.11"
        made.append(figure(job, f"fig{number}_mvp_init_n{'_skip_spawned' * skip}",
                           f"Figure {number}",
                           f"mvp run time against the initial particles, {skip_text(points)}",
                           "init_n", points, TIME_LOG, xscale="log",
                           markers=sm_fill_markers(job, common_value(points, "block_size")),
                           regime=f"mvp, initial particles, {skip_text(points)}"))
    return made


def steps_figures(job):
    """Figures 5.13 (children simulated, log-log as in the seed) and 5.14 (skip_spawned,
    linear: the seed shows its run time growing linearly)."""
    made = []
    for _, points in sweeps_along(ok_points(job), "steps"):
        skip = bool(common_value(points, "skip_spawned"))
        number = "5.14" if skip else "5.13"
        made.append(figure(job, f"fig{number}_mvp_steps{'_skip_spawned' * skip}",
                           f"Figure {number}",
                           f"mvp run time against time steps, {skip_text(points)}",
                           "steps", points, TIME if skip else TIME_LOG,
                           xscale="linear" if skip else "log",
                           regime=f"mvp, time steps, {skip_text(points)}"))
    return made


def figures(job):
    """Every sub-sweep's figures, in the seed's order."""
    return block_size_figures(job) + init_n_figures(job) + steps_figures(job)


if __name__ == "__main__":
    main(figures, __doc__)
