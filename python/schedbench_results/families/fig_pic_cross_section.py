"""Seed Figures 5.15-5.17 and 9.3-9.5 (§5.3.1): pic run time and the spawned and removed
particles against a constant collision chance, for the 'long' sub-sweep (more mobility steps,
fewer particles) and the 'short' one; each with every scheduler, without Naive, and for the
low chances alone. Reads the results of jobs/pic-cross-section.json."""

from ..figures import (Panel, auto_scale, common_value, distinct, figure, in_range, main,
                     ok_points, sweeps_along, view_without)

JOB = "pic-cross-section"
LOW_CHANCE = 0.1  # percent: the seed's "low chances" figures show the chances below this
PANELS = (Panel(("time",)), Panel(("spawned", "removed")))
SEED_FIGURES = {"long": ("5.15", "5.16", "5.17"), "short": ("9.3", "9.4", "9.5")}


def named_sweeps(job):
    """The collision-chance sub-sweeps, longest (most mobility steps) first, named 'long' and
    'short' as in the seed; any further ones by their mobility steps."""
    found = sweeps_along(ok_points(job), "collision_chance")
    found.sort(key=lambda cp: -(common_value(cp[1], "mobility_steps") or 0))
    names = ["long", "short"] + [f"{common_value(ps, 'mobility_steps')} mobility steps"
                                 for _, ps in found[2:]]
    return list(zip(names, (ps for _, ps in found)))


def sweep_figures(job, name, points):
    """A sub-sweep's three views: all schedulers, without Naive, chances below LOW_CHANCE."""
    numbers = SEED_FIGURES.get(name, ("", "", ""))
    slug = name.replace(" ", "_")
    made = [figure(job, f"fig{numbers[0]}_pic_cross_section_{slug}", f"Figure {numbers[0]}",
                   f"pic against a constant collision chance ({name})", "collision_chance",
                   points, PANELS, xscale=auto_scale(points, "collision_chance"),
                   regime=f"pic, collision chance, {name}")]
    rest = view_without(points, "naive")
    if rest:
        made.append(figure(job, f"fig{numbers[1]}_pic_cross_section_{slug}_no_naive",
                           f"Figure {numbers[1]}",
                           f"pic against a constant collision chance ({name}), without Naive",
                           "collision_chance", rest, PANELS,
                           xscale=auto_scale(rest, "collision_chance")))
    low = in_range(points, "collision_chance", 0, LOW_CHANCE)
    if distinct(low, "collision_chance") > 1:
        made.append(figure(job, f"fig{numbers[2]}_pic_cross_section_{slug}_low",
                           f"Figure {numbers[2]}",
                           f"pic against a constant collision chance ({name}), "
                           f"chances up to {LOW_CHANCE} %", "collision_chance", low, PANELS,
                           regime=f"pic, collision chance, {name}, up to {LOW_CHANCE} %"))
    return made


def figures(job):
    """The views of every collision-chance sub-sweep."""
    return [f for name, points in named_sweeps(job) for f in sweep_figures(job, name, points)]


if __name__ == "__main__":
    main(figures, __doc__)
