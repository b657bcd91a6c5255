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


if __name__ == "__main__":
    unittest.main()
