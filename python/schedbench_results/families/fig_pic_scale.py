"""pic's default workload on one GPU from 1e6 initial particles up, each run with a capacity of
three slots per initial particle; time per particle-step (flat where the GPU scales) and the
slots each scheduler used against the initial particles. Reads the results of
jobs/pic-scale.json."""

from ..figures import Panel, context_slug, main, new_figure, ok_points, sweeps_along

JOB = "pic-scale"


def figures(job):
    """One figure per sub-sweep along init_n (the job has one); the capacity, a bookkeeping key,
    splits none."""
    found = sweeps_along(ok_points(job), "init_n")
    return [new_figure(job, "pic_scale" + (f"_{context_slug(context)}" * (len(found) > 1)),
                       "pic time per particle-step and slots used against the initial "
                       "particles", "init_n", ps,
                       (Panel(("ns_per_step",)), Panel(("slots_used",), logy=True)), xscale="log",
                       table=True)
            for context, ps in found]


if __name__ == "__main__":
    main(figures, __doc__)
