"""The package schedbench_results: importing it changes nothing in matplotlib, and its readers
give the fixtures' points as DataFrames."""

import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import schedbench_results as sr
from schedbench_results import stats
from schedbench_results.errors import OutputError
from schedbench_results.figures import write_atomically

JOBS = pathlib.Path(__file__).parent / "fixtures" / "jobs"

# Run in a fresh interpreter: this test process has loaded plotting code through other tests.
IMPORT_CHECK = """
import importlib, pkgutil, sys
import matplotlib
before = dict.__getitem__(matplotlib.rcParams, "backend")
import schedbench_results
for name in ("figures", "frames", "generic", "report", "stats"):
    importlib.import_module("schedbench_results." + name)
for module in pkgutil.iter_modules(importlib.import_module("schedbench_results.families").__path__):
    importlib.import_module("schedbench_results.families." + module.name)
after = dict.__getitem__(matplotlib.rcParams, "backend")
print(before == after, "matplotlib.pyplot" in sys.modules)
"""


class Import(unittest.TestCase):
    def test_importing_leaves_the_backend_and_pyplot_alone(self):
        done = subprocess.run([sys.executable, "-c", IMPORT_CHECK], capture_output=True,
                              text=True, check=True)
        self.assertEqual(done.stdout.split(), ["True", "False"], done.stderr)


class Frames(unittest.TestCase):
    def test_a_results_file_is_a_row_per_point_with_its_config_as_columns(self):
        frame = sr.read_results(JOBS / "toy-steps.json")
        doc = json.loads((JOBS / "toy-steps.json").read_text())
        self.assertEqual(len(frame), len(doc["points"]))
        first, last = frame.iloc[0], frame.iloc[-1]
        point = doc["points"][0]
        self.assertEqual(first["label"], point["label"])
        for key, value in point["config"].items():
            self.assertEqual(first[key], value, key)
        self.assertEqual(first["median_ms"], point["stats"]["median_ms"])
        self.assertEqual(first["counts.final"], point["counts"]["final"])
        self.assertEqual(first["digest"], point.get("digest"))
        self.assertEqual(first["repetitions"], len(point["repetitions_ms"]))
        self.assertEqual(set(frame["source"]), {str(JOBS / "toy-steps.json")})
        # The fixture's points are from before the interval was recorded, and none is noisy.
        self.assertTrue(frame["ci_low_ms"].isna().all())
        self.assertFalse(frame["noisy"].any())
        self.assertEqual(last["status"], "failed")
        self.assertTrue(last[["median_ms", "ci_low_ms"]].isna().all())

    def test_the_interval_and_the_noisy_flag_are_the_files_own(self):
        doc = json.loads((JOBS / "toy-steps.json").read_text())
        doc["points"][0]["stats"].update(median_lo_ms=1.0, median_hi_ms=50.0, interval_level=0.97)
        doc["points"][0]["noisy"] = True
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "toy-steps.json")
            path.write_text(json.dumps(doc))
            first = sr.read_results(path).iloc[0]
        self.assertEqual((first["ci_low_ms"], first["ci_high_ms"], first["ci_level"]),
                         (1.0, 50.0, 0.97))
        self.assertIs(bool(first["noisy"]), True)

    def test_a_gpu_points_energy_and_device_state_are_columns(self):
        doc = json.loads((JOBS / "toy-steps.json").read_text())
        doc["points"][0].update(l2="cold", clocks_locked=False,
                                clock_lock_refused="Insufficient Permissions",
                                energy={"joules": 12.5, "joules_per_repetition": 2.5,
                                        "mean_power_w": 250.0, "seconds": 0.05})
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "toy-steps.json")
            path.write_text(json.dumps(doc))
            frame = sr.read_results(path)
            first = frame.iloc[0]
            self.assertEqual((first["energy.joules_per_repetition"], first["energy.mean_power_w"]),
                             (2.5, 250.0))
            self.assertEqual((first["l2"], first["clock_lock_refused"]),
                             ("cold", "Insufficient Permissions"))
            self.assertIs(bool(first["clocks_locked"]), False)
            # A point without them (a CPU engine's, NVML absent) reads NaN, not an error.
            self.assertTrue(frame["energy.mean_power_w"].iloc[1:].isna().all())
            doc["points"][0]["energy"]["mean_power_w"] = "high"
            path.write_text(json.dumps(doc))
            with self.assertRaisesRegex(sr.InputError, "energy.mean_power_w"):
                sr.read_results(path)

    def test_a_run_record_is_a_row(self):
        record = {"schema": "schedbench.run/1",
                  "config": {"sim": "mvp", "scheduler": "cpu-serial", "init_n": 1000},
                  "result": {"counts": {"final": 1654}, "time_ms": 4.5, "parts_ms": {},
                             "particle_steps_per_s": 2.8e8, "digest": "0x6c"},
                  "environment": {"host": {}, "device": None, "build": {"git_commit": "abc"}},
                  "job": {"name": "demo", "point": "mvp__cpu-serial__init_n-1000"}}
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(JOBS / "toy-steps.json", tmp)
            pathlib.Path(tmp, "run.json").write_text(json.dumps(record))
            row = sr.read_results(pathlib.Path(tmp, "run.json")).iloc[0]
            frame = sr.read_folder(tmp)
        self.assertEqual((row["job"], row["label"], row["status"]),
                         ("demo", "mvp__cpu-serial__init_n-1000", "ok"))
        self.assertEqual((row["median_ms"], row["repetitions"], row["init_n"]), (4.5, 1, 1000))
        self.assertEqual(row["counts.final"], 1654)
        self.assertEqual(row["counters.particle_steps_per_s"], 2.8e8)
        self.assertEqual(set(frame["source"]),
                         {str(pathlib.Path(tmp, n)) for n in ("run.json", "toy-steps.json")})

    def test_a_bad_run_record_is_refused_naming_the_value(self):
        good = {"schema": "schedbench.run/1", "config": {"sim": "mvp"},
                "result": {"time_ms": 4.5}}
        for case, edit, named in (
                ("config a list", {"config": []}, "config"),
                ("a time of 0", {"result": {"time_ms": 0}}, "result.time_ms"),
                ("no result", {"result": None}, "result"),
                ("counts not numbers", {"result": {"time_ms": 1, "counts": {"final": "x"}}},
                 "result.counts.final"),
                ("a job named after a path", {"job": {"name": "../x"}}, "job.name"),
                ("an error that is no string", {"error": 3}, "error")):
            doc = {k: v for k, v in {**good, **edit}.items() if v is not None}
            with self.subTest(case=case), tempfile.TemporaryDirectory() as tmp:
                path = pathlib.Path(tmp, "run.json")
                path.write_text(json.dumps(doc))
                with self.assertRaisesRegex(sr.InputError, f"{path}: {re.escape(named)}"):
                    sr.read_results(path)

    def test_a_second_results_file_of_one_job_is_refused_naming_both(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(JOBS / "catalog.json", tmp)
            shutil.copy(JOBS / "toy-steps.json", tmp)
            shutil.copy(JOBS / "toy-steps.json", pathlib.Path(tmp, "toy-steps.second.json"))
            for read in (sr.read_folder, sr.job_files):
                with self.assertRaisesRegex(ValueError, r"toy-steps.second.json: a second "
                                            r"results file of job toy-steps \(the first: "
                                            r".*/toy-steps.json\)"):
                    read(tmp)
            done = subprocess.run([sys.executable, "-m", "schedbench_results.report", tmp,
                                   "--out", str(pathlib.Path(tmp, "out"))],
                                  capture_output=True, text=True, check=False)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertIn("a second results file of job toy-steps", done.stderr)
            self.assertFalse(pathlib.Path(tmp, "out").exists())

    def test_a_folder_is_every_job_file_in_it_and_nothing_else(self):
        frame = sr.read_folder(JOBS)
        jobs = {json.loads(p.read_text())["job"]["name"] for p in JOBS.glob("*.json")
                if p.name != "catalog.json"}
        self.assertEqual(set(frame["job"]), jobs)
        self.assertEqual(len(sr.job_files(JOBS)), len(jobs))

    def test_the_catalog_is_three_frames_in_its_order(self):
        catalog = sr.read_catalog(JOBS / "catalog.json")
        doc = json.loads((JOBS / "catalog.json").read_text())
        self.assertEqual(list(catalog["schedulers"]["name"]),
                         [e["name"] for e in doc["schedulers"]])
        self.assertIn("role", catalog["parameters"].columns)

    def test_other_files_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(JOBS / "catalog.json", tmp)
            pathlib.Path(tmp, "notes.json").write_text("not json")
            with self.assertRaisesRegex(ValueError, "no results files"):
                sr.read_folder(tmp)
            with self.assertRaisesRegex(ValueError, "not a job's results"):
                sr.read_results(pathlib.Path(tmp, "catalog.json"))
            with self.assertRaisesRegex(ValueError, "not a catalog"):
                sr.read_catalog(JOBS / "mvp.json")


class Intervals(unittest.TestCase):
    def test_the_bootstrap_is_repeatable_and_holds_the_medians_ratio(self):
        slow, fast = [12.0, 11.0, 13.5, 12.2, 11.8], [10.0, 10.4, 9.7, 10.1, 12.0]
        low, high = stats.ratio_interval(slow, fast)
        self.assertEqual((low, high), stats.ratio_interval(slow, fast))
        self.assertLess(low, 12.0 / 10.1)
        self.assertGreater(high, 12.0 / 10.1)
        self.assertGreaterEqual(low, min(slow) / max(fast))
        self.assertLessEqual(high, max(slow) / min(fast))
        self.assertEqual(stats.ratio_interval([2.0, 2.0], [1.0, 1.0]), (2.0, 2.0))
        self.assertIsNone(stats.ratio_interval([2.0, 2.0], [1.0]))
        self.assertIsNone(stats.ratio_interval([], fast))


class AtomicWrites(unittest.TestCase):
    def test_a_failed_write_leaves_the_old_file_and_no_temporary(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "REPORT.md")
            path.write_text("old")

            def fail(partial):
                pathlib.Path(partial).write_text("half")
                raise OSError("disk full")

            with self.assertRaisesRegex(OutputError, "cannot write .*REPORT.md: disk full"):
                write_atomically(path, fail)
            self.assertEqual(path.read_text(), "old")
            self.assertEqual(list(pathlib.Path(tmp).iterdir()), [path])
            write_atomically(path, lambda partial: pathlib.Path(partial).write_text("new"))
            self.assertEqual(path.read_text(), "new")
            self.assertEqual(list(pathlib.Path(tmp).iterdir()), [path])


if __name__ == "__main__":
    unittest.main()
