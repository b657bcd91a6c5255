"""sim air near its critical field, the same simulated time cut into phases of a few to
thousands of flights per electron: what the phase boundaries and the variable time step cost
each scheduler. Reads the results of jobs/air-phase-time.json."""

from ..figures import Panel, distinct, main, new_figure, ok_points

JOB = "air-phase-time"


def figures(job):
    """Time per flight against the phase length. The number of phases changes with it (the
    simulated time is fixed), so the points form one sweep although two keys vary."""
    points = ok_points(job)
    if distinct(points, "phase_time") < 2:
        return []
    return [new_figure(job, "air_phase_time", "air time per flight against the phase length",
                       "phase_time", points, (Panel(("ns_per_step",), logy=True),),
                       xscale="log", regime="air, phase length", choice=True,
                       along=("phases",))]

if __name__ == "__main__":
    main(figures, __doc__)
