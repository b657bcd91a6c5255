"""What air's space charge costs. air in the applied field alone against --space-charge
(deposition of electrons and ions, free-space FFT solve at each phase boundary, the field read
at each flight's start) on meshes of several sizes, per scheduler. Reads the results of
jobs/air-space-charge.json."""

from ..figures import Panel, config, distinct, main, new_figure, ok_points, sweeps_along

JOB = "air-space-charge"


def explicit_switch(points):
    """The points, those without space charge (air's default, left out of the configuration)
    saying so."""
    return [p if "space_charge" in config(p)
            else dict(p, config=dict(p["config"], space_charge=False)) for p in points]


def figures(job):
    """Run time per scheduler without and with the space charge on the 64^3 mesh (bars), and
    with it against the mesh size (lines)."""
    points = explicit_switch(ok_points(job))
    made = []
    default_mesh = [p for p in points
                    if not config(p)["space_charge"] or config(p).get("grid") == 64]
    if distinct(default_mesh, "space_charge") == 2:
        made.append(new_figure(job, "air_space_charge_off_against_on",
                               "air run time without and with the space charge (64^3 mesh, "
                               "cuFFT)", "space_charge", default_mesh, (Panel(("time",)),),
                               xscale="category", along=("grid",), regime="air, space charge",
                               table=True))
    charged = [p for p in points if config(p)["space_charge"]]
    for _, sweep in sweeps_along(charged, "grid"):
        made.append(new_figure(job, "air_space_charge_grid", "air run time with the space "
                               "charge against the mesh size (nodes per side)", "grid", sweep,
                               (Panel(("time",)),), xscale="log2"))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
