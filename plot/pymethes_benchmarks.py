"""pyMETHES 0.2 (plot/pymethes_support.py) on the benchmark model gases of data/swarm/: an
independent Monte Carlo code's values for the cases no published table here covers (the Reid
ramp at 12 and 24 Td, Lucas-Saelee F = 0 and 0.5), and for ones that have published values (the
Reid ramp at 20 Td, Lucas-Saelee F = 1), which check pyMETHES itself. pyMETHES runs with one
trial frequency for the whole run (pymethes_support.one_trial_frequency: its own choice is not
exact), several seeds a case; each quantity is the mean over seeds, its error their scatter over
the square root of their number.

A gas that ionizes runs with the case's sharing of the energy left (pymethes_support.
uniform_sharing where it is uniform) and, by default, a trial frequency GROWING_TRIAL_FACTOR
times the table's largest: all of pyMETHES's electrons share each step's flight time, which
biases a swarm that gains electrons by an amount in proportion to the step's length
(docs/physics.md, "The bulk drift at high E/N"). A case with the gas at a temperature is
refused (pyMETHES's molecules are at rest).

    .venv-pymethes/bin/python plot/pymethes_benchmarks.py --cases lucas-saelee-f0-10Td \\
        --collisions-per-electron 3000 --out results/swarm-benchmarks/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_benchmarks.py --cases lucas-saelee-f1-10Td \\
        lucas-saelee-f0.5-10Td --electrons 10000 --seeds 8 --collisions-per-electron 3000 \\
        --out results/swarm-benchmarks/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_benchmarks.py \\
        --out results/swarm-benchmarks/pymethes.json --record
    .venv/bin/python plot/pymethes_benchmarks.py --out results/swarm-benchmarks/pymethes.json \\
        --record-only

write the results atomically after each case, adding to what the file holds (Lucas-Saelee's
energy relaxes over more collisions than the Reid ramp's, and its cases that ionize need the
shorter steps); the first and third take about 7 and 20 minutes on two cores, the second about
55. --record enters every case the file holds in data/swarm/benchmarks.json as the references of
source `pymethes-0.2-here`, except where a case has an analytic value, which checks pyMETHES
instead; --record-only does that alone, without pyMETHES (docs/physics.md, "Swarm benchmarks",
reads them).
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import time

from pymethes_support import combine, pymethes_run, show
from swarm_benchmarks import BENCHMARKS, ROOT, load_benchmarks, write_atomically
from swarm_benchmarks import usage_error as swarm_usage_error

SCHEMA = "schedbench.pymethes-benchmarks/1"
SOURCE = "pymethes-0.2-here"
# Every average from half the run on, as sim air's cases average from a quarter or more of theirs
# (pymethes_support.pymethes_run says why pyMETHES's own start is not kept).
RELAXED_FROM = 0.5
DEFAULT_CASES = ("reid-ramp-12Td", "reid-ramp-24Td", "reid-ramp-20Td")
# The trial frequency's factor for a gas that ionizes, where a shorter step has less bias
# (docs/physics.md, "Swarm benchmarks", gives what it leaves on Lucas-Saelee F = 1).
GROWING_TRIAL_FACTOR = 4.0
# pyMETHES's reductions, under the names of benchmarks.json (its bulk drift is its own fitted
# line through the centre of mass).
QUANTITIES = {"mean_energy_eV": "mean_energy_eV", "flux_drift_m_per_s": "flux_drift_m_per_s",
              "bulk_drift_m_per_s": "bulk_drift_fit_m_per_s",
              "flux_ND_L_per_m_s": "flux_ND_L_per_m_s", "flux_ND_T_per_m_s": "flux_ND_T_per_m_s",
              "bulk_ND_L_per_m_s": "bulk_ND_L_per_m_s", "bulk_ND_T_per_m_s": "bulk_ND_T_per_m_s"}
# And, where the gas ionizes:
IONIZING_QUANTITIES = {"ionization_rate_coefficient_m3_per_s":
                       "ionization_rate_coefficient_m3_per_s"}


def usage_error(message):
    swarm_usage_error("pymethes_benchmarks", message)


def runnable(case):
    """How pyMETHES runs the case as defined: (its largest energy in eV, the sharing of the energy
    left after an ionization, whether the gas ionizes); else exits 2."""
    options, words = {}, case["options"]
    for k, word in enumerate(words):
        if word.startswith("--"):
            value = words[k + 1] if k + 1 < len(words) else ""
            options[word] = None if value.startswith("--") else value
    # Any other option changes the gas.
    other = set(options) - {"--max-energy", "--ionization-sharing"}
    if other or not options.get("--max-energy"):
        usage_error(f"case {case['name']} has options {' '.join(case['options'])}; accepted: "
                    "--max-energy, --ionization-sharing and no option that changes the gas "
                    "(pyMETHES's is at rest)")
    sharing = options.get("--ionization-sharing") or "equal"  # sim air's default
    if sharing not in ("equal", "uniform"):
        usage_error(f"case {case['name']}: --ionization-sharing {sharing}; accepted: equal, "
                    "uniform")
    ionizes = re.search(r"^IONIZATION\s*$", (ROOT / case["gas_file"]).read_text(), re.MULTILINE)
    return float(options["--max-energy"]), sharing, bool(ionizes)


def run_case(case, args, pool):
    max_energy, sharing, ionizes = runnable(case)
    trial_factor = args.trial_factor or (GROWING_TRIAL_FACTOR if ionizes else 1.0)
    species = case["gas"].split(":")[0]
    collisions = args.collisions_per_electron * args.electrons
    futures = [pool.submit(pymethes_run, ROOT / case["gas_file"], species,
                           case["reduced_field_Td"], args.electrons, collisions, seed,
                           "fixed", max_energy, RELAXED_FROM, trial_factor, sharing)
               for seed in range(args.first_seed, args.first_seed + args.seeds)]
    runs = [f.result() for f in futures]
    summary = {}
    for name, key in {**QUANTITIES, **(IONIZING_QUANTITIES if ionizes else {})}.items():
        # A blocked mean comes with its own error (mean, error): the seeds' scatter is used.
        values = [r[key][0] if isinstance(r[key], (tuple, list)) else r[key] for r in runs]
        summary[name] = combine(values)
    return {"name": case["name"], "electrons": args.electrons, "seeds": args.seeds,
            "first_seed": args.first_seed,
            "collisions_per_electron": args.collisions_per_electron, "max_energy_eV": max_energy,
            "relaxed_from": RELAXED_FROM, "trial_factor": trial_factor,
            "ionization_sharing": sharing,
            "runs": runs, "summary": summary}


def analytic(case, sources):
    return any(sources[r["source"]]["kind"] == "analytic" for r in case.get("references", []))


def record(benchmarks_path, results):
    """Enters each case's pyMETHES values in benchmarks.json as references of SOURCE (replacing
    that source's earlier ones), atomically. A case with an analytic value is left as it is:
    there pyMETHES is checked, not a reference."""
    benchmarks = json.loads(pathlib.Path(benchmarks_path).read_text())
    units = benchmarks["units"]
    done = {c["name"]: c for c in results["cases"]}
    for case in benchmarks["cases"]:
        if case["name"] not in done or analytic(case, benchmarks["sources"]):
            continue
        refs = [r for r in case.get("references", []) if r["source"] != SOURCE]
        for q, (value, error) in done[case["name"]]["summary"].items():
            refs.append({"quantity": q, "value": float(f"{value:.6g}"),
                         "error": float(f"{error:.3g}"), "unit": units[q], "source": SOURCE,
                         "code": benchmarks["sources"][SOURCE]["code"]})
        case["references"] = refs
    write_atomically(benchmarks_path, benchmarks)


def load_results(path):
    if path.exists():
        results = json.loads(path.read_text())
        if results.get("schema") != SCHEMA:
            usage_error(f"{path} holds another schema than {SCHEMA}; accepted: a file this "
                        "script wrote, or a new path")
        return results
    return {"schema": SCHEMA, "pymethes": "0.2.0", "trial_frequency": "fixed", "cases": []}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=list(DEFAULT_CASES),
                        help="benchmarks.json case names (default: %(default)s)")
    parser.add_argument("--seeds", type=int, default=12, help="pyMETHES runs a case")
    parser.add_argument("--first-seed", type=int, default=1,
                        help="the seeds are this one and the next ones (another batch of seeds "
                             "tells whether their scatter shows pyMETHES's)")
    parser.add_argument("--electrons", type=int, default=20000,
                        help="pyMETHES's swarm size (it holds the size constant)")
    parser.add_argument("--collisions-per-electron", type=float, default=1000,
                        help="real collisions per electron of a run")
    parser.add_argument("--trial-factor", type=float, default=None,
                        help="pyMETHES's one trial frequency is this times the table's largest "
                             f"(default: {GROWING_TRIAL_FACTOR:g} where the gas ionizes, else 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(),
                        help="pyMETHES runs at once (default: the cores)")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--record", action="store_true",
                        help=f"enter the results in {BENCHMARKS.relative_to(ROOT)} as references "
                             f"of source {SOURCE}")
    parser.add_argument("--record-only", action="store_true",
                        help="enter what --out holds, as --record does, and run nothing")
    args = parser.parse_args()
    if args.record_only:
        if not args.out.exists():
            usage_error(f"--record-only: {args.out} does not exist; accepted: a results file "
                        "this script wrote")
        record(BENCHMARKS, load_results(args.out))
        return
    if args.first_seed < 1:
        usage_error(f"--first-seed {args.first_seed}; accepted: 1 or more")
    if args.trial_factor is not None and not args.trial_factor >= 1:
        usage_error(f"--trial-factor {args.trial_factor:g}; accepted: 1 or more (the table's "
                    "largest frequency is the least that is exact)")
    if args.seeds < 2:
        usage_error(f"--seeds {args.seeds}; accepted: 2 or more (the error is their scatter)")
    benchmarks = load_benchmarks()
    by_name = {c["name"]: c for c in benchmarks["cases"]}
    for name in args.cases:
        if name not in by_name:
            usage_error(f"--cases: no case {name}; accepted: {', '.join(by_name)}")
        runnable(by_name[name])
    if args.record and SOURCE not in benchmarks["sources"]:
        usage_error(f"--record: {BENCHMARKS.relative_to(ROOT)} has no source {SOURCE}; "
                    "accepted: after its citation is entered there")
    results = load_results(args.out)
    pool = concurrent.futures.ProcessPoolExecutor(args.jobs)
    for name in args.cases:
        started = time.monotonic()
        print(f"{name}: {args.seeds} pyMETHES runs of {args.electrons} electrons ...", flush=True)
        row = run_case(by_name[name], args, pool)
        row["wall_s"] = time.monotonic() - started
        results["cases"] = [c for c in results["cases"] if c["name"] != name] + [row]
        write_atomically(args.out, results)
        print(f"{name} ({row['wall_s']:.0f} s): " + ", ".join(
            f"{q} {show(v)}" for q, v in row["summary"].items()), flush=True)
    if args.record:
        record(BENCHMARKS, results)


if __name__ == "__main__":
    main()
