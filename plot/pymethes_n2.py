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

pyMETHES 0.2 needs pandas below 2 and cannot share .venv, so it has a venv of its own:

    python3 -m venv .venv-pymethes
    .venv-pymethes/bin/pip install pyMETHES==0.2.0 "pandas<2" "numpy<2"
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 400 100 --electrons 500 2000 \\
        --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 --electrons 8000 \\
        --out results/air-validation/pymethes.json
    .venv-pymethes/bin/python plot/pymethes_n2.py --fields 800 400 --electrons 2000 \\
        --trial-frequency fixed --out results/air-validation/pymethes.json

(about an hour on two cores in all; docs/physics.md, "The bulk drift at high E/N", reads them).
"""

import argparse
import concurrent.futures
import contextlib
import io
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile
import warnings

import numpy as np

from swarm_benchmarks import ROOT, SCHEDBENCH, write_atomically

CROSS_SECTIONS = ROOT / "data" / "lxcat-siglo.txt"
SCHEMA = "schedbench.pymethes-comparison/1"
BLOCKS = 8

# sim air's runs per field, one per seed: phases of about 0.1 ps at 1000 Td (a few tens of
# collision times, docs/physics.md "Averages and their errors"), 160 of them, averaged from the
# 40th on, which leaves the swarm a quarter of the run to relax (about 20 ps at 100 Td, 3 ps at
# 800 Td); the error of the mean from the seeds' scatter.
AIR_RUN = {"init_n": 3000, "phases": 160, "average_from": 40, "seeds": 12}
COMPARED = ("mean_energy_eV", "flux_drift_m_per_s", "bulk_drift_m_per_s")


def air_phase_time(field_td):
    return 1e-10 / field_td


def blocked(t, x, start):
    """Mean of x over t >= t[start] and its standard error from BLOCKS equal spans of time."""
    edges = np.linspace(t[start], t[-1], BLOCKS + 1)
    means = np.array([x[(t >= lo) & (t < hi)].mean() for lo, hi in zip(edges[:-1], edges[1:])])
    return float(means.mean()), float(means.std(ddof=1) / math.sqrt(BLOCKS))


def pymethes_run(field_td, electrons, collisions, seed, trial):
    """One pyMETHES run (isotropic scattering, equal energy sharing, the population held
    constant by random removal or duplication, as its defaults and sim air's conventions
    agree) and its reduced series. `trial` "pymethes" keeps its own trial frequency, chosen
    anew at each step; "fixed" gives it one for the whole run (see one_trial_frequency)."""
    from pyMETHES import Simulation

    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        # Its reading of the file warns of N2's mass ratio (1.95e-5 against its own 1.958e-5)
        # and of pandas deprecations: neither changes a result.
        warnings.simplefilter("ignore")
        sim = Simulation({
            "input_gases": {"paths_to_cross_section_files": [str(CROSS_SECTIONS)],
                            "gases": ["N2"], "fractions": [1.0],
                            "max_cross_section_energy": 1000.0},
            "output": {"output_directory": tmp + "/", "base_name": "n2",
                       "save_simulation_pickle": False, "save_temporal_evolution": False,
                       "save_swarm_parameters": False, "save_energy_distribution": False},
            "physical_conditions": {"EN": field_td, "pressure": 1e5, "temperature": 300},
            "initial_state": {"num_e_initial": electrons, "initial_pos_electrons": [0, 0, 0],
                              "initial_std_electrons": [0, 0, 0]},
            "simulation_settings": {"num_energy_bins": 100, "energy_sharing_factor": 0.5,
                                    "isotropic_scattering": True, "conserve": True,
                                    "num_e_max": electrons, "seed": seed},
            "end_conditions": {"end_condition_type": "num_col_max", "w_tol": 1e-9,
                               "DN_tol": 1e-9, "num_col_max": collisions},
        })
        if trial == "fixed":
            sim.mc.determine_timestep = one_trial_frequency(sim.mc)
        with contextlib.redirect_stdout(io.StringIO()):
            sim.run()
    ts = sim.output.time_series
    t, start = ts.time, ts.ind_equ
    z = ts.mean_position[:, 2]
    dts = np.diff(t)
    return {
        "seed": seed, "steps": int(t.size), "end_s": float(t[-1]), "relaxed_s": float(t[start]),
        "mean_energy_eV": blocked(t, ts.mean_energy, start),
        "flux_drift_m_per_s": blocked(t, ts.mean_velocity[:, 2], start),
        "bulk_drift_fit_m_per_s": float(sim.output.bulk.w[2]),
        "bulk_drift_span_m_per_s": float((z[-1] - z[start]) / (t[-1] - t[start])),
        "longest_step_s": float(dts.max()), "mean_step_s": float(dts.mean()),
    }


def one_trial_frequency(mc):
    """A replacement for pyMETHES's MonteCarlo.determine_timestep. pyMETHES picks each step's
    trial frequency from the fastest electron and the step's own random length, then tests the
    collisions that end the previous flight (drawn with the previous step's frequency) with
    it. The null-collision method is exact when a flight's end is tested with the frequency
    that drew it; one frequency for the whole run, the table's largest (padded by 1 %, as
    pyMETHES pads its own), makes that so."""

    def determine_timestep(max_velocity, max_acceleration):
        # The table of largest frequencies exists once the run has read the gas.
        mc.trial_coll_freq = 1.01 * float(np.max(mc.max_coll_freq.y))
        return -math.log(1.0 - np.random.random()) / mc.trial_coll_freq

    return determine_timestep


def combine(values):
    """Mean over seeds and its standard error from their scatter."""
    v = np.array(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size))


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
    futures = [pool.submit(pymethes_run, field_td, electrons,
                           args.collisions_per_electron * electrons, seed + 1,
                           args.trial_frequency)
               for seed in range(args.seeds)]
    runs = [f.result() for f in futures]
    summary = {q: combine([r[q][0] for r in runs])
               for q in ("mean_energy_eV", "flux_drift_m_per_s")}
    for q in ("bulk_drift_fit_m_per_s", "bulk_drift_span_m_per_s"):
        summary[q] = combine([r[q] for r in runs])
    return {"electrons": electrons, "trial_frequency": args.trial_frequency, "runs": runs,
            "summary": summary}


def show(value):
    return f"{value[0]:.5g} ± {value[1]:.2g}"


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
    parser.add_argument("--jobs", type=int, default=os.cpu_count(),
                        help="pyMETHES runs at once (default: the cores)")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    if not SCHEDBENCH.exists():
        sys.exit(f"pymethes_n2: {SCHEDBENCH} not found: build first (make build)")
    results = load_results(args.out)
    results["pymethes"] = {"version": "0.2.0", "seeds": args.seeds,
                           "collisions_per_electron": args.collisions_per_electron}
    pool = concurrent.futures.ProcessPoolExecutor(args.jobs)
    for field in args.fields:
        row = next((r for r in results["fields"] if r["field_Td"] == field), None)
        if row is None:
            air = [air_run(field, seed + 1) for seed in range(AIR_RUN["seeds"])]
            row = {"field_Td": field, "pymethes": [],
                   "air": {q: combine([a[q] for a in air]) for q in COMPARED}}
            results["fields"] = sorted(results["fields"] + [row], key=lambda r: r["field_Td"])
        a = row["air"]
        print(f"{field:g} Td, sim air: mean energy {show(a['mean_energy_eV'])} eV, flux drift "
              f"{show(a['flux_drift_m_per_s'])} m/s, bulk drift {show(a['bulk_drift_m_per_s'])}")
        for n in args.electrons:
            p = pymethes_row(field, n, args, pool)
            key = (n, args.trial_frequency)
            row["pymethes"] = sorted(
                [q for q in row["pymethes"] if (q["electrons"], q["trial_frequency"]) != key]
                + [p], key=lambda q: (q["trial_frequency"] != "pymethes", q["electrons"]))
            m = p["summary"]
            print(f"  pyMETHES ({args.trial_frequency} trial frequency), {n} electrons: mean "
                  f"energy {show(m['mean_energy_eV'])}, flux drift "
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
            sys.exit(f"pymethes_n2: {path} holds other runs (schema or sim air's runs differ); "
                     "give another --out")
        return results
    return {"schema": SCHEMA, "cross_sections": "data/lxcat-siglo.txt", "gas": "N2",
            "air_run": AIR_RUN, "fields": []}

if __name__ == "__main__":
    main()
