"""The scheduler comparison of one workload: per scheduler, the median time at block size 128
and at its best block size, particle-steps per second, and efficiency against `bound`: against
the bound's best time over all block sizes, and against the bound at the scheduler's own best
block size. Prints a Markdown table.

Reads job results files (schema schedbench.job/1, `schedbench sweep jobs/mvp-block-size.json`
or jobs/pic-default.json) and the Google Benchmark JSON files of the former bench_schedulers
program that results/ still holds (`*.gbench.json`), and which scheduler is the yardstick from
the catalog.json beside them (`schedbench list --json`). Several files (shards, or a sweep split
across runs) are merged. A workload is what the points simulate: points that differ in more than
scheduler, policy, block size, blocks per SM and bookkeeping (capacity) belong to different
workloads, and each workload gets a table of its own, named by the job and the parameters that
tell it apart ("pic-default (init_n 1,000,000)")."""

import argparse
import json
import re
import statistics

from schedbench_results import figures as results
from schedbench_results import frames
from schedbench_results.errors import drawn_from, run_command

POINT = re.compile(r"^(?P<workload>[^/]+)/(?P<scheduler>[^/]+)/block_size:(?P<block>\d+)")


PARTS = ("grid_ms", "mobility_ms", "compaction_ms")
COUNTS = ("final", "spawned", "removed")


# What may differ between the points of one workload: how it is scheduled, not what is simulated.
TUNING = {"scheduler", "policy", "block_size", "blocks_per_sm"}


def scheduler_name(config):
    """The scheduler, with its tuning policy where that is not the default (sanitize.sh's form)."""
    policy = config.get("policy", "default")
    return config["scheduler"] if policy == "default" else f"{config['scheduler']}:{policy}"


def workload_keys(configs):
    """The parameters in which the points' workloads differ: any but how they are scheduled and
    the bookkeeping keys. A parameter that only some schedulers take (absent or null for the
    others) does not part them."""
    keys = {k for c in configs for k in c} - TUNING - results.catalog().bookkeeping
    return sorted(k for k in keys
                  if len({json.dumps(c[k]) for c in configs if c.get(k) is not None}) > 1)


def workload_name(job, keys, config):
    """A point's workload: the job's name, with the values of `keys` where the job holds
    several workloads."""
    if not keys:
        return job
    return f"{job} ({', '.join(f'{k} {results.fmt(config.get(k))}' for k in keys)})"


def load_job_results(doc, times, context, steps):
    """Adds the measured points of a schedbench.job/1 file, a workload per set of values of
    the parameters that are not tuning."""
    points = [p for p in doc["points"] if p.get("status") == "ok"]
    keys = workload_keys([p["config"] for p in points])
    device = doc["environment"].get("device") or {}
    context.update({"gpu": device.get("name", "?"),
                    "driver_version": (device.get("nvidia_smi") or {}).get("driver_version", "?"),
                    "git_commit": doc["environment"]["build"]["git_commit"]})
    for p in points:
        workload = workload_name(doc["job"]["name"], keys, p["config"])
        key = (workload, scheduler_name(p["config"]), p["config"]["block_size"])
        times.setdefault(key, []).extend(p["repetitions_ms"])
        steps[workload] = p["counts"]["particle_steps"]
        measured = {f"{part}_ms": ms for part, ms in p["parts_ms"].items()}
        measured.update({c: p["counts"][c] for c in COUNTS})
        COUNTERS.setdefault(key, []).append(measured)


def load_points(paths):
    """{(workload, scheduler, block): [ms, ...]} from the raw repetitions, and the context.
    Also keeps, per point, the repetitions' counters (parts of the time, counts)."""
    times, context, steps = {}, {}, {}
    COUNTERS.clear()
    for path in paths:
        results.use_catalog(path)
        doc = frames.read_json(path, "a job results file or a Google Benchmark file")
        # A file that lacks what is read below is refused with its name (errors.drawn_from).
        with drawn_from(path):
            if frames.is_job_results(doc):
                load_job_results(frames.check_results(path, doc), times, context, steps)
            else:
                load_benchmarks(doc, times, context, steps)
    return times, context, steps


def load_benchmarks(doc, times, context, steps):
    """Adds the repetitions of a Google Benchmark file."""
    context.update(doc.get("context", {}))
    for b in doc["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        m = POINT.match(b["run_name"])
        key = (m["workload"], m["scheduler"], int(m["block"]))
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        times.setdefault(key, []).append(b["real_time"] * scale)
        steps[m["workload"]] = b.get("particle_steps", 0)
        COUNTERS.setdefault(key, []).append({k: b[k] for k in PARTS + COUNTS if k in b})


COUNTERS = {}  # filled by load_points: (workload, scheduler, block) -> [counters per repetition,
#               or per point where a job results file keeps only the median repetition's]


def median_counter(key, name):
    values = [c[name] for c in COUNTERS.get(key, []) if name in c]
    return statistics.median(values) if values else None


def the_yardstick(names):
    """The yardstick (the catalog's; `bound`) among the measured names, or None; several exit."""
    found = sorted(names & results.catalog().yardsticks)
    if len(found) > 1:
        raise SystemExit(f"scheduler_table: more than one yardstick measured: {', '.join(found)}")
    return found[0] if found else None


def workloads(times):
    """The workloads measured, in the order of their first point."""
    return list(dict.fromkeys(k[0] for k in times))


def summary(times, steps, workload):
    """(workload, the yardstick's best median, a row per scheduler) of one workload."""
    times = {k: v for k, v in times.items() if k[0] == workload}
    median = {k: statistics.median(v) for k, v in times.items()}
    reps = {k: len(v) for k, v in times.items()}
    yardstick = the_yardstick({s for (w, s, b) in times})
    bound = min((t for (w, s, b), t in median.items() if s == yardstick), default=None)
    schedulers = []
    for (w, s, b) in times:
        if s not in schedulers:
            schedulers.append(s)
    rows = []
    for s in schedulers:
        mine = {b: t for (w, x, b), t in median.items() if x == s}
        best = min(mine, key=mine.get)
        at128 = mine.get(128)
        same_block = median.get((workload, yardstick, best))
        rows.append({
            "scheduler": s, "ms_128": at128, "best_block": best, "ms_best": mine[best],
            "gsteps_best": steps[workload] / (mine[best] * 1e-3) / 1e9,
            "eff_best": bound / mine[best] if bound else None,
            "eff_128": bound / at128 if bound and at128 else None,
            "eff_same_block": same_block / mine[best] if same_block else None,
            "reps": min(reps[(workload, s, b)] for b in mine),
            "blocks": sorted(mine),
            "parts": {p: median_counter((workload, s, best), p) for p in PARTS},
            "counts": {c: median_counter((workload, s, best), c) for c in COUNTS},
        })
    return workload, bound, rows


def markdown(workload, bound, rows, context):
    f = lambda v, fmt: "-" if v is None else format(v, fmt)
    out = [f"{workload} on {context.get('gpu', '?')} (driver {context.get('driver_version', '?')}, "
           f"commit {context.get('git_commit', '?')[:12]}); medians; efficiency = best bound time "
           f"({f(bound, '.1f')} ms) / time", "",
           "| scheduler | ms @128 | best block | ms @best | Gsteps/s @best | efficiency @best | "
           "efficiency @128 | efficiency @best vs bound at that block | reps | block sizes run |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        out.append(f"| {r['scheduler']} | {f(r['ms_128'], '.1f')} | {r['best_block']} | "
                   f"{f(r['ms_best'], '.1f')} | {r['gsteps_best']:.1f} | {f(r['eff_best'], '.2f')} | "
                   f"{f(r['eff_128'], '.2f')} | {f(r['eff_same_block'], '.2f')} | {r['reps']} | "
                   f"{','.join(map(str, r['blocks']))} |")
    if any(r["parts"].get("grid_ms") is not None for r in rows):
        out += ["", "At each scheduler's best block size: the time's parts and the counts (medians).", "",
                "| scheduler | grid ms | mobility ms | compaction ms | final | spawned | removed |",
                "|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            p, c = r["parts"], r["counts"]
            out.append(f"| {r['scheduler']} | {f(p['grid_ms'], '.1f')} | {f(p['mobility_ms'], '.1f')} | "
                       f"{f(p['compaction_ms'], '.1f')} | {f(c['final'], '.0f')} | "
                       f"{f(c['spawned'], '.3g')} | {f(c['removed'], '.3g')} |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+",
                        help="job results files (or *.gbench.json files); a table per workload")
    args = parser.parse_args()

    def table():
        times, context, steps = load_points(args.files)
        print("\n\n".join(markdown(*summary(times, steps, w), context) for w in workloads(times)))

    run_command("scheduler_table", table)


if __name__ == "__main__":
    main()
