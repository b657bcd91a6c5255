"""A figure of sim ccp's densities against the Turner et al. (2013) reference: from the JSON of
`schedbench run --sim ccp --json` (its summary's profiles: the mean over the run's replicas, with
their standard error where it has several), the electron and ion densities at the nodes beside the
reference's mean and its population band (mean +- one population standard deviation,
data/turner/caseN_data.dat), with the run's X2 in the title where the mesh is a case's.

    .venv/bin/python plot/fig_ccp_profiles.py run.json --case 1 --out docs/ccp-case1.png

Bad input (a file that is not such a run, a case without its reference) is one line on stderr and
exit code 2.
"""

import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_reference(case):
    """x, then (mean, population sd) of the electrons and of the ions, per node."""
    path = ROOT / "data" / "turner" / f"case{case}_data.dat"
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            values = [float(v) for v in line.split()]
            if len(values) >= 7:
                rows.append(values)
    columns = list(zip(*rows))
    return columns[0], (columns[1], columns[3]), (columns[4], columns[6])


def read_run(path):
    """The run's summary (values, profiles), or ValueError naming what is missing."""
    try:
        doc = json.loads(pathlib.Path(path).read_text())
        summary = doc["result"]["summary"]
        return summary["values"], summary["profiles"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not the JSON of a ccp run with a summary ({e})") from None


def draw(values, profiles, case, out):
    x_ref, electrons, ions = read_reference(case)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for (mean, sd), colour, name in ((electrons, "tab:blue", "electrons"),
                                     (ions, "tab:red", "ions")):
        lo = [m - s for m, s in zip(mean, sd)]
        hi = [m + s for m, s in zip(mean, sd)]
        ax.fill_between(x_ref, lo, hi, color=colour, alpha=0.2, lw=0,
                        label=f"reference {name}, population band")
        ax.plot(x_ref, mean, color=colour, lw=0.8, ls="--")
    x = profiles["x"]
    for key, colour, name in (("electron_density", "tab:blue", "electrons"),
                              ("ion_density", "tab:red", "ions")):
        error = profiles.get(key + "_error")
        if error:
            ax.errorbar(x, profiles[key], yerr=error, color=colour, lw=1.2, elinewidth=0.6,
                        label=f"ccp {name} (mean of replicas)")
        else:
            ax.plot(x, profiles[key], color=colour, lw=1.2, label=f"ccp {name}")
    title = f"Turner et al. (2013) case {case}"
    if "X2" in values:
        title += f": X² = {values['X2']:.0f}"
        if values.get("replicas", 1) > 1:
            title += (f" of the mean of {values['replicas']:.0f} replicas; each "
                      f"{values['X2_replica_min']:.0f}–{values['X2_replica_max']:.0f}")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("density (m$^{-3}$)")
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(out, dpi=130)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="the JSON of schedbench run --sim ccp --json")
    parser.add_argument("--case", type=int, choices=(1, 2, 3, 4), required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        values, profiles = read_run(args.run)
        draw(values, profiles, args.case, args.out)
    except ValueError as e:
        print(f"fig_ccp_profiles: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
