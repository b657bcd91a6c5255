"""The demo figure (make demo): mvp run time and particle-steps per second against the initial
particles, one line per scheduler with its repetitions' spread as error bars, from the results
of jobs/demo.json; writes DIR/demo.png and demo.pdf. On a machine without a CUDA device the job
runs its CPU fallback engines, and the title says so."""

from schedbench_results.figures import Panel, device_label, main, new_figure, ok_points

JOB = "demo"


def where(job):
    """What ran the job: the GPU, or the CPU fallback on the host's CPU."""
    if (job.get("environment") or {}).get("device"):
        return f"on {device_label(job)}"
    return f"on the CPU fallback ({device_label(job)}, no CUDA device)"


def figures(job):
    """Time and rate against init_n on a log x axis; each y axis turns logarithmic where its
    values span more than ten times (a GPU's sweep does, two CPU engines may not)."""
    what = f"run time and rate of sim mvp against the initial particles, {where(job)}"
    return [new_figure(job, "demo", what, "init_n", ok_points(job),
                       (Panel(("time",)), Panel(("steps_per_s",))), xscale="log")]


if __name__ == "__main__":
    main(figures, __doc__)
