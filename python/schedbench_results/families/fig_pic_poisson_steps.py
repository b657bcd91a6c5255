"""Seed Figures 5.19-5.20 (§5.3.3) and 9.6: the split (and remove) collisions and the pic run
time against the number of poisson steps. Reads the results of jobs/pic-poisson-steps.json."""

from ..figures import Panel, distinct, figure, main, ok_points, only, sweeps_along

JOB = "pic-poisson-steps"


def figures(job):
    """Per poisson-steps sub-sweep: collisions (5.19), run time (5.20), and run time of
    dynamic-warp alone (appendix 9.6, "Dynamic Only")."""
    made = []
    for _, points in sweeps_along(ok_points(job), "poisson_steps"):
        made += [
            figure(job, "fig5.19_pic_poisson_steps_collisions", "Figure 5.19",
                   "split and remove collisions against poisson steps", "poisson_steps",
                   points, (Panel(("spawned", "removed")),)),
            figure(job, "fig5.20_pic_poisson_steps", "Figure 5.20",
                   "pic run time against poisson steps", "poisson_steps", points,
                   (Panel(("time",)),), regime="pic, poisson steps"),
        ]
        dynamic = only(points, "dynamic-warp")
        if distinct(dynamic, "poisson_steps") >= 2:
            made.append(figure(job, "fig9.6_pic_poisson_steps_dynamic", "Figure 9.6",
                               "pic run time against poisson steps, Dynamic (dynamic-warp) only",
                               "poisson_steps", dynamic, (Panel(("time",)),)))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
