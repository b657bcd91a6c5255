"""Figures of a job that has no family module (a job of the user's own): its median time against
each axis the job varies, one line per scheduler, a figure per sub-sweep. Points that lie on no
sweep (a comparison of schedulers alone) become one bar chart of median time per scheduler.
Results without schedulers (e.g. kernel timings) get no figure: the report tables their points."""

from .figures import (Figure, Panel, catalog, config, context_slug, context_text, distinct,
                      fixed_text, ok_points, sweeps_along, varying_keys)

TIME = (Panel(("time",)),)


def axes(points):
    """The config keys a sweep may run along, most values first: those that vary, other than
    the scheduler and bookkeeping."""
    keys = varying_keys(points) - {"scheduler"} - catalog().bookkeeping
    return sorted(keys, key=lambda k: (-distinct([p for p in points if k in config(p)], k), k))


def spec_scale(job, x):
    """'log' or 'linear' where the job file writes axis `x` as such a range ({"log": ...} or
    {"linear": ...}, jobs/README.md) in every sub-sweep that ranges it, else None."""
    spec = job["job"].get("spec")
    axes = spec.get("axes") if isinstance(spec, dict) else None
    subs = axes if isinstance(axes, list) else [axes]
    scales = {kind for sub in subs if isinstance(sub, dict) for v in [sub.get(x)]
              if isinstance(v, dict) for kind in ("log", "linear") if kind in v}
    return scales.pop() if len(scales) == 1 else None


def xscale(job, points, x):
    """Categories (bars) for names and flags; for numbers the scale the job file gives the axis
    (a log range on a log axis), log2 where the values are powers of two (block sizes) and the
    job gives no linear range, else log where they span more than two decades, else linear."""
    xs = [config(p)[x] for p in points]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs):
        return "category"
    given = spec_scale(job, x)
    if given != "linear" and all(isinstance(v, int) and v > 0 and v & (v - 1) == 0 for v in xs):
        return "log2"
    if given:
        return given if min(xs) > 0 else "linear"
    return "log" if min(xs) > 0 and max(xs) / min(xs) > 100 else "linear"


def job_figure(job, slug, what, x, points, **options):
    """A Figure titled 'JOB: what', its caption naming every parameter it holds fixed (a job of
    one's own may have parameters the families never show)."""
    title = f"{job['job']['name']}: {what}"
    keys = sorted({k for p in points for k in config(p)} - {"scheduler"} - catalog().bookkeeping)
    return Figure(job=job, name=f"{job['job']['name']}_{slug}", title=title,
                  caption=f"{title}. Fixed: {fixed_text(points, x, keys) or 'nothing else'}.",
                  x=x, points=points, panels=TIME, **options)


def sweep_figure(job, x, context, points):
    """Median time against x at the fixed `context`, a line (or bars) per scheduler."""
    where = f", {context_text(context)}" if context_text(context) else ""
    slug = f"_{context_slug(context)}" if context_slug(context) else ""
    return job_figure(job, f"{x}{slug}",
                      f"median time against {catalog().labels.get(x, x)}{where}", x, points,
                      xscale=xscale(job, points, x), regime=f"{job['job']['name']}, {x}{where}")


def schedulers_figure(job, points):
    """Median time per scheduler as bars, for points that lie on no sweep; the sim names the
    bars' one category."""
    return job_figure(job, "schedulers", "median time per scheduler", "sim", points,
                      xscale="category", regime=job["job"]["name"])


def figures(job):
    """A figure per sub-sweep along each varying axis that draws points no earlier figure drew,
    then one of the schedulers at the points left over."""
    points = [p for p in ok_points(job) if "scheduler" in config(p)]
    made, drawn = [], set()
    for x in axes(points):
        for context, members in sweeps_along(points, x):
            ids = {id(p) for p in members}
            if ids - drawn:
                made.append(sweep_figure(job, x, context, members))
                drawn |= ids
    rest = [p for p in points if id(p) not in drawn and "sim" in config(p)]
    if len({config(p)["scheduler"] for p in rest}) > 1:
        made.append(schedulers_figure(job, rest))
    return made
