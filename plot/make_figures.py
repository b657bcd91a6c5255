"""Renders the figures of every job named on the command line from RESULTS_DIR/<job>.json into
--out (make figures). A job whose results file is missing is reported and skipped: results
arrive job by job, and the figures of the jobs that have run are still wanted."""

import argparse
import importlib
import pathlib

from results import module_name, plot_job


def make_figures(results_dir, out_dir, jobs):
    """{job: [Figure]} for the jobs whose results exist; prints what it skips and writes."""
    made = {}
    for job in jobs:
        path = pathlib.Path(results_dir) / f"{job}.json"
        if not path.exists():
            print(f"make_figures: {path} is missing; {job}'s figures are skipped")
            continue
        made[job] = plot_job(importlib.import_module(module_name(job)).figures, path, out_dir)
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results_dir", help="folder of job results, results/<device>")
    parser.add_argument("--out", required=True, help="folder for the figures")
    parser.add_argument("jobs", nargs="+", help="job names (each has plot/fig_<job>.py)")
    args = parser.parse_args()
    make_figures(args.results_dir, args.out, args.jobs)


if __name__ == "__main__":
    main()
