"""One module per job that has figures of its own, fig_<job name with _ for - and .>: its
`figures(job)` returns the job's Figure records (schedbench_results.figures). A job without a
module here is drawn by schedbench_results.generic."""
