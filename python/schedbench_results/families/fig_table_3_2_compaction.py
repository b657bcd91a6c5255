"""Seed Table 3.2 (§3.4.2): the time pic spends removing the dead (parts_ms.compaction), per
compaction variant and block size, as a bar chart and a Markdown table (NAME.md); one of each
per sub-sweep (e.g. without collisions and with a constant collision chance). Reads the results
of jobs/table-3.2-compaction.json."""

from ..figures import (Panel, context_slug, context_text, figure, main, ok_points,
                     sweeps_along, value)

JOB = "table-3.2-compaction"


def figures(job):
    """One chart and table per sub-sweep of the points that measured their compaction time;
    names and titles carry the sub-sweep's fixed values where there are several."""
    points = [p for p in ok_points(job) if value(p, "compaction") is not None]
    found = sweeps_along(points, "block_size", min_values=1)
    made = []
    for context, ps in found:
        several = len(found) > 1
        made.append(figure(job, "table3.2_compaction" + (f"_{context_slug(context)}" * several),
                           "Table 3.2", "time removing the dead per compaction variant and "
                           "block size" + (f" ({context_text(context)})" * several),
                           "block_size", ps, (Panel(("compaction",)),), xscale="category",
                           table=True,
                           regime="pic compaction" + (f", {context_text(context)}" * several)))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
