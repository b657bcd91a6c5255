"""Populations larger than the device, for the figure families of the streamed jobs
(fig_streamed_mvp, fig_streamed_pic): a sim's particle-steps per second with its particles in
device memory and streamed from pinned host memory in batches (docs/design.md §11), against the
initial population, and the bandwidth the streamed runs' copies reached each way against the host
link's peak. A population that fits runs both ways (batch auto keeps it in device memory, a batch
size streams it); the largest streams by itself, its capacity past device memory."""

import matplotlib

from ..figures import Figure, Panel, config, device_label, fmt, fmt_measure, ok_points

# The host link of an H100 SXM: PCIe Gen5 x16, 32 GT/s a lane with 128b/130b encoding, each way.
LINK_PEAK_GB_PER_S = 16 * 32 / 8 * 128 / 130
LINK = "PCIe Gen5 x16"


def streamed(point):
    """Whether a point's particles were streamed from host memory."""
    return bool(point.get("streaming"))


def pairs(points):
    """(in device memory, streamed) points of each initial population that ran both ways, in
    order of population; None for a way that did not run."""
    by_n = {}
    for p in points:
        by_n.setdefault(config(p)["init_n"], [None, None])[streamed(p)] = p
    return [(n, ways[0], ways[1]) for n, ways in sorted(by_n.items())]


def rate(point):
    return point["counters"]["particle_steps_per_s"]


def rate_range(point):
    """(low, high) particle-steps per second: the slowest and the fastest repetition."""
    steps = point["counts"]["particle_steps"]
    return steps / (point["stats"]["max_ms"] * 1e-3), steps / (point["stats"]["min_ms"] * 1e-3)


def draw(ax, figure, panel):
    """Throughput per way, or the streamed runs' bandwidth each way with the link's peak."""
    rows = pairs(figure.points)
    colours = matplotlib.colormaps["tab10"]
    if panel.quantities[0] == "steps_per_s":
        for k, (label, marker) in enumerate((("in device memory", "o"),
                                             ("streamed from pinned host memory", "s"))):
            ps = [(n, ways[k]) for n, *ways in rows if ways[k]]
            xs, ys = [n for n, _ in ps], [rate(p) for _, p in ps]
            low = [y - rate_range(p)[0] for (_, p), y in zip(ps, ys)]
            high = [rate_range(p)[1] - y for (_, p), y in zip(ps, ys)]
            ax.errorbar(xs, ys, yerr=[low, high], fmt=marker + "-", color=colours(k), capsize=3,
                        label=label)
        alone = [n for n, memory, s in rows if s and not memory]
        if alone:
            ax.axvline(alone[0], color="0.4", linestyle="--", linewidth=1,
                       label="past device memory: streams by itself")
        ax.set_ylim(0, None)
        ax.set_ylabel("particle-steps per second")
    else:
        for k, (key, label) in enumerate((("to_device_GB_per_s", "host to device"),
                                          ("to_host_GB_per_s", "device to host"))):
            ps = [(n, s) for n, _, s in rows if s]
            ax.plot([n for n, _ in ps], [s["streaming"][key] for _, s in ps], "os"[k] + "-",
                    color=colours(k + 2), label=label)
        ax.axhline(LINK_PEAK_GB_PER_S, color="k", linestyle="--", linewidth=1,
                   label=f"{LINK} peak, {fmt_measure(LINK_PEAK_GB_PER_S)} GB/s each way")
        ax.set_ylim(0, 1.15 * LINK_PEAK_GB_PER_S)
        ax.set_ylabel("streamed runs' copies (GB/s)")
    ax.set_xscale("log")
    ax.set_xlabel("initial particles")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")


def workload(first):
    """What a sim's points ran, from the first point's configuration."""
    if first["sim"] == "pic":
        return (f"pic, {fmt(first['poisson_steps'])} poisson × {fmt(first['mobility_steps'])} "
                f"mobility steps, collision chance {fmt(first['collision_chance'])} % a step")
    return (f"mvp, {fmt(first['steps'])} steps in one phase, split chance "
            f"{fmt(first['split_chance'])} % a step")


def words(job, points):
    """The report's text: the setup, the ratio of the two ways and the copies' bandwidth."""
    first = config(points[0])
    text = [f"{workload(first)}, {first['scheduler']} at block {fmt(first['block_size'])}, one "
            f"rank, on {device_label(job)}. Streamed runs keep their particles in pinned "
            "host memory and run them through the GPU in batches, copies overlapping the compute; "
            "in device memory means the in-memory run (batch auto where the capacity fits). The "
            "throughput ratio is the in-memory median time over the streamed one (for the largest "
            "population, which only streams, its rate over the in-memory rate of the largest that "
            "fits); the bandwidth, the bytes copied over the copy engines' time, against the "
            f"{LINK} peak of "
            f"{fmt_measure(LINK_PEAK_GB_PER_S)} GB/s each way.", "",
            "| initial | final | in device memory (ms) | streamed (ms) | throughput, streamed / in memory "
            "| batches × slots | device memory streamed | host to device | device to host |",
            "|---|---|---|---|---|---|---|---|---|"]
    rows = pairs(points)
    largest = max((m for _, m, _ in rows if m), key=lambda m: config(m)["init_n"], default=None)
    for n, memory, s in rows:
        if not s:
            continue
        t = s["streaming"]
        if memory:
            ratio = f"{memory['stats']['median_ms'] / s['stats']['median_ms']:.3f}"
        else:
            ratio = (f"{rate(s) / rate(largest):.3f} (rates, against {fmt(config(largest)['init_n'])})"
                     if largest else "-")
        text.append(
            f"| {fmt(n)} | {fmt(s['counts']['final'])} | "
            f"{fmt_measure(memory['stats']['median_ms']) if memory else '-'} | "
            f"{fmt_measure(s['stats']['median_ms'])} | {ratio} | "
            f"{t['batches']} × {fmt(t['batch_slots'])} | {fmt_measure(s['device_bytes'] / 1e9)} GB | "
            f"{fmt_measure(t['to_device_GB_per_s'])} GB/s "
            f"({t['to_device_GB_per_s'] / LINK_PEAK_GB_PER_S:.0%}) | "
            f"{fmt_measure(t['to_host_GB_per_s'])} GB/s "
            f"({t['to_host_GB_per_s'] / LINK_PEAK_GB_PER_S:.0%}) |")
    return tuple(text)


def figures(job):
    """Throughput both ways, and the copies' bandwidth, against init_n: the figure of the sim
    the job runs."""
    points = [p for p in ok_points(job) if "init_n" in config(p)]
    if not any(streamed(p) for p in points):
        return []
    sim = config(points[0])["sim"]
    caption = (f"{sim}'s particle-steps per second with its particles in device memory and "
               "streamed from pinned host memory in batches, error bars the fastest and slowest "
               "repetition; and the bandwidth the streamed runs' copies reached each way, against "
               f"the {LINK} peak.")
    return [Figure(job=job, name=f"streamed_{sim}",
                   title=f"Populations larger than the device: {sim} streamed from host memory",
                   caption=caption, x="init_n", points=points,
                   panels=(Panel(("steps_per_s",)), Panel(("bandwidth",))), draw=draw,
                   table=True, text=words(job, points))]
