"""What the real field costs in pic's default workload. The mock field of seed 003 against
--field poisson (deposition, cuFFT solve, the field read at each particle) on meshes of several
sizes, per scheduler. Reads the results of jobs/pic-field.json."""

from ..figures import Panel, config, distinct, main, new_figure, ok_points, sweeps_along

JOB = "pic-field"


def explicit_field(points):
    """The points, those that ran the mock field (pic's default, left out of the configuration)
    saying so."""
    return [p if "field" in config(p) else dict(p, config=dict(p["config"], field="mock"))
            for p in points]


def figures(job):
    """Run time per scheduler with the mock field and with the Poisson field on the default
    512^3 mesh (bars), and the Poisson field's run time against the mesh size (lines)."""
    points = explicit_field(ok_points(job))
    made = []
    default_mesh = [p for p in points
                    if config(p)["field"] == "mock" or config(p).get("grid") == 512]
    if distinct(default_mesh, "field") == 2:
        made.append(new_figure(job, "pic_field_mock_against_poisson",
                               "pic run time with the mock field and with the Poisson field "
                               "(512^3 mesh, cuFFT)", "field", default_mesh,
                               (Panel(("time",)),), xscale="category", along=("grid",),
                               regime="pic, field model", table=True))
    poisson = [p for p in points if config(p)["field"] == "poisson"]
    for _, sweep in sweeps_along(poisson, "grid"):
        made.append(new_figure(job, "pic_field_grid", "pic run time against the Poisson mesh "
                               "size (nodes per side)", "grid", sweep, (Panel(("time",)),),
                               xscale="log2"))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
