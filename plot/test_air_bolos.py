"""sim air against the two-term Boltzmann solver bolos on data/lxcat-siglo.txt, within these
tolerances, on plot/validate_air.py's runs (about a minute on two cores): in N2 at 100, 200, 400
and 800 Td the mean energy and the flux drift velocity within 5 %, alpha/N within 15 % at 200
and 400 Td (printed at 100 and 800 Td); for N2:0.8,O2:0.2 the critical field (alpha = eta)
within 5 Td.

At 100 Td the mean energy is 6.6 % above bolos's: an expected failure, kept so that a change
which closes the gap is seen. The gap is the two-term approximation's, not the Monte Carlo's:
with N2's vibrational excitations taken out of the file on both sides, the two agree within
0.1 % (asserted within 5 %), and with them at 30 % of their size within 0.6 % (asserted within
2 %). docs/physics.md, "Comparison with bolos", has the table."""

import pathlib
import tempfile
import unittest

import air_bolos as ab
import validate_air as va


def setUpModule():
    if not ab.SCHEDBENCH.exists():
        raise AssertionError(f"{ab.SCHEDBENCH} not found: build first (make build)")


class N2AgainstBolos(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        processes = ab.load_processes()
        cls.rows = {td: va.n2_row(td, settings, processes)
                    for td, settings in va.N2_RUNS.items()}

    def check(self, td, key, bolos_key=None, tolerance=0.05):
        row = self.rows[td]
        (value, error), reference = row["air"][key], row["bolos"][bolos_key or key]
        difference = value / reference - 1
        print(f"N2 {td} Td {key}: air {value:.5g} ± {error:.2g}, bolos {reference:.5g} "
              f"({100 * difference:+.1f} %)")
        self.assertLess(abs(difference), tolerance)

    def test_flux_drift_within_5_percent(self):
        for td in va.N2_RUNS:
            with self.subTest(td=td):
                self.check(td, "flux_drift_m_per_s")

    def test_mean_energy_within_5_percent_from_200_td(self):
        for td in (200, 400, 800):
            with self.subTest(td=td):
                self.check(td, "mean_energy_eV")

    @unittest.expectedFailure
    def test_mean_energy_within_5_percent_at_100_td(self):
        self.check(100, "mean_energy_eV")

    def test_alpha_within_15_percent_at_200_and_400_td(self):
        for td in (200, 400):
            with self.subTest(td=td):
                self.assertGreater(self.rows[td]["air"]["ionizations"], 2000)
                self.check(td, "alpha_N_m2", tolerance=0.15)
        for td in (100, 800):
            (value, error), reference = self.rows[td]["air"]["alpha_N_m2"], \
                self.rows[td]["bolos"]["alpha_N_m2"]
            print(f"N2 {td} Td alpha/N (not asserted): air {value:.4g} ± {error:.2g}, "
                  f"bolos {reference:.4g} ({100 * (value / reference - 1):+.1f} %)")


class WithoutVibrations(unittest.TestCase):
    def test_mean_energy_and_drift_agree_at_100_td(self):
        with tempfile.TemporaryDirectory() as tmp:
            plain = pathlib.Path(tmp) / "no-vibrations.txt"
            ab.without_vibrations(plain)
            row = va.n2_row(va.NO_VIBRATIONS_TD, va.N2_RUNS[va.NO_VIBRATIONS_TD],
                            ab.load_processes(plain), plain)
        for key in ("mean_energy_eV", "flux_drift_m_per_s"):
            (value, _), reference = row["air"][key], row["bolos"][key]
            with self.subTest(quantity=key):
                self.assertLess(abs(value / reference - 1), 0.05)


    def test_mean_energy_agrees_within_2_percent_with_vibrations_at_30_percent(self):
        # The gap grows faster than the vibrational cross sections (docs/physics.md: about
        # -0.5, +0.6, +2.7, +6.6 % at 0.1, 0.3, 0.6 and 1 times their size), as an error of the
        # two-term approximation would, not in proportion as a wrong energy loss would.
        with tempfile.TemporaryDirectory() as tmp:
            scaled = pathlib.Path(tmp) / "vibrations-0.3.txt"
            ab.vibrations_scaled(scaled, 0.3)
            row = va.n2_row(va.NO_VIBRATIONS_TD, va.N2_RUNS[va.NO_VIBRATIONS_TD],
                            ab.load_processes(scaled), scaled)
        (value, _), reference = row["air"]["mean_energy_eV"], row["bolos"]["mean_energy_eV"]
        print(f"N2 100 Td, vibrations x 0.3: mean energy air {value:.4g}, bolos {reference:.4g}")
        self.assertLess(abs(value / reference - 1), 0.02)


class AirCriticalField(unittest.TestCase):
    def test_within_5_td_of_bolos(self):
        critical = va.critical_field(va.AIR_FIELDS, va.AIR_RUN, ab.load_processes())
        print(f"N2:0.8,O2:0.2 critical field: air {critical['air_Td']:.1f} Td, "
              f"bolos {critical['bolos_Td']:.1f} Td")
        self.assertLess(abs(critical["air_Td"] - critical["bolos_Td"]), 5.0)


if __name__ == "__main__":
    unittest.main()
