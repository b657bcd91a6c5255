"""sim ccp, the Turner Case 1 helium discharge at its full size, its start-up (the first 2 RF
periods, 800 steps of one phase each): every scheduler's time with one and with eight replicas
in one run. A step's fixed cost, not its particles, sets it (docs/performance.md, "Small
populations, many steps"). Reads the results of jobs/ccp-speed.json."""

from ..figures import Panel, main, new_figure, ok_points

JOB = "ccp-speed"
# What both ccp speed jobs run, for their figures' titles.
START_UP = "Turner Case 1 (sim ccp), its start-up of 800 steps"


def figures(job):
    """Bars of median time per scheduler at each replica count; the initial particles and the
    capacity grow with the replicas, so they name no series."""
    points = [p for p in ok_points(job) if "replicas" in p["config"]]
    if not points:
        return []
    what = f"{START_UP}: time per scheduler against the replicas in one run"
    return [new_figure(job, "ccp_speed", what, "replicas", points,
                       (Panel(("time",), logy=True),), xscale="category",
                       regime="ccp Case 1 start-up", along=("init_n", "capacity"), table=True)]


if __name__ == "__main__":
    main(figures, __doc__)
