"""The errors schedbench_results raises on purpose, and how its commands report them.

Every reader (read_results, read_folder, read_catalog, job_files, figures.load_job,
figures.use_catalog) raises InputError for a file it cannot take, whatever is wrong with it:
missing, not a regular file (a directory, a FIFO, a dangling link or a loop of links), not
JSON, or JSON that breaks its schema (results/README.md); the message is one line naming the
file, the bad value and what is accepted. Writing (figures, REPORT.md) raises OutputError where
the system refuses a write (a full disk, ulimit -f, a folder that is a file). Drawing figures
(figures.draw_job) and writing a report (report.write_report) raise InputError also for results
that keep their schema but lack what a figure reads from them (drawn_from). Both are
ResultsError; InputError is also a ValueError.

The commands (python -m schedbench_results.report, the figure scripts) print such an error as
one line and exit 2 for bad input, 3 for a write that failed, as schedbench's own commands do."""

import contextlib
import re
import signal
import sys


class ResultsError(Exception):
    """What schedbench_results raises on purpose: InputError or OutputError."""


class InputError(ResultsError, ValueError):
    """A results file, a catalog or an argument the package cannot take (exit code 2)."""


class OutputError(ResultsError):
    """A write that failed (exit code 3); the OSError it came from is its __cause__."""


@contextlib.contextmanager
def drawn_from(source):
    """Where results that keep their schema still lack what a figure or the report's text reads
    from them (a family's own counters, a point without a scheduler, a value of another type
    than the job's other points have), the KeyError, TypeError, ValueError, IndexError,
    AttributeError or division by zero that finds it becomes an InputError naming `source`, the results file or folder."""
    try:
        yield
    except ResultsError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError) as e:
        raise InputError(f"{source}: its points lack what its figures and report read "
                         f"({type(e).__name__}: {e}); accepted: results as `schedbench sweep` "
                         "writes them for the job") from e


def run_command(program, body):
    """Runs body() as a command named `program`: an InputError or OutputError becomes one line
    on stderr and exit code 2 or 3. A write past ulimit -f fails as an OSError (OutputError)
    rather than killing the process with SIGXFSZ."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        body()
    except InputError as e:
        print(f"{program}: error: {one_line(e)}", file=sys.stderr)
        sys.exit(2)
    except OutputError as e:
        print(f"{program}: {one_line(e)}", file=sys.stderr)
        sys.exit(3)


def one_line(error):
    """An error's message with control characters (a newline in a file's name) escaped."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", str(error))
