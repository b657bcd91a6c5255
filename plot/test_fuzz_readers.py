"""Generated bad input for the package's readers: results files and catalogs mutated from the
fixtures, a value replaced or deleted, or the text cut, flipped or spliced. Seeded, so that a
failure reproduces: its subtest names the seed. Each mutant must give the documented error
(schedbench_results.errors.InputError) or a valid result, never another exception, in bounded
time; a result that reads must also give the report's figures and text, or that error."""

import contextlib
import io
import json
import pathlib
import random
import shutil
import signal
import tempfile
import unittest

import schedbench_results as sr
from schedbench_results import figures, jobs, report
from schedbench_results.errors import InputError, drawn_from

JOBS = pathlib.Path(__file__).parent / "fixtures" / "jobs"
CASES = 300  # per fixture: about 10 s in all on one core
# A watchdog far above what a read of a fixture takes (milliseconds): a read that loops or blocks
# is stopped and fails, while a slow machine never decides the test.
WATCHDOG_S = 60

# Values a hostile file puts in place of any other.
VALUES = [None, True, False, 0, -1, 0.5, -0.0, 1e308, 2**70, "", "x", "../../escaped", "/tmp/x",
          "toy\n", "\u00e9", [], {}, [1, "a"], {"a": None}, [[[[[]]]]]]
# Text a hostile file splices in.
SPLICES = ["NaN", "Infinity", "1e999", '"\\ud800"', "\x00", "\xff", "[" * 5000, "}", ",", '"',
           "9" * 5000, "-", "\\"]


def paths_in(doc, path=()):
    """Every path (keys and indices) to a value in `doc`, the document itself first."""
    yield path
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) \
        else ()
    for key, value in items:
        yield from paths_in(value, path + (key,))


def mutate_value(rng, doc):
    """`doc` with one value replaced by one of VALUES, or one key of an object deleted."""
    path = rng.choice(list(paths_in(doc))[1:])
    node = doc
    for key in path[:-1]:
        node = node[key]
    if isinstance(node, dict) and rng.random() < 0.3:
        del node[path[-1]]
    else:
        node[path[-1]] = rng.choice(VALUES)
    return json.dumps(doc)


def mutate_text(rng, text):
    """`text` cut short, with a character changed, or with one of SPLICES put in."""
    at = rng.randrange(len(text))
    kind = rng.randrange(3)
    if kind == 0:
        return text[:at]
    if kind == 1:
        return text[:at] + chr(rng.randrange(0x80)) + text[at + 1:]
    return text[:at] + rng.choice(SPLICES) + text[at:]


def mutant(seed, text):
    """The mutant of seed `seed`: one to three value changes, or a change of the text."""
    rng = random.Random(seed)
    if rng.random() < 0.3:
        return mutate_text(rng, text)
    doc = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        text = mutate_value(rng, doc)
    return text


def report_text(folder, index):
    """The report's figures (records, none drawn) and text of the jobs in `index`, as
    report.write_report makes them."""
    with contextlib.redirect_stdout(io.StringIO()):
        found, missing = jobs.figure_records(folder, index, jobs.figure_jobs(index))
        with drawn_from(folder):
            return report.report_pages([(j, m) for j, m, _ in found], missing, folder,
                                       folder / "figures", folder)


class Hung(Exception):
    """A read that did not end before its watchdog."""


@contextlib.contextmanager
def watchdog(seconds):
    """Raises Hung in the block if it runs past `seconds` (SIGALRM; the main thread only)."""
    def expire(signum, frame):
        raise Hung(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Fuzz(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)

    def each_mutant(self, fixture, check):
        """Runs check(path) on CASES mutants of `fixture`, written where the fixture's name is:
        it passes, or raises InputError, and never hangs (a watchdog of WATCHDOG_S ends it)."""
        text = (JOBS / fixture).read_text()
        path = self.tmp / fixture
        for seed in range(CASES):
            path.write_text(mutant(seed, text))
            with self.subTest(fixture=fixture, seed=seed):
                with watchdog(WATCHDOG_S), contextlib.suppress(InputError):
                    check(path)

    def test_results_files(self):
        shutil.copy(JOBS / "catalog.json", self.tmp)

        def check(path):
            frame = sr.read_results(path)
            doc = figures.load_job(path)
            self.assertEqual(len(frame), len(doc["points"]))
            self.assertEqual(sr.job_files(self.tmp), [path])
            report_text(self.tmp, jobs.job_index(self.tmp))

        # A job with a family of its own, and one drawn by the generic figures.
        for fixture in ("toy-steps.json", "demo.json"):
            self.each_mutant(fixture, check)
            (self.tmp / fixture).unlink()

    def test_catalogs(self):
        shutil.copy(JOBS / "toy-steps.json", self.tmp)

        def check(path):
            frames = sr.read_catalog(path)
            doc = json.loads(path.read_text())
            for key, frame in frames.items():
                self.assertEqual(len(frame), len(doc[key]), key)
            catalog = figures.use_catalog(self.tmp / "toy-steps.json")
            self.assertEqual(catalog.schedulers, tuple(e["name"] for e in doc["schedulers"]))
            report_text(self.tmp, jobs.job_index(self.tmp))

        self.each_mutant("catalog.json", check)


if __name__ == "__main__":
    unittest.main()
