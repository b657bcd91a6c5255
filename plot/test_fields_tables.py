"""fields_tables on a synthetic bench_fields results file: the three tables of
docs/performance.md, failed points as "-", and another program's results refused."""

import json
import pathlib
import tempfile
import unittest

import fields_tables


def point(config, median, status="ok"):
    p = {"config": config, "status": status}
    if status == "ok":
        p["stats"] = {"median_ms": median}
    return p


def results(points, program="bench_fields"):
    return {"schema": "schedbench.job/1",
            "job": {"name": "fields-kernels", "spec": {"program": program}},
            "environment": {"device": {"name": "GPU X"}, "build": {"git_commit": "0123456789abcdef"}},
            "points": points}


POINTS = [
    point({"kernel": "deposit-atomic", "grid": 16, "cloud": "uniform", "particles": 1000000}, 0.16),
    point({"kernel": "deposit-sorted", "grid": 16, "cloud": "uniform", "particles": 1000000}, 0.145),
    point({"kernel": "deposit-atomic", "grid": 16, "cloud": "clustered", "particles": 1000000}, 0.976),
    point({"kernel": "deposit-sorted", "grid": 16, "cloud": "clustered", "particles": 1000000}, 0,
          status="failed"),
    point({"kernel": "solve-cufft", "grid": 256, "boundary": "open"}, 6.256),
    point({"kernel": "solve-fftw", "grid": 256, "boundary": "open"}, 5602.034),
    point({"kernel": "solve-cufft", "grid": 512, "boundary": "periodic"}, 5.466),
    point({"kernel": "field", "grid": 64}, 0.028),
    point({"kernel": "gather", "grid": 64, "cloud": "uniform", "particles": 1000000}, 0.193),
]


class FieldsTables(unittest.TestCase):
    def tables(self, doc):
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "r.json"
            path.write_text(json.dumps(doc))
            return fields_tables.markdown(str(path)).splitlines()

    def test_prints_the_three_tables_of_the_medians(self):
        lines = self.tables(results(POINTS))
        self.assertEqual(lines[0], "fields-kernels on GPU X, commit 0123456789ab; medians, ms")
        self.assertIn("| 16\u00b3 | 244 | 0.160 | 0.145 | 0.976 | - |", lines)
        self.assertIn("| 256\u00b3 | open | 6.26 | 5602 | 895 |", lines)
        self.assertIn("| 512\u00b3 | periodic | 5.47 | - | - |", lines)
        self.assertNotIn("| 256\u00b3 | periodic", "\n".join(lines))
        self.assertIn("| 64\u00b3 | 0.0280 | 0.193 |", lines)

    def test_refuses_a_sweeps_results(self):
        with self.assertRaises(SystemExit) as e:
            self.tables(results(POINTS, program=None))
        self.assertIn("not a results file of bench_fields", str(e.exception))


if __name__ == "__main__":
    unittest.main()
