"""Writes REPORT.md and REPORT.html from committed job results (make report): where and at
which commit they were measured, the best scheduler in each workload regime, and each figure
with its caption and a few sentences about what it shows. Every number in the text is computed
here from the results, so the report says what the data says, not what we expected; it needs
no GPU. The figures themselves are drawn by plot/make_figures.py (make figures) first; this
script only links them."""

import argparse
import json
import os
import pathlib
import sys

import markdown

from .figures import (QUANTITIES, build, catalog, config, device_label, failed_points, family,
                      fmt, fmt_measure, git_commit, is_yardstick, load_parts, markdown_table,
                      ok_points, parts, series, shared_values, sort_key, value)

RACE_WORDS = {"time": "run time", "compaction": "compaction time"}


# --- reading a figure's numbers ----------------------------------------------------------

def table(figure, quantity):
    """{label: [(x, y)]} of a per-scheduler quantity, x in order, missing values left out; the
    yardstick (bound) is not a scheduler and is never ranked (see yardstick())."""
    out = {}
    for label, ps in series(figure).items():
        if is_yardstick(label):
            continue
        xy = [(config(p)[figure.x], value(p, quantity)) for p in ps]
        out[label] = [(x, y) for x, y in xy if y is not None]
    return {label: xy for label, xy in out.items() if xy}


def ranking(rows, quantity):
    """[(y, label)] best first."""
    better = QUANTITIES[quantity].higher_is_better
    return sorted(rows, key=lambda r: -r[0] if better else r[0])


def per_x(tab, quantity):
    """[(x, ranking)] for each x that at least two series reached."""
    xs = sorted({json.dumps(x) for xy in tab.values() for x, _ in xy},
                key=lambda s: sort_key(json.loads(s)))
    out = []
    for xs_key in xs:
        rows = [(y, label) for label, xy in tab.items() for x, y in xy
                if json.dumps(x) == xs_key]
        if len(rows) >= 2:
            out.append((json.loads(xs_key), ranking(rows, quantity)))
    return out


def ratio(a, b, quantity):
    """How many times worse b is than a (>= 1)."""
    return a / b if QUANTITIES[quantity].higher_is_better else b / a


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
    return [s for s in out if s]


def describe_race(figure, quantity):
    """Who is fastest where, by how much, and where the lead changes."""
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
    out = [f"Of the {len(rounds)} {xname} values, the best {name} is {tally}."]
    out += lead_changes(rounds, xname)
    if xname in catalog().tuning:
        out.append(at_best(tab, quantity, xname))
    else:
        x, rank = rounds[-1]
        (y1, l1), (y2, l2), (yn, ln) = rank[0], rank[1], rank[-1]
        sentence = (f"At {xname} {fmt(x)}, {l1} is best with {q.text(y1)}; the runner-up "
                    f"{l2} takes {q.text(y2)} ({ratio(y1, y2, quantity):.2f}×)")
        if len(rank) > 2:
            sentence += f" and the last, {ln}, {q.text(yn)} ({ratio(y1, yn, quantity):.2f}×)"
        out.append(sentence + ".")
        out.append(yardstick(figure, quantity, x, y1, l1))
        out.append(growth(tab[l1], l1, name, xname))
    return out


def describe_single(figure, quantity, label, xy):
    """One series: its values along x and the spread between its best and worst."""
    q = QUANTITIES[quantity]
    values = "; ".join(f"{figure.x} {fmt(x)}: {q.text(y)}" for x, y in xy[:6])
    if len(xy) == 1:
        return f"Only {label}, at one {figure.x}: {values}."
    rank = ranking([(y, x) for x, y in xy], quantity)
    best, worst = rank[0], rank[-1]
    return (f"Only {label}: {values}. Its best {figure.x} is {fmt(best[1])}, "
            f"{ratio(best[0], worst[0], quantity):.2f}× better than its worst ({fmt(worst[1])}).")


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
    parts = [f"{label} from {fmt(lo)} to {fmt(hi)}" if lo != hi else f"{label} at {fmt(lo)}"
             for label, lo, hi in segments[:5]]
    return [f"The lead changes {len(segments) - 1} time(s) along {xname}: " + ", then ".join(parts)
            + "."]


def at_best(tab, quantity, xname):
    """Each series at its best value of a tuning parameter, best first."""
    q = QUANTITIES[quantity]
    best = ranking([(y, f"{label} at {xname} {fmt(x)}") for label, xy in tab.items()
                    for y, x in [ranking([(y, x) for x, y in xy], quantity)[0]]], quantity)
    listed = ", ".join(f"{label} {q.text(y)}" for y, label in best[:4])
    return (f"Each at its best {xname}: {listed}; the best is "
            f"{ratio(best[0][0], best[-1][0], quantity):.2f}× ahead of the slowest, "
            f"{best[-1][1]} ({q.text(best[-1][0])}).")


def yardstick(figure, quantity, x, best, label):
    """How far the best scheduler is from `bound` at x: the same particle-steps on a fixed,
    balanced population (docs/design.md §6)."""
    bound = [value(p, quantity) for ps_label, ps in series(figure).items()
             if is_yardstick(ps_label) for p in ps if config(p)[figure.x] == x]
    if not bound or bound[0] is None or quantity != "time":
        return ""
    return (f"The bound yardstick takes {QUANTITIES[quantity].text(bound[0])} there, so the "
            f"efficiency of {label} is {bound[0] / best:.0%}.")


def growth(xy, label, name, xname):
    """How the leader's value grows with a numeric x, against how x grows."""
    (x0, y0), (x1, y1) = xy[0], xy[-1]
    if not all(isinstance(v, (int, float)) and v > 0 for v in (x0, x1, y0, y1)) or x0 == x1:
        return ""
    return (f"From {xname} {fmt(x0)} to {fmt(x1)} (×{fmt_measure(x1 / x0)}) the {name} of "
            f"{label} changes ×{fmt_measure(y1 / y0)}.")


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
    """Which scheduler leads below the first SM-fill line and above the last."""
    tab = table(figure, figure.panels[0].quantities[0])
    rounds = per_x(tab, figure.panels[0].quantities[0])
    lines = ", ".join(label.split(":")[0] for _, label, _ in figure.markers)
    below = [r for x, r in rounds if x < figure.markers[0][0]]
    above = [r for x, r in rounds if x >= figure.markers[-1][0]]
    parts = [f"The dashed lines mark {lines} initial particles"]
    if below:
        parts.append(f"below the first, {below[-1][0][1]} leads (at the last point before it)")
    if above:
        parts.append(f"beyond the last, {above[0][0][1]} leads")
    return "; ".join(parts) + "."


# --- the table of best schedulers ------------------------------------------------------------

def best_row(figure):
    """The regime's row: best and runner-up by median of the figure's first quantity, compared
    at the largest workload both ran, at each one's best tuning value, or (one scheduler) between
    the values of x."""
    quantity = figure.panels[0].quantities[0]
    tab = table(figure, quantity)
    if len(tab) == 1:
        label, xy = next(iter(tab.items()))
        rank = ranking([(y, f"{label}, {figure.x} {fmt(x)}") for x, y in xy], quantity)
        where = f"per {figure.x}"
    elif figure.x in catalog().tuning:
        rank = ranking([(y, f"{label} at {figure.x} {fmt(x)}") for label, xy in tab.items()
                        for y, x in [ranking([(y, x) for x, y in xy], quantity)[0]]], quantity)
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
            q.text(rank[1][0]), f"{ratio(rank[0][0], rank[1][0], quantity):.2f}×"]


def best_table(figures):
    """The Markdown table of best schedulers, a row per regime."""
    rows = [r for f in figures if f.regime for r in [best_row(f)] if r]
    head = ["regime", "compared at", "best", "median", "runner-up", "median", "runner-up / best"]
    return markdown_rows(head, rows)


# --- choosing a scheduler for a physically accurate simulation ---------------------------------

def bound_at(figure, x, quantity):
    """The bound yardstick's value at x, or None."""
    found = [value(p, quantity) for label, ps in series(figure).items()
             if is_yardstick(label) for p in ps if config(p)[figure.x] == x]
    return found[0] if found else None


def choice_rows(figure):
    """One row per x of a `choice` figure: the best scheduler and the runner-up by median time
    (every scheduler does the same flights there), the time per flight, and the best's
    efficiency against bound."""
    rows = []
    for x, rank in per_x(table(figure, "time"), "time"):
        (t1, l1), (t2, l2) = rank[0], rank[1]
        ns = [value(p, "ns_per_step") for p in figure.points
              if config(p)[figure.x] == x and config(p)["scheduler"] == l1.split(" (")[0]]
        bound = bound_at(figure, x, "time")
        rows.append([figure.regime, f"{figure.x} {fmt(x)}", l1,
                     f"{fmt_measure(ns[0])} ns" if ns and ns[0] else "-", l2,
                     f"{t2 / t1:.2f}×", f"{bound / t1:.0%}" if bound else "-"])
    return rows


def choice_section(figures):
    """The report's answer to seed 003 §7.1.6 for the physically accurate workload: who is
    fastest in each regime the air jobs measured, and a tally."""
    rows = [r for f in figures if f.choice for r in choice_rows(f)]
    if not rows:
        return []
    wins = {}
    for r in rows:
        wins[r[2]] = wins.get(r[2], 0) + 1
    tally = ", ".join(f"{label} in {n}" for label, n in sorted(wins.items(), key=lambda w: -w[1]))
    head = ["regime", "at", "best", "per flight", "runner-up", "runner-up / best",
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
            f"{best['counters']['memory_efficiency']:.0%}" if best else "-",
            f"{best['counters']['efficiency']:.0%}"
            if best and "efficiency" in best["counters"] else "-"]


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
                "fastest GPU point of the largest workload", "its median", "memory line", "line / median",
                "bound / median"]
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


def job_section(job, figures, figures_dir, out_dir):
    """A job's heading, description, failed points and figures."""
    lines = [f"## {job['job'].get('title', job['job']['name'])}", "",
             job["job"].get("description", ""), ""]
    for p in failed_points(job):
        lines.append(f"- Left out: `{p.get('label', '?')}` failed ({p.get('failure', '?')}: "
                     f"{p.get('error', '')}).")
    lines += ["", ""]
    missing = [f.name for f in figures
               if not (pathlib.Path(figures_dir) / f"{f.name}.png").exists()]
    if missing:
        print(f"make_report: figures not drawn yet (run make figures): {', '.join(missing)}")
    return "\n".join(lines + [figure_section(f, figures_dir, out_dir) for f in figures])


def load_jobs(results_dir, jobs):
    """[(job results, its Figure records)] for the jobs with a results file; names the others.
    A figure that draws several jobs' results (its script's PARTS) reads those that exist."""
    loaded, missing = [], []
    for name in jobs:
        paths = [pathlib.Path(results_dir) / f"{part}.json" for part in parts(name)]
        for path in paths:
            if not path.exists():
                print(f"make_report: {path} is missing; {path.stem} is left out of the report")
                missing.append(path.stem)
        found = [p for p in paths if p.exists()]
        if not found:
            continue
        job = load_parts(name, found)
        loaded.append((job, build(family(name).figures, job)))
    return loaded, missing


def report_markdown(results_dir, figures_dir, out_dir, jobs):
    """The whole report as Markdown."""
    loaded, missing = load_jobs(results_dir, jobs)
    parts = ["# schedbench results", "",
             f"Generated by `report/make_report.py` from `{results_dir}`; do not edit by hand. "
             "Times are medians of the repetitions; the sentences under each figure are computed "
             "from the results.", "", "## Where and at which commit", "",
             environment_table([job for job, _ in loaded]), "",
             "## Best scheduler per regime", "",
             best_table([f for _, figs in loaded for f in figs]), ""]
    parts += choice_section([f for _, figs in loaded for f in figs])
    parts += memory_section([job for job, _ in loaded])
    parts += [job_section(job, figs, figures_dir, out_dir) for job, figs in loaded]
    if missing:
        parts += ["## Not measured yet", "",
                  "No results file for: " + ", ".join(f"`{m}`" for m in missing) + ".", ""]
    return "\n".join(parts)


def write_report(results_dir, figures_dir, out_dir, jobs):
    """Writes OUT_DIR/REPORT.md and REPORT.html; returns their paths."""
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    text = report_markdown(results_dir, figures_dir, out_dir, jobs)
    md, html = out / "REPORT.md", out / "REPORT.html"
    md.write_text(text)
    body = markdown.markdown(text, extensions=["tables"])
    html.write_text("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
                    "<title>schedbench results</title><style>body{font-family:sans-serif;"
                    "max-width:1100px;margin:auto}img{max-width:100%}table{border-collapse:"
                    "collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style></head>"
                    f"<body>\n{body}\n</body></html>\n")
    return md, html


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results_dir", help="folder of job results, results/<device>")
    parser.add_argument("--figures", required=True, help="folder the figures were drawn into")
    parser.add_argument("--out", required=True, help="folder for REPORT.md and REPORT.html")
    parser.add_argument("jobs", nargs="+", help="job names, in the report's order")
    args = parser.parse_args()
    # A folder that holds none of the jobs (another device's name, a typo) would give an empty
    # report in place of the one there: refused, with nothing written.
    if not any((pathlib.Path(args.results_dir) / f"{part}.json").exists()
               for name in args.jobs for part in parts(name)):
        print(f"make_report: {args.results_dir} holds the results of none of the "
              f"{len(args.jobs)} jobs asked for; accepted: a folder of sweeps' results "
              f"(results/<device>); nothing written", file=sys.stderr)
        sys.exit(2)
    for path in write_report(args.results_dir, args.figures, args.out, args.jobs):
        print(path)


if __name__ == "__main__":
    main()
