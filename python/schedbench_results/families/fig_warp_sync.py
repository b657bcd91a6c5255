"""Seed §3.3.3: static-full's mvp run time with and without a warp synchronisation after every
particle, per block size; one chart per sub-sweep (initial particles and steps). Reads the
results of jobs/warp-sync.json."""

from ..figures import (Panel, context_slug, context_text, figure, main, ok_points,
                     sweeps_along)

JOB = "warp-sync"


def figures(job):
    """Bars per block size, one per warp_sync value, so that each block size's pair compares
    the two (and the report's best-per-regime row is warp sync on against off)."""
    found = sweeps_along([p for p in ok_points(job) if "warp_sync" in p["config"]],
                         "block_size", min_values=1)
    made = []
    for context, ps in found:
        several = len(found) > 1
        made.append(figure(job, "sec3.3.3_warp_sync" + (f"_{context_slug(context)}" * several),
                           "§3.3.3", "static-full run time with and without warp sync"
                           + (f" ({context_text(context)})" * several), "block_size", ps,
                           (Panel(("time",)),), xscale="category",
                           regime="static-full warp sync"
                           + (f", {context_text(context)}" * several)))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
