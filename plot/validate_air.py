"""sim air against bolos: N2 at 100, 200, 400 and 800 Td, N2 at 100 Td without its vibrational
excitations, and the critical field of N2:0.8,O2:0.2, each as
`schedbench run --sim air --scheduler cpu-openmp` (about a minute on two cores;
plot/test_air_bolos.py asserts the same runs). Writes the results as JSON
(plot/plot_air_validation.py draws them) and prints the table of docs/physics.md.

    .venv/bin/python plot/validate_air.py --out results/air-validation/bolos.json
"""

import argparse
import pathlib
import sys
import tempfile

import air_bolos as ab
from swarm_benchmarks import write_atomically

# Per field: (initial electrons, phases, phase time s, phases skipped while the energy relaxes,
# --max-energy eV). The growth at 400 and 800 Td bounds the time; the rare ionizations at 100
# and 200 Td need electron-seconds.
N2_RUNS = {
    100: (5000, 60, 5e-12, 20, 60),
    200: (10000, 50, 5e-12, 15, 100),
    400: (4000, 30, 2e-12, 10, 200),
    800: (500, 22, 2e-12, 10, 400),
}
# The critical field of air: fields around bolos's, each (initial electrons, phases, phase time,
# skipped); the net rate's zero from a quadratic through them.
AIR_FIELDS = (105, 115, 125, 135)
AIR_RUN = (20000, 30, 5e-12, 5, 60)


# N2 at 100 Td with the vibrational excitations taken out of the file, on both sides.
NO_VIBRATIONS_TD = 100


def n2_row(td, settings, processes, cross_sections=None):
    init_n, phases, phase_time, skip, top = settings
    ours = ab.estimate(ab.run_air({"N2": 1.0}, td, init_n, phases, phase_time, top,
                                  cross_sections), init_n, phase_time, skip)
    return {"reduced_field_Td": td, "bolos": ab.bolos_point({"N2": 1.0}, td, processes),
            "air": {k: list(v) if isinstance(v, tuple) else v for k, v in ours.items()},
            "run": dict(zip(("init_n", "phases", "phase_time", "skip", "max_energy"),
                            settings))}


def critical_field(fields, settings, processes):
    init_n, phases, phase_time, skip, top = settings
    nets = [ab.net_rate(ab.run_air(ab.AIR, td, init_n, phases, phase_time, top), init_n,
                        phase_time, skip) for td in fields]
    return {"air_Td": ab.root(fields, [n for n, _ in nets]),
            "bolos_Td": ab.bolos_critical_field(ab.AIR, processes=processes),
            "fields_Td": list(fields), "net_rate_per_s": [list(n) for n in nets],
            "run": dict(zip(("init_n", "phases", "phase_time", "skip", "max_energy"),
                            settings))}


def table(rows, critical):
    """docs/physics.md's table: ours ± standard error, bolos, and the difference."""
    names = (("mean energy (eV)", "mean_energy_eV", "mean_energy_eV", 1.0, "{:.3f}"),
             ("flux drift (10^5 m/s)", "flux_drift_m_per_s", "flux_drift_m_per_s", 1e-5,
              "{:.4f}"),
             ("alpha/N over bulk drift (10^-22 m^2)", "alpha_N_m2", "alpha_N_m2", 1e22, "{:.4g}"),
             ("alpha/N over flux drift (10^-22 m^2)", "alpha_N_flux_m2", "alpha_N_m2", 1e22,
              "{:.4g}"))
    lines = ["| E/N (Td) | quantity | air ± error | bolos | difference |",
             "| ---: | --- | ---: | ---: | ---: |"]
    for row in rows:
        for label, key, bolos_key, scale, form in names:
            if row.get("without_vibrations") and key not in ("mean_energy_eV",
                                                             "flux_drift_m_per_s"):
                continue
            value, error = row["air"][key]
            reference = row["bolos"][bolos_key]
            field = f"{row['reduced_field_Td']}" + (" (no N2 vib.)"
                                                    if row.get("without_vibrations") else "")
            lines.append(f"| {field} | {label} | "
                         f"{form.format(value * scale)} ± {form.format(error * scale)} | "
                         f"{form.format(reference * scale)} | "
                         f"{100 * (value / reference - 1):+.1f} % |")
    lines.append(f"| air | critical field (Td) | {critical['air_Td']:.1f} | "
                 f"{critical['bolos_Td']:.1f} | "
                 f"{critical['air_Td'] - critical['bolos_Td']:+.1f} Td |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, required=True, help="results JSON to write")
    args = parser.parse_args()
    if not ab.SCHEDBENCH.exists():
        sys.exit(f"validate_air: {ab.SCHEDBENCH} not found; build first (make build)")
    processes = ab.load_processes()
    rows = [n2_row(td, settings, processes) for td, settings in N2_RUNS.items()]
    with tempfile.TemporaryDirectory() as tmp:
        plain = pathlib.Path(tmp) / "no-vibrations.txt"
        ab.without_vibrations(plain)
        row = n2_row(NO_VIBRATIONS_TD, N2_RUNS[NO_VIBRATIONS_TD], ab.load_processes(plain),
                     plain)
    rows.append(dict(row, without_vibrations=True))
    critical = critical_field(AIR_FIELDS, AIR_RUN, processes)
    write_atomically(args.out, {"schema": "schedbench.air-validation/1", "n2": rows,
                                "critical_field": critical})
    print(table(rows, critical))


if __name__ == "__main__":
    main()
