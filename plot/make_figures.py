"""Renders the figures of the jobs named on the command line, or of every job, from the results
files in RESULTS_DIR into --out (make figures); a figure that draws the results of several jobs
(its PARTS) reads each of theirs. A job whose results file is missing is reported and skipped:
results arrive job by job, and the figures of the jobs that have run are still wanted."""

import argparse

from schedbench_results.errors import run_command
from schedbench_results.figures import check_output_dir
from schedbench_results.jobs import draw_figures, figure_jobs, job_index


def make_figures(results_dir, out_dir, jobs=()):
    """{job: [Figure]} for the jobs whose results exist; prints what it skips and writes."""
    index = job_index(results_dir)
    drawn, _ = draw_figures(results_dir, index, list(jobs) or figure_jobs(index), out_dir)
    return {job["job"]["name"]: made for job, made in drawn}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results_dir", help="folder of job results, results/<device>")
    parser.add_argument("--out", required=True, help="folder for the figures")
    parser.add_argument("jobs", nargs="*", help="job names (default: every job in the folder)")
    args = parser.parse_args()

    def draw():
        check_output_dir("--out", args.out)
        make_figures(args.results_dir, args.out, args.jobs)

    run_command("make_figures", draw)


if __name__ == "__main__":
    main()
