"""pyMETHES 0.2 (plot/pymethes_support.py) on the benchmark model gases of data/swarm/: an
independent Monte Carlo code's values for the cases no published table here covers (the Reid
ramp at 12 and 24 Td, Lucas-Saelee F = 0), and for one that has published values (the Reid ramp
at 20 Td), which checks pyMETHES itself. pyMETHES runs with one trial frequency for the whole run
(pymethes_support.one_trial_frequency: its own choice is not exact), several seeds a case; each
quantity is the mean over seeds, its error their scatter over the square root of their number.

A case pyMETHES cannot run as benchmarks.json defines it is refused: one with gas at a
temperature (pyMETHES's molecules are at rest) or with ionization (pyMETHES shares the energy
left in a fixed ratio, where these cases share it uniformly; and the flight time all its
electrons share biases a swarm that gains electrons: docs/physics.md, "The bulk drift at high
E/N").

    .venv-pymethes/bin/python plot/pymethes_benchmarks.py --cases lucas-saelee-f0-10Td \\
        --collisions-per-electron 3000 --out results/swarm-benchmarks/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_benchmarks.py \\
        --out results/swarm-benchmarks/pymethes.json --record

write the results atomically after each case, adding to what the file holds (Lucas-Saelee's
energy relaxes over more collisions than the Reid ramp's), and --record enters them in
data/swarm/benchmarks.json as the references of source `pymethes-0.2-here`, except where a case
has an analytic value, which checks pyMETHES instead (about 40 minutes on two cores in all;
docs/physics.md, "Swarm benchmarks", reads them).
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
# pyMETHES's reductions, under the names of benchmarks.json (its bulk drift is its own fitted
# line through the centre of mass).
QUANTITIES = {"mean_energy_eV": "mean_energy_eV", "flux_drift_m_per_s": "flux_drift_m_per_s",
              "bulk_drift_m_per_s": "bulk_drift_fit_m_per_s",
              "flux_ND_L_per_m_s": "flux_ND_L_per_m_s", "flux_ND_T_per_m_s": "flux_ND_T_per_m_s",
              "bulk_ND_L_per_m_s": "bulk_ND_L_per_m_s", "bulk_ND_T_per_m_s": "bulk_ND_T_per_m_s"}


def usage_error(message):
    swarm_usage_error("pymethes_benchmarks", message)


def runnable(case):
    """The case's largest energy (eV) where pyMETHES can run it as defined; else exits 2."""
    options, words = {}, case["options"]
    for k, word in enumerate(words):
        if word.startswith("--"):
            value = words[k + 1] if k + 1 < len(words) else ""
            options[word] = None if value.startswith("--") else value
    ionizes = re.search(r"^IONIZATION\s*$", (ROOT / case["gas_file"]).read_text(), re.MULTILINE)
    if ionizes:
        usage_error(f"case {case['name']}: {case['gas_file']} ionizes; accepted: gases without "
                    "ionization (pyMETHES shares the energy left in a fixed ratio, and its "
                    "electrons' shared flight times bias a growing swarm)")
    # Without ionization the sharing of its energy is void; any other option changes the gas.
    other = set(options) - {"--max-energy", "--ionization-sharing"}
    if other or not options.get("--max-energy"):
        usage_error(f"case {case['name']} has options {' '.join(case['options'])}; accepted: "
                    "--max-energy and no option that changes the gas (pyMETHES's is at rest)")
    return float(options["--max-energy"])


def run_case(case, args, pool):
    max_energy = runnable(case)
    species = case["gas"].split(":")[0]
    collisions = args.collisions_per_electron * args.electrons
    futures = [pool.submit(pymethes_run, ROOT / case["gas_file"], species,
                           case["reduced_field_Td"], args.electrons, collisions, seed,
                           "fixed", max_energy, RELAXED_FROM)
               for seed in range(args.first_seed, args.first_seed + args.seeds)]
    runs = [f.result() for f in futures]
    summary = {}
    for name, key in QUANTITIES.items():
        # A blocked mean comes with its own error (mean, error): the seeds' scatter is used.
        values = [r[key][0] if isinstance(r[key], (tuple, list)) else r[key] for r in runs]
        summary[name] = combine(values)
    return {"name": case["name"], "electrons": args.electrons, "seeds": args.seeds,
            "first_seed": args.first_seed,
            "collisions_per_electron": args.collisions_per_electron, "max_energy_eV": max_energy,
            "relaxed_from": RELAXED_FROM,
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
                         "error": float(f"{error:.3g}"), "unit": units[q], "source": SOURCE})
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
    parser.add_argument("--jobs", type=int, default=os.cpu_count(),
                        help="pyMETHES runs at once (default: the cores)")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--record", action="store_true",
                        help=f"enter the results in {BENCHMARKS.relative_to(ROOT)} as references "
                             f"of source {SOURCE}")
    args = parser.parse_args()
    if args.first_seed < 1:
        usage_error(f"--first-seed {args.first_seed}; accepted: 1 or more")
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
