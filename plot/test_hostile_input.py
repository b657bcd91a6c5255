"""Hostile input to the package's readers and its report: every bad file gives the documented
error (schedbench_results.errors), and the commands one line with exit code 2, or 3 for a write
that failed, nothing written outside --out and nothing half-written (README.md, "Exit codes")."""

import json
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest

import schedbench_results as sr
from schedbench_results import figures
from schedbench_results.errors import InputError

JOBS = pathlib.Path(__file__).parent / "fixtures" / "jobs"
ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEDBENCH = ROOT / "build" / "bin" / "schedbench"
# A report of one small job takes seconds; a command that blocks (a FIFO opened for reading)
# would take forever.
COMMAND_TIMEOUT_S = 120


def results_doc():
    """toy-steps' results, a small job with a family of its own."""
    return json.loads((JOBS / "toy-steps.json").read_text())


def catalog_doc():
    return json.loads((JOBS / "catalog.json").read_text())


def edited(doc, path, value):
    """`doc` with the value at `path` (keys and indices) replaced, or deleted where value is
    DELETE."""
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


DELETE = object()

# (case, path in the results file, value): each makes toy-steps.json bad.
BAD_RESULTS = [
    ("no job", ("job",), DELETE),
    ("a null job", ("job",), None),
    ("a job that is a string", ("job",), "toy-steps"),
    ("no name", ("job", "name"), DELETE),
    ("a null name", ("job", "name"), None),
    ("a numeric name", ("job", "name"), 7),
    ("an empty name", ("job", "name"), ""),
    ("a name that climbs out", ("job", "name"), "../../escaped"),
    ("an absolute name", ("job", "name"), "/tmp/escaped"),
    ("a name with a newline", ("job", "name"), "toy\nsteps"),
    ("a list for a title", ("job", "title"), ["a"]),
    ("no points", ("points",), DELETE),
    ("null points", ("points",), None),
    ("points that are an object", ("points",), {"a": 1}),
    ("a point that is a number", ("points", 0), 3),
    ("a null config", ("points", 0, "config"), None),
    ("no config", ("points", 0, "config"), DELETE),
    ("a config that is a list", ("points", 0, "config"), [1, 2]),
    ("a config value that is an object", ("points", 0, "config", "init_n"), {"a": 1}),
    ("a numeric scheduler", ("points", 0, "config", "scheduler"), 5),
    ("a numeric status", ("points", 0, "status"), 1),
    ("null stats of an ok point", ("points", 0, "stats"), None),
    ("no median", ("points", 0, "stats", "median_ms"), DELETE),
    ("a string median", ("points", 0, "stats", "median_ms"), "fast"),
    ("a zero median", ("points", 0, "stats", "median_ms"), 0),
    ("null repetitions", ("points", 0, "repetitions_ms"), None),
    ("a string repetition", ("points", 0, "repetitions_ms", 0), "1"),
    ("counts that are a list", ("points", 0, "counts"), [1]),
    ("a null count", ("points", 0, "counts", "final"), None),
    ("a digest that is an object", ("points", 0, "digest"), {}),
    ("an environment that is a list", ("environment",), []),
    ("a build that is a number", ("environment", "build"), 1),
    ("a numeric commit", ("environment", "build", "git_commit"), 12),
]

# (case, path in catalog.json, value): each makes the catalog bad.
BAD_CATALOGS = [
    ("no schedulers", ("schedulers",), DELETE),
    ("no parameters", ("parameters",), DELETE),
    ("null parameters", ("parameters",), None),
    ("a scheduler without a name", ("schedulers", 0, "name"), DELETE),
    ("a scheduler without a kind", ("schedulers", 0, "kind"), DELETE),
    ("a parameter that is a string", ("parameters", 0), "init_n"),
    ("a parameter without a role", ("parameters", 0, "role"), DELETE),
    ("a numeric label", ("parameters", 0, "label"), 3),
    ("another schema", ("schema",), "schedbench.catalog/0"),
]

# (case, text) of files that are not JSON as schedbench writes it.
NOT_JSON = [
    ("garbage", "not json"),
    ("empty", ""),
    ("truncated", '{"schema": "schedbench.job/1", "job": {"na'),
    ("NaN", '{"schema": "schedbench.job/1", "x": NaN}'),
    ("a number out of range", '{"schema": "schedbench.job/1", "x": 1e999}'),
    ("a lone surrogate", '{"schema": "schedbench.job/1", "job": {"name": "\\ud800"}}'),
    ("nesting 100 000 deep", "[" * 100_000),
    ("a whole number of 5000 digits", '{"x": ' + "9" * 5000 + "}"),
]


def not_files(folder, name):
    """(case, path) of things named `name` in `folder` that are no regular file; each made by
    the call."""
    made = []
    for case, make in (("a directory", os.mkdir), ("a FIFO", os.mkfifo),
                       ("a dangling link", lambda p: os.symlink(folder / "absent", p)),
                       ("a loop of links", lambda p: os.symlink(p, p))):
        path = folder / case.replace(" ", "-") / name
        path.parent.mkdir()
        make(path)
        made.append((case, path))
    return made


def tree(folder):
    """Every path under `folder`, to tell that nothing was written."""
    return sorted(str(p.relative_to(folder)) for p in pathlib.Path(folder).rglob("*"))


class Readers(unittest.TestCase):
    """The readers raise InputError, naming the file, for every bad results file or catalog."""

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, name, doc_or_text):
        path = self.tmp / name
        path.write_text(doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text))
        return path

    def test_bad_results_files_are_input_errors(self):
        shutil.copy(JOBS / "catalog.json", self.tmp)
        for case, where, value in BAD_RESULTS:
            path = self.write("toy-steps.json", edited(results_doc(), where, value))
            for read in (sr.read_results, figures.load_job, sr.read_folder, sr.job_files):
                with self.subTest(case=case, reader=read.__name__):
                    with self.assertRaises(InputError) as raised:
                        read(path if read in (sr.read_results, figures.load_job) else self.tmp)
                    self.assertIn(str(path), str(raised.exception))

    def test_bad_catalogs_are_input_errors(self):
        self.write("toy-steps.json", results_doc())
        for case, where, value in BAD_CATALOGS:
            path = self.write("catalog.json", edited(catalog_doc(), where, value))
            for read in (sr.read_catalog, figures.use_catalog):
                with self.subTest(case=case, reader=read.__name__):
                    with self.assertRaises(InputError) as raised:
                        read(path)
                    self.assertIn(str(path), str(raised.exception))

    def test_files_that_are_not_json_are_input_errors(self):
        for case, text in NOT_JSON:
            path = self.write("x.json", text)
            for read in (sr.read_results, sr.read_catalog):
                with self.subTest(case=case, reader=read.__name__):
                    with self.assertRaisesRegex(InputError, "not JSON"):
                        read(path)

    def test_only_regular_files_are_opened(self):
        for case, path in not_files(self.tmp, "x.json"):
            for read in (sr.read_results, sr.read_catalog, figures.load_job):
                with self.subTest(case=case, reader=read.__name__):
                    with self.assertRaises(InputError) as raised:
                        read(path)
                    self.assertIn(str(path), str(raised.exception))
            # In a folder they are not results files: the folder holds none.
            with self.subTest(case=case, reader="read_folder"):
                with self.assertRaisesRegex(InputError, "no results files"):
                    sr.read_folder(path.parent)


    def test_the_scheduler_table_reads_through_the_package(self):
        import scheduler_table
        shutil.copy(JOBS / "catalog.json", self.tmp)
        bad = [(case, json.dumps(edited(results_doc(), where, value)))
               for case, where, value in BAD_RESULTS[::3]]
        bad += [("a list", "[]"), ("a benchmark without a name",
                 '{"benchmarks": [{"run_type": "iteration"}]}'),
                ("benchmarks that are a number", '{"benchmarks": 3}'), *NOT_JSON[:2]]
        for case, text in bad:
            path = self.write("x.json", text)
            with self.subTest(case=case):
                with self.assertRaises(InputError) as raised:
                    scheduler_table.load_points([path])
                self.assertIn(str(path), str(raised.exception))


def limit_file_size(size):
    """A preexec_fn: `ulimit -f` of `size` bytes."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


class Commands(unittest.TestCase):
    """python -m schedbench_results.report, and schedbench report where it is built, on bad
    input: one line, exit code 2 (3 for a write that failed), nothing written outside --out,
    nothing half-written."""

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.results = self.tmp / "results"
        self.results.mkdir()
        shutil.copy(JOBS / "catalog.json", self.results)
        shutil.copy(JOBS / "toy-steps.json", self.results)
        self.out = self.tmp / "out"

    def commands(self):
        """The report commands: the package's, and the tool's where build/bin/schedbench exists."""
        found = [[sys.executable, "-m", "schedbench_results.report"]]
        if SCHEDBENCH.exists():
            found.append([str(SCHEDBENCH), "report"])
        return found

    def run_report(self, command, results, out, preexec_fn=None, jobs=()):
        # No tool's catalog stands in for a missing one (SCHEDBENCH names none).
        env = dict(os.environ, SCHEDBENCH_PYTHON=sys.executable,
                   SCHEDBENCH=str(self.tmp / "no-schedbench"))
        return subprocess.run([*command, str(results), "--out", str(out), *jobs],
                              capture_output=True, text=True, check=False,
                              timeout=COMMAND_TIMEOUT_S, env=env, preexec_fn=preexec_fn)

    def assert_refused(self, case, results, out, code=2, preexec_fn=None, jobs=()):
        """Every command refuses RESULTS with exit `code` and one line, and writes nothing
        anywhere in the temporary folder but the report's own files under --out."""
        for command in self.commands():
            with self.subTest(case=case, command=command[-1]):
                before = tree(self.tmp)
                done = self.run_report(command, results, out, preexec_fn, jobs)
                self.assertEqual(done.returncode, code, done.stderr)
                self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
                self.assertNotIn("Traceback", done.stderr)
                after = tree(self.tmp)
                if code == 2:
                    self.assertEqual(after, before)
                else:
                    # No temporary file is left, and nothing is written outside --out.
                    new = [p for p in after if p not in before]
                    self.assertFalse([p for p in new if not p.startswith("out")], new)
                    self.assertFalse([p for p in new if "/." in p], new)

    def test_bad_results_files_are_refused(self):
        # The readers' test takes every case; here those of each part of the file, for the
        # time a command takes.
        for case, where, value in BAD_RESULTS[::3]:
            (self.results / "toy-steps.json").write_text(
                json.dumps(edited(results_doc(), where, value)))
            self.assert_refused(case, self.results, self.out)

    def test_a_job_named_after_a_path_writes_nothing_outside_out(self):
        # The generic figures are named after the job: before names were checked these wrote
        # TMP/escaped_steps.png and TMP/elsewhere/escaped_steps.png.
        (self.tmp / "elsewhere").mkdir()
        for name in ("../../escaped", str(self.tmp / "elsewhere" / "escaped")):
            (self.results / "toy-steps.json").write_text(
                json.dumps(edited(results_doc(), ("job", "name"), name)))
            self.assert_refused(f"job name {name}", self.results, self.out)

    def test_bad_catalogs_are_refused(self):
        for case, where, value in BAD_CATALOGS:
            (self.results / "catalog.json").write_text(
                json.dumps(edited(catalog_doc(), where, value)))
            self.assert_refused(case, self.results, self.out)
        for case, text in NOT_JSON[:2]:
            (self.results / "catalog.json").write_text(text)
            self.assert_refused(f"a catalog of {case}", self.results, self.out)
        (self.results / "catalog.json").unlink()
        self.assert_refused("no catalog", self.results, self.out)
        for case, path in not_files(self.tmp, "catalog.json"):
            shutil.copy(JOBS / "toy-steps.json", path.parent)
            self.assert_refused(f"a catalog that is {case}", path.parent, self.out)

    def test_what_is_no_regular_file_is_left_out_of_a_folder(self):
        for case, path in not_files(self.tmp, "toy-steps.json"):
            shutil.copy(JOBS / "catalog.json", path.parent)
            self.assert_refused(f"results that are {case}", path.parent, self.out)

    def test_a_job_asked_for_that_no_job_could_be_named_is_refused(self):
        for name in ("../toy-steps", "/tmp/toy-steps", ""):
            self.assert_refused(f"job {name!r}", self.results, self.out,
                                jobs=("toy-steps", name))

    def test_an_out_that_is_no_folder_is_refused(self):
        (self.tmp / "file").write_text("mine")
        (self.tmp / "folder").mkdir()
        (self.tmp / "folder" / "figures").write_text("mine")
        os.symlink(self.tmp, self.tmp / "link")
        for case, out in (("a file", self.tmp / "file"), ("a device", "/dev/null"),
                          ("under a file", self.tmp / "file" / "report"),
                          ("a link", self.tmp / "link"),
                          ("figures/ a file", self.tmp / "folder")):
            self.assert_refused(f"--out {case}", self.results, out)

    def test_a_write_that_fails_is_exit_code_3_and_leaves_the_old_report(self):
        self.out.mkdir()
        (self.out / "REPORT.md").write_text("the report before")
        # ulimit -f: a figure is larger than 4 kB, so the first write fails (EFBIG).
        self.assert_refused("ulimit -f", self.results, self.out, code=3,
                            preexec_fn=limit_file_size(4096))
        self.assertEqual((self.out / "REPORT.md").read_text(), "the report before")

    def test_figures_named_after_a_path_stay_in_the_folder(self):
        # A job of one's own whose sub-sweeps are told apart by a value that is a path: the
        # generic figures name each after it.
        doc = json.loads((JOBS / "demo.json").read_text())
        doc["job"]["name"] = "mine"
        doc["points"] = [dict(p, config=dict(p["config"], cross_sections=value))
                         for value in ("../../../escaped", "/tmp/escaped") for p in doc["points"]]
        (self.results / "toy-steps.json").unlink()
        (self.results / "mine.json").write_text(json.dumps(doc))
        done = self.run_report(self.commands()[0], self.results, self.out)
        self.assertEqual(done.returncode, 0, done.stderr)
        outside = [p for p in tree(self.tmp) if not p.startswith(("out", "results"))]
        self.assertEqual(outside, [])
        self.assertTrue(list((self.out / "figures").glob("mine_*cross_sections*.png")))


if __name__ == "__main__":
    unittest.main()
