"""plot/pymethes_benchmarks.py without pyMETHES (which needs a venv of its own): which benchmark
cases it runs and how, and which it refuses, the one trial frequency it gives pyMETHES, the
uniform sharing after an ionization, when it has it compute its flux averages, how --record enters its values in a benchmarks file, and that
data/swarm/benchmarks.json holds the values results/swarm-benchmarks/pymethes.json records (but
for a case with an analytic value, where they check pyMETHES).
"""

import contextlib
import io
import json
import math
import pathlib
import shutil
import tempfile
import unittest
import unittest.mock

import numpy as np

import pymethes_benchmarks as pb
import pymethes_support as ps
import swarm_benchmarks as sb

RESULTS = sb.ROOT / "results" / "swarm-benchmarks" / "pymethes.json"


class Runnable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cases = {c["name"]: c for c in sb.load_benchmarks()["cases"]}

    def test_a_gas_at_rest_runs_to_its_max_energy_with_its_sharing(self):
        self.assertEqual(pb.runnable(self.cases["reid-ramp-12Td"]), (4.0, "equal", False))
        # Its sharing is void: the gas does not ionize.
        self.assertEqual(pb.runnable(self.cases["lucas-saelee-f0-10Td"]),
                         (40.0, "uniform", False))
        self.assertEqual(pb.runnable(self.cases["lucas-saelee-f1-10Td"]), (40.0, "uniform", True))

    def refused(self, case):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as stop:
            pb.runnable(case)
        self.assertEqual(stop.exception.code, 2)
        lines = err.getvalue().strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn(case["name"], lines[0])
        self.assertIn("accepted", lines[0])

    def test_a_thermal_gas_and_an_unknown_sharing_are_refused_in_one_line(self):
        self.refused(self.cases["ness-robson-p-0.5-0.4Td"])
        case = dict(self.cases["lucas-saelee-f1-10Td"])
        case["options"] = ["--max-energy", "40", "--ionization-sharing", "half"]
        self.refused(case)


class UniformSharing(unittest.TestCase):
    """What uniform_sharing reads of pyMETHES: the collision each electron drew (its index in
    the gas's cross sections; that number or more: none), the cross sections' kinds, and the
    configured sharing that its perform_collisions multiplies elementwise over ionizations."""

    def sim(self, calls):
        gas = type("Gas", (), {"number_of_cross_sections": 3,
                               "is_attachment": np.array([False, True, False]),
                               "is_ionization": np.array([False, False, True])})()
        config = type("Config", (), {"energy_sharing_factor": 0.5})()

        class MonteCarlo:
            def perform_collisions(self, gas_mixture, position, velocity, energy):
                calls.append((position, np.array(config.energy_sharing_factor, copy=True)))
                return "collided"

        mc = MonteCarlo()
        mc.config = config
        return type("Sim", (), {"mc": mc, "gas_mixture": gas})()

    def test_each_ionization_of_a_step_gets_its_own_uniform_fraction(self):
        calls = []
        sim = self.sim(calls)
        ps.uniform_sharing(sim)
        np.random.seed(3)
        # Electrons that drew: elastic, attachment, ionization, null, ionization, null.
        sim.mc.collision_by_electron = np.array([0, 1, 2, 3, 2, 5])
        self.assertEqual(sim.mc.perform_collisions("gas", "position", "v", "e"), "collided")
        sim.mc.collision_by_electron = np.array([0, 3])  # no ionization
        sim.mc.perform_collisions("gas", "again", "v", "e")
        for _ in range(2000):
            sim.mc.collision_by_electron = np.array([2, 2, 2, 2, 2])
            sim.mc.perform_collisions("gas", "many", "v", "e")
        self.assertEqual([c[0] for c in calls[:2]], ["position", "again"])
        self.assertEqual([c[1].size for c in calls[:2]], [2, 0])
        fractions = np.concatenate([c[1] for c in calls])
        self.assertEqual(fractions.size, 2 + 5 * 2000)
        self.assertTrue(((fractions >= 0) & (fractions < 1)).all())
        # Uniform on [0, 1]: mean 1/2 and variance 1/12 within 4 standard errors.
        n = fractions.size
        self.assertLess(abs(fractions.mean() - 0.5), 4 * math.sqrt(1 / 12 / n))
        self.assertLess(abs(fractions.var() - 1 / 12), 4 * math.sqrt(1 / 180 / n))


class OneTrialFrequency(unittest.TestCase):
    class Table:  # what one_trial_frequency reads of pyMETHES's MonteCarlo
        def __init__(self):
            self.max_coll_freq = type("Interp", (), {"y": np.array([1e12, 3e12, 2e12])})()
            self.trial_coll_freq = None

    def steps(self, factor, n=40000):
        mc = self.Table()
        step = ps.one_trial_frequency(mc, factor)
        np.random.seed(7)
        dts = np.array([step(0.0, 0.0) for _ in range(n)])
        return mc.trial_coll_freq, dts

    def test_the_frequency_is_the_tables_largest_padded_times_the_factor(self):
        for factor in (1, 4):
            with self.subTest(factor=factor):
                frequency, dts = self.steps(factor)
                self.assertAlmostEqual(frequency / (factor * 1.01 * 3e12), 1.0, places=12)
                # Exponential steps of that frequency: mean and spread 1/frequency, to 4
                # standard errors of 40000 draws.
                self.assertLess(abs(dts.mean() * frequency - 1.0), 4 / math.sqrt(dts.size))
                self.assertLess(abs(dts.std() * frequency - 1.0), 8 / math.sqrt(dts.size))
                self.assertTrue((dts > 0).all())


class FluxOnlyAtTheEnd(unittest.TestCase):
    def test_the_flux_is_computed_once_when_the_run_ends_and_then_as_before(self):
        calls = []

        class Flux:
            def calculate_data(self, series):
                calls.append(("flux", series))

        class Sim:  # what flux_only_at_the_end reads of pyMETHES's Simulation
            def __init__(self):
                self.output = type("Output", (), {"flux": Flux()})()

            def calculate_final_output(self):
                calls.append("final")
                self.output.flux.calculate_data("whole series")

        sim = Sim()
        ps.flux_only_at_the_end(sim)
        for step in range(3):  # what pyMETHES's steps call
            sim.output.flux.calculate_data(f"series to step {step}")
        self.assertEqual(calls, [])
        sim.calculate_final_output()
        self.assertEqual(calls, ["final", ("flux", "whole series")])
        sim.output.flux.calculate_data("again")  # pymethes_run's own later start of the averages
        self.assertEqual(calls[-1], ("flux", "again"))


class Record(unittest.TestCase):
    def test_record_replaces_the_sources_values_and_keeps_the_others_and_analytic_cases(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "benchmarks.json"
            shutil.copy(sb.BENCHMARKS, path)
            summary = {"mean_energy_eV": (0.5, 0.01)}
            results = {"cases": [{"name": "reid-ramp-20Td", "summary": summary},
                                 {"name": "maxwell-1Td", "summary": summary}]}
            pb.record(path, results)
            pb.record(path, results)  # again: replaced, not added twice
            cases = {c["name"]: c for c in json.loads(path.read_text())["cases"]}
        # An analytic value is the reference there: pyMETHES's is not entered.
        self.assertEqual(cases["maxwell-1Td"], next(c for c in sb.load_benchmarks()["cases"]
                                                     if c["name"] == "maxwell-1Td"))
        case = cases["reid-ramp-20Td"]
        mine = [r for r in case["references"] if r["source"] == pb.SOURCE]
        self.assertEqual(mine, [{"quantity": "mean_energy_eV", "value": 0.5, "error": 0.01,
                                 "unit": "eV", "source": pb.SOURCE,
                                 "code": "pyMETHES 0.2 (our run of it)"}])
        others = {r["source"] for r in case["references"]} - {pb.SOURCE}
        self.assertEqual(others, {"reid-1979-mc", "scena-2020-mc"})


class RecordOnly(unittest.TestCase):
    def test_a_missing_results_file_is_refused_in_one_line_and_nothing_is_written(self):
        before = sb.BENCHMARKS.read_bytes()
        err = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stderr(err), \
                unittest.mock.patch("sys.argv", ["pymethes_benchmarks", "--record-only", "--out",
                                                 f"{tmp}/none.json"]), \
                self.assertRaises(SystemExit) as stop:
            pb.main()
        self.assertEqual(stop.exception.code, 2)
        lines = err.getvalue().strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("none.json", lines[0])
        self.assertEqual(sb.BENCHMARKS.read_bytes(), before)


class Recorded(unittest.TestCase):
    def test_benchmarks_hold_what_the_results_file_records(self):
        results = json.loads(RESULTS.read_text())
        benchmarks = sb.load_benchmarks()
        cases = {c["name"]: c for c in benchmarks["cases"]}
        self.assertTrue(results["cases"])
        for row in results["cases"]:
            with self.subTest(case=row["name"]):
                self.assertEqual(len(row["runs"]), row["seeds"])
                refs = {r["quantity"]: r for r in cases[row["name"]]["references"]
                        if r["source"] == pb.SOURCE}
                if pb.analytic(cases[row["name"]], benchmarks["sources"]):
                    self.assertEqual(refs, {})  # pyMETHES checked there, not a reference
                    continue
                self.assertEqual(set(refs), set(row["summary"]))
                self.assertLessEqual(set(pb.QUANTITIES), set(refs))
                for q, (value, error) in row["summary"].items():
                    self.assertAlmostEqual(refs[q]["value"] / value, 1.0, places=5)
                    self.assertAlmostEqual(refs[q]["error"] / error, 1.0, places=2)


if __name__ == "__main__":
    unittest.main()
