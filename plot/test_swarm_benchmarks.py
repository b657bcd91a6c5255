"""sim air on the electron-swarm benchmark model gases (data/swarm/) against the reference
values of data/swarm/benchmarks.json, at the `ci` run sizes, as plot/swarm_benchmarks.py runs
them with cpu-openmp (every case has a reference value; the time of the whole set is in
docs/physics.md, "Swarm benchmarks"). Asserted, for every quantity a case's `ci` size compares:

- ours against each reference (each published code, our run of pyMETHES, an analytic value),
  in combined standard errors: every comparison is printed and counted against two of them; at
  most 10 % may lie outside two (chance leaves 4.6 % of normal deviates there, and the errors
  are themselves estimates), and none outside three. A published value without an error of its
  own has the spread of the codes that give it (data/swarm/README.md, "Published values"). A
  published value that is the odd one among the codes is marked `outlier` in benchmarks.json
  by the rule there, which Definitions checks; it is printed with its distance from ours, not
  asserted;
- where two or more references not so marked agree among themselves within 0.5 % (or an
  analytic value gives the quantity), ours within 0.5 % of their mean, asserted when the comparison is precise enough
  to tell (two combined standard errors, ours with the mean's, below 0.5 %; otherwise printed as
  not asserted, since a comparison that cannot resolve 0.5 % would pass or fail it by chance).

The definitions are checked without the binary: the analytic references against their
formulas, the published values' errors and outlier markings against their rule, the gas files
against data/swarm/make_gases.py, each case's gas file, species, sizes and sources."""

import copy
import math
import pathlib
import re
import subprocess
import sys
import unittest

import swarm_benchmarks as sb

TWO_ERRORS = 2
OUTSIDE_TWO = 0.1  # the fraction of comparisons allowed outside two combined errors
FAR = 3  # combined errors: no comparison may lie farther
AGREE = 0.005


def species_in(path):
    """The species of every collision block of an LXCat file (the line after its keyword)."""
    lines = pathlib.Path(path).read_text().splitlines()
    keywords = {"ELASTIC", "EFFECTIVE", "MOMENTUM", "EXCITATION", "IONIZATION", "ATTACHMENT"}
    return {re.split(r"<?->", lines[k + 1])[0].strip()
            for k, line in enumerate(lines[:-1]) if line.strip() in keywords}


class Definitions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.benchmarks = sb.load_benchmarks()

    def test_an_unknown_case_is_refused_in_one_line_before_anything_runs(self):
        done = subprocess.run([sys.executable, str(sb.ROOT / "plot" / "swarm_benchmarks.py"),
                               "--case", "no-such-gas-1Td", "--schedbench", "/nonexistent"],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2, done.stderr)
        lines = done.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("no-such-gas-1Td", lines[0])
        self.assertIn("accepted: ", lines[0])
        self.assertIn("reid-ramp-12Td", lines[0])

    def test_the_docs_tables_are_those_of_the_full_results(self):
        done = subprocess.run([sys.executable, str(sb.ROOT / "plot" / "swarm_doc_tables.py"),
                               str(sb.ROOT / "results" / "swarm-benchmarks" / "full.json"),
                               "--check"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_the_docs_tables_refuse_a_missing_results_file_in_one_line(self):
        done = subprocess.run([sys.executable, str(sb.ROOT / "plot" / "swarm_doc_tables.py"),
                               "/nonexistent/full.json"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2, done.stderr)
        lines = done.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("/nonexistent/full.json", lines[0])
        self.assertIn("accepted: ", lines[0])

    def test_gas_files_are_what_make_gases_writes(self):
        done = subprocess.run([sys.executable, str(sb.ROOT / "data" / "swarm" / "make_gases.py"),
                               "--check"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_each_case_names_its_gas_file_species_sizes_and_sources(self):
        sources = self.benchmarks["sources"]
        for case in self.benchmarks["cases"]:
            with self.subTest(case=case["name"]):
                path = sb.ROOT / case["gas_file"]
                self.assertTrue(path.exists(), path)
                species = case["gas"].split(":")[0]
                self.assertIn(species, species_in(path))
                for size in ("ci", "full"):
                    s = case["sizes"][size]
                    # docs/physics.md, "Averages and their errors": the first phase's bulk
                    # coefficients start from a swarm at the origin, and blocked errors need at
                    # least 16 phases averaged.
                    self.assertGreaterEqual(s["average_from"], 1)
                    self.assertGreaterEqual(s["phases"] - s["average_from"], 16)
                    for q in s.get("compare", ()):
                        self.assertIn(q, sb.QUANTITIES)
                for ref in case["references"]:
                    self.assertIn("code", ref)
                    self.assertIn(ref["quantity"], sb.QUANTITIES)
                    self.assertIn(ref["source"], sources)
                    self.assertEqual(ref["unit"], sb.QUANTITIES[ref["quantity"]])

    def test_published_errors_and_outliers_follow_their_rule(self):
        marked = []
        for case in self.benchmarks["cases"]:
            by_quantity = {}
            for ref in case["references"]:
                if "printed" in ref:
                    by_quantity.setdefault(ref["quantity"], []).append(ref)
            for q, refs in by_quantity.items():
                with self.subTest(case=case["name"], quantity=q):
                    again = copy.deepcopy(refs)
                    sb.mark_published(again)
                    for stored, rule in zip(refs, again):
                        self.assertEqual(stored.get("outlier"), rule.get("outlier"), stored)
                        self.assertEqual(stored["error_from"], rule["error_from"], stored)
                        self.assertAlmostEqual(stored["error"] / rule["error"], 1.0, places=9)
                    marked += [f"{case['name']} {q} {r['code']}" for r in refs if "outlier" in r]
        print("published values marked outliers among the codes:", "; ".join(marked))
        # The odd ones the tables show at a glance (data/swarm/README.md).
        self.assertIn("reid-ramp-12Td mean_energy_eV MCC Raspopovic 1999", marked)
        self.assertIn("reid-ramp-24Td mean_energy_eV MCC Raspopovic 1999", marked)
        self.assertIn("reid-ramp-12Td bulk_ND_L_per_m_s MCC White 1997", marked)

    def test_the_rule_marks_a_value_far_from_the_others_and_spreads_the_rest(self):
        refs = [{"value": v, "printed": p, "printed_scale": 1.0}
                for v, p in ((1.00, "1.00"), (1.01, "1.01"), (0.99, "0.99"), (1.10, "1.10"))]
        sb.mark_published(refs)
        self.assertEqual(["outlier" in r for r in refs], [False, False, False, True])
        self.assertAlmostEqual(refs[0]["error"], 0.01)  # the spread of the three that agree
        self.assertEqual(refs[0]["error_from"], "spread")
        printed = {"value": 1.0, "printed": "1.0", "printed_scale": 1.0,
                   "printed_sigma_percent": 1.0}
        sb.mark_published([printed])
        self.assertEqual((printed["error"], printed["error_from"]), (0.05, "rounding"))

    def test_analytic_references_agree_with_their_formulas(self):
        for case in self.benchmarks["cases"]:
            a = case.get("analytic")
            if not a:
                continue
            values = sb.maxwell_transport(a["sigma0_A2"], a["mass_ratio"],
                                          case["reduced_field_Td"], a["temperature_K"])
            if "attachment_coefficient_A2_eV_half" in a:
                k = sb.constant_frequency_rate(a["attachment_coefficient_A2_eV_half"])
                values["attachment_rate_coefficient_m3_per_s"] = k
                values["eta_N_m2"] = k / values["bulk_drift_m_per_s"]
            for ref in case["references"]:
                with self.subTest(case=case["name"], quantity=ref["quantity"]):
                    self.assertAlmostEqual(ref["value"] / values[ref["quantity"]], 1.0, places=8)

    def test_maxwell_formulas_give_the_readme_values_and_the_einstein_limit(self):
        # 4943.15 m/s at 1 Td for 6 eps^-1/2 A^2 and 4 u (data/swarm/README.md), and as m/M -> 0
        # D_L = D_T = 2 eps / (3 m nu), the Einstein relation at the mean energy.
        v = sb.maxwell_transport(6.0, 5.48579909065e-4 / 4, 1.0)
        self.assertAlmostEqual(v["bulk_drift_m_per_s"], 4943.152, places=2)
        tiny = sb.maxwell_transport(6.0, 1e-9, 1e-3)
        nu = 6e-20 * math.sqrt(2 * sb.ELEMENTARY_CHARGE / sb.ELECTRON_MASS)
        einstein = 2 * tiny["mean_energy_eV"] * sb.ELEMENTARY_CHARGE / (3 * sb.ELECTRON_MASS * nu)
        self.assertAlmostEqual(tiny["bulk_ND_T_per_m_s"] / einstein, 1.0, places=6)
        self.assertAlmostEqual(tiny["bulk_ND_L_per_m_s"] / einstein, 1.0, places=6)


class AgainstReferences(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not sb.SCHEDBENCH.exists():
            raise AssertionError(f"{sb.SCHEDBENCH} not found: build first (make build)")
        cls.results = sb.run_all(sb.load_benchmarks(), "ci", "cpu-openmp", sb.SCHEDBENCH,
                                 only_referenced=True)

    def test_every_case_ran(self):
        for case in self.results["cases"]:
            with self.subTest(case=case["name"]):
                self.assertNotIn("error", case, case.get("error"))

    def each(self):
        """(case, quantity, ours, its error, compared references) per quantity compared."""
        for case in self.results["cases"]:
            by_quantity = {}
            for c in case["comparisons"]:
                if c["compared"]:
                    by_quantity.setdefault(c["quantity"], []).append(c)
            for q, refs in by_quantity.items():
                mine = case["ours"].get(q, {})
                yield case["name"], q, mine.get("mean"), mine.get("error"), refs

    def check_present(self, name, q, value, error):
        self.assertTrue(sb.finite(value), f"{name}: no average of {q}")
        self.assertTrue(sb.finite(error), f"{name}: no standard error of {q} (fewer than two "
                                          "phases averaged?)")

    def test_within_two_combined_errors_of_each_code(self):
        counted, outside = 0, []
        for name, q, value, error, refs in self.each():
            for r in refs:
                with self.subTest(case=name, quantity=q, code=r["code"]):
                    self.check_present(name, q, value, error)
                    combined = math.hypot(error, r["reference_error"])
                    off = abs(value - r["reference"])
                    line = (f"{name} {q}: ours {value:.5g} ± {error:.2g}, {r['code']} "
                            f"{r['reference']:.5g} ± {r['reference_error']:.2g}: "
                            f"{off / combined if combined else 0:.1f} combined errors")
                    if r["outlier"]:
                        # The odd one among the codes (benchmarks.json marks it by the rule of
                        # data/swarm/README.md, "Published values"): reported, not asserted.
                        print(f"{line} [outlier among the codes]")
                        continue
                    print(line)
                    counted += 1
                    if off > TWO_ERRORS * combined:
                        outside.append(line)
                    self.assertLessEqual(off, FAR * combined, line)
        print(f"within {TWO_ERRORS} combined errors: {counted - len(outside)} of {counted}")
        # Chance alone leaves 4.6 % of normal deviates outside two standard errors; our blocked
        # errors are themselves uncertain by about 25 % (docs/physics.md, "Averages and their
        # errors") and the codes' spreads more, so twice that.
        self.assertLessEqual(len(outside), OUTSIDE_TWO * counted, "\n".join(outside))

    def test_within_half_a_percent_of_the_codes_mean_where_they_agree(self):
        for name, q, value, error, refs in self.each():
            agreeing = [r for r in refs if not r["outlier"]]
            values = [r["reference"] for r in agreeing]
            mean = sum(values) / len(values)
            # Codes agree when two or more do; an analytic value is exact by itself.
            several = len(agreeing) > 1 or all(r["reference_error"] == 0 for r in agreeing)
            if not several or mean == 0 or max(values) - min(values) > AGREE * abs(mean):
                continue
            with self.subTest(case=name, quantity=q):
                self.check_present(name, q, value, error)
                mean_error = math.sqrt(sum(r["reference_error"] ** 2 for r in agreeing)) / len(
                    agreeing)
                resolution = TWO_ERRORS * math.hypot(error, mean_error) / abs(mean)
                print(f"{name} {q}: ours {value:.6g} ± {error:.2g}, the codes' mean {mean:.6g} "
                      f"({100 * (value / mean - 1):+.2f} %)")
                # A comparison that cannot resolve 0.5 % would pass or fail it by chance.
                if resolution > AGREE:
                    print(f"  0.5 % not asserted: {TWO_ERRORS} combined errors are "
                          f"{100 * resolution:.2f} % at this run size")
                    continue
                self.assertLessEqual(abs(value / mean - 1), AGREE)


if __name__ == "__main__":
    unittest.main()
