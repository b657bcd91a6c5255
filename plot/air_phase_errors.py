"""How good sim air's per-phase standard errors are, against the scatter of relaxed phases.

Runs each case with seeds 1 to k, and for every quantity that has its own error (`NAME_error` in
the run's `result.observables`) takes its deviations over the relaxed phases from a straight line
through them (the swarm still relaxes slowly), each over its phase's error. Their root mean
square is 1 where the errors are right; above 1 they are too small. docs/physics.md ("The errors
of one phase") gives the estimates and this script's table. Writes the results as JSON and prints
the table.

    .venv/bin/python plot/air_phase_errors.py
    .venv/bin/python plot/air_phase_errors.py --scheduler dynamic-warp --electrons 100000 \\
        --out results/air-phase-errors/h100.json
"""

import argparse
import math
import pathlib
import sys

from swarm_benchmarks import ROOT, add_run_arguments, load_benchmarks, run_json, usage_error, \
    write_atomically

SCHEMA = "schedbench.air-phase-errors/1"

# Air itself, where electrons ionize ahead of the centre and attach behind it.
AIR = {"name": "air-400Td", "gas_file": "data/lxcat-siglo.txt", "gas": "N2:0.8,O2:0.2",
       "reduced_field_Td": 400.0, "options": []}

# (case: AIR or a data/swarm/benchmarks.json case's name, runs, electrons, phases, phase length
# in s, first relaxed phase), each run well under a minute on two cores with cpu-openmp.
CASES = [
    ("air-400Td", 16, 1000, 30, 4e-12, 10),
    ("lucas-saelee-f1-10Td", 4, 5000, 24, 2e-10, 6),
    ("reid-ramp-24Td", 3, 5000, 60, 1e-10, 10),
    ("maxwell-light-10Td", 2, 5000, 100, 1.2e-10, 10),
    ("ness-robson-p-0.5-0.4Td", 2, 50000, 30, 5e-11, 6),
]


def scatter_ratio(runs):
    """`runs`: per run, a list of (value, error) over its relaxed phases. The root mean square
    of the deviations from each run's weighted straight line, each over its error, and the
    degrees of freedom (phases less 2 per run). A run with fewer than 3 phases, or a phase
    without a positive error (a rate without events), is left out; None when none is left."""
    squares, dof = 0.0, 0
    for phases in runs:
        if len(phases) < 3 or any(not (math.isfinite(x) and math.isfinite(e) and e > 0)
                                  for x, e in phases):
            continue
        w = [1 / (e * e) for _, e in phases]
        sw = sum(w)
        sk = sum(wi * k for k, wi in enumerate(w))
        sx = sum(wi * x for wi, (x, _) in zip(w, phases))
        skk = sum(wi * k * k for k, wi in enumerate(w))
        skx = sum(wi * k * x for k, (wi, (x, _)) in enumerate(zip(w, phases)))
        slope = (sw * skx - sk * sx) / (sw * skk - sk * sk)
        offset = (sx - slope * sk) / sw
        squares += sum(((x - offset - slope * k) / e) ** 2 for k, (x, e) in enumerate(phases))
        dof += len(phases) - 2
    return (math.sqrt(squares / dof), dof) if dof > 0 else None


def calibrate(case, runs, init_n, phases, phase_time, first, scheduler, schedbench):
    """The ratio and degrees of freedom of every quantity with its own error in `case`."""
    series, commands = {}, []
    for seed in range(1, runs + 1):
        size = {"init_n": init_n, "phases": phases, "phase_time_s": phase_time,
                "average_from": first, "seed": seed}
        run, command, _ = run_json(case, size, scheduler, schedbench)
        observables = run["result"]["observables"]
        commands.append(command)
        names = {n[:-len("_error")] for o in observables[first:] for n in o
                 if n.endswith("_error")}
        for name in names:
            series.setdefault(name, []).append(
                [(o.get(name, math.nan), o.get(name + "_error", math.nan))
                 for o in observables[first:]])
    ratios = {}
    for name, per_run in sorted(series.items()):
        got = scatter_ratio(per_run)
        if got is not None:
            ratios[name] = {"ratio": got[0], "dof": got[1]}
    return {"name": case["name"], "runs": runs, "init_n": init_n, "phases": phases,
            "phase_time_s": phase_time, "first": first, "commands": commands, "ratios": ratios}


def table(results):
    """Markdown: a row per quantity, a column per case, `ratio (dof)`."""
    cases = results["cases"]
    names = sorted({n for c in cases for n in c["ratios"]})
    lines = ["| quantity | " + " | ".join(c["name"] for c in cases) + " |",
             "| --- |" + " ---: |" * len(cases)]
    for name in names:
        cells = [f"{c['ratios'][name]['ratio']:.2f} ({c['ratios'][name]['dof']})"
                 if name in c["ratios"] else "-" for c in cases]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_run_arguments(parser)
    parser.add_argument("--electrons", type=int, metavar="N",
                        help="initial electrons of every run (default: each case's own)")
    parser.add_argument("--out", type=pathlib.Path,
                        help="results JSON to write (default results/air-phase-errors/cpu.json)")
    args = parser.parse_args()
    known = [c[0] for c in CASES]
    unknown = sorted(set(args.cases or ()) - set(known))
    if unknown:
        usage_error("air_phase_errors", f"--case {', '.join(unknown)}: no such case; accepted: "
                    f"{', '.join(known)}")
    if args.electrons is not None and args.electrons < 1:
        usage_error("air_phase_errors", f"--electrons {args.electrons}: accepted: 1 or more")
    if not args.schedbench.exists():
        sys.exit(f"air_phase_errors: {args.schedbench} not found; build first (make build)")
    benchmarks = {c["name"]: c for c in load_benchmarks()["cases"]}
    results = {"schema": SCHEMA, "scheduler": args.scheduler, "schedbench": str(args.schedbench),
               "cases": []}
    for name, runs, init_n, phases, phase_time, first in CASES:
        if args.cases and name not in args.cases:
            continue
        print(f"{name}: {runs} runs ...", file=sys.stderr, flush=True)
        case = AIR if name == AIR["name"] else benchmarks[name]
        results["cases"].append(calibrate(case, runs, args.electrons or init_n, phases,
                                          phase_time, first, args.scheduler, args.schedbench))
    out = args.out or ROOT / "results" / "air-phase-errors" / "cpu.json"
    write_atomically(out, results)
    print(table(results))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
