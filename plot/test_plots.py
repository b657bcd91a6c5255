"""The plot scripts render from a small fixture of result files."""

import pathlib
import shutil
import tempfile
import unittest

import plot_demo

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


class DemoPlot(unittest.TestCase):
    def test_writes_a_png(self):
        with tempfile.TemporaryDirectory() as tmp:
            for f in (FIXTURES / "demo").glob("*.json"):
                shutil.copy(f, tmp)
            out = plot_demo.plot(tmp)
            self.assertTrue(out.read_bytes().startswith(b"\x89PNG"))

    def test_refuses_an_empty_directory(self):
        with tempfile.TemporaryDirectory() as tmp, self.assertRaises(SystemExit):
            plot_demo.plot(tmp)


class SchedulerTable(unittest.TestCase):
    def test_summarises_medians_and_efficiency(self):
        import scheduler_table
        times, context, steps = scheduler_table.load_points(
            [FIXTURES / "gbench" / "mvp-block-size.json"])
        workload, bound, rows = scheduler_table.summary(times, steps)
        self.assertEqual(workload, "mvp-block-size")
        by_name = {r["scheduler"]: r for r in rows}
        self.assertEqual(set(by_name), {"bound", "cpu-sync", "dynamic-warp"})
        self.assertAlmostEqual(by_name["bound"]["eff_best"], 1.0)
        self.assertLess(by_name["dynamic-warp"]["eff_best"], 1.0)
        table = scheduler_table.markdown(workload, bound, rows, context)
        self.assertIn("| cpu-sync |", table)


class CollisionChancePlot(unittest.TestCase):
    def test_writes_a_png(self):
        import plot_collision_chance
        with tempfile.TemporaryDirectory() as tmp:
            for f in (FIXTURES / "collision_chance").glob("*.json"):
                shutil.copy(f, tmp)
            out = plot_collision_chance.plot(tmp)
            self.assertTrue(out.read_bytes().startswith(b"\x89PNG"))


if __name__ == "__main__":
    unittest.main()
