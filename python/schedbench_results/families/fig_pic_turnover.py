"""What births and deaths cost each scheduler on pic's default workload shape. The mobility
steps' time against a constant collision chance, from none (no particle splits or dies, so the
time is the schedulers' loops alone) to twice the synthetic table's rate, with the bound beside
them. Reads the results of jobs/pic-turnover.json; its points with the table itself are the
reference the text of docs/performance.md compares with, not a value of x."""

from ..figures import Panel, config, distinct, main, new_figure, ok_points

JOB = "pic-turnover"


def figures(job):
    """Mobility time and the collisions against the collision chance."""
    points = [p for p in ok_points(job) if "collision_chance" in config(p)]
    if distinct(points, "collision_chance") < 2:
        return []
    return [new_figure(job, "pic_turnover",
                       "pic's mobility steps against a constant collision chance "
                       "(split = remove = half of it; none at 0)", "collision_chance", points,
                       (Panel(("mobility",)), Panel(("spawned", "removed"))),
                       regime="pic, collision chance from none", choice=True)]


if __name__ == "__main__":
    main(figures, __doc__)
