"""One simulation over several GPUs of a node, one MPI rank per GPU: strong and weak scaling
efficiency per workload. Each many-GPU job runs its workloads on one rank at n and at R·n and on
R ranks at R·n (many-gpus-air-1e8 and the hot spot on 1 and R ranks at one population: strong
scaling only). A workload is a point's configuration without init_n, ranks and the bookkeeping
keys. Strong efficiency: t(1 GPU, N) / (R t(R GPUs, N)); weak: t(1 GPU, n) / t(R GPUs, R n); t the
median time, and the range those of the repetitions' extremes (the fastest against the slowest).
Every rank count must give the one-rank run's digest; a difference stops the figure. Reads the
results of jobs/many-gpus-{mvp,air,air-1e8,pic,hot-spot}.json:
.venv/bin/python -m schedbench_results.families.fig_many_gpus results/DEVICE/many-gpus-*.json \
--out DIR"""

import json
import math
from dataclasses import dataclass

import matplotlib

from ..errors import InputError
from ..figures import (Figure, Panel, catalog, config, device_label, fmt, fmt_measure, main,
                     ok_points)

JOB = "many-gpus"
TITLE = "Many GPUs"
PARTS = ("many-gpus-mvp", "many-gpus-air", "many-gpus-air-1e8", "many-gpus-pic",
         "many-gpus-hot-spot")
# How the jobs ran, which the results do not record: the launch and the links between the GPUs.
SETUP = ("one node, its GPUs joined by NVLink; one MPI rank per GPU (`schedbench sweep "
         "--launcher`), the device grids summed and the particles moved GPU to GPU through NCCL")
# pic's field models as a reader names them; the mock field is left out of the configuration
# (older files record it as null).
FIELDS = {None: "mock", "poisson": "Poisson"}
KINDS = {"strong": ("Strong scaling: the same particles on R GPUs",
                    "strong efficiency  t(1 GPU, N) / (R · t(R GPUs, N))"),
         "weak": ("Weak scaling: n particles per GPU",
                  "weak efficiency  t(1 GPU, n) / t(R GPUs, R·n)")}


def ranks(point):
    """The ranks a point ran on (1 in records from before ranks)."""
    return config(point).get("ranks", point.get("ranks", 1))


def workload_key(point):
    """What a point computes apart from its population and its ranks."""
    skip = {"init_n", "ranks"} | catalog().bookkeeping
    return json.dumps({k: v for k, v in config(point).items() if k not in skip}, sort_keys=True)


def population(n):
    """An initial population as the job files write it: 4e7, 2e6, 1e5 (else 1,234,567)."""
    k = int(math.floor(math.log10(n))) if n > 0 else 0
    mantissa = n / 10 ** k
    return f"{mantissa:g}e{k}" if n > 0 and round(mantissa, 1) == mantissa else fmt(n)


def workload_label(points):
    """A workload's name: its sim, what sets it apart (layout, field, space charge, mesh, phase
    length in steps) and its largest initial population."""
    c = config(points[0])
    words = [c["sim"]]
    if "layout" in c:
        words.append(f"{c['layout']} layout")
    if c["sim"] == "pic":
        words.append(f"{FIELDS.get(c.get('field'), c.get('field'))} field")
    if c.get("space_charge"):
        words.append("space charge")
    if "grid" in c:
        words.append(f"{c['grid']}^3 mesh")
    if "frame_every" in c:
        words.append(f"phases of {fmt(c['frame_every'])} steps")
    return ", ".join(words) + f" at {population(max(config(p)['init_n'] for p in points))}"


def phases(point):
    """The phase boundaries at which a run reduces its grids: air's phases, pic's Poisson steps;
    None for toy and mvp, whose boundaries the record does not give (their costs are per run)."""
    c = config(point)
    return {"air": c.get("phases"), "pic": c.get("poisson_steps")}.get(c["sim"])


def efficiency(one, many, count):
    """(median, low, high) of t(one) / (count · t(many)): the medians, then the fastest one-rank
    repetition against the slowest of many ranks and the other way round."""
    a, b = one["stats"], many["stats"]
    return (a["median_ms"] / (count * b["median_ms"]), a["min_ms"] / (count * b["max_ms"]),
            a["max_ms"] / (count * b["min_ms"]))


@dataclass(frozen=True)
class Scaling:
    """A point on several ranks against the one-rank points of its workload: `alone` with its
    particles (strong scaling), `share` with a rank's share of them (weak), each None where the
    job did not run it."""
    workload: str
    point: dict
    alone: dict
    share: dict

    @property
    def ranks(self):
        return ranks(self.point)

    def efficiency(self, kind):
        """(median, low, high) of the strong or weak efficiency, or None."""
        if kind == "strong":
            return efficiency(self.alone, self.point, self.ranks) if self.alone else None
        return efficiency(self.share, self.point, 1) if self.share else None


def workloads(points):
    """{workload key: points} in order of appearance."""
    found = {}
    for p in points:
        found.setdefault(workload_key(p), []).append(p)
    return found


def check_digests(points):
    """Refuses points of one workload and population whose digests differ between rank counts:
    the particles are split over the ranks, the result must not be. Returns how many workload
    and population pairs ran on more than one rank count."""
    compared = 0
    for members in workloads(points).values():
        for n in sorted({config(p)["init_n"] for p in members}):
            same = [p for p in members if config(p)["init_n"] == n]
            digests = {p.get("digest") for p in same}
            if len(digests) > 1:
                found = ", ".join(f"{p.get('label', '?')} (ranks {ranks(p)}): {p.get('digest')}"
                                  for p in same)
                raise InputError(f"{JOB}: digests differ across rank counts for "
                                 f"{workload_label(members)} at init_n {fmt(n)}: {found}")
            compared += len({ranks(p) for p in same}) > 1
    return compared


def scalings(points):
    """A Scaling for every point on several ranks, workload by workload."""
    out = []
    for members in workloads(points).values():
        label = workload_label(members)
        single = {config(p)["init_n"]: p for p in members if ranks(p) == 1}
        for p in members:
            r, n = ranks(p), config(p)["init_n"]
            if r > 1:
                out.append(Scaling(label, p, single.get(n), single.get(n // r) if n % r == 0
                                   else None))
    return out


# --- drawing ---------------------------------------------------------------------------------

def limits(rows):
    """The efficiency axis, the same in both panels: every range and 1.0 in it, on 0.05 steps."""
    values = [v for s in rows for kind in KINDS if s.efficiency(kind)
              for v in s.efficiency(kind)[1:]] + [1.0]
    return (math.floor((min(values) - 0.02) * 20) / 20, math.ceil((max(values) + 0.02) * 20) / 20)


def draw(ax, figure, panel):
    """One kind of scaling (the panel's quantity, strong or weak): for each workload a point per
    GPU count, the medians' efficiency with the extremes' range as its error bar, and the 1.0
    line."""
    kind = panel.quantities[0]
    rows = scalings(figure.points)
    names = list(dict.fromkeys(s.workload for s in rows))
    counts = sorted({s.ranks for s in rows})
    step = 0.6 / len(counts)
    left, right = limits(rows)
    for i, count in enumerate(counts):
        at = [(names.index(s.workload) + (i - (len(counts) - 1) / 2) * step, s.efficiency(kind))
              for s in rows if s.ranks == count and s.efficiency(kind)]
        if not at:
            continue
        ax.errorbar([e for _, (e, _, _) in at], [y for y, _ in at],
                    xerr=[[e - low for _, (e, low, _) in at], [high - e for _, (e, _, high) in at]],
                    fmt="osD^"[i % 4], color=matplotlib.colormaps["tab10"](i % 10), capsize=3,
                    linestyle="none", label=f"{count} GPUs")
        for y, (e, _, _) in at:
            ax.annotate(f"{e:.3f}", (e, y), xytext=(0, 5), textcoords="offset points",
                        ha="center", fontsize=7,
                        bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none"})
    for j, name in enumerate(names):
        if not any(s.efficiency(kind) for s in rows if s.workload == name):
            ax.text(left + 0.01, j, f"no {kind} point", va="center", fontsize=7, color="0.4",
                    style="italic")
    ax.axvline(1.0, color="k", linewidth=1, linestyle="--", label="1.0: perfect scaling")
    ax.set_xlim(left, right)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_yticks(range(len(names)), names if kind == "strong" else [""] * len(names))
    ax.set_title(KINDS[kind][0], fontsize=10)
    ax.set_xlabel(KINDS[kind][1])
    ax.grid(True, alpha=0.3)
    if kind == "weak":
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


# --- words -----------------------------------------------------------------------------------

def span(e):
    """An efficiency with its range: 0.996 (0.995–0.996)."""
    return f"{e[0]:.3f} ({e[1]:.3f}–{e[2]:.3f})" if e else "-"


def size(b):
    """Bytes in the unit that suits them: 32 B, 1.05 MB."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if b >= scale:
            return f"{fmt_measure(b / scale)} {unit}"
    return f"{fmt_measure(b)} B" if b else "0"


def ms(point):
    """A point's median time, or - without one."""
    return f"{fmt_measure(point['stats']['median_ms'])} ms" if point else "-"


def rows_table(head, rows):
    """A Markdown table."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


def efficiency_table(rows):
    """A row per workload and GPU count: its particles, strong and weak efficiency."""
    return rows_table(["workload", "GPUs", "particles", "strong efficiency",
                       "particles per GPU", "weak efficiency"],
                      [[s.workload, s.ranks, fmt(config(s.point)["init_n"]),
                        span(s.efficiency("strong")),
                        fmt(config(s.share)["init_n"]) if s.share else "-",
                        span(s.efficiency("weak"))] for s in rows])


def workload_table(rows):
    """One workload's runs on several ranks: times, efficiencies and what the ranks exchanged.
    A reduction's bytes and time are per phase where the sim says how many phases reduced (air's
    phases, pic's Poisson steps), else per run."""
    per = "phase" if phases(rows[0].point) else "run"
    head = ["GPUs", "particles", "1 GPU", "R GPUs", "strong", "1 GPU, a GPU's share", "weak",
            f"reduced per {per}", f"reduce time per {per}", "moved", "imbalance before → after"]
    out = []
    for s in rows:
        p, count = s.point, phases(s.point) or 1
        imbalance = p.get("imbalance") or {}
        out.append([s.ranks, fmt(config(p)["init_n"]), ms(s.alone), ms(p),
                    span(s.efficiency("strong")), ms(s.share), span(s.efficiency("weak")),
                    size(p.get("reduced_bytes", 0) / count),
                    f"{fmt_measure(p.get('reduce_ms', 0) / count)} ms",
                    size(p.get("moved_bytes", 0)),
                    f"{imbalance.get('before', 1):.3f} → {imbalance.get('after', 1):.3f}"])
    return rows_table(head, out)


def extremes(rows, kind):
    """A sentence on the lowest and the highest efficiency of a kind, or None."""
    found = sorted((round(s.efficiency(kind)[0], 3), s.workload, s.ranks) for s in rows
                   if s.efficiency(kind))
    if not found:
        return None
    (low, w1, r1), (high, w2, r2) = found[0], found[-1]
    if low == high:
        return f"{kind.capitalize()} efficiency is {low:.3f} on every workload measured."
    return (f"{kind.capitalize()} efficiency ranges from {low:.3f} ({w1}, {r1} GPUs) to "
            f"{high:.3f} ({w2}, {r2} GPUs).")


def words(job, points, rows, compared):
    """The report's text: what ran, the efficiencies, the digests, a table per workload."""
    counts = [str(r) for r in sorted({ranks(p) for p in points})]
    gpus = " and ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)
    used = {}
    for p in points:
        used.setdefault(config(p)["scheduler"], {}).setdefault(config(p)["sim"], None)
    schedulers = "; ".join(f"{s} ({', '.join(sims)})" for s, sims in used.items())
    text = [f"One simulation over {gpus} {device_label(job)} GPUs of {SETUP}. Schedulers: "
            f"{schedulers}. Strong efficiency is t(1 GPU, N) / (R · t(R GPUs, N)) and weak "
            "efficiency t(1 GPU, n) / t(R GPUs, R·n), t the median time; in brackets the same "
            "of the repetitions' extremes (the fastest against the slowest).", ""]
    facts = [f"Every rank count gave the one-GPU run's digest: {compared} pairs of workload and "
             "initial population ran on more than one GPU count, each with one digest."]
    for kind in ("strong", "weak"):
        found = extremes(rows, kind)
        if found:
            facts.append(found)
    text += [f"- {s}" for s in facts] + [""] + efficiency_table(rows) + [""]
    for name in dict.fromkeys(s.workload for s in rows):
        text += [f"#### {name}", ""] + workload_table([s for s in rows if s.workload == name])
        text += [""]
    return tuple(text[:-1])


def figures(job):
    """One figure of every workload's strong and weak efficiency on each GPU count, after
    checking that every rank count gave the same digest."""
    points = ok_points(job)
    compared = check_digests(points)
    rows = scalings(points)
    if not rows:
        return []
    counts = [str(r) for r in sorted({1} | {s.ranks for s in rows})]
    counts = " and ".join([", ".join(counts[:-1]), counts[-1]])
    caption = ("Strong efficiency t(1 GPU, N) / (R · t(R GPUs, N)) and weak efficiency "
               "t(1 GPU, n) / t(R GPUs, R·n) of each workload, t the median time, on "
               f"{counts} GPUs of one node, one MPI rank per GPU; a point per GPU count, its error "
               "bar the efficiencies of the repetitions' extremes, the dashed line perfect "
               "scaling. A workload: sim, what sets it apart and its largest initial population.")
    return [Figure(job=job, name="many_gpus_efficiency",
                   title=f"Scaling efficiency of one simulation over {counts} GPUs",
                   caption=caption, x="ranks", points=points,
                   panels=(Panel(("strong",)), Panel(("weak",))), draw=draw, table=True,
                   text=words(job, points, rows, compared))]


if __name__ == "__main__":
    main(figures, __doc__, JOB)
