"""What reduced precision gains (seed 002's single and mixed precision): each scheduler's speed-up
over double precision, the double run's median time over the mixed or single run's, on pic's
default workload and its turnover shape (a constant collision chance) and on air near and above
its critical field. Error bars: the speed-up's range from the repetitions' extremes (double's
fastest over the other's slowest, and the reverse). Reads the results of
jobs/precision-pic.json and jobs/precision-air.json:
.venv/bin/python -m schedbench_results.families.fig_precision results/DEVICE/precision-*.json \
--out DIR"""

from ..figures import Figure, Panel, catalog, config, device_label, fmt, fmt_measure, main, ok_points

JOB = "precision"
TITLE = "Reduced precision"
PARTS = ("precision-pic", "precision-air")
PRECISIONS = ("double", "mixed", "single")
REDUCED = PRECISIONS[1:]


def precision(point):
    """A point's precision: double where the configuration does not name one."""
    return config(point).get("precision", "double")


# The block size the figure draws (the table has every one).
FIGURE_BLOCK = 128


def workload(point):
    """A point's workload within its sim: pic's collision chance (the table where none is
    given), air's reduced field and phase length; and the block size."""
    c = config(point)
    if c["sim"] == "pic":
        what = f"{fmt(c['collision_chance'])} %" if "collision_chance" in c else "the table"
    else:
        what = f"{fmt(c['reduced_field'])} Td, {fmt(c['phase_time'] * 1e12)} ps phases"
    return f"{what}, block {c['block_size']}"


def runs(points):
    """{(sim, workload, scheduler): {precision: point}} in the catalog's scheduler order."""
    order = {name: k for k, name in enumerate(catalog().schedulers)}
    out = {}
    for p in points:
        c = config(p)
        out.setdefault((c["sim"], workload(p), c["scheduler"]), {})[precision(p)] = p
    return dict(sorted(out.items(), key=lambda kv: (kv[0][0] != "pic", kv[0][1],
                                                   order.get(kv[0][2], len(order)))))


def speedup(base, other):
    """(median, low, high) of double's time over `other`'s."""
    b, o = base["stats"], other["stats"]
    return (b["median_ms"] / o["median_ms"], b["min_ms"] / o["max_ms"], b["max_ms"] / o["min_ms"])


def draw(ax, figure, panel):
    """One sim in one precision: a group of bars per scheduler, one bar per workload at
    FIGURE_BLOCK."""
    import matplotlib

    sim, prec = panel.quantities
    rows = {k: v for k, v in runs(figure.points).items()
            if k[0] == sim and "double" in v and prec in v
            and config(v["double"])["block_size"] == FIGURE_BLOCK}
    schedulers = list(dict.fromkeys(k[2] for k in rows))
    workloads = list(dict.fromkeys(k[1] for k in rows))
    colours = matplotlib.colormaps["tab10"]
    width = 0.8 / max(len(workloads), 1)
    for j, w in enumerate(workloads):
        xs, ys, low, high = [], [], [], []
        for i, s in enumerate(schedulers):
            if (sim, w, s) not in rows:
                continue
            ways = rows[(sim, w, s)]
            median, lo, hi = speedup(ways["double"], ways[prec])
            xs.append(i - 0.4 + width * (j + 0.5))
            ys.append(median)
            low.append(median - lo)
            high.append(hi - median)
        ax.bar(xs, ys, width, yerr=[low, high], capsize=2, color=colours(j), label=w)
    ax.axhline(1.0, color="k", linewidth=1)
    ax.set_xticks(range(len(schedulers)))
    ax.set_xticklabels(schedulers, rotation=20, fontsize=8)
    ax.set_ylabel(f"{sim}: speed-up of {prec} over double")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")


def words(job, points):
    """The report's text: the setup and every run's median time in each precision."""
    text = [f"On {device_label(job)}, one rank. Median times (ms) of each precision, and in "
            "brackets the speed-up over double (double's median over its own).",
            "", "| sim | workload | scheduler | double | mixed | single |", "|---|---|---|---|---|---|"]
    for (sim, w, s), ways in runs(points).items():
        if "double" not in ways:
            continue
        cells = [fmt_measure(ways["double"]["stats"]["median_ms"])]
        for prec in REDUCED:
            if prec in ways:
                cells.append(f"{fmt_measure(ways[prec]['stats']['median_ms'])} "
                             f"({speedup(ways['double'], ways[prec])[0]:.2f}×)")
            else:
                cells.append("-")
        text.append(f"| {sim} | {w} | {s} | " + " | ".join(cells) + " |")
    return tuple(text) + claim(points)


def claim(points):
    """Seed 002's claim against these results: the range of each sim's speed-ups per precision
    over the schedulers (the yardstick aside) and workloads."""
    yardsticks = catalog().yardsticks
    ranges = {}
    for (sim, _, s), ways in runs(points).items():
        if s in yardsticks or "double" not in ways:
            continue
        for prec in REDUCED:
            if prec in ways:
                ranges.setdefault((sim, prec), []).append(speedup(ways["double"], ways[prec])[0])
    parts = [f"{sim} {prec} {min(v):.2f}–{max(v):.2f}×" for (sim, prec), v in ranges.items()]
    return ("", "Seed 002 (sputniPIC) reports 45–80 % more speed (1.45–1.80×) from single and "
            "mixed precision. Here, over the schedulers and workloads: " + ", ".join(parts) + ".")


def figures(job):
    """The speed-ups of mixed and single over double, pic's and air's."""
    points = ok_points(job)
    sims = [s for s in ("pic", "air") if any(config(p)["sim"] == s for p in points)]
    if not any(precision(p) != "double" for p in points) or not sims:
        return []
    caption = ("Each scheduler's speed-up of mixed and single precision over double (double's "
               "median time over the other's), per workload at block "
               f"{FIGURE_BLOCK}, error bars from the repetitions' extremes; above 1 the reduced "
               "precision is faster.")
    panels = tuple(Panel((s, prec)) for s in sims for prec in REDUCED)
    return [Figure(job=job, name="precision", title="Reduced precision: speed-up over double",
                   caption=caption, x="precision", points=points, panels=panels, draw=draw,
                   table=True, text=words(job, points))]


if __name__ == "__main__":
    main(figures, __doc__, JOB)
