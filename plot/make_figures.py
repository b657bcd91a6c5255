"""Renders the figures of every job named on the command line from RESULTS_DIR/<job>.json into
--out (make figures); a script that draws the results of several jobs (its PARTS) reads each of
theirs. A job whose results file is missing is reported and skipped: results arrive job by job,
and the figures of the jobs that have run are still wanted."""

import argparse
import pathlib

from schedbench_results.figures import draw_job, family, load_parts, parts


def make_figures(results_dir, out_dir, jobs):
    """{job: [Figure]} for the jobs whose results exist; prints what it skips and writes."""
    made = {}
    for job in jobs:
        paths = [pathlib.Path(results_dir) / f"{part}.json" for part in parts(job)]
        found = [p for p in paths if p.exists()]
        fate = "figures leave it out" if found else "figures are skipped"
        for path in paths:
            if not path.exists():
                print(f"make_figures: {path} is missing; {job}'s {fate}")
        if found:
            source = found[0] if len(paths) == 1 else job
            made[job] = draw_job(family(job).figures,
                                 load_parts(job, found), out_dir, source)
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results_dir", help="folder of job results, results/<device>")
    parser.add_argument("--out", required=True, help="folder for the figures")
    parser.add_argument("jobs", nargs="+", help="job names (each drawn by its family module)")
    args = parser.parse_args()
    make_figures(args.results_dir, args.out, args.jobs)


if __name__ == "__main__":
    main()
