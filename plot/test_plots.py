"""The figure scripts, make_figures and the report generator, run on the fixtures in
plot/fixtures/jobs (synthetic job results, one per figure family; make_fixtures.py writes them).
Every fixture's last point is a failed one."""

import contextlib
import importlib
import io
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from make_figures import make_figures
from schedbench_results import figures as results
from schedbench_results import generic
from schedbench_results import report as make_report
from schedbench_results.errors import InputError

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = pathlib.Path(__file__).parent / "fixtures"
JOBS = FIXTURES / "jobs"
FAMILIES = pathlib.Path(results.__file__).parent / "families"


def makefile_jobs():
    """The jobs `make figures` draws (FIGURE_JOBS, MERGED_FIGURES, then LARGE_HOST_FIGURES in the
    Makefile)."""
    text = (ROOT / "Makefile").read_text()
    blocks = [re.search(rf"^{name} :=((?:.*\\\n)*.*)$", text, re.M).group(1)
              for name in ("FIGURE_JOBS", "MERGED_FIGURES", "LARGE_HOST_FIGURES")]
    return " ".join(blocks).replace("\\\n", " ").split()


def fixture_paths(job):
    """The fixture results files figure job `job` reads: its own, or its parts'."""
    return [JOBS / f"{part}.json" for part in results.parts(job)]


def quietly(fn, *args):
    """fn(*args) and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn(*args)
    return value, out.getvalue()


class EveryFamily(unittest.TestCase):
    def test_each_makefile_job_has_a_script_and_a_fixture(self):
        scripts = {p.stem for p in FAMILIES.glob("fig_*.py")}
        jobs = makefile_jobs()
        self.assertEqual(scripts, {results.module_name(j) for j in jobs})
        for job in jobs:
            for path in fixture_paths(job):
                self.assertTrue(path.exists(), path)
            self.assertEqual(results.family(job).JOB, job)

    def test_each_script_renders_png_and_pdf_without_the_failed_point(self):
        for job in makefile_jobs() + ["demo"]:
            module = (importlib.import_module("plot_demo") if job == "demo"
                      else results.family(job))
            paths = [JOBS / "demo.json"] if job == "demo" else fixture_paths(job)
            with self.subTest(job=job), tempfile.TemporaryDirectory() as tmp:
                figures, printed = quietly(results.draw_job,
                                           module.figures,
                                           results.load_parts(job, paths) if job != "demo"
                                           else results.load_job(paths[0]), tmp)
                self.assertTrue(figures)
                failed = results.load_job(paths[-1])["points"][-1]
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
        module = results.family(job)
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
            results.family("toy-block-size").figures, job)}
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
        quiet, busy = results.build(results.family("table-3.2-compaction").figures,
                                    job)
        self.assertEqual(quiet.name, "table3.2_compaction_mobility_steps-1")
        self.assertEqual({p["config"].get("collision_chance") for p in busy.points}, {20})
        table = results.markdown_table(quiet)
        for variant in ("simple", "block", "warp"):
            self.assertIn(f"| cpu-sync (compaction {variant}) |", table)
        self.assertIn("block_size 1024", table)

    def test_turnover_leaves_the_table_points_out_and_draws_mobility(self):
        job = results.load_job(JOBS / "pic-turnover.json")
        (turnover,) = results.build(results.family("pic-turnover").figures, job)
        self.assertEqual({p["config"]["collision_chance"] for p in turnover.points},
                         {0, 0.5, 1, 2, 4.55, 9})
        self.assertEqual(turnover.panels[0].quantities, ("mobility",))
        series = set(results.series(turnover))
        self.assertIn("bound (block_size 32)", series)

    def test_refuses_another_schema(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "old.json")
            path.write_text(json.dumps({"schema": "schedbench.run/1"}))
            with self.assertRaises(InputError):
                results.load_job(path)

    def test_names_and_labels_come_from_the_catalog_beside_the_results(self):
        job = JOBS / "toy-block-size.json"
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(job, tmp)
            # No catalog beside the results and no tool to ask for its own.
            with self.assertRaises(InputError) as missing, \
                    mock.patch.dict(os.environ, SCHEDBENCH=str(pathlib.Path(tmp, "absent"))):
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
        (cls.results / "many-gpus-air-1e8.json").unlink()
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
        # A figure of several jobs' results draws those that exist.
        self.assertIn("many-gpus-air-1e8.json is missing; many-gpus's figures leave it out",
                      self.printed)
        (figure,) = self.made["many-gpus"]
        self.assertNotIn("air at 1e5", "\n".join(figure.text))
        self.assertIn("air, space charge, 32^3 mesh at 2e4", "\n".join(figure.text))

    def report(self, jobs=()):
        """REPORT.md of the fixtures (less warp-sync's file) for `jobs`, and what it printed."""
        out = pathlib.Path(tempfile.mkdtemp(dir=self.tmp))
        (md, _), printed = quietly(make_report.write_report, self.results, out, jobs)
        return md.read_text(), printed

    def test_writes_markdown_and_html_referencing_every_figure(self):
        (md, html), printed = quietly(make_report.write_report, self.results,
                                      self.tmp / "report", self.jobs)
        self.assertIn("warp-sync.json is missing", printed)
        text, page = md.read_text(), html.read_text()
        for figures in self.made.values():
            for f in figures:
                self.assertIn(f"](figures/{f.name}.png)", text)
                self.assertIn(f'src="figures/{f.name}.png"', page)
                self.assertTrue((self.tmp / "report/figures" / f"{f.name}.png").exists())
                self.assertIn(f.caption, text)
        self.assertIn("Fixture GPU", text)
        self.assertIn("f1x7ure0000000000000000000000000000000000", text)
        self.assertIn("580.00.00", text)
        self.assertIn("`warp-sync`", text.split("## Not measured yet")[1])
        self.assertIn("`many-gpus-air-1e8`", text.split("## Not measured yet")[1])
        self.assertIn("<table>", page)
        # The merged figure's section: its title, a row per job read in the table of where.
        section = text.split("\n## Many GPUs\n")[1].split("\n## ")[0]
        self.assertIn("Every rank count gave the one-GPU run's digest", section)
        self.assertIn("| workload | GPUs | particles | strong efficiency |", section)
        self.assertIn("| many-gpus-pic | Fixture GPU |", text)

    def test_the_table_of_contents_links_every_heading_in_both_pages(self):
        (md, html), _ = quietly(make_report.write_report, self.results, self.tmp / "toc",
                                ["toy-steps", "mvp"])
        text, page = md.read_text(), html.read_text()
        contents = text.split("## Contents\n")[1].split("\n## ")[0]
        links = re.findall(r"\]\(#([^)]+)\)", contents)
        headings = re.findall(r"^#{2,3} (.+)$", text.split("## Contents\n")[1], re.M)
        self.assertEqual(len(links), len(headings))
        self.assertEqual(len(set(links)), len(links))
        for anchor in links:
            self.assertIn(f'id="{anchor}"', page)
        self.assertIn("(#best-scheduler-per-regime)", contents)

    def test_a_folder_that_gives_no_report_is_refused_and_nothing_written(self):
        empty, notes = self.tmp / "empty", self.tmp / "notes"
        empty.mkdir()
        notes.mkdir()
        shutil.copy(JOBS / "catalog.json", notes)
        (notes / "log.json").write_text(json.dumps({"schema": "schedbench.run/1"}))
        for folder, jobs, why in ((empty, self.jobs, "holds no job results files"),
                                  (notes, [], "holds no job results files"),
                                  (self.tmp / "absent", [], "is not a folder"),
                                  (self.results, ["no-such-job"], "none of the 1 jobs")):
            out = self.tmp / "existing"
            out.mkdir(exist_ok=True)
            (out / "REPORT.md").write_text("the report before")
            with self.subTest(folder=folder.name):
                done = subprocess.run([sys.executable, "-m", "schedbench_results.report",
                                       str(folder), "--out", str(out), *jobs],
                                      capture_output=True, text=True, check=False)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
                self.assertIn(str(folder), done.stderr)
                self.assertIn(why, done.stderr)
                self.assertIn("accepted: a folder of job results files", done.stderr)
                self.assertEqual(sorted(p.name for p in out.iterdir()), ["REPORT.md"])
                self.assertEqual((out / "REPORT.md").read_text(), "the report before")

    def test_every_job_in_a_folder_including_ones_own(self):
        folder = self.tmp / "mine"
        folder.mkdir()
        shutil.copy(JOBS / "catalog.json", folder)
        shutil.copy(JOBS / "toy-steps.json", folder)
        # A job of the user's own: the demo's results under another name, no family module.
        doc = json.loads((JOBS / "demo.json").read_text())
        doc["job"]["name"] = "my-sweep"
        (folder / "my-sweep.json").write_text(json.dumps(doc))
        out = self.tmp / "mine-report"
        done = subprocess.run([sys.executable, "-m", "schedbench_results.report", str(folder),
                               "--out", str(out)], capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        text = (out / "REPORT.md").read_text()
        self.assertIn("## my-sweep", text)
        self.assertIn("](figures/my-sweep_init_n.png)", text)
        self.assertTrue((out / "figures/my-sweep_init_n.png").exists())
        self.assertTrue((out / "REPORT.html").exists())
        self.assertLess(text.index("## Contents"), text.index("## Where and at which commit"))

    def test_best_table_names_the_fastest_from_the_data(self):
        text, _ = self.report(["toy-steps"])
        row = next(line for line in text.splitlines() if line.startswith("| toy, time steps |"))
        # Fixture toy-steps at 20,000 steps: cpu-sync (0.5 ns/step) beats huge-iterate; the
        # dynamic-block point there is the failed one. The ratio comes with its interval.
        self.assertRegex(row, r"\| steps 20,000 \| cpu-sync \| [\d.,]+ ms \| huge-iterate \| "
                              r"[\d.,]+ ms \| [\d.]+× \[[\d.]+×, [\d.]+×\]")
        self.assertIn("The lead changes 1 time(s) along steps", text)

    def test_choosing_a_scheduler_ranks_every_air_workload(self):
        text, _ = self.report(["air-reduced-field"])
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
        self.assertRegex(rows[0], r"\| 8\d% \[8\d%, \d\d%\] \|$")


def drawn_axes(figure, panel=0):
    """The matplotlib axes of one panel of `figure`, drawn off screen."""
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    results.draw_panel(ax, figure, figure.panels[panel])
    return ax


class Drawing(unittest.TestCase):
    """What every figure shows: spread, readable scales, each scheduler's colour."""

    def figures(self, job):
        return results.build(results.family(job).figures, results.load_job(JOBS / f"{job}.json"))

    def test_every_line_has_error_bars_from_its_repetitions(self):
        from matplotlib.container import ErrorbarContainer

        figure = self.figures("toy-steps")[0]
        ax = drawn_axes(figure)
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        self.assertEqual(len(bars), len(results.series(figure)))
        point = results.series(figure)[bars[0].get_label()][0]
        self.assertEqual(results.spread(point, "time"),
                         (point["stats"]["min_ms"], point["stats"]["max_ms"]))
        low, high = results.spread(point, "steps_per_s")
        self.assertLess(low, results.value(point, "steps_per_s"))
        self.assertGreater(high, results.value(point, "steps_per_s"))

    def test_a_slow_scheduler_turns_the_y_axis_logarithmic(self):
        figure = self.figures("toy-steps")[0]
        ys = [results.value(p, "time") for p in figure.points]
        self.assertEqual(results.needs_log_y(figure, figure.panels[0]),
                         max(ys) / min(ys) > results.LINEAR_Y_SPAN)
        fast = [p for p in figure.points if results.value(p, "time") <= 2 * min(ys)]
        figure.points = fast
        self.assertFalse(results.needs_log_y(figure, figure.panels[0]))
        self.assertEqual(drawn_axes(figure).get_yscale(), "linear")
        slow = {k: 100 * v for k, v in fast[0]["stats"].items() if k.endswith("_ms")}
        figure.points = fast + [dict(fast[0], stats=slow)]
        self.assertEqual(drawn_axes(figure).get_yscale(), "log")

    def test_bars_take_their_schedulers_colour(self):
        from matplotlib.colors import to_rgba

        quiet = self.figures("table-3.2-compaction")[0]
        ax = drawn_axes(quiet)
        for bar in ax.patches:
            self.assertEqual(bar.get_facecolor(), to_rgba(results.colour("cpu-sync")))

    def test_the_demo_reads_on_the_cpu_fallback(self):
        import plot_demo

        job = results.load_job(JOBS / "demo.json")
        (figure,) = plot_demo.figures(job)
        self.assertIn("CPU fallback", figure.title)
        self.assertEqual(set(results.series(figure)), {"cpu-serial", "cpu-openmp"})
        for panel in range(2):
            ax = drawn_axes(figure, panel)
            self.assertEqual(len(ax.containers), 2)  # an error bar set per engine
            self.assertEqual(ax.get_legend_handles_labels()[1], ["cpu-serial", "cpu-openmp"])


def my_sweep(folder, noisy=(), axes=None):
    """The demo fixture as a job of one's own (no family module), `my-sweep.json` in `folder`:
    the points at `noisy` marked noisy, its job spec's axes `axes`. Returns its path."""
    doc = json.loads((JOBS / "demo.json").read_text())
    doc["job"]["name"] = "my-sweep"
    doc["job"]["spec"] = {"axes": axes} if axes else {}
    for i in noisy:
        doc["points"][i]["noisy"] = True
    path = pathlib.Path(folder, "my-sweep.json")
    path.write_text(json.dumps(doc))
    return path


class OwnJobs(unittest.TestCase):
    """The generic figures and the report's text of a job of one's own."""

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        shutil.copy(JOBS / "catalog.json", self.tmp)

    def generic_figure(self, **options):
        job = results.load_job(my_sweep(self.tmp, **options))
        (figure,) = results.build(generic.figures, job)
        return figure

    def test_an_axis_the_job_writes_as_a_log_range_is_drawn_log(self):
        # init_n 1e3 to 1e5 spans two decades exactly: linear by the values alone.
        self.assertEqual(self.generic_figure().xscale, "linear")
        log = {"init_n": {"log": [1000, 100000], "points": 3}, "steps": 1000}
        figure = self.generic_figure(axes=log)
        self.assertEqual(figure.xscale, "log")
        self.assertEqual(drawn_axes(figure).get_xscale(), "log")
        linear = [{"init_n": {"linear": [1000, 100000], "step": 49500}}]
        self.assertEqual(self.generic_figure(axes=linear).xscale, "linear")

    def test_noisy_points_are_ringed_and_counted(self):
        from matplotlib.collections import PathCollection

        figure = self.generic_figure(noisy=(0, 4))
        ax = drawn_axes(figure)
        self.assertEqual(ax.get_legend_handles_labels()[1].count(results.NOISY_LABEL), 1)
        rings = [c for c in ax.collections if isinstance(c, PathCollection)]
        ringed = sorted(tuple(xy) for c in rings for xy in c.get_offsets())
        points = results.load_job(self.tmp / "my-sweep.json")["points"]
        self.assertEqual(ringed, sorted((p["config"]["init_n"], p["stats"]["median_ms"])
                                        for p in (points[0], points[4])))
        out = self.tmp / "report"
        quietly(make_report.write_report, self.tmp, out)
        text = (out / "REPORT.md").read_text()
        self.assertIn("The results file marks 2 of the 5 finished points noisy", text)
        self.assertIn("2 of its 5 points are noisy by their results file", text)

    def test_file_names_write_switches_as_the_job_files_do(self):
        self.assertEqual(results.context_slug({"skip_spawned": False, "init_n": 10000,
                                               "split_chance": 0.05, "layout": "column"}),
                         "skip_spawned-false_init_n-10000_split_chance-0.05_layout-column")

    def test_without_a_catalog_the_report_reads_the_tools(self):
        (self.tmp / "catalog.json").unlink()
        my_sweep(self.tmp)
        tool = self.tmp / "fake-schedbench"
        tool.write_text(f"#!/bin/sh\n[ \"$*\" = \"list --json\" ] && exec cat "
                        f"'{JOBS / 'catalog.json'}'\nexit 9\n")
        tool.chmod(0o755)
        for schedbench, code in ((tool, 0), (self.tmp / "absent", 2)):
            with self.subTest(schedbench=schedbench.name):
                done = subprocess.run(
                    [sys.executable, "-m", "schedbench_results.report", str(self.tmp), "--out",
                     str(self.tmp / f"out-{schedbench.name}")], capture_output=True, text=True,
                    check=False, env=dict(os.environ, SCHEDBENCH=str(schedbench)))
                self.assertEqual(done.returncode, code, done.stderr)
                self.assertEqual((self.tmp / f"out-{schedbench.name}" / "REPORT.md").exists(),
                                 code == 0)
        self.assertIn("catalog.json: missing", done.stderr)
        self.assertIn("absent list --json` did not run", done.stderr)


class MemorySection(unittest.TestCase):
    """Slots per live particle and the memory line, from the points that carry them."""

    @staticmethod
    def point(label, scheduler, median, peak, live, record_bytes, steps, counters):
        return {"label": label, "status": "ok", "config": {"scheduler": scheduler},
                "stats": {"median_ms": median, "median_lo_ms": 0.9 * median,
                          "median_hi_ms": 1.2 * median},
                "repetitions_ms": [0.9 * median, median, 1.2 * median],
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
        # (cpu-serial is no GPU point), at a quarter of its memory line and half of bound: the
        # line's interval from the one the file records for the median (0.9 to 1.2 times it),
        # bound's from the repetitions 0.9, 1 and 1.2 times the median: [3.6 / 12, 4.8 / 9]
        # scaled by the counter (0.5) over the medians' ratio (0.4).
        self.assertEqual(row, "| new | 1–3 | 4 | `a` | 10 ms | 2.5 ms | 25% [21%, 28%] | "
                              "50% [37%, 67%] |")
        self.assertIn("before runs reported these: `old`", text)


class Agreement(unittest.TestCase):
    """The report says whether the schedulers agree on counts and digest; bound is no sim."""

    def sentence(self, points):
        figure = results.build(results.family("toy-steps").figures,
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


class ManyGpus(unittest.TestCase):
    """Strong and weak efficiency over GPU counts; the digest every rank count must share."""

    @staticmethod
    def point(init_n, ranks, median, low, high, digest, sim="mvp", **record):
        config = {"sim": sim, "scheduler": "dynamic-warp", "steps": 100, "init_n": init_n,
                  "ranks": ranks, "capacity": 10**6 * ranks}
        config.update(record.pop("config", {}))
        return dict({"label": f"{sim}__init_n-{init_n}__ranks-{ranks}", "status": "ok",
                     "config": config, "ranks": ranks, "digest": digest,
                     "stats": {"median_ms": median, "min_ms": low, "max_ms": high}}, **record)

    def job(self, points):
        results.use_catalog(JOBS / "toy-steps.json")  # capacity is bookkeeping: no new workload
        return {"job": {"name": "many-gpus"}, "points": points,
                "environment": {"device": {"name": "Fixture GPU"}}}

    def points(self):
        """mvp on 1 rank at 100, 200 and 400, on 2 ranks at 200, on 4 at 400."""
        return [self.point(100, 1, 10.0, 9.5, 10.5, "0xa"),
                self.point(200, 1, 19.0, 19.0, 19.0, "0xb"),
                self.point(200, 2, 10.0, 10.0, 10.0, "0xb", moved_bytes=4_000_000,
                           reduced_bytes=0, reduce_ms=0.0,
                           imbalance={"before": 1.25, "after": 1.01}),
                self.point(400, 1, 40.0, 40.0, 40.0, "0xc"),
                self.point(400, 4, 12.5, 12.5, 12.5, "0xc")]

    def test_strong_and_weak_efficiency_on_each_gpu_count(self):
        from schedbench_results.families import fig_many_gpus
        rows = {s.ranks: s for s in fig_many_gpus.scalings(self.job(self.points())["points"])}
        self.assertEqual(set(rows), {2, 4})
        expected = {(2, "strong"): (19 / 20, 19 / 20, 19 / 20),  # t(1, 200) / (2 t(2, 200))
                    (2, "weak"): (1.0, 9.5 / 10, 10.5 / 10),  # t(1, 100) / t(2, 200)
                    (4, "strong"): (0.8, 0.8, 0.8),  # t(1, 400) / (4 t(4, 400))
                    (4, "weak"): (0.8, 9.5 / 12.5, 10.5 / 12.5)}  # t(1, 100) / t(4, 400)
        for (count, kind), want in expected.items():
            for got, value in zip(rows[count].efficiency(kind), want):
                self.assertAlmostEqual(got, value, msg=(count, kind))

    def test_the_report_text_has_the_tables(self):
        from schedbench_results.families import fig_many_gpus
        (figure,) = fig_many_gpus.figures(self.job(self.points()))
        text = "\n".join(figure.text)
        self.assertIn("| mvp at 4e2 | 4 | 400 | 0.800 (0.800–0.800) | 100 | "
                      "0.800 (0.760–0.840) |", text)
        self.assertIn("| 2 | 200 | 19 ms | 10 ms | 0.950 (0.950–0.950) | 10 ms | 1.000 "
                      "(0.950–1.050) | 0 | 0 ms | 4 MB | 1.250 → 1.010 |", text)
        self.assertIn("reduced per run", text)  # mvp: the boundaries are not recorded
        self.assertIn("Strong efficiency ranges from 0.800 (mvp at 4e2, 4 GPUs) to 0.950", text)
        self.assertIn("2 pairs of workload and initial population", text)

    def test_reductions_are_per_phase_where_the_sim_says_how_many(self):
        from schedbench_results.families import fig_many_gpus
        pic = {"poisson_steps": 10, "mobility_steps": 100}
        points = [self.point(200, 1, 19.0, 19.0, 19.0, "0xb", sim="pic", config=pic),
                  self.point(200, 2, 10.0, 10.0, 10.0, "0xb", sim="pic", config=pic,
                             reduced_bytes=20_000_000, reduce_ms=5.0)]
        text = "\n".join(fig_many_gpus.figures(self.job(points))[0].text)
        self.assertIn("reduced per phase", text)
        self.assertIn("| 2 MB | 0.5 ms |", text)

    def test_a_digest_that_differs_between_rank_counts_is_refused(self):
        from schedbench_results.families import fig_many_gpus
        points = self.points()
        points[4]["digest"] = "0xd"
        with self.assertRaises(InputError) as raised:
            fig_many_gpus.figures(self.job(points))
        message = str(raised.exception)
        self.assertIn("digests differ across rank counts", message)
        self.assertIn("init_n 400", message)
        self.assertIn("mvp__init_n-400__ranks-4 (ranks 4): 0xd", message)

    def test_the_fixtures_agree_and_draw(self):
        from schedbench_results.families import fig_many_gpus
        job = results.load_parts("many-gpus", fixture_paths("many-gpus"))
        self.assertEqual(len(job["parts"]), 5)
        self.assertEqual(fig_many_gpus.check_digests(results.ok_points(job)), 7)
        with tempfile.TemporaryDirectory() as tmp:
            (figure,), _ = quietly(results.draw_job, fig_many_gpus.figures, job, tmp)
            written = pathlib.Path(tmp, f"{figure.name}.md").read_text()
        self.assertEqual(written, "\n".join(figure.text) + "\n")
        # The hot spot loses 30 % per rank added in the fixture: 2 / (2 · 1.3).
        self.assertIn("| toy, column layout, phases of 200 steps at 1e3 | 2 | 1000 | 0.769",
                      written)


def job_results(points):
    """A schedbench.job/1 document of `points`: (scheduler, policy, block size, repetitions)."""
    def record(scheduler, policy, block, reps):
        config = {"sim": "mvp", "scheduler": scheduler, "init_n": 1000, "steps": 100,
                  "block_size": block}
        if policy:
            config["policy"] = policy
        stats = {"median_ms": statistics.median(reps), "mean_ms": statistics.mean(reps),
                 "stddev_ms": statistics.pstdev(reps), "min_ms": min(reps), "max_ms": max(reps)}
        stats["cv"] = stats["stddev_ms"] / stats["mean_ms"]
        return {"config": config, "status": "ok", "repetitions_ms": reps, "stats": stats,
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
        (workload,) = scheduler_table.workloads(times)
        workload, bound, rows = scheduler_table.summary(times, steps, workload)
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
        _, bound, rows = scheduler_table.summary(times, steps, "tiny")
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

    def test_a_table_per_workload_of_a_file_of_several(self):
        import scheduler_table
        doc = job_results([("bound", None, 128, [10.0]), ("dynamic-warp", None, 128, [20.0]),
                           ("bound", None, 128, [40.0]), ("dynamic-warp", None, 128, [60.0])])
        for p in doc["points"][2:]:
            p["config"]["init_n"] = 2000
        doc["points"][0]["config"]["capacity"] = 10**6  # bookkeeping: not another workload
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "tiny.json"
            path.write_text(json.dumps(doc))
            shutil.copy(JOBS / "catalog.json", tmp)
            times, context, steps = scheduler_table.load_points([path])
        names = scheduler_table.workloads(times)
        self.assertEqual(names, ["tiny (init_n 1000)", "tiny (init_n 2000)"])
        tables = [scheduler_table.markdown(*scheduler_table.summary(times, steps, w), context)
                  for w in names]
        self.assertTrue(tables[0].startswith("tiny (init_n 1000) on Fixture GPU"))
        self.assertIn("best bound time (10.0 ms)", tables[0])
        self.assertIn("best bound time (40.0 ms)", tables[1])
        self.assertIn("| dynamic-warp | 60.0 |", tables[1])

    def test_summarises_the_committed_google_benchmark_files(self):
        import scheduler_table
        times, context, steps = scheduler_table.load_points(
            [FIXTURES / "gbench" / "mvp-block-size.json"])
        (workload,) = scheduler_table.workloads(times)
        workload, bound, rows = scheduler_table.summary(times, steps, workload)
        self.assertEqual(workload, "mvp-block-size")
        by_name = {r["scheduler"]: r for r in rows}
        self.assertEqual(set(by_name), {"bound", "cpu-sync", "dynamic-warp"})
        self.assertAlmostEqual(by_name["bound"]["eff_best"], 1.0)
        self.assertLess(by_name["dynamic-warp"]["eff_best"], 1.0)
        table = scheduler_table.markdown(workload, bound, rows, context)
        self.assertIn("| cpu-sync |", table)


if __name__ == "__main__":
    unittest.main()
