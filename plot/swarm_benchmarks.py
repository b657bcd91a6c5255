"""sim air on the electron-swarm benchmark model gases of data/swarm/ (their definitions and
sources: data/swarm/README.md), against the values data/swarm/benchmarks.json records for each
case: runs every case as `schedbench run --sim air ... --json`, takes the run's averages over
its relaxed phases (`result.averages`, one standard error each) and compares them with each
reference value, in per cent and in combined standard errors. Writes the results as JSON
(plot/fig_swarm_benchmarks.py draws them, plot/swarm_doc_tables.py writes docs/physics.md's
tables from them; plot/test_swarm_benchmarks.py asserts the `ci` size)
and prints the comparison.

    .venv/bin/python plot/swarm_benchmarks.py --size ci
    .venv/bin/python plot/swarm_benchmarks.py --size full --scheduler dynamic-warp \\
        --out results/swarm-benchmarks/full.json
"""

import argparse
import decimal
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEDBENCH = ROOT / "build" / "bin" / "schedbench"
BENCHMARKS = ROOT / "data" / "swarm" / "benchmarks.json"
SCHEMA = "schedbench.swarm-benchmarks-results/1"

# The observables compared, as the run's JSON names them (effective_rate_coefficient_m3_per_s is
# derived from two of them: effective_rate), with their units.
QUANTITIES = {
    "mean_energy_eV": "eV",
    "flux_drift_m_per_s": "m/s",
    "bulk_drift_m_per_s": "m/s",
    "flux_ND_L_per_m_s": "1/(m s)",
    "flux_ND_T_per_m_s": "1/(m s)",
    "bulk_ND_L_per_m_s": "1/(m s)",
    "bulk_ND_T_per_m_s": "1/(m s)",
    "ionization_rate_coefficient_m3_per_s": "m^3/s",
    "attachment_rate_coefficient_m3_per_s": "m^3/s",
    "effective_rate_coefficient_m3_per_s": "m^3/s",
    "effective_ionization_frequency_per_s": "1/s",
    "alpha_N_m2": "m^2",
    "eta_N_m2": "m^2",
}

# A published value this many of its errors from the mean of the other codes' values is the odd
# one among them (data/swarm/README.md, "Published values").
ODD_ONE_ERRORS = 3

# CODATA 2018 (sims/air/constants.hpp uses the same).
ELEMENTARY_CHARGE = 1.602176634e-19  # C
ELECTRON_MASS = 9.1093837015e-31  # kg
BOLTZMANN = 1.380649e-23  # J/K
TOWNSEND = 1e-21  # V m^2
ANGSTROM2 = 1e-20  # m^2


def maxwell_transport(sigma0_a2, mass_ratio, reduced_field_td, temperature_k=0.0):
    """The exact steady-state transport of electrons in a Maxwell model gas: elastic cross
    section sigma0 eps^-1/2 Angstrom^2 (eps in eV), isotropic in the centre-of-mass frame, so a
    collision frequency nu = N kappa with kappa = sigma0 sqrt(2 e / m) at every speed; molecules
    of mass M = m / mass_ratio, at rest (temperature_k = 0) or Maxwellian at temperature_k. The
    moment equations close (data/swarm/README.md derives these):

        W    = (E/N) e (1 + r) / (m kappa)                        flux = bulk drift
        eps  = 3/2 k T + 1/2 (M + m) W^2                          (Wannier 1953)
        N D_T = (1 + r) / kappa [k T / m + (1 + r) W^2 / (3 r (1 + 2 r))]
        N D_L = (1 + r) / kappa [k T / m + (1 + 4 r) W^2 / (3 r (1 + 2 r))]

    with r = m / M; flux and bulk coefficients are equal (no reactions, or reactions at a
    constant frequency). Returns the values in the run's units (eV, m/s, 1/(m s))."""
    r = mass_ratio
    kappa = sigma0_a2 * ANGSTROM2 * math.sqrt(2 * ELEMENTARY_CHARGE / ELECTRON_MASS)
    w = reduced_field_td * TOWNSEND * ELEMENTARY_CHARGE * (1 + r) / (ELECTRON_MASS * kappa)
    molecule = ELECTRON_MASS / r
    thermal = BOLTZMANN * temperature_k
    energy = (1.5 * thermal + 0.5 * (molecule + ELECTRON_MASS) * w * w) / ELEMENTARY_CHARGE
    spread = (1 + r) * w * w / (3 * r * (1 + 2 * r))
    nd_t = (1 + r) / kappa * (thermal / ELECTRON_MASS + spread)
    nd_l = (1 + r) / kappa * (thermal / ELECTRON_MASS + spread * (1 + 4 * r) / (1 + r))
    return {"mean_energy_eV": energy, "flux_drift_m_per_s": w, "bulk_drift_m_per_s": w,
            "flux_ND_L_per_m_s": nd_l, "flux_ND_T_per_m_s": nd_t,
            "bulk_ND_L_per_m_s": nd_l, "bulk_ND_T_per_m_s": nd_t}


def constant_frequency_rate(coefficient_a2):
    """The rate coefficient (m^3/s) of a process of cross section a eps^-1/2 Angstrom^2: a
    sqrt(2 e / m), whatever the electrons' distribution."""
    return coefficient_a2 * ANGSTROM2 * math.sqrt(2 * ELEMENTARY_CHARGE / ELECTRON_MASS)


def printed_half_unit(ref):
    """Half a unit of the last digit a published value is printed with, in the value's unit: the
    rounding of the printed number, the least error it can have."""
    exponent = decimal.Decimal(ref["printed"].lstrip("-")).as_tuple().exponent
    return 0.5 * 10.0 ** exponent * abs(ref["printed_scale"])


def printed_error(ref):
    """A published value's own error: the standard deviation its code prints (none: 0)."""
    return abs(ref["value"]) * ref.get("printed_sigma_percent", 0.0) / 100


def odd_one_errors(ref, others):
    """How far a published value lies from the mean of the other codes' values of the same case
    and quantity, in errors: its printed error combined with the others', the largest of their
    spread (sample standard deviation), their own errors and half a unit of the last digit."""
    values = [r["value"] for r in others]
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    error = max([spread, printed_half_unit(ref)]
                + [max(printed_error(r), printed_half_unit(r)) for r in others])
    return abs(ref["value"] - statistics.mean(values)) / math.hypot(printed_error(ref), error)


def mark_published(refs):
    """Sets the error, its origin and the odd-one marking of one case's published values of one
    quantity (data/swarm/README.md, "Published values"), in place: a value more than
    ODD_ONE_ERRORS errors from the mean of at least two other codes' is marked an outlier; the
    error is the printed standard deviation where the code prints one, else the spread of the
    codes not marked (sample standard deviation), at least half a unit of the last digit
    (error_from: printed, spread or rounding)."""
    for k, ref in enumerate(refs):
        ref.pop("outlier", None)
        others = refs[:k] + refs[k + 1:]
        if len(others) >= 2:
            errors = odd_one_errors(ref, others)
            if errors > ODD_ONE_ERRORS:
                off = ref["value"] / statistics.mean(r["value"] for r in others) - 1
                ref["outlier"] = {"from_others_mean_percent": round(100 * off, 2),
                                  "in_errors": round(errors, 1)}
    agreeing = [r["value"] for r in refs if "outlier" not in r]
    spread = statistics.stdev(agreeing) if len(agreeing) > 1 else 0.0
    for ref in refs:
        own = printed_error(ref) if "printed_sigma_percent" in ref else spread
        ref["error"] = max(own, printed_half_unit(ref))
        ref["error_from"] = ("rounding" if own < printed_half_unit(ref) else
                             "printed" if "printed_sigma_percent" in ref else "spread")


def load_benchmarks(path=BENCHMARKS):
    return json.loads(pathlib.Path(path).read_text())


def run_command(case, size, scheduler, schedbench, out):
    """The `schedbench run` command line of `case` at run size `size` (a dict of
    benchmarks.json), writing its JSON to `out`."""
    return ([str(schedbench), "run", "--sim", "air", "--scheduler", scheduler,
             "--cross-section", str(ROOT / case["gas_file"]), "--gas", case["gas"],
             "--reduced-field", repr(float(case["reduced_field_Td"])),
             "--init-n", str(size["init_n"]), "--phases", str(size["phases"]),
             "--phase-time", repr(float(size["phase_time_s"])),
             "--average-from", str(size["average_from"]),
             "--seed", str(size.get("seed", 1)),
             "--json", str(out), "--overwrite"]
            + [str(o) for o in case.get("options", [])])


def run_json(case, size, scheduler, schedbench):
    """Runs `case` at `size` (a run size of benchmarks.json): the run's JSON, the command and its
    wall time; RuntimeError, with the command and its error, where schedbench fails."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "run.json"
        command = run_command(case, size, scheduler, schedbench, out)
        start = time.monotonic()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        wall = time.monotonic() - start
        if done.returncode != 0:
            raise RuntimeError(f"{case['name']}: schedbench run failed ({done.returncode}):\n"
                               f"{' '.join(command)}\n{done.stderr.strip()}")
        return json.loads(out.read_text()), command, wall


def run_case(case, size_name, scheduler, schedbench):
    """Runs `case` at `size_name`: our averages {quantity: {mean, error, phases}}, the command,
    its wall time and the run's environment (build, host, device)."""
    run, command, wall = run_json(case, case["sizes"][size_name], scheduler, schedbench)
    result = run["result"]
    averages = result.get("averages")
    if not isinstance(averages, dict):
        raise RuntimeError(f"{case['name']}: the run's JSON has no result.averages (a schedbench "
                           "without per-phase averages?)")
    ours = {name: {"mean": a["mean"], "error": a["error"], "phases": a["phases"]}
            for name, a in averages.items() if isinstance(a, dict) and name in QUANTITIES}
    ours.update(effective_rate(ours))
    return ours, command, wall, run.get("environment", {})


def effective_rate(ours):
    """nu_eff / N, the ionization minus the attachment rate coefficient, as the published tables
    give it; its error from the two errors as if independent (exact where the gas has only one
    of the two processes, as every case here)."""
    ion = ours.get("ionization_rate_coefficient_m3_per_s")
    att = ours.get("attachment_rate_coefficient_m3_per_s")
    if not ion or not att:
        return {}
    return {"effective_rate_coefficient_m3_per_s": {
        "mean": ion["mean"] - att["mean"], "error": math.hypot(ion["error"], att["error"]),
        "phases": min(ion["phases"], att["phases"])}}


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def compare(ours, references, compared=None):
    """One comparison per reference value: ours against it, in per cent and in combined
    standard errors. `compared` lists the quantities this run size compares (None: all); the
    others are recorded with "compared": false (a run too short for them, benchmarks.json
    says why)."""
    rows = []
    for ref in references:
        q = ref["quantity"]
        mine = ours.get(q, {})
        value, error = mine.get("mean"), mine.get("error")
        ref_error = ref.get("error") or 0.0
        row = {"quantity": q, "source": ref["source"], "code": ref.get("code", ref["source"]),
               "reference": ref["value"], "reference_error": ref_error,
               "unit": ref.get("unit", QUANTITIES[q]), "ours": value, "ours_error": error,
               "compared": compared is None or q in compared, "outlier": "outlier" in ref}
        if finite(value) and finite(ref["value"]):
            combined = math.hypot(error if finite(error) else 0.0, ref_error)
            if ref["value"] != 0:
                row["difference_percent"] = 100 * (value / ref["value"] - 1)
            row["combined_error"] = combined
            row["difference_sigma"] = (value - ref["value"]) / combined if combined > 0 else None
        rows.append(row)
    return rows


def case_result(case, size_name, scheduler, schedbench):
    ours, command, wall, environment = run_case(case, size_name, scheduler, schedbench)
    size = case["sizes"][size_name]
    return {"name": case["name"], "gas": case["gas"], "gas_file": case["gas_file"],
            "reduced_field_Td": case["reduced_field_Td"], "size": size, "command": command,
            "wall_s": wall, "environment": environment, "ours": ours,
            "comparisons": compare(ours, case.get("references", []), size.get("compare"))}


def recompare(results, benchmarks):
    """`results` (this script's JSON) compared again with the references `benchmarks` holds now:
    ours as the results file has them, each case's comparisons recomputed (at the run size it
    ran, its `compare` list), so that a results file of an earlier run meets references entered
    since. A case benchmarks.json no longer has, or one whose run failed, is left out."""
    cases = {c["name"]: c for c in benchmarks["cases"]}
    again = []
    for case in results["cases"]:
        if case["name"] not in cases or "error" in case:
            continue
        ours = dict(case["ours"])
        ours.update(effective_rate(ours))
        again.append(dict(case, ours=ours, comparisons=compare(
            ours, cases[case["name"]].get("references", []), case["size"].get("compare"))))
    return dict(results, sources=benchmarks.get("sources", {}), cases=again)


def usage_error(tool, message):
    """Bad input: one line on stderr naming it and what is accepted, and exit status 2."""
    print(f"{tool}: {message}", file=sys.stderr)
    sys.exit(2)


def write_text_atomically(path, text):
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as f:
        f.write(text)
    os.replace(f.name, path)


def write_atomically(path, data):
    write_text_atomically(path, json.dumps(data, indent=1))


def run_all(benchmarks, size_name, scheduler, schedbench, names=None, only_referenced=False,
            log=None, benchmarks_path=BENCHMARKS):
    """Every case (or those named), in the file's order; `only_referenced` leaves out cases
    without a reference value at this size."""
    cases = []
    for case in benchmarks["cases"]:
        if names and case["name"] not in names:
            continue
        if only_referenced and not any(r["compared"] for r in
                                       compare({}, case.get("references", []),
                                               case["sizes"][size_name].get("compare"))):
            continue
        if log:
            log(f"{case['name']}: running ({size_name}) ...")
        try:
            cases.append(case_result(case, size_name, scheduler, schedbench))
        except RuntimeError as e:  # recorded, and the other cases still run
            cases.append({"name": case["name"], "gas": case["gas"],
                          "reduced_field_Td": case["reduced_field_Td"],
                          "size": case["sizes"][size_name], "error": str(e), "ours": {},
                          "comparisons": []})
            if log:
                log(str(e))
            continue
        if log:
            log(f"{case['name']}: {cases[-1]['wall_s']:.1f} s")
    return {"schema": SCHEMA, "size": size_name, "scheduler": scheduler,
            "schedbench": str(schedbench), "benchmarks": str(benchmarks_path),
            "sources": benchmarks.get("sources", {}), "cases": cases}


def table(results):
    """Markdown: one row per comparison."""
    lines = ["| case | quantity | ours ± error | reference | code | difference | in errors |",
             "| --- | --- | ---: | ---: | --- | ---: | ---: |"]
    for case in results["cases"]:
        if "error" in case:
            lines.append(f"| {case['name']} | run failed | - | - | - | - | - |")
        for c in case["comparisons"]:
            if not finite(c["ours"]):
                ours = "-"
            else:
                ours = f"{c['ours']:.5g} ± {c['ours_error']:.2g}" if finite(c["ours_error"]) \
                    else f"{c['ours']:.5g}"
            diff = f"{c['difference_percent']:+.2f} %" if "difference_percent" in c else "-"
            sigma = f"{c['difference_sigma']:+.1f}" if c.get("difference_sigma") is not None \
                else "-"
            if not c["compared"]:
                diff, sigma = f"({diff})", "not compared"
            elif c["outlier"]:
                sigma += " (outlier)"
            lines.append(f"| {case['name']} | {c['quantity']} | {ours} | {c['reference']:.5g} | "
                         f"{c['code']} | {diff} | {sigma} |")
    return "\n".join(lines)


def add_run_arguments(parser):
    """--schedbench, --scheduler and --case (into `cases`), as the scripts that run cases take
    them."""
    parser.add_argument("--schedbench", type=pathlib.Path, default=SCHEDBENCH,
                        help=f"the schedbench binary (default {SCHEDBENCH.relative_to(ROOT)})")
    parser.add_argument("--scheduler", default="cpu-openmp", help="default cpu-openmp")
    parser.add_argument("--case", action="append", dest="cases", metavar="NAME",
                        help="run only this case (repeatable; default all)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_run_arguments(parser)
    parser.add_argument("--size", choices=("ci", "full"), default="ci",
                        help="run sizes of benchmarks.json: ci (each case well under a minute "
                             "on two cores) or full (for a GPU)")
    parser.add_argument("--benchmarks", type=pathlib.Path, default=BENCHMARKS,
                        help="the cases and reference values (default data/swarm/benchmarks.json)")
    parser.add_argument("--out", type=pathlib.Path,
                        help="results JSON to write (default results/swarm-benchmarks/SIZE.json)")
    args = parser.parse_args()
    benchmarks = load_benchmarks(args.benchmarks)
    known = {c["name"] for c in benchmarks["cases"]}
    unknown = sorted(set(args.cases or ()) - known)
    if unknown:
        usage_error("swarm_benchmarks", f"--case {', '.join(unknown)}: no such case; accepted: "
                    f"{', '.join(sorted(known))}")
    if not args.schedbench.exists():
        sys.exit(f"swarm_benchmarks: {args.schedbench} not found; build first (make build)")
    results = run_all(benchmarks, args.size, args.scheduler, args.schedbench, args.cases,
                      log=lambda m: print(m, file=sys.stderr, flush=True),
                      benchmarks_path=args.benchmarks)
    out = args.out or ROOT / "results" / "swarm-benchmarks" / f"{args.size}.json"
    write_atomically(out, results)
    print(table(results))
    print(f"wrote {out}")
    failed = [c["name"] for c in results["cases"] if "error" in c]
    if failed:
        sys.exit(f"swarm_benchmarks: failed: {', '.join(failed)} (their errors are in {out})")


if __name__ == "__main__":
    main()
