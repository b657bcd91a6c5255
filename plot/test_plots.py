"""The figure scripts, make_figures and the report generator, run on the fixtures in
plot/fixtures/jobs (synthetic job results, one per figure family; make_fixtures.py writes them).
Every fixture's last point is a failed one."""

import contextlib
import importlib
import io
import json
import pathlib
import re
import shutil
import sys
import tempfile
import unittest

import results
from make_figures import make_figures

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = pathlib.Path(__file__).parent / "fixtures"
JOBS = FIXTURES / "jobs"
sys.path.insert(0, str(ROOT / "report"))
import make_report  # noqa: E402


def makefile_jobs():
    """The jobs `make figures` draws (FIGURE_JOBS in the Makefile)."""
    text = (ROOT / "Makefile").read_text()
    block = re.search(r"^FIGURE_JOBS :=((?:.*\\\n)*.*)$", text, re.M).group(1)
    return block.replace("\\\n", " ").split()


def quietly(fn, *args):
    """fn(*args) and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn(*args)
    return value, out.getvalue()


class EveryFamily(unittest.TestCase):
    def test_each_makefile_job_has_a_script_and_a_fixture(self):
        scripts = {p.stem for p in pathlib.Path(__file__).parent.glob("fig_*.py")}
        jobs = makefile_jobs()
        self.assertEqual(scripts, {results.module_name(j) for j in jobs})
        for job in jobs:
            self.assertTrue((JOBS / f"{job}.json").exists(), job)
            self.assertEqual(importlib.import_module(results.module_name(job)).JOB, job)

    def test_each_script_renders_png_and_pdf_without_the_failed_point(self):
        for job in makefile_jobs() + ["demo"]:
            module = "plot_demo" if job == "demo" else results.module_name(job)
            with self.subTest(job=job), tempfile.TemporaryDirectory() as tmp:
                figures, printed = quietly(results.plot_job,
                                           importlib.import_module(module).figures,
                                           JOBS / f"{job}.json", tmp)
                self.assertTrue(figures)
                failed = results.load_job(JOBS / f"{job}.json")["points"][-1]
                self.assertEqual(failed["status"], "failed")
                self.assertIn(f"skipped failed point {failed['label']}", printed)
                for f in figures:
                    self.assertNotIn(failed, f.points)
                    png, pdf = (pathlib.Path(tmp, f"{f.name}.{ext}") for ext in ("png", "pdf"))
                    self.assertTrue(png.read_bytes().startswith(b"\x89PNG"), png)
                    self.assertTrue(pdf.read_bytes().startswith(b"%PDF"), pdf)
                    self.assertIn(str(png), printed)


class Families(unittest.TestCase):
    """The sub-sweeps each family finds in its fixture."""

    def names(self, job):
        module = importlib.import_module(results.module_name(job))
        job_results = results.load_job(JOBS / f"{job}.json")
        return [f.name for f in results.build(module.figures, job_results)]

    def test_mvp_sub_sweeps_are_told_apart(self):
        self.assertEqual(self.names("mvp"), [
            "fig5.9_mvp_block_size", "fig5.10_mvp_block_size_no_naive", "fig5.11_mvp_init_n",
            "fig5.12_mvp_init_n_skip_spawned", "fig5.13_mvp_steps",
            "fig5.14_mvp_steps_skip_spawned"])

    def test_cross_section_long_short_and_low(self):
        self.assertEqual([n.split("_")[0] for n in self.names("pic-cross-section")],
                         ["fig5.15", "fig5.16", "fig5.17", "fig9.3", "fig9.4", "fig9.5"])

    def test_appendix_dynamic_only_and_zoomed_views(self):
        self.assertEqual([n.split("_")[0] for n in self.names("pic-mobility-steps")],
                         ["fig5.21", "fig5.22", "fig9.7", "fig5.23", "fig5.24", "fig9.8"])
        self.assertIn("fig9.6_pic_poisson_steps_dynamic", self.names("pic-poisson-steps"))
        self.assertIn("fig9.2_toy_steps_zoomed", self.names("toy-steps"))

    def test_toy_block_size_splits_filled_and_one_block_per_sm(self):
        job = results.load_job(JOBS / "toy-block-size.json")
        figures = {f.name: f for f in results.build(
            importlib.import_module("fig_toy_block_size").figures, job)}
        one = figures["fig5.3_toy_block_size_one_block_per_sm"]
        self.assertEqual({p["config"]["blocks_per_sm"] for p in one.points}, {1})
        no_huge = figures["fig5.2_toy_block_size_no_huge"].points
        self.assertNotIn("huge-iterate", results.schedulers(no_huge))

    def test_sm_fill_markers_come_from_the_device(self):
        job = results.load_job(JOBS / "toy-init-n.json")
        device = job["environment"]["device"]
        xs = [x for x, _, _ in results.sm_fill_markers(job, 512)]
        self.assertEqual(xs, [device["sm_count"] * 512,
                              device["sm_count"] * device["max_threads_per_sm"]])
        self.assertEqual(results.sm_fill_markers(results.load_job(JOBS / "demo.json"), 512), ())

    def test_compaction_table_has_a_row_per_variant(self):
        job = results.load_job(JOBS / "table-3.2-compaction.json")
        quiet, busy = results.build(importlib.import_module("fig_table_3_2_compaction").figures,
                                    job)
        self.assertEqual(quiet.name, "table3.2_compaction_mobility_steps-1")
        self.assertEqual({p["config"].get("collision_chance") for p in busy.points}, {20})
        table = results.markdown_table(quiet)
        for variant in ("simple", "block", "warp"):
            self.assertIn(f"| cpu-sync (compaction {variant}) |", table)
        self.assertIn("block_size 1024", table)

    def test_turnover_leaves_the_table_points_out_and_draws_mobility(self):
        job = results.load_job(JOBS / "pic-turnover.json")
        (turnover,) = results.build(importlib.import_module("fig_pic_turnover").figures, job)
        self.assertEqual({p["config"]["collision_chance"] for p in turnover.points},
                         {0, 0.5, 1, 2, 4.55, 9})
        self.assertEqual(turnover.panels[0].quantities, ("mobility",))
        series = set(results.series(turnover))
        self.assertIn("bound (block_size 32)", series)

    def test_refuses_another_schema(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "old.json")
            path.write_text(json.dumps({"schema": "schedbench.run/1"}))
            with self.assertRaises(SystemExit):
                results.load_job(path)

    def test_names_and_labels_come_from_the_catalog_beside_the_results(self):
        job = JOBS / "toy-block-size.json"
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(job, tmp)
            with self.assertRaises(SystemExit) as missing:
                results.load_job(pathlib.Path(tmp, job.name))
            self.assertIn("schedbench list --json", str(missing.exception))
            catalog = json.loads((JOBS / "catalog.json").read_text())
            label = next(p for p in catalog["parameters"] if p["key"] == "block_size")
            label["label"] = "threads in a block"
            pathlib.Path(tmp, "catalog.json").write_text(json.dumps(catalog))
            results.load_job(pathlib.Path(tmp, job.name))
            self.assertEqual(results.catalog().labels["block_size"], "threads in a block")
        catalog = results.use_catalog(job)
        self.assertIn("block_size", catalog.tuning)
        self.assertIn("capacity", catalog.bookkeeping)
        self.assertEqual(catalog.yardsticks, {"bound"})


class Report(unittest.TestCase):
    """make figures then make report, over the fixtures less warp-sync's results file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        cls.results = cls.tmp / "results"
        shutil.copytree(JOBS, cls.results)
        (cls.results / "warp-sync.json").unlink()
        cls.jobs = makefile_jobs()
        cls.made, cls.printed = quietly(make_figures, cls.results, cls.tmp / "report/figures",
                                        cls.jobs)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_a_missing_results_file_is_skipped_with_a_message(self):
        self.assertNotIn("warp-sync", self.made)
        self.assertIn("warp-sync.json is missing", self.printed)
        self.assertEqual(set(self.made), set(self.jobs) - {"warp-sync"})

    def test_writes_markdown_and_html_referencing_every_figure(self):
        (md, html), printed = quietly(make_report.write_report, self.results,
                                      self.tmp / "report/figures", self.tmp / "report", self.jobs)
        self.assertIn("warp-sync.json is missing", printed)
        text, page = md.read_text(), html.read_text()
        for figures in self.made.values():
            for f in figures:
                self.assertIn(f"](figures/{f.name}.png)", text)
                self.assertIn(f'src="figures/{f.name}.png"', page)
                self.assertIn(f.caption, text)
        self.assertIn("Fixture GPU", text)
        self.assertIn("f1x7ure0000000000000000000000000000000000", text)
        self.assertIn("580.00.00", text)
        self.assertIn("`warp-sync`", text.split("## Not measured yet")[1])
        self.assertIn("<table>", page)

    def test_best_table_names_the_fastest_from_the_data(self):
        text = make_report.report_markdown(self.results, self.tmp / "report/figures",
                                           self.tmp / "report", ["toy-steps"])
        row = next(line for line in text.splitlines() if line.startswith("| toy, time steps |"))
        # Fixture toy-steps at 20,000 steps: cpu-sync (0.5 ns/step) beats huge-iterate; the
        # dynamic-block point there is the failed one.
        self.assertRegex(row, r"\| steps 20,000 \| cpu-sync \| [\d.,]+ ms \| huge-iterate \|")
        self.assertIn("The lead changes 1 time(s) along steps", text)


    def test_choosing_a_scheduler_ranks_every_air_workload(self):
        text = make_report.report_markdown(self.results, self.tmp / "report/figures",
                                           self.tmp / "report", ["air-reduced-field"])
        section = text.split("## Choosing a scheduler for a physically accurate simulation")[1]
        rows = [line for line in section.split("\n## ")[0].splitlines()
                if line.startswith("| air, E/N")]
        # Fixture: 6 fields at 1e4 and 5 at 1e6 (the last point, bound at 1e6 and 1000 Td, is
        # the failed one, so that row has no efficiency); static-full (0.36 ns) wins at 1e4,
        # dynamic-warp (0.4 ns) at 1e6, and bound (0.3 ns) is never ranked.
        self.assertEqual(len(rows), 12)
        self.assertTrue(all("| static-full |" in r for r in rows if "10,000 electrons" in r))
        self.assertTrue(all("| dynamic-warp |" in r for r in rows if "1,000,000" in r))
        self.assertFalse(any("| bound |" in r for r in rows))
        self.assertIn("static-full in 6, dynamic-warp in 6", section)
        self.assertRegex(rows[0], r"\| 8\d% \|$")


class MemorySection(unittest.TestCase):
    """Slots per live particle and the memory line, from the points that carry them."""

    @staticmethod
    def point(label, scheduler, median, peak, live, record_bytes, steps, counters):
        return {"label": label, "status": "ok", "config": {"scheduler": scheduler},
                "stats": {"median_ms": median},
                "counts": {"peak": peak, "peak_live": live, "record_bytes": record_bytes,
                           "particle_steps": steps},
                "counters": counters}

    def test_rows_come_from_the_points_and_older_results_are_named(self):
        results.use_catalog(JOBS / "toy-steps.json")  # bound is the catalog's yardstick
        new = {"job": {"name": "new"}, "points": [
            self.point("a", "dynamic-warp", 10.0, 300, 100, 4000, 1000,
                       {"memory_line_ms": 2.5, "memory_efficiency": 0.25, "efficiency": 0.5}),
            self.point("b", "naive", 20.0, 200, 100, 4000, 1000,
                       {"memory_line_ms": 2.5, "memory_efficiency": 0.125}),
            self.point("c", "cpu-serial", 5.0, 200, 100, 4000, 1000, {}),
            self.point("d", "bound", 4.0, 100, 100, 0, 1000, {}),
            self.point("e", "dynamic-warp", 1.0, 100, 100, 400, 100,
                       {"memory_line_ms": 0.25, "memory_efficiency": 0.25})]}
        old = {"job": {"name": "old"}, "points": [
            {"label": "x", "status": "ok", "config": {"scheduler": "naive"},
             "stats": {"median_ms": 1.0}, "counts": {"peak": 5}, "counters": {}}]}
        text = "\n".join(make_report.memory_section([new, old]))
        row = next(line for line in text.splitlines() if line.startswith("| new |"))
        # slots per live 1 to 3 and 4 B per step over the scheduler points (bound's are left
        # out); the fastest GPU point of the largest workload (1000 steps: e's is smaller) is a
        # (cpu-serial is no GPU point), at a quarter of its memory line and half of bound.
        self.assertEqual(row, "| new | 1–3 | 4 | `a` | 10 ms | 2.5 ms | 25% | 50% |")
        self.assertIn("before runs reported these: `old`", text)


class Agreement(unittest.TestCase):
    """The report says whether the schedulers agree on counts and digest; bound is no sim."""

    def sentence(self, points):
        figure = results.build(importlib.import_module("fig_toy_steps").figures,
                               results.load_job(JOBS / "toy-steps.json"))[-1]
        figure.points = points
        return make_report.describe_shared(figure, "final")

    def point(self, scheduler, final, digest):
        return {"config": {"scheduler": scheduler, "steps": 100}, "status": "ok",
                "counts": {"final": final}, "digest": digest}

    def test_bound_is_left_out_and_a_different_digest_is_reported(self):
        agreeing = [self.point("cpu-sync", 10, "0x1"), self.point("dynamic-warp", 10, "0x1"),
                    self.point("bound", 3, "0x9")]
        self.assertIn("every scheduler reports the same", self.sentence(agreeing))
        differing = agreeing + [self.point("naive", 10, "0x2")]
        self.assertIn("DISAGREE at 1 steps value", self.sentence(differing))


def job_results(points):
    """A schedbench.job/1 document of `points`: (scheduler, policy, block size, repetitions)."""
    def record(scheduler, policy, block, reps):
        config = {"sim": "mvp", "scheduler": scheduler, "init_n": 1000, "steps": 100,
                  "block_size": block}
        if policy:
            config["policy"] = policy
        return {"config": config, "status": "ok", "repetitions_ms": reps,
                "counts": {"final": 1500, "spawned": 500, "removed": 0, "particle_steps": 10**8},
                "parts_ms": {}}
    return {"schema": "schedbench.job/1", "job": {"name": "tiny"},
            "environment": {"device": {"name": "Fixture GPU"}, "build": {"git_commit": "abc"}},
            "points": [record(*p) for p in points]}


class SchedulerTable(unittest.TestCase):
    def load(self, doc):
        """scheduler_table.summary of `doc` written to a file, by scheduler."""
        import scheduler_table
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "tiny.json"
            path.write_text(json.dumps(doc))
            shutil.copy(JOBS / "catalog.json", tmp)
            times, _, steps = scheduler_table.load_points([path])
        workload, bound, rows = scheduler_table.summary(times, steps)
        return workload, bound, {r["scheduler"]: r for r in rows}

    def test_summarises_a_job_results_file(self):
        workload, bound, rows = self.load(job_results([
            ("bound", None, 128, [10.0, 11.0, 12.0]), ("bound", None, 256, [8.0, 9.0, 30.0]),
            ("dynamic-warp", None, 128, [20.0, 18.0, 22.0]),
            ("dynamic-warp", None, 256, [16.0, 17.0, 90.0]),
            ("dynamic-warp", "steps-16", 128, [12.0, 12.0, 12.0])]))
        self.assertEqual(workload, "tiny")
        self.assertEqual(bound, 9.0)  # the bound's best median over the block sizes
        self.assertEqual(set(rows), {"bound", "dynamic-warp", "dynamic-warp:steps-16"})
        warp = rows["dynamic-warp"]
        self.assertEqual((warp["best_block"], warp["ms_best"], warp["ms_128"]), (256, 17.0, 20.0))
        self.assertAlmostEqual(warp["eff_best"], 9.0 / 17.0)
        self.assertAlmostEqual(warp["eff_same_block"], 9.0 / 17.0)
        self.assertAlmostEqual(warp["gsteps_best"], 10**8 / 17e-3 / 1e9)
        self.assertEqual(rows["dynamic-warp:steps-16"]["blocks"], [128])

    def test_the_yardstick_comes_from_the_catalog(self):
        """With a catalog in which bound is an ordinary GPU scheduler there is no efficiency."""
        import scheduler_table
        doc = job_results([("bound", None, 128, [10.0]), ("dynamic-warp", None, 128, [20.0])])
        catalog = json.loads((JOBS / "catalog.json").read_text())
        for e in catalog["schedulers"]:
            if e["name"] == "bound":
                e["kind"] = "gpu"
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "tiny.json"
            path.write_text(json.dumps(doc))
            (pathlib.Path(tmp) / "catalog.json").write_text(json.dumps(catalog))
            times, _, steps = scheduler_table.load_points([path])
        _, bound, rows = scheduler_table.summary(times, steps)
        self.assertIsNone(bound)
        self.assertIsNone(rows[1]["eff_best"])

    def test_leaves_out_failed_points(self):
        import scheduler_table
        times, _, _ = scheduler_table.load_points([JOBS / "pic-block-size.json"])
        doc = json.loads((JOBS / "pic-block-size.json").read_text())
        failed = [p["config"] for p in doc["points"] if p["status"] != "ok"]
        self.assertTrue(failed)
        for c in failed:
            self.assertNotIn(("pic-block-size", c["scheduler"], c["block_size"]), times)

    def test_refuses_points_of_several_workloads(self):
        doc = job_results([("bound", None, 128, [10.0]), ("dynamic-warp", None, 128, [20.0])])
        doc["points"][1]["config"]["init_n"] = 2000
        with self.assertRaises(SystemExit) as raised:
            self.load(doc)
        self.assertIn("differ in init_n", str(raised.exception))

    def test_summarises_the_committed_google_benchmark_files(self):
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


if __name__ == "__main__":
    unittest.main()
