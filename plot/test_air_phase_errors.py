"""plot/air_phase_errors.py's measure of the per-phase errors, on made-up phases whose errors
are known: right errors give a root mean square of about 1, halved ones about 2, a straight-line
trend changes nothing, a run with a phase without an error is left out; and an unknown case is
refused in one line before anything runs."""

import math
import pathlib
import random
import subprocess
import sys
import unittest

import air_phase_errors as ape


def made_up_runs(error, told, runs=40, phases=26, slope=0.0, seed=7):
    """`runs` runs of Gaussian phases of standard error `error` about 5 + slope k, each told
    `told` as its error."""
    rng = random.Random(seed)
    return [[(5 + slope * k + rng.gauss(0, error), told) for k in range(phases)]
            for _ in range(runs)]


class ScatterRatio(unittest.TestCase):
    def test_right_errors_give_one_and_halved_ones_two(self):
        ratio, dof = ape.scatter_ratio(made_up_runs(0.3, 0.3))
        self.assertEqual(dof, 40 * 24)
        self.assertAlmostEqual(ratio, 1.0, delta=4 / math.sqrt(2 * dof))  # 4 of its errors
        halved, _ = ape.scatter_ratio(made_up_runs(0.3, 0.15))
        self.assertAlmostEqual(halved, 2 * ratio, places=9)

    def test_a_straight_line_trend_changes_nothing(self):
        flat, _ = ape.scatter_ratio(made_up_runs(0.3, 0.3))
        sloped, _ = ape.scatter_ratio(made_up_runs(0.3, 0.3, slope=0.8))
        self.assertAlmostEqual(flat, sloped, places=9)

    def test_a_run_with_a_phase_without_an_error_is_left_out(self):
        runs = made_up_runs(0.3, 0.3, runs=3)
        whole = ape.scatter_ratio(runs[:2])
        for missing in (math.nan, 0.0):
            runs[2][4] = (5.0, missing)
            self.assertEqual(ape.scatter_ratio(runs), whole)
            self.assertIsNone(ape.scatter_ratio(runs[2:]))


class Cli(unittest.TestCase):
    def test_an_unknown_case_is_refused_in_one_line_before_anything_runs(self):
        script = pathlib.Path(ape.__file__)
        done = subprocess.run([sys.executable, str(script), "--case", "no-such-gas",
                               "--out", "/nonexistent/dir/x.json"],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertIn("no-such-gas", done.stderr)
        self.assertIn("accepted: air-400Td", done.stderr)


if __name__ == "__main__":
    unittest.main()
