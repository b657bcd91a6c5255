"""schedbench's results: job results files, run records and the catalog as pandas DataFrames
(read_results, read_folder, read_catalog; a folder holds one results file per job), the figures
of each job (schedbench_results.figures and .families) and a report from any folder of results
(python -m schedbench_results.report).

Every reader checks a file against its schema (results/README.md) before anything reads it, and
raises InputError (a ValueError) for anything else; a write that fails is an OutputError. Both
are ResultsError (schedbench_results.errors); the commands print them as one line, exit code 2
or 3.

Importing the package loads pandas and numpy but no plotting code: matplotlib is imported only
by the functions that draw, and never through pyplot, so the caller's backend is left alone."""

from .errors import InputError, OutputError, ResultsError
from .frames import job_files, read_catalog, read_folder, read_results

__all__ = ["InputError", "OutputError", "ResultsError", "job_files", "read_catalog",
           "read_folder", "read_results"]
