"""Reading a job's results (schema schedbench.job/1, results/README.md) and drawing them.

Every family module (schedbench_results.families.fig_<job>) only says which figures its job
feeds, as `Figure` records built from the results (a module may draw the results of several
jobs, its PARTS, merged into one); this module holds what they share: loading and filtering
points, finding sub-sweeps, grouping into series, the quantities a panel can show, rendering to
PNG and PDF, and the command line. The report (schedbench_results.report) reads the same
records, so a figure's caption and the text about it come from one place.

Importing it loads no plotting backend: render() draws on a matplotlib Figure of its own, which
needs no pyplot, so a script or notebook that imports this keeps the backend it chose."""

import argparse
import importlib
import importlib.util
import json
import os
import pathlib
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field

from .errors import InputError, OutputError, drawn_from, run_command
from .frames import (JOB_SCHEMA as SCHEMA, file_kind, read_catalog_document, read_job,
                     tool_catalog)


@dataclass(frozen=True)
class Catalog:
    """What the code declares about its schedulers and parameters (`schedbench list --json`, which
    a sweep writes as catalog.json beside its results): scheduler order (each keeps its colour in
    every figure), which are yardsticks (drawn dashed, never ranked), axis labels, and which
    config keys tune rather than define a workload (a scheduler is compared at its best value)
    or change nothing computed (they neither split sub-sweeps nor name series)."""
    schedulers: tuple
    yardsticks: frozenset
    labels: dict
    tuning: frozenset
    bookkeeping: frozenset


_catalog = None


def use_catalog(results_path):
    """Reads the catalog.json in the folder of a results file and makes it the one in use;
    where there is none (not even a broken one), the tool's own catalog (frames.tool_catalog),
    which describes the schedulers and parameters of that binary rather than of the one that
    measured the results. InputError where neither is a catalog."""
    global _catalog
    path = pathlib.Path(results_path).parent / "catalog.json"
    doc = read_catalog_document(path) if os.path.lexists(path) else tool_catalog(path)
    params = doc["parameters"]
    _catalog = Catalog(
        schedulers=tuple(e["name"] for e in doc["schedulers"]),
        yardsticks=frozenset(e["name"] for e in doc["schedulers"] if e["kind"] == "yardstick"),
        labels={p["key"]: p["label"] for p in params},
        tuning=frozenset(p["key"] for p in params if p["role"] == "tuning"),
        bookkeeping=frozenset(p["key"] for p in params if p["role"] == "bookkeeping"))
    return _catalog


def catalog():
    """The catalog of the results last loaded (load_job)."""
    if _catalog is None:
        raise InputError("no catalog: load a results file first (load_job)")
    return _catalog


def is_yardstick(label):
    """Whether a series label names a yardstick (bound), not a scheduler."""
    return label.split(" (")[0] in catalog().yardsticks


@dataclass(frozen=True)
class Quantity:
    """What a panel can show: its axis label, how to read it from a point, and whether every
    scheduler gives the same value (counts do, by the determinism contract), so that one line
    per quantity is drawn rather than one per scheduler."""
    label: str
    path: tuple
    unit: str = ""
    shared: bool = False
    higher_is_better: bool = False
    # How the quantity follows a point's time, so the repetitions' spread carries over to it:
    # 1 in proportion (the time, ns per particle-step), -1 inversely (rates), 0 not at all or
    # unknown (counts; the parts of the time, recorded as medians only).
    per_time: int = 0

    def text(self, y):
        """A value with its unit, for generated sentences."""
        return f"{fmt_measure(y)} {self.unit}".strip() if not self.shared else fmt(y)


QUANTITIES = {
    "time": Quantity("median time (ms)", ("stats", "median_ms"), "ms", per_time=1),
    "ns_per_step": Quantity("time per particle-step (ns)", ("counters", "ns_per_particle_step"),
                            "ns", per_time=1),
    "steps_per_s": Quantity("particle-steps per second", ("counters", "particle_steps_per_s"),
                            "/s", higher_is_better=True, per_time=-1),
    "mobility": Quantity("mobility steps' time (ms, median)", ("parts_ms", "mobility"), "ms"),
    "compaction": Quantity("compaction time (ms, median)", ("parts_ms", "compaction"), "ms"),
    "final": Quantity("final particles", ("counts", "final"), shared=True),
    "spawned": Quantity("spawned (split collisions)", ("counts", "spawned"), shared=True),
    "removed": Quantity("removed (remove collisions)", ("counts", "removed"), shared=True),
    "peak": Quantity("peak particles", ("counts", "peak"), shared=True),
    "slots_used": Quantity("slots used", ("counts", "slots_used")),
}


@dataclass(frozen=True)
class Panel:
    """One axes of a figure: quantities on y (several only for shared counts), and its scale."""
    quantities: tuple
    logy: bool = False


@dataclass
class Figure:
    """One figure file: what it draws and the words that go with it. `regime` names the
    workload regime when this figure is the primary view of a sub-sweep (the report's table of
    best schedulers has one row per regime); views of the same data (a scheduler left out, a
    zoomed range) leave it None."""
    job: dict = field(repr=False)
    name: str
    title: str
    caption: str
    x: str
    points: list
    panels: tuple
    xscale: str = "linear"  # linear, log, log2 (block sizes), category (bar chart)
    markers: tuple = ()  # (x, label, colour): vertical lines
    regime: str = None
    table: bool = False  # also write NAME.md, the first quantity per series x value
    choice: bool = False  # ranked at each x in the report's "Choosing a scheduler" section
    along: tuple = ()  # config keys that change with x in this sweep: they name no series
    # A figure the lines and bars above do not fit draws each panel itself, draw(ax, figure,
    # panel), and brings its words as Markdown lines (text) in place of the sentences the report
    # computes from the panels' quantities; with table, NAME.md holds that text.
    draw: object = None
    text: tuple = ()

    def __post_init__(self):
        # The name is its files' stem: a job's name or a config value in it (a path) must not
        # put them outside their folder.
        self.name = file_stem(self.name)


def figure(job, name, seed_ref, what, x, points, panels, **options):
    """A Figure whose title and caption say which of the seed's figures it regenerates
    (`seed_ref`, e.g. "Figure 5.1"), what it shows and the parameters it holds fixed."""
    return Figure(job=job, name=name, title=f"{seed_ref}: {what}",
                  caption=f"{seed_ref} of the seed, regenerated: {what}. "
                          f"Fixed: {fixed_text(points, x)}.",
                  x=x, points=points, panels=panels, **options)


def new_figure(job, name, what, x, points, panels, **options):
    """A Figure of a workload the seed did not measure (air): titled and captioned by what it
    shows and the parameters it holds fixed."""
    return Figure(job=job, name=name, title=what[0].upper() + what[1:],
                  caption=f"{what[0].upper() + what[1:]}. Fixed: {fixed_text(points, x)}.",
                  x=x, points=points, panels=panels, **options)


def in_range(points, x, low, high):
    """The points whose x lies in [low, high]: the seed splits some sweeps into a low and a
    high figure at a round value."""
    return [p for p in points if low <= config(p)[x] <= high]


def auto_scale(points, x):
    """log where x spans more than two decades (e.g. collision chances 0.001-90 %), else linear."""
    xs = [config(p)[x] for p in points]
    return "log" if min(xs) > 0 and max(xs) / min(xs) > 100 else "linear"


def view_without(points, prefix):
    """The points without the schedulers named `prefix`..., or None where that leaves nothing
    out or nothing in (a "without Naive" figure is drawn only where it differs)."""
    kept = without(points, prefix)
    return kept if 0 < len(kept) < len(points) else None


# --- loading -----------------------------------------------------------------------------

def load_job(path):
    """The job results file at `path` (frames.read_job), its catalog in use; a file that is not
    one as its schema says is an InputError with its name and the bad value, so a wrong argument
    fails with a clear message rather than a KeyError deep in a plot."""
    doc = read_job(path)
    use_catalog(path)
    return doc


def ok_points(job):
    """The points that finished; failed ones have no stats to draw."""
    return [p for p in job["points"] if p.get("status") == "ok"]


def failed_points(job):
    """The points left out of every figure."""
    return [p for p in job["points"] if p.get("status") != "ok"]


def config(point):
    """A point's parameters without nulls: a null value means the parameter does not apply."""
    return {k: v for k, v in point["config"].items() if v is not None}


def value(point, quantity):
    """A quantity of a point, or None where the point does not record it."""
    node = point
    for key in QUANTITIES[quantity].path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


class Missing:
    """Marks a config key a point does not have (distinct from every real value)."""


# --- sub-sweeps and series -------------------------------------------------------------------

def varying_keys(points):
    """Config keys with more than one value among the points, being absent counting as a value
    (pic with a constant collision chance against pic with the cross-section table)."""
    keys = {k for p in points for k in config(p)}
    return {k for k in keys if len({json.dumps(config(p).get(k)) for p in points}) > 1}


def sweeps_along(points, x, min_values=2):
    """The sub-sweeps of `points` along config key `x`: groups that agree on every other
    workload parameter and span at least `min_values` values of x. A job may hold several
    sweeps (mvp: block size at one init_n, init_n at one block size, ...); this finds them from
    which keys vary, so no script needs to know the job's values. A parameter a point lacks
    (pic without collision_chance uses the cross-section table) is a value of its own. Tuning
    parameters (catalog().tuning) do not split groups, they name series (a scheduler run at two block
    sizes along a collision-chance sweep is two lines); a series with fewer than `min_values`
    values of x in a group is a stray of another sweep and is left out.
    Returns [(context, points)], context being the fixed values {key: value or Missing}."""
    keys = sorted(varying_keys(points) - {x, "scheduler"} - catalog().bookkeeping
                  - catalog().tuning)
    groups = {}
    for p in points:
        if x in config(p):
            groups.setdefault(tuple(config(p).get(k, Missing) for k in keys), []).append(p)
    found = []
    for context, members in groups.items():
        members = [p for ps in group_series(members, x).values()
                   if distinct(ps, x) >= min_values for p in ps]
        if distinct(members, x) >= min_values:
            found.append((dict(zip(keys, context)), members))
    return found


def context_text(context):
    """A sub-sweep's fixed values as 'init_n 10,000, steps 30,000' (keys a point lacks left out)."""
    return ", ".join(f"{k} {fmt(v)}" for k, v in context.items() if v is not Missing)


def context_slug(context):
    """A sub-sweep's fixed values for a file name: 'init_n-10000_steps-30000', a switch as the
    job files write it ('skip_spawned-false')."""
    return "_".join(f"{k}-{v if isinstance(v, str) else json.dumps(v)}"
                    for k, v in context.items() if v is not Missing)


def distinct(points, key):
    """How many different values of `key` the points have."""
    return len({json.dumps(config(p)[key]) for p in points})


def group_series(points, x, along=()):
    """{label: points in their order}: one series per scheduler, split further by any other
    parameter that takes several values within that scheduler's points (dynamic-warp at two
    block sizes is two lines; a scheduler run at one setting keeps its plain name), except the
    keys `along` that change together with x."""
    by_scheduler = {}
    for p in points:
        by_scheduler.setdefault(config(p)["scheduler"], []).append(p)
    groups = {}
    for name, ps in by_scheduler.items():
        extra = sorted(varying_keys(ps) - {x, "scheduler"} - catalog().bookkeeping - set(along))
        for p in ps:
            c = config(p)
            settings = ", ".join(f"{k} {fmt(c[k])}" for k in extra if k in c)
            groups.setdefault(f"{name} ({settings})" if settings else name, []).append(p)
    return groups


def series(figure):
    """{label: points sorted by x}: the figure's lines, in the order the points appear."""
    return {label: sorted(ps, key=lambda p: sort_key(config(p)[figure.x]))
            for label, ps in group_series(figure.points, figure.x, figure.along).items()}


def shared_values(figure, quantity):
    """[(x, value)] of a quantity every scheduler shares, from the first point at each x."""
    first = {}
    for p in figure.points:
        first.setdefault(json.dumps(config(p)[figure.x]), p)
    pairs = [(config(p)[figure.x], value(p, quantity)) for p in first.values()]
    return sorted([(x, y) for x, y in pairs if y is not None], key=lambda xy: sort_key(xy[0]))


def sort_key(v):
    """Orders x values of any type: numbers by value, others (true/false, names) after them."""
    return (0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, str(v))


def without(points, prefix):
    """The points of schedulers whose name does not start with `prefix` (the seed's "without
    Naive" figures leave out naive and naive-buffered alike)."""
    return [p for p in points if not config(p)["scheduler"].startswith(prefix)]


def only(points, scheduler):
    """The points of one scheduler: the seed's "Dynamic Only" appendix figures show its
    Dynamic (dynamic-warp) alone."""
    return [p for p in points if config(p)["scheduler"] == scheduler]


def schedulers(points):
    """The schedulers among the points, in order of appearance."""
    return list(dict.fromkeys(config(p)["scheduler"] for p in points))


# --- words -----------------------------------------------------------------------------------

def fmt(v):
    """A config value or a count as a reader wants it: large whole numbers with thousands
    separators (block sizes stay 1024), others to 3 significant digits, booleans as in the job
    files."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        if float(v).is_integer() and abs(v) >= 10_000:
            return f"{int(v):,}"
        if float(v).is_integer():
            return str(int(v))
        return f"{v:.3g}"
    return str(v)


SHOWN = ("sim", "layout", "init_n", "steps", "split_chance", "skip_spawned", "poisson_steps",
         "mobility_steps", "collision_chance", "cross_section", "gas", "reduced_field", "phases",
         "phase_time", "block_size", "blocks_per_sm", "compaction", "warp_sync")


def fmt_measure(y):
    """A measured number or ratio: whole units with separators from 100 up, else 3 digits
    (1,234 ms, 56.7 ms, 0.0151 ms; never 1.23e+03)."""
    return f"{y:,.0f}" if abs(y) >= 100 else f"{y:.3g}"


def fixed_text(points, x, keys=SHOWN):
    """The parameters among `keys` a figure holds fixed, as 'sim toy, init_n 200,000, ...', then
    those that are fixed per scheduler but differ between them ('static-iterate blocks_per_sm
    1')."""
    constant, per_scheduler = [], []
    for k in keys:
        if k == x or not any(k in config(p) for p in points):
            continue
        if distinct([p for p in points if k in config(p)], k) == 1:
            constant.append(f"{k} {fmt(common_value(points, k))}")
        elif all(distinct([p for p in points if config(p)["scheduler"] == s and k in config(p)],
                          k) <= 1 for s in schedulers(points)):
            per_scheduler += [f"{s} {k} {fmt(common_value(ps, k))}" for s in schedulers(points)
                              for ps in [[p for p in points if config(p)["scheduler"] == s]]
                              if k in config(ps[0])]
    text = ", ".join(constant)
    return text + (f"; per scheduler: {', '.join(per_scheduler)}" if per_scheduler else "")


def device_label(job):
    """What the job ran on: the GPU's name, else the host's CPU."""
    env = job.get("environment") or {}
    device = env.get("device")
    if device:
        return device["name"]
    return (env.get("host") or {}).get("cpu", "unknown CPU")


def git_commit(job):
    """The commit the binary that measured the job was built from."""
    return ((job.get("environment") or {}).get("build") or {}).get("git_commit", "unknown")


def footnote(job):
    """The line under every figure: device, commit, and how many failed points were left out."""
    failed = len(failed_points(job))
    skipped = f"; {failed} failed point{'s' if failed != 1 else ''} left out" if failed else ""
    return (f"{job['job']['name']}: {device_label(job)}, commit {git_commit(job)[:12]}, "
            f"{len(ok_points(job))} points{skipped}")


def sm_fill_markers(job, block_size):
    """The seed's Figure 5.5 lines, from the device the job ran on: the initial particles that
    put one block of `block_size` threads on every SM, and those that fill every SM to its
    thread limit. None without a device (a CPU run has no SMs to fill)."""
    device = (job.get("environment") or {}).get("device")
    if not device:
        return ()
    sms, full = device["sm_count"], device["sm_count"] * device["max_threads_per_sm"]
    markers = []
    if block_size:
        markers.append((sms * block_size,
                        f"{sms} SMs × {block_size} = {sms * block_size:,}: a block on every SM",
                        "tab:green"))
    markers.append((full, f"{sms} SMs × {device['max_threads_per_sm']} = {full:,}: every SM full",
                    "tab:red"))
    return tuple(markers)


def common_value(points, key):
    """The value of `key` if all points that have it agree, else None."""
    values = {json.dumps(config(p)[key]) for p in points if key in config(p)}
    return json.loads(values.pop()) if len(values) == 1 else None


# --- drawing ---------------------------------------------------------------------------------

# How many times the largest plotted median may exceed the smallest on a linear y axis; beyond
# it one slow scheduler would flatten the others into a line at the bottom.
LINEAR_Y_SPAN = 10


def colour(label):
    """A scheduler's colour from its place in the catalog, the same in every figure."""
    import matplotlib  # here, not at import: importing this module loads no plotting code

    name = label.split(" (")[0]
    names = catalog().schedulers
    index = names.index(name) if name in names else len(names)
    return matplotlib.colormaps["tab20"]((2 * index) % 20 + (2 * index) // 20 % 2)


def spread(point, quantity):
    """(low, high) of a point's quantity over its repetitions, from its fastest and slowest
    repetition (stats min_ms and max_ms), or None where the quantity does not follow the time."""
    q, y, stats = QUANTITIES[quantity], value(point, quantity), point.get("stats") or {}
    median, low, high = stats.get("median_ms"), stats.get("min_ms"), stats.get("max_ms")
    if not q.per_time or y is None or not median or low is None or high is None:
        return None
    if q.per_time > 0:
        return y * low / median, y * high / median
    return y * median / high, y * median / low


def error_bars(points, quantity):
    """The matplotlib yerr of the points' spread ([below], [above]), or None where the quantity
    has none (counts, parts of the time)."""
    if not QUANTITIES[quantity].per_time:
        return None
    below, above = [], []
    for p in points:
        y, s = value(p, quantity), spread(p, quantity)
        below.append(y - s[0] if s else 0)
        above.append(s[1] - y if s else 0)
    return [below, above]


NOISY_LABEL = "noisy: its results file says so"


def ring_noisy(ax, xs, ys, points):
    """Rings the points at (xs, ys) that their results file marks `noisy` (results/README.md),
    whose median may not repeat; the legend names the ring once per axes."""
    at = [(x, y) for x, y, p in zip(xs, ys, points) if p.get("noisy")]
    if not at:
        return
    named = NOISY_LABEL in ax.get_legend_handles_labels()[1]
    ax.scatter([x for x, _ in at], [y for _, y in at], s=150, facecolors="none",
               edgecolors="red", linewidths=1.5, zorder=5,
               label="_nolegend_" if named else NOISY_LABEL)


def draw_lines(ax, figure, panel):
    """Per-scheduler quantities as one line per series, each point with its spread as an error
    bar; shared counts as one line each."""
    styles = ["-", "--", ":", "-."]
    if QUANTITIES[panel.quantities[0]].shared:
        for i, q in enumerate(panel.quantities):
            xy = shared_values(figure, q)
            ax.plot([x for x, _ in xy], [y for _, y in xy], "os^D"[i % 4] + styles[i % 4],
                    label=QUANTITIES[q].label)
        return
    quantity, seen = panel.quantities[0], {}
    for label, ps in series(figure).items():
        ps = [p for p in ps if value(p, quantity) is not None]
        xs, ys = [config(p)[figure.x] for p in ps], [value(p, quantity) for p in ps]
        if is_yardstick(label):
            ax.errorbar(xs, ys, yerr=error_bars(ps, quantity), fmt="k--", linewidth=1,
                        capsize=2, label=f"{label}: yardstick, not a scheduler")
            continue
        name = label.split(" (")[0]
        k = seen[name] = seen.get(name, -1) + 1
        ax.errorbar(xs, ys, yerr=error_bars(ps, quantity), fmt="os^D"[k % 4] + styles[k % 4],
                    color=colour(label), capsize=2, label=label)
        ring_noisy(ax, xs, ys, ps)


def draw_bars(ax, figure, panel):
    """Grouped bars: the x values as categories, one bar per series in each with its spread.
    Series here are often one scheduler's variants (compaction kinds): they share the
    scheduler's colour and differ by hatching."""
    groups, quantity = series(figure), panel.quantities[0]
    xs = sorted({json.dumps(config(p)[figure.x]) for p in figure.points},
                key=lambda s: sort_key(json.loads(s)))
    width, seen = 0.8 / max(len(groups), 1), {}
    for i, (label, ps) in enumerate(groups.items()):
        at = {json.dumps(config(p)[figure.x]): p for p in ps if value(p, quantity) is not None}
        pos = [j + (i - (len(groups) - 1) / 2) * width for j, x in enumerate(xs) if x in at]
        drawn = [at[x] for x in xs if x in at]
        name = label.split(" (")[0]
        k = seen[name] = seen.get(name, -1) + 1
        ax.bar(pos, [value(p, quantity) for p in drawn], width, color=colour(label),
               hatch=["", "//", "..", "xx", "\\\\"][k % 5], edgecolor="0.2",
               yerr=error_bars(drawn, quantity), capsize=2, label=label)
        ring_noisy(ax, pos, [value(p, quantity) for p in drawn], drawn)
    ax.set_xticks(range(len(xs)), [fmt(json.loads(x)) for x in xs])


def needs_log_y(figure, panel):
    """Whether the panel's y axis should be logarithmic: asked for, or the plotted medians span
    more than LINEAR_Y_SPAN times (shared counts keep a linear axis)."""
    if panel.logy:
        return True
    if QUANTITIES[panel.quantities[0]].shared:
        return False
    ys = [y for p in figure.points for y in [value(p, panel.quantities[0])] if y is not None]
    return bool(ys) and min(ys) > 0 and max(ys) / min(ys) > LINEAR_Y_SPAN


def spread_note(figure):
    """What the footnote says of the figure's spread: the error bars' meaning, or why a
    quantity has none (counts are exact by the determinism contract)."""
    if figure.draw:
        return ""
    quantities = [QUANTITIES[p.quantities[0]] for p in figure.panels]
    if any(q.per_time for q in quantities):
        return "; bars: fastest to slowest repetition"
    if not all(q.shared for q in quantities):
        return "; parts of the time are recorded as medians only: no spread to draw"
    return ""


def draw_panel(ax, figure, panel):
    """One axes: the data, marker lines, scales, labels, grid and legend."""
    (draw_bars if figure.xscale == "category" else draw_lines)(ax, figure, panel)
    for x, label, col in figure.markers:
        ax.axvline(x, color=col, linewidth=1, linestyle="--", label=label)
    if figure.xscale in ("log", "log2"):
        ax.set_xscale("log", base=2 if figure.xscale == "log2" else 10)
    if figure.xscale == "log2":
        ticks = sorted({config(p)[figure.x] for p in figure.points})
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
    if needs_log_y(figure, panel):
        ax.set_yscale("log")
    ax.set_xlabel(catalog().labels.get(figure.x, figure.x))
    shared = QUANTITIES[panel.quantities[0]].shared
    ax.set_ylabel("particles" if shared and len(panel.quantities) > 1
                  else QUANTITIES[panel.quantities[0]].label)
    ax.grid(True, which="both", alpha=0.3)
    # A long legend goes beside the axes, where it hides no curve.
    if len(ax.get_legend_handles_labels()[1]) > 4:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    else:
        ax.legend(fontsize=7)


# A figure's width in inches: one panel, and the most for several side by side, so that the
# PNG (at DPI) fits a page or a report column without being scaled down to unreadable text.
PANEL_WIDTH, MAX_WIDTH, HEIGHT, DPI = 6.4, 12.0, 4.0, 120


def write_atomically(path, write):
    """Calls write(temporary path) beside `path`, then renames it to `path`: a reader never sees
    a half-written file, and a failure leaves the old file as it was. A write the system refuses
    is an OutputError."""
    path = pathlib.Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror}") from e
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException as e:
        os.unlink(tmp)
        if isinstance(e, OSError):
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
        raise
    return path


def kind_of(path):
    """What lstat says `path` is, in words, or None where nothing is there."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise InputError(f"'{path}': {getattr(e, 'strerror', e)}") from e
    return file_kind(mode)


def check_output_dir(option, path, inner=()):
    """Refuses (InputError, before anything is written) an `option` naming a folder to write in
    that is not one: something other than a directory or a new name (a file, a device, a link),
    under something that is not a directory, or where this process may not write; and likewise
    each of its `inner` folders (a link there would put files outside it)."""
    accepted = "accepted: a directory or a new name"
    if str(path) == "":
        raise InputError(f"{option}: '' is an empty name; accepted: a folder name")
    for folder in (pathlib.Path(path), *(pathlib.Path(path) / f for f in inner)):
        kind = kind_of(folder)
        if kind not in (None, "a directory"):
            raise InputError(f"{option}: '{folder}' is {kind}; {accepted}")
    above = pathlib.Path(os.path.abspath(path))
    while not os.path.lexists(above):
        above = above.parent
    if not above.is_dir():
        raise InputError(f"{option}: '{path}': '{above}' is not a directory; {accepted}")
    if not os.access(above, os.W_OK | os.X_OK):
        raise InputError(f"{option}: '{path}': cannot write in '{above}'")


def make_folder(path):
    """Makes the folder `path` and those above it where missing; OutputError where the system
    refuses (a file in the way, which check_output_dir refuses up front)."""
    try:
        pathlib.Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot make the folder {path}: {e.strerror}") from e


def file_stem(name):
    """A figure's name as the stem of its files: every character but letters, digits, '-', '_'
    and '.' made '_' (a point label's file name in the harness's rule), so no name of a job or
    value of a config (a path) puts a figure outside its folder."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def render(figure, out_dir):
    """Draws `figure` into OUT_DIR/NAME.png and .pdf (and NAME.md for a table) and returns the
    paths written."""
    from matplotlib.figure import Figure as Canvas  # no pyplot: the caller's backend stays

    n = len(figure.panels)
    fig = Canvas(figsize=(min(PANEL_WIDTH * n, MAX_WIDTH), HEIGHT))
    axes = fig.subplots(1, n, squeeze=False)
    for ax, panel in zip(axes[0], figure.panels):
        (figure.draw or draw_panel)(ax, figure, panel)
    fig.suptitle(textwrap.fill(figure.title, 80 if n == 1 else 140), fontsize=10)
    fig.text(0.01, 0.005, footnote(figure.job) + spread_note(figure), fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    out = pathlib.Path(out_dir)
    make_folder(out)
    paths = [write_atomically(out / f"{figure.name}.png",
                              lambda tmp: fig.savefig(tmp, dpi=DPI, bbox_inches="tight")),
             # No creation date: the same results give the same PDF.
             write_atomically(out / f"{figure.name}.pdf",
                              lambda tmp: fig.savefig(tmp, bbox_inches="tight",
                                                      metadata={"CreationDate": None}))]
    if figure.table:
        text = "\n".join(figure.text or [markdown_table(figure)]) + "\n"
        paths.append(write_atomically(out / f"{figure.name}.md",
                                      lambda tmp: pathlib.Path(tmp).write_text(text)))
    return paths


def markdown_table(figure):
    """The figure's first quantity as a Markdown table: a row per series, a column per x."""
    quantity = figure.panels[0].quantities[0]
    xs = sorted({json.dumps(config(p)[figure.x]) for p in figure.points},
                key=lambda s: sort_key(json.loads(s)))
    head = [f"{figure.x} {fmt(json.loads(x))}" for x in xs]
    lines = [f"| {QUANTITIES[quantity].label} | " + " | ".join(head) + " |",
             "|---|" + "---:|" * len(xs)]
    for label, ps in series(figure).items():
        at = {json.dumps(config(p)[figure.x]): value(p, quantity) for p in ps}
        cells = ["-" if at.get(x) is None else f"{at[x]:.3g}" for x in xs]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- command line ----------------------------------------------------------------------------

FAMILIES = "schedbench_results.families"


def module_name(job_name):
    """The family module of a job: fig_ and the job's name with _ for - and . (so a job's name
    alone finds the module that draws it)."""
    return "fig_" + re.sub(r"[-.]", "_", job_name)


def family(job_name):
    """The module of FAMILIES that draws figure job `job_name`, or None where the job has none
    (a job of the user's own: schedbench_results.generic draws it)."""
    name = f"{FAMILIES}.{module_name(job_name)}"
    return importlib.import_module(name) if importlib.util.find_spec(name) else None


def parts(name):
    """The jobs whose results figure job `name` draws: itself, or, where its module draws the
    results of several jobs (its PARTS: the many-GPU jobs, one per sim), theirs."""
    return tuple(getattr(family(name), "PARTS", (name,)))


def load_parts(name, paths):
    """The results of figure job `name` from `paths`, the files of those of its parts that exist:
    its own file as load_job reads it, or several jobs' results as one (merge_jobs)."""
    if parts(name) == (name,):
        return load_job(paths[0])
    return merge_jobs(name, [load_job(p) for p in paths], getattr(family(name), "TITLE", name))


def merge_jobs(name, jobs, title):
    """The results of several jobs as one job named `name` (the report's heading: `title`) for a
    figure that spans them: their points in order, the environment of the first (the footnote's
    device and commit), and the jobs themselves as `parts`, each a row of the report's table of
    where and at which commit."""
    names = [j["job"]["name"] for j in jobs]
    return {"schema": SCHEMA,
            "job": {"name": name, "title": title,
                    "description": "From the results of the jobs "
                                   + ", ".join(f"`{n}`" for n in names) + "."},
            "environment": jobs[0].get("environment"), "parts": jobs,
            "points": [p for j in jobs for p in j["points"]]}


def plot_job(figures, path, out_dir):
    """Renders every figure `figures(job)` makes from the results at `path`; prints each path
    written and what was left out. Returns the Figure records."""
    return draw_job(figures, load_job(path), out_dir, path)


def draw_job(figures, job, out_dir, source=None):
    """Renders every figure `figures(job)` makes from loaded results (read from `source`, a
    file, or for merged results the job's name); prints each path written and what was left
    out. Returns the Figure records; InputError where the results lack what they read
    (errors.drawn_from)."""
    made = job_figures(figures, job, source)
    render_figures(made, out_dir, source or job["job"]["name"])
    return made


def job_figures(figures, job, source=None):
    """The Figure records `figures(job)` makes (build), drawing nothing; prints the failed
    points it leaves out. InputError where the job has no finished point, or lacks what the
    figures read (errors.drawn_from)."""
    if not ok_points(job):
        raise InputError(f"{source or job['job']['name']}: no finished points to plot")
    for p in failed_points(job):
        print(f"skipped failed point {p.get('label', '?')}: {p.get('failure', '?')}")
    with drawn_from(source or job["job"]["name"]):
        return build(figures, job)


def render_figures(made, out_dir, source):
    """Renders Figure records into OUT_DIR and prints each path written; InputError where the
    results (from `source`) hold what cannot be drawn."""
    with drawn_from(source):
        for f in made:
            for written in render(f, out_dir):
                print(written)


def build(figures, job):
    """The Figure records `figures(job)` makes, with names made unique (a job holding more sub-sweeps than its script expects gets _2, _3 ... rather than
    files overwriting each other)."""
    made, seen = figures(job), {}
    for f in made:
        seen[f.name] = seen.get(f.name, 0) + 1
        if seen[f.name] > 1:
            f.name = f"{f.name}_{seen[f.name]}"
    return made


def main(figures, description, name=None):
    """The command line every figure script shares: RESULTS_JSON --out DIR; a script that draws
    the results of several jobs (figure job `name`, its PARTS) takes each of their files."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("results", nargs="+" if name else None,
                        help="a job results file (schema schedbench.job/1)"
                             + ("; one per job it draws" if name else ""))
    parser.add_argument("--out", required=True, help="folder for the figures")
    args = parser.parse_args()

    def plot():
        check_output_dir("--out", args.out)
        made = (draw_job(figures, load_parts(name, args.results), args.out, name) if name
                else plot_job(figures, args.results, args.out))
        if not made:
            raise InputError(f"{args.results}: none of this script's figures has data in it")

    run_command(pathlib.Path(sys.argv[0]).stem, plot)
