"""Seed Figure 5.18 (§5.3.2): pic run time against block size at the default workload.
Reads the results of jobs/pic-block-size.json."""

from ..figures import Panel, figure, main, ok_points, sweeps_along

JOB = "pic-block-size"


def figures(job):
    """One figure per block-size sub-sweep (the job has one)."""
    return [figure(job, "fig5.18_pic_block_size", "Figure 5.18",
                   "pic run time against block size", "block_size", points,
                   (Panel(("time",)),), xscale="log2", regime="pic, block size")
            for _, points in sweeps_along(ok_points(job), "block_size")]


if __name__ == "__main__":
    main(figures, __doc__)
