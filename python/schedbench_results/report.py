"""A report from a folder of job results: REPORT.md, REPORT.html and figures/ in the folder the
user names. It tells where and at which commit the results were measured, the best scheduler in
each workload regime, and shows each figure with its caption and a few sentences about it.
Every number in the text is computed here from the results, so the report says what the data
says; every "best" and every ratio comes with a 95 % bootstrap interval over the points'
repetitions (schedbench_results.stats), and a point's own median with the interval its results
file records. Points the results file marks noisy are counted in each job's text and ringed in
its figures. It needs no GPU.

    python -m schedbench_results.report RESULTS_DIR --out OUT_DIR [JOB ...]

Without JOBs it reports every job in the folder, in the order of their files; a job without a
family module of its own gets the generic figures (schedbench_results.generic). A folder that
holds no job results, two results files of one job (frames.one_file_per_job), or none of the
JOBs asked for, is refused (exit code 2) and nothing is written, so a mistyped folder never
replaces a report with an empty one. Without a catalog.json beside the results the tool's own
catalog is read (figures.use_catalog)."""

import argparse
import html
import json
import os
import pathlib
import re

import markdown

from .errors import InputError, drawn_from, run_command
from .figures import (QUANTITIES, catalog, check_output_dir, config, device_label,
                      failed_points, fmt, fmt_measure, git_commit, is_yardstick, make_folder,
                      markdown_table, ok_points, parts, render_figures, series, shared_values,
                      sort_key, use_catalog, value, write_atomically)
from .frames import JOB_SCHEMA, NAME_RULE, is_job_name, shown
from .jobs import figure_jobs, figure_records, job_index
from .stats import ratio_interval

RACE_WORDS = {"time": "run time", "compaction": "compaction time"}


# --- reading a figure's numbers ----------------------------------------------------------

def table(figure, quantity):
    """{label: [(x, y, point)]} of a per-scheduler quantity, x in order, missing values left
    out; the yardstick (bound) is not a scheduler and is never ranked (see yardstick())."""
    out = {}
    for label, ps in series(figure).items():
        if is_yardstick(label):
            continue
        xyp = [(config(p)[figure.x], value(p, quantity), p) for p in ps]
        out[label] = [(x, y, p) for x, y, p in xyp if y is not None]
    return {label: xyp for label, xyp in out.items() if xyp}


def ranking(rows, quantity):
    """Rows (y, name, point) best first."""
    better = QUANTITIES[quantity].higher_is_better
    return sorted(rows, key=lambda r: -r[0] if better else r[0])


def per_x(tab, quantity):
    """[(x, ranking)] for each x that at least two series reached."""
    xs = sorted({json.dumps(x) for xyp in tab.values() for x, _, _ in xyp},
                key=lambda s: sort_key(json.loads(s)))
    out = []
    for xs_key in xs:
        rows = [(y, label, p) for label, xyp in tab.items() for x, y, p in xyp
                if json.dumps(x) == xs_key]
        if len(rows) >= 2:
            out.append((json.loads(xs_key), ranking(rows, quantity)))
    return out


def best_of_series(xyp, quantity):
    """A series' best (y, x, point)."""
    return ranking([(y, x, p) for x, y, p in xyp], quantity)[0]


# --- ratios with their intervals ---------------------------------------------------------------

def quotient(top, bottom, quantity):
    """(quantity(top) / quantity(bottom), its (low, high) or None): the interval of the medians'
    ratio, carried over to a quantity that follows the time in proportion or inversely; None
    where the points keep no repetitions or the quantity does not follow the time (parts of the
    time, recorded as medians only)."""
    q, r = QUANTITIES[quantity], value(top, quantity) / value(bottom, quantity)
    if not q.per_time:
        return r, None
    # The times' ratio that moves with r: top's over bottom's where the quantity grows with the
    # time, bottom's over top's where it is a rate.
    num, den = (top, bottom) if q.per_time > 0 else (bottom, top)
    ci = ratio_interval(num.get("repetitions_ms"), den.get("repetitions_ms"))
    if ci is None:
        return r, None
    # r is that ratio of medians times a constant (e.g. the points' particle-steps), which
    # scales its interval alike.
    scale = r / (num["stats"]["median_ms"] / den["stats"]["median_ms"])
    return r, (ci[0] * scale, ci[1] * scale)


def times_worse(best, other, quantity):
    """(how many times worse `other` is than `best`, >= 1 at the medians; its interval)."""
    if QUANTITIES[quantity].higher_is_better:
        return quotient(best, other, quantity)
    return quotient(other, best, quantity)


def claim(r, ci, form="{:.2f}×"):
    """'1.08× [1.03×, 1.12×]': a ratio and its interval, or the ratio and why it has none."""
    if ci is None:
        return form.format(r) + (" (no interval: fewer than two repetitions of this quantity "
                                 "are recorded)")
    return f"{form.format(r)} [{form.format(ci[0])}, {form.format(ci[1])}]"


def lead(best, other, quantity):
    """The claim that `best` beats `other`: the ratio, its interval, and where the interval
    reaches 1, that the two are within the noise of their repetitions."""
    r, ci = times_worse(best, other, quantity)
    text = claim(r, ci)
    return text + ", within noise" if ci and ci[0] <= 1 else text


def close_call(rank, quantity):
    """Whether a ranking's best and runner-up are within the noise of their repetitions."""
    _, ci = times_worse(rank[0][2], rank[1][2], quantity)
    return bool(ci) and ci[0] <= 1


# --- sentences -------------------------------------------------------------------------------

def describe(figure):
    """A few sentences on what the figure shows, every number from its points; none for a
    figure that draws itself, whose text (figure_section) says what it shows."""
    if figure.draw:
        return []
    out = []
    for panel in figure.panels:
        first = panel.quantities[0]
        if QUANTITIES[first].shared:
            out += [describe_shared(figure, q) for q in panel.quantities]
        else:
            out += describe_race(figure, first)
    if figure.markers:
        out.append(describe_markers(figure))
    out.append(describe_noisy(figure))
    return [s for s in out if s]


def describe_noisy(figure):
    """How many of the figure's points their results file marks noisy (ringed in red), or ''."""
    noisy = [p for p in figure.points if p.get("noisy")]
    if not noisy:
        return ""
    return (f"{len(noisy)} of its {len(figure.points)} points are noisy by their results file "
            "(ringed in red): " + ", ".join(f"`{p.get('label', '?')}`" for p in noisy[:5])
            + (", ..." if len(noisy) > 5 else "") + ".")


def describe_race(figure, quantity):
    """Who is fastest where, by how much (with the interval), and where the lead changes."""
    q, name = QUANTITIES[quantity], RACE_WORDS.get(quantity, QUANTITIES[quantity].label)
    xname, tab = figure.x, table(figure, quantity)
    if len(tab) == 1:
        return [describe_single(figure, quantity, *next(iter(tab.items())))]
    rounds = per_x(tab, quantity)
    if not rounds:
        return [f"No {xname} value has more than one scheduler's {name}."]
    wins = {}
    for _, rank in rounds:
        wins[rank[0][1]] = wins.get(rank[0][1], 0) + 1
    tally = " and ".join(f"{label} at {n}"
                         for label, n in sorted(wins.items(), key=lambda w: -w[1]))
    close = sum(close_call(rank, quantity) for _, rank in rounds)
    noise = (f" (at {close} of them the runner-up is within the noise of the repetitions)"
             if close else "")
    out = [f"Of the {len(rounds)} {xname} values, the best {name} is {tally}{noise}."]
    out += lead_changes(rounds, xname)
    if xname in catalog().tuning:
        out.append(at_best(tab, quantity, xname))
    else:
        x, rank = rounds[-1]
        (y1, l1, p1), (y2, l2, p2), (yn, ln, pn) = rank[0], rank[1], rank[-1]
        sentence = (f"At {xname} {fmt(x)}, {l1} is best with {q.text(y1)}; the runner-up "
                    f"{l2} takes {q.text(y2)} ({lead(p1, p2, quantity)})")
        if len(rank) > 2:
            sentence += (f" and the last, {ln}, {q.text(yn)} "
                         f"({claim(*times_worse(p1, pn, quantity))})")
        out.append(sentence + ".")
        out.append(yardstick(figure, quantity, x, p1, l1))
        out.append(growth(tab[l1], l1, name, xname, quantity))
    return out


def describe_single(figure, quantity, label, xyp):
    """One series: its values along x and the spread between its best and worst."""
    q = QUANTITIES[quantity]
    values = "; ".join(f"{figure.x} {fmt(x)}: {q.text(y)}" for x, y, _ in xyp[:6])
    if len(xyp) == 1:
        return f"Only {label}, at one {figure.x}: {values}."
    rank = ranking([(y, x, p) for x, y, p in xyp], quantity)
    best, worst = rank[0], rank[-1]
    return (f"Only {label}: {values}. Its best {figure.x} is {fmt(best[1])}, "
            f"{claim(*times_worse(best[2], worst[2], quantity))} better than its worst "
            f"({fmt(worst[1])}).")


def lead_changes(rounds, xname):
    """Where the best scheduler changes along x (the curves of the leaders cross there)."""
    segments = []
    for x, rank in rounds:
        if segments and segments[-1][0] == rank[0][1]:
            segments[-1][2] = x
        else:
            segments.append([rank[0][1], x, x])
    if len(segments) < 2:
        return []
    spans = [f"{label} from {fmt(lo)} to {fmt(hi)}" if lo != hi else f"{label} at {fmt(lo)}"
             for label, lo, hi in segments[:5]]
    return [f"The lead changes {len(segments) - 1} time(s) along {xname}: " + ", then ".join(spans)
            + "."]


def at_best_ranking(tab, quantity, xname):
    """Rows (y, 'label at xname x', point) of each series at its best value of a tuning
    parameter, best first."""
    return ranking([(y, f"{label} at {xname} {fmt(x)}", p) for label, xyp in tab.items()
                    for y, x, p in [best_of_series(xyp, quantity)]], quantity)


def at_best(tab, quantity, xname):
    """Each series at its best value of a tuning parameter, best first, and how far ahead of
    the runner-up and of the slowest the best is."""
    q, best = QUANTITIES[quantity], at_best_ranking(tab, quantity, xname)
    listed = ", ".join(f"{label} {q.text(y)}" for y, label, _ in best[:4])
    return (f"Each at its best {xname}: {listed}; the best is "
            f"{lead(best[0][2], best[1][2], quantity)} ahead of the runner-up and "
            f"{claim(*times_worse(best[0][2], best[-1][2], quantity))} ahead of the slowest, "
            f"{best[-1][1]} ({q.text(best[-1][0])}).")


def bound_point(figure, x):
    """The bound yardstick's point at x, or None."""
    found = [p for label, ps in series(figure).items() if is_yardstick(label)
             for p in ps if config(p)[figure.x] == x]
    return found[0] if found else None


def yardstick(figure, quantity, x, best, label):
    """How far the best scheduler is from `bound` at x: the same particle-steps on a fixed,
    balanced population (docs/design.md §6)."""
    bound = bound_point(figure, x)
    if bound is None or value(bound, quantity) is None or quantity != "time":
        return ""
    return (f"The bound yardstick takes {QUANTITIES[quantity].text(value(bound, quantity))} "
            f"there, so the efficiency of {label} is "
            f"{claim(*quotient(bound, best, quantity), form='{:.0%}')}.")


def growth(xyp, label, name, xname, quantity):
    """How the leader's value grows with a numeric x, against how x grows."""
    (x0, y0, p0), (x1, y1, p1) = xyp[0], xyp[-1]
    if not all(isinstance(v, (int, float)) and v > 0 for v in (x0, x1, y0, y1)) or x0 == x1:
        return ""
    r, ci = quotient(p1, p0, quantity)
    return (f"From {xname} {fmt(x0)} to {fmt(x1)} (×{fmt_measure(x1 / x0)}) the {name} of "
            f"{label} changes ×{claim(r, ci, '{:.3g}')}.")


def describe_shared(figure, quantity):
    """A count every scheduler shares: its range, and whether the schedulers agree on it."""
    xy = shared_values(figure, quantity)
    if not xy:
        return ""
    (x0, y0), (x1, y1) = xy[0], xy[-1]
    # bound is a yardstick, not a simulation: its counts are not the run's.
    sims = [p for p in figure.points if config(p)["scheduler"] != "bound"]
    disagree = [x for x in {json.dumps(config(p)[figure.x]) for p in sims}
                if len({(value(p, quantity), p.get("digest")) for p in sims
                        if json.dumps(config(p)[figure.x]) == x}) > 1]
    agree = ("every scheduler reports the same, and the same digest" if not disagree else
             f"the schedulers DISAGREE at {len(disagree)} {figure.x} value(s), "
             "which the determinism contract forbids")
    return (f"{QUANTITIES[quantity].label.capitalize()} goes from {fmt(y0)} at {figure.x} "
            f"{fmt(x0)} to {fmt(y1)} at {fmt(x1)}; {agree}.")


def describe_markers(figure):
    """Which scheduler leads below the first SM-fill line and above the last, and by how much
    over the runner-up there."""
    quantity = figure.panels[0].quantities[0]
    rounds = per_x(table(figure, quantity), quantity)
    lines = ", ".join(label.split(":")[0] for _, label, _ in figure.markers)
    below = [r for x, r in rounds if x < figure.markers[0][0]]
    above = [r for x, r in rounds if x >= figure.markers[-1][0]]
    sentence = [f"The dashed lines mark {lines} initial particles"]
    if below:
        sentence.append(f"below the first, {leader(below[-1], quantity)} at the last point "
                        "before it")
    if above:
        sentence.append(f"beyond the last, {leader(above[0], quantity)}")
    return "; ".join(sentence) + "."


def leader(rank, quantity):
    """'X leads (1.08× [1.03×, 1.12×] over Y)': a ranking's best against its runner-up."""
    (_, l1, p1), (_, l2, p2) = rank[0], rank[1]
    return f"{l1} leads ({lead(p1, p2, quantity)} over {l2})"


# --- the table of best schedulers ------------------------------------------------------------

def best_row(figure):
    """The regime's row: best and runner-up by median of the figure's first quantity, compared
    at the largest workload both ran, at each one's best tuning value, or (one scheduler) between
    the values of x; the runner-up's ratio with its interval."""
    quantity = figure.panels[0].quantities[0]
    tab = table(figure, quantity)
    if len(tab) == 1:
        label, xyp = next(iter(tab.items()))
        rank = ranking([(y, f"{label}, {figure.x} {fmt(x)}", p) for x, y, p in xyp], quantity)
        where = f"per {figure.x}"
    elif figure.x in catalog().tuning:
        rank = at_best_ranking(tab, quantity, figure.x)
        where = f"each at its best {figure.x}"
    else:
        rounds = per_x(tab, quantity)
        if not rounds:
            return None
        x, rank = rounds[-1]
        where = f"{figure.x} {fmt(x)}"
    if len(rank) < 2:
        return None
    q = QUANTITIES[quantity]
    return [figure.regime, where, rank[0][1], q.text(rank[0][0]), rank[1][1],
            q.text(rank[1][0]), lead(rank[0][2], rank[1][2], quantity)]


def best_table(figures):
    """The Markdown table of best schedulers, a row per regime."""
    rows = [r for f in figures if f.regime for r in [best_row(f)] if r]
    head = ["regime", "compared at", "best", "median", "runner-up", "median",
            "runner-up / best [95 % interval]"]
    return markdown_rows(head, rows)


# --- choosing a scheduler for a physically accurate simulation ---------------------------------

def choice_rows(figure):
    """One row per x of a `choice` figure: the best scheduler and the runner-up by median time
    (every scheduler does the same flights there), the time per flight, and the best's
    efficiency against bound, the ratios with their intervals."""
    rows = []
    for x, rank in per_x(table(figure, "time"), "time"):
        (_, l1, p1), (_, l2, p2) = rank[0], rank[1]
        ns = value(p1, "ns_per_step")
        bound = bound_point(figure, x)
        rows.append([figure.regime, f"{figure.x} {fmt(x)}", l1,
                     f"{fmt_measure(ns)} ns" if ns else "-", l2, lead(p1, p2, "time"),
                     claim(*quotient(bound, p1, "time"), form="{:.0%}") if bound else "-"])
    return rows


def choice_section(figures):
    """The report's answer for the physically accurate workload: who is fastest in each regime
    the air jobs measured, and a tally."""
    rows = [r for f in figures if f.choice for r in choice_rows(f)]
    if not rows:
        return []
    wins = {}
    for r in rows:
        wins[r[2]] = wins.get(r[2], 0) + 1
    tally = ", ".join(f"{label} in {n}" for label, n in sorted(wins.items(), key=lambda w: -w[1]))
    head = ["regime", "at", "best", "per flight", "runner-up", "runner-up / best [95 % interval]",
            "best's efficiency (bound / best)"]
    return ["## Choosing a scheduler for a physically accurate simulation", "",
            "Sim air (electrons in air, null collisions on LXCat cross sections, a random flight "
            "per step: docs/physics.md) in every regime its jobs measured. Of the "
            f"{len(rows)} workloads the best scheduler is {tally}.", "",
            markdown_rows(head, rows), ""]


def markdown_rows(head, rows):
    """A Markdown table."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


# --- memory: slots against the live population, traffic against the bandwidth ---------------

def memory_row(job):
    """A job's slots per live particle (the slots its schedulers used, or in results from before
    runs reported them the particles a phase held, over the most particles alive at a phase
    boundary) and its record traffic per particle-step over its scheduler points, and the fastest
    GPU point of its largest workload against the memory line and against bound; None for results
    measured before runs reported these."""
    # On several ranks slots are a rank's own and the memory line is one GPU's: one rank only.
    points = [p for p in ok_points(job) if "peak_live" in (p.get("counts") or {})
              and not is_yardstick(p["config"]["scheduler"]) and p.get("ranks", 1) == 1]
    if not points:
        return None
    slots = [p["counts"].get("slots_used", p["counts"]["peak"]) / p["counts"]["peak_live"]
             for p in points if p["counts"]["peak_live"]]
    per_step = [p["counts"]["record_bytes"] / p["counts"]["particle_steps"] for p in points
                if p["counts"]["particle_steps"]]
    # The fastest GPU point of the job's largest workload (most particle-steps).
    gpu = [p for p in points if "memory_line_ms" in p["counters"]]
    most = max((p["counts"]["particle_steps"] for p in gpu), default=0)
    gpu = [p for p in gpu if p["counts"]["particle_steps"] == most]
    best = min(gpu, key=lambda p: p["stats"]["median_ms"]) if gpu else None
    span = (lambda v: f"{fmt_measure(min(v))}–{fmt_measure(max(v))}" if min(v) != max(v)
            else fmt_measure(v[0]))
    return [job["job"]["name"], span(slots) if slots else "-",
            span(per_step) if per_step else "-",
            f"`{best['label']}`" if best else "-",
            f"{fmt_measure(best['stats']['median_ms'])} ms" if best else "-",
            f"{fmt_measure(best['counters']['memory_line_ms'])} ms" if best else "-",
            line_efficiency(best) if best else "-",
            bound_efficiency(job, best) if best and "efficiency" in best["counters"] else "-"]


def scaled(value, ratio, ci):
    """`value` with the interval `ci` of `ratio` carried over in proportion, or None."""
    return (value * ci[0] / ratio, value * ci[1] / ratio) if ci else None


def line_efficiency(point):
    """The point's memory line over its median, with the interval of the median (the line is
    computed from the traffic, not measured)."""
    median, ci = point["stats"]["median_ms"], file_interval(point)
    value = point["counters"]["memory_efficiency"]
    return claim(value, scaled(value, 1, ci and (median / ci[1], median / ci[0])), "{:.0%}")


def same_workload_bound(job, point):
    """The fastest finished yardstick point that agrees with `point` on every parameter both
    have but the scheduler (the harness's rule for `efficiency`), or None."""
    mine = config(point)
    fits = [p for p in ok_points(job) if is_yardstick(config(p)["scheduler"])
            and all(config(p)[k] == v for k, v in mine.items()
                    if k != "scheduler" and k in config(p))]
    return min(fits, key=lambda p: p["stats"]["median_ms"], default=None)


def bound_efficiency(job, point):
    """The point's efficiency counter (bound's median over its own) with the interval of the two
    medians' ratio."""
    value, bound = point["counters"]["efficiency"], same_workload_bound(job, point)
    if bound is None:
        return claim(value, None, "{:.0%}")
    ratio, ci = quotient(bound, point, "time")
    return claim(value, scaled(value, ratio, ci), "{:.0%}")


def memory_section(jobs):
    """Slots per live particle and the memory line, for the jobs that recorded them."""
    measured = [(j, memory_row(j)) for j in jobs]
    rows = [r for _, r in measured if r is not None]
    older = [j["job"]["name"] for j, r in measured if r is None]
    lines = ["## Slots, the live population and the memory line", "",
             "Slots per live particle: the most particle slots a phase used over the most "
             "particles alive at a phase boundary (1 where memory follows the population). Record "
             "traffic: the bytes of a scheduler that keeps each particle in registers for its "
             "phase, every particle of a phase and every child read and written once; the memory "
             "line is that traffic at the device's peak bandwidth, a floor beside `bound`'s "
             "(docs/performance.md, \"The bound and the memory line\").", ""]
    if rows:
        head = ["job", "slots per live particle", "record B per particle-step",
                "fastest GPU point of the largest workload", "its median", "memory line",
                "line / median [95 % interval]", "bound / median [95 % interval]"]
        lines += [markdown_rows(head, rows), ""]
    if older:
        lines += ["Measured before runs reported these: " + ", ".join(f"`{n}`" for n in older)
                  + ".", ""]
    return lines


# --- where it was measured -------------------------------------------------------------------

def cuda_version(number):
    """CUDA's integer version (12040) as 12.4."""
    return f"{number // 1000}.{number % 1000 // 10}" if isinstance(number, int) else "?"


def environment_row(job):
    """A job's device, driver, CUDA, commit and point counts."""
    env = job.get("environment") or {}
    device = env.get("device") or {}
    smi = device.get("nvidia_smi") or {}
    cuda = (f"runtime {cuda_version(device.get('cuda_runtime'))}, toolkit "
            f"{(env.get('build') or {}).get('cuda_toolkit', '?')}") if device else "-"
    return [job["job"]["name"], device_label(job), device.get("sm_count", "-"),
            smi.get("driver_version", "-"), cuda, f"`{git_commit(job)}`",
            len(ok_points(job)), len(failed_points(job)), env.get("time_utc", "?")]


def environment_table(jobs):
    """Where and at which commit each job's results were measured (a row for each job whose
    results a figure merged)."""
    head = ["job", "device", "SMs", "driver", "CUDA", "commit", "ok points", "failed points",
            "measured (UTC)"]
    return markdown_rows(head, [environment_row(part) for j in jobs
                                for part in j.get("parts", [j])])


# --- the report ------------------------------------------------------------------------------

def figure_section(figure, figures_dir, out_dir):
    """A figure's Markdown: image, caption, generated sentences, links, its table if any."""
    rel = pathlib.Path(os.path.relpath(figures_dir, out_dir)).as_posix()
    lines = [f"### {figure.title}", "", f"![{figure.title}]({rel}/{figure.name}.png)", "",
             f"*{figure.caption}* ([PDF]({rel}/{figure.name}.pdf))", ""]
    lines += [f"- {s}" for s in describe(figure)]
    if figure.text:
        lines += list(figure.text)
    elif figure.table:
        lines += ["", markdown_table(figure)]
    return "\n".join(lines + [""])


def points_table(job):
    """The finished points of a job no figure draws (no schedulers, e.g. kernel timings): each
    one's median time with its interval and its fastest and slowest repetition."""
    rows = []
    for p in ok_points(job):
        stats = p.get("stats") or {}
        if stats.get("median_ms") is None:
            continue
        rows.append([f"`{p.get('label', '?')}`", f"{fmt_measure(stats['median_ms'])} ms",
                     median_interval_text(p),
                     f"{fmt_measure(stats['min_ms'])}–{fmt_measure(stats['max_ms'])}"])
    return markdown_rows(["point", "median", "median's interval (level)", "fastest–slowest"],
                         rows)


def file_interval(point):
    """(low, high) of a point's median time as its results file records it (stats.median_lo_ms
    and median_hi_ms, results/README.md), or None in results from before it was recorded."""
    stats = point.get("stats") or {}
    if "median_lo_ms" not in stats or "median_hi_ms" not in stats:
        return None
    return stats["median_lo_ms"], stats["median_hi_ms"]


def median_interval_text(point):
    """'[1.2, 1.3] ms (95 %)': the interval of a point's median time its results file records,
    at its level, or '-'."""
    ci, level = file_interval(point), (point.get("stats") or {}).get("interval_level")
    if ci is None:
        return "-"
    return (f"[{fmt_measure(ci[0])}, {fmt_measure(ci[1])}] ms"
            + (f" ({level:.0%})" if level is not None else ""))


def noisy_text(job):
    """The sentence counting the job's finished points its results file marks noisy, or ''."""
    noisy = [p for p in ok_points(job) if p.get("noisy")]
    if not noisy:
        return ""
    return (f"The results file marks {len(noisy)} of the {len(ok_points(job))} finished points "
            "noisy (the interval of the median wider than the sampling allows, or a repetition "
            "ran while the GPU slowed its clocks; results/README.md): their figures ring them, "
            "and a ranking that rests on them may not repeat.")


def job_section(job, figures, figures_dir, out_dir):
    """A job's heading, description, failed points and figures, or a table of its points where
    it has no figure."""
    lines = [f"## {job['job'].get('title', job['job']['name'])}", "",
             job["job"].get("description", ""), ""]
    for p in failed_points(job):
        lines.append(f"- Left out: `{p.get('label', '?')}` failed ({p.get('failure', '?')}: "
                     f"{p.get('error', '')}).")
    if noisy_text(job):
        lines += ["", noisy_text(job)]
    lines += ["", ""]
    if not figures and ok_points(job):
        lines += ["No figure draws this job's points; their times:", "", points_table(job), ""]
    return "\n".join(lines + [figure_section(f, figures_dir, out_dir) for f in figures])


def github_slug(title, separator):
    """A heading's id as GitHub makes REPORT.md's anchors: lower case, punctuation but hyphens
    dropped, each space a `separator` (no run of them collapsed, as Python-Markdown's own
    slugify does), so that the table of contents links the same headings in both files."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", separator)


# The report's table of contents lists its sections (##) and figures (###) with the ids that
# Python-Markdown's toc extension gives REPORT.html's headings.
TOC = {"toc_depth": "2-3", "slugify": github_slug}


def toc_entries(tokens):
    """The toc extension's tokens, nested ones after their parent, in document order."""
    for token in tokens:
        yield token
        yield from toc_entries(token["children"])


def html_and_contents(text):
    """(the HTML of the Markdown `text`, its headings with ids; a nested Markdown list linking
    each section and figure to its id)."""
    md = markdown.Markdown(extensions=["tables", "toc"], extension_configs={"toc": TOC})
    body = md.convert(text)
    # Four spaces nest a list item in Python-Markdown (REPORT.html) as on GitHub.
    return body, [f"{'    ' * (t['level'] - 2)}- [{html.unescape(t['name'])}](#{t['id']})"
                  for t in toc_entries(md.toc_tokens)]


def report_pages(drawn, missing, results_dir, figures_dir, out_dir):
    """The whole report as Markdown and the body of its HTML, from draw_figures' results and
    missing jobs."""
    figures = [f for _, made in drawn for f in made]
    jobs = [job for job, _ in drawn]
    body = ["## Where and at which commit", "", environment_table(jobs), "",
            "## Best scheduler per regime", "", best_table(figures), ""]
    body += choice_section(figures)
    body += memory_section(jobs)
    body += [job_section(job, made, figures_dir, out_dir) for job, made in drawn]
    if missing:
        body += ["## Not measured yet", "",
                 "No results file for: " + ", ".join(f"`{m}`" for m in missing) + ".", ""]
    text = "\n".join(body)
    head = ["# schedbench results", "",
            f"Generated by `python -m schedbench_results.report` from `{results_dir}`; do not "
            "edit by hand. Times are medians of the repetitions; error bars span each point's "
            "fastest to slowest repetition. The sentences under each figure are computed from "
            "the results; a ratio's [interval] is the 95 % bootstrap interval of the ratio of "
            "the medians, resampling the points' repetitions (\"within noise\" where it "
            "reaches 1); a point's own interval is the one its results file records.", "",
            "## Contents", ""]
    body, contents = html_and_contents(text)
    top = "\n".join(head + contents)
    return f"{top}\n\n{text}", f"{markdown.markdown(top)}\n{body}"


HTML_HEAD = ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
             "<title>schedbench results</title><style>body{font-family:sans-serif;"
             "max-width:1100px;margin:auto}img{max-width:100%}table{border-collapse:"
             "collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style></head>")


def write_text(path, text):
    """Writes `text` to `path` atomically."""
    return write_atomically(path, lambda tmp: pathlib.Path(tmp).write_text(text))


ACCEPTED = (f"accepted: a folder of job results files (schema {JOB_SCHEMA}, as `schedbench "
            "sweep` writes them) and their catalog.json; nothing written")


def check_request(results_dir, out_dir, jobs):
    """Refuses (InputError) what cannot give a report, before anything is written: OUT_DIR or its
    figures/ not a folder one may write in, a JOB that no job could be named, RESULTS_DIR not a
    folder, a results file in it that breaks its schema, a folder without results files, their
    catalog missing or broken, or none of the JOBs asked for in the folder."""
    check_output_dir("--out", out_dir, inner=("figures",))
    for name in jobs:
        if not is_job_name(name):
            raise InputError(f"job {shown(name)} is not accepted; accepted: {NAME_RULE}")
    folder = pathlib.Path(results_dir)
    index = job_index(folder)
    if not index:
        raise InputError(f"{folder} holds no job results files; {ACCEPTED}")
    use_catalog(next(iter(index.values())))
    if jobs and not any(part in index for name in jobs for part in parts(name)):
        raise InputError(f"{folder} holds the results of none of the {len(jobs)} jobs asked "
                         f"for; {ACCEPTED}")


def write_report(results_dir, out_dir, jobs=()):
    """Draws the figures of `jobs` (default: every job in RESULTS_DIR) into OUT_DIR/figures and
    writes OUT_DIR/REPORT.md and REPORT.html; returns their paths. InputError where the results
    lack what the report reads (errors.drawn_from), OutputError where a write fails."""
    out = pathlib.Path(out_dir)
    index = job_index(results_dir)
    # Every figure and the text are made from the results before any is drawn: results that
    # lack what they read are refused with nothing written.
    found, missing = figure_records(results_dir, index, list(jobs) or figure_jobs(index))
    drawn = [(job, made) for job, made, _ in found]
    with drawn_from(results_dir):
        text, body = report_pages(drawn, missing, results_dir, out / "figures", out)
    for job, made, source in found:
        render_figures(made, out / "figures", source)
    make_folder(out)
    return (write_text(out / "REPORT.md", text),
            write_text(out / "REPORT.html", f"{HTML_HEAD}<body>\n{body}\n</body></html>\n"))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results_dir", help="folder of job results files, e.g. results/<device>")
    parser.add_argument("--out", required=True,
                        help="folder for REPORT.md, REPORT.html and figures/")
    parser.add_argument("jobs", nargs="*",
                        help="job names, in the report's order (default: every job in the folder)")
    args = parser.parse_intermixed_args()  # jobs may follow --out

    def report():
        # An empty or mistyped folder would give an empty report in place of the one there: it
        # is refused before anything is written.
        check_request(args.results_dir, args.out, args.jobs)
        for path in write_report(args.results_dir, args.out, args.jobs):
            print(path)

    run_command("report", report)


if __name__ == "__main__":
    main()
