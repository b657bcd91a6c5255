"""sim air (electrons in N2:0.8,O2:0.2 with null collisions on LXCat cross sections) against the
reduced field E/N, one figure per population. A step is one random flight, so the time per
flight compares fields whose phases differ in length. Reads the results of
jobs/air-reduced-field.json."""

from ..figures import Panel, distinct, main, new_figure, ok_points

JOB = "air-reduced-field"


def figures(job):
    """Per initial population: time per flight, and the final electrons (attachment wins below
    the critical field, ionization above). The job's phase length changes with the field (so
    that no point grows more than about e^3), which is why the points are grouped by population
    alone rather than by sweeps_along."""
    points = ok_points(job)
    made = []
    for init_n in sorted({p["config"]["init_n"] for p in points}):
        group = [p for p in points if p["config"]["init_n"] == init_n]
        if distinct(group, "reduced_field") < 2:
            continue
        made.append(new_figure(
            job, f"air_reduced_field_init_n-{init_n}",
            f"air time per flight against the reduced field, {init_n:,} initial electrons",
            "reduced_field", group,
            (Panel(("ns_per_step",), logy=True), Panel(("final",), logy=True)), xscale="log",
            regime=f"air, E/N, {init_n:,} electrons", choice=True, along=("phase_time",)))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
