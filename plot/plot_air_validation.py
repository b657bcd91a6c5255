"""docs/air-validation.png from plot/validate_air.py's results only: sim air (points with
standard errors) against bolos (line) in N2, four panels against E/N: mean energy, flux drift
velocity, alpha/N, and the difference from bolos in per cent.

    .venv/bin/python plot/plot_air_validation.py results/air-validation/bolos.json \
        --out docs/air-validation.png
"""

import argparse
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = (("mean_energy_eV", "mean energy (eV)", 1.0, "linear"),
          ("flux_drift_m_per_s", "flux drift velocity (10^5 m/s)", 1e-5, "linear"),
          ("alpha_N_m2", "alpha/N (m^2)", 1.0, "log"))


def draw(results, out):
    rows = [r for r in results["n2"] if not r.get("without_vibrations")]
    fields = [r["reduced_field_Td"] for r in rows]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5), constrained_layout=True)
    for ax, (key, label, scale, yscale) in zip(axes.flat, PANELS):
        ax.plot(fields, [r["bolos"][key] * scale for r in rows], "k-", label="bolos (two-term)")
        ax.errorbar(fields, [r["air"][key][0] * scale for r in rows],
                    yerr=[r["air"][key][1] * scale for r in rows], fmt="o", color="tab:blue",
                    capsize=3, label="sim air (cpu-openmp)")
        ax.set(xlabel="E/N (Td)", ylabel=label, xscale="log", yscale=yscale)
        ax.legend()
    ax = axes.flat[3]
    for (key, label, _, _), marker in zip(PANELS, "os^"):
        difference = [100 * (r["air"][key][0] / r["bolos"][key] - 1) for r in rows]
        error = [100 * r["air"][key][1] / r["bolos"][key] for r in rows]
        ax.errorbar(fields, difference, yerr=error, fmt=marker, capsize=3, label=label)
    ax.axhline(0, color="k", lw=0.8)
    critical = results["critical_field"]
    ax.set(xlabel="E/N (Td)", ylabel="sim air − bolos (%)", xscale="log",
           title=f"air critical field: sim {critical['air_Td']:.1f} Td, "
                 f"bolos {critical['bolos_Td']:.1f} Td")
    ax.legend(fontsize="small")
    fig.suptitle("sim air against bolos, N2, 300 K, 1 bar, data/lxcat-siglo.txt")
    fig.savefig(out, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=pathlib.Path, help="plot/validate_air.py's JSON")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="PNG to write")
    args = parser.parse_args()
    draw(json.loads(args.results.read_text()), args.out)


if __name__ == "__main__":
    main()
