"""docs/swarm-benchmarks.png from plot/swarm_benchmarks.py's results only: per quantity, sim air
(points with one standard error) against each reference code or formula (other markers), every
value divided by the mean of the case's references, so that cases of different magnitudes share
an axis; the band is the tolerance plot/test_swarm_benchmarks.py applies (0.5 % for mean energy
and drift, 2 % for diffusion and rate coefficients). Quantities a run does not compare (too
short for them, data/swarm/benchmarks.json says why) are left out.

    .venv/bin/python plot/fig_swarm_benchmarks.py results/swarm-benchmarks/ci.json \\
        --out docs/swarm-benchmarks.png
"""

import argparse
import json
import math
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Panel titles, in this order; tolerance bands as fractions.
PANELS = (
    ("mean_energy_eV", "mean energy", 0.005),
    ("flux_drift_m_per_s", "flux drift velocity", 0.005),
    ("bulk_drift_m_per_s", "bulk drift velocity", 0.005),
    ("flux_ND_L_per_m_s", "flux N D_L", 0.02),
    ("flux_ND_T_per_m_s", "flux N D_T", 0.02),
    ("bulk_ND_L_per_m_s", "bulk N D_L", 0.02),
    ("bulk_ND_T_per_m_s", "bulk N D_T", 0.02),
    ("ionization_rate_coefficient_m3_per_s", "ionization rate coefficient", 0.02),
    ("attachment_rate_coefficient_m3_per_s", "attachment rate coefficient", 0.02),
    ("alpha_N_m2", "alpha/N", 0.02),
    ("eta_N_m2", "eta/N", 0.02),
)
SOURCE_STYLES = (("D", "tab:gray"), ("s", "tab:orange"), ("^", "tab:green"), ("v", "tab:red"),
                 ("<", "tab:purple"), (">", "tab:brown"), ("p", "tab:pink"), ("h", "tab:olive"))


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def panel_rows(results, quantity):
    """Per case with a compared reference of `quantity`: (case name, ours, our error, mean of the
    references, [(source, value, error)])."""
    rows = []
    for case in results["cases"]:
        refs = [c for c in case["comparisons"] if c["quantity"] == quantity and c["compared"]
                and finite(c["reference"])]
        if not refs:
            continue
        mean = sum(c["reference"] for c in refs) / len(refs)
        ours = case["ours"].get(quantity, {})
        rows.append((case["name"], ours.get("mean"), ours.get("error"), mean,
                     [(c["source"], c["reference"], c.get("reference_error") or 0.0)
                      for c in refs]))
    return rows


def draw(results, out):
    panels = [(q, title, band, panel_rows(results, q)) for q, title, band in PANELS]
    panels = [p for p in panels if p[3]]
    if not panels:
        raise SystemExit("fig_swarm_benchmarks: the results compare no reference value")
    sources = sorted({s for *_, rows in panels for row in rows for s, _, _ in row[4]})
    style = {s: SOURCE_STYLES[k % len(SOURCE_STYLES)] for k, s in enumerate(sources)}
    cols = min(3, len(panels))
    nrows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 3.6 * nrows), squeeze=False,
                             constrained_layout=True)
    for ax, (q, title, band, rows) in zip(axes.flat, panels):
        x = range(len(rows))
        ax.axhspan(1 - band, 1 + band, color="0.9", label=f"±{100 * band:g} %")
        ax.axhline(1, color="k", lw=0.8)
        for k, (name, ours, error, mean, refs) in enumerate(rows):
            for j, (source, value, ref_error) in enumerate(refs):
                fmt, color = style[source]
                ax.errorbar(k + 0.1 + 0.12 * j, value / mean, yerr=ref_error / abs(mean) or None,
                            fmt=fmt, color=color, capsize=2, ms=5, label=source)
            if finite(ours):
                ax.errorbar(k - 0.15, ours / mean,
                            yerr=error / abs(mean) if finite(error) else None, fmt="o",
                            color="tab:blue", capsize=3, label="sim air")
        ax.set_xticks(list(x), [r[0] for r in rows], rotation=30, ha="right", fontsize="small")
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.set(title=title, ylabel="value / reference")
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys(), fontsize="x-small")
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(f"sim air on the electron-swarm benchmark gases: size {results['size']}, "
                 f"{results['scheduler']}")
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=pathlib.Path, help="plot/swarm_benchmarks.py's JSON")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "swarm-benchmarks.png",
                        help="PNG to write (default docs/swarm-benchmarks.png)")
    args = parser.parse_args()
    draw(json.loads(args.results.read_text()), args.out)


if __name__ == "__main__":
    main()
