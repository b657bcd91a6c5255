"""Reading schedbench result files (results/README.md) for the plot scripts."""

import argparse
import json
import pathlib


def load_runs(directory):
    """Every run record (schema schedbench.run/1) in `directory`, failed points left out."""
    runs = []
    for path in sorted(pathlib.Path(directory).glob("*.json")):
        record = json.loads(path.read_text())
        if record.get("schema") == "schedbench.run/1" and "result" in record:
            runs.append(record)
    return runs


def by_scheduler(runs):
    """{scheduler: [run, ...]} in the order the schedulers first appear."""
    groups = {}
    for run in runs:
        groups.setdefault(run["config"]["scheduler"], []).append(run)
    return groups


def device_label(runs):
    """What the runs were measured on: the GPU's name, else the host's CPU."""
    for run in runs:
        device = run["environment"].get("device")
        if device and run["config"]["scheduler"] not in ("cpu-serial", "cpu-openmp"):
            return device["name"]
    return runs[0]["environment"]["host"]["cpu"] if runs else "unknown"


def save(fig, directory, name):
    """Writes `fig` as DIRECTORY/NAME (PNG), closes it and returns the path."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    out = pathlib.Path(directory) / name
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def main(plot, description, directory_help):
    """The command line every plot script shares: one directory of run results."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("directory", help=directory_help)
    print(f"wrote {plot(parser.parse_args().directory)}")
