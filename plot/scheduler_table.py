"""The scheduler benchmark's summary from Google Benchmark JSON files (bench_schedulers
--benchmark_out): per scheduler, the median time at block size 128 and at its best block size,
particle-steps per second, and efficiency against `bound`: against the bound's best time over
all block sizes, and against the bound at the scheduler's own best block size. Prints a
Markdown table. Several files (a sweep split across runs) are merged; they must share a
workload."""

import argparse
import json
import re
import statistics

POINT = re.compile(r"^(?P<workload>[^/]+)/(?P<scheduler>[^/]+)/block_size:(?P<block>\d+)")


PARTS = ("grid_ms", "mobility_ms", "compaction_ms")
COUNTS = ("final", "spawned", "removed")


def load_points(paths):
    """{(workload, scheduler, block): [ms, ...]} from the raw repetitions, and the context.
    Also keeps, per point, the repetitions' counters (parts of the time, counts)."""
    times, context, steps = {}, {}, {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
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
    return times, context, steps


COUNTERS = {}  # filled by load_points: (workload, scheduler, block) -> [counters per repetition]


def median_counter(key, name):
    values = [c[name] for c in COUNTERS.get(key, []) if name in c]
    return statistics.median(values) if values else None


def summary(times, steps):
    workloads = {k[0] for k in times}
    if len(workloads) != 1:
        raise SystemExit(f"scheduler_table: expected one workload, found {sorted(workloads)}")
    workload = workloads.pop()
    median = {k: statistics.median(v) for k, v in times.items()}
    reps = {k: len(v) for k, v in times.items()}
    bound = min((t for (w, s, b), t in median.items() if s == "bound"), default=None)
    schedulers = []
    for (w, s, b) in times:
        if s not in schedulers:
            schedulers.append(s)
    rows = []
    for s in schedulers:
        mine = {b: t for (w, x, b), t in median.items() if x == s}
        best = min(mine, key=mine.get)
        at128 = mine.get(128)
        same_block = median.get((workload, "bound", best))
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
    parser.add_argument("files", nargs="+", help="Google Benchmark JSON files of one workload")
    args = parser.parse_args()
    times, context, steps = load_points(args.files)
    print(markdown(*summary(times, steps), context))


if __name__ == "__main__":
    main()
