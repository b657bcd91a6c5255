"""sim air against pyMETHES 0.2 (Chachereau et al., ETH Zurich: a Python successor of Rabie
and Franck's METHES; PyPI `pyMETHES`), an independent Monte Carlo swarm code that reads the
same LXCat file, in N2 at the fields given: the swarm's mean energy, flux drift and bulk drift
from pyMETHES (several seeds at each swarm size given) and from `schedbench run --sim air`
(12 seeds). pyMETHES's bulk drift is its own, a least-squares line through the centre of mass
from its energy relaxation on; its series are also reduced the way sim air reduces its phases
(the centre's advance over the span), so that the two definitions can be told apart from the
two codes. Errors are one standard error of the mean over seeds (the scatter of the seeds'
values). Writes JSON atomically after each swarm size of each field, adding to what the file
holds.

pyMETHES has a venv of its own (plot/pymethes_support.py says how to make it):

    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 400 100 --electrons 500 2000 \\
        --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 --electrons 8000 \\
        --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 400 --electrons 2000 \\
        --trial-frequency fixed --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 --electrons 500 8000 \\
        --trial-frequency fixed --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 --electrons 2000 \\
        --trial-frequency fixed --relaxed-from 0.5 --out results/air-validation/pymethes.json
    for k in 2 4; do .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 \\
        --electrons 2000 --trial-frequency fixed --trial-factor $k --relaxed-from 0.5 \\
        --collisions-per-electron 5000 --out results/air-validation/pymethes.json; done
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 --electrons 2000 \\
        --trial-frequency fixed --trial-factor 8 --relaxed-from 0.5 \\
        --collisions-per-electron 2500 --out results/air-validation/pymethes.json

(about two hours on two cores in all; docs/physics.md, "The bulk drift at high E/N",
reads them). After a change to sim air, its runs alone again, keeping pyMETHES's:

    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 100 400 800 --air-only \\
        --out results/air-validation/pymethes.json
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from pymethes_support import combine, pymethes_run, show
from swarm_benchmarks import ROOT, SCHEDBENCH, usage_error, write_atomically

CROSS_SECTIONS = ROOT / "data" / "lxcat-siglo.txt"
SCHEMA = "schedbench.pymethes-comparison/1"

# sim air's runs per field, one per seed: phases of about 0.1 ps at 1000 Td (a few tens of
# collision times, docs/physics.md "Averages and their errors"), 160 of them, averaged from the
# 40th on, which leaves the swarm a quarter of the run to relax (about 20 ps at 100 Td, 3 ps at
# 800 Td); the error of the mean from the seeds' scatter.
AIR_RUN = {"init_n": 3000, "phases": 160, "average_from": 40, "seeds": 12}
COMPARED = ("mean_energy_eV", "flux_drift_m_per_s", "bulk_drift_m_per_s")


def air_phase_time(field_td):
    return 1e-10 / field_td


def air_run(field_td, seed):
    """One `schedbench run --sim air` in N2: its averages over the relaxed phases."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "run.json"
        subprocess.run([str(SCHEDBENCH), "run", "--sim", "air", "--scheduler", "cpu-openmp",
                        "--gas", "N2:1", "--reduced-field", str(field_td),
                        "--init-n", str(AIR_RUN["init_n"]), "--phases", str(AIR_RUN["phases"]),
                        "--phase-time", repr(air_phase_time(field_td)),
                        "--average-from", str(AIR_RUN["average_from"]), "--max-energy", "1000",
                        "--extrapolate", "constant", "--seed", str(seed), "--json", str(out)],
                       check=True, stdout=subprocess.DEVNULL)
        averages = json.loads(out.read_text())["result"]["averages"]
    return {q: averages[q]["mean"] for q in COMPARED}


def pymethes_row(field_td, electrons, args, pool):
    futures = [pool.submit(pymethes_run, CROSS_SECTIONS, "N2", field_td, electrons,
                           args.collisions_per_electron * electrons, seed + 1,
                           args.trial_frequency, 1000.0, args.relaxed_from, args.trial_factor)
               for seed in range(args.seeds)]
    runs = [f.result() for f in futures]
    summary = {q: combine([r[q][0] for r in runs])
               for q in ("mean_energy_eV", "flux_drift_m_per_s")}
    for q in ("bulk_drift_fit_m_per_s", "bulk_drift_span_m_per_s"):
        summary[q] = combine([r[q] for r in runs])
    row = {"electrons": electrons, "trial_frequency": args.trial_frequency, "seeds": args.seeds,
           "collisions_per_electron": args.collisions_per_electron, "runs": runs,
           "summary": summary}
    if args.relaxed_from is not None:
        row["relaxed_from"] = args.relaxed_from
    if args.trial_factor != 1.0:
        row["trial_factor"] = args.trial_factor
    return row


def variant(row):
    """What tells one pyMETHES row of a field from another: a new run of it replaces the old."""
    return (row["electrons"], row["trial_frequency"], row.get("relaxed_from"),
            row.get("trial_factor", 1.0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fields", type=float, nargs="+", default=[100.0, 400.0, 800.0],
                        help="E/N values, Td")
    parser.add_argument("--seeds", type=int, default=4, help="pyMETHES runs per field and size")
    parser.add_argument("--electrons", type=int, nargs="+", default=[2000],
                        help="pyMETHES's swarm sizes (it holds the size constant)")
    parser.add_argument("--collisions-per-electron", type=float, default=1e4,
                        help="real collisions per electron of a pyMETHES run")
    parser.add_argument("--trial-frequency", choices=("pymethes", "fixed"), default="pymethes",
                        help="pyMETHES's own trial frequency, new at each step (default), or "
                             "one for the whole run")
    parser.add_argument("--trial-factor", type=float, default=1.0,
                        help="with --trial-frequency fixed: that frequency times this (>= 1; "
                             "shorter steps, which all of pyMETHES's electrons share)")
    parser.add_argument("--relaxed-from", type=float, default=None,
                        help="start every average at this fraction of the run where it is later "
                             "than pyMETHES's own start (default: pyMETHES's own)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(),
                        help="pyMETHES runs at once (default: the cores)")
    parser.add_argument("--air-only", action="store_true",
                        help="run sim air's seeds of the fields again (after a change to sim "
                             "air) and replace its values in --out; no pyMETHES run")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    if not args.trial_factor >= 1.0 or (args.trial_factor != 1.0 and
                                         args.trial_frequency != "fixed"):
        usage_error("pymethes_n2", f"--trial-factor {args.trial_factor:g}: accepted: 1 or more, "
                    "and above 1 only with --trial-frequency fixed")
    if not SCHEDBENCH.exists():
        sys.exit(f"pymethes_n2: {SCHEDBENCH} not found: build first (make build)")
    results = load_results(args.out)
    # What the rows without their own "seeds" and "collisions_per_electron" were run with.
    results.setdefault("pymethes", {"version": "0.2.0", "seeds": args.seeds,
                                    "collisions_per_electron": args.collisions_per_electron})
    pool = concurrent.futures.ProcessPoolExecutor(args.jobs)
    for field in args.fields:
        row = next((r for r in results["fields"] if r["field_Td"] == field), None)
        if row is None:
            row = {"field_Td": field, "pymethes": []}
            results["fields"] = sorted(results["fields"] + [row], key=lambda r: r["field_Td"])
        if "air" not in row or args.air_only:
            air = [air_run(field, seed + 1) for seed in range(AIR_RUN["seeds"])]
            row["air"] = {q: combine([a[q] for a in air]) for q in COMPARED}
            write_atomically(args.out, results)
        a = row["air"]
        print(f"{field:g} Td, sim air: mean energy {show(a['mean_energy_eV'])} eV, flux drift "
              f"{show(a['flux_drift_m_per_s'])} m/s, bulk drift {show(a['bulk_drift_m_per_s'])}")
        for n in [] if args.air_only else args.electrons:
            p = pymethes_row(field, n, args, pool)
            row["pymethes"] = sorted(
                [q for q in row["pymethes"] if variant(q) != variant(p)] + [p],
                key=lambda q: (q["trial_frequency"] != "pymethes", q.get("trial_factor", 1.0),
                               q.get("relaxed_from") or 0, q["electrons"]))
            m = p["summary"]
            factor = f" × {args.trial_factor:g}" if args.trial_factor != 1.0 else ""
            print(f"  pyMETHES ({args.trial_frequency} trial frequency{factor}), {n} electrons: "
                  f"mean energy {show(m['mean_energy_eV'])}, flux drift "
                  f"{show(m['flux_drift_m_per_s'])}, bulk drift (its fit) "
                  f"{show(m['bulk_drift_fit_m_per_s'])}, (span) "
                  f"{show(m['bulk_drift_span_m_per_s'])}", flush=True)
            write_atomically(args.out, results)


def load_results(path):
    """The results file so far, so that a later call adds fields and swarm sizes to it (and one
    interrupted keeps what finished); a new one if there is none."""
    if path.exists():
        results = json.loads(path.read_text())
        if results.get("schema") != SCHEMA or results.get("air_run") != AIR_RUN:
            usage_error("pymethes_n2", f"--out {path} holds other runs (schema or sim air's runs "
                        "differ); accepted: a file of these runs, or a new one")
        return results
    return {"schema": SCHEMA, "cross_sections": "data/lxcat-siglo.txt", "gas": "N2",
            "air_run": AIR_RUN, "fields": []}

if __name__ == "__main__":
    main()
