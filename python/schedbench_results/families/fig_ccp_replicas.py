"""sim ccp, R replicas of the Turner Case 1 start-up (800 steps) in one run, R from 1 to 512:
where the particle work, not the step's fixed cost, starts to set the time, on the whole-cycle
kernel and on the fastest per-step scheduler, at one and at a filled SM's blocks. Reads the
results of jobs/ccp-replicas.json."""

from ..figures import Panel, main, new_figure, ok_points
from .fig_ccp_speed import START_UP

JOB = "ccp-replicas"


def figures(job):
    """Median time against the replicas, a line per scheduler and blocks per SM; the initial
    particles and the capacity grow with the replicas, so they name no series."""
    points = [p for p in ok_points(job) if "replicas" in p["config"]]
    if len({p["config"]["replicas"] for p in points}) < 2:
        return []
    what = f"{START_UP}: time against the replicas in one run"
    return [new_figure(job, "ccp_replicas", what, "replicas", points,
                       (Panel(("time",), logy=True),), xscale="log2", regime="ccp replicas",
                       along=("init_n", "capacity"), table=True)]


if __name__ == "__main__":
    main(figures, __doc__)
