"""schedbench's results: job results files and the catalog as pandas DataFrames
(read_results, read_folder, read_catalog), the figures of each job (schedbench_results.figures
and .families) and a report from any folder of results (python -m schedbench_results.report).

Importing the package loads pandas and numpy but no plotting code: matplotlib is imported only
by the functions that draw, and never through pyplot, so the caller's backend is left alone."""

from .frames import job_files, read_catalog, read_folder, read_results

__all__ = ["job_files", "read_catalog", "read_folder", "read_results"]
