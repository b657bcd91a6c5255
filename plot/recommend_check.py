"""How close `schedbench recommend`'s pick comes to the best point of a full search of the same
candidates (docs/performance.md, "Choosing a scheduler automatically"): for each check workload,
the full search's best, the pick, the pick's median in the full search over the best's, and what
recommend spent. Prints a markdown table.

    recommend_check.py FULL_DIR PICK_DIR NAME...

FULL_DIR holds recommend-check-NAME.json (a sweep of jobs/recommend-check-NAME.json), PICK_DIR
NAME.json (recommend's results file on the same workload)."""

import argparse
import json
import sys
from pathlib import Path


def candidate(config):
    """What tells candidates apart: the scheduler, its block size and its policy."""
    return (config["scheduler"], config.get("block_size"), config.get("policy", "default"))


def row(name, full, pick):
    """One workload's line of the table, and whether the pick is within 5 % of the best."""
    points = {candidate(p["config"]): p for p in full["points"] if p["status"] == "ok"}
    best = min(points.values(), key=lambda p: p["stats"]["median_ms"])
    section = pick["recommend"]
    chosen = next(p for p in pick["points"] if p["label"] == section["winner"])
    in_full = points[candidate(chosen["config"])]
    ratio = in_full["stats"]["median_ms"] / best["stats"]["median_ms"]
    describe = lambda p: f'{p["config"]["scheduler"]} {p["config"].get("block_size", "")}'.strip()
    return (f'| {name} | {describe(best)} ({best["stats"]["median_ms"]:.3f} ms) | '
            f'{describe(chosen)} | {in_full["stats"]["median_ms"]:.3f} ms | {ratio:.3f} | '
            f'{section["screened"]}, {len(section["stopped"])} stopped, '
            f'{len(section["leaders"])} leaders, {section["rounds"]} rounds | '
            f'{section["spent_s"]:.1f} s, {section["processes"]} process(es) | '
            f'{section["verdict"]["kind"]} |'), ratio <= 1.05


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("full_dir", type=Path)
    parser.add_argument("pick_dir", type=Path)
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    print("| workload | full search's best | recommend's pick | the pick in the full search | "
          "pick / best | screened | spent | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    within = 0
    for name in args.names:
        full = json.loads((args.full_dir / f"recommend-check-{name}.json").read_text())
        pick = json.loads((args.pick_dir / f"{name}.json").read_text())
        line, ok = row(name, full, pick)
        print(line)
        within += ok
    print(f"\n{within} of {len(args.names)} picks within 5 % of the full search's best")
    return 0 if within == len(args.names) else 1


if __name__ == "__main__":
    sys.exit(main())
