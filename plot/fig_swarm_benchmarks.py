"""docs/swarm-benchmarks.png from plot/swarm_benchmarks.py's results only: per quantity, sim air
(points with one standard error) against every reference code or formula (other markers, with
their errors; hollow where data/swarm/benchmarks.json marks the value the odd one among the
codes), every value divided by the mean of the case's references not so marked, so that cases of
different magnitudes share an axis (the results are compared again with the references
benchmarks.json holds now: swarm_benchmarks.recompare); the band is the 0.5 % of that mean that
plot/test_swarm_benchmarks.py asserts where the codes agree that well. Quantities a run does not
compare (too short for them, data/swarm/benchmarks.json says why) are left out.

    .venv/bin/python plot/fig_swarm_benchmarks.py results/swarm-benchmarks/full.json \\
        --out docs/swarm-benchmarks.png
"""

import argparse
import json
import math
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import swarm_benchmarks as sb  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Panel titles, in this order.
PANELS = (
    ("mean_energy_eV", "mean energy"),
    ("flux_drift_m_per_s", "flux drift velocity"),
    ("bulk_drift_m_per_s", "bulk drift velocity"),
    ("flux_ND_L_per_m_s", "flux N D_L"),
    ("flux_ND_T_per_m_s", "flux N D_T"),
    ("bulk_ND_L_per_m_s", "bulk N D_L"),
    ("bulk_ND_T_per_m_s", "bulk N D_T"),
    ("effective_rate_coefficient_m3_per_s", "effective ionization rate coefficient"),
    ("ionization_rate_coefficient_m3_per_s", "ionization rate coefficient"),
    ("attachment_rate_coefficient_m3_per_s", "attachment rate coefficient"),
    ("alpha_N_m2", "alpha/N"),
    ("eta_N_m2", "eta/N"),
)
BAND = 0.005
CODE_STYLES = (("D", "tab:gray"), ("s", "tab:orange"), ("^", "tab:green"), ("v", "tab:red"),
               ("<", "tab:purple"), (">", "tab:brown"), ("p", "tab:pink"), ("h", "tab:olive"),
               ("*", "tab:cyan"), ("X", "black"), ("P", "darkgoldenrod"))


def panel_rows(results, quantity):
    """Per case with a compared reference of `quantity`: (case name, ours, our error, mean of the
    references not marked outliers, [(code, value, error, outlier)])."""
    rows = []
    for case in results["cases"]:
        refs = [c for c in case["comparisons"] if c["quantity"] == quantity and c["compared"]
                and sb.finite(c["reference"])]
        agreeing = [c["reference"] for c in refs if not c["outlier"]]
        if not agreeing or sum(agreeing) == 0:
            continue
        mean = sum(agreeing) / len(agreeing)
        ours = case["ours"].get(quantity, {})
        rows.append((case["name"], ours.get("mean"), ours.get("error"), mean,
                     [(c["code"], c["reference"], c.get("reference_error") or 0.0, c["outlier"])
                      for c in refs]))
    return rows


def draw(results, out):
    panels = [(q, title, panel_rows(results, q)) for q, title in PANELS]
    panels = [p for p in panels if p[2]]
    if not panels:
        raise SystemExit("fig_swarm_benchmarks: the results compare no reference value")
    codes = sorted({code for *_, rows in panels for row in rows for code, *_ in row[4]})
    style = {code: CODE_STYLES[k % len(CODE_STYLES)] for k, code in enumerate(codes)}
    cols = min(2, len(panels))
    nrows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(8 * cols, 3.8 * nrows), squeeze=False,
                             constrained_layout=True)
    for ax, (q, title, rows) in zip(axes.flat, panels):
        ax.axhspan(1 - BAND, 1 + BAND, color="0.9", label=f"±{100 * BAND:g} %")
        ax.axhline(1, color="k", lw=0.8)
        for k, (name, ours, error, mean, refs) in enumerate(rows):
            for j, (code, value, ref_error, outlier) in enumerate(refs):
                fmt, color = style[code]
                ax.errorbar(k - 0.15 + 0.09 * j, value / mean,
                            yerr=ref_error / abs(mean) or None, fmt=fmt, color=color,
                            mfc="none" if outlier else color, capsize=2, ms=7 if outlier else 5,
                            label=code)
            if sb.finite(ours):
                ax.errorbar(k - 0.3, ours / mean,
                            yerr=error / abs(mean) if sb.finite(error) else None, fmt="o",
                            color="tab:blue", capsize=3, label="sim air")
        ax.set_xticks(range(len(rows)), [r[0] for r in rows], rotation=30, ha="right",
                      fontsize="small")
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.set(title=title, ylabel="value / codes' mean")
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys(), fontsize="x-small", ncol=2)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(f"sim air on the electron-swarm benchmark gases: size {results['size']}, "
                 f"{results['scheduler']} (hollow: a published value the odd one among the "
                 "codes)")
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=pathlib.Path, help="plot/swarm_benchmarks.py's JSON")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "swarm-benchmarks.png",
                        help="PNG to write (default docs/swarm-benchmarks.png)")
    args = parser.parse_args()
    draw(sb.recompare(json.loads(args.results.read_text()), sb.load_benchmarks()), args.out)


if __name__ == "__main__":
    main()
