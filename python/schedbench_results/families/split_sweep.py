"""The seed's low/high pairs of figures (§5.3.4, §5.3.5): a pic sweep split at a round value
into two ranges, each drawn as run time and as collisions, with linear axes."""

from ..figures import Panel, distinct, figure, in_range, ok_points, only, sweeps_along


def low_high_figures(job, x, split, numbers, what):
    """Figures for x <= split ('low') and x >= split ('high'): numbers gives the seed's
    (time low, collisions low, time high, collisions high, dynamic-only time low, dynamic-only
    time high) figure numbers; the last two are its appendix's "Dynamic Only" views."""
    made = []
    for _, points in sweeps_along(ok_points(job), x):
        ranges = (("low", 0, split, numbers[0:2], numbers[4]),
                  ("high", split, float("inf"), numbers[2:4], numbers[5]))
        for name, low, high, (time_no, count_no), dynamic_no in ranges:
            part = in_range(points, x, low, high)
            if distinct(part, x) < 2:
                continue
            slug = f"pic_{x}_{name}"
            made += [
                figure(job, f"fig{time_no}_{slug}", f"Figure {time_no}",
                       f"pic run time against {what} ({name})", x, part,
                       (Panel(("time",)),), regime=f"pic, {what}, {name}"),
                figure(job, f"fig{count_no}_{slug}_collisions", f"Figure {count_no}",
                       f"split and remove collisions against {what} ({name})", x, part,
                       (Panel(("spawned", "removed")),)),
            ]
            dynamic = only(part, "dynamic-warp")
            if distinct(dynamic, x) >= 2:
                made.append(figure(job, f"fig{dynamic_no}_{slug}_dynamic", f"Figure {dynamic_no}",
                                   f"pic run time against {what} ({name}), Dynamic "
                                   "(dynamic-warp) only", x, dynamic, (Panel(("time",)),)))
    return made
